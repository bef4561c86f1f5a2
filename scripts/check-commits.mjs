// `npm run commits` (part of `npm run check`): the subject of every commit made since this check
// began is at most 72 characters and in the imperative ("Add pytest test kind", not "Added …",
// "Adds …" or "Adding …"); the why goes in the body. Commits that landed before the check are history
// and are not checked; merge commits are not checked.
import { spawnSync } from 'node:child_process';

/** The last commit before the rule: everything after it is checked, on every machine and in CI. */
const RULE_STARTS_AFTER = 'b0027be1ec71564de35a9a5f69ee4f1e04cc5f42';
const MAX_SUBJECT = 72;

/** Imperatives that look like another form ("Seed the demo", "Bring back …", "Focus the field"). */
const IMPERATIVES = new Set(
  'seed embed speed feed need proceed exceed succeed shed bring string ping sing ring spring swing'.split(
    ' ',
  ),
);

function git(args) {
  const result = spawnSync('git', args, { encoding: 'utf8' });
  return result.status === 0 ? result.stdout : null;
}

/** Why a subject is refused, or null. The first word after an optional `scope: ` is the verb. */
export function subjectProblem(subject) {
  if (subject.length > MAX_SUBJECT) {
    return `${subject.length} characters (at most ${MAX_SUBJECT}: the detail goes in the body)`;
  }
  const verb =
    subject
      .replace(/^[\w./@-]+:\s+/, '')
      .split(/\s/)[0]
      ?.toLowerCase() ?? '';
  if (IMPERATIVES.has(verb)) return null;
  if (/^[a-z]+(ed|ing)$/.test(verb) || /^[a-z]+[^aisu]s$/.test(verb)) {
    return `"${verb}" is not the imperative: write the subject as a command ("Add …", "Fix …")`;
  }
  return null;
}

function main() {
  if (git(['rev-parse', '--git-dir']) === null) {
    console.log('commit subjects: not a git checkout, nothing to check');
    return 0;
  }
  const base = process.env.COMMITS_BASE ?? RULE_STARTS_AFTER;
  if (git(['cat-file', '-e', `${base}^{commit}`]) === null) {
    console.log(`commit subjects: ${base} is not in this clone (a shallow one?), nothing to check`);
    return 0;
  }
  const log = git(['log', '--no-merges', '--format=%h%x09%s', `${base}..HEAD`]) ?? '';
  const problems = log
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [hash, subject = ''] = line.split('\t');
      const problem = subjectProblem(subject);
      return problem ? `  ${hash} ${subject}\n      ${problem}` : null;
    })
    .filter(Boolean);
  if (problems.length > 0) {
    console.error(`commit subjects: ${problems.length} to reword (git rebase -i before they land):`);
    console.error(problems.join('\n'));
    return 1;
  }
  console.log('commit subjects: ok');
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main());
