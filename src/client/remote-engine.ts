// The engine as the shells see it when the lab server runs it: the EngineApi over the server's
// Kubernetes API (and Pod Lab's lab API, src/server/lab-api.ts). Informer-style caches (list,
// then watch from the list's resourceVersion, re-list after an expired watch or a dropped
// connection) keep Pods, Events, Nodes, ConfigMaps and Secrets, so the synchronous getters answer
// from memory and listeners get every change as the server's watch delivers it.
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
import { InvalidError, applyBody } from '../engine/config-objects.js';
import { LAB_ANNOTATIONS, LAB_GROUP_VERSION } from '../server/lab-api.js';
import type { Endpoint } from '../server/endpoint.js';
import { ApiStatusError, ConnectionState, LabConnection, rootCause } from './connection.js';
import { execCollect } from './streams.js';

type CachedKind = 'Pod' | 'Event' | 'Node' | 'ConfigMap' | 'Secret';
type AnyObj = Pod | KEvent | Node | ConfigMap | Secret;
const PATHS: Record<CachedKind, string> = { Pod: '/api/v1/pods', Event: '/api/v1/events', Node: '/api/v1/nodes', ConfigMap: '/api/v1/configmaps', Secret: '/api/v1/secrets' };
const PLURAL: Record<CachedKind, string> = { Pod: 'pods', Event: 'events', Node: 'nodes', ConfigMap: 'configmaps', Secret: 'secrets' };
const KINDS = Object.keys(PATHS) as CachedKind[];

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const rvOf = (o: { metadata?: { resourceVersion?: string } }) => Number(o.metadata?.resourceVersion ?? 0);
const enc = encodeURIComponent;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Strips the type fields the API adds, so cached objects look like the engine's. */
function plain<T extends AnyObj>(o: T): T {
  return o;
}

/** Where the lab's server runs now (undefined: none does); `start` starts one when none does. */
export type ServerFinder = (start: boolean) => Promise<{ conn: LabConnection; endpoint: Endpoint } | undefined>;

/** What a log request may ask of the lab server (the query parameters of PodLogOptions). */
export interface LogQuery {
  previous?: boolean;
  tail?: number;
  timestamps?: boolean;
  sinceSeconds?: number;
  /** RFC 3339 */
  sinceTime?: string;
  limitBytes?: number;
}

export class RemoteEngine implements EngineApi {
  private readonly caches: Record<CachedKind, Map<string, AnyObj>> = { Pod: new Map(), Event: new Map(), Node: new Map(), ConfigMap: new Map(), Secret: new Map() };
  private readonly listeners = new Set<(e: WatchEvent) => void>();
  private readonly pullListeners = new Set<(p: PullProgress & { pod: string }) => void>();
  private readonly stepListeners = new Set<(podKey: string, container: string) => void>();
  private readonly streams = new Set<{ dispose(): void }>();
  private closed = false;
  readonly settings: EngineSettings;
  private readonly connection = new ConnectionState();
  /** Why the lab server does not answer (the client retries), or undefined while it does. */
  get connectionProblem(): Error | undefined {
    return this.connection.problem;
  }

  private constructor(
    /** The server this client talks to; another when the lab's server moved (see relocate). */
    public conn: LabConnection,
    public endpoint: Endpoint,
    stateDir: string,
    private readonly find?: ServerFinder,
  ) {
    const s = endpoint.settings;
    this.settings = { sandboxImage: s.sandboxImage, backoffInitialMs: s.backoffInitialMs, backoffMaxMs: s.backoffMaxMs, stepMode: s.stepMode, nodes: [], relistIntervalMs: 10_000, stateDir };
  }

  /**
   * Connects, fills the caches and starts the watches. `find` says where the lab's server runs now
   * (its endpoint file): while the server does not answer, each retry asks it, so a server started
   * again (on another port) is followed.
   */
  static async connect(conn: LabConnection, endpoint: Endpoint, stateDir: string, find?: ServerFinder): Promise<RemoteEngine> {
    const e = new RemoteEngine(conn, endpoint, stateDir, find);
    await Promise.all(KINDS.map((k) => e.listAndWatch(k)));
    await e.watchLab();
    return e;
  }

  /**
   * Asks where the lab's server runs (`start`: starting one when none does) and, when that is
   * another server than this client's, talks to it from now on. Whether the client moved.
   */
  async relocate(start = false): Promise<boolean> {
    // (asked to start one, a failure to is the caller's to tell; else the next retry asks again)
    const found = start ? await this.find?.(true) : await this.find?.(false).catch(() => undefined);
    if (!found || (found.endpoint.port === this.endpoint.port && found.endpoint.pid === this.endpoint.pid)) return false;
    const old = this.conn;
    this.conn = found.conn;
    this.endpoint = found.endpoint;
    old.close();
    return true;
  }

  /**
   * The lab's server again, after it stopped answering (a clean-up that must not be lost): one is
   * started if none runs, and the pods are read from it (the pod watch's own retry then resumes
   * there). Throws why, when none can be reached.
   */
  async reconnect(): Promise<void> {
    if (!this.connection.problem) return;
    await this.relocate(true);
    await this.relist('Pod');
  }

  /** Told when the lab server stops answering (with why; the client retries) and when it answers again. */
  onConnection(listener: (problem: Error | undefined) => void): Disposable {
    return this.connection.on(listener);
  }

  private emit(e: WatchEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // a listener's failure is not the engine's
      }
    }
  }

  /** Applies an object seen in a response or a watch event to the cache, in resourceVersion order. */
  private upsert(kind: CachedKind, o: AnyObj, _type: 'ADDED' | 'MODIFIED'): void {
    const key = keyOf(o);
    const cur = this.caches[kind].get(key);
    if (cur && cur.metadata?.uid === o.metadata?.uid && rvOf(cur) >= rvOf(o)) return;
    if (cur && cur.metadata?.uid !== o.metadata?.uid) this.remove(kind, cur);
    this.caches[kind].set(key, plain(o));
    this.emit({ type: cur && cur.metadata?.uid === o.metadata?.uid ? 'MODIFIED' : 'ADDED', kind, object: o } as WatchEvent);
  }

  private remove(kind: CachedKind, o: AnyObj): void {
    const key = keyOf(o);
    const cur = this.caches[kind].get(key);
    if (!cur || cur.metadata?.uid !== o.metadata?.uid) return;
    this.caches[kind].delete(key);
    this.emit({ type: 'DELETED', kind, object: o } as WatchEvent);
  }

  private async listAndWatch(kind: CachedKind): Promise<void> {
    await this.watchFrom(kind, await this.relist(kind));
  }

  /** Lists the kind and makes the cache what the list says (events for what changed); the list's resourceVersion. */
  private async relist(kind: CachedKind): Promise<string> {
    const list = await this.conn.json<{ metadata: { resourceVersion: string }; items: AnyObj[] }>('GET', PATHS[kind]);
    const seen = new Set<string>();
    for (const o of list.items) {
      seen.add(keyOf(o));
      this.upsert(kind, o, 'ADDED');
    }
    for (const o of [...this.caches[kind].values()]) if (!seen.has(keyOf(o))) this.remove(kind, o);
    return list.metadata.resourceVersion;
  }

  private async watchFrom(kind: CachedKind, rv: string): Promise<void> {
    let last = rv;
    let expired = false;
    const s = await this.conn.stream(
      `${PATHS[kind]}?watch=true&resourceVersion=${enc(rv)}&allowWatchBookmarks=true`,
      (line) => {
        if (!line.trim()) return;
        const ev = JSON.parse(line) as { type: string; object: AnyObj & { code?: number } };
        if (ev.type === 'ERROR') {
          expired = true;
          return;
        }
        last = ev.object.metadata?.resourceVersion ?? last;
        if (ev.type === 'BOOKMARK') return;
        if (ev.type === 'DELETED') this.remove(kind, ev.object);
        else this.upsert(kind, ev.object, ev.type as 'ADDED' | 'MODIFIED');
      },
      () => {
        this.streams.delete(s);
        if (this.closed) return;
        // The server ended the watch (timeout, restart) or it expired: resume, or re-list. The
        // pods' watch says whether the server answers (the lab server stopped or died).
        void (async () => {
          for (let attempt = 0; !this.closed; attempt++) {
            try {
              // (the pods' watch follows the lab's server to where it runs now: all re-list there)
              if (kind === 'Pod' && attempt > 0 && (await this.relocate())) expired = true;
              if (expired) await this.listAndWatch(kind);
              else await this.watchFrom(kind, last);
              if (kind === 'Pod' && !this.closed) this.connection.set(undefined);
              return;
            } catch (e) {
              expired = true;
              if (kind === 'Pod' && !this.closed) this.connection.set(rootCause(e));
              await sleep(Math.min(5000, 200 * 2 ** attempt));
            }
          }
        })();
      },
    );
    if (this.closed) s.dispose();
    else this.streams.add(s);
  }

  private async watchLab(): Promise<void> {
    const s = await this.conn.stream(
      `/apis/${LAB_GROUP_VERSION}/pullprogress`,
      (line) => {
        if (!line.trim()) return;
        const m = JSON.parse(line) as (PullProgress & { pod: string }) | { stepWaiting: { pod: string; container: string } };
        if ('stepWaiting' in m) this.stepListeners.forEach((l) => l(m.stepWaiting.pod, m.stepWaiting.container));
        else this.pullListeners.forEach((l) => l(m));
      },
      () => {
        this.streams.delete(s);
        // Resumed like the watches, however long the server is away.
        void (async () => {
          for (let attempt = 0; !this.closed; attempt++) {
            await sleep(Math.min(5000, 500 * 2 ** attempt));
            if (this.closed) return;
            try {
              return await this.watchLab();
            } catch {
              // still away: try again
            }
          }
        })();
      },
    );
    if (this.closed) s.dispose();
    else this.streams.add(s);
  }

  // ---- pods --------------------------------------------------------------------------------

  async createPod(pod: Pod, opts: { stepMode?: boolean } = {}): Promise<Pod> {
    const ns = pod.metadata?.namespace ?? 'default';
    const body = structuredClone(pod) as Pod & { metadata: NonNullable<Pod['metadata']> };
    body.metadata = { ...body.metadata, namespace: ns };
    if (opts.stepMode !== undefined) body.metadata.annotations = { ...body.metadata.annotations, [LAB_ANNOTATIONS.stepMode]: String(opts.stepMode) };
    const created = await this.conn.json<Pod>('POST', `/api/v1/namespaces/${enc(ns)}/pods?fieldValidation=Strict`, body);
    this.upsert('Pod', created, 'ADDED');
    return created;
  }

  async deletePod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<void> {
    const pod = this.getPod(namespace, name);
    const uid = pod?.metadata?.uid;
    const gone = new Promise<void>((resolve) => {
      const sub = this.watch((e) => {
        if (e.kind === 'Pod' && e.type === 'DELETED' && e.object.metadata?.namespace === namespace && e.object.metadata?.name === name && (!uid || e.object.metadata?.uid === uid)) {
          sub.dispose();
          resolve();
        }
      });
    });
    // A grace period of 0 would remove the pod from the API at once (a forced deletion) and leave
    // the kubelet's clean-up unobserved: ask for 1 s, which the kubelet's kill uses anyway, so this
    // resolves only when the containers are gone.
    const effective = gracePeriodSeconds ?? pod?.spec?.terminationGracePeriodSeconds;
    const body = effective !== undefined ? { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: Math.max(effective, 1) } : undefined;
    const res = await this.conn.json<Pod>('DELETE', `/api/v1/namespaces/${enc(namespace)}/pods/${enc(name)}`, body);
    if (!this.getPod(namespace, name) || this.getPod(namespace, name)?.metadata?.uid !== res.metadata?.uid) return;
    const grace = gracePeriodSeconds ?? pod?.spec?.terminationGracePeriodSeconds ?? 30;
    const timeoutMs = (Math.max(grace, 2) + 60) * 1000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      gone,
      new Promise<void>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out waiting for pod "${name}" to be deleted`)), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  getPod(namespace: string, name: string): Pod | undefined {
    return this.caches.Pod.get(`${namespace}/${name}`) as Pod | undefined;
  }

  /** Whether the namespace exists: kubectl looks it up after a NotFound, to say the namespace is what is missing. */
  async namespaceExists(namespace: string): Promise<boolean> {
    try {
      await this.conn.json('GET', `/api/v1/namespaces/${enc(namespace)}`);
      return true;
    } catch (e) {
      if (e instanceof ApiStatusError && e.code === 404) return false;
      throw e;
    }
  }

  listPods(): Pod[] {
    return [...this.caches.Pod.values()] as Pod[];
  }

  listEvents(filter: { uid?: string } = {}): KEvent[] {
    const all = [...this.caches.Event.values()] as KEvent[];
    return filter.uid ? all.filter((e) => e.involvedObject.uid === filter.uid) : all;
  }

  listNodes(): Node[] {
    return [...this.caches.Node.values()] as Node[];
  }

  watch(listener: (e: WatchEvent) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  // ---- ConfigMaps and Secrets ------------------------------------------------------------------

  async applyObject<O extends ConfigObject>(obj: O): Promise<ApplyResult<O>> {
    const kind = (obj.kind ?? ('type' in obj || 'stringData' in obj ? 'Secret' : 'ConfigMap')) as ConfigObjectKind;
    const ns = obj.metadata?.namespace || 'default';
    const name = obj.metadata?.name ?? '';
    const base = `/api/v1/namespaces/${enc(ns)}/${PLURAL[kind]}`;
    try {
      const existing = await this.conn.json<O>('GET', `${base}/${enc(name)}`).catch((e: unknown) => {
        if (e instanceof ApiStatusError && e.code === 404) return undefined;
        throw e;
      });
      // kubectl apply's merge with what is stored (what other clients set stays), and its record of what it applied
      const body = applyBody(kind, existing, { ...obj, apiVersion: 'v1', kind, metadata: { ...obj.metadata, namespace: ns } } as O);
      if (!existing) {
        const created = await this.conn.json<O>('POST', `${base}?fieldValidation=Strict`, body);
        this.upsert(kind, created, 'ADDED');
        return { outcome: 'created', object: created };
      }
      const updated = await this.conn.json<O>('PUT', `${base}/${enc(name)}?fieldValidation=Strict`, body);
      this.upsert(kind, updated, 'MODIFIED');
      return { outcome: updated.metadata?.resourceVersion === existing.metadata?.resourceVersion ? 'unchanged' : 'configured', object: updated };
    } catch (e) {
      if (e instanceof ApiStatusError && e.code === 422) {
        const causes = (e.status?.details?.causes ?? []).map((c) => {
          const m = /^([^:]+): (.*)$/.exec(c.message ?? '') ?? [];
          return { field: c.field ?? '', type: (m[1] ?? 'Invalid value') as never, detail: m[2] ?? c.message ?? '' };
        });
        throw new InvalidError(kind, name, causes);
      }
      throw e;
    }
  }

  getObject<K extends ConfigObjectKind>(kind: K, namespace: string, name: string): ConfigObjectOf<K> | undefined {
    return this.caches[kind].get(`${namespace}/${name}`) as ConfigObjectOf<K> | undefined;
  }

  listObjects<K extends ConfigObjectKind>(kind: K): ConfigObjectOf<K>[] {
    return ([...this.caches[kind].values()] as ConfigObjectOf<K>[]).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  }

  async deleteObject<K extends ConfigObjectKind>(kind: K, namespace: string, name: string): Promise<ConfigObjectOf<K>> {
    try {
      const gone = await this.conn.json<ConfigObjectOf<K>>('DELETE', `/api/v1/namespaces/${enc(namespace)}/${PLURAL[kind]}/${enc(name)}`);
      this.remove(kind, gone);
      return gone;
    } catch (e) {
      if (e instanceof ApiStatusError && e.code === 404) {
        const err = new Error(e.message);
        err.name = 'NotFound';
        throw err;
      }
      throw e;
    }
  }

  // ---- logs, exec, lab tools ----------------------------------------------------------------------

  private logPath(namespace: string, name: string, container: string, q: Record<string, string | undefined>): string {
    const p = new URLSearchParams({ container });
    for (const [k, v] of Object.entries(q)) if (v !== undefined) p.set(k, v);
    return `/api/v1/namespaces/${enc(namespace)}/pods/${enc(name)}/log?${p}`;
  }

  /** The log query of PodLogOptions: previous, tailLines, timestamps, sinceSeconds, sinceTime, limitBytes. */
  private logQuery(opts: LogQuery): Record<string, string | undefined> {
    return {
      previous: opts.previous ? 'true' : undefined,
      tailLines: opts.tail?.toString(),
      timestamps: opts.timestamps ? 'true' : undefined,
      sinceSeconds: opts.sinceSeconds?.toString(),
      sinceTime: opts.sinceTime,
      limitBytes: opts.limitBytes?.toString(),
    };
  }

  async logs(namespace: string, name: string, container: string, opts: LogQuery = {}): Promise<string[]> {
    const body = await this.logText(namespace, name, container, opts);
    return body ? body.replace(/\n$/, '').split('\n') : [];
  }

  /** The log as the server sent it (with `limitBytes`, the last line may be cut short, without its newline). */
  async logText(namespace: string, name: string, container: string, opts: LogQuery = {}): Promise<string> {
    return (await this.conn.request('GET', this.logPath(namespace, name, container, this.logQuery(opts)))).body;
  }

  async followLogs(
    namespace: string,
    name: string,
    container: string,
    onLine: (line: string, unterminated?: boolean) => void,
    opts: LogQuery & { onEnd?: () => void } = {},
  ): Promise<Disposable> {
    const s = await this.conn.stream(
      this.logPath(namespace, name, container, { follow: 'true', ...this.logQuery(opts) }),
      onLine,
      () => {
        this.streams.delete(s);
        opts.onEnd?.();
      },
    );
    this.streams.add(s);
    return {
      dispose: () => {
        this.streams.delete(s);
        s.dispose();
      },
    };
  }

  async debugInfo(namespace: string, name: string): Promise<PodDebugInfo | undefined> {
    try {
      const d = await this.conn.json<PodDebugInfo & { kind?: string; apiVersion?: string; metadata?: object }>('GET', `/apis/${LAB_GROUP_VERSION}/namespaces/${enc(namespace)}/poddebugs/${enc(name)}`);
      const { kind: _k, apiVersion: _a, metadata: _m, ...info } = d;
      return info as PodDebugInfo;
    } catch (e) {
      if (e instanceof ApiStatusError && e.code === 404) return undefined;
      throw e;
    }
  }

  watchDebug(namespace: string, name: string, listener: (info: PodDebugInfo | undefined) => void): Disposable {
    let disposed = false;
    let last: string | undefined;
    let stream: { dispose(): void } | undefined;
    let retry: NodeJS.Timeout | undefined;
    const deliver = (info: PodDebugInfo | undefined) => {
      const json = JSON.stringify(info ?? null);
      if (disposed || json === last) return;
      last = json;
      try {
        listener(info);
      } catch {
        // a listener's failure is not the engine's
      }
    };
    const path = `/apis/${LAB_GROUP_VERSION}/namespaces/${enc(namespace)}/poddebugs?watch=true&fieldSelector=${enc(`metadata.name=${name}`)}`;
    const open = async () => {
      if (disposed || this.closed) return;
      try {
        const s = await this.conn.stream(
          path,
          (line) => {
            const ev = JSON.parse(line) as { type: string; object: PodDebugInfo & { kind?: string; apiVersion?: string; metadata?: object } };
            if (ev.type === 'DELETED') return deliver(undefined);
            const { kind: _k, apiVersion: _a, metadata: _m, ...info } = ev.object;
            deliver(info as PodDebugInfo);
          },
          () => {
            // The server went away or ended the watch: reconnect (the state comes first again).
            this.streams.delete(s);
            if (!disposed && !this.closed) retry = setTimeout(() => void open(), 1000);
          },
        );
        if (disposed) return s.dispose();
        stream = s;
        this.streams.add(s);
        // The server sends nothing for a pod that does not exist (yet).
        if (last === undefined && !this.getPod(namespace, name)) deliver(undefined);
      } catch {
        if (!disposed && !this.closed) retry = setTimeout(() => void open(), 1000);
      }
    };
    void open();
    return {
      dispose: () => {
        disposed = true;
        clearTimeout(retry);
        if (stream) {
          this.streams.delete(stream);
          stream.dispose();
        }
      },
    };
  }

  async attemptLogs(containerId: string, tail?: number, timestamps = false): Promise<string[]> {
    const q = new URLSearchParams();
    if (tail !== undefined) q.set('tailLines', String(tail));
    if (timestamps) q.set('timestamps', 'true');
    const r = await this.conn.request('GET', `/apis/${LAB_GROUP_VERSION}/attemptlogs/${enc(containerId)}${q.size ? `?${q}` : ''}`);
    return r.body ? r.body.replace(/\n$/, '').split('\n') : [];
  }

  exec(namespace: string, name: string, container: string, cmd: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    return execCollect(this.conn, namespace, name, container, cmd);
  }

  continueStep(namespace: string, name: string): void {
    void this.conn.request('POST', `/apis/${LAB_GROUP_VERSION}/namespaces/${enc(namespace)}/poddebugs/${enc(name)}/continue`, {}).catch(() => undefined);
  }

  restartNow(namespace: string, name: string, container: string): void {
    void this.conn.request('POST', `/apis/${LAB_GROUP_VERSION}/namespaces/${enc(namespace)}/poddebugs/${enc(name)}/restart?container=${enc(container)}`, {}).catch(() => undefined);
  }

  onPullProgress(listener: (p: PullProgress & { pod: string }) => void): Disposable {
    this.pullListeners.add(listener);
    return { dispose: () => this.pullListeners.delete(listener) };
  }

  onStepWaiting(listener: (podKey: string, container: string) => void): Disposable {
    this.stepListeners.add(listener);
    return { dispose: () => this.stepListeners.delete(listener) };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connection.clear();
    for (const s of [...this.streams]) s.dispose();
    this.streams.clear();
    this.conn.close();
  }
}
