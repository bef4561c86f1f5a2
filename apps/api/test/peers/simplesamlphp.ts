import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

/*
 * A real SAML 2.0 identity provider for tests: Debian's SimpleSAMLphp 1.19.7 served by `php -S` on
 * 127.0.0.1, its configuration written into a fresh temporary folder that SIMPLESAMLPHP_CONFIG_DIR
 * points at (lib/SimpleSAML/Utils/Config.php reads it before Debian's /etc/simplesamlphp). Users sign
 * in on SimpleSAMLphp's own username/password page (`exampleauth:UserPass`); browser.ts drives it.
 *
 * The options travel to PHP as one settings.json that the fixed config files below read, so no value
 * is ever spliced into PHP source.
 */

const SIMPLESAMLPHP = '/usr/share/simplesamlphp';
const PHP = '/usr/bin/php8.2';
// php8.2-xml (DOM), which Debian's simplesamlphp does not depend on, enables itself for the CLI here.
const REQUIRED_FILES = [`${SIMPLESAMLPHP}/www`, PHP, '/etc/php/8.2/cli/conf.d/20-dom.ini'];
export const SIMPLESAMLPHP_APT_COMMAND =
  'apt-get update && apt-get install -y simplesamlphp php8.2-cli php8.2-xml';

export const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const ATTRNAME_URI = 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri';
const ATTRNAME_BASIC = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
/** The attribute the NameID travels in through SimpleSAMLphp's filters; removed before sending. */
const NAMEID_CARRIER = 'kadai:nameid';

export interface KeyPair {
  /** PEM certificate. */
  cert: string;
  /** PEM private key. */
  key: string;
}

export interface SimpleSamlUser {
  password: string;
  /** Attribute name (as sent, e.g. 'urn:oid:0.9.2342.19200300.100.1.3' or 'mail') → values. */
  attributes: Record<string, string[]>;
  /** The NameID value sent for this user (default: the username). */
  nameId?: string;
}

export interface SimpleSamlIdpOptions {
  /** The service provider this IdP serves. */
  sp: { entityId: string; acsUrl: string; sloUrl: string; certificate?: string };
  users: Record<string, SimpleSamlUser>;
  /** The IdP's entity ID (default: its metadata URL, as SimpleSAMLphp names itself). */
  entityId?: string;
  signAssertion?: boolean;
  signResponse?: boolean;
  /** Encrypt the assertion to `sp.certificate`. */
  encryptAssertion?: boolean;
  nameIdFormat?: string;
  /** The IdP's keys: the first signs, all are published in metadata (at most three). */
  keyPairs?: KeyPair[];
  /** Sign LogoutRequests and LogoutResponses (default true). */
  signLogout?: boolean;
  /** Seconds an assertion stays valid (NotOnOrAfter); SimpleSAMLphp's default is 300. */
  assertionLifetime?: number;
}

export interface SimpleSamlIdp {
  /** http://127.0.0.1:<port>/simplesaml */
  baseUrl: string;
  entityId: string;
  metadataUrl: string;
  metadataXml: string;
  /** SingleSignOnService (HTTP-Redirect and HTTP-POST). */
  ssoUrl: string;
  /** SingleLogoutService (HTTP-Redirect). */
  sloUrl: string;
  /** The published signing certificates (PEM), signer first. */
  certificates: string[];
  /** Where a browser goes for IdP-initiated logout, ending at `returnTo` (must be on 127.0.0.1/localhost). */
  initSloUrl(returnTo: string): string;
  /** SimpleSAMLphp's log so far (debug level), for a failing test to print. */
  readLog(): Promise<string>;
  stop(): Promise<void>;
}

/** A self-signed RSA key pair (SHA-256, 2048 bits, valid for a year). */
export async function makeKeyPair(commonName: string): Promise<KeyPair> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  return { cert: pems.cert, key: pems.private };
}

/** Throws, naming the apt command, when Debian's SimpleSAMLphp, PHP 8.2 or its DOM extension is missing. */
export function assertSimpleSamlInstalled(): void {
  if (REQUIRED_FILES.every((file) => existsSync(file))) return;
  throw new Error(
    `SimpleSAMLphp and PHP 8.2 with its XML extensions are needed for this test. Run as root:\n  sudo ${SIMPLESAMLPHP_APT_COMMAND}`,
  );
}

/** The base64 body of a PEM certificate, as SAML metadata carries it. */
export function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

// A front controller for `php -S`: /simplesaml/<script>.php/<path-info> runs www/<script>.php with
// the server variables Apache's Alias would give it; other files under www/ are served as they are.
const ROUTER = `<?php
$www = '${SIMPLESAMLPHP}/www';
$uri = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (strpos($uri, '/simplesaml') !== 0) { http_response_code(404); return true; }
$rest = substr($uri, strlen('/simplesaml'));
if ($rest === '' || $rest === '/') { $rest = '/index.php'; }
if (preg_match('#^(/.*?\\.php)(/.*)?$#', $rest, $m)) {
    $file = $www . $m[1];
    if (!is_file($file)) { http_response_code(404); return true; }
    $_SERVER['SCRIPT_FILENAME'] = $file;
    $_SERVER['SCRIPT_NAME'] = '/simplesaml' . $m[1];
    $_SERVER['PATH_INFO'] = $m[2] ?? '';
    $_SERVER['PHP_SELF'] = $_SERVER['SCRIPT_NAME'] . $_SERVER['PATH_INFO'];
    if ($_SERVER['PATH_INFO'] === '') { unset($_SERVER['PATH_INFO']); }
    chdir(dirname($file));
    require $file;
    return true;
}
$file = realpath($www . $rest);
if ($file === false || strpos($file, $www . '/') !== 0 || !is_file($file)) { http_response_code(404); return true; }
$types = ['css' => 'text/css', 'js' => 'text/javascript', 'png' => 'image/png', 'svg' => 'image/svg+xml', 'ico' => 'image/x-icon'];
header('Content-Type: ' . ($types[pathinfo($file, PATHINFO_EXTENSION)] ?? 'application/octet-stream'));
readfile($file);
return true;
`;

const READ_SETTINGS = `$settings = json_decode(file_get_contents('SETTINGS'), true, 512, JSON_THROW_ON_ERROR);`;

// PHP 8.2 deprecation notices from SimpleSAMLphp 1.19 would otherwise land in pages and break redirects.
const CONFIG_PHP = `<?php
error_reporting(E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED);
${READ_SETTINGS}
$config = $settings['config'];
$config['logging.level'] = SimpleSAML\\Logger::DEBUG;
`;
const AUTHSOURCES_PHP = `<?php
${READ_SETTINGS}
$config = $settings['authsources'];
`;
const IDP_HOSTED_PHP = `<?php
${READ_SETTINGS}
$metadata[$settings['entityId']] = $settings['idpHosted'];
`;
const SP_REMOTE_PHP = `<?php
${READ_SETTINGS}
$metadata[$settings['spEntityId']] = $settings['spRemote'];
`;

/** The php servers still running: killed if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function waitForMetadata(url: string, child: ChildProcess, stderr: () => string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`php exited (${child.exitCode}):\n${stderr()}`);
    try {
      const response = await fetch(url);
      const body = await response.text();
      if (response.ok && body.includes('EntityDescriptor')) return body;
      // SimpleSAMLphp shows its errors as pages with status 200.
      if (response.ok) throw new Error(`${url} is not metadata:\n${body.slice(0, 3000)}`);
      if (response.status !== 404) throw new Error(`${url}: ${response.status}\n${body.slice(0, 3000)}`);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // fetch failed: not listening yet
    }
    if (Date.now() > deadline) throw new Error(`SimpleSAMLphp did not answer ${url}:\n${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function startSimpleSamlIdp(options: SimpleSamlIdpOptions): Promise<SimpleSamlIdp> {
  assertSimpleSamlInstalled();
  const keyPairs = options.keyPairs ?? [await makeKeyPair('kadai-test-idp')];
  if (keyPairs.length < 1 || keyPairs.length > 3) throw new Error('keyPairs: one to three key pairs');
  if (options.encryptAssertion && !options.sp.certificate)
    throw new Error('encryptAssertion needs sp.certificate');

  const dir = await mkdtemp(path.join(tmpdir(), 'kadai-saml-idp-'));
  let child: ChildProcess | undefined;
  try {
    for (const sub of ['config/metadata', 'cert', 'log', 'data', 'tmp', 'sessions']) {
      await mkdir(path.join(dir, sub), { recursive: true });
    }
    const certFiles = await Promise.all(
      keyPairs.map(async (pair, i) => {
        await writeFile(path.join(dir, `cert/idp${i}.key`), pair.key, { mode: 0o600 });
        await writeFile(path.join(dir, `cert/idp${i}.crt`), pair.cert);
        return { key: path.join(dir, `cert/idp${i}.key`), cert: path.join(dir, `cert/idp${i}.crt`) };
      }),
    );
    const settingsFile = path.join(dir, 'config/settings.json');
    for (const [file, source] of [
      ['router.php', ROUTER],
      ['config/config.php', CONFIG_PHP],
      ['config/authsources.php', AUTHSOURCES_PHP],
      ['config/metadata/saml20-idp-hosted.php', IDP_HOSTED_PHP],
      ['config/metadata/saml20-sp-remote.php', SP_REMOTE_PHP],
    ] as const) {
      await writeFile(path.join(dir, file), source.replaceAll('SETTINGS', settingsFile));
    }

    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const baseUrl = `${origin}/simplesaml`;
      const metadataUrl = `${baseUrl}/saml2/idp/metadata.php`;
      const entityId = options.entityId ?? metadataUrl;
      await writeFile(settingsFile, JSON.stringify(settings(options, { dir, baseUrl, entityId, certFiles })));
      let stderr = '';
      const php = spawn(
        PHP,
        [
          '-d',
          'error_reporting=E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED',
          '-d',
          'display_errors=stderr',
          '-d',
          'log_errors=0',
          '-S',
          `127.0.0.1:${port}`,
          path.join(dir, 'router.php'),
        ],
        {
          cwd: dir,
          env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: path.join(dir, 'config') },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      child = php;
      running.add(php);
      php.once('exit', () => running.delete(php));
      php.stderr?.setEncoding('utf8');
      // Keep the tail only: php -S logs every request.
      php.stderr?.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)));
      let metadataXml: string;
      try {
        metadataXml = await waitForMetadata(metadataUrl, php, () => stderr);
      } catch (error) {
        const lost = /Address already in use|Failed to listen/i.test(stderr);
        php.kill('SIGKILL');
        if (lost && attempt < 5) continue; // another process took the port between probe and bind
        throw error;
      }
      return {
        baseUrl,
        entityId,
        metadataUrl,
        metadataXml,
        ssoUrl: `${baseUrl}/saml2/idp/SSOService.php`,
        sloUrl: `${baseUrl}/saml2/idp/SingleLogoutService.php`,
        certificates: keyPairs.map((pair) => pair.cert),
        initSloUrl: (returnTo) =>
          `${baseUrl}/saml2/idp/initSLO.php?RelayState=${encodeURIComponent(returnTo)}`,
        readLog: () => readFile(path.join(dir, 'log/simplesamlphp.log'), 'utf8').catch(() => ''),
        stop: async () => {
          if (php.exitCode === null) {
            const exited = new Promise((resolve) => php.once('exit', resolve));
            php.kill('SIGTERM');
            await exited;
          }
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
  } catch (error) {
    child?.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function settings(
  options: SimpleSamlIdpOptions,
  where: { dir: string; baseUrl: string; entityId: string; certFiles: { key: string; cert: string }[] },
): Record<string, unknown> {
  const { dir, baseUrl, entityId, certFiles } = where;
  const nameIdFormat = options.nameIdFormat ?? NAMEID_PERSISTENT;
  const attributeNames = Object.values(options.users).flatMap((user) => Object.keys(user.attributes));
  const uriNames = attributeNames.length > 0 && attributeNames.every((name) => name.startsWith('urn:'));
  const users = Object.fromEntries(
    Object.entries(options.users).map(([username, user]) => [
      `${username}:${user.password}`,
      { ...user.attributes, [NAMEID_CARRIER]: [user.nameId ?? username] },
    ]),
  );
  const [signer, second, third] = certFiles;
  return {
    entityId,
    spEntityId: options.sp.entityId,
    config: {
      baseurlpath: `${baseUrl}/`,
      certdir: `${dir}/cert/`,
      loggingdir: `${dir}/log/`,
      datadir: `${dir}/data/`,
      tempdir: `${dir}/tmp/`,
      metadatadir: `${dir}/config/metadata/`,
      secretsalt: randomBytes(16).toString('hex'),
      'auth.adminpassword': randomBytes(16).toString('hex'),
      technicalcontact_name: 'Kadai tests',
      technicalcontact_email: 'na@example.org',
      timezone: 'UTC',
      'enable.saml20-idp': true,
      'module.enable': { exampleauth: true, core: true, saml: true },
      'trusted.url.domains': ['127\\.0\\.0\\.1(:\\d+)?', 'localhost(:\\d+)?'],
      'trusted.url.regex': true,
      showerrors: true,
      errorreporting: false,
      'logging.handler': 'file',
      'logging.logfile': 'simplesamlphp.log',
      'store.type': 'phpsession',
      'session.cookie.secure': false,
      'session.cookie.samesite': null,
      'session.phpsession.savepath': `${dir}/sessions`,
      'language.cookie.secure': false,
      'language.cookie.samesite': null,
      'language.default': 'en',
      production: true,
    },
    authsources: {
      admin: ['core:AdminPassword'],
      'example-userpass': { 0: 'exampleauth:UserPass', ...users },
    },
    idpHosted: {
      host: '__DEFAULT__',
      auth: 'example-userpass',
      privatekey: signer?.key,
      certificate: signer?.cert,
      ...(second ? { new_certificate: second.cert } : {}),
      // SimpleSAMLphp publishes a third key (its HTTPS one) as a signing key too.
      ...(third ? { 'https.certificate': third.cert } : {}),
      NameIDFormat: nameIdFormat,
      'attributes.NameFormat': uriNames ? ATTRNAME_URI : ATTRNAME_BASIC,
      logouttype: 'traditional',
      authproc: {
        10: { class: 'saml:AttributeNameID', Format: nameIdFormat, attribute: NAMEID_CARRIER },
        20: { class: 'core:PHP', code: `unset($attributes['${NAMEID_CARRIER}']);` },
      },
    },
    spRemote: {
      AssertionConsumerService: options.sp.acsUrl,
      SingleLogoutService: [{ Binding: REDIRECT_BINDING, Location: options.sp.sloUrl }],
      NameIDFormat: nameIdFormat,
      'attributes.NameFormat': uriNames ? ATTRNAME_URI : ATTRNAME_BASIC,
      'saml20.sign.assertion': options.signAssertion ?? true,
      'saml20.sign.response': options.signResponse ?? false,
      'assertion.encryption': options.encryptAssertion ?? false,
      // Logout messages are signed, as a real IdP's are (Kadai refuses unsigned LogoutRequests).
      'sign.logout': options.signLogout ?? true,
      ...(options.assertionLifetime === undefined ? {} : { 'assertion.lifetime': options.assertionLifetime }),
      ...(options.sp.certificate ? { certData: certificateBody(options.sp.certificate) } : {}),
    },
  };
}
