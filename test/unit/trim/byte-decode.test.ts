import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawTextOf } from '../../../src/core/trim/byte-lines';
import { prng } from './fixtures';

/** rawTextOf decodes a Buffer with Buffer#toString: exactly what TextDecoder (the streamed reader's decoder) gives. */
describe('rawTextOf', () => {
  it('decodes 20 000 seeded lines of random and invalid UTF-8 bytes as TextDecoder does, from a Buffer and from a Uint8Array', () => {
    const rand = prng(30);
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const pieces = [[0xef, 0xbb, 0xbf], [0xe2, 0x82], [0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x9f, 0x8e, 0x89], [0xe6, 0x97, 0xa5], [0x0d], [0x41], [0x80, 0x80]];
    for (let n = 0; n < 20000; n++) {
      const bytes: number[] = [];
      for (let k = 0; k < 1 + Math.floor(rand() * 12); k++) bytes.push(...(rand() < 0.2 ? [Math.floor(rand() * 256)] : pieces[Math.floor(rand() * pieces.length)]));
      const buf = Buffer.from([0x20, ...bytes, 0x20]);
      let want = decoder.decode(buf.subarray(1, buf.length - 1));
      if (want.endsWith('\r')) want = want.slice(0, -1);
      assert.equal(rawTextOf(buf, 1, buf.length - 1), want, JSON.stringify(bytes));
      assert.equal(rawTextOf(new Uint8Array(buf), 1, buf.length - 1), want);
    }
  });
});
