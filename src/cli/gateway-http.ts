import type * as http from 'node:http';
import type { Api } from '../core/gateway/wire';

/** The gateway's HTTP side that holds no state: which API a request is, where it goes upstream, which headers pass. */

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the ones the gateway sets itself. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length']);

export type Route = { api: Api; track: boolean } | { api: undefined; upstream: 'anthropic' | 'openai' };

export function route(method: string, pathname: string, headers: http.IncomingHttpHeaders): Route {
  const p = pathname.replace(/\/+$/, '');
  if (method === 'POST') {
    if (/(^|\/)v1\/messages$/.test(p)) return { api: 'anthropic', track: true };
    if (/(^|\/)v1\/messages\/count_tokens$/.test(p)) return { api: 'anthropic', track: false };
    if (/(^|\/)(v1\/)?responses$/.test(p)) return { api: 'responses', track: true };
    if (/(^|\/)(v1\/)?chat\/completions$/.test(p)) return { api: 'chat', track: true };
  }
  return { api: undefined, upstream: headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined ? 'anthropic' : 'openai' };
}

/** A Host header naming the loopback by address or as localhost, with any port (or none). */
export function localHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.toLowerCase().replace(/:\d{1,5}$/, '');
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}

/** The upstream URL for a request path: the upstream's own path prefix kept, a doubled `/v1` not. */
export function upstreamUrl(base: string, requestPath: string): URL {
  const b = new URL(base);
  let prefix = b.pathname.replace(/\/+$/, '');
  if (prefix.endsWith('/v1') && /^\/v1(\/|$)/.test(requestPath)) prefix = prefix.slice(0, -3);
  return new URL(`${b.protocol}//${b.host}${prefix}${requestPath}`);
}

/** The headers a `Connection` header names: hop-by-hop for this connection only, never forwarded. */
const connectionNamed = (headers: http.IncomingHttpHeaders) => new Set(String(headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim()));

/** The agent's headers for the upstream: hop-by-hop ones dropped, the length of the body as sent. */
export function forwardHeaders(headers: http.IncomingHttpHeaders, length: number): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  const named = connectionNamed(headers);
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP.has(k) && !named.has(k)) out[k] = v;
  out['content-length'] = String(length);
  return out;
}

/** The upstream's answer headers for the agent: the ones of this connection dropped. */
export function answerHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  const named = connectionNamed(headers);
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !named.has(k) && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding') out[k] = v;
  return out;
}

/** The body's length as the request declares it (`content-length`, no `transfer-encoding`); undefined when it does not. */
export function declaredLength(headers: http.IncomingHttpHeaders): number | undefined {
  const v = headers['content-length'];
  if (v === undefined || headers['transfer-encoding'] !== undefined || !/^\d{1,15}$/.test(v)) return undefined;
  return Number(v);
}
