import { casePassed, type CaseResult } from './check-run';

/**
 * JUnit XML for `ctxctl check --junit`: one testsuite, one testcase per case; a failing case carries one
 * <failure> whose message lists its failing expectations with what was found, so any CI shows them.
 */

export function junitXml(results: CaseResult[], file: string): string {
  const failures = results.filter((r) => !casePassed(r)).length;
  const out = [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites name="context checks" tests="${results.length}" failures="${failures}">`];
  out.push(`  <testsuite name="${attr(file)}" tests="${results.length}" failures="${failures}" errors="0" skipped="0">`);
  for (const r of results) {
    out.push(`    <testcase classname="${attr(file)}" name="${attr(r.name)}" file="${attr(file)}" line="${r.line}">`);
    if (!casePassed(r)) {
      const lines = [...(r.error ? [r.error] : []), ...r.results.filter((x) => !x.ok).map((x) => `${x.expectation}: ${x.found} (${file}:${x.line})`)];
      out.push(`      <failure message="${attr(lines.join('; '))}" type="ContextCheckFailed">${text(lines.join('\n'))}</failure>`);
    }
    if (r.skipped.length) out.push(`      <system-out>${text(r.skipped.map((x) => `${x.expectation}: ${x.found}`).join('\n'))}</system-out>`);
    out.push('    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>');
  return out.join('\n') + '\n';
}

function text(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}
