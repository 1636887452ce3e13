import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { frameMessage, LineFramer, oversizedAnswer, type ErrorAnswer, type RequestId } from './mcp-frames';

/**
 * The stdio transport of `ctxctl mcp`, in place of the SDK's StdioServerTransport, whose read buffer closes the
 * server on a line above 10 MiB (the requests queued behind it never answered) and drops a malformed message
 * without an answer. Here every line gets an answer or reaches the server: a line too long is dropped unread and
 * answered -32600, one that is not JSON -32700, one that is not JSON-RPC 2.0 -32600; later lines are served. When
 * stdin ends, the transport closes only after every request it passed on has been answered.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly framer: LineFramer;
  /** Requests passed to the server and not answered yet, by id (a client may reuse one). */
  private readonly pending = new Map<RequestId, number>();
  private ended = false;
  private closed = false;
  private lineNo = 0;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly log: (s: string) => void = () => {},
    limit?: number,
  ) {
    this.framer = new LineFramer(limit);
  }

  private readonly onData = (chunk: Buffer | string) => {
    for (const frame of this.framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) this.handle(frame);
  };
  private readonly onEnd = () => {
    for (const frame of this.framer.end()) this.handle(frame);
    this.ended = true;
    this.closeWhenAnswered();
  };
  private readonly onInputError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  private handle(frame: ReturnType<LineFramer['push']>[number]): void {
    this.lineNo++;
    if ('oversized' in frame) {
      const reply = oversizedAnswer(frame.oversized, frame.head);
      this.refuse(reply);
      return;
    }
    const framed = frameMessage(frame.line);
    if ('skip' in framed) return;
    if ('error' in framed) {
      this.refuse(framed.error);
      return;
    }
    const m = framed.message;
    if (typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) this.pending.set(m.id, (this.pending.get(m.id) ?? 0) + 1);
    // A cancelled request gets no answer from the SDK: it is no longer waited for.
    if (m.method === 'notifications/cancelled') this.answered((m.params as { requestId?: RequestId } | undefined)?.requestId);
    this.onmessage?.(m as JSONRPCMessage);
  }

  private refuse(reply: ErrorAnswer): void {
    this.log(`ctxctl mcp: line ${this.lineNo}: ${reply.error.message} (answered ${reply.error.code})\n`);
    this.write(reply);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: RequestId; method?: string };
    await this.write(message);
    if (m.method === undefined && m.id !== undefined) {
      this.answered(m.id);
      this.closeWhenAnswered();
    }
  }

  private answered(id: RequestId | undefined): void {
    if (id === undefined) return;
    const left = (this.pending.get(id) ?? 0) - 1;
    if (left > 0) this.pending.set(id, left);
    else this.pending.delete(id);
  }

  private write(message: JSONRPCMessage | ErrorAnswer): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      try {
        if (this.output.write(JSON.stringify(message) + '\n')) resolve();
        else this.output.once('drain', resolve);
      } catch (e) {
        this.onerror?.(e as Error);
        resolve();
      }
    });
  }

  private closeWhenAnswered(): void {
    if (this.ended && this.pending.size === 0) void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.onclose?.();
  }
}
