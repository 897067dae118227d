// The lifecycle panel's probes, lifecycle hooks and readiness, on the host side (pure: no `vscode`,
// no I/O). Upstream counterparts: kubectl describe's DescribeProbe (k8s.io/kubectl/pkg/describe/
// describe.go, through src/engine/describe.ts), the prober worker's run counting and initial
// results (pkg/kubelet/prober/worker.go doProbe/newWorker), and the Ready condition the status
// manager writes (pkg/kubelet/status/generate.go GeneratePodReadyCondition).
//
// The prober keeps the last 100 runs of each worker; the panel keeps every run it has seen (up to
// MAX_RUNS_KEPT), so a probe with periodSeconds: 1 can be followed for an hour. The timeline gets
// one mark per run while there are few, and time buckets (aligned to the clock, so they do not
// shift between updates) once there are more than MAX_MARKS_PER_PROBE.
import type { Container, ContainerStatus, Pod, Probe } from 'kubernetes-types/core/v1';
import type { HookRun, PodDebugInfo, ProbeRunView } from '../../engine/api.js';
import { describeProbe } from '../../engine/describe.js';
import type { LaneMark, ProbeType, ProbeView, ReadyMark } from '../../shared/protocol.js';

/** Probe runs the panel has seen, per container and probe type (`probeRunKey`), oldest first. */
export type ProbeRunsSeen = Record<string, ProbeRunView[]>;

/** Runs kept per probe (an hour at periodSeconds: 1). */
export const MAX_RUNS_KEPT = 3600;
/** Characters of a run's output kept (an HTTP body can be 10 KiB). */
export const OUTPUT_KEPT = 1024;
/** Above this many runs of one probe, the timeline aggregates runs into time buckets. */
export const MAX_MARKS_PER_PROBE = 120;
/** Characters of output in a mark's hover text. */
const DETAIL_CHARS = 300;

export const probeRunKey = (container: string, type: ProbeType) => `${container}/${type}`;

/** The probe fields in the order kubectl describe prints them, with their panel names. */
const PROBE_FIELDS = [
  ['livenessProbe', 'liveness', 'Liveness'],
  ['readinessProbe', 'readiness', 'Readiness'],
  ['startupProbe', 'startup', 'Startup'],
] as const;

/** Lane strips, top to bottom, in the order the kubelet starts using them. */
export const STRIP_ORDER: readonly ProbeType[] = ['startup', 'liveness', 'readiness'];

const TITLE: Record<ProbeType, string> = { liveness: 'Liveness', readiness: 'Readiness', startup: 'Startup' };

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/**
 * Folds the prober's history from debug info into what the panel has seen: runs older than the
 * prober's window are kept, the window replaces the rest (it is authoritative for its span).
 */
export function mergeProbeRuns(seen: ProbeRunsSeen, debug: PodDebugInfo | undefined): ProbeRunsSeen {
  const hist = debug?.probes ?? [];
  if (hist.length === 0) return seen;
  const out: ProbeRunsSeen = { ...seen };
  for (const h of hist) {
    if (h.runs.length === 0) continue;
    const key = probeRunKey(h.containerName, h.probeType);
    const first = h.runs[0]!.time;
    const kept = (out[key] ?? []).filter((r) => r.time < first);
    const fresh = h.runs.map((r) => (r.output.length > OUTPUT_KEPT ? { ...r, output: truncate(r.output, OUTPUT_KEPT) } : r));
    const all = [...kept, ...fresh];
    out[key] = all.length > MAX_RUNS_KEPT ? all.slice(all.length - MAX_RUNS_KEPT) : all;
  }
  return out;
}

/** The worker's initial result for a new container (newWorker): readiness Failure, liveness Success, startup Unknown. */
export function initialVerdict(t: ProbeType): string {
  return t === 'readiness' ? 'Failure' : t === 'liveness' ? 'Success' : 'Unknown';
}

/** How the worker counts a run: warning as Success, unknown as Failure, a prober error not at all. */
export function countedAs(r: ProbeRunView): 'Success' | 'Failure' | undefined {
  if (r.error !== undefined) return undefined;
  return r.result === 'success' || r.result === 'warning' ? 'Success' : 'Failure';
}

function isFailure(r: ProbeRunView): boolean {
  return r.error !== undefined || r.result === 'failure' || r.result === 'unknown';
}

/** The latest counted result of the latest container's runs, and how many came in a row. */
export function streakOf(runs: readonly ProbeRunView[], probe: Probe): ProbeView['streak'] {
  const last = runs[runs.length - 1];
  if (!last) return undefined;
  let result: 'Success' | 'Failure' | undefined;
  let count = 0;
  for (let i = runs.length - 1; i >= 0; i--) {
    const r = runs[i]!;
    if (r.containerId !== last.containerId) break;
    const c = countedAs(r);
    if (c === undefined) continue;
    if (result === undefined) result = c;
    else if (c !== result) break;
    count++;
  }
  if (result === undefined) return undefined;
  return { result, count, threshold: result === 'Success' ? (probe.successThreshold ?? 1) : (probe.failureThreshold ?? 3) };
}

/**
 * Each probe of the container: kubectl describe's line, what the panel has seen of its runs, the
 * latest run, the streak toward a verdict, the verdict, and the status flag it drives.
 */
export function probeViews(c: Container, seen: ProbeRunsSeen, status: ContainerStatus | undefined): ProbeView[] {
  const out: ProbeView[] = [];
  for (const [field, type, label] of PROBE_FIELDS) {
    const probe = c[field];
    if (!probe) continue;
    const runs = seen[probeRunKey(c.name, type)] ?? [];
    const last = runs[runs.length - 1];
    const v: ProbeView = { type: label, config: describeProbe(probe), runs: runs.length, failures: runs.filter(isFailure).length };
    if (last) {
      v.last = { at: last.time, result: last.result, output: last.output || last.error || '', durationMs: last.durationMs };
      if (last.error !== undefined) v.last.error = true;
      const streak = streakOf(runs, probe);
      if (streak) v.streak = streak;
      // The worker's result for this container: the last one a run reported, else the initial one.
      v.verdict = [...runs].reverse().find((r) => r.containerId === last.containerId && r.verdict !== undefined)?.verdict ?? initialVerdict(type);
    }
    if (status && type === 'startup') v.flag = { name: 'started', value: status.started === true };
    if (status && type === 'readiness') v.flag = { name: 'ready', value: status.ready === true };
    out.push(v);
  }
  return out;
}

/** The probes a container has, in strip order. */
export function probeTypes(c: Container): ProbeType[] {
  return STRIP_ORDER.filter((t) => c[`${t}Probe`] !== undefined);
}

/** What a verdict means for the container, in a learner's words. */
export function verdictMeaning(t: ProbeType, verdict: string): string {
  if (t === 'readiness') return verdict === 'Success' ? 'ready: the pod counts the container as ready' : 'not ready: the container is taken out of the ready count';
  if (t === 'startup')
    return verdict === 'Success' ? 'started: liveness and readiness probing begins' : 'startup failed: the kubelet kills the container (restartPolicy decides what follows)';
  return verdict === 'Failure' ? 'unhealthy: the kubelet kills the container (restartPolicy decides what follows)' : 'healthy';
}

function runLabel(t: ProbeType, r: ProbeRunView): string {
  if (r.error !== undefined) return `${TITLE[t]} probe errored`;
  switch (r.result) {
    case 'success':
      return `${TITLE[t]} probe succeeded`;
    case 'warning':
      return `${TITLE[t]} probe succeeded with a warning`;
    case 'failure':
      return `${TITLE[t]} probe failed`;
    default:
      return `${TITLE[t]} probe result unknown`;
  }
}

function runDetail(r: ProbeRunView): string {
  const text = (r.error ?? r.output).trimEnd();
  return `${truncate(text, DETAIL_CHARS)}${text ? '\n' : ''}took ${r.durationMs} ms`;
}

/** Bucket widths for aggregated runs (ms). */
const BUCKETS_MS = [1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];

/** The bucket width that keeps `span` ms within `max` buckets. */
export function bucketWidth(span: number, max: number): number {
  return BUCKETS_MS.find((w) => span / w < max - 1) ?? BUCKETS_MS[BUCKETS_MS.length - 1]!;
}

function probeRunMarks(t: ProbeType, runs: readonly ProbeRunView[]): LaneMark[] {
  if (runs.length <= MAX_MARKS_PER_PROBE) {
    return runs.map((r) => ({ at: r.time, kind: isFailure(r) ? 'probe-fail' : 'probe-pass', probe: t, label: runLabel(t, r), detail: runDetail(r) }));
  }
  const w = bucketWidth(runs[runs.length - 1]!.time - runs[0]!.time, MAX_MARKS_PER_PROBE);
  const marks: LaneMark[] = [];
  let group: ProbeRunView[] = [];
  const flush = () => {
    if (group.length === 1) {
      const r = group[0]!;
      marks.push({ at: r.time, kind: isFailure(r) ? 'probe-fail' : 'probe-pass', probe: t, label: runLabel(t, r), detail: runDetail(r) });
    } else if (group.length > 1) {
      const failed = group.filter(isFailure);
      const shown = failed[failed.length - 1] ?? group[group.length - 1]!;
      marks.push({
        at: group[0]!.time,
        end: group[group.length - 1]!.time,
        kind: failed.length ? 'probe-fail' : 'probe-pass',
        probe: t,
        label: `${TITLE[t]} probe: ${group.length} runs, ${failed.length} failed`,
        detail: `${failed.length ? 'last failure' : 'last run'}: ${runDetail(shown)}`,
        runs: group.length,
        failed: failed.length,
      });
    }
    group = [];
  };
  for (const r of runs) {
    if (group.length && Math.floor(group[0]!.time / w) !== Math.floor(r.time / w)) flush();
    group.push(r);
  }
  flush();
  return marks;
}

/** Verdict changes: a run whose verdict differs from the one before it for the same container. */
function verdictMarks(t: ProbeType, runs: readonly ProbeRunView[]): LaneMark[] {
  const marks: LaneMark[] = [];
  let container: string | undefined;
  let prev = initialVerdict(t);
  for (const r of runs) {
    if (r.containerId !== container) {
      container = r.containerId;
      prev = initialVerdict(t);
    }
    if (r.verdict === undefined || r.verdict === prev) continue;
    prev = r.verdict;
    marks.push({
      at: r.time + r.durationMs,
      kind: 'verdict',
      probe: t,
      verdict: r.verdict,
      label: `${TITLE[t]}: ${r.verdict}`,
      detail: verdictMeaning(t, r.verdict),
    });
  }
  return marks;
}

function hookMark(k: HookRun): LaneMark {
  const failed = k.error !== undefined;
  const took = k.finishedAt !== undefined ? `${k.finishedAt - k.startedAt} ms` : undefined;
  const label = failed ? `${k.hook} hook failed` : k.timedOut ? `${k.hook} hook cut short by the grace period` : k.finishedAt === undefined ? `${k.hook} hook running` : `${k.hook} hook`;
  const detail = failed ? `${k.error}${took ? `\nreturned after ${took}` : ''}` : took ? `${k.timedOut ? 'still running after' : 'returned after'} ${took}` : 'still running';
  return { at: k.startedAt, ...(k.finishedAt !== undefined ? { end: k.finishedAt } : {}), kind: failed ? 'hook-fail' : 'hook', label, detail };
}

/**
 * The marks of a container's lane: its probes' runs (aggregated when dense), their verdict
 * changes, and its lifecycle hook runs, in time order.
 */
export function laneMarks(name: string, seen: ProbeRunsSeen, hooks: readonly HookRun[] | undefined): LaneMark[] {
  const marks: LaneMark[] = [];
  for (const t of STRIP_ORDER) {
    const runs = seen[probeRunKey(name, t)];
    if (!runs?.length) continue;
    marks.push(...probeRunMarks(t, runs), ...verdictMarks(t, runs));
  }
  for (const k of hooks ?? []) if (k.containerName === name) marks.push(hookMark(k));
  return marks.sort((a, b) => a.at - b.at);
}

/**
 * Folds the pod's Ready condition into its history: a new entry when its status changes. The
 * time is the condition's lastTransitionTime (whole seconds), or the moment the host saw the
 * change when that falls within the same two seconds (a live panel sees it within milliseconds).
 */
export function recordReady(history: readonly ReadyMark[], pod: Pod, now: number): readonly ReadyMark[] {
  const c = pod.status?.conditions?.find((x) => x.type === 'Ready');
  if (!c) return history;
  const last = history[history.length - 1];
  if (last && last.status === c.status) return history;
  const t = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : Number.NaN;
  const at = !Number.isFinite(t) ? now : now >= t && now - t < 2000 ? now : t;
  return [...history, { at, status: c.status, reason: c.reason ?? '', message: c.message ?? '' }];
}
