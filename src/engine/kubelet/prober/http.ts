// The httpGet probe (upstream pkg/probe/http/request.go NewRequestForHTTPGetAction and
// pkg/probe/http/http.go DoHTTPProbe + RedirectChecker), on Node's http/https. Like Go's client
// with the kubelet's transport: no keep-alive, no compression, no proxy, TLS without certificate
// verification; same-host redirects followed (at most 10), a redirect to another host not
// followed (a Warning result); the body read up to 10 KiB; one timeout for the whole exchange.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Socket } from 'node:net';
import type { Container, HTTPGetAction } from 'kubernetes-types/core/v1';
import { goQuote } from '../../../validation/errors.js';
import { realClock, type Clock } from '../../clock.js';
import { KUBELET_MINOR_VERSION } from '../lifecycle-handlers.js';
import { canonicalHeaderKey, goDialError, isDialError, joinHostPort } from './go-text.js';
import type { ProbeOutcome } from './worker.js';

/** maxRespBodyLength: 10 KiB. */
export const MAX_RESP_BODY_LENGTH = 10 * 1024;

/** The probe's request, as http.NewRequest + newProbeRequest build it. */
export interface HttpProbeRequest {
  scheme: string;
  /** Host to dial ('' = the local system, as Go dials ":port"). */
  host: string;
  port: number;
  /** Path (with query) as written in the probe; '' requests `/`. */
  path: string;
  /** Canonical header names with their values, in first-seen order; Host not included. */
  headers: Array<[string, string[]]>;
  /** The Host header (req.Host); '' = host:port of the URL. */
  hostHeader: string;
}

/** probe.ResolveContainerPort: a number, or a named port of the container. Throws with Go's text. */
export function resolveContainerPort(port: number | string, c: Container): number {
  let n: number;
  if (typeof port === 'number') n = port;
  else {
    const named = c.ports?.find((p) => p.name === port);
    if (!named) throw new Error(`port ${goQuote(port)} not found`);
    n = named.containerPort;
  }
  if (n > 0 && n < 65536) return n;
  throw new Error(`invalid port number: ${n}`);
}

/** url.URL.String() of the request URL. */
export function requestURL(r: Pick<HttpProbeRequest, 'scheme' | 'host' | 'port' | 'path'>): string {
  const path = r.path === '' || r.path.startsWith('/') ? r.path : `/${r.path}`;
  return `${r.scheme}://${joinHostPort(r.host, r.port)}${path}`;
}

/** NewRequestForHTTPGetAction (user agent kube-probe/<major>.<minor>). Throws the port error. */
export function newRequestForHTTPGetAction(g: HTTPGetAction, c: Container, podIP: string): HttpProbeRequest {
  const port = resolveContainerPort(g.port, c);
  const headers = new Map<string, string[]>();
  for (const h of g.httpHeaders ?? []) {
    const k = canonicalHeaderKey(h.name);
    headers.set(k, [...(headers.get(k) ?? []), h.value]);
  }
  if (!headers.has('User-Agent')) headers.set('User-Agent', [`kube-probe/${KUBELET_MINOR_VERSION}`]);
  if (!headers.has('Accept')) headers.set('Accept', ['*/*']);
  else if (headers.get('Accept')![0] === '') headers.delete('Accept');
  const hostHeader = headers.get('Host')?.[0] ?? '';
  headers.delete('Host');
  return {
    scheme: (g.scheme || 'HTTP').toLowerCase(),
    host: g.host || podIP,
    port,
    path: g.path ?? '',
    headers: [...headers],
    hostHeader,
  };
}

interface Hop {
  scheme: string;
  host: string;
  port: number;
  path: string;
  hostHeader: string;
  referer?: string;
}

type Sent = { res: http.IncomingMessage } | { error: string };

/** Thrown inside the exchange when Client.Timeout expires. */
class ClientTimeout extends Error {}

function send(hop: Hop, headers: Array<[string, string[]]>, signal: AbortSignal): Promise<Sent> {
  const url = requestURL(hop);
  const hostPort = joinHostPort(hop.host, hop.port);
  // In the order Go's Request.write puts them: Host, User-Agent (its first value; an empty one is
  // not sent), then the other headers sorted by name (each value a line of its own); Node adds the
  // transport's `Connection: close` (agent: false) after them, as Go's DisableKeepAlives does.
  const out: Record<string, string | string[]> = { Host: hop.hostHeader || hostPort };
  const ua = headers.find(([k]) => k === 'User-Agent')?.[1][0];
  if (ua) out['User-Agent'] = ua;
  const rest: Array<[string, string[]]> = headers.filter(([k]) => k !== 'User-Agent');
  if (hop.referer) rest.push(['Referer', [hop.referer]]);
  for (const [k, vs] of rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[k] = vs.length === 1 ? vs[0]! : vs;
  const tls = hop.scheme === 'https';
  const mod = tls ? https : http;
  return new Promise((resolve) => {
    let socket: Socket | undefined;
    let req: http.ClientRequest;
    try {
      req = mod.request({
        method: 'GET',
        host: hop.host || '127.0.0.1',
        port: hop.port,
        path: hop.path === '' ? '/' : hop.path.startsWith('/') ? hop.path : `/${hop.path}`,
        headers: out,
        agent: false,
        signal,
        ...(tls ? { rejectUnauthorized: false, servername: hop.host && !isIP(hop.host) ? hop.host : '' } : {}),
      });
    } catch (e) {
      resolve({ error: `Get ${goQuote(url)}: ${(e as Error).message}` });
      return;
    }
    req.on('socket', (s) => (socket = s));
    req.on('response', (res) => resolve({ res }));
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (signal.aborted) {
        resolve({ error: `Get ${goQuote(url)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
      } else if (isDialError(e)) {
        resolve({ error: `Get ${goQuote(url)}: ${goDialError(hostPort, hop.host, e)}` });
      } else if (e.code === 'ECONNRESET' && e.message === 'socket hang up') {
        resolve({ error: `Get ${goQuote(url)}: EOF` });
      } else if (e.code === 'ECONNRESET') {
        const local = socket?.localAddress ? joinHostPort(socket.localAddress, socket.localPort ?? 0) : '';
        resolve({ error: `Get ${goQuote(url)}: read tcp ${local}->${hostPort}: read: connection reset by peer` });
      } else if (tls && (e.code === 'EPROTO' || /wrong version number|packet length too long/i.test(e.message))) {
        resolve({ error: `Get ${goQuote(url)}: http: server gave HTTP response to HTTPS client` });
      } else if (e.code?.startsWith('HPE_')) {
        resolve({ error: `Get ${goQuote(url)}: net/http: HTTP/1.x transport connection broken: malformed HTTP response` });
      } else {
        resolve({ error: `Get ${goQuote(url)}: ${e.message}` });
      }
    });
    req.end();
  });
}

/** Reads at most `limit` bytes of the body (utilio.ReadAtMost), then lets the connection go. */
function readAtMost(res: http.IncomingMessage, limit: number, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    const done = () => {
      signal.removeEventListener('abort', onAbort);
      res.destroy();
      resolve(Buffer.concat(chunks).subarray(0, limit));
    };
    const onAbort = () => {
      res.destroy();
      reject(new ClientTimeout('context deadline exceeded (Client.Timeout or context cancellation while reading body)'));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    res.on('data', (c: Buffer) => {
      chunks.push(c);
      n += c.length;
      if (n >= limit) done();
    });
    res.on('end', done);
    res.on('error', (e) => {
      signal.removeEventListener('abort', onAbort);
      reject(e);
    });
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * DoHTTPProbe with the kubelet's client (timeout `timeoutMs`, followNonLocalRedirects=false):
 * 200–399 success (3xx not followed: warning), ≥400 failure, transport errors as failures with
 * Go's text; an error while reading the body is a prober error.
 */
export async function doHTTPProbe(r: HttpProbeRequest, timeoutMs: number, clock: Clock = realClock): Promise<ProbeOutcome> {
  const ctl = new AbortController();
  const timer = clock.setTimeout(() => ctl.abort(), timeoutMs);
  try {
    const first: Hop = { scheme: r.scheme, host: r.host, port: r.port, path: r.path, hostHeader: r.hostHeader };
    let hop = first;
    let via = 0;
    for (;;) {
      via++;
      const sent = await send(hop, r.headers, ctl.signal);
      if ('error' in sent) return { result: 'failure', output: sent.error };
      const res = sent.res;
      const status = res.statusCode ?? 0;
      const loc = res.headers.location;
      if (REDIRECTS.has(status) && loc) {
        const curURL = requestURL(hop);
        let next: URL;
        try {
          next = new URL(loc, curURL.replace(/^(\w+):\/\/:/, '$1://127.0.0.1:'));
        } catch {
          res.destroy();
          return { result: 'failure', output: `Get ${goQuote(curURL)}: failed to parse Location header ${goQuote(loc)}` };
        }
        const nextHost = next.hostname.replace(/^\[(.*)\]$/, '$1');
        const firstHost = first.host || '127.0.0.1';
        if (nextHost !== firstHost) {
          // RedirectChecker: http.ErrUseLastResponse, the redirect is the response.
          return await finish(res, ctl.signal);
        }
        if (via >= 10) {
          res.destroy();
          return { result: 'failure', output: `Get ${goQuote(loc)}: stopped after 10 redirects` };
        }
        res.resume();
        res.destroy();
        const relative = !/^[a-z][a-z0-9+.-]*:/i.test(loc);
        hop = {
          scheme: next.protocol.replace(/:$/, ''),
          host: first.host,
          port: next.port ? Number(next.port) : next.protocol === 'https:' ? 443 : 80,
          path: `${next.pathname}${next.search}`,
          hostHeader: relative ? hop.hostHeader : '',
          referer: hop.scheme === 'https' && next.protocol === 'http:' ? undefined : curURL,
        };
        continue;
      }
      return await finish(res, ctl.signal);
    }
  } catch (e) {
    return { result: 'failure', output: '', error: (e as Error).message };
  } finally {
    timer.cancel();
  }
}

async function finish(res: http.IncomingMessage, signal: AbortSignal): Promise<ProbeOutcome> {
  const status = res.statusCode ?? 0;
  const body = (await readAtMost(res, MAX_RESP_BODY_LENGTH, signal)).toString('utf8');
  if (status >= 200 && status < 400) {
    if (status >= 300) return { result: 'warning', output: `Probe terminated redirects, Response body: ${body}` };
    return { result: 'success', output: body };
  }
  // Until https://issue.k8s.io/99425 is addressed the failure message never contains the body.
  return { result: 'failure', output: `HTTP probe failed with statuscode: ${status}` };
}
