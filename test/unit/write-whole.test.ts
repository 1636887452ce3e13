import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { tmpName, writeWhole } from '../../src/core/write-whole';

const folder = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-whole-'));

describe('writeWhole', () => {
  it('replaces the file with the new text and leaves no temporary file', () => {
    const dir = folder();
    const file = path.join(dir, 'record.json');
    fs.writeFileSync(file, 'old\n');
    writeWhole(file, 'new\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'new\n');
    assert.deepEqual(fs.readdirSync(dir), ['record.json']);
  });

  it('writes through the given function, under the temporary name the store chose', () => {
    const dir = folder();
    const file = path.join(dir, 'overrides.json');
    let seen = '';
    writeWhole(file, (tmp) => {
      seen = path.basename(tmp);
      fs.writeFileSync(tmp, '{}\n');
    }, (id) => `.overrides-${id}.tmp`);
    assert.match(seen, /^\.overrides-[0-9a-f]{12}\.tmp$/);
    assert.equal(fs.readFileSync(file, 'utf8'), '{}\n');
    assert.deepEqual(fs.readdirSync(dir), ['overrides.json']);
  });

  it('keeps the old file and removes the temporary one when the write fails', () => {
    const dir = folder();
    const file = path.join(dir, 'record.json');
    fs.writeFileSync(file, 'old\n');
    assert.throws(() => writeWhole(file, (tmp) => {
      fs.writeFileSync(tmp, 'half');
      throw new Error('disk full');
    }), /disk full/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'old\n');
    assert.deepEqual(fs.readdirSync(dir), ['record.json']);
  });

  it('names temporary files unguessably, one new name per call', () => {
    const a = tmpName('/d');
    const b = tmpName('/d');
    assert.match(path.basename(a), /^\.tmp-[0-9a-f]{12}$/);
    assert.notEqual(a, b);
  });
});
