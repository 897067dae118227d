// activeDeadlineSeconds (upstream pkg/kubelet/active_deadline.go): a pod active on the node longer
// than its deadline is failed by the kubelet. Pure: the pod and `now` in, a verdict out.
import type { Pod } from 'kubernetes-types/core/v1';

export const DeadlineExceededReason = 'DeadlineExceeded';
export const DeadlineExceededMessage = 'Pod was active on the node longer than the specified deadline';

/** ShouldEvict: counted from status.startTime (set at the pod's first sync). */
export function pastActiveDeadline(pod: Pod, now: number): boolean {
  const deadline = pod.spec?.activeDeadlineSeconds;
  const start = pod.status?.startTime;
  if (deadline === undefined || deadline === null || !start) return false;
  return now - Date.parse(start) >= deadline * 1000;
}

/** Milliseconds until the deadline passes (0 when it has), or undefined without a deadline. */
export function untilActiveDeadline(pod: Pod, now: number): number | undefined {
  const deadline = pod.spec?.activeDeadlineSeconds;
  const start = pod.status?.startTime;
  if (deadline === undefined || deadline === null || !start) return undefined;
  return Math.max(0, Date.parse(start) + deadline * 1000 - now);
}
