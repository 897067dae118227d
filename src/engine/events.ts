// Event recording with the apiserver-side aggregation kubectl users see: an identical event
// (same object, field path, type, reason, message, source) bumps `count` and `lastTimestamp`.
import type { Event as KEvent, ObjectReference, Pod } from 'kubernetes-types/core/v1';
import type { Store } from './store.js';
import { rfc3339, type Clock } from './clock.js';

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

  record(ref: ObjectReference, type: EventType, reason: string, message: string, source: EventSource, action?: string): KEvent {
    const now = this.clock.now();
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
      const nanos = BigInt(now) * 1_000_000n + BigInt(this.seq++ % 1_000_000);
      ev = this.store.create('Event', {
        apiVersion: 'v1',
        kind: 'Event',
        // an object outside namespaces (a node) has its events in default
        metadata: { name: `${ref.name}.${nanos.toString(16)}`, namespace: ref.namespace || 'default' },
        involvedObject: ref,
        type,
        reason,
        message,
        source,
        count: 1,
        firstTimestamp: rfc3339(now),
        lastTimestamp: rfc3339(now),
        reportingComponent: source.component,
        reportingInstance: source.host ?? '',
        ...(action ? { action } : {}),
      });
    }
    this.sink?.(ev);
    return ev;
  }
}
