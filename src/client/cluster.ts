// A real cluster behind the engine's face (EngineApi), so the extension's tree, lifecycle panel,
// describe and logs work on the pods of a kubeconfig context as they do on the lab's. Upstream
// counterparts: client-go's kubeconfig loading (clientcmd: KUBECONFIG list, ~/.kube/config) and
// its reflector (list, then watch from the list's resourceVersion; relist on 410 Gone).
//
// Authentication is @kubernetes/client-node's KubeConfig: client certificates, bearer tokens,
// exec credential plugins (the cloud providers'), custom CAs, insecure-skip-tls-verify and
// proxy-url all come from `applyToFetchOptions`, asked again for every request so that expiring
// plugin tokens are refreshed. The requests themselves are plain JSON over that agent (the typed
// API classes would turn timestamps into Date objects), and exec is client-node's WebSocket Exec.
// Nothing here is a lab feature: step mode, Restart now and attempt logs by id throw LabOnlyError.
import { Writable } from 'node:stream';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeConfig, Exec } from '@kubernetes/client-node';
// Not re-exported by the package index; the module is public API of client-node's dist.
import { WebSocketHandler } from '@kubernetes/client-node/dist/web-socket-handler.js';
import WebSocket from 'ws';
import fetch from 'node-fetch';
import type { ConfigMap, Event as KEvent, Node, Pod, Secret } from 'kubernetes-types/core/v1';
import type {
  ApplyResult,
  ConfigObject,
  ConfigObjectKind,
  ConfigObjectOf,
  EngineApi,
  EngineSettings,
  PodDebugInfo,
  WatchEvent,
} from '../engine/api.js';
import type { Disposable, PullProgress } from '../runtime/cri.js';
import { ApiStatusError, ConnectionState, rootCause } from './connection.js';

export interface KubeContextInfo {
  name: string;
  cluster: string;
  user: string;
  namespace?: string;
  server: string;
  current: boolean;
}

/** A lab feature asked of a real cluster. */
export class LabOnlyError extends Error {
  constructor(what: string) {
    super(`${what} is a Pod Lab feature: a real cluster's kubelet cannot be told to do it`);
    this.name = 'LabOnlyError';
  }
}

/**
 * kubectl's loading rules: the given file; else every file of KUBECONFIG (merged); else
 * ~/.kube/config. No file at all is an empty configuration (client-node's loadFromDefault would
 * make up a `loaded-context` for http://localhost:8080, which is nobody's cluster).
 */
function loadConfig(kubeconfigPath?: string): KubeConfig {
  const kc = new KubeConfig();
  try {
    if (kubeconfigPath) kc.loadFromFile(kubeconfigPath);
    else if (process.env.KUBECONFIG?.split(delimiter).some((f) => f && existsSync(f))) mergeFiles(kc, process.env.KUBECONFIG.split(delimiter));
    else if (existsSync(join(homedir(), '.kube', 'config'))) kc.loadFromFile(join(homedir(), '.kube', 'config'));
  } catch (e) {
    throw new Error(`cannot read the kubeconfig${kubeconfigPath ? ` ${kubeconfigPath}` : ''}: ${(e as Error).message}`);
  }
  return kc;
}

/**
 * KUBECONFIG's files merged as kubectl merges them: missing files are skipped, the first file that
 * names a cluster, user or context wins, the first current-context set wins (client-node's own
 * merge refuses duplicate names).
 */
function mergeFiles(kc: KubeConfig, files: string[]): void {
  const clusters: KubeConfig['clusters'] = [];
  const users: KubeConfig['users'] = [];
  const contexts: KubeConfig['contexts'] = [];
  let currentContext = '';
  const add = <T extends { name: string }>(into: T[], items: readonly T[]) => {
    for (const i of items) if (!into.some((x) => x.name === i.name)) into.push(i);
  };
  for (const f of files) {
    if (!f || !existsSync(f)) continue;
    const one = new KubeConfig();
    one.loadFromFile(f);
    add(clusters, one.clusters);
    add(users, one.users);
    add(contexts, one.contexts);
    currentContext ||= one.currentContext;
  }
  kc.loadFromOptions({ clusters, users, contexts, currentContext });
}

/** The contexts of a kubeconfig (default: KUBECONFIG, else ~/.kube/config, as kubectl). */
export function listContexts(kubeconfigPath?: string): KubeContextInfo[] {
  const kc = loadConfig(kubeconfigPath);
  const current = kc.getCurrentContext();
  return kc.getContexts().map((c) => ({
    name: c.name,
    cluster: c.cluster,
    user: c.user,
    ...(c.namespace ? { namespace: c.namespace } : {}),
    server: kc.getCluster(c.cluster)?.server ?? '',
    current: c.name === current,
  }));
}

type Json = Record<string, unknown>;

/** A Status body (or anything else) of a failed response as an ApiStatusError, the message verbatim. */
function statusError(code: number, body: string): ApiStatusError {
  try {
    const s = JSON.parse(body) as { kind?: string; code?: number; reason?: string; message?: string; details?: never };
    if (s.kind === 'Status' && typeof s.message === 'string') return new ApiStatusError(s.code ?? code, s.reason ?? '', s.message, s);
  } catch {
    // not JSON
  }
  return new ApiStatusError(code, code === 401 ? 'Unauthorized' : code === 403 ? 'Forbidden' : '', body.trim() || `the server answered ${code}`);
}

export interface OpenClusterOptions {
  kubeconfig?: string;
  context: string;
  namespace?: string;
}

export async function openCluster(opts: OpenClusterOptions): Promise<ClusterEngine> {
  const kc = loadConfig(opts.kubeconfig);
  if (!kc.getContextObject(opts.context)) throw new Error(`context "${opts.context}" is not in the kubeconfig`);
  kc.setCurrentContext(opts.context);
  const engine = new ClusterEngine(kc, opts.context, opts.namespace ?? kc.getContextObject(opts.context)?.namespace ?? 'default');
  try {
    await engine.start();
  } catch (e) {
    await engine.close();
    throw e;
  }
  return engine;
}

/** client-go's reflector back-off: the first retry after 0.5 s, doubling up to 30 s. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;

/**
 * One list+watch of a namespaced resource, kept as a map by name (client-go's reflector). After the
 * first list it never gives up: a failed watch or relist is retried with a growing pause, and
 * `onError` / `onHealthy` say when it stopped and started working again.
 */
class Reflector<T extends { metadata?: { name?: string; resourceVersion?: string } }> {
  readonly items = new Map<string, T>();
  private abort: AbortController | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  /** Failed attempts in a row since it last worked. */
  failures = 0;

  constructor(
    private readonly engine: ClusterEngine,
    private readonly path: string,
    private readonly onEvent: (type: 'ADDED' | 'MODIFIED' | 'DELETED', o: T) => void,
    private readonly onError: (e: Error) => void,
    private readonly onHealthy: () => void = () => undefined,
  ) {}

  /** Lists (throws on a refusal, e.g. RBAC), then watches in the background. */
  async start(): Promise<void> {
    const list = (await this.engine.request('GET', this.path)) as { metadata?: { resourceVersion?: string }; items?: T[] };
    const seen = new Set<string>();
    for (const o of list.items ?? []) {
      const name = o.metadata?.name ?? '';
      seen.add(name);
      const prev = this.items.get(name);
      this.items.set(name, o);
      if (!prev) this.onEvent('ADDED', o);
      else if (prev.metadata?.resourceVersion !== o.metadata?.resourceVersion) this.onEvent('MODIFIED', o);
    }
    for (const [name, o] of [...this.items]) {
      if (!seen.has(name)) {
        this.items.delete(name);
        this.onEvent('DELETED', o);
      }
    }
    if (this.failures > 0) {
      this.failures = 0;
      this.onHealthy();
    }
    void this.watch(list.metadata?.resourceVersion ?? '');
  }

  /** Relists later: after `failed`, with a pause that grows with the failures in a row; else after 1 s. */
  private relistLater(failed?: unknown): void {
    if (this.closed) return;
    let delay = 1000;
    if (failed !== undefined) {
      this.failures++;
      this.onError(rootCause(failed));
      delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (this.failures - 1));
    }
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start().catch((err: unknown) => this.relistLater(err));
    }, delay);
  }

  private async watch(resourceVersion: string): Promise<void> {
    if (this.closed) return;
    let rv = resourceVersion;
    const abort = new AbortController();
    this.abort = abort;
    try {
      const res = await this.engine.raw('GET', `${this.path}?watch=true&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(rv)}`, undefined, abort.signal);
      if (res.status !== 200) throw statusError(res.status, await res.text());
      let buf = '';
      let gone = false;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        buf += chunk.toString('utf8');
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (!line.trim()) continue;
          const ev = JSON.parse(line) as { type: string; object: T & { code?: number } };
          if (ev.type === 'ERROR') {
            // 410 Gone: the resourceVersion is too old; relist.
            gone = true;
            break;
          }
          rv = ev.object.metadata?.resourceVersion ?? rv;
          if (ev.type === 'BOOKMARK') continue;
          const name = ev.object.metadata?.name ?? '';
          if (ev.type === 'DELETED') this.items.delete(name);
          else this.items.set(name, ev.object);
          this.onEvent(ev.type as 'ADDED' | 'MODIFIED' | 'DELETED', ev.object);
        }
        if (gone) break;
      }
      if (this.closed) return;
      if (gone) {
        // 410 Gone (or another ERROR event): relist, after a pause so a server that keeps refusing is not hammered.
        abort.abort();
        this.relistLater();
      } else void this.watch(rv);
    } catch (e) {
      // Reconnect after a pause, relisting (what changed meanwhile is found by comparison).
      this.relistLater(e);
    }
  }

  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.abort?.abort();
  }
}

export class ClusterEngine implements EngineApi {
  readonly labFeatures = false;
  readonly target: { kind: 'cluster'; context: string; namespace: string; server: string };
  readonly settings: EngineSettings;
  private readonly listeners = new Set<(e: WatchEvent) => void>();
  private readonly pods: Reflector<Pod>;
  private readonly events: Reflector<KEvent>;
  /** ConfigMaps/Secrets read for env values: a refusal is remembered, so a 403 is asked once. */
  private readonly refused = new Set<string>();
  private readonly objects = new Map<string, ConfigObject | undefined>();
  private readonly ns: string;

  constructor(
    private readonly kc: KubeConfig,
    context: string,
    namespace: string,
  ) {
    this.ns = namespace;
    this.target = { kind: 'cluster', context, namespace, server: kc.getCurrentCluster()?.server ?? '' };
    this.settings = { sandboxImage: '', backoffInitialMs: 10_000, backoffMaxMs: 300_000, nodes: [], stepMode: false, relistIntervalMs: 0, stateDir: '' };
    const base = `/api/v1/namespaces/${encodeURIComponent(namespace)}`;
    // The pods' list+watch is the connection's health; the events' follows it (and may be refused alone).
    this.pods = new Reflector<Pod>(
      this,
      `${base}/pods`,
      (type, object) => this.emit({ type, kind: 'Pod', object }),
      (e) => this.connection.set(e),
      () => this.connection.set(undefined),
    );
    this.events = new Reflector<KEvent>(this, `${base}/events`, (type, object) => this.emit({ type, kind: 'Event', object }), () => undefined);
  }

  private readonly connection = new ConnectionState();
  /** Why the watch of the namespace's pods fails (it is being retried), or undefined while it works. */
  get connectionProblem(): Error | undefined {
    return this.connection.problem;
  }

  /** Failed relists in a row while the connection is lost. */
  get retries(): number {
    return this.pods.failures;
  }

  /** Told when the connection is lost (with why) and when it works again. */
  onConnection(listener: (problem: Error | undefined) => void): { dispose(): void } {
    return this.connection.on(listener);
  }

  async start(): Promise<void> {
    await this.pods.start();
    // Events may be refused while pods are not: the panel then shows none.
    await this.events.start().catch(() => undefined);
  }

  private emit(e: WatchEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  /** A request with the kubeconfig's credentials (client-node's agent and headers). */
  async raw(method: string, path: string, body?: unknown, signal?: AbortSignal, contentType = 'application/json') {
    const init = await this.kc.applyToFetchOptions({});
    const headers = init.headers as unknown as { set(k: string, v: string): void };
    headers.set('Accept', 'application/json');
    if (body !== undefined) headers.set('Content-Type', contentType);
    const server = this.kc.getCurrentCluster()?.server ?? '';
    return fetch(`${server}${path}`, {
      ...(init as object),
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal as never,
    });
  }

  async request(method: string, path: string, body?: unknown, contentType?: string): Promise<unknown> {
    const res = await this.raw(method, path, body, undefined, contentType);
    const text = await res.text();
    if (res.status >= 400) throw statusError(res.status, text);
    return text ? (JSON.parse(text) as unknown) : undefined;
  }

  private podPath(namespace: string, name: string): string {
    return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`;
  }

  async createPod(pod: Pod): Promise<Pod> {
    const namespace = pod.metadata?.namespace ?? this.ns;
    const created = (await this.request('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`, { apiVersion: 'v1', kind: 'Pod', ...pod })) as Pod;
    // Readable at once (the watch event follows); a newer version the watch already delivered wins.
    const name = created.metadata?.name ?? '';
    if (namespace === this.ns && !this.pods.items.has(name)) this.pods.items.set(name, created);
    return created;
  }

  async deletePod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<void> {
    const uid = this.getPod(namespace, name)?.metadata?.uid;
    const gone = namespace === this.ns ? this.waitGone(name, uid) : Promise.resolve();
    await this.request('DELETE', this.podPath(namespace, name), gracePeriodSeconds !== undefined ? { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds } : undefined);
    await gone;
  }

  private waitGone(name: string, uid: string | undefined): Promise<void> {
    return new Promise((resolve) => {
      const sub = this.watch((e) => {
        if (e.kind === 'Pod' && e.type === 'DELETED' && e.object.metadata?.name === name && (!uid || e.object.metadata?.uid === uid)) {
          sub.dispose();
          resolve();
        }
      });
    });
  }

  getPod(namespace: string, name: string): Pod | undefined {
    return namespace === this.ns ? this.pods.items.get(name) : undefined;
  }

  listPods(): Pod[] {
    return [...this.pods.items.values()].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  }

  listEvents(filter?: { uid?: string }): KEvent[] {
    const all = [...this.events.items.values()];
    return filter?.uid ? all.filter((e) => e.involvedObject?.uid === filter.uid) : all;
  }

  listNodes(): Node[] {
    return [];
  }

  watch(listener: (e: WatchEvent) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  async applyObject<O extends ConfigObject>(obj: O): Promise<ApplyResult<O>> {
    const kind = (obj as { kind?: string }).kind === 'Secret' ? 'secrets' : 'configmaps';
    const namespace = obj.metadata?.namespace ?? this.ns;
    const name = obj.metadata?.name ?? '';
    const body = { apiVersion: 'v1', ...obj, metadata: { ...obj.metadata, namespace } };
    try {
      const existing = (await this.request('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}/${kind}/${encodeURIComponent(name)}`)) as Json;
      const metadata = { ...body.metadata, resourceVersion: (existing.metadata as Json | undefined)?.resourceVersion as string };
      const object = (await this.request('PUT', `/api/v1/namespaces/${encodeURIComponent(namespace)}/${kind}/${encodeURIComponent(name)}`, { ...body, metadata })) as O;
      return { outcome: 'configured', object };
    } catch (e) {
      if (!(e instanceof ApiStatusError) || e.code !== 404) throw e;
    }
    const object = (await this.request('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/${kind}`, body)) as O;
    return { outcome: 'created', object };
  }

  getObject<K extends ConfigObjectKind>(kind: K, namespace: string, name: string): ConfigObjectOf<K> | undefined {
    // Synchronous for the panel's environment: answered from what a background read found.
    const key = `${kind}/${namespace}/${name}`;
    if (!this.objects.has(key) && !this.refused.has(`${kind}/${namespace}`)) {
      this.objects.set(key, undefined);
      const plural = kind === 'Secret' ? 'secrets' : 'configmaps';
      this.request('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}/${plural}/${encodeURIComponent(name)}`).then(
        (o) => {
          this.objects.set(key, o as ConfigObject);
          this.emit({ type: 'MODIFIED', kind, object: o as ConfigMap & Secret });
        },
        (e: unknown) => {
          if (e instanceof ApiStatusError && e.code === 403) this.refused.add(`${kind}/${namespace}`);
        },
      );
    }
    return this.objects.get(key) as ConfigObjectOf<K> | undefined;
  }

  listObjects<K extends ConfigObjectKind>(kind: K): ConfigObjectOf<K>[] {
    void kind;
    return [];
  }

  async deleteObject<K extends ConfigObjectKind>(kind: K, namespace: string, name: string): Promise<ConfigObjectOf<K>> {
    const plural = kind === 'Secret' ? 'secrets' : 'configmaps';
    return (await this.request('DELETE', `/api/v1/namespaces/${encodeURIComponent(namespace)}/${plural}/${encodeURIComponent(name)}`)) as ConfigObjectOf<K>;
  }

  private logQuery(container: string, opts: { previous?: boolean; tail?: number; timestamps?: boolean; follow?: boolean }): string {
    const q = new URLSearchParams({ container });
    if (opts.previous) q.set('previous', 'true');
    if (opts.tail !== undefined) q.set('tailLines', String(opts.tail));
    if (opts.timestamps) q.set('timestamps', 'true');
    if (opts.follow) q.set('follow', 'true');
    return q.toString();
  }

  async logs(namespace: string, name: string, container: string, opts: { previous?: boolean; tail?: number; timestamps?: boolean } = {}): Promise<string[]> {
    const res = await this.raw('GET', `${this.podPath(namespace, name)}/log?${this.logQuery(container, opts)}`);
    const text = await res.text();
    if (res.status >= 400) throw statusError(res.status, text);
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  }

  async followLogs(
    namespace: string,
    name: string,
    container: string,
    onLine: (line: string, unterminated?: boolean) => void,
    opts: { previous?: boolean; tail?: number; timestamps?: boolean; onEnd?: () => void } = {},
  ): Promise<Disposable> {
    const abort = new AbortController();
    const res = await this.raw('GET', `${this.podPath(namespace, name)}/log?${this.logQuery(container, { ...opts, follow: true })}`, undefined, abort.signal);
    if (res.status >= 400) throw statusError(res.status, await res.text());
    void (async () => {
      let buf = '';
      try {
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          buf += chunk.toString('utf8');
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            onLine(buf.slice(0, nl));
            buf = buf.slice(nl + 1);
          }
        }
        if (buf) onLine(buf, true);
      } catch {
        // aborted or the connection dropped
      }
      opts.onEnd?.();
    })();
    return { dispose: () => abort.abort() };
  }

  async debugInfo(_namespace: string, _name: string): Promise<PodDebugInfo | undefined> {
    return undefined;
  }

  watchDebug(_namespace: string, _name: string, listener: (info: PodDebugInfo | undefined) => void): Disposable {
    queueMicrotask(() => listener(undefined));
    return { dispose: () => undefined };
  }

  async attemptLogs(_containerId: string, _tail?: number): Promise<string[]> {
    throw new LabOnlyError('Logs of an attempt by container id');
  }

  async exec(namespace: string, name: string, container: string, cmd: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const sink = (add: (s: string) => void) =>
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          add(chunk.toString('utf8'));
          cb();
        },
      });
    // A refused upgrade (403, 404) must keep the API's Status: ws drops the response body unless
    // asked for it, and client-node then rejects with a bare error event.
    const socketFactory = (uri: string, protocols: string[], opts: WebSocket.ClientOptions) => {
      const ws = new WebSocket(uri, protocols, opts);
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => {
          ws.emit('error', statusError(res.statusCode ?? 500, body));
          ws.terminate();
        });
      });
      return ws;
    };
    const unwrap = (e: unknown): Error => {
      const inner = (e as { error?: unknown } | undefined)?.error;
      if (inner instanceof Error) return inner;
      return e instanceof Error ? e : new Error(String((e as { message?: unknown })?.message ?? e));
    };
    return new Promise((resolve, reject) => {
      new Exec(this.kc, new WebSocketHandler(this.kc, socketFactory as never))
        .exec(namespace, name, container, cmd, sink((s) => (stdout += s)), sink((s) => (stderr += s)), null, false, (status) => {
          const s = status as { status?: string; message?: string; details?: { causes?: { reason?: string; message?: string }[] } };
          if (s.status === 'Success') return resolve({ exitCode: 0, stdout, stderr });
          const code = s.details?.causes?.find((c) => c.reason === 'ExitCode')?.message;
          if (code !== undefined) return resolve({ exitCode: Number(code), stdout, stderr });
          reject(new Error(s.message ?? 'exec failed'));
        })
        .catch((e: unknown) => reject(unwrap(e)));
    });
  }

  continueStep(_namespace: string, _name: string): void {
    throw new LabOnlyError('Step mode');
  }

  restartNow(_namespace: string, _name: string, _container: string): void {
    throw new LabOnlyError('Restart now');
  }

  onPullProgress(_listener: (p: PullProgress & { pod: string }) => void): Disposable {
    return { dispose: () => undefined };
  }

  onStepWaiting(_listener: (podKey: string, container: string) => void): Disposable {
    return { dispose: () => undefined };
  }

  async close(): Promise<void> {
    this.pods.close();
    this.events.close();
    this.listeners.clear();
  }
}

export type { Secret };
