// `podlab delete`'s progress while a pod terminates: what it waits for, read from the pod as the API
// server and the kubelet leave it (metadata.deletionTimestamp = the request's time plus the grace
// period, metadata.deletionGracePeriodSeconds, the containers still running), and how a terminal
// line is rewritten in place. Pure; the shell is `del` in engine-commands.ts. No kubectl
// counterpart: `kubectl delete` waits silently (staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go,
// waitForDeletion); the grace period's meaning is the kubelet's (pkg/kubelet/kuberuntime/
// kuberuntime_container.go, killContainer).
import type { Pod } from 'kubernetes-types/core/v1';

/** The containers of the pod whose current instance runs: init (sidecars), app, then ephemeral ones. */
export function runningContainers(pod: Pod): string[] {
  const st = pod.status;
  return [...(st?.initContainerStatuses ?? []), ...(st?.containerStatuses ?? []), ...(st?.ephemeralContainerStatuses ?? [])].filter((s) => s.state?.running).map((s) => s.name);
}

/**
 * The progress line of a pod being deleted, or undefined while it has no deletionTimestamp:
 * `pod "x" deleting: waiting for container "app" to stop (grace period 30s, 12s left)`, or
 * `... waiting for containers "app", "sidecar" to stop ...`, or, once none runs,
 * `pod "x" deleting: containers stopped, removing the pod`. The time left counts down to the
 * deletionTimestamp (whole seconds, never below 0).
 */
export function deletionProgress(pod: Pod, now: number): string | undefined {
  const md = pod.metadata;
  if (!md?.deletionTimestamp) return undefined;
  const head = `pod "${md.name ?? ''}" deleting`;
  const running = runningContainers(pod);
  if (running.length === 0) return `${head}: containers stopped, removing the pod`;
  const left = Math.max(0, Math.ceil((Date.parse(md.deletionTimestamp) - now) / 1000));
  const grace = md.deletionGracePeriodSeconds;
  const names = running.map((n) => `"${n}"`).join(', ');
  return `${head}: waiting for container${running.length > 1 ? 's' : ''} ${names} to stop (${grace !== undefined ? `grace period ${grace}s, ` : ''}${left}s left)`;
}

/** Whether the progress line says the pod waits for running containers (not on a TTY, that one line is printed, once). */
export const isWaitingLine = (line: string | undefined): line is string => !!line && / deleting: waiting for /.test(line);

/**
 * The text that replaces the `previous` lines a terminal shows last (the cursor below them) with
 * `lines`: up `previous` lines, erase to the end of the screen, write the new ones. Each line is
 * cut to `columns - 1` characters so that none wraps (a wrapped line would break the count).
 */
export function redraw(previous: number, lines: readonly string[], columns: number): string {
  const width = Math.max(1, columns - 1);
  const up = previous > 0 ? `\x1b[${previous}A\r\x1b[J` : '';
  return up + lines.map((l) => `${l.length > width ? l.slice(0, width) : l}\n`).join('');
}
