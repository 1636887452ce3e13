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
  if (/"Action"\s*:\s*"(?:start|run|output|pass|fail|skip|pause|cont|bench)"/.test(first) && /"(?:Package|Test|Time)"\s*:/.test(first)) return 'go';
  if (/"protocolVersion"\s*:/.test(first) || (/"type"\s*:\s*"(?:start|allSuites|suite|testStart|group)"/.test(first) && /"time"\s*:/.test(first))) return 'dart';
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

/** Helpers for the readers: a string field, a number field, an array field. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const arr = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : []);
export const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
/** Terminal colours some reporters leave in their messages. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
export const plain = (s: string): string => s.replace(COLOUR, '');

/** Split a message into its first line (the message) and the rest (the body). */
export function splitMessage(text: string | undefined): { message?: string; rest: string } {
  const lines = plain(text ?? '').split('\n');
  const at = lines.findIndex((l) => l.trim() !== '');
  if (at < 0) return { rest: '' };
  return { message: lines[at].trim(), rest: lines.slice(at + 1).join('\n') };
}
