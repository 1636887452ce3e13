import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import picomatch from 'picomatch';
import { globMatcher } from '../../../src/core/sources/globs';
import { defaultPolicy } from '../../../src/core/policy';

const PATHS = ['', 'a', 'a/', 'dist', 'dist/', 'x/dist', 'x/dist/', 'x/dist/y.js', 'node_modules/a/b.js', 'src/node_modules/', '.git/config', 'a/.git/x', '.context/offload/x.json', '.context/offload', 'out/a.js', 'docs/out.md', 'logs/app.log', 'a/b/c.log', 'test-results/r.xml', 'junit-1.xml', 'a/TEST-x.xml', 'notes/d0/note-1.md', '.hidden/x.md', 'a/.env', 'build', 'target/x', 'README.md', 'docs/{a}.md', 'weird name [1].md', 'ä/ß.md'];
const GLOBS = [defaultPolicy().exclude, defaultPolicy().tool_output.globs, ['*.md'], ['**/*.md', '!docs/**'], ['docs/{a,b}/**', '**/?est-*.xml'], ['README.md'], ['docs/{a}.md'], ['**/[abc]*.log', 'weird name [1].md']];

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

  it('matches nothing without globs, and refuses an empty glob as picomatch does', () => {
    assert.equal(globMatcher([])('a'), false);
    assert.throws(() => globMatcher(['']), TypeError);
  });
});
