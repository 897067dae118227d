// kubectl apply's record of what it applied (the last-applied-configuration annotation), which its
// next apply diffs against: written by the lab where kubectl apply would write it (ConfigMaps and
// Secrets applied, pods created by `podlab run` or Run Pod). A leaf module, pure.
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { goJsonMarshal } from './go.js';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The annotation kubectl apply writes (GetModifiedConfiguration): the object as the file wrote it,
 * with the namespace it goes to, its own last-applied annotation removed (an empty annotations map
 * left in its place), as Go encodes it, with a newline.
 */
export function lastAppliedConfiguration(input: { metadata?: ObjectMeta }, namespace: string): string {
  const o = structuredClone(input) as { metadata: ObjectMeta };
  o.metadata = { ...(o.metadata ?? {}), namespace: o.metadata?.namespace || namespace };
  const annotations = { ...(o.metadata.annotations ?? {}) };
  delete annotations[LAST_APPLIED];
  o.metadata.annotations = annotations;
  return `${goJsonMarshal(o)}\n`;
}

/**
 * A pod as `kubectl apply` creates it: with the record of the file's object (`written`, as the file
 * wrote it), so a later `kubectl apply` of the same file finds nothing to change. A pod named by
 * generateName gets none (kubectl apply refuses those), nor one whose written form is unknown.
 */
export function withApplyRecord<P extends { metadata?: ObjectMeta }>(pod: P, written: object | undefined): P {
  const md = pod.metadata ?? {};
  if (!written || !md.name) return pod;
  const record = lastAppliedConfiguration(written as { metadata?: ObjectMeta }, md.namespace ?? 'default');
  return { ...pod, metadata: { ...md, annotations: { ...md.annotations, [LAST_APPLIED]: record } } };
}
