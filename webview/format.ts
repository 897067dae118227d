// Text formatting for the panel. Relative times follow kubectl (duration.HumanDuration through the
// shared printer), so the panel reads like `kubectl get` / `kubectl describe`.
import { humanDuration } from '../src/engine/printer.js';
import type { ContainerView, ProbeView, StateView } from '../src/shared/protocol.js';

export { humanDuration };

/** kubectl's AGE: "<unknown>" when there is no timestamp. */
export function age(since: number | undefined, now: number): string {
  if (since === undefined) return '<unknown>';
  return humanDuration(Math.max(0, now - since));
}

/** kubectl describe's event age: "12s", or "5s (x3 over 40s)" for repeated events. */
export function eventAge(firstAt: number | undefined, lastAt: number | undefined, count: number, now: number): string {
  if (count > 1) return `${age(lastAt, now)} (x${count} over ${age(firstAt, now)})`;
  return age(firstAt ?? lastAt, now);
}

/** kubectl's RESTARTS column: "3 (12s ago)". */
export function restarts(count: number, lastAt: number | undefined, now: number): string {
  if (count === 0 || lastAt === undefined) return String(count);
  return `${count} (${age(lastAt, now)} ago)`;
}

/** Back-off countdown: whole seconds left, never negative. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

export function countdown(until: number, now: number): string {
  const left = secondsLeft(until, now);
  return left > 0 ? `next restart in ${left}s` : 'back-off over: restarts at the kubelet\'s next sync';
}

/** Wall-clock time of day, as the learner's machine shows it (HH:MM:SS.mmm). */
export function clockTime(t: number | undefined): string {
  if (t === undefined) return '';
  const d = new Date(t);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** A precise duration for attempts: "850ms", "1.234s", "2m3s". */
export function preciseDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(3).replace(/\.?0+$/, '')}s`;
  return humanDuration(ms);
}

export function shortId(id: string): string {
  return id.replace(/^[a-z]+:\/\//, '').slice(0, 12);
}

/** One line for a container state, as kubectl describe would summarise it. */
export function stateText(s: StateView): string {
  switch (s.kind) {
    case 'none':
      return '—';
    case 'waiting':
      return s.reason ? `Waiting (${s.reason})` : 'Waiting';
    case 'running':
      return 'Running';
    case 'terminated':
      return `Terminated (${s.reason || 'exit ' + s.exitCode})`;
  }
}

/** A CSS class for a kubectl STATUS text: ok, progress, warn or error. */
export function statusClass(status: string): 'ok' | 'progress' | 'warn' | 'error' {
  if (/BackOff|Err|Error|Failed|OOMKilled|Signal|ExitCode|Unknown|Invalid|CannotRun/.test(status)) return 'error';
  if (status === 'Running' || status === 'Completed' || status === 'Succeeded') return 'ok';
  if (status === 'Terminating' || status === 'NotReady') return 'warn';
  return 'progress';
}

/**
 * The run toward a verdict: "2 failures in a row: 1 more makes the verdict Failure (failureThreshold 3)",
 * "5 failures in a row (failureThreshold 3 reached)", or without the prediction when the verdict is already that.
 */
export function streakText(st: NonNullable<ProbeView['streak']>, verdict?: string): string {
  const what = st.result === 'Success' ? (st.count === 1 ? 'success' : 'successes') : st.count === 1 ? 'failure' : 'failures';
  const field = st.result === 'Success' ? 'successThreshold' : 'failureThreshold';
  const left = st.threshold - st.count;
  if (left > 0 && verdict === st.result) return `${st.count} ${what} in a row (${field} ${st.threshold})`;
  return left > 0
    ? `${st.count} ${what} in a row: ${left} more ${left === 1 ? 'makes' : 'make'} the verdict ${st.result} (${field} ${st.threshold})`
    : `${st.count} ${what} in a row (${field} ${st.threshold} reached)`;
}

// ---------------------------------------------------------------------------------------------
// The logs pane (a log viewer over `kubectl logs -f`).

/** The most lines the logs pane keeps; older ones are dropped (and the pane says how many). */
export const LOG_LINE_CAP = 5000;

/** The lines the logs pane keeps, and how many older ones it dropped to stay within the cap. */
export interface LogBuffer {
  lines: string[];
  dropped: number;
}

/** Appends a chunk, keeping at most the last `cap` lines; `dropped` counts every line let go. */
export function appendLogLines(buf: LogBuffer, lines: readonly string[], cap = LOG_LINE_CAP): LogBuffer {
  const all = buf.lines.length === 0 ? lines.slice() : [...buf.lines, ...lines];
  const over = Math.max(0, all.length - cap);
  return { lines: over ? all.slice(over) : all, dropped: buf.dropped + over };
}

/** The lines that contain `query`, ignoring case (all of them for an empty query). */
export function filterLogLines(lines: readonly string[], query: string): string[] {
  if (query === '') return lines.slice();
  const q = query.toLowerCase();
  return lines.filter((l) => l.toLowerCase().includes(q));
}

/**
 * A line cut into the filter's matches and the text between them, left to right, without overlap:
 * what the log view marks. The same case-insensitive comparison as the filter (lower case of each
 * side), on lines whose lower case keeps their length; a line where it does not (a few Unicode
 * letters) is one plain piece.
 */
export function matchSegments(line: string, query: string): { text: string; match: boolean }[] {
  const lower = line.toLowerCase();
  const q = query.toLowerCase();
  if (q === '' || lower.length !== line.length) return [{ text: line, match: false }];
  const out: { text: string; match: boolean }[] = [];
  let at = 0;
  for (let i = lower.indexOf(q); i !== -1; i = lower.indexOf(q, at)) {
    if (i > at) out.push({ text: line.slice(at, i), match: false });
    out.push({ text: line.slice(i, i + q.length), match: true });
    at = i + q.length;
  }
  if (at < line.length || out.length === 0) out.push({ text: line.slice(at), match: false });
  return out;
}

/** The filter's count: "3 of 120 lines". */
export function logCountText(shown: number, total: number): string {
  return `${shown} of ${total} ${total === 1 ? 'line' : 'lines'}`;
}

/** What the pane says once it dropped older lines. */
export function droppedText(dropped: number, cap = LOG_LINE_CAP): string {
  return `${dropped} older ${dropped === 1 ? 'line' : 'lines'} dropped: the viewer keeps the last ${cap}.`;
}

/** What the pane says when a followed stream ends: the finished container's exit, when the model knows it. */
export function streamEndText(finished: Extract<StateView, { kind: 'terminated' }> | undefined): string {
  if (!finished) return 'The log stream ended: the container is no longer running.';
  const why = finished.reason ? `exit code ${finished.exitCode}, ${finished.reason}` : `exit code ${finished.exitCode}`;
  return `The container finished (${why}): the log stream ended.`;
}

/**
 * The container the logs pane opens on until the learner picks one: a failed one; else the init
 * container the pod is at (the first that has not exited 0); else kubectl logs' default, the first
 * app container; else the first.
 */
export function defaultLogsContainer(containers: readonly Pick<ContainerView, 'name' | 'kind' | 'state' | 'failed'>[]): string | undefined {
  const failed = containers.find((c) => c.failed);
  if (failed) return failed.name;
  const exited0 = (c: Pick<ContainerView, 'state'>) => c.state.kind === 'terminated' && c.state.exitCode === 0;
  const at = containers.find((c) => c.kind === 'init' && !exited0(c));
  if (at) return at.name;
  return (containers.find((c) => c.kind === 'app') ?? containers[0])?.name;
}
