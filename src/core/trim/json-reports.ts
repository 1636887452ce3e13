import { readDartJson } from './dart-json';
import { readGoJson } from './go-json';
import { readJestJson } from './jest-json';
import { readMochaJson } from './mocha-json';
import { readRspecJson } from './rspec-json';
import type { CaseReport } from './test-cases';
import type { Lines } from './types';

/**
 * Test reports written as JSON: whole documents (mocha's json reporter, `jest --json`, RSpec's json formatter) and
 * event streams, one JSON object a line (`go test -json`, `dart test --reporter json`, `flutter test --machine`).
 * Told apart by their first characters; each read by its own reader.
 */
export type JsonReportKind = 'mocha' | 'jest' | 'rspec' | 'go' | 'dart';

const HEAD_CHARS = 8192;

export function jsonReportKind(lines: Lines): JsonReportKind | undefined {
  let head = '';
  let first: string | undefined;
  for (const line of lines()) {
    if (first === undefined && line.trim() !== '') first = line.trim();
    head += `${line}\n`;
    if (head.length >= HEAD_CHARS) break;
  }
  if (first === undefined || !first.startsWith('{')) return undefined;
  if (/"Action"\s*:\s*"(?:start|run|output|pass|fail|skip|pause|cont|bench)"/.test(first) && /"(?:Package|Test)"\s*:/.test(first)) return 'go';
  // The runner's first event: {"protocolVersion":"0.1.1","runnerVersion":…,"pid":…,"type":"start","time":0}.
  if (/"protocolVersion"\s*:/.test(first) && /"type"\s*:\s*"start"/.test(first)) return 'dart';
  if (/"num(?:Failed|Passed|Total)Tests"\s*:/.test(head)) return 'jest';
  if (/^\s*\{\s*"stats"\s*:\s*\{/.test(head) && /"(?:tests|passes|failures)"\s*:/.test(head)) return 'mocha';
  if (/"examples"\s*:\s*\[/.test(head) && /"(?:full_description|summary_line)"\s*:|"version"\s*:\s*"\d/.test(head)) return 'rspec';
  return undefined;
}

/** Whole JSON documents above this many characters are not parsed (their head and tail are what is left). */
const MAX_DOCUMENT_CHARS = 64 << 20;

export function readJsonReport(kind: JsonReportKind, lines: Lines): CaseReport | undefined {
  if (kind === 'go') return readGoJson(lines);
  if (kind === 'dart') return readDartJson(lines);
  let text = '';
  let total = 0;
  for (const line of lines()) {
    total++;
    text += `${line}\n`;
    if (text.length > MAX_DOCUMENT_CHARS) return undefined;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== 'object') return undefined;
  const d = doc as Record<string, unknown>;
  if (kind === 'mocha') return readMochaJson(d, total);
  if (kind === 'jest') return readJestJson(d, total);
  return readRspecJson(d, total);
}
