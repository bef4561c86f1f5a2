import { ConfigError, loadConfig, type Config } from '../config.ts';
import { BackupRefusal, EXIT } from './backup-manifest.ts';

/*
 * The command lines of `npm run backup` and `npm run restore` (src/backup.ts, src/restore.ts): their
 * options, and how either command runs — a usage or configuration error is exit 2 with the usage, a
 * refusal its own exit code and message, every other failure exit 1.
 */

export class BackupUsageError extends Error {}

/** `--to DIR [--pg-bin DIR] [--copy-s3]` (also `--to=DIR`). */
export function parseBackupArgs(args: string[]): { to: string; pgBinDir?: string; copyS3: boolean } {
  const flags = parseFlags(args, ['to', 'pg-bin'], ['copy-s3']);
  if (!flags.values.to) throw new BackupUsageError('--to: the folder to write the backup into');
  return { to: flags.values.to, pgBinDir: flags.values['pg-bin'], copyS3: flags.switches.has('copy-s3') };
}

/** `--name value` or `--name=value` for `valued`, bare `--name` for `switches`; refuses the rest. */
export function parseFlags(
  args: string[],
  valued: string[],
  switches: string[] = [],
): { values: Record<string, string | undefined>; switches: Set<string> } {
  const values: Record<string, string | undefined> = {};
  const on = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const match = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(args[i]!);
    const name = match?.[1];
    if (!match || !name) throw new BackupUsageError(`Unknown argument: ${args[i]}`);
    if (switches.includes(name) && match[2] === undefined) {
      on.add(name);
      continue;
    }
    if (!valued.includes(name)) throw new BackupUsageError(`Unknown option: --${name}`);
    const value = match[2] ?? args[++i];
    if (value === undefined || value === '') throw new BackupUsageError(`--${name} needs a value`);
    values[name] = value;
  }
  return { values, switches: on };
}

/** `--from DIR [--pg-bin DIR]`. */
export function parseRestoreArgs(args: string[]): { from: string; pgBinDir?: string } {
  const flags = parseFlags(args, ['from', 'pg-bin']);
  if (!flags.values.from) throw new BackupUsageError('--from: the backup folder to restore');
  return { from: flags.values.from, pgBinDir: flags.values['pg-bin'] };
}

/** An operator's command: its report goes to stdout, problems to stderr, then the process exits. */
export function runOperatorCommand<A>(
  usage: string,
  parse: (args: string[]) => A,
  run: (args: A, config: Config, print: (line: string) => void) => Promise<void>,
): void {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  const main = async (): Promise<number> => {
    let args: A;
    let config: Config;
    try {
      args = parse(process.argv.slice(2));
      config = loadConfig();
    } catch (error) {
      if (error instanceof BackupUsageError || error instanceof ConfigError) {
        console.error(`${error.message}\n${usage}`);
        return EXIT.usage;
      }
      throw error;
    }
    try {
      await run(args, config, print);
      return EXIT.ok;
    } catch (error) {
      if (error instanceof BackupRefusal) {
        console.error(error.message);
        return error.exitCode;
      }
      throw error;
    }
  };
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(EXIT.failed);
    },
  );
}
