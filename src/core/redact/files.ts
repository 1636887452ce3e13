import { globMatcher } from '../sources/globs';

/**
 * Files that hold secrets by convention. Their content is never read into a request, whichever way a path comes
 * in: the workspace scan, a pin, read_document, a tool result. Examples and templates (`.env.example`) are not.
 */
export const SECRET_FILE_GLOBS: readonly string[] = [
  '**/.env',
  '**/.env.*',
  '**/*.env',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/*.jks',
  '**/*.keystore',
  '**/id_rsa*',
  '**/id_dsa*',
  '**/id_ecdsa*',
  '**/id_ed25519*',
  '**/.npmrc',
  '**/.pypirc',
  '**/.netrc',
  '**/_netrc',
  '**/.pgpass',
  '**/.git-credentials',
  '**/.htpasswd',
  '**/credentials*.json',
  '**/.aws/credentials',
  '**/.docker/config.json',
  '**/*.tfstate',
];
// One expression for the set, after a pre-check on the plain run of each glob (sources/globs.ts): the scan asks about
// every file of the workspace.
const SECRET_FILES = globMatcher(SECRET_FILE_GLOBS, { dot: true, nocase: true });
const NOT_SECRET = /\.(?:example|sample|template|dist|pub)$/i;

/** True for a path (workspace-relative or absolute, `/` or `\`) that names a secret file. */
export function isSecretPath(p: string): boolean {
  const rel = p.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '').replace(/^\/+/, '');
  return SECRET_FILES(rel) && !NOT_SECRET.test(rel);
}
