import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { redactLines } from '../../../src/core/redact/apply';
import { fileLines } from '../../../src/core/sources/line-reader';
import { InfoColumn, LEVEL_ERROR, LEVEL_INFO, LEVEL_NONE, LEVEL_WARN, leadingLevelCode, leadingLevelOf } from '../../../src/core/trim/level-column';
import { INFO_VALUES, structuredInfo } from '../../../src/core/trim/structured-level';
import { ASCII_SPACE, BRACKET_WORDS, COLUMN_AFTER, COLUMN_WORDS, JSON_LEVEL_KEYS, LEVEL_WORDS, levelOfWord, LOGFMT_LEVEL_KEYS, type StatedLevel } from '../../../src/core/trim/level-rule';
import { redactedFileLines, STREAM_CHUNK_BYTES } from '../../../src/core/trim/lines';
import { useLineKernel } from '../../../src/core/trim/log-bytes';
import { isStackLine } from '../../../src/core/trim/log-parse';
import { scanErrors, type LogScan } from '../../../src/core/trim/log-scan';
import { severityOf, statedLevel } from '../../../src/core/trim/severity';
import { prng } from './fixtures';

/**
 * The level rule is written once, as data (level-rule.ts); severity.ts's regular expressions, level-column.ts's byte
 * tables and the line kernel are derived from it. Lines are generated here from that data (every word, every
 * delimiter, every key), so a word added to the rule is checked in every path: the fast paths must give
 * exactly severity.ts's answer, and a log of such lines must scan the same from its bytes (with and without the
 * line kernel) as from its decoded lines.
 */

const CODE: Record<StatedLevel, number> = { error: LEVEL_ERROR, warn: LEVEL_WARN, info: LEVEL_INFO };
const ALL_WORDS = [...LEVEL_WORDS.error, ...LEVEL_WORDS.warn, ...LEVEL_WORDS.info];
const cases = (w: string) => [w.toUpperCase(), w.toLowerCase(), w[0].toUpperCase() + w.slice(1).toLowerCase()];

/** Prefixes a leading column may follow (a timestamp, bracketed lower-case fields), and some it may not. */
const LEADING_PREFIXES = ['', '2026-11-12T08:00:00.123Z ', '2026-11-12 08:00:00,123 ', '12:00:01 ', '2026-11-12 08:00:00 [main] ', '[exec-1] ', '2026-11-12 08:00:00 - ', '[2026-11-12 08:00:00]:'];
const OTHER_PREFIXES = ['Jun 14 15:16:01 combo app[12]: ', 'host-1 ', '  ', '2026-11-12 08:00:00 [Main] ', '>> '];
const DELIMITERS = [...ASCII_SPACE.replace('\n', ''), ...COLUMN_AFTER];
const NOT_DELIMITERS = ['x', '_', '.', '1', '/', '=', 'é'];
const TAILS = ['', ' payment created id=42', ' upstream said [error] and level=error', ' failed to open segment: timeout', ' c.a.Foo - WARN retry 3'];

describe('the rule as data (level-rule.ts)', () => {
  it('every column and bracket word has a level; a word has one level only', () => {
    for (const w of [...COLUMN_WORDS, ...BRACKET_WORDS]) assert.ok(levelOfWord(w), w);
    assert.equal(new Set(ALL_WORDS).size, ALL_WORDS.length);
  });

  it('the byte path reads JSON and logfmt info values from the same words', () => {
    assert.deepEqual([...INFO_VALUES].sort(), [...LEVEL_WORDS.info].sort());
  });
});

describe('the leading column, from the rule: bytes, string and severity.ts agree', () => {
  it('every column word after every prefix it may follow, before every delimiter: the word’s level, whatever follows', () => {
    let n = 0;
    for (const word of COLUMN_WORDS) {
      const level = levelOfWord(word)!;
      for (const prefix of LEADING_PREFIXES) {
        for (const d of DELIMITERS) {
          for (const tail of TAILS) {
            const line = `${prefix}${word}${d}${tail}`;
            const bytes = Buffer.from(line, 'latin1');
            assert.equal(leadingLevelCode(bytes, 0, bytes.length), CODE[level], JSON.stringify(line));
            assert.equal(leadingLevelOf(line), CODE[level], JSON.stringify(line));
            assert.equal(statedLevel(line), level, JSON.stringify(line));
            assert.equal(severityOf(line), level, JSON.stringify(line));
            if (level === 'info') assert.equal(isStackLine(line), false, JSON.stringify(line));
            n++;
          }
        }
      }
    }
    assert.equal(n, COLUMN_WORDS.length * LEADING_PREFIXES.length * DELIMITERS.length * TAILS.length);
  });

  it('no leading column: a word in lower case or capitalised, glued to what follows, or after another prefix', () => {
    for (const word of COLUMN_WORDS) {
      for (const prefix of LEADING_PREFIXES) {
        for (const w of cases(word).slice(1)) assert.equal(leadingLevelOf(`${prefix}${w} x`), LEVEL_NONE, `${prefix}${w} x`);
        for (const d of NOT_DELIMITERS) assert.equal(leadingLevelOf(`${prefix}${word}${d} x`), LEVEL_NONE, `${prefix}${word}${d} x`);
      }
      for (const prefix of OTHER_PREFIXES) assert.equal(leadingLevelOf(`${prefix}${word} x`), LEVEL_NONE, `${prefix}${word} x`);
    }
  });

  it('a column word later in the line (syslog, after a tag) is still the line’s level in severity.ts, upper case only', () => {
    for (const word of COLUMN_WORDS) {
      const level = levelOfWord(word)!;
      assert.equal(statedLevel(`Jun 14 15:16:01 combo app[12]: ${word}: disk check done`), level, word);
      assert.equal(statedLevel(`Jun 14 15:16:01 combo app[12]: [${word}] disk check done`), level, word);
      assert.equal(statedLevel(`Jun 14 15:16:01 combo app[12]: ${word.toLowerCase()}x disk check done`), undefined, word);
    }
  });

  it('bracketed words in any case, after a module or not', () => {
    for (const word of BRACKET_WORDS) {
      for (const w of cases(word)) {
        assert.equal(statedLevel(`[Sun Dec 04 04:47:44 2005] [${w}] mod_jk child init`), levelOfWord(word), w);
        assert.equal(statedLevel(`[Sun Dec 04 04:47:44 2005] [core:${w}] mod_jk child init`), levelOfWord(word), w);
      }
    }
  });
});

describe('JSON and logfmt levels, from the rule: bytes and severity.ts agree', () => {
  it('every level key with every level word in any case: the word’s level; info read from bytes exactly when it is info', () => {
    for (const word of ALL_WORDS) {
      const level = levelOfWord(word)!;
      for (const w of cases(word)) {
        const lines = [
          ...JSON_LEVEL_KEYS.map((k) => `{"time":"2026-11-12T08:00:00Z","${k}":"${w}","msg":"payment 42 failed"}`),
          ...LOGFMT_LEVEL_KEYS.map((k) => `time=2026-11-12T08:00:00Z ${k}=${w} msg="payment 42 failed"`),
          ...LOGFMT_LEVEL_KEYS.map((k) => `${k}=${w} ts=2026-11-12T08:00:00Z caller=main.go:7 err="timeout"`),
        ];
        for (const line of lines) {
          const bytes = Buffer.from(line, 'latin1');
          assert.equal(severityOf(line), level, line);
          assert.equal(structuredInfo(bytes, 0, bytes.length), level === 'info', line);
        }
      }
    }
  });
});

describe("pino's numeric levels, from the rule: bytes and severity.ts agree", () => {
  /** What may follow the level: nothing a string level key could start, or a key that may be one (any case). */
  const RESTS = ['', ',"msg":"payment 42 failed"', ',"time":1731398400123,"hostname":"web-1","msg":"x"', ...JSON_LEVEL_KEYS.flatMap((k) => cases(k).map((c) => `,"${c}":"error"`)), ',"lvl":"info"', ',"s":"y"', ',"msg":"a","`q":1'];
  it('every two-digit level, first or after another key, with and without a key after it that may hold a string level', () => {
    for (let n = 0; n < 100; n++) {
      const level = String(n).padStart(2, '0');
      for (const head of ['{', '{"time":1731398400123,', '{"pid":42, ']) {
        for (const rest of RESTS) {
          const line = `${head}"level":${level}${rest}}`;
          const bytes = Buffer.from(line, 'latin1');
          const info = structuredInfo(bytes, 0, bytes.length);
          // Read as info from bytes only when severity.ts reads info; and exactly then when nothing after it may be a string level.
          if (info) assert.equal(severityOf(line), 'info', line);
          const plain = !/"[lLsS@`]/.test(rest);
          if (plain) assert.equal(info, severityOf(line) === 'info', line);
          else assert.equal(info, false, line);
        }
      }
    }
  });

  it('one digit, three digits, a fraction, a quoted number or another case of the key are left to the decoded line', () => {
    for (const line of ['{"level":3,"msg":"x"}', '{"level":300,"msg":"x"}', '{"level":30.5,"msg":"x"}', '{"level":"30","msg":"x"}', '{"Level":30,"msg":"x"}', '{"LEVEL":30}', '{"levels":30}']) {
      const bytes = Buffer.from(line, 'latin1');
      assert.equal(structuredInfo(bytes, 0, bytes.length), false, line);
    }
  });
});

describe('a log made from the rule scans the same from its bytes as from its lines', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-level-rule-'));
  after(() => {
    useLineKernel('auto');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs of lines of one shape (so the line kernel learns it), every shape built from the rule's data. */
  function ruleLog(seed: number, n: number): string {
    const rand = prng(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const shapes = [
      () => `${pick(LEADING_PREFIXES)}${pick(COLUMN_WORDS)}${pick(DELIMITERS)}${pick(TAILS)}`,
      () => `{"time":"2026-11-12T08:00:0${Math.floor(rand() * 10)}Z","${pick(JSON_LEVEL_KEYS)}":"${pick(cases(pick(ALL_WORDS)))}","msg":"step ${Math.floor(rand() * 100)}"}`,
      () => `time=2026-11-12T08:00:00Z ${pick(LOGFMT_LEVEL_KEYS)}=${pick(ALL_WORDS)} msg="step ${Math.floor(rand() * 100)}"`,
      // pino: the digits below change line by line, the level's too (info, warn and error lines in one run of the shape).
      () => `{"level":LV,"time":1731398400123,"pid":4821,"msg":"step ${Math.floor(rand() * 100)}"${rand() < 0.1 ? `,"${pick(JSON_LEVEL_KEYS)}":"${pick(ALL_WORDS)}"` : ''}}`,
      () => `${pick(OTHER_PREFIXES)}${pick(cases(pick(COLUMN_WORDS)))} ${pick(TAILS)}`,
    ];
    const out: string[] = [];
    let run = '';
    let make = shapes[0];
    while (out.length < n) {
      if (rand() < 0.05 || run === '') {
        make = pick(shapes);
        run = make();
      }
      // The same shape with other digits (a timestamp moving on), now and then another line of it; pino's level is
      // mostly 30, now and then 20, 40 or 50.
      const line = rand() < 0.9 ? run.replace(/[0-9]/g, () => String(Math.floor(rand() * 10))) : make();
      out.push(line.replace('"level":LV', () => `"level":${pick(['30', '30', '30', '30', '30', '30', '20', '40', '50'])}`));
    }
    return out.join('\n') + '\n';
  }

  const comparable = (scan: LogScan) => {
    const { file: _file, ...rest } = scan;
    return { ...rest, groups: rest.groups.map(({ cluster: _c, ...g }) => g) };
  };

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: the same scan through the line kernel, without it, and streamed`, () => {
      const abs = path.join(dir, `rule-${seed}.log`);
      fs.writeFileSync(abs, ruleLog(seed, 20_000));
      const streamed = scanErrors(redactLines(() => fileLines(abs, STREAM_CHUNK_BYTES)));
      for (const mode of ['always', 'never'] as const) {
        useLineKernel(mode);
        const bytes = scanErrors(redactedFileLines(abs));
        assert.ok(bytes.file, `${mode}: read from its bytes`);
        assert.deepEqual(comparable(bytes), comparable(streamed), mode);
      }
      assert.ok(streamed.errors > 100 && streamed.warnings > 100 && streamed.total === 20_000, `${streamed.errors} errors, ${streamed.warnings} warnings, ${streamed.total} lines`);
    });
  }

  it('InfoColumn, line by line over one buffer, calls info exactly the lines the rule reads from bytes as info', () => {
    const text = Buffer.from(ruleLog(9, 5000));
    const column = new InfoColumn(text);
    let p = 0;
    let checked = 0;
    while (p < text.length) {
      let e = text.indexOf(10, p);
      if (e < 0) e = text.length;
      const plain = leadingLevelCode(text, p, e) === LEVEL_INFO || structuredInfo(text, p, e);
      assert.equal(column.isInfo(p, e) || column.isStructuredInfo(p, e), plain, text.toString('latin1', p, e));
      if (plain) assert.equal(severityOf(text.toString('latin1', p, e)), 'info', text.toString('latin1', p, e));
      checked++;
      p = e + 1;
    }
    assert.equal(checked, 5000);
  });
});
