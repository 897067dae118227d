// List/watch semantics of the lab server, without HTTP: the counterpart of
// k8s.io/apiserver/pkg/storage/cacher (watch_cache.go: a bounded cyclic history of events per
// resource, each with the object's previous state, and getAllEventsSinceLocked's 410 Expired;
// cache_watcher.go: convertToWatchEvent for a filtered watcher, nextBookmarkTime, the
// `k8s.io/initial-events-end` bookmark; cacher.go Watch: where each resourceVersion starts) and of
// the resourceVersion rules of https://kubernetes.io/docs/reference/using-api/api-concepts/
// (#semantics-for-watch). Fed synchronously from the Store's watch; the server only streams what
// this module decides. Pure but for the cache's own state.
import type { WatchEvent } from '../engine/api.js';
import type { Kind } from '../engine/store.js';
import { goQuote } from '../shared/go.js';
import { matchesFields, matchesLabels, type FieldSelector, type LabelSelector } from './selectors.js';
import * as S from './status.js';

/** Events kept per kind (upstream sizes the cyclic buffer between 100 and 100,000 by load). */
export const DEFAULT_CAPACITY = 1000;

/** How often a watcher that allows bookmarks gets one (cacher.go defaultBookmarkFrequency). */
export const BOOKMARK_FREQUENCY_MS = 60_000;

/** The annotation of the bookmark that ends a watch's initial events (metav1.InitialEventsAnnotationKey). */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/** One store change as the cache keeps it: watchCacheEvent with its PrevObject. */
export interface CachedEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  kind: Kind;
  /** The object as the store emitted it (for DELETED: the last state at the deletion's resourceVersion). */
  object: object;
  /** The object's state before this event; absent when the cache did not have it. */
  prevObject?: object;
  /** The event's resourceVersion (the object's metadata.resourceVersion). */
  resourceVersion: number;
}

/** What a watch or list selects: the request's namespace (undefined: all) and its selectors. */
export interface WatchFilter {
  namespace?: string;
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
}

/** An event as a watcher receives it. */
export interface OutEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  object: object;
}

/**
 * Why a watch cannot start. `inStream: true`: the API server answers 200 and sends the Status as an
 * ERROR watch event, then ends the stream (cacher.go newErrWatcher: "once we have ... successfully
 * parsed a resource version, other errors must fail with a watch event of type ERROR").
 * `inStream: false`: the request fails with the Status as its HTTP response.
 */
export type WatchFailure =
  /** 410 Expired `too old resource version: <rv> (<oldest-1>)`, an ERROR event. */
  | { error: 'Expired'; inStream: true; status: S.StatusResponse }
  /** 504 Timeout `Timeout: Too large resource version: <rv>, current: <cur>`, an ERROR event (sendInitialEvents only). */
  | { error: 'TooLargeResourceVersion'; inStream: true; status: S.StatusResponse }
  /** 500 with no reason `resourceVersion: Invalid value: "x": strconv.ParseUint: …`, the HTTP response. */
  | { error: 'InvalidResourceVersion'; inStream: false; status: S.StatusResponse };

/** How a watch starts: send `events`, then stream live events whose resourceVersion is greater than `after`. */
export interface WatchStart {
  events: OutEvent[];
  after: number;
}

export interface WatchOptions {
  /** The sendInitialEvents parameter (the WatchList feature); undefined when not given. */
  sendInitialEvents?: boolean;
  /** allowWatchBookmarks: with sendInitialEvents=true the initial events end with a bookmark. */
  allowWatchBookmarks?: boolean;
}

type Meta = { metadata?: { namespace?: string; name?: string; resourceVersion?: string; labels?: Record<string, string> } };
const metaOf = (o: object) => (o as Meta).metadata ?? {};
const rvOf = (o: object) => {
  const n = Number(metaOf(o).resourceVersion ?? 0);
  return Number.isFinite(n) ? n : 0;
};
/** The storage key an object sorts by (etcd's /registry/<resource>/<namespace>/<name> order). */
const keyOf = (o: object) => {
  const md = metaOf(o);
  return md.namespace ? `${md.namespace}/${md.name ?? ''}` : (md.name ?? '');
};
const byKey = (a: object, b: object) => {
  const ka = keyOf(a);
  const kb = keyOf(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/** A copy of the object carrying another resourceVersion (versioner.UpdateObject). */
const withResourceVersion = (o: object, rv: string): object => ({ ...o, metadata: { ...metaOf(o), resourceVersion: rv } });

/** The filter a watcher applies (filterWithAttrsFunction: the key prefix, then the selectors). */
export function matchesFilter(kind: Kind, filter: WatchFilter, object: object): boolean {
  const md = metaOf(object);
  if (filter.namespace !== undefined && (md.namespace ?? '') !== filter.namespace) return false;
  if (filter.labelSelector && !matchesLabels(filter.labelSelector, md.labels)) return false;
  if (filter.fieldSelector && !matchesFields(kind, filter.fieldSelector, object)) return false;
  return true;
}

/**
 * cacheWatcher.convertToWatchEvent: what a filtered watcher sees of one change. ADDED when the object
 * now matches and its previous state did not (or there was none), MODIFIED when both match, DELETED
 * when only the previous state matched (the object left the selection, or was deleted) — carrying
 * the PREVIOUS state with the event's resourceVersion, as upstream does — and nothing otherwise.
 */
export function filterEvent(e: { type: string; kind: Kind; object: object }, prevObject: object | undefined, filter: WatchFilter): OutEvent | undefined {
  const curPasses = e.type !== 'DELETED' && matchesFilter(e.kind, filter, e.object);
  const oldPasses = prevObject !== undefined && matchesFilter(e.kind, filter, prevObject);
  if (curPasses && !oldPasses) return { type: 'ADDED', object: e.object };
  if (curPasses && oldPasses) return { type: 'MODIFIED', object: e.object };
  if (oldPasses) return { type: 'DELETED', object: withResourceVersion(prevObject!, metaOf(e.object).resourceVersion ?? '') };
  return undefined;
}

const status = (code: number, reason: string, message: string, details?: S.StatusDetails): S.StatusResponse => {
  const body: S.StatusObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message };
  if (reason) body.reason = reason;
  if (details) body.details = details;
  body.code = code;
  return { code, body };
};

/** storage.APIObjectVersioner.ParseResourceVersion: "" and "0" are 0; otherwise strconv.ParseUint. */
export function parseResourceVersion(rv: string): number | WatchFailure {
  if (rv === '' || rv === '0') return 0;
  let err: string | undefined;
  if (!/^[0-9]+$/.test(rv)) err = 'invalid syntax';
  else if (BigInt(rv) > 2n ** 64n - 1n) err = 'value out of range';
  if (err === undefined) return Number(BigInt(rv));
  // ErrorToAPIStatus of a non-API error: 500, no reason (kubernetes/kubernetes#113939).
  return { error: 'InvalidResourceVersion', inStream: false, status: status(500, '', `resourceVersion: Invalid value: ${goQuote(rv)}: strconv.ParseUint: parsing ${goQuote(rv)}: ${err}`) };
}

/** A fixed-size cyclic buffer: O(1) append, oldest dropped first, memory O(capacity). */
class Ring {
  private readonly buf: (CachedEvent | undefined)[];
  private start = 0;
  size = 0;
  constructor(private readonly capacity: number) {
    this.buf = new Array<CachedEvent | undefined>(capacity);
  }
  /** Appends; returns whether the oldest event was dropped to make room. */
  push(e: CachedEvent): boolean {
    let dropped = false;
    if (this.size === this.capacity) {
      this.buf[this.start] = undefined;
      this.start = (this.start + 1) % this.capacity;
      this.size--;
      dropped = true;
    }
    this.buf[(this.start + this.size) % this.capacity] = e;
    this.size++;
    return dropped;
  }
  at(i: number): CachedEvent {
    return this.buf[(this.start + i) % this.capacity]!;
  }
  clear(): void {
    this.buf.fill(undefined);
    this.start = 0;
    this.size = 0;
  }
}

interface KindState {
  ring: Ring;
  /** The current object per key (the watch cache's store): each event's previous object. */
  current: Map<string, object>;
  /** The resourceVersion the history starts after (the last seed; upstream listResourceVersion). */
  listRV: number;
  /** Whether an event was dropped since the seed (upstream removedEventSinceRelist). */
  removed: boolean;
}

/**
 * The watch cache: per kind, the last `capacity` events with their previous objects, and the
 * current objects (to know each event's previous state; like upstream's store, that map holds
 * every live object — the history itself is bounded). Feed it every store event with `record`.
 */
export class WatchCache {
  private readonly kinds = new Map<Kind, KindState>();
  private readonly listeners = new Set<(e: CachedEvent) => void>();
  private lastRV = 0;

  constructor(readonly capacity: number = DEFAULT_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`watch cache capacity must be a positive integer, got ${capacity}`);
  }

  private state(kind: Kind): KindState {
    let s = this.kinds.get(kind);
    if (!s) this.kinds.set(kind, (s = { ring: new Ring(this.capacity), current: new Map(), listRV: 0, removed: false }));
    return s;
  }

  /**
   * Starts a kind's history at `resourceVersion` with the objects present then (watchCache.Replace):
   * no events; a watch from `resourceVersion` or later can be served.
   */
  seed(kind: Kind, objects: readonly object[], resourceVersion: number | string): void {
    const s = this.state(kind);
    s.current = new Map(objects.map((o) => [keyOf(o), o]));
    s.ring.clear();
    s.listRV = Number(resourceVersion) || 0;
    s.removed = false;
    this.lastRV = Math.max(this.lastRV, s.listRV, ...objects.map(rvOf));
  }

  /** Records one store event (watchCache.processEvent) and hands it, with its previous object, to subscribers. */
  record(e: WatchEvent): CachedEvent {
    const s = this.state(e.kind);
    const key = keyOf(e.object);
    const prevObject = s.current.get(key);
    if (e.type === 'DELETED') s.current.delete(key);
    else s.current.set(key, e.object);
    const ce: CachedEvent = { type: e.type, kind: e.kind, object: e.object, ...(prevObject ? { prevObject } : {}), resourceVersion: rvOf(e.object) };
    if (s.ring.push(ce)) s.removed = true;
    this.lastRV = Math.max(this.lastRV, ce.resourceVersion);
    for (const l of [...this.listeners]) {
      try {
        l(ce);
      } catch {
        // One watcher's failure must not break the cache or the others.
      }
    }
    return ce;
  }

  /** Live events, after they are recorded (so a watcher always gets the previous object). */
  subscribe(listener: (e: CachedEvent) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** The highest resourceVersion the cache has seen (a seed's or an event's). */
  resourceVersion(): number {
    return this.lastRV;
  }

  /** The number of events kept for the kind (at most `capacity`). */
  size(kind: Kind): number {
    return this.kinds.get(kind)?.ring.size ?? 0;
  }

  /**
   * getAllEventsSinceLocked: the kind's events with a resourceVersion greater than `resourceVersion`
   * ("" and "0" read as 0), or 410 Expired `too old resource version: <rv> (<oldest-1>)` when
   * `rv < oldest - 1`, where oldest is the seed's resourceVersion + 1 while no event was dropped,
   * else the oldest kept event's resourceVersion.
   */
  since(kind: Kind, resourceVersion: string): { events: CachedEvent[] } | WatchFailure {
    const rv = parseResourceVersion(resourceVersion);
    if (typeof rv !== 'number') return rv;
    const s = this.state(kind);
    const oldest = s.removed ? s.ring.at(0).resourceVersion : s.listRV + 1;
    if (rv < oldest - 1) return { error: 'Expired', inStream: true, status: S.tooOldResourceVersion(rv, oldest - 1) };
    // Binary search the first event newer than rv.
    let lo = 0;
    let hi = s.ring.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s.ring.at(mid).resourceVersion > rv) hi = mid;
      else lo = mid + 1;
    }
    const events: CachedEvent[] = [];
    for (let i = lo; i < s.ring.size; i++) events.push(s.ring.at(i));
    return { events };
  }

  /**
   * The events a watch request starts with (cacher.go Watch), given the kind's current objects:
   * - resourceVersion unset/"" (the most recent state) or "0" (any state): a synthetic ADDED for
   *   every current object that matches, in storage key order, then live events;
   * - a specific resourceVersion: the kept events after it, each filtered as a live one would be
   *   (410 Expired when it is older than the history); live events start after the larger of it and
   *   the last event sent, so a resourceVersion from the future skips the events up to it;
   * - sendInitialEvents=true (the WatchList feature, resourceVersionMatch=NotOlderThan): the current
   *   objects as ADDED whatever the resourceVersion, then, with allowWatchBookmarks, a BOOKMARK
   *   annotated `k8s.io/initial-events-end: "true"` at the current resourceVersion; a
   *   resourceVersion newer than the cache is 504 `Too large resource version` (upstream first
   *   waits up to 3 s for it);
   * - sendInitialEvents=false with ""/"0": no initial events, live ones from now.
   * The ListOptions checks (resourceVersionMatch required with sendInitialEvents, …) are the
   * handler's, not made here.
   */
  initialEvents(kind: Kind, resourceVersion: string, currentObjects: readonly object[], filter: WatchFilter, opts: WatchOptions = {}): WatchStart | WatchFailure {
    const rv = parseResourceVersion(resourceVersion);
    if (typeof rv !== 'number') return rv;
    const current = this.lastRV;
    const snapshot = (): OutEvent[] =>
      currentObjects
        .filter((o) => matchesFilter(kind, filter, o))
        .sort(byKey)
        .map((object) => ({ type: 'ADDED', object }));
    if (opts.sendInitialEvents === true) {
      if (rv > current) {
        return {
          error: 'TooLargeResourceVersion',
          inStream: true,
          status: status(504, 'Timeout', `Timeout: Too large resource version: ${rv}, current: ${current}`, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 }),
        };
      }
      const events = snapshot();
      if (opts.allowWatchBookmarks) events.push({ type: 'BOOKMARK', object: bookmark(kind, String(current), { initialEventsEnd: true }) });
      return { events, after: current };
    }
    if (rv === 0) return { events: opts.sendInitialEvents === false ? [] : snapshot(), after: current };
    const since = this.since(kind, resourceVersion);
    if ('error' in since) return since;
    const events: OutEvent[] = [];
    let after = rv;
    for (const e of since.events) {
      const out = filterEvent(e, e.prevObject, filter);
      if (!out) continue;
      events.push(out);
      after = Math.max(after, e.resourceVersion);
    }
    return { events, after };
  }
}

/**
 * A BOOKMARK event's object: an empty object of the kind (the cacher's newFunc()) with only
 * metadata.resourceVersion set, serialized as the API server serializes a zero value (null
 * creationTimestamp, the non-omitempty fields of the kind); `initialEventsEnd` adds the
 * `k8s.io/initial-events-end: "true"` annotation of the bookmark that ends the initial events.
 */
export function bookmark(kind: Kind, resourceVersion: string, opts: { initialEventsEnd?: boolean } = {}): object {
  const metadata: Record<string, unknown> = { resourceVersion, creationTimestamp: null };
  if (opts.initialEventsEnd) metadata.annotations = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
  const head = { kind, apiVersion: 'v1', metadata };
  switch (kind) {
    case 'Pod':
      return { ...head, spec: { containers: null }, status: {} };
    case 'Namespace':
      return { ...head, spec: {}, status: {} };
    case 'Node':
      return {
        ...head,
        spec: {},
        status: {
          daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
          nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '' },
        },
      };
    case 'Event':
      return { ...head, involvedObject: {}, source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '' };
    case 'ConfigMap':
    case 'Secret':
      return head;
  }
}

/**
 * cacheWatcher.nextBookmarkTime: when a watcher that allows bookmarks gets its next one — a minute
 * from now, or 2 s before the watch's deadline if that is sooner; undefined when that moment has
 * passed (no more bookmarks). Times in ms.
 */
export function nextBookmarkTime(now: number, deadline: number | undefined, frequencyMs: number = BOOKMARK_FREQUENCY_MS): number | undefined {
  let heartbeat = now + frequencyMs;
  if (deadline === undefined) return heartbeat;
  const preTimeout = deadline - 2000;
  if (preTimeout < heartbeat) heartbeat = preTimeout;
  return heartbeat < now ? undefined : heartbeat;
}
