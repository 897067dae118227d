// The watch cache (the counterpart of k8s.io/apiserver/pkg/storage/cacher: watch_cache.go's
// bounded event history and cache_watcher.go's per-watcher filtering): every store change is kept
// with the object's previous state, so a watch can resume from a resourceVersion (410 Expired when
// it is older than the history), and a filtered watcher sees ADDED when an object enters its
// selection and DELETED when it leaves it.
import type { WatchEvent } from '../engine/api.js';
import type { Kind } from '../engine/store.js';
import * as S from './status.js';

interface Entry {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: object;
  prev?: object;
}

const rvOf = (o: object) => Number((o as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion ?? 0);
const keyOf = (o: object) => {
  const md = (o as { metadata?: { namespace?: string; name?: string } }).metadata;
  return `${md?.namespace ?? ''}/${md?.name ?? ''}`;
};

/** The default history per kind (upstream sizes its cache from 100 up to 100,000 by load). */
export const DEFAULT_CAPACITY = 1000;

export class WatchCache {
  private readonly history = new Map<Kind, Entry[]>();
  /** The current object of each key, to give each event its previous state. */
  private readonly current = new Map<Kind, Map<string, object>>();
  /** The last event recorded (its previous object is what `previousOf` returns). */
  private last?: { e: WatchEvent; prev?: object };
  /** Per kind: the resourceVersion before the oldest event kept (a watch from it still works). */
  private readonly floor = new Map<Kind, number>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** Seeds the cache with the objects present at start (no events: the history begins here). */
  seed(kind: Kind, objects: readonly object[], rv: number): void {
    const m = new Map<string, object>();
    for (const o of objects) m.set(keyOf(o), o);
    this.current.set(kind, m);
    this.floor.set(kind, rv);
  }

  record(e: WatchEvent): void {
    let cur = this.current.get(e.kind);
    if (!cur) this.current.set(e.kind, (cur = new Map()));
    const key = keyOf(e.object);
    const prev = cur.get(key);
    if (e.type === 'DELETED') cur.delete(key);
    else cur.set(key, e.object);
    this.last = { e, prev };
    let h = this.history.get(e.kind);
    if (!h) this.history.set(e.kind, (h = []));
    h.push({ rv: rvOf(e.object), type: e.type, object: e.object, prev });
    if (h.length > this.capacity) {
      const dropped = h.splice(0, h.length - this.capacity);
      this.floor.set(e.kind, dropped[dropped.length - 1]!.rv);
    }
  }

  /** The previous state of the object of the event just recorded. */
  previousOf(e: WatchEvent): object | undefined {
    return this.last?.e === e ? this.last.prev : undefined;
  }

  /** The events after `rv`, or undefined when `rv` is older than the history kept. */
  since(kind: Kind, rv: number): Entry[] | undefined {
    const h = this.history.get(kind) ?? [];
    const floor = this.floor.get(kind) ?? 0;
    if (rv < floor) return undefined;
    return h.filter((x) => x.rv > rv);
  }

  oldest(kind: Kind): number {
    return (this.floor.get(kind) ?? 0) + 1;
  }
}

/**
 * cache_watcher's conversion of one event for a filtered watcher: ADDED/MODIFIED/DELETED as the
 * object enters, stays in or leaves the selection; nothing when it was never in it.
 */
export function filterEvent(e: { type: string; object: object }, prev: object | undefined, matches: (o: object) => boolean): { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: object } | undefined {
  const now = e.type !== 'DELETED' && matches(e.object);
  const before = prev !== undefined && matches(prev);
  if (e.type === 'DELETED') return matches(e.object) || before ? { type: 'DELETED', object: e.object } : undefined;
  if (now && before) return { type: 'MODIFIED', object: e.object };
  if (now) return { type: 'ADDED', object: e.object };
  if (before) return { type: 'DELETED', object: e.object };
  return undefined;
}

/**
 * The events a watch starts with. resourceVersion unset, "" or "0": an ADDED event for every
 * current object that matches, then live events. A specific resourceVersion: the history after it,
 * or an ERROR event with 410 Expired when it is older than the history.
 */
export function initialEvents(
  kind: Kind,
  rv: string,
  currentObjects: readonly object[],
  cache: WatchCache,
  matches: (o: object) => boolean,
): { type: string; object: object }[] | { expired: true; status: object } {
  if (rv === '' || rv === '0') return currentObjects.filter(matches).map((object) => ({ type: 'ADDED', object }));
  const n = Number(rv);
  if (!Number.isFinite(n)) return { expired: true, status: S.badRequest(`invalid resource version: ${rv}`).body };
  const events = cache.since(kind, n);
  if (!events) return { expired: true, status: S.tooOldResourceVersion(n, cache.oldest(kind)).body };
  const out: { type: string; object: object }[] = [];
  for (const ev of events) {
    const f = filterEvent(ev, ev.prev, matches);
    if (f) out.push(f);
  }
  return out;
}

/** A BOOKMARK event's object: an object of the kind with only its resourceVersion. */
export function bookmark(kind: Kind, rv: string): object {
  return { kind, apiVersion: 'v1', metadata: { resourceVersion: rv } };
}
