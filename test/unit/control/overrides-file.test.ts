import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors';
import { mergeOverrides, OVERRIDES_FILE, overrideFor, parseOverrides, readOverridesFile, setOverride, writeOverridesFile } from '../../../src/core/sources/overrides';

const located = (text: string) => {
  try {
    parseOverrides(text);
  } catch (e) {
    assert.ok(e instanceof InputError);
    return e.toString();
  }
  assert.fail('expected an InputError');
};

describe('.context/overrides.json', () => {
  it('reads include and exclude lists, normalised and without duplicates', () => {
    assert.deepEqual(parseOverrides('{"version": 1, "include": ["./docs/adr/0007.md", "docs/adr/0007.md", "docs\\\\x.md"], "exclude": ["docs/old/"]}'), {
      include: ['docs/adr/0007.md', 'docs/x.md'],
      exclude: ['docs/old/'],
    });
    assert.deepEqual(parseOverrides('{}'), { include: [], exclude: [] });
  });

  it('names file:line:col for every kind of bad input', () => {
    assert.equal(located('{\n  "include": ["a.md",]\n}'), '.context/overrides.json:2:22: invalid overrides file: value expected');
    assert.equal(located('{\n  "include": "a.md"\n}'), '.context/overrides.json:2:14: "include" must be a list of workspace-relative paths');
    assert.equal(located('{"version": 1,\n "exclude": ["../x"]}'), '.context/overrides.json:2:14: "exclude" entry 1: "../x" leads outside the workspace');
    assert.equal(located('{"exclude": ["/etc/passwd"]}'), '.context/overrides.json:1:14: "exclude" entry 1: "/etc/passwd" is absolute: use a path relative to the workspace');
    assert.equal(located('{"inclde": []}'), '.context/overrides.json:1:2: unknown key "inclde"; did you mean "include"? (keys: version, include, exclude)');
    assert.equal(located('["a.md"]'), '.context/overrides.json:1:1: overrides file must hold an object {"version": 1, "include": [...], "exclude": [...]}');
    assert.equal(located('{"version": 2}'), '.context/overrides.json:1:13: "version" must be 1, got 2');
    assert.equal(located('{"include": [3]}'), '.context/overrides.json:1:14: "include" entry 1: expected a path (a string), got 3');
    assert.equal(located('{"include": ["a"], "exclude": ["./a"]}'), '.context/overrides.json:1:32: "a" is both included and excluded: keep it in one list');
  });

  it('keeps a path in one list at most; the call wins over the file', () => {
    let o = setOverride({ include: [], exclude: [] }, 'docs/a.md', 'include');
    o = setOverride(o, 'docs/b.md', 'exclude');
    o = setOverride(o, 'docs/a.md', 'exclude');
    assert.deepEqual(o, { include: [], exclude: ['docs/b.md', 'docs/a.md'] });
    assert.deepEqual(setOverride(o, 'docs/b.md', undefined), { include: [], exclude: ['docs/a.md'] });
    assert.deepEqual(mergeOverrides(o, { include: ['docs/b.md'] }), { include: ['docs/b.md'], exclude: ['docs/a.md'] });
    assert.throws(() => setOverride(o, '../up.md', 'include'), /cannot override: "..\/up.md" leads outside the workspace/);
  });

  it('matches a path exactly, or below a folder ending in /; exclude wins over include', () => {
    const o = { include: ['docs/'], exclude: ['docs/old.md'] };
    assert.equal(overrideFor(o, 'docs/new.md'), 'include');
    assert.equal(overrideFor(o, 'docs/old.md'), 'exclude');
    assert.equal(overrideFor(o, 'docsx/a.md'), undefined);
  });

  it('writes the file, and removes it once empty instead of leaving empty lists', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctl-overrides-'));
    assert.deepEqual(readOverridesFile(root), { overrides: { include: [], exclude: [] }, warnings: [] });
    writeOverridesFile(root, { include: ['a.md'], exclude: [] });
    assert.equal(fs.readFileSync(path.join(root, OVERRIDES_FILE), 'utf8'), '{\n  "version": 1,\n  "include": [\n    "a.md"\n  ],\n  "exclude": []\n}\n');
    assert.deepEqual(readOverridesFile(root).overrides, { include: ['a.md'], exclude: [] });
    writeOverridesFile(root, { include: [], exclude: [] });
    assert.equal(fs.existsSync(path.join(root, OVERRIDES_FILE)), false);
    fs.mkdirSync(path.join(root, OVERRIDES_FILE));
    assert.throws(() => readOverridesFile(root), /is a folder, not an overrides file \(JSON\)/);
  });
});
