import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EXAMPLE, REPO } from '../helpers';

/** `ctxctl mcp` as a real child process (the bundle, dist/cli.js), driven by the SDK's own client over stdio. */

const CLI = path.join(REPO, 'dist', 'cli.js');
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

function copyExample(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-mcp-'));
  fs.cpSync(EXAMPLE, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}offload`) });
  return root;
}

describe('ctxctl mcp (stdio, SDK client)', () => {
  let root: string;
  let client: Client;
  let stderr = '';

  before(async () => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (node scripts/test.mjs builds before the unit suite)');
    root = copyExample();
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--workspace', root], stderr: 'pipe' });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'ctxctl-test', version: '1.0.0' });
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  // The first call loads the tokenizer: on a loaded machine that takes seconds, so the SDK's 60 s default is raised.
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })) as TextResult;
  const textOf = (r: TextResult) => r.content.map((c) => c.text).join('');
  const resource = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;

  it('initializes as context-control and lists the four tools with their schemas', async () => {
    assert.equal(client.getServerVersion()?.name, 'context-control');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['assemble_context', 'inspect_offloaded', 'read_document', 'search_workspace']);
    const schema = (name: string) => tools.find((t) => t.name === name)!.inputSchema as { properties: Record<string, unknown>; required?: string[] };
    assert.deepEqual(Object.keys(schema('assemble_context').properties), ['task', 'max_input', 'policy']);
    assert.deepEqual(schema('assemble_context').required, ['task']);
    assert.deepEqual(Object.keys(schema('read_document').properties), ['path', 'heading']);
    assert.deepEqual(schema('read_document').required, ['path']);
    assert.deepEqual(Object.keys(schema('search_workspace').properties), ['pattern', 'glob']);
    assert.deepEqual(Object.keys(schema('inspect_offloaded').properties), ['path', 'op', 'pattern', 'lines', 'context']);
    for (const t of tools) assert.ok((t.description ?? '').length > 80, `${t.name} has a description`);
    assert.match(stderr, /ctxctl mcp: serving .*ctxctl-mcp-/);
  });

  it('assemble_context returns the budgeted context in request order, then the trace with its FINAL REQUEST line', async () => {
    const r = await call('assemble_context', { task: 'ticket.md' });
    assert.equal(r.isError, false);
    const text = textOf(r);
    assert.match(text, /paymentMethod is required/);
    assert.match(text, /^FINAL REQUEST\n {2}[\d\u202f]+ \/ 11\u202f000 tokens/m);
    const order = ['<working-context>', '<rules source="AGENTS.md"', '<task source="ticket.md"', 'MODEL REQUEST BUDGET', 'FINAL REQUEST'].map((s) => text.indexOf(s));
    assert.ok(order.every((i) => i >= 0), `all parts present: ${order}`);
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'the working context (rules first), the task, then the trace');
    const manifest = JSON.parse(await resource('context://manifest/last'));
    const final = /^FINAL REQUEST\n {2}([\d\u202f]+) \//m.exec(text)![1].replace(/\s/g, '');
    assert.equal(manifest.budget.final, Number(final), 'the last-manifest resource is the manifest of this call');
  });

  it('assemble_context respects max_input, and refuses a policy outside the workspace', async () => {
    const text = textOf(await call('assemble_context', { task: 'ticket.md', max_input: 6000 }));
    const m = /^FINAL REQUEST\n {2}([\d\u202f]+) \/ 6\u202f000 tokens/m.exec(text);
    assert.ok(m, text.slice(-400));
    assert.ok(Number(m[1].replace(/\s/g, '')) <= 6000);
    const refused = await call('assemble_context', { task: 'ticket.md', policy: '../../etc/policy.yaml' });
    assert.equal(refused.isError, true);
    assert.equal(textOf(refused), 'policy must be a workspace-relative path, got "../../etc/policy.yaml"');
    const outside = await call('assemble_context', { task: '/etc/passwd' });
    assert.deepEqual([outside.isError, textOf(outside)], [true, 'task names a file outside the workspace: "/etc/passwd"']);
    const tooSmall = await call('assemble_context', { task: 'ticket.md', max_input: 100 });
    assert.equal(tooSmall.isError, true);
    assert.match(textOf(tooSmall), /^ContextBudgetExceeded: the mandatory blocks need [\d]+ tokens but max_input is 100\./);
  });

  it('assemble_context takes literal task text', async () => {
    const text = textOf(await call('assemble_context', { task: 'Why does POST /v1/payments answer 400 since 2.14?' }));
    assert.ok(text.includes('<task source="task" trust="user">\nWhy does POST /v1/payments answer 400 since 2.14?\n</task>'));
  });

  it('read_document reads a document through the chain and refuses ../../etc/passwd', async () => {
    const ok = await call('read_document', { path: 'docs/architecture.md' });
    assert.equal(ok.isError, false);
    assert.match(textOf(ok), /^<tool-output source="docs\/architecture\.md" trust="tool-output">\ndocs\/architecture\.md\n\n# Payment service architecture\n[\s\S]*\n<\/tool-output>$/);
    const refused = await call('read_document', { path: '../../etc/passwd' });
    assert.equal(refused.isError, true);
    assert.equal(textOf(refused), 'read_document: "../../etc/passwd" is not returned: the path must be a workspace-relative path, as listed in <available-documents>');
  });

  it('search_workspace finds matches, limited to a glob, and sees an edit made after the server started', async () => {
    const r = textOf(await call('search_workspace', { pattern: 'paymentMethod is required', glob: 'src/**' }));
    const wrapped = (query: string, body: string) => `<tool-output source="search:&quot;${query}&quot;" trust="tool-output">\n${body}\n</tool-output>`;
    assert.equal(r, wrapped('paymentMethod is required', 'files matching src/**: 1 matching line in 1 file for "paymentMethod is required" (1 shown, at most 5 per file)\nsrc/main/java/com/acme/payments/api/PaymentRequest.java:45:   @NotNull(message = "paymentMethod is required")'));
    fs.writeFileSync(path.join(root, 'docs', 'fresh-note.md'), '# Fresh\n\nzebra-quartz marker\n');
    assert.equal(textOf(await call('search_workspace', { pattern: 'zebra-quartz' })), wrapped('zebra-quartz', '1 matching line in 1 file for "zebra-quartz" (1 shown, at most 5 per file)\ndocs/fresh-note.md:3: zebra-quartz marker'));
  });

  it('search_workspace without a glob ranks an identifier\'s matches: .java, then .md, then the log; at most 5 per file with its total', async () => {
    const r = textOf(await call('search_workspace', { pattern: 'paymentMethod' }));
    const lines = r.split('\n').slice(1, -1);
    assert.equal(lines[0], '329 matching lines in 9 files for "paymentMethod" (36 shown, at most 5 per file; code and documents first, logs last)');
    const files = [...new Set(lines.slice(1).filter((l) => !l.startsWith('[cut:')).map((l) => l.split(':')[0]))];
    assert.deepEqual(files.map((f) => path.extname(f)), ['.java', '.java', '.java', '.java', '.md', '.md', '.md', '.md', '.log']);
    assert.ok(lines.includes('src/main/java/com/acme/payments/api/PaymentRequest.java: 4 more matching lines (9 in all)'));
    assert.equal(lines.filter((l) => l.startsWith('application.log:')).length <= 5, true);
  });

  it('inspect_offloaded counts and greps a workspace file with context, and refuses a path outside the workspace', async () => {
    const counted = await call('inspect_offloaded', { path: 'application.log', op: 'count' });
    assert.equal(counted.isError, false);
    assert.ok(textOf(counted).startsWith('<tool-output source="application.log" trust="tool-output">\napplication.log (count):\n5543 lines (5543 non-empty), 975917 bytes'), textOf(counted).slice(0, 200));
    const r = await call('inspect_offloaded', { path: 'application.log', op: 'grep', pattern: 'corr=2c81d0f4', context: 0 });
    assert.equal(r.isError, false);
    assert.match(textOf(r), /^<tool-output source="application\.log" trust="tool-output">\napplication\.log \(grep\):\n {3}338: .*\n {3}339: .*\n {3}340: .*\n--\n {3}349: .*Completed 400 BAD_REQUEST in 14ms\n4 matching lines\n<\/tool-output>$/);
    // The default context is one line, as the trimmer's "inspect with …" hints (op grep, pattern) get it.
    const hinted = await call('inspect_offloaded', { path: 'application.log', op: 'grep', pattern: 'corr=2c81d0f4' });
    assert.match(textOf(hinted), /^<tool-output source="application\.log" trust="tool-output">\napplication\.log \(grep\):\n {3}337- .*\n {3}338: .*corr=2c81d0f4[\s\S]*\n4 matching lines\n<\/tool-output>$/);
    const refused = await call('inspect_offloaded', { path: '/etc/passwd', op: 'head', lines: 3 });
    assert.equal(refused.isError, true);
    assert.equal(textOf(refused), 'inspect_offloaded: /etc/passwd: outside the workspace and the offload store: not inspectable');
  });

  it('a result over the tool-results cap is cut with a notice, and nothing is written (the tools are read-only)', async () => {
    const offload = path.join(root, '.context', 'offload');
    fs.rmSync(offload, { recursive: true, force: true });
    const text = textOf(await call('inspect_offloaded', { path: 'application.log', op: 'grep', pattern: 'paymentMethod is required' }));
    const m = /\n\[cut: (\d+) of (\d+) lines kept \(([\d\u202f]+) tokens in all, cap 1\u202f500\); nothing was stored\. Narrow the call: "grep" with a narrower pattern, or "head" with fewer lines\]\n<\/tool-output>$/.exec(text);
    assert.ok(m, text.slice(-300));
    assert.ok(Number(m[1]) < Number(m[2]));
    assert.equal(fs.existsSync(offload), false, 'no offload file, no offload folder');
    await call('search_workspace', { pattern: 'e' });
    await call('read_document', { path: 'docs/architecture.md' });
    assert.equal(fs.existsSync(offload), false, 'search_workspace and read_document write nothing either');
  });

  it('answers malformed calls with errors and keeps serving', async () => {
    const missing = await call('read_document', {});
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /Input validation error: Invalid arguments for tool read_document/);
    const wrongType = await call('assemble_context', { task: 'ticket.md', max_input: 'lots' });
    assert.equal(wrongType.isError, true);
    assert.match(textOf(wrongType), /Input validation error: Invalid arguments for tool assemble_context/);
    const unknown = await call('delete_everything', {});
    assert.equal(unknown.isError, true);
    assert.equal(textOf(unknown), 'MCP error -32602: Tool delete_everything not found');
    await assert.rejects(client.readResource({ uri: 'context://nope' }), /Resource context:\/\/nope not found/);
    const { tools } = await client.listTools();
    assert.equal(tools.length, 4, 'still serving');
  });

  it('serves the pinned blocks (re-read on each call) and the effective policy as resources', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), ['context://manifest/last', 'context://pinned', 'context://policy']);
    const none = await resource('context://pinned');
    assert.equal(none, 'No pinned blocks (.context/pins.json is absent or empty).');
    const pin = { id: 'p1', source: 'AGENTS.md', startLine: 28, endLine: 28, text: '- Keep the diff minimal & explain the root cause <in the PR>.', label: 'diff rule' };
    fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([pin]));
    const pinned = await resource('context://pinned');
    assert.equal(pinned, `<pinned source="AGENTS.md#L28-L28" label="diff rule">\n${pin.text}\n</pinned>`);
    fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([pin, { id: 'bad', source: 'docs/x.md', text: 5 }]));
    assert.equal(await resource('context://pinned'), `<pinned source="AGENTS.md#L28-L28" label="diff rule">\n${pin.text}\n</pinned>\n\n[.context/pins.json: pin 2 skipped: "text" must be a string ("" for a whole-file pin, read from the file)]`, 'one bad entry is named, the good pin still served');
    const policy = JSON.parse(await resource('context://policy'));
    assert.deepEqual(policy.envelope, { window: 14000, output_reserve: 2000, margin: 1000 });
    assert.equal(policy.origin, '.context/policy.yaml');
  });
});

describe('ctxctl mcp without --workspace', () => {
  it('started in docs/, serves the repository top (found by .context and AGENTS.md), with its rules', async () => {
    const root = fs.realpathSync(copyExample());
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: path.join(root, 'docs'), env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() }, stderr: 'pipe' });
    let err = '';
    transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const c = new Client({ name: 'test', version: '0' });
    await c.connect(transport);
    try {
      const r = (await c.callTool({ name: 'read_document', arguments: { path: 'docs/architecture.md' } })) as TextResult;
      assert.equal(r.isError, false, r.content[0].text);
      assert.match(r.content[0].text, /^<tool-output source="docs\/architecture\.md"/);
      assert.ok(err.includes(`ctxctl mcp: serving ${root} over stdio`), err);
    } finally {
      await c.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
