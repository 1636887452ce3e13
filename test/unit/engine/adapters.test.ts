import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { run } from '../../../src/cli/main';
import { createServer } from '../../../src/cli/mcp';
import { contextText } from '../../../src/core/agents/context-text';
import { resolvePolicy } from '../../../src/core/policy';
import { redactOutput } from '../../../src/core/redact/output';
import { loadPolicy } from '../../../src/core/sources/snapshot';
import type { Manifest } from '../../../src/core/report/manifest';
import { handlers } from '../../../src/vscode/worker/ops';
import { chainBypasses } from './bypass';

const repo = path.resolve(__dirname, '..', '..', '..', '..');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .sort();
}

describe('adapters go through the ContextEngine', () => {
  it('finds a chain call outside the engine, and passes type imports and the engine', () => {
    assert.deepEqual(chainBypasses("import { assemble, type Assembly } from '../core/chain/assemble';\nassemble(s);"), ['imports assemble from ../core/chain/assemble']);
    assert.deepEqual(chainBypasses("import {\n  loadPolicy,\n  loadSnapshot,\n} from '../../core/sources/snapshot';"), ['imports loadPolicy from ../../core/sources/snapshot', 'imports loadSnapshot from ../../core/sources/snapshot']);
    assert.deepEqual(chainBypasses("const { workspaceSummaries } = require('../core/session/summary-store');"), ['requires ../core/session/summary-store']);
    assert.deepEqual(chainBypasses("import { RelevanceIndex } from '../core/relevance/index';"), ['imports RelevanceIndex from ../core/relevance/index']);
    assert.deepEqual(chainBypasses("import type { Assembly } from '../core/chain/assemble';\nimport { DEFAULT_MODEL } from '../core/chain/assemble';\nimport { loadPins } from '../core/sources/snapshot';\nengine.assemble(s);"), []);
    assert.deepEqual(chainBypasses("import { loadPolicy, type Pin } from '../core/sources/snapshot';"), ['imports loadPolicy from ../core/sources/snapshot']);
    // Inside the core, a relative import is resolved from the importing file.
    const inCore = path.join(repo, 'src', 'core', 'compare', 'run.ts');
    assert.deepEqual(chainBypasses("import { assemble } from '../chain/assemble';\nimport { sendLoop, type SendOutcome } from '../send/loop';", inCore), ['imports assemble from ../chain/assemble', 'imports sendLoop from ../send/loop']);
    assert.deepEqual(chainBypasses("import { runCase } from './check-run';\nimport { compare } from './run';", inCore), ['imports runCase from ./check-run', 'imports compare from ./run']);
    assert.deepEqual(chainBypasses("import type { ContextEngine } from '../engine';\nimport { assemble } from '../chain/collect';", inCore), []);
  });

  it('inside the core, only the engine calls the chain’s entry points (the tools, compare, checks and the send loop go through it)', () => {
    // The engine itself, and the relevance index's own stage and store.
    const allowed = new Set(['src/core/engine.ts', 'src/core/folder-engine.ts', 'src/core/relevance/stage.ts', 'src/core/relevance/persist.ts']);
    const files = tsFiles(path.join(repo, 'src', 'core')).filter((f) => !allowed.has(path.relative(repo, f).split(path.sep).join('/')));
    assert.ok(files.length > 150, `only ${files.length} core files found`);
    const found = files.flatMap((f) => chainBypasses(fs.readFileSync(f, 'utf8'), f).map((m) => `${path.relative(repo, f)}: ${m}`));
    assert.deepEqual(found, []);
    // The ones that did before: each now takes the engine (its interface, engine-port.ts; the loop only its assemble).
    for (const f of ['src/core/agents/workspace-tools.ts', 'src/core/compare/run.ts', 'src/core/compare/check-run.ts', 'src/core/session/maintenance.ts']) {
      assert.match(fs.readFileSync(path.join(repo, f), 'utf8'), /import type \{ ChainEngine \} from '\.\.\/engine-port';/, f);
    }
    assert.match(fs.readFileSync(path.join(repo, 'src/core/send/loop.ts'), 'utf8'), /export async function sendLoop\(engine: Assembler,/);
  });

  it('no file under src/cli or src/vscode calls loadSnapshot, loadPolicy, assemble, workspaceSummaries, the send loop, compare, a check or a RelevanceIndex of its own', () => {
    const files = [...tsFiles(path.join(repo, 'src', 'cli')), ...tsFiles(path.join(repo, 'src', 'vscode'))];
    assert.ok(files.length > 60, `only ${files.length} adapter files found`);
    const found = files.flatMap((f) => chainBypasses(fs.readFileSync(f, 'utf8')).map((m) => `${path.relative(repo, f)}: ${m}`));
    assert.deepEqual(found, []);
  });

  it('every surface that assembles constructs or asks for an engine', () => {
    const surfaces = ['src/cli/main.ts', 'src/cli/send.ts', 'src/cli/compare.ts', 'src/cli/check.ts', 'src/cli/mcp.ts', 'src/cli/hook.ts', 'src/cli/index-command.ts', 'src/cli/gateway.ts', 'src/cli/session-command.ts', 'src/cli/offload.ts', 'src/vscode/worker/load.ts', 'src/vscode/worker/ops.ts', 'src/vscode/worker/send-worker.ts', 'src/vscode/worker/compare-run.ts', 'src/vscode/state.ts', 'src/vscode/session-commands.ts'];
    const without = surfaces.filter((f) => !/new (Context|Folder)Engine\(|engineFor\(/.test(fs.readFileSync(path.join(repo, f), 'utf8')));
    assert.deepEqual(without, []);
  });
});

/** What the CLI, MCP and the editor's worker each answer for one workspace and task. */
interface Answers {
  cli: { request: unknown; manifest: Manifest };
  worker: { serialized: string; manifest: Manifest; blocks: { id: string; source: string; text: string }[]; trace: string };
  mcp: { text: string; manifest: Manifest };
}

async function answers(root: string, task: { cli: string; mcp: string }): Promise<Answers> {
  let out = '';
  const code = await run(['preview', '--workspace', root, '--task', task.cli, '--json'], { stdout: (s) => void (out += s), stderr: () => undefined });
  assert.equal(code, 0, out);
  const cli = JSON.parse(out) as Answers['cli'];

  // The editor sends the policy it composed (HostState.policy); without settings' overrides it is the CLI's.
  const policy = resolvePolicy(loadPolicy(root), { maxInput: undefined });
  const { assembly } = handlers.assemble({ snapshot: { root, task: task.cli, policy }, options: {} }, () => undefined) as { assembly: Answers['worker'] };

  const server = createServer(root, () => undefined);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'differential', version: '1.0.0' });
  await client.connect(b);
  try {
    const r = (await client.callTool({ name: 'assemble_context', arguments: { task: task.mcp } })) as { content: { text: string }[]; isError?: boolean };
    assert.ok(!r.isError, r.content[0]?.text);
    const m = (await client.readResource({ uri: 'context://manifest/last' })) as { contents: { text: string }[] };
    return { cli, worker: assembly, mcp: { text: r.content.map((c) => c.text).join(''), manifest: JSON.parse(m.contents[0].text) as Manifest } };
  } finally {
    await client.close();
    await server.close();
  }
}

/** A manifest without the one field that is the clock's. */
const timeless = (m: Manifest) => ({ ...(JSON.parse(JSON.stringify(m)) as Manifest), created_at: '' });

function assertSame(x: Answers) {
  // The same bytes: the CLI's request, parsed from its JSON, is the worker's serialized request.
  assert.equal(JSON.stringify(x.cli.request), x.worker.serialized);
  assert.equal(x.cli.manifest.request_bytes, Buffer.byteLength(x.worker.serialized));
  // The same decisions, blocks and counts in all three manifests.
  assert.deepEqual(timeless(x.cli.manifest), timeless(x.worker.manifest));
  assert.deepEqual(timeless(x.mcp.manifest), timeless(x.worker.manifest));
  // MCP's answer is the same blocks as text.
  assert.equal(x.mcp.text, redactOutput(contextText(x.worker as never)));
}

const scratch: string[] = [];
after(() => {
  for (const d of scratch) fs.rmSync(d, { recursive: true, force: true });
});

/** A small workspace from a seed: rules, decisions, docs, code and a log, under a budget tight enough to cut. */
function generated(seed: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `ctxctl-diff-${seed}-`));
  scratch.push(root);
  let s = seed * 7919 + 17;
  const next = (n: number) => ((s = (s * 1103515245 + 12345) % 2147483648), s % n);
  const words = ['ledger', 'refund', 'timeout', 'retry', 'invoice', 'gateway', 'currency', 'audit', 'queue', 'tenant', 'webhook', 'settlement'];
  const para = (n: number) => Array.from({ length: n }, () => words[next(words.length)]).join(' ');
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('AGENTS.md', `# Rules\n\n- Keep ${words[seed % words.length]} handling idempotent.\n- ${para(12)}.\n`);
  write('.context/policy.yaml', `envelope: { window: ${3000 + 1000 * (seed % 3)}, output_reserve: 500, margin: 200 }\nzones:\n  tool_results: { max_tokens: 400 }\n`);
  for (let i = 0; i < 3 + (seed % 3); i++) write(`docs/adr/000${i + 1}-${words[i]}.md`, `# ADR ${i + 1}: ${words[i]} ${words[(i + seed) % words.length]}\n\nStatus: accepted\n\n## Context\n\n${para(60 + 20 * i)}.\n\n## Decision\n\n${para(40)}.\n`);
  for (let i = 0; i < 4; i++) write(`docs/guide-${i}.md`, `# Guide ${i}\n\n${para(150)}.\n\n## ${words[(seed + i) % words.length]}\n\n${para(200)}.\n`);
  for (let i = 0; i < 5; i++) write(`src/${words[(i + seed) % words.length]}Service.ts`, `// ${para(8)}\nexport function ${words[i]}${i}(x: number): number {\n  return x * ${i + seed}; // ${para(6)}\n}\n`);
  write('app.log', Array.from({ length: 200 + 50 * seed }, (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z ${i % 17 === 0 ? 'ERROR' : 'INFO'} ${para(6)}`).join('\n') + '\n');
  return root;
}

describe('CLI preview, MCP assemble_context and the editor worker produce the same request', () => {
  it('for the bundled example and its ticket', async () => {
    const root = path.join(repo, 'examples', 'payment-incident');
    const x = await answers(root, { cli: path.join(root, 'ticket.md'), mcp: 'ticket.md' });
    assertSame(x);
    // Not vacuous: the example's request carries its rules, the ticket and the log.
    const sources = x.worker.blocks.map((b) => b.source);
    for (const s of ['AGENTS.md', 'ticket.md', 'application.log']) assert.ok(sources.includes(s), `${s} not in ${sources.join(', ')}`);
  });

  for (const seed of [1, 2, 3, 4]) {
    it(`for generated workspace ${seed} and a literal task`, async () => {
      const root = generated(seed);
      const task = `Why does the ${['refund', 'timeout', 'ledger', 'webhook'][seed - 1]} path fail after a retry in the gateway?`;
      const x = await answers(root, { cli: task, mcp: task });
      assertSame(x);
      assert.ok(x.worker.blocks.length >= 3, `only ${x.worker.blocks.length} blocks`);
      // The budget decided something: documents were left out or only indexed, and a log was trimmed.
      const m = x.worker.manifest;
      assert.ok(m.rejected.length + m.indexed.length > 0, `nothing left out: ${m.selected.length} selected`);
      assert.ok(m.trimmed.length > 0, 'app.log not trimmed');
    });
  }
});
