// The Pod Lab view's model, built from v1 Pods as pure data (no `vscode` import): one row per pod
// with kubectl's STATUS/READY/RESTARTS/AGE, and its containers grouped init / sidecar / app with
// a state icon, reason, exit code and restart count. The tree provider only maps it to TreeItems.
import type { Pod, Container, ContainerStatus } from 'kubernetes-types/core/v1';
import { podStatusText, readyText, restartsText, humanDuration } from '../engine/printer.js';
import { LAB_ANNOTATIONS } from '../server/lab-api.js';
import { kubectlYaml } from '../shared/go-yaml.js';

export type ContainerKind = 'init' | 'sidecar' | 'app';
export type Tone = 'ok' | 'progress' | 'warn' | 'error' | 'done' | 'idle';

export interface ContainerRow {
  id: string;
  namespace: string;
  pod: string;
  name: string;
  kind: ContainerKind;
  image: string;
  state: 'none' | 'waiting' | 'running' | 'terminated';
  reason: string;
  exitCode?: number;
  lastExitCode?: number;
  restartCount: number;
  ready: boolean;
  /** codicon id and tone for the state icon */
  icon: string;
  tone: Tone;
  description: string;
  tooltip: string;
  /** for `viewItem` when clauses: container.<kind>.<state>[.backoff][.exited] */
  contextValue: string;
  /** runtime id of the newest instance (running or exited), if any */
  containerId?: string;
}

export interface GroupRow {
  id: string;
  kind: ContainerKind;
  label: string;
  containers: ContainerRow[];
}

export interface PodRow {
  id: string;
  namespace: string;
  name: string;
  uid: string;
  status: string;
  ready: string;
  restarts: string;
  age: string;
  icon: string;
  tone: Tone;
  description: string;
  tooltip: string;
  contextValue: string;
  groups: GroupRow[];
}

export function containerKind(c: Container, isInit: boolean): ContainerKind {
  if (!isInit) return 'app';
  return c.restartPolicy === 'Always' ? 'sidecar' : 'init';
}

const groupLabel: Record<ContainerKind, string> = {
  init: 'Init containers',
  sidecar: 'Sidecar containers',
  app: 'Containers',
};

/** Icon and tone of a pod from its kubectl STATUS text. */
export function podTone(status: string, phase: string | undefined): { icon: string; tone: Tone } {
  if (status === 'Terminating') return { icon: 'loading~spin', tone: 'progress' };
  if (/BackOff|Err|Error|Failed|OOMKilled|Signal|ExitCode|Unknown|Invalid|CannotRun/.test(status)) return { icon: 'error', tone: 'error' };
  if (status === 'Running') return { icon: 'vm-running', tone: 'ok' };
  if (status === 'Completed' || phase === 'Succeeded') return { icon: 'pass', tone: 'done' };
  if (status === 'NotReady') return { icon: 'vm-outline', tone: 'warn' };
  return { icon: 'vm-outline', tone: 'progress' };
}

/** Icon, tone and short description of one container's status; `initialized`: the pod's Initialized condition is True (its init containers are done). */
export function containerTone(cs: ContainerStatus | undefined, kind: ContainerKind, initialized: boolean): { icon: string; tone: Tone; state: ContainerRow['state']; reason: string } {
  if (!cs || !cs.state) return { icon: 'circle-large-outline', tone: 'idle', state: 'none', reason: '' };
  const s = cs.state;
  if (s.running) {
    const ready = cs.ready === true || (kind === 'sidecar' && cs.started === true);
    return { icon: ready ? 'pass-filled' : 'circle-large-filled', tone: ready ? 'ok' : 'warn', state: 'running', reason: ready ? 'Running' : 'Running, not ready' };
  }
  if (s.terminated) {
    const ok = s.terminated.exitCode === 0;
    return { icon: ok ? 'pass' : 'error', tone: ok ? 'done' : 'error', state: 'terminated', reason: s.terminated.reason ?? (ok ? 'Completed' : 'Error') };
  }
  const reason = s.waiting?.reason ?? '';
  if (/BackOff|Err|Error|Invalid/.test(reason)) return { icon: 'error', tone: 'error', state: 'waiting', reason };
  // Waiting for the pod's init containers: nothing happens to this one until they are done (never,
  // in a crash loop). Once they are, the kubelet keeps the reason until the container is created.
  if (reason === 'PodInitializing') {
    return initialized && kind !== 'init' ? { icon: 'loading~spin', tone: 'progress', state: 'waiting', reason } : { icon: 'clock', tone: 'idle', state: 'waiting', reason };
  }
  if (reason === 'ContainerCreating' || reason === '') return { icon: 'loading~spin', tone: 'progress', state: 'waiting', reason: reason || 'Waiting' };
  return { icon: 'clock', tone: 'warn', state: 'waiting', reason };
}

function containerRow(pod: Pod, c: Container, kind: ContainerKind, cs: ContainerStatus | undefined): ContainerRow {
  const ns = pod.metadata?.namespace ?? 'default';
  const podName = pod.metadata?.name ?? '';
  const t = containerTone(cs, kind, pod.status?.conditions?.some((c) => c.type === 'Initialized' && c.status === 'True') ?? false);
  const term = cs?.state?.terminated;
  const last = cs?.lastState?.terminated;
  const restartCount = cs?.restartCount ?? 0;
  const parts: string[] = [t.state === 'none' ? 'not created' : t.reason];
  if (term) parts.push(`exit ${term.exitCode}`);
  else if (last && t.state === 'waiting') parts.push(`last exit ${last.exitCode}`);
  if (restartCount > 0) parts.push(`${restartCount} restart${restartCount === 1 ? '' : 's'}`);
  const backoff = t.state === 'waiting' && t.reason === 'CrashLoopBackOff';
  const exited = !!term || !!last;
  const id = idOf(term?.containerID ?? (t.state === 'running' ? cs?.containerID : undefined) ?? last?.containerID ?? cs?.containerID);
  const tooltipLines = [
    `${kindWord(kind)} ${c.name}`,
    `image: ${c.image ?? ''}`,
    `state: ${t.state === 'none' ? 'not created yet' : t.state}${t.reason && t.state !== 'running' ? ` (${t.reason})` : ''}`,
  ];
  const msg = cs?.state?.waiting?.message ?? term?.message;
  if (msg) tooltipLines.push(`message: ${msg}`);
  if (term) tooltipLines.push(`exit code: ${term.exitCode}`);
  if (last) tooltipLines.push(`last state: terminated, ${last.reason ?? ''} (exit ${last.exitCode})`);
  tooltipLines.push(`restarts: ${restartCount}`, `ready: ${cs?.ready === true}`);
  return {
    id: `${ns}/${podName}/${c.name}`,
    namespace: ns,
    pod: podName,
    name: c.name,
    kind,
    image: c.image ?? '',
    state: t.state,
    reason: t.reason,
    exitCode: term?.exitCode,
    lastExitCode: last?.exitCode,
    restartCount,
    ready: cs?.ready === true,
    icon: t.icon,
    tone: t.tone,
    description: parts.join(' · '),
    tooltip: tooltipLines.join('\n'),
    contextValue: `container.${kind}.${t.state}${backoff ? '.backoff' : ''}${exited ? '.exited' : ''}`,
    containerId: id,
  };
}

function kindWord(kind: ContainerKind): string {
  return kind === 'init' ? 'init container' : kind === 'sidecar' ? 'sidecar container' : 'container';
}

function idOf(containerID: string | undefined): string | undefined {
  if (!containerID) return undefined;
  const i = containerID.indexOf('://');
  return i >= 0 ? containerID.slice(i + 3) : containerID;
}

/** One view row per pod, sorted by namespace then name. */
export function buildPodRows(pods: readonly Pod[], now: number, stepWaiting: ReadonlyMap<string, string> = new Map(), simulatedNodes: ReadonlySet<string> = new Set()): PodRow[] {
  const rows = pods.map((p) => podRow(p, now, stepWaiting.get(p.metadata?.uid ?? ''), simulatedNodes.has(p.spec?.nodeName ?? '')));
  rows.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  return rows;
}

/**
 * What the Pods view shows of these pods, without the clock (ages move on the view's own timer):
 * equal signatures mean a refresh would draw the same rows, so a watch event that changes nothing
 * there (an Event's count, a probe's time) costs the workbench nothing.
 */
export function podRowsSignature(pods: readonly Pod[], stepWaiting: ReadonlyMap<string, string> = new Map(), simulatedNodes: ReadonlySet<string> = new Set()): string {
  return JSON.stringify(buildPodRows(pods, 0, stepWaiting, simulatedNodes));
}

/** `simulated`: the pod is bound to a simulated node (no containers run; the row says so). */
export function podRow(pod: Pod, now: number, stepWaitingFor?: string, simulated = false): PodRow {
  const ns = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  const status = podStatusText(pod);
  const ready = readyText(pod);
  const restarts = restartsText(pod, now);
  const created = pod.metadata?.creationTimestamp ? Date.parse(pod.metadata.creationTimestamp) : NaN;
  const age = Number.isFinite(created) ? humanDuration(Math.max(0, now - created)) : '<unknown>';
  const { icon, tone } = stepWaitingFor ? { icon: 'debug-pause', tone: 'warn' as Tone } : podTone(status, pod.status?.phase);
  const groups: GroupRow[] = [];
  const statusesInit = pod.status?.initContainerStatuses ?? [];
  const statuses = pod.status?.containerStatuses ?? [];
  const byKind: Record<ContainerKind, ContainerRow[]> = { init: [], sidecar: [], app: [] };
  for (const c of pod.spec?.initContainers ?? []) {
    const kind = containerKind(c, true);
    byKind[kind].push(containerRow(pod, c, kind, statusesInit.find((s) => s.name === c.name)));
  }
  for (const c of pod.spec?.containers ?? []) byKind.app.push(containerRow(pod, c, 'app', statuses.find((s) => s.name === c.name)));
  for (const kind of ['init', 'sidecar', 'app'] as const) {
    if (byKind[kind].length > 0) groups.push({ id: `${ns}/${name}#${kind}`, kind, label: groupLabel[kind], containers: byKind[kind] });
  }
  const tooltip = [
    `${ns}/${name}`,
    `STATUS ${status}   READY ${ready}   RESTARTS ${restarts}   AGE ${age}`,
    `phase: ${pod.status?.phase ?? 'Pending'}`,
    pod.spec?.nodeName ? `node: ${pod.spec.nodeName}${simulated ? ' (simulated: no containers run; its statuses come from the simulated kubelet)' : ''}` : 'not scheduled yet',
    pod.status?.podIP ? `pod IP: ${pod.status.podIP}` : '',
    stepWaitingFor ? `step mode: waiting before init container "${stepWaitingFor}" (Continue to start it)` : '',
  ].filter((l) => l !== '');
  return {
    id: `${ns}/${name}`,
    namespace: ns,
    name,
    uid: pod.metadata?.uid ?? '',
    status,
    ready,
    restarts,
    age,
    icon,
    tone,
    // kubectl's columns, each named: a bare "0" (RESTARTS) reads as nothing
    description: `${stepWaitingFor ? 'Paused (step mode) · ' : ''}${simulated ? 'simulated · ' : ''}${status} · ready ${ready} · restarts ${restarts} · age ${age}`,
    tooltip: tooltip.join('\n'),
    contextValue: `pod${stepWaitingFor ? '.stepWaiting' : ''}`,
    groups,
  };
}

/** CodeLens titles for a Pod document, given the pod's live state (undefined: not running in the lab). */
export function lensTitles(pod: Pod | undefined, now: number): { summary?: string; actions: ('run' | 'delete' | 'lifecycle')[] } {
  if (!pod) return { actions: ['run'] };
  const status = podStatusText(pod);
  const ready = readyText(pod);
  const restarts = restartsText(pod, now);
  const rc = restarts.startsWith('0') ? '' : ` · ${restarts} restarts`;
  return { summary: `${status} · ${ready}${rc}`, actions: ['delete', 'lifecycle'] };
}

/** What the CodeLenses show of these pods, without the clock: the lenses are asked again only when it changes. */
export function lensSignature(pods: readonly Pod[]): string {
  return JSON.stringify(
    pods
      .map((p) => [p.metadata?.namespace ?? 'default', p.metadata?.name ?? '', lensTitles(p, 0).summary ?? ''])
      .sort((a, b) => a[0]!.localeCompare(b[0]!) || a[1]!.localeCompare(b[1]!)),
  );
}

/** Pods the debug watch should follow: step mode on (annotation or the lab's setting) and not finished. */
export function stepModePods(pods: readonly Pod[], labStepMode: boolean): Pod[] {
  return pods.filter((p) => {
    const on = p.metadata?.annotations?.[LAB_ANNOTATIONS.stepMode];
    const stepMode = on === undefined ? labStepMode : on === 'true';
    const phase = p.status?.phase;
    return stepMode && !p.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
  });
}

/** "1 pod", "3 pods": a count with its noun in English. */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** The confirmation of "Delete All Lab Pods": the question and its detail. */
export function deleteAllQuestion(names: readonly string[]): { message: string; detail: string } {
  const message = names.length === 1 ? `Delete the lab's only pod, "${names[0]}"?` : `Delete all ${countOf(names.length, 'lab pod')}?`;
  return { message, detail: `${names.join(', ')}\n\nEach pod is deleted gracefully: its containers get SIGTERM and their grace period to stop.` };
}


/**
 * The live YAML document of a pod: what `kubectl get pod NAME -o yaml` prints (managedFields left
 * out, as kubectl leaves them out unless --show-managed-fields; apiVersion and kind set, which a
 * List's items lack).
 */
export function livePodYaml(pod: Pod): string {
  const { managedFields: _omitted, ...metadata } = pod.metadata ?? {};
  return kubectlYaml({ ...pod, apiVersion: 'v1', kind: 'Pod', metadata });
}

/**
 * Open Shell on a container with no instance yet (it never started): there is nothing to open a
 * shell in, and the user is told why (its waiting reason) and what Open Shell does, rather than
 * given an error.
 */
export function notStartedShellMessage(container: string, status: ContainerStatus | undefined): string {
  const w = status?.state?.waiting;
  const why = w?.reason ? ` (waiting: ${w.reason}${w.message ? `, ${w.message}` : ''})` : '';
  return `Container "${container}" has not started yet${why}, so there is no instance to open a shell in. Open Shell opens one in a running container, or in a copy of an exited one.`;
}

/**
 * Whether Delete Pod asks first, and its question: a lab pod is asked about unless the setting
 * podlab.confirmDelete is off; a pod of a real cluster always is, and the question names the context.
 */
export function deletePodQuestion(pod: Pod, context: string | undefined, confirmSetting: boolean): { message: string; detail: string; confirm: 'Delete' } | undefined {
  if (context === undefined && !confirmSetting) return undefined;
  const key = `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
  return {
    message: context !== undefined ? `Delete pod "${key}" in context "${context}"?` : `Delete pod "${key}"?`,
    detail: deletePodDetail(pod, context),
    confirm: 'Delete',
  };
}

/**
 * The detail of "Delete pod?": what deleting does to this pod now. Containers that run get SIGTERM
 * and the grace period (the pod's terminationGracePeriodSeconds, 30 by default); a pod whose
 * containers have all stopped has only its record and stopped containers to lose.
 */
export function deletePodDetail(pod: Pod, context: string | undefined): string {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])];
  const running = statuses.filter((c) => c.state?.running).length;
  const grace = pod.spec?.terminationGracePeriodSeconds ?? 30;
  const what =
    running > 0
      ? `Its ${countOf(running, 'running container')} ${running === 1 ? 'gets' : 'get'} SIGTERM, and SIGKILL if still running after the pod's grace period (${grace}s).`
      : 'None of its containers runs: the pod and its stopped containers are removed.';
  return context !== undefined
    ? `This is a real cluster, not the lab. ${what} The pod is gone unless a controller re-creates it.`
    : `${what} (The setting podlab.confirmDelete turns this question off.)`;
}
