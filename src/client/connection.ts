// A connection to the lab server from the shells (CLI and extension): HTTPS to 127.0.0.1 with the
// lab's CA and bearer token, read from the lab's kubeconfig. Requests, line streams (watch, log
// follow) and WebSocket exec. The lab's credentials are a CA and a token only, so Node's https is
// enough here; kubeconfigs of real clusters (client certificates, exec plugins) are issue 9's.
import { Agent, request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/**
 * The socket's error (ECONNREFUSED, …) is the one to show: fetch's "fetch failed" carries it as its
 * cause, node-fetch's "request to <url> failed, reason: …" after the URL.
 */
export function rootCause(e: unknown): Error {
  const cause = (e as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Error) return cause;
  if (!(e instanceof Error)) return new Error(String(e));
  const reason = /^request to \S+ failed, reason: (.+)$/s.exec(e.message)?.[1];
  return reason ? Object.assign(new Error(reason), { code: (e as { code?: unknown }).code }) : e;
}

/**
 * Whether a client's server answers: told when the connection is lost (with why), when the reason
 * changes, and when it works again (the clients retry meanwhile).
 */
export class ConnectionState {
  /** Why the server does not answer, or undefined while it does. */
  problem: Error | undefined;
  private readonly listeners = new Set<(problem: Error | undefined) => void>();

  on(listener: (problem: Error | undefined) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** The client closed: nobody is told anything more. */
  clear(): void {
    this.listeners.clear();
  }

  set(problem: Error | undefined): void {
    const was = this.problem;
    this.problem = problem;
    // told when it is lost or back, and when the reason changes (a reset, then nobody listening)
    if (was?.message === problem?.message) return;
    for (const l of [...this.listeners]) {
      try {
        l(problem);
      } catch {
        // a listener's failure is its own
      }
    }
  }
}

export interface Credentials {
  server: string;
  ca: string;
  token: string;
}

/** Reads the server address, CA and token of the `podlab` context of a lab kubeconfig. */
export function readLabKubeconfig(path: string): Credentials {
  const cfg = parseYaml(readFileSync(path, 'utf8')) as {
    clusters?: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
    users?: { name: string; user: { token: string } }[];
  };
  const cluster = cfg.clusters?.find((c) => c.name === 'podlab')?.cluster;
  const user = cfg.users?.find((u) => u.name === 'podlab')?.user;
  if (!cluster || !user) throw new Error(`${path} has no podlab cluster and user`);
  return { server: cluster.server, ca: Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8'), token: user.token };
}

/** A request's time limit passed with no answer: the server keeps the connection but does not answer. */
export class NoAnswerError extends Error {
  override name = 'NoAnswerError';
}

/** An error Status from the server: `message` is the Status's message, as kubectl prints it. */
export class ApiStatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly status?: { details?: { causes?: { field?: string; message?: string; reason?: string }[] } },
  ) {
    super(message);
    this.name = 'ApiStatusError';
  }
}

export interface Response {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

export class LabConnection {
  private readonly agent: Agent;
  private readonly base: URL;

  constructor(readonly creds: Credentials) {
    this.base = new URL(creds.server);
    this.agent = new Agent({ ca: creds.ca, keepAlive: true, maxSockets: 32 });
  }

  private options(method: string, path: string, headers: Record<string, string>) {
    return {
      method,
      host: this.base.hostname,
      port: this.base.port,
      path,
      agent: this.agent,
      ca: this.creds.ca,
      servername: 'localhost',
      headers: { Authorization: `Bearer ${this.creds.token}`, Accept: 'application/json', ...headers },
    };
  }

  /**
   * One request; throws ApiStatusError for a Status error (4xx/5xx), and NoAnswerError (`no answer
   * within Ns`) when `timeoutMs` passes without an answer.
   */
  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, opts: { timeoutMs?: number } = {}): Promise<Response> {
    return new Promise((resolve, reject) => {
      const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const h = { ...(text !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) } : {}), ...headers };
      const req = httpsRequest(this.options(method, path, h), (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') };
          if (out.status >= 400) reject(statusError(out));
          else resolve(out);
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      if (opts.timeoutMs !== undefined) {
        const ms = opts.timeoutMs;
        req.setTimeout(ms, () => req.destroy(new NoAnswerError(`no answer within ${Math.round(ms / 1000)}s`)));
      }
      req.end(text);
    });
  }

  async json<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    const r = await this.request(method, path, body, headers);
    return JSON.parse(r.body) as T;
  }

  /**
   * A streamed response read line by line (watch, log follow). `onEnd` is called once when the
   * server ends it or the connection fails (not after `dispose`). Resolves once the headers came.
   * A last line the server ended without a newline comes with `unterminated` (a log written so).
   */
  stream(path: string, onLine: (line: string, unterminated?: boolean) => void, onEnd: (err?: Error) => void): Promise<{ dispose(): void }> {
    return new Promise((resolve, reject) => {
      let disposed = false;
      let started = false;
      const req = httpsRequest(this.options('GET', path, {}), (res) => {
        if ((res.statusCode ?? 0) >= 400) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => reject(statusError({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') })));
          return;
        }
        started = true;
        resolve({
          dispose: () => {
            disposed = true;
            req.destroy();
          },
        });
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          pending += c;
          let i: number;
          while ((i = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, i);
            pending = pending.slice(i + 1);
            if (!disposed) onLine(line);
          }
        });
        const finish = (err?: Error) => {
          if (disposed) return;
          disposed = true;
          if (pending && !err) onLine(pending, true);
          onEnd(err);
        };
        res.on('end', () => finish());
        res.on('error', (e) => finish(e));
        res.on('close', () => finish());
      });
      req.on('error', (e) => {
        if (!started) reject(e);
      });
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The error a failed response makes: its Status (reason, message) when it is one, else its text. */
export function statusError(r: Response): ApiStatusError {
  try {
    const s = JSON.parse(r.body) as { kind?: string; message?: string; reason?: string; code?: number; details?: { causes?: { field?: string; message?: string; reason?: string }[] } };
    if (s.kind === 'Status') return new ApiStatusError(s.code ?? r.status, s.reason ?? '', s.message ?? '', s);
  } catch {
    // not JSON
  }
  return new ApiStatusError(r.status, '', r.body.trim() || `HTTP ${r.status}`);
}
