import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import picomatch from 'picomatch';
import { isSecretPath, SECRET_FILE_GLOBS } from '../../../src/core/redact/files';
import { repoPaths } from '../helpers';

// The glob set alone, as isSecretPath read it before its name pre-check: the reference the fast path must equal.
const GLOBS = picomatch([...SECRET_FILE_GLOBS], { dot: true, nocase: true });
const reference = (p: string) => {
  const rel = p.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '').replace(/^\/+/, '');
  return GLOBS(rel) && !/\.(?:example|sample|template|dist|pub)$/i.test(rel);
};

const FILLS = ['', 'x', 'Prod.Local', '_2', 'a.b-c'];
const PREFIXES = ['', 'a/', 'deep/er/', './', '/abs/', 'C:\\u\\.ssh\\', 'Env/'];
const SUFFIXES = ['', '/', '.example', '.PUB', '.bak', '~'];
const caseVariants = (s: string) => [s, s.toUpperCase(), s.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c))];

/** Paths each glob matches, in every case, depth and separator, with and without endings that undo a match. */
function samples(): string[] {
  const out: string[] = [];
  for (const glob of SECRET_FILE_GLOBS) {
    const tail = glob.replace(/^\*\*\//, '');
    for (const fill of FILLS) {
      const name = tail.split('*').join(fill);
      for (const variant of caseVariants(name)) for (const prefix of PREFIXES) for (const suffix of SUFFIXES) out.push(prefix + (prefix.includes('\\') ? variant.replace(/\//g, '\\') : variant) + suffix);
    }
  }
  return out;
}


describe('isSecretPath: the glob set through globMatcher and its pre-check', () => {
  it('answers as the glob set alone on every pattern, in every case, depth and separator', () => {
    const all = samples();
    const differ = all.filter((p) => isSecretPath(p) !== reference(p));
    assert.deepEqual(differ, []);
    const secret = all.filter(reference).length;
    assert.ok(secret > all.length / 3, `the samples hold secret names (${secret} of ${all.length})`);
  });

  it('answers as the glob set alone on every path of this repository, and on those names with a secret name inside', () => {
    const paths = repoPaths();
    assert.ok(paths.length > 1000, `${paths.length} paths`);
    const mutated = paths.flatMap((p, i) => [`${p}.env`, `${path.posix.dirname(p)}/id_${path.posix.basename(p)}`, `${p}/.aws/credentials`.slice(i % 3)]);
    const differ = [...paths, ...mutated].filter((p) => isSecretPath(p) !== reference(p));
    assert.deepEqual(differ, []);
  });

  it('keeps the examples it always gave', () => {
    assert.deepEqual(
      ['.env', 'api/.env.production', 'deploy/prod.env', 'certs/server.key', 'C:\\u\\.ssh\\id_ed25519', '/home/u/.netrc', '.aws/credentials', '.docker/config.json', 'infra/terraform.tfstate', '.env.example', 'id_rsa.pub', 'docs/env.md', 'src/keys.ts', 'config.json'].map(isSecretPath),
      [true, true, true, true, true, true, true, true, true, false, false, false, false, false],
    );
  });
});
