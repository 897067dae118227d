// Pod-level spec fields: restartPolicy, dnsPolicy, grace periods, activeDeadlineSeconds
// (pod-validation-rules.md §7–§9).
import type { Pod } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';

export function validatePodSpecFields(pod: Pod): FieldErr[] {
  const out: FieldErr[] = [];
  const spec = pod.spec;
  if (!spec) return out;
  if (spec.restartPolicy && !['Always', 'OnFailure', 'Never'].includes(spec.restartPolicy)) {
    out.push(F.notSupported('spec.restartPolicy', spec.restartPolicy, ['Always', 'Never', 'OnFailure']));
  }
  if (spec.dnsPolicy && !['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'].includes(spec.dnsPolicy)) {
    out.push(F.notSupported('spec.dnsPolicy', spec.dnsPolicy, ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None']));
  }
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0) {
    out.push(F.invalid('spec.terminationGracePeriodSeconds', spec.terminationGracePeriodSeconds, 'must be greater than or equal to 0'));
  }
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds <= 0) {
    out.push(F.invalid('spec.activeDeadlineSeconds', spec.activeDeadlineSeconds, 'must be between 1 and 2147483647, inclusive'));
  }
  return out;
}
