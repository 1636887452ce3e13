import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import picomatch from 'picomatch';
import { globMatcher, requiredLiteral } from '../../../src/core/sources/globs';
import { defaultPolicy } from '../../../src/core/policy';
import { SECRET_FILE_GLOBS } from '../../../src/core/redact/files';
import { INSTRUCTION_GLOBS } from '../../../src/core/sources/instructions';
import { repoPaths } from '../helpers';


const PATHS = ['', 'a', 'a/', 'dist', 'dist/', 'x/dist', 'x/dist/', 'x/dist/y.js', 'node_modules/a/b.js', 'src/node_modules/', '.git/config', 'a/.git/x', '.context/offload/x.json', '.context/offload', 'out/a.js', 'docs/out.md', 'logs/app.log', 'a/b/c.log', 'test-results/r.xml', 'junit-1.xml', 'a/TEST-x.xml', 'notes/d0/note-1.md', '.hidden/x.md', 'a/.env', 'build', 'target/x', 'README.md', 'docs/{a}.md', 'weird name [1].md', 'ä/ß.md'];
const GLOBS = [
  defaultPolicy().exclude, defaultPolicy().tool_output.globs, ['*.md'], ['**/*.md', '!docs/**'], ['docs/{a,b}/**', '**/?est-*.xml'], ['README.md'], ['docs/{a}.md'], ['**/[abc]*.log', 'weird name [1].md'],
  [...SECRET_FILE_GLOBS], ...Object.values(INSTRUCTION_GLOBS), ['./src/**/*.TS', 'Docs/**'], ['**/*.{md,txt}', 'a/{b,{c,d}}/e*'], ['**', '*.md'], ['src/}x', 'ä/*.md'],
];

describe('globMatcher (sources/globs.ts)', () => {
  it('answers as picomatch does for every glob list and path', () => {
    for (const globs of GLOBS) {
      for (const options of [{ dot: true }, {}, { dot: true, nocase: true }]) {
        const fast = globMatcher(globs, options);
        const slow = picomatch(globs, options);
        for (const p of PATHS) assert.equal(fast(p), slow(p), `${JSON.stringify(globs)} ${JSON.stringify(options)} ${JSON.stringify(p)}`);
      }
    }
  });

  it('answers as picomatch does on every path of this repository, with its pre-check', () => {
    const paths = repoPaths().flatMap((p) => [p, `.hidden/${p}`, p.toUpperCase()]);
    for (const globs of GLOBS) {
      for (const options of [{ dot: true }, { dot: true, nocase: true }]) {
        const fast = globMatcher(globs, options);
        const slow = picomatch(globs, options);
        const differ = paths.filter((p) => fast(p) !== slow(p));
        assert.deepEqual(differ, [], `${JSON.stringify(globs)} ${JSON.stringify(options)}`);
      }
    }
  });

  it('pre-checks on the longest plain run of each glob, never on what a brace group, class or escape may change', () => {
    assert.deepEqual(
      ['**/node_modules/**', '**/*.log', './docs/adr/*.md', '**/.cursor/rules/**/*.{mdc,md}', '{a,b}', '**', '*.*', '**/[abc]*.log', 'a\\*', '!x', '+(a)', 'src/}x', 'a/../bb'].map((g) => requiredLiteral(g)),
      ['node_modules', '.log', 'docs', '.cursor', undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'bb'],
    );
    assert.deepEqual([requiredLiteral('**/*.PEM', true), requiredLiteral('**/Ä.md', true), requiredLiteral('**/Ä.md')], ['.pem', undefined, 'Ä.md']);
  });

  it('matches nothing without globs, and refuses an empty glob as picomatch does', () => {
    assert.equal(globMatcher([])('a'), false);
    assert.throws(() => globMatcher(['']), TypeError);
  });
});
