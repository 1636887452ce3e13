import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import * as zlib from 'node:zlib';
import { durableBlocks, wrapVerbatim } from '../core/agents/reinject';
import { readAgentOutput } from './gateway-agents';
import { answerHeaders, declaredLength, forwardHeaders, localHost, route, upstreamUrl } from './gateway-http';
import { IdleQueue } from './gateway-queue';
import { inlineRecorder, workerRecorder, type PlanData, type RecordJob } from './gateway-recorder';
import { DecisionStore } from '../core/gateway/decisions';
import { planOrOriginal, type DurableText, type GatewayMode, type Plan, type PlanContext } from '../core/gateway/plan';
import { DEFAULT_KEEP_CALLS, ensureRecordsDir, recordsDir } from '../core/gateway/records';
import { SseUsage, usageOf, type Usage } from '../core/gateway/usage';
import type { Json } from '../core/gateway/wire';
import type { Policy } from '../core/policy';
import { ContextEngine } from '../core/engine';
import { diskHost } from '../host/disk';
import { counterFor, encodingForModel } from '../core/tokens';

/**
 * `ctxctl gateway`: a local HTTP proxy on 127.0.0.1 between an agent (Claude Code, Codex, any OpenAI- or
 * Anthropic-compatible client) and its model API. observe: bytes forwarded unchanged both ways, one record per
 * call. control: the planner (src/core/gateway/plan.ts) applies the policy to the request first; on an internal
 * error the original bytes go (fail-open) unless the policy says `gateway.fail_closed`. Streams pass through
 * chunk by chunk. Headers are forwarded, never written anywhere.
 */

export const DEFAULT_UPSTREAMS = { anthropic: 'https://api.anthropic.com', openai: 'https://api.openai.com' };

export interface GatewayOptions {
  root: string;
  port: number;
  mode: GatewayMode;
  anthropicUpstream: string;
  openaiUpstream: string;
  /** Agents' own folders whose `projects/…/tool-results/` files may be read (default ~/.claude, CLAUDE_CONFIG_DIR). */
  agentDirs: string[];
  log?: (line: string) => void;
  /** false: write the records in the gateway's own thread (when idle) rather than in a worker thread. */
  recordInThread?: boolean;
}

export interface RunningGateway {
  port: number;
  url: string;
  close(): Promise<void>;
  /** Resolves when every record of the calls answered so far is written (tests). */
  idle(): Promise<void>;
}

const MAX_BODY = 64 * 1024 * 1024;

type Outcome = { status?: number; usage?: Usage; events?: number; upstreamError?: string };
const KEEP_ANSWER = 8 * 1024 * 1024;

/** The rules and pins, reloaded when the policy, the pins or the root AGENTS.md change. */
function workspaceState(engine: ContextEngine, log: (s: string) => void): () => { policy: Policy; durable: DurableText[] } {
  const root = engine.root;
  let signature = '';
  let state: { policy: Policy; durable: DurableText[] } | undefined;
  const stamp = (rel: string) => {
    const st = fs.statSync(path.join(root, rel), { throwIfNoEntry: false });
    return st ? `${st.mtimeMs}:${st.size}` : '-';
  };
  return () => {
    const now = ['.context/policy.yaml', '.context/pins.json', 'AGENTS.md'].map(stamp).join('|');
    if (state && now === signature) return state;
    signature = now;
    const policy = engine.policy();
    let durable: DurableText[] = [];
    try {
      const snapshot = engine.load({ task: '', cwd: root, policy, changes: false });
      const found = durableBlocks(snapshot);
      for (const u of found.unreadable) log(`gateway: pinned block ${u.source} not added: ${u.reason}`);
      durable = found.blocks.map((b) => ({ kind: b.kind as DurableText['kind'], source: b.source, text: b.text, wrapped: wrapVerbatim(b) }));
    } catch (e) {
      log(`gateway: rules and pins not read: ${(e as Error).message}`);
    }
    state = { policy, durable };
    return state;
  };
}


const DECISIONS_FILE = 'decisions.json';
/** Conversations whose decisions are kept on disk. */
const KEEP_CONVERSATIONS = 32;

function loadDecisions(file: string, log: (s: string) => void): DecisionStore {
  try {
    return DecisionStore.fromJSON(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') log(`gateway: ${file} not read (${(e as Error).message}): decisions start empty`);
    return new DecisionStore();
  }
}


export function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const log = options.log ?? ((s: string) => process.stderr.write(s + '\n'));
  const root = path.resolve(options.root);
  const queue = new IdleQueue();
  // An offload's name goes into its store's record once no call is in flight: a burst of calls, one record write.
  const recordsLater = (job: () => void) => queue.push(() => flushing(job));
  const flushing = (job: () => void) => {
    try {
      job();
    } catch (e) {
      log(`gateway: offload record not written: ${(e as Error).message}`);
    }
  };
  const engine = new ContextEngine(diskHost, { root, recordLater: recordsLater });
  const workspace = workspaceState(engine, log);
  const recordDir = recordsDir(root);
  // The decisions survive a restart: a prefix transformed before it is transformed the same way after.
  const decisionsFile = path.join(recordDir, DECISIONS_FILE);
  const store = loadDecisions(decisionsFile, log);
  let savedAt = 0;
  let dirty = false;
  const save = (force = false) => {
    if (!dirty || (!force && Date.now() - savedAt < 2000)) return;
    try {
      ensureRecordsDir(recordDir);
      const tmp = `${decisionsFile}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(store.toJSON(KEEP_CONVERSATIONS)));
      fs.renameSync(tmp, decisionsFile);
      savedAt = Date.now();
      dirty = false;
    } catch (e) {
      log(`gateway: decisions not saved: ${(e as Error).message}`);
    }
  };
  let seq = 0;
  const recorder = (options.recordInThread === false ? undefined : workerRecorder(queue, log)) ?? inlineRecorder(queue, log);
  const readAgent = readAgentOutput(options.agentDirs);

  const server = http.createServer((req, res) => {
    // Only a client on this machine that names this machine: a Host of another name is a web page that rebound its
    // domain to 127.0.0.1 (DNS rebinding) and must not reach the upstream, the records or the agent's files.
    if (!localHost(req.headers.host)) {
      res.writeHead(421, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `ctxctl gateway: Host "${String(req.headers.host ?? '').slice(0, 100)}" is not this machine (127.0.0.1, localhost or [::1]): refused` } }));
      req.resume();
      return;
    }
    const url = req.url ?? '/';
    const pathname = url.split('?')[0];
    const r = route(req.method ?? 'GET', pathname, req.headers);
    const upstreamBase = r.api === 'anthropic' || (r.api === undefined && r.upstream === 'anthropic') ? options.anthropicUpstream : options.openaiUpstream;
    const target = upstreamUrl(upstreamBase, url);
    // What goes upstream unchanged (observe mode, and any call that is not a model call) goes as it arrives, a copy
    // kept for the record; a body of unknown length (chunked) or over the limit is received whole first, as in control.
    const declared = declaredLength(req.headers);
    const tee = (options.mode === 'observe' || !r.api) && declared !== undefined && declared <= MAX_BODY;
    const chunks: Buffer[] = [];
    let size = 0;
    let started = 0;
    /** The request's body has arrived whole (a call is recorded only then). */
    let complete = false;
    let finished = false;
    /** An outcome known before the body arrived whole (the upstream answered or failed early): recorded at its end. */
    let early: Outcome | undefined;
    let raw: Buffer | undefined;
    // Decoded once, when first needed: before forwarding in control mode, after the answer in observe mode.
    let text: string | undefined;
    const received = () => (text ??= (raw ??= Buffer.concat(chunks)).toString('utf8'));
    let plan: Plan | undefined;
    let error: string | undefined;
    let policy: Policy | undefined;
    let observe: RecordJob['observe'];
    let upstream: http.ClientRequest | undefined;
    if (tee) {
      queue.begin();
      upstream = open(declared);
    }
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        res.writeHead(413, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `gateway: request body over ${MAX_BODY} bytes` } }));
        req.destroy();
        return;
      }
      chunks.push(c);
      if (upstream && !upstream.destroyed && !upstream.write(c)) {
        req.pause();
        upstream.once('drain', () => req.resume());
      }
    });
    req.on('end', () => {
      if (finished || (!tee && res.headersSent)) return;
      started = Date.now();
      complete = true;
      if (!tee) queue.begin();
      let body = raw ?? Buffer.concat(chunks);
      raw = body;
      if (r.api) {
        const api = r.api;
        let durable: DurableText[] = [];
        try {
          ({ policy, durable } = workspace());
        } catch (e) {
          error = `policy not read: ${(e as Error).message}`;
        }
        if (policy) {
          const current = policy;
          // observe: the bytes go first; what the record says about them is worked out by the recorder.
          if (options.mode === 'observe') observe = { policy: current, durable, track: r.track };
          else {
            const ctx: PlanContext = {
              mode: options.mode,
              policy: current,
              tokenizer: counterFor(encodingForModel(undefined).encoding),
              durable,
              store,
              track: r.track,
              offload: (name, t) => engine.offloadStore(current).put(name, { text: t }, '.txt').abs,
              readAgentOutput: readAgent,
            };
            const planned = planOrOriginal(api, received(), ctx);
            plan = planned.plan;
            error = planned.error;
            if (plan?.body !== undefined) body = Buffer.from(plan.body, 'utf8');
          }
        }
        if (!tee && error && policy?.gateway?.fail_closed) {
          res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `ctxctl gateway (fail-closed): ${error}` } }));
          finish({ status: 502 });
          return;
        }
      }
      if (early) finish(early);
      else if (upstream) {
        if (!upstream.destroyed) upstream.end();
      } else {
        upstream = open(body.length);
        upstream.end(body);
      }
    });

    /** The upstream call, its answer passed on chunk by chunk (the usage read from it on the way). */
    function open(length: number): http.ClientRequest {
      const client = target.protocol === 'https:' ? https : http;
      const up = client.request(target, { method: req.method, headers: forwardHeaders(req.headers, length) }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders(answer.headers));
        const sse = /text\/event-stream/i.test(String(answer.headers['content-type'] ?? ''));
        const api = r.api ?? 'chat';
        const reader = sse ? new SseUsage(api) : undefined;
        const kept: Buffer[] = [];
        let keptBytes = 0;
        const encoding = String(answer.headers['content-encoding'] ?? '').toLowerCase();
        const inflate = encoding === 'gzip' ? zlib.createGunzip() : encoding === 'br' ? zlib.createBrotliDecompress() : encoding === 'deflate' ? zlib.createInflate() : undefined;
        const decoder = new StringDecoder('utf8');
        const look = (c: Buffer) => {
          if (reader) reader.feed(decoder.write(c));
          else if (keptBytes < KEEP_ANSWER) {
            kept.push(c);
            keptBytes += c.length;
          }
        };
        inflate?.on('data', look);
        inflate?.on('error', () => undefined);
        answer.on('data', (c: Buffer) => {
          if (!res.write(c)) {
            answer.pause();
            res.once('drain', () => answer.resume());
          }
          if (r.api) {
            if (inflate) inflate.write(c);
            else look(c);
          }
        });
        answer.on('end', () => {
          res.end();
          if (!r.api) {
            finish({ status: answer.statusCode });
            return;
          }
          const done = () => {
            let usage: Usage | undefined;
            if (reader) {
              reader.feed(decoder.end());
              reader.end();
              usage = reader.usage;
            } else {
              try {
                usage = usageOf(api, JSON.parse(Buffer.concat(kept).toString('utf8')) as Json);
              } catch {
                usage = undefined;
              }
            }
            finish({ status: answer.statusCode, usage, events: reader?.events });
          };
          if (inflate) {
            inflate.once('end', done);
            inflate.once('error', done);
            inflate.end();
          } else done();
        });
        answer.on('error', () => res.destroy());
      });
      up.on('error', (e) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `ctxctl gateway: upstream ${target.host} unreachable: ${e.message}` } }));
        else res.destroy();
        finish({ status: 502, upstreamError: e.message });
      });
      res.on('close', () => {
        if (!res.writableFinished) up.destroy();
        // A call that ended without an answer's end (the client went away): recorded as it is.
        if (!finished && !res.writableFinished) finish({ status: res.statusCode, upstreamError: 'the client closed the connection before the answer ended' });
        // A client that left before its body arrived whole: nothing to record (as when the body is received first).
        if (!finished && !complete) {
          finished = true;
          queue.end();
        }
      });
      return up;
    }

    function finish(outcome: Outcome): void {
      if (finished) return;
      if (!complete) {
        early ??= outcome;
        return;
      }
      finished = true;
      const ended = Date.now();
      const api = r.api;
      if (api) {
        const n = ++seq;
        const { view: _view, body: _body, ...planData } = plan ?? ({} as Partial<Plan>);
        recorder.push({
          n, started, ended, mode: options.mode, api, path: pathname, received: text ?? raw ?? Buffer.concat(chunks),
          ...(plan?.body !== undefined ? { sent: plan.body } : {}),
          ...(plan ? { plan: planData as PlanData } : {}),
          ...(observe ? { observe } : {}),
          ...(error ? { error } : {}),
          ...(outcome.upstreamError ? { upstreamError: outcome.upstreamError } : {}),
          status: outcome.status, usage: outcome.usage, events: outcome.events,
          recordDir, keep: policy?.gateway?.keep_calls ?? DEFAULT_KEEP_CALLS,
        });
        if (plan && options.mode === 'control') {
          dirty = true;
          queue.push(() => save());
        }
      }
      queue.end();
    }
  });

  return new Promise((resolve, reject) => {
    // A port in use (or any listen failure): the record worker is let go too, so the process can end (exit 2).
    server.once('error', (e) => void recorder.close().then(() => reject(e), () => reject(e)));
    server.listen(options.port, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((done) => {
          server.close(() => {
            save(true);
            flushing(() => engine.flushOffloadRecords());
            void recorder.close().then(done);
          });
          server.closeAllConnections();
        }),
        idle: async () => {
          while (!queue.quiet || !recorder.quiet) await new Promise((r) => setTimeout(r, 10));
          save(true);
          flushing(() => engine.flushOffloadRecords());
        },
      });
    });
  });
}
