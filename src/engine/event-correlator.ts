// The kubelet's event correlator: client-go's tools/record/events_cache.go (EventCorrelator), which
// every event of the kubelet's legacy (core/v1) recorder passes before it reaches the API server:
//  1. aggregation: the 10th distinct message within 10 minutes for one source, object, type and
//     reason (not the field path) is recorded as `(combined from similar events): <message>`, one
//     event whose count grows from then on;
//  2. counting: an event seen before (same source, object, field path, type, reason, message) is a
//     patch of the one recorded (count + 1, lastTimestamp, message), not a new object;
//  3. the spam filter: per source, object and type a token bucket of 25 that refills one token every
//     5 minutes; an event without a token is dropped, write and all, though step 2 counted it, so the
//     next write carries the whole count.
// The state is the three caches (LRU, 4,096 entries each, as upstream); time comes in as `now`.
// Upstream drops one arbitrary message from the aggregation set once it is full (a Go map's
// iteration order); here the oldest, so the lab is deterministic.
import type { ObjectReference } from 'kubernetes-types/core/v1';

export const AGGREGATE_MAX_EVENTS = 10;
export const AGGREGATE_INTERVAL_MS = 600_000;
export const SPAM_BURST = 25;
export const SPAM_QPS = 1 / 300;
const CACHE_ENTRIES = 4096;
export const COMBINED_PREFIX = '(combined from similar events): ';

export interface EventInput {
  source: { component: string; host?: string };
  involvedObject: ObjectReference;
  type: string;
  reason: string;
  message: string;
}

/**
 * What to write: nothing (the spam filter dropped it), or the event named `name` with this count,
 * message and first time. `seen`: it was observed before, so it is a patch of that event (created
 * again under that name if it is gone, or if its first occurrences were all dropped).
 */
export type Correlation =
  | { skip: true }
  | {
      skip: false;
      seen: boolean;
      name: string;
      involvedObject: ObjectReference;
      message: string;
      count: number;
      firstTimestamp: number;
      /** A combined event: upstream's copy carries no reportingController/Instance (written ""). */
      combined: boolean;
    };

/** A Map used as an LRU: a read moves the key to the end, an insert past the size drops the oldest. */
class Lru<V> {
  private readonly m = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(k: string): V | undefined {
    const v = this.m.get(k);
    if (v !== undefined) {
      this.m.delete(k);
      this.m.set(k, v);
    }
    return v;
  }
  set(k: string, v: V): void {
    this.m.delete(k);
    this.m.set(k, v);
    if (this.m.size > this.size) this.m.delete(this.m.keys().next().value as string);
  }
}

const obj = (e: EventInput) => {
  const o = e.involvedObject;
  return [e.source.component, e.source.host ?? '', o.kind ?? '', o.namespace ?? '', o.name ?? ''];
};
/** getEventKey: source, object (field path included), type, reason, message. */
const eventKey = (e: EventInput) => [...obj(e), e.involvedObject.fieldPath ?? '', e.involvedObject.uid ?? '', e.involvedObject.apiVersion ?? '', e.type, e.reason, e.message].join('\x00');
/** EventAggregatorByReasonFunc: source, object (no field path), type, reason (and the reporting controller and instance, which follow from the source). */
const aggregateKey = (e: EventInput) => [...obj(e), e.involvedObject.uid ?? '', e.involvedObject.apiVersion ?? '', e.type, e.reason].join('\x00');
/** getSpamKey: source, object (no field path), type. */
const spamKey = (e: EventInput) => [...obj(e), e.involvedObject.uid ?? '', e.involvedObject.apiVersion ?? '', e.type].join('\x00');

export class EventCorrelator {
  private readonly aggregates = new Lru<{ messages: string[]; last: number }>(CACHE_ENTRIES);
  private readonly seen = new Lru<{ count: number; first: number; name: string }>(CACHE_ENTRIES);
  private readonly buckets = new Lru<{ tokens: number; at: number }>(CACHE_ENTRIES);

  /** EventCorrelate. `newName`: the name the recorder gave the event, kept for it (or its aggregate) if it is new. */
  correlate(e: EventInput, now: number, newName: string): Correlation {
    // 1. aggregation
    let message = e.message;
    let key = eventKey(e);
    const ak = aggregateKey(e);
    let rec = this.aggregates.get(ak);
    if (!rec || now - rec.last > AGGREGATE_INTERVAL_MS) rec = { messages: [], last: now };
    if (!rec.messages.includes(e.message)) rec.messages.push(e.message);
    rec.last = now;
    this.aggregates.set(ak, rec);
    if (rec.messages.length >= AGGREGATE_MAX_EVENTS) {
      rec.messages.shift();
      message = COMBINED_PREFIX + e.message;
      key = ak;
      // (upstream names the copy `<object>.<now in ns, hex>` anew; the recorder's name is that, made unique)
    }
    // 2. counting (before the filter: a dropped event still counts)
    const last = this.seen.get(key);
    const seen = { count: (last?.count ?? 0) + 1, first: last?.first ?? now, name: last?.name ?? newName };
    this.seen.set(key, seen);
    // 3. the spam filter: per source, object and type (x/time/rate's bucket, full at first)
    const sk = spamKey(e);
    const b = this.buckets.get(sk) ?? { tokens: SPAM_BURST, at: now };
    b.tokens = Math.min(SPAM_BURST, b.tokens + (Math.max(0, now - b.at) / 1000) * SPAM_QPS);
    b.at = now;
    const allowed = b.tokens >= 1 - 1e-9;
    if (allowed) b.tokens -= 1;
    this.buckets.set(sk, b);
    if (!allowed) return { skip: true };
    return { skip: false, seen: last !== undefined, name: seen.name, involvedObject: e.involvedObject, message, count: seen.count, firstTimestamp: seen.first, combined: key === ak };
  }
}
