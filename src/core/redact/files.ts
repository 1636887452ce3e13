import picomatch from 'picomatch';

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
const SECRET_FILES = picomatch([...SECRET_FILE_GLOBS], { dot: true, nocase: true });
const NOT_SECRET = /\.(?:example|sample|template|dist|pub)$/i;
/**
 * A string the last segment of every path SECRET_FILES matches holds (in any case): `env`, `pem`, `key`, `p12`, `pfx`,
 * `jks`, `id_` (id_rsa…), `rc` (.npmrc, .pypirc, .netrc), `pass` (.pgpass, .htpasswd), `cred` (.git-credentials,
 * credentials*.json, .aws/credentials), `config.json` (.docker/config.json), `tfstate`. A name without any is not a
 * secret file, told without the glob set (the scan asks for every file of the workspace). Keep it in step with
 * SECRET_FILE_GLOBS: a unit test compares both on every pattern and on every path of this repository.
 */
const SECRET_NAME_HINT = /env|pem|key|p12|pfx|jks|id_|rc|pass|cred|config\.json|tfstate/i;

/** True for a path (workspace-relative or absolute, `/` or `\`) that names a secret file. */
export function isSecretPath(p: string): boolean {
  const rel = p.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '').replace(/^\/+/, '');
  const trimmed = rel.replace(/\/+$/, '');
  if (!SECRET_NAME_HINT.test(trimmed.slice(trimmed.lastIndexOf('/') + 1))) return false;
  return SECRET_FILES(rel) && !NOT_SECRET.test(rel);
}
