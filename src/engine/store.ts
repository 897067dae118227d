// An in-memory API store for v1 objects with resourceVersion and watch, like a tiny apiserver.
// Writers hand in whole objects; watchers get ADDED / MODIFIED / DELETED synchronously, in order.
// ConfigMaps and Secrets live on disk (src/engine/config-persistence.ts) and are mirrored here with
// `put`, which keeps the uid / resourceVersion / creationTimestamp the file carries.
import { randomUUID } from 'node:crypto';
import type { ConfigMap, Event as KEvent, Namespace, Node, Pod, Secret } from 'kubernetes-types/core/v1';
import type { WatchEvent } from './api.js';
import type { Disposable } from '../runtime/cri.js';
import { rfc3339, type Clock } from './clock.js';
import type { DeepMutable } from './mutable.js';
import { klona } from 'klona/json';

export type Kind = 'Pod' | 'Event' | 'Node' | 'ConfigMap' | 'Secret' | 'Namespace';
export type ObjOf<K extends Kind> = K extends 'Pod' ? Pod : K extends 'Event' ? KEvent : K extends 'Node' ? Node : K extends 'ConfigMap' ? ConfigMap : K extends 'Namespace' ? Namespace : Secret;
type AnyObj = Pod | KEvent | Node | ConfigMap | Secret | Namespace;

export class AlreadyExistsError extends Error {
  constructor(kind: Kind, name: string) {
    super(`${kind.toLowerCase()}s "${name}" already exists`);
    this.name = 'AlreadyExists';
  }
}

export class NotFoundError extends Error {
  constructor(kind: Kind, name: string) {
    super(`${kind.toLowerCase()}s "${name}" not found`);
    this.name = 'NotFound';
  }
}

const keyOf = (ns: string | undefined, name: string) => `${ns ?? ''}/${name}`;

/**
 * The store's secondary indexes (the counterpart of client-go's cache.Indexers, as the API
 * server's watch cache keeps them for `spec.nodeName`): a list by namespace, the pods of a node and
 * the events of an object cost what they return, not a scan of the kind.
 */
export type IndexName = 'namespace' | 'nodeName' | 'involvedUid';
const INDEXERS: { [K in Kind]: Partial<Record<IndexName, (o: ObjOf<K>) => string | undefined>> } = {
  Pod: { namespace: (o) => o.metadata?.namespace ?? '', nodeName: (o) => o.spec?.nodeName ?? '' },
  Event: { namespace: (o) => o.metadata?.namespace ?? '', involvedUid: (o) => o.involvedObject?.uid ?? '' },
  Node: {},
  ConfigMap: { namespace: (o) => o.metadata?.namespace ?? '' },
  Secret: { namespace: (o) => o.metadata?.namespace ?? '' },
  Namespace: {},
};

/** One index: value → the keys of the objects with that value. */
type Index = Map<string, Set<string>>;

export class Store {
  private rv = 0;
  private readonly objects: Record<Kind, Map<string, AnyObj>> = {
    Pod: new Map(),
    Event: new Map(),
    Node: new Map(),
    ConfigMap: new Map(),
    Secret: new Map(),
    Namespace: new Map(),
  };
  private readonly indexes = new Map<string, Index>();
  private readonly listeners = new Set<(e: WatchEvent) => void>();

  constructor(private readonly clock: Clock) {}

  private index(kind: Kind, name: IndexName): Index | undefined {
    if (!INDEXERS[kind][name]) return undefined;
    const k = `${kind}/${name}`;
    let ix = this.indexes.get(k);
    if (!ix) this.indexes.set(k, (ix = new Map()));
    return ix;
  }

  /** Puts `next` (or nothing) in place of `prev` under `key`, keeping every index of the kind. */
  private setObject(kind: Kind, key: string, prev: AnyObj | undefined, next: AnyObj | undefined): void {
    if (next) this.objects[kind].set(key, next);
    else this.objects[kind].delete(key);
    for (const [name, fn] of Object.entries(INDEXERS[kind]) as [IndexName, (o: AnyObj) => string | undefined][]) {
      const a = prev ? fn(prev) : undefined;
      const b = next ? fn(next) : undefined;
      if (a === b) continue;
      const ix = this.index(kind, name)!;
      if (a !== undefined) {
        const set = ix.get(a);
        set?.delete(key);
        if (set?.size === 0) ix.delete(a);
      }
      if (b !== undefined) {
        let set = ix.get(b);
        if (!set) ix.set(b, (set = new Set()));
        set.add(key);
      }
    }
  }

  /** The objects of the kind whose index `name` has `value` (for example the pods of a node). */
  byIndex<K extends Kind>(kind: K, name: IndexName, value: string): ObjOf<K>[] {
    const ix = this.index(kind, name);
    if (!ix) throw new Error(`the store has no ${name} index of ${kind}s`);
    const out: ObjOf<K>[] = [];
    for (const key of ix.get(value) ?? []) out.push(this.objects[kind].get(key) as ObjOf<K>);
    return out;
  }

  /** How many objects of the kind the store holds. */
  count(kind: Kind): number {
    return this.objects[kind].size;
  }

  private emit(e: WatchEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // A watcher's failure must not break the store or other watchers.
      }
    }
  }

  get<K extends Kind>(kind: K, ns: string | undefined, name: string): ObjOf<K> | undefined {
    return this.objects[kind].get(keyOf(ns, name)) as ObjOf<K> | undefined;
  }

  /** The objects of a kind; with `namespace`, only that namespace's (through the index). */
  list<K extends Kind>(kind: K, namespace?: string): ObjOf<K>[] {
    if (namespace !== undefined && INDEXERS[kind].namespace) return this.byIndex(kind, 'namespace', namespace);
    const all = [...this.objects[kind].values()] as ObjOf<K>[];
    return namespace === undefined ? all : all.filter((o) => (o.metadata?.namespace ?? '') === namespace);
  }

  /**
   * Creates an object. Keeps a uid / creationTimestamp it already has (adoption from the
   * runtime), otherwise assigns them.
   */
  create<K extends Kind>(kind: K, obj: ObjOf<K>): ObjOf<K> {
    const md = obj.metadata ?? {};
    const name = md.name ?? '';
    const key = keyOf(md.namespace, name);
    if (this.objects[kind].has(key)) throw new AlreadyExistsError(kind, name);
    const stored = {
      ...obj,
      metadata: {
        ...md,
        uid: md.uid ?? randomUUID(),
        creationTimestamp: md.creationTimestamp ?? rfc3339(this.clock.now()),
        resourceVersion: String(++this.rv),
      },
    } as ObjOf<K>;
    this.setObject(kind, key, undefined, stored);
    this.emit({ type: 'ADDED', kind, object: stored } as WatchEvent);
    return stored;
  }

  /** Replaces an object (a new resourceVersion); `mutate` gets a deep copy to change. */
  update<K extends Kind>(kind: K, ns: string | undefined, name: string, mutate: (o: DeepMutable<ObjOf<K>>) => void): ObjOf<K> {
    const key = keyOf(ns, name);
    const cur = this.objects[kind].get(key) as ObjOf<K> | undefined;
    if (!cur) throw new NotFoundError(kind, name);
    const next = klona(cur) as DeepMutable<ObjOf<K>>;
    mutate(next);
    next.metadata = { ...next.metadata, resourceVersion: String(++this.rv) };
    this.setObject(kind, key, cur, next as ObjOf<K>);
    this.emit({ type: 'MODIFIED', kind, object: next } as WatchEvent);
    return next as ObjOf<K>;
  }

  delete<K extends Kind>(kind: K, ns: string | undefined, name: string): ObjOf<K> | undefined {
    const key = keyOf(ns, name);
    const cur = this.objects[kind].get(key) as ObjOf<K> | undefined;
    if (!cur) return undefined;
    this.setObject(kind, key, cur, undefined);
    // As the API server does, the DELETED event carries the object at a new resourceVersion.
    const gone = { ...cur, metadata: { ...cur.metadata, resourceVersion: String(++this.rv) } } as ObjOf<K>;
    this.emit({ type: 'DELETED', kind, object: gone } as WatchEvent);
    return gone;
  }

  /** Raises the resourceVersion counter to at least `rv` (a reloaded store's high-water mark). */
  advanceTo(rv: number): void {
    if (Number.isFinite(rv) && rv > this.rv) this.rv = rv;
  }

  /** The highest resourceVersion handed out so far (a list's resourceVersion). */
  currentResourceVersion(): string {
    return String(this.rv);
  }

  /**
   * The next resourceVersion, greater than every one this store has handed out or been given and
   * than `atLeast` (an object's current version written by another process).
   */
  nextResourceVersion(atLeast = 0): string {
    this.rv = Math.max(this.rv, Number.isFinite(atLeast) ? atLeast : 0) + 1;
    return String(this.rv);
  }

  /**
   * Stores an object exactly as given (its uid, resourceVersion and creationTimestamp are
   * authoritative: it comes from the lab's files): ADDED when new, MODIFIED when it replaces one,
   * nothing when the same uid and resourceVersion are already there. An object of the same name
   * with another uid was deleted and re-created meanwhile: DELETED for the old one, then ADDED.
   */
  put<K extends Kind>(kind: K, obj: ObjOf<K>): 'ADDED' | 'MODIFIED' | 'UNCHANGED' {
    const md = obj.metadata ?? {};
    const key = keyOf(md.namespace, md.name ?? '');
    const rv = Number(md.resourceVersion);
    if (Number.isFinite(rv) && rv > this.rv) this.rv = rv;
    const cur = this.objects[kind].get(key);
    if (cur && cur.metadata?.uid === md.uid && cur.metadata?.resourceVersion === md.resourceVersion) return 'UNCHANGED';
    if (cur && cur.metadata?.uid !== md.uid) this.delete(kind, md.namespace, md.name ?? '');
    const prev = this.objects[kind].get(key);
    const type = prev ? 'MODIFIED' : 'ADDED';
    this.setObject(kind, key, prev, obj);
    this.emit({ type, kind, object: obj } as WatchEvent);
    return type;
  }

  watch(listener: (e: WatchEvent) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}
