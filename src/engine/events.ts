// Event recording (client-go tools/record's recorder). The kubelet's events pass its correlator
// (event-correlator.ts: aggregation, counting, the spam filter) as upstream's legacy recorder does;
// the scheduler's (upstream: the events.k8s.io recorder, whose series are another mechanism) are
// counted here: an identical event (same object, field path, type, reason, message, source) bumps
// `count` and `lastTimestamp`.
import type { Event as KEvent, ObjectReference, Pod } from 'kubernetes-types/core/v1';
import { AlreadyExistsError, type Store } from './store.js';
import { rfc3339, type Clock } from './clock.js';
import { EventCorrelator } from './event-correlator.js';

export type EventType = 'Normal' | 'Warning';

export interface EventSource {
  component: 'kubelet' | 'default-scheduler' | 'podlab';
  host?: string;
}

/** Where an init/regular container lives in the spec: `spec.initContainers{init1}`, `spec.containers{app}`. */
export function containerFieldPath(pod: Pod, containerName: string): string {
  const isInit = (pod.spec?.initContainers ?? []).some((c) => c.name === containerName);
  return `spec.${isInit ? 'initContainers' : 'containers'}{${containerName}}`;
}

export function podRef(pod: Pod, fieldPath?: string): ObjectReference {
  const ref: ObjectReference = {
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid,
  };
  if (fieldPath) ref.fieldPath = fieldPath;
  return ref;
}

/** The kubelet's reference to its node: the node's name stands for its UID too (describe node searches by it). */
export function nodeRef(nodeName: string): ObjectReference {
  return { kind: 'Node', name: nodeName, uid: nodeName };
}

/** `format.Pod`: name_namespace(uid), as the kubelet writes pods into messages. */
export function formatPod(pod: Pod): string {
  return `${pod.metadata?.name}_${pod.metadata?.namespace ?? 'default'}(${pod.metadata?.uid})`;
}

export class EventRecorder {
  private seq = 0;
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly sink?: (e: KEvent) => void,
  ) {}

  private readonly kubeletCorrelator = new EventCorrelator();

  /** Records an event; undefined when the kubelet's spam filter dropped it. */
  record(ref: ObjectReference, type: EventType, reason: string, message: string, source: EventSource, action?: string): KEvent | undefined {
    const now = this.clock.now();
    if (source.component === 'kubelet') return this.recordCorrelated(ref, type, reason, message, source, now);
    // The events of the same object only (the store's index), as the kubelet's correlator keys them.
    const existing = this.store
      .byIndex('Event', 'involvedUid', ref.uid ?? '')
      .find(
        (e) =>
          e.involvedObject.uid === ref.uid &&
          e.involvedObject.fieldPath === ref.fieldPath &&
          e.type === type &&
          e.reason === reason &&
          e.message === message &&
          e.source?.component === source.component,
      );
    let ev: KEvent;
    if (existing) {
      ev = this.store.update('Event', existing.metadata.namespace, existing.metadata.name ?? '', (e) => {
        e.count = (e.count ?? 1) + 1;
        e.lastTimestamp = rfc3339(now);
      });
    } else {
      ev = this.create(this.newName(ref, now), ref, type, reason, message, source, 1, now, now, action);
    }
    this.sink?.(ev);
    return ev;
  }

  /** makeEvent's name: the object's name and the time in nanoseconds, in hex (unique within a millisecond here). */
  private newName(ref: ObjectReference, now: number): string {
    return `${ref.name}.${(BigInt(now) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16)}`;
  }

  private create(
    name: string,
    ref: ObjectReference,
    type: EventType,
    reason: string,
    message: string,
    source: EventSource,
    count: number,
    first: number,
    now: number,
    action?: string,
    reporting: { component: string; instance: string } = { component: source.component, instance: source.host ?? '' },
  ): KEvent {
    return this.store.create('Event', {
      apiVersion: 'v1',
      kind: 'Event',
      // an object outside namespaces (a node) has its events in default
      metadata: { name, namespace: ref.namespace || 'default' },
      involvedObject: ref,
      type,
      reason,
      message,
      source,
      count,
      firstTimestamp: rfc3339(first),
      lastTimestamp: rfc3339(now),
      reportingComponent: reporting.component,
      reportingInstance: reporting.instance,
      ...(action ? { action } : {}),
    });
  }

  /**
   * The kubelet's path (recordToSink): the correlator decides; a repeat patches its event (count,
   * lastTimestamp, message), and is created again under its name when that event is gone.
   */
  private recordCorrelated(ref: ObjectReference, type: EventType, reason: string, message: string, source: EventSource, now: number): KEvent | undefined {
    const c = this.kubeletCorrelator.correlate({ source, involvedObject: ref, type, reason, message }, now, this.newName(ref, now));
    if (c.skip) return undefined;
    const ns = c.involvedObject.namespace || 'default';
    const existing = c.seen ? this.store.get('Event', ns, c.name) : undefined;
    let ev: KEvent;
    try {
      ev = existing
        ? this.store.update('Event', ns, c.name, (e) => {
            e.count = c.count;
            e.lastTimestamp = rfc3339(now);
            e.message = c.message;
          })
        : this.create(c.name, c.involvedObject, type, reason, c.message, source, c.count, c.firstTimestamp, now, undefined, c.combined ? { component: '', instance: '' } : undefined);
    } catch (e) {
      // recordEvent: an event the server refuses is dropped ("will not retry"), never the caller's error
      if (e instanceof AlreadyExistsError) return undefined;
      throw e;
    }
    this.sink?.(ev);
    return ev;
  }
}
