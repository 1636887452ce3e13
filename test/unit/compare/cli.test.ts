import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { run } from '../../../src/cli/main';
import { displayPath } from '../../../src/core/sources/snapshot';
import { counter, EXAMPLE } from '../helpers';
import { fakeClock, openaiText, startServer, type WireServer } from '../providers/wire';

const LEAN = path.join(EXAMPLE, '.context', 'policies', 'lean.yaml');
const POLICY = path.join(EXAMPLE, '.context', 'policy.yaml');
const TICKET = path.join(EXAMPLE, 'ticket.md');
const servers: WireServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));

async function cli(argv: string[], env: Record<string, string | undefined> = {}) {
  const got = { out: '', err: '', code: -1 };
  const io = { stdout: (s: string) => void (got.out += s), stderr: (s: string) => void (got.err += s), env, clock: fakeClock() };
  got.code = await run(argv, io as Parameters<typeof run>[1]);
  return got;
}

/** A checks file with one case that holds on the example and one whose evidence the request does not carry. */
function checksFile(withFailing: boolean): string {
  const file = path.join(tmp('ctxctl-checks-'), 'checks.yaml');
  const passing = ['- name: keeps the error', '  task: ticket.md', '  max_tokens: 11000', '  select: [application.log]', '  contains: "paymentMethod is required"'];
  const failing = ['- name: needs the runbook', '  task: ticket.md', '  reject: docs/marketing-notes.md', '  contains:', '    - "paymentMethod is required"', '    - "Rollback the payment-service deployment"'];
  fs.writeFileSync(file, [...passing, ...(withFailing ? failing : [])].join('\n') + '\n');
  return file;
}

describe('ctxctl check', () => {
  it('the example ships a checks.yaml that holds (exit 0): what `npm test` guards', async () => {
    const got = await cli(['check', '--workspace', EXAMPLE]);
    assert.equal(got.code, 0, got.out + got.err);
    assert.match(got.out, /^✓ payment incident keeps its evidence {2}\(.*examples\/payment-incident\/\.context\/checks\.yaml:3, [\d\u202f]+ tokens\)$/m);
    assert.doesNotMatch(got.out, /^ {2}FAIL/m);
    assert.match(got.out, /\nOK: 1 case\(s\), 11 check\(s\) hold\n$/);
    assert.match(got.out, /^ {2}SKIP .*checks\.yaml:22 {2}payment incident keeps its evidence: answer cites application\.log: not checked: nothing was sent \(--provider sends\)$/m);
  });

  it('one passing and one failing case: exit 1, the line names case, expectation and what was found; --junit has 2 testcases and 1 failure', async () => {
    const file = checksFile(true);
    const junit = path.join(tmp('ctxctl-junit-'), 'reports', 'context.xml');
    const got = await cli(['check', '--workspace', EXAMPLE, '--checks', file, '--junit', junit]);
    assert.equal(got.code, 1, got.err);
    const shown = displayPath(process.cwd(), file);
    const failLines = got.out.split('\n').filter((l) => l.startsWith('  FAIL'));
    assert.equal(failLines.length, 1);
    assert.match(failLines[0], new RegExp(`^ {2}FAIL {2}${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:11 {2}needs the runbook: contains "Rollback the payment-service deployment": not in the request \\([\\d\u202f]+ tokens\\); application\\.log trimmed ~393\u202f170 → [\\d\u202f]+ tokens$`));
    assert.match(got.out, /\nFAILED: 1 of 2 case\(s\), 1 failing check\(s\)\n$/);
    const xml = fs.readFileSync(junit, 'utf8');
    assert.equal(xml.match(/<testcase /g)?.length, 2);
    assert.equal(xml.match(/<failure /g)?.length, 1);
    assert.match(xml, /<testsuites name="context checks" tests="2" failures="1">/);
    assert.match(xml, /<testcase classname="[^"]+" name="keeps the error" file="[^"]+" line="1">\n {4}<\/testcase>/);
    assert.match(xml, /<testcase classname="[^"]+" name="needs the runbook" file="[^"]+" line="6">\n {6}<failure message="contains &quot;Rollback the payment-service deployment&quot;: not in the request \([\d\u202f]+ tokens\); application.log trimmed ~393\u202f170 → [\d\u202f]+ tokens \([^)]+checks\.yaml:11\)" type="ContextCheckFailed">/);
  });

  it('the passing case alone: exit 0; GitHub Actions annotations only for failures, at the expectation line', async () => {
    const got = await cli(['check', '--workspace', EXAMPLE, '--checks', checksFile(false)], { GITHUB_ACTIONS: 'true' });
    assert.equal(got.code, 0, got.out + got.err);
    assert.doesNotMatch(got.out, /::error/);
    const failing = await cli(['check', '--workspace', EXAMPLE, '--checks', checksFile(true)], { GITHUB_ACTIONS: 'true' });
    const annotations = failing.out.split('\n').filter((l) => l.startsWith('::'));
    assert.equal(annotations.length, 1);
    assert.match(annotations[0], /^::error file=[^,]+checks\.yaml,line=11,title=context check needs the runbook::contains "Rollback the payment-service deployment": not in the request/);
  });

  it('bad input exits 2 with file:line: a checks-file error, a missing task file, a missing checks file', async () => {
    const dir = tmp('ctxctl-badchecks-');
    const bad = path.join(dir, 'checks.yaml');
    fs.writeFileSync(bad, '- name: a\n  task: ticket.md\n  selct: [x]\n');
    let got = await cli(['check', '--workspace', EXAMPLE, '--checks', bad]);
    assert.equal(got.code, 2);
    assert.equal(got.err, `ctxctl: ${displayPath(process.cwd(), bad)}:3:3: unknown key "selct" in case 1; did you mean "select"? (keys: name, task, policy, max_tokens, select, reject, contains, excludes, answer)\n`);
    fs.writeFileSync(bad, '- name: a\n  task: tickt.md\n  excludes: x\n');
    got = await cli(['check', '--workspace', EXAMPLE, '--checks', bad]);
    assert.equal(got.code, 2);
    assert.equal(got.err, `ctxctl: ${displayPath(process.cwd(), bad)}:1: case "a": task file not found: tickt.md (a path is relative to the workspace; literal text needs a space)\n`);
    fs.writeFileSync(bad, '- name: a\n  task: ../../../../../../../etc/hostname\n  excludes: x\n');
    got = await cli(['check', '--workspace', EXAMPLE, '--checks', bad]);
    assert.equal(got.code, 2);
    assert.equal(got.err, `ctxctl: ${displayPath(process.cwd(), bad)}:1: case "a": task ../../../../../../../etc/hostname is outside the workspace\n`);
    got = await cli(['check', '--workspace', dir]);
    assert.equal(got.code, 2);
    assert.equal(got.err, `ctxctl: ${displayPath(process.cwd(), path.join(dir, '.context', 'checks.yaml'))}: checks file not found\n`);
  });
});

describe('ctxctl compare (dry run)', () => {
  it('the example policy and the lean one: figures from the manifests, the log capped at 300, the decisions diff, the lost evidence', async () => {
    const out = tmp('ctxctl-compare-out-');
    const got = await cli(['compare', '--workspace', EXAMPLE, '--task', TICKET, '--policy', POLICY, '--policy', LEAN, '--json', '--out', out]);
    assert.equal(got.code, 0, got.err);
    const json = JSON.parse(got.out);
    assert.deepEqual(Object.keys(json), ['variants', 'diff']);
    assert.deepEqual(json.variants.map((v: { name: string; policy: string; runs: unknown[] }) => [v.name, v.policy, v.runs]), [['policy', '.context/policy.yaml', []], ['lean', '.context/policies/lean.yaml', []]]);
    const [full, lean] = json.variants;
    for (const v of json.variants) {
      const request = fs.readFileSync(path.join(out, 'variants', v.name, 'request.json'), 'utf8');
      assert.equal(v.manifest.budget.final, counter.count(request), 'the manifest counts the request written');
      assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'variants', v.name, 'manifest.json'), 'utf8')), v.manifest);
    }
    assert.ok(lean.manifest.zones.tool_results <= 300, `lean tool results ${lean.manifest.zones.tool_results}`);
    assert.ok(full.manifest.zones.tool_results > 300 && full.manifest.zones.tool_results <= 1500);
    assert.equal(full.manifest.budget.final - lean.manifest.budget.final > full.manifest.zones.tool_results - lean.manifest.zones.tool_results - 20, true, `the final difference is the log difference, give or take the wrapping: ${full.manifest.budget.final} − ${lean.manifest.budget.final} vs ${full.manifest.zones.tool_results} − ${lean.manifest.zones.tool_results}`);
    for (const zone of ['protected', 'session', 'index', 'documents']) assert.equal(lean.manifest.zones[zone], full.manifest.zones[zone], zone);
    assert.deepEqual(json.diff.entries.map((e: { change: string; source: string; variants: { verdict: string; tokens: number }[] }) => [e.change, e.source, e.variants.map((x) => [x.verdict, x.tokens])]), [
      ['tokens', 'application.log', [['trimmed', full.manifest.zones.tool_results], ['trimmed', lean.manifest.zones.tool_results]]],
    ]);
    const failed = (v: { checks: { evidence: { evidence: { ok: boolean; expectation: string }[] }[] } }) => v.checks.evidence[0].evidence.filter((c) => !c.ok).map((c) => c.expectation);
    assert.deepEqual(failed(full), []);
    assert.deepEqual(failed(lean), ['contains "MethodArgumentNotValidException"']);
    assert.deepEqual(fs.readdirSync(out).sort(), ['compare.json', 'compare.md', 'variants']);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'compare.json'), 'utf8')), json);

    const table = (await cli(['compare', '--workspace', EXAMPLE, '--task', TICKET, '--policy', POLICY, '--policy', LEAN])).out;
    assert.equal(fs.readFileSync(path.join(out, 'compare.md'), 'utf8'), `# Context policies compared\n\n\`\`\`\n${table}\`\`\`\n`);
    const n = (x: number) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
    const row = (label: string, a: string, b: string) => new RegExp(`^ {2}${label} +${a} +${b}(   |$)`, 'm');
    assert.match(table, /^COMPARE {2}ticket\.md {2}· {2}gpt-4o \(o200k_base\) {2}· {2}dry run: nothing sent$/m);
    assert.match(table, row('Zone tool_results', n(full.manifest.zones.tool_results), n(lean.manifest.zones.tool_results)));
    assert.match(table, row('FINAL REQUEST', n(full.manifest.budget.final), n(lean.manifest.budget.final)));
    assert.match(table, row('Evidence checks', '11/11 ✓', '10/11 ✗'));
    assert.match(table, /^ {2}~ OTHER SIZE {6}application\.log {2}\(tool_result\)$/m);
    assert.match(table, /^ {2}✗ FAIL {2}lean {2}payment incident keeps its evidence: contains "MethodArgumentNotValidException": not in the request/m);
  });

  it('each variant offloads into its own store: the same tool result is trimmed by one (full text in its folder) and offloaded by the other (into its own)', async () => {
    const dir = tmp('ctxctl-compare-offload-');
    const result = path.join(dir, 'tests.log');
    fs.writeFileSync(result, Array.from({ length: 150 }, (_, i) => `2026-11-12T08:00:${String(i % 60).padStart(2, '0')}Z INFO test ${i} passed in ${i % 7} ms`).join('\n') + '\n');
    const small = path.join(dir, 'small-offload.yaml');
    fs.writeFileSync(small, 'offload: { per_result_tokens: 1000, aggregate_tokens: 10000, preview_chars: 100 }\n');
    const out = path.join(dir, 'out');
    const got = await cli(['compare', '--workspace', EXAMPLE, '--task', TICKET, '--policy', POLICY, '--policy', small, '--tool-result', `run_tests=${result}`, '--json', '--out', out]);
    assert.equal(got.code, 0, got.err);
    const [full, lean] = JSON.parse(got.out).variants;
    const files = (name: string) => (fs.readdirSync(path.join(out, 'variants', name, 'offload'), { recursive: true }) as string[]).filter((f) => f.endsWith('.log'));
    assert.deepEqual(full.manifest.offloaded, []);
    // The variant that keeps it trims it, and its full text (outside the workspace) goes to that variant's own store.
    const trim = full.manifest.trimmed.find((t: { source: string }) => t.source === 'tool:run_tests');
    assert.deepEqual(files('policy').map((f) => path.join(out, 'variants', 'policy', 'offload', f)), [trim.reference]);
    assert.equal(lean.manifest.offloaded.length, 1);
    assert.equal(lean.manifest.offloaded[0].source, 'tool:run_tests');
    assert.deepEqual(files('small-offload').map((f) => path.join(out, 'variants', 'small-offload', 'offload', f)), [lean.manifest.offloaded[0].path]);
    const entry = JSON.parse(got.out).diff.entries.find((e: { source: string }) => e.source === 'tool:run_tests');
    assert.deepEqual(entry.variants.map((v: { verdict: string }) => v.verdict), ['trimmed', 'offloaded']);
  });

  it('usage errors exit 2 (one policy, --runs without a provider, a missing policy file); a variant that cannot be built exits 3, named', async () => {
    let got = await cli(['compare', '--workspace', EXAMPLE, '--task', TICKET, '--policy', POLICY]);
    assert.equal(got.code, 2);
    assert.match(got.err, /^ctxctl: --policy is needed at least twice \(one per variant\), got 1\n/);
    got = await cli(['compare', '--workspace', EXAMPLE, '--task', TICKET, '--policy', POLICY, '--policy', LEAN, '--runs', '3']);
    assert.equal(got.code, 2);
    assert.match(got.err, /^ctxctl: --runs needs a provider \(--provider openai\|anthropic\): a dry run sends nothing\n/);
    got = await cli(['compare', '--workspace', EXAMPLE, '--task', TICKET, '--policy', POLICY, '--policy', path.join(EXAMPLE, 'nope.yaml')]);
    assert.equal(got.code, 2);
    assert.equal(got.err, 'ctxctl: nope.yaml: policy file not found\n');
    const tight = path.join(tmp('ctxctl-tight-'), 'tight.yaml');
    fs.writeFileSync(tight, 'envelope: { window: 3000, output_reserve: 500, margin: 500 }\n');
    got = await cli(['compare', '--workspace', EXAMPLE, '--task', TICKET, '--policy', POLICY, '--policy', tight]);
    assert.equal(got.code, 3, 'a variant whose mandatory blocks exceed max_input is refused, and named');
    assert.match(got.err, new RegExp(`^ctxctl: variant tight \\(${tight.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\): ContextBudgetExceeded: the mandatory blocks need [\\d]+ tokens but max_input is 2000\\.\n`));
  });
});

/** OpenAI SSE with a final usage chunk, as servers send it with stream_options.include_usage. */
function withUsage(pieces: string[], usage: { prompt_tokens: number; completion_tokens: number; cached: number }): string[] {
  const sse = openaiText(pieces);
  const chunk = `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1763000000, model: 'gpt-4o', choices: [], usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.prompt_tokens + usage.completion_tokens, prompt_tokens_details: { cached_tokens: usage.cached } } })}\n\n`;
  return [...sse.slice(0, -1), chunk, sse[sse.length - 1]];
}

const GOOD = 'PaymentController rejects legacy requests: paymentMethod is now @NotNull (application.log: MethodArgumentNotValidException; PaymentController.java). ADR-012 keeps new fields optional.';
const THIN = 'The request fails because paymentMethod is required (application.log). ADR-012 applies.';

describe('ctxctl check --provider (a local OpenAI-compatible server)', () => {
  it('sends each case once and checks the answer: a claim the case forbids fails the case with what the answer said', async () => {
    const s = await startServer(() => ({ sse: withUsage([`${THIN} ADR-008 is still in force for old clients.`], { prompt_tokens: 100, completion_tokens: 20, cached: 0 }) }));
    servers.push(s);
    const junit = path.join(tmp('ctxctl-junit-sent-'), 'context.xml');
    const got = await cli(['check', '--workspace', EXAMPLE, '--provider', 'openai', '--model', 'gpt-4o', '--base-url', `${s.url}/v1`, '--junit', junit]);
    assert.equal(got.code, 1, got.err);
    assert.equal(s.received.length, 1);
    assert.doesNotMatch(got.out, /SKIP/);
    const fails = got.out.split('\n').filter((l) => l.startsWith('  FAIL')).map((l) => l.replace(/^ {2}FAIL {2}\S+:(\d+) {2}payment incident keeps its evidence: /, '$1 '));
    assert.deepEqual(fails, [
      '22 cites PaymentController.java: PaymentController.java does not appear in the answer',
      '23 not_claims "ADR-008 is still in force": the answer says "…cation.log). ADR-012 applies. ADR-008 is still in force for old clients."',
    ]);
    assert.match(fs.readFileSync(junit, 'utf8'), /<failure message="cites PaymentController\.java: PaymentController\.java does not appear in the answer \([^)]+\); not_claims &quot;ADR-008 is still in force&quot;: the answer says/);
  });
});

describe('ctxctl compare (sent to a local OpenAI-compatible server)', () => {
  it('sends each variant --runs times from the same state; answers, reported tokens, cost, answer checks and spread', async () => {
    // Deterministic: the answer depends on what the request carries; usage is derived from the request's size.
    const s = await startServer((req) => {
      const full = req.body.includes('MethodArgumentNotValidException');
      return { sse: withUsage([full ? GOOD : THIN], { prompt_tokens: counter.count(req.body), completion_tokens: full ? 40 : 20, cached: 1024 }) };
    });
    servers.push(s);
    const out = tmp('ctxctl-compare-sent-');
    const args = ['compare', '--workspace', EXAMPLE, '--task', TICKET, '--policy', POLICY, '--policy', LEAN, '--provider', 'openai', '--model', 'gpt-4o', '--base-url', `${s.url}/v1`, '--runs', '2', '--out', out];
    const got = await cli([...args, '--json']);
    assert.equal(got.code, 0, got.err);
    assert.equal(s.received.length, 4, 'two variants, two runs each');
    const json = JSON.parse(got.out);
    const [full, lean] = json.variants;
    // Each run sent exactly the request the variant previewed, and both runs of a variant sent the same bytes.
    assert.equal(s.received[0].body, fs.readFileSync(path.join(out, 'variants', 'policy', 'request.json'), 'utf8'));
    assert.equal(s.received[1].body, s.received[0].body);
    assert.equal(s.received[2].body, fs.readFileSync(path.join(out, 'variants', 'lean', 'request.json'), 'utf8'));
    assert.equal(s.received[3].body, s.received[2].body);
    const sent = [counter.count(s.received[0].body), counter.count(s.received[2].body)];
    assert.deepEqual(full.runs.map((r: { run: number; answer: string; input_tokens: number; output_tokens: number; cached_tokens: number; latency_ms: number; steps: number }) => [r.run, r.answer, r.input_tokens, r.output_tokens, r.cached_tokens, r.latency_ms, r.steps]), [
      [1, GOOD, sent[0], 40, 1024, 0, 1],
      [2, GOOD, sent[0], 40, 1024, 0, 1],
    ]);
    assert.equal(full.runs[0].cost_usd, ((sent[0] - 1024) * 2.5 + 1024 * 1.25 + 40 * 10) / 1e6);
    assert.deepEqual(full.spread.input_tokens, { runs: 2, min: sent[0], max: sent[0], mean: sent[0] });
    assert.deepEqual(lean.runs.map((r: { answer: string; input_tokens: number }) => [r.answer, r.input_tokens]), [[THIN, sent[1]], [THIN, sent[1]]]);
    const answerChecks = (v: { checks: { answers: { run: number; checks: { ok: boolean; expectation: string; found: string }[] }[] } }) =>
      v.checks.answers.map((a) => [a.run, a.checks.filter((c) => !c.ok).map((c) => `${c.expectation}: ${c.found}`)]);
    assert.deepEqual(answerChecks(full), [[1, []], [2, []]]);
    const thinFails = ['cites PaymentController.java: PaymentController.java does not appear in the answer'];
    assert.deepEqual(answerChecks(lean), [[1, thinFails], [2, thinFails]]);
    assert.deepEqual([full.checks.passed, full.checks.failed, lean.checks.passed, lean.checks.failed], [11 + 10, 0, 10 + 8, 1 + 2]);
    for (const [name, runs] of [['policy', 2], ['lean', 2]] as const) {
      for (let r = 1; r <= runs; r++) {
        assert.deepEqual(fs.readdirSync(path.join(out, 'variants', name, 'runs', String(r))).sort(), ['answer.txt', 'manifest.json', 'request.json', 'trace.txt']);
      }
    }
    assert.equal(fs.readFileSync(path.join(out, 'variants', 'lean', 'runs', '2', 'answer.txt'), 'utf8'), THIN);

    const table = (await cli(args)).out;
    const n = (x: number) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
    assert.match(table, /^COMPARE {2}ticket\.md {2}· {2}gpt-4o \(o200k_base\) {2}· {2}openai, 2 run\(s\) per variant$/m);
    assert.match(table, new RegExp(`^ {2}Input tokens +${n(sent[0])} +${n(sent[1])}$`, 'm'));
    assert.match(table, /^ {2}Cached input tokens +1\u202f024 +1\u202f024$/m);
    assert.match(table, /^ {2}Output tokens +40 +20$/m);
    assert.match(table, /^ {2}Answer checks +10\/10 ✓ +8\/10 ✗$/m);
    assert.match(table, /^ {2}Cost USD +0\.0\d{4} +0\.0\d{4} {3}prices of 2025-06-01; /m);
    assert.match(table, /^ {2}✗ FAIL {2}lean run 2: answer cites PaymentController\.java: PaymentController\.java does not appear in the answer$/m);
    assert.match(table, new RegExp(`^ {2}policy run 1 +"${GOOD.slice(0, 40).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
  });
});
