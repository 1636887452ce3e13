import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { createServer } from '../../../src/cli/mcp';
import { runTool } from '../../../src/core/send/tools';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { counterFor } from '../../../src/core/tokens';
import { inputJsonSchema, languageModelTool, TOOLS, toolsOn } from '../../../src/core/tool-registry';
import { TOOL_DEFINITIONS, toolInputProblem } from '../../../src/core/tools';
import schemas from '../../../src/core/tool-schemas.json';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const EXAMPLE = path.join(REPO, 'examples', 'payment-incident');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

/** Every input the tools document, one call each (the same list drives MCP and the request's tool loop). */
const DOCUMENTED: [string, Record<string, unknown>, RegExp][] = [
  ['read_document', { path: 'docs/runbook.md' }, /^<tool-output source="docs\/runbook\.md" trust="tool-output">\ndocs\/runbook\.md\n\n# Payment service runbook/],
  ['read_document', { path: 'docs/runbook.md', heading: 'Rollback' }, /docs\/runbook\.md, section "Rollback"/],
  ['search_workspace', { pattern: 'paymentMethod is required' }, /matching lines? in \d+ files? for "paymentMethod is required"/],
  ['search_workspace', { pattern: 'paymentMethod', glob: 'src/**/*.java' }, /files matching src\/\*\*\/\*\.java/],
  ['inspect_offloaded', { path: 'application.log' }, /application\.log \(head\):\n/],
  ['inspect_offloaded', { path: 'application.log', op: 'head', lines: 3 }, /application\.log \(head\):\n/],
  ['inspect_offloaded', { path: 'application.log', op: 'grep', pattern: 'BAD_REQUEST', context: 0 }, /application\.log \(grep\):\n/],
  ['inspect_offloaded', { path: 'application.log', op: 'count' }, /application\.log \(count\):\n5543 lines \(5543 non-empty\), 975917 bytes/],
  ['inspect_offloaded', { path: 'data.json', op: 'shape' }, /data\.json \(shape\):\n/],
];

describe('one registry of tools', () => {
  it('declares four read-only tools; the request offers three (assemble_context is what the request is)', () => {
    assert.deepEqual(TOOLS.map((t) => [t.name, t.readOnly, t.surfaces.join(' ')]), [
      ['assemble_context', true, 'mcp lm'],
      ['read_document', true, 'request mcp lm'],
      ['search_workspace', true, 'request mcp lm'],
      ['inspect_offloaded', true, 'request mcp lm'],
    ]);
  });

  it('tool-schemas.json is the JSON Schema of each registry schema (the build writes it: node scripts/tool-manifest.mjs)', () => {
    assert.deepEqual(schemas, Object.fromEntries(TOOLS.map((t) => [t.name, inputJsonSchema(z, t)])));
  });

  it('package.json languageModelTools is the registry\'s (the build writes it: node scripts/tool-manifest.mjs)', () => {
    assert.deepEqual(pkg.contributes.languageModelTools, toolsOn('lm').map((t) => languageModelTool(z, t)));
    // The editor registers the same names (src/vscode/chat/tools.ts cannot load outside VS Code: read from its source).
    const source = fs.readFileSync(path.join(REPO, 'src', 'vscode', 'chat', 'tools.ts'), 'utf8');
    const names = /export const TOOL_NAMES = \[([^\]]*)\] as const/.exec(source)?.[1].split(',').map((s) => s.trim().replace(/'/g, ''));
    assert.deepEqual(names, toolsOn('lm').map((t) => t.name));
  });

  it('the request\'s tool definitions are the registry\'s, schema for schema', () => {
    assert.deepEqual(TOOL_DEFINITIONS, toolsOn('request').map((t) => ({ name: t.name, description: t.description, parameters: (schemas as Record<string, unknown>)[t.name] })));
    assert.deepEqual(TOOL_DEFINITIONS.map((t) => [t.name, Object.keys(t.parameters.properties as object)]), [
      ['read_document', ['path', 'heading']],
      ['search_workspace', ['pattern', 'glob']],
      ['inspect_offloaded', ['path', 'op', 'pattern', 'lines', 'context']],
    ]);
  });

  it('the input check of the loop and the editor accepts and refuses exactly what zod does, with the reason', () => {
    const cases: [string, unknown, string | undefined][] = [
      ['assemble_context', { task: 'why' }, undefined],
      ['assemble_context', { task: 'why', max_input: 8000, policy: '.context/policies/lean.yaml' }, undefined],
      ['assemble_context', {}, '"task" is required'],
      ['assemble_context', { task: '' }, '"task" must not be empty'],
      ['assemble_context', { task: 'x', max_input: 0 }, '"max_input" must be above 0, got 0'],
      ['assemble_context', { task: 'x', max_input: 1.5 }, '"max_input" must be a whole number, got 1.5'],
      ['assemble_context', { task: 'x', max_input: 100_000_001 }, '"max_input" must be at most 100000000, got 100000001'],
      ['read_document', { path: 'a.md', heading: 'H' }, undefined],
      ['read_document', { path: 7 }, '"path" must be a string, got number 7'],
      ['read_document', [], 'the input must be a JSON object'],
      ['search_workspace', { pattern: 'x', glob: 'src/**' }, undefined],
      ['search_workspace', { query: 'x' }, '"pattern" is required'],
      ['search_workspace', { pattern: 'x', query: 'x' }, 'unknown property "query"; the properties are pattern, glob'],
      ['search_workspace', { pattern: '' }, '"pattern" must not be empty'],
      ['inspect_offloaded', { path: 'a.log' }, undefined],
      ['inspect_offloaded', { path: 'a.log', op: 'grep', pattern: 'E', context: 10 }, undefined],
      ['inspect_offloaded', { path: 'a.log', op: 'tail' }, '"op" must be one of "head", "grep", "count", "shape", got "tail"'],
      ['inspect_offloaded', { path: 'a.log', lines: 201 }, '"lines" must be at most 200, got 201'],
      ['inspect_offloaded', { path: 'a.log', context: -1 }, '"context" must be at least 0, got -1'],
      ['inspect_offloaded', { path: 'a.log', head: 5 }, 'unknown property "head"; the properties are path, op, pattern, lines, context'],
      ['inspect_offloaded', { path: 'a.log', op: 'count', lines: '3' }, '"lines" must be a number, got the string "3"'],
    ];
    for (const [name, input, problem] of cases) {
      const tool = TOOLS.find((t) => t.name === name)!;
      assert.equal(toolInputProblem(name, input), problem && `invalid arguments for ${name}: ${problem}`, `${name} ${JSON.stringify(input)}`);
      assert.equal(tool.input(z).safeParse(input).success, problem === undefined, `zod on ${name} ${JSON.stringify(input)}`);
    }
  });

  describe('MCP (a real SDK client over an in-memory transport)', () => {
    let root: string;
    let client: Client;
    before(async () => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-registry-'));
      fs.cpSync(EXAMPLE, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}offload`) });
      fs.writeFileSync(path.join(root, 'data.json'), '{"orders":[{"id":1,"total":9.5}],"next":null}\n');
      const server = createServer(root, () => {});
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      client = new Client({ name: 'registry-test', version: '1.0.0' });
      await client.connect(clientSide);
    });
    after(async () => {
      await client?.close();
      fs.rmSync(root, { recursive: true, force: true });
    });
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })) as TextResult;

    it('lists each tool with the registry\'s description, annotations and exactly the same input schema', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), toolsOn('mcp').map((t) => t.name));
      for (const listed of tools) {
        const tool = TOOLS.find((t) => t.name === listed.name)!;
        const { $schema, ...schema } = listed.inputSchema as Record<string, unknown>;
        assert.equal($schema, 'http://json-schema.org/draft-07/schema#', listed.name);
        assert.deepEqual(schema, (schemas as Record<string, unknown>)[listed.name], listed.name);
        assert.deepEqual([listed.title, listed.description, listed.annotations], [tool.title, tool.description, { readOnlyHint: true, openWorldHint: false }]);
      }
    });

    it('answers a call with each documented input', async () => {
      for (const [name, args, expected] of DOCUMENTED) {
        const r = await call(name, args);
        assert.equal(r.isError, false, `${name} ${JSON.stringify(args)}: ${r.content[0].text}`);
        assert.match(r.content[0].text, expected, `${name} ${JSON.stringify(args)}`);
      }
    });

    it('assemble_context takes task, max_input and policy', async () => {
      const plain = await call('assemble_context', { task: 'ticket.md' });
      assert.equal(plain.isError, false, plain.content[0].text);
      assert.match(plain.content[0].text, /FINAL REQUEST/);
      const small = await call('assemble_context', { task: 'ticket.md', max_input: 6000 });
      assert.match(small.content[0].text, /\/ 6\u202f000 tokens/);
      const lean = await call('assemble_context', { task: 'ticket.md', policy: '.context/policies/lean.yaml' });
      assert.equal(lean.isError, false, lean.content[0].text);
      assert.notEqual(lean.content[0].text, plain.content[0].text);
    });

    it('refuses an input outside the schema with the SDK\'s reason, before the tool runs', async () => {
      const r = await call('search_workspace', { query: 'paymentMethod' });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /Input validation error: .*pattern/s);
    });
  });

  it('the request\'s tool loop runs the same documented inputs', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-registry-loop-'));
    try {
      fs.cpSync(EXAMPLE, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}offload`) });
      fs.writeFileSync(path.join(root, 'data.json'), '{"orders":[{"id":1,"total":9.5}],"next":null}\n');
      const snapshot = loadSnapshot({ root, task: '', cwd: root });
      const ctx = { snapshot, tokenizer: counterFor('o200k_base'), offloadDir: path.join(root, '.context', 'offload') };
      for (const [name, args] of DOCUMENTED) {
        const out = runTool({ id: 'c', name, arguments: JSON.stringify(args) }, ctx);
        assert.equal(out.ok, true, `${name} ${JSON.stringify(args)}: ${out.text}`);
      }
      const glob = runTool({ id: 'c', name: 'search_workspace', arguments: JSON.stringify({ pattern: 'paymentMethod', glob: 'docs/**' }) }, ctx);
      assert.ok(glob.text.split('\n').slice(1).every((l) => l.startsWith('docs/')), glob.text);
      assert.match(glob.text, / in files matching docs\/\*\*/);
      const old = runTool({ id: 'c', name: 'search_workspace', arguments: JSON.stringify({ query: 'paymentMethod' }) }, ctx);
      assert.deepEqual([old.ok, old.text], [false, 'invalid arguments for search_workspace: "pattern" is required']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
