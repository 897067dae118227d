// kubectl's pod table (`kubectl get pods`): printPod from pkg/printers/internalversion/printers.go
// (v1.35), duration.HumanDuration from apimachinery, and a text/tabwriter compatible column
// formatter. Pure: `now` is passed in.
import type { Container, ContainerStatus, Pod, PodCondition } from 'kubernetes-types/core/v1';

// ---------------------------------------------------------------------------------------------
// Durations

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(seconds / 3600);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    const y = Math.floor(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** Epoch ms of an RFC 3339 time, 0 when absent or unparsable (Go's zero time). */
export function timeMs(t: string | undefined | null): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : ms;
}

/** translateTimestampSince: `<unknown>` for the zero time, else the human age. */
export function translateTimestampSince(t: string | undefined | null, now: number): string {
  const ms = timeMs(t);
  return ms === 0 ? '<unknown>' : humanDuration(now - ms);
}

// ---------------------------------------------------------------------------------------------
// text/tabwriter

export interface TabOptions {
  minwidth: number;
  padding: number;
}

/** kubectl get: tabwriter.NewWriter(out, 6, 4, 3, ' ', 0). */
export const TABLE_TAB: TabOptions = { minwidth: 6, padding: 3 };
/** kubectl describe: tabwriter.NewWriter(out, 0, 8, 2, ' ', 0). */
export const DESCRIBE_TAB: TabOptions = { minwidth: 0, padding: 2 };

const runeWidth = (s: string) => [...s].length;

/**
 * Aligns tab-terminated cells like Go's text/tabwriter (padchar ' ', no flags): a column is a run
 * of consecutive lines that all have a cell in it; the last cell of a line is not aligned.
 */
export function tabwrite(text: string, opts: TabOptions): string {
  const lines = text.split('\n').map((l) => l.split('\t'));
  const widths: number[] = [];
  const out: string[] = [];

  const writeLines = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const cells = lines[i]!;
      out.push(cells.map((c, j) => (j < cells.length - 1 ? c + ' '.repeat(Math.max(0, widths[j]! - runeWidth(c))) : c)).join(''));
    }
  };

  const format = (line0: number, line1: number) => {
    const column = widths.length;
    let start = line0;
    for (let i = line0; i < line1; i++) {
      if (column >= lines[i]!.length - 1) continue;
      writeLines(start, i);
      let width = opts.minwidth;
      let end = i;
      for (; end < line1 && column < lines[end]!.length - 1; end++) {
        width = Math.max(width, runeWidth(lines[end]![column]!) + opts.padding);
      }
      widths.push(width);
      format(i, end);
      widths.pop();
      start = end;
      i = end - 1;
    }
    writeLines(start, line1);
  };

  format(0, lines.length);
  return out.join('\n');
}

/** Rows of cells joined by tabs and aligned, one line per row (each line ends with a newline). */
export function formatTable(rows: readonly (readonly string[])[], opts: TabOptions = TABLE_TAB): string {
  return tabwrite(rows.map((r) => r.join('\t') + '\n').join(''), opts);
}

/**
 * A table printed row by row (`kubectl get -w`): like tabwriter's RememberWidths, a column never
 * gets narrower than it has been.
 */
export class StreamingTable {
  private widths: number[] = [];
  constructor(private readonly opts: TabOptions = TABLE_TAB) {}
  line(cells: readonly string[]): string {
    return cells
      .map((c, j) => {
        if (j === cells.length - 1) return c;
        const w = Math.max(this.widths[j] ?? 0, this.opts.minwidth, runeWidth(c) + this.opts.padding);
        this.widths[j] = w;
        return c + ' '.repeat(w - runeWidth(c));
      })
      .join('');
  }
}

// ---------------------------------------------------------------------------------------------
// printPod

const isRestartable = (c: Container | undefined) => c?.restartPolicy === 'Always';
const conditionTrue = (conds: readonly PodCondition[] | undefined, type: string) =>
  (conds ?? []).some((c) => c.type === type && c.status === 'True');

export interface PodRow {
  name: string;
  ready: string;
  status: string;
  restarts: string;
  age: string;
  ip: string;
  node: string;
  nominatedNode: string;
  readinessGates: string;
}

/** `Init:Error`, `Init:Signal:9`, `Init:ExitCode:3`; without the prefix for app containers. */
function terminatedText(t: NonNullable<ContainerStatus['state']>['terminated'], prefix: string): string {
  if (t?.reason) return prefix + t.reason;
  if (t?.signal) return `${prefix}Signal:${t.signal}`;
  return `${prefix}ExitCode:${t?.exitCode ?? 0}`;
}

interface Tally {
  restarts: number;
  lastRestart: number;
}
function countRestart(t: Tally, s: ContainerStatus) {
  t.restarts += s.restartCount ?? 0;
  const finished = timeMs(s.lastState?.terminated?.finishedAt);
  if (s.lastState?.terminated && finished > t.lastRestart) t.lastRestart = finished;
}

/** The cells of one `kubectl get pods` row, computed exactly as printPod does. */
export function podRow(pod: Pod, now: number): PodRow {
  const spec = pod.spec;
  const status = pod.status ?? {};
  let reason: string = status.reason || status.phase || '';
  if ((status.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';

  const inits = new Map((spec?.initContainers ?? []).map((c) => [c.name, c]));
  const total = (spec?.containers ?? []).length + [...inits.values()].filter(isRestartable).length;
  let ready = 0;
  const all: Tally = { restarts: 0, lastRestart: 0 };
  const sidecars: Tally = { restarts: 0, lastRestart: 0 };

  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const s = initStatuses[i]!;
    countRestart(all, s);
    if (isRestartable(inits.get(s.name))) countRestart(sidecars, s);
    const t = s.state?.terminated;
    if (t && t.exitCode === 0) continue;
    if (isRestartable(inits.get(s.name)) && s.started === true) {
      if (s.ready) ready++;
      continue;
    }
    if (t) reason = terminatedText(t, 'Init:');
    else if (s.state?.waiting?.reason && s.state.waiting.reason !== 'PodInitializing') reason = `Init:${s.state.waiting.reason}`;
    else reason = `Init:${i}/${inits.size}`;
    initializing = true;
    break;
  }

  let tally = all;
  if (!initializing || conditionTrue(status.conditions, 'Initialized')) {
    tally = sidecars;
    let hasRunning = false;
    let errorReason = '';
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const s = statuses[i]!;
      countRestart(tally, s);
      const t = s.state?.terminated;
      if (s.state?.waiting?.reason) reason = s.state.waiting.reason;
      else if (t) {
        reason = terminatedText(t, '');
        if (t.exitCode !== 0) errorReason = reason;
      } else if (s.ready && s.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed') {
      if (hasRunning && conditionTrue(status.conditions, 'Ready')) reason = 'Running';
      else if (errorReason) reason = errorReason;
      else if (hasRunning) reason = 'NotReady';
    }
  }

  const deleting = !!pod.metadata?.deletionTimestamp;
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && status.phase !== 'Succeeded' && status.phase !== 'Failed') reason = 'Terminating';

  let restarts = String(tally.restarts);
  if (tally.restarts !== 0 && tally.lastRestart !== 0) restarts = `${tally.restarts} (${humanDuration(now - tally.lastRestart)} ago)`;

  const gates = spec?.readinessGates ?? [];
  const trueGates = gates.filter((g) => (status.conditions ?? []).find((c) => c.type === g.conditionType)?.status === 'True').length;
  return {
    name: pod.metadata?.name ?? '',
    ready: `${ready}/${total}`,
    status: reason,
    restarts,
    age: translateTimestampSince(pod.metadata?.creationTimestamp, now),
    ip: status.podIPs?.[0]?.ip || '<none>',
    node: spec?.nodeName || '<none>',
    nominatedNode: status.nominatedNodeName || '<none>',
    readinessGates: gates.length > 0 ? `${trueGates}/${gates.length}` : '<none>',
  };
}

/** The STATUS column. */
export function podStatusText(pod: Pod): string {
  return podRow(pod, 0).status;
}

/** The READY column: ready/total, where total counts app containers and sidecars. */
export function readyText(pod: Pod): string {
  return podRow(pod, 0).ready;
}

/** The RESTARTS column: `3 (25s ago)` or `0`. */
export function restartsText(pod: Pod, now: number): string {
  return podRow(pod, now).restarts;
}

export const POD_COLUMNS = ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'] as const;
export const POD_WIDE_COLUMNS = [...POD_COLUMNS, 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'] as const;

/** The cells of a row, as `kubectl get pods [-o wide]` prints them. */
export function podCells(pod: Pod, now: number, wide: boolean): string[] {
  const r = podRow(pod, now);
  const cells = [r.name, r.ready, r.status, r.restarts, r.age];
  return wide ? [...cells, r.ip, r.node, r.nominatedNode, r.readinessGates] : cells;
}

/** `kubectl get pods [-o wide]` output, or kubectl's message when there are none. */
export function getTable(pods: readonly Pod[], now: number, wide: boolean, namespace = 'default'): string {
  if (pods.length === 0) return `No resources found in ${namespace} namespace.`;
  const name = (p: Pod) => p.metadata?.name ?? '';
  const sorted = [...pods].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  const header = [...(wide ? POD_WIDE_COLUMNS : POD_COLUMNS)];
  return formatTable([header, ...sorted.map((p) => podCells(p, now, wide))]);
}

// ---------------------------------------------------------------------------------------------
// printConfigMap, printSecret (kubectl get configmaps / secrets)

interface ConfigObjectLike {
  metadata?: { name?: string; creationTimestamp?: string };
  data?: Record<string, string>;
}

export const CONFIGMAP_COLUMNS = ['NAME', 'DATA', 'AGE'] as const;
export const SECRET_COLUMNS = ['NAME', 'TYPE', 'DATA', 'AGE'] as const;

/** A ConfigMap's row: DATA is len(data) + len(binaryData). */
export function configMapCells(cm: ConfigObjectLike & { binaryData?: Record<string, string> }, now: number): string[] {
  const data = Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length;
  return [cm.metadata?.name ?? '', String(data), translateTimestampSince(cm.metadata?.creationTimestamp, now)];
}

/** A Secret's row: TYPE as stored, DATA is len(data). */
export function secretCells(s: ConfigObjectLike & { type?: string }, now: number): string[] {
  return [s.metadata?.name ?? '', s.type ?? '', String(Object.keys(s.data ?? {}).length), translateTimestampSince(s.metadata?.creationTimestamp, now)];
}

/** `kubectl get configmaps` / `kubectl get secrets`, sorted by name, or kubectl's message when there are none. */
export function configObjectTable(kind: 'ConfigMap' | 'Secret', objects: readonly ConfigObjectLike[], now: number, namespace = 'default'): string {
  if (objects.length === 0) return `No resources found in ${namespace} namespace.`;
  const name = (o: ConfigObjectLike) => o.metadata?.name ?? '';
  const sorted = [...objects].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  return kind === 'ConfigMap'
    ? formatTable([[...CONFIGMAP_COLUMNS], ...sorted.map((o) => configMapCells(o, now))])
    : formatTable([[...SECRET_COLUMNS], ...sorted.map((o) => secretCells(o, now))]);
}
