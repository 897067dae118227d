// Which container's log a command reads, and which logs `podlab run --logs` starts reading, as pure
// decisions over the pod. The default container is kubectl's: staging/src/k8s.io/kubectl/pkg/cmd/util/
// podcmd/podcmd.go (FindContainerByName, FindOrDefaultContainerByName, AllContainerNames, used by
// `kubectl exec`) and staging/src/k8s.io/kubectl/pkg/polymorphichelpers/logsforobject.go
// (logsForObjectWithClient, used by `kubectl logs`). Following every container of a pod, each line
// prefixed by the container's name, is `docker compose up`'s attached output (no kubectl counterpart:
// `kubectl logs --all-containers --prefix -f` reads the containers that exist when it starts).
import type { Container, ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { goParseInt, goQuote, parseGoDuration, parseGoRfc3339 } from '../shared/go.js';
import type { LogQuery } from '../client/remote-engine.js';

/** kubectl's annotation naming the container its commands default to (podcmd.DefaultContainerAnnotationName). */
export const DEFAULT_CONTAINER_ANNOTATION = 'kubectl.kubernetes.io/default-container';

/** podcmd.FindContainerByName: containers, then init containers, then ephemeral containers. */
export function findContainer(pod: Pod, name: string): boolean {
  const spec = pod.spec;
  return [...(spec?.containers ?? []), ...(spec?.initContainers ?? []), ...(spec?.ephemeralContainers ?? [])].some((c) => c.name === name);
}

/** podcmd.AllContainerNames: `app, sidecar, dbg (ephem), init-a (init)` — containers, ephemeral, then init. */
export function allContainerNames(pod: Pod): string {
  return [
    ...(pod.spec?.containers ?? []).map((c) => c.name),
    ...(pod.spec?.ephemeralContainers ?? []).map((c) => `${c.name} (ephem)`),
    ...(pod.spec?.initContainers ?? []).map((c) => `${c.name} (init)`),
  ].join(', ');
}

/** The container chosen and what kubectl prints on stderr on the way; or kubectl's error (printed `error: ...`, exit 1). */
export type ContainerChoice = { container: string; notes: string[] } | { error: string };

/** kubectl prints its "Defaulted container" note when the pod has more than one container of any kind. */
const severalContainers = (pod: Pod) => (pod.spec?.containers?.length ?? 0) > 1 || (pod.spec?.initContainers?.length ?? 0) > 0 || (pod.spec?.ephemeralContainers?.length ?? 0) > 0;

const defaultedNote = (pod: Pod, container: string) => `Defaulted container ${goQuote(container)} out of: ${allContainerNames(pod)}`;

/**
 * `kubectl logs POD [-c C]` (logsForObjectWithClient): -c, else the default-container annotation
 * when it names a container of the pod (else a note that it does not), else the first container
 * with the note `Defaulted container "app" out of: app, sidecar, init-a (init)` when the pod has
 * other containers; a container the pod lacks is an error.
 */
export function chooseLogsContainer(pod: Pod, requested: string | undefined): ContainerChoice {
  const name = pod.metadata?.name ?? '';
  const notes: string[] = [];
  let container = requested ?? '';
  const annotated = pod.metadata?.annotations?.[DEFAULT_CONTAINER_ANNOTATION] ?? '';
  if (!container && annotated) {
    if (findContainer(pod, annotated)) container = annotated;
    else notes.push(`Default container name ${goQuote(annotated)} not found in pod ${name}`);
  }
  if (!container) {
    const first = pod.spec?.containers?.[0]?.name;
    // kubectl would index an empty list; the API server never stores such a pod.
    if (first === undefined) return { error: `pod ${pod.metadata?.namespace ?? 'default'}/${name} does not have any containers` };
    container = first;
    if (severalContainers(pod)) notes.push(defaultedNote(pod, container));
  }
  // logsForObjectWithClient's own check (kubectl 1.27–1.33 print no list of the containers here)
  if (!findContainer(pod, container)) return { error: `container ${container} is not valid for pod ${name}` };
  return { container, notes };
}

/**
 * `kubectl exec POD [-c C]` (ExecOptions.Run): a pod that Succeeded or Failed is refused; -c is
 * taken as it is (the API server answers for a container the pod lacks); without it
 * FindOrDefaultContainerByName (not quiet): the annotation's container when the pod has it
 * (silently otherwise), else the first container, with the same note as logs.
 */
export function chooseExecContainer(pod: Pod, requested: string | undefined): ContainerChoice {
  const name = pod.metadata?.name ?? '';
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return { error: `cannot exec into a container in a completed pod; current phase is ${phase}` };
  if (requested) return { container: requested, notes: [] };
  const first = pod.spec?.containers?.[0]?.name;
  if (first === undefined) return { error: `pod ${pod.metadata?.namespace ?? 'default'}/${name} does not have any containers` };
  const annotated = pod.metadata?.annotations?.[DEFAULT_CONTAINER_ANNOTATION] ?? '';
  if (annotated && findContainer(pod, annotated)) return { container: annotated, notes: [] };
  return { container: first, notes: severalContainers(pod) ? [defaultedNote(pod, first)] : [] };
}

// ---- podlab run --logs ---------------------------------------------------------------------------

/** Where a container of the pod is declared. A sidecar is an init container with restartPolicy Always. */
export type ContainerRole = 'init' | 'sidecar' | 'app' | 'ephemeral';

/** What `run --logs` has read so far for one pod. */
export interface LogFollowState {
  /** Per container name, the instance (containerID) whose log was started last. */
  started: ReadonlyMap<string, string>;
  /** The containers whose log is still being read (a follow stream or a read not finished). */
  open: ReadonlySet<string>;
}

/** One log to start reading: a running instance is followed, a finished one read once by its id. */
export interface LogStart {
  container: string;
  role: ContainerRole;
  /** The runtime's id, as the status shows it (`docker://…`). */
  containerID: string;
  running: boolean;
}

/** The instance a container status shows: the running or finished one, else the last finished one. */
export function currentInstance(s: ContainerStatus | undefined): { containerID: string; running: boolean } | undefined {
  if (!s) return undefined;
  if (s.state?.running && s.containerID) return { containerID: s.containerID, running: true };
  const finished = s.state?.terminated ?? (s.state?.waiting ? s.lastState?.terminated : undefined);
  const id = s.state?.terminated ? (finished?.containerID ?? s.containerID) : finished?.containerID;
  return finished && id ? { containerID: id, running: false } : undefined;
}

/** The pod's containers in the order they start (init containers, app containers, ephemeral), with their statuses. */
function containersInOrder(pod: Pod): { c: Pick<Container, 'name'>; role: ContainerRole; status?: ContainerStatus }[] {
  const byName = (list: ContainerStatus[] | undefined) => new Map((list ?? []).map((s) => [s.name, s]));
  const init = byName(pod.status?.initContainerStatuses);
  const app = byName(pod.status?.containerStatuses);
  const eph = byName(pod.status?.ephemeralContainerStatuses);
  return [
    ...(pod.spec?.initContainers ?? []).map((c) => ({ c, role: (c.restartPolicy === 'Always' ? 'sidecar' : 'init') as ContainerRole, status: init.get(c.name) })),
    ...(pod.spec?.containers ?? []).map((c) => ({ c, role: 'app' as const, status: app.get(c.name) })),
    ...(pod.spec?.ephemeralContainers ?? []).map((c) => ({ c, role: 'ephemeral' as const, status: eph.get(c.name) })),
  ];
}

/**
 * The logs `run --logs` starts reading now, in start order: every container whose current instance
 * (running, or finished) is not the one started last, once the previous instance's log has been
 * read to its end. An init container that runs to completion holds back the init and app
 * containers after it (not ephemeral ones) while its log is being read, so that its lines come
 * before theirs, as its run came before theirs.
 */
export function logsToStart(pod: Pod, state: LogFollowState): LogStart[] {
  const out: LogStart[] = [];
  let held = false;
  for (const { c, role, status } of containersInOrder(pod)) {
    if (held && role !== 'ephemeral') continue;
    const inst = currentInstance(status);
    const starting = !!inst && state.started.get(c.name) !== inst.containerID && !state.open.has(c.name);
    if (starting) out.push({ container: c.name, role, containerID: inst!.containerID, running: inst!.running });
    if (role === 'init' && (starting || state.open.has(c.name))) held = true;
  }
  return out;
}

/**
 * The containers whose log `run --logs` still waits for before it exits: those being read whose
 * instance has finished (their stream ends by itself), or every one being read when the pod is gone.
 */
export function logsToDrain(pod: Pod | undefined, state: LogFollowState): string[] {
  if (!pod) return [...state.open];
  const statuses = containersInOrder(pod);
  return [...state.open].filter((n) => !statuses.find((x) => x.c.name === n)?.status?.state?.running);
}

/** The label each log line starts with: the container's name, or POD/CONTAINER when several pods run. */
export function logLabel(pod: string, container: string, severalPods: boolean): string {
  return severalPods ? `${pod}/${container}` : container;
}

/** The width the labels are padded to: the longest label of every container of the pods. */
export function labelWidth(pods: readonly Pod[]): number {
  const several = pods.length > 1;
  let w = 0;
  for (const p of pods) {
    for (const { c } of containersInOrder(p)) w = Math.max(w, logLabel(p.metadata?.name ?? '', c.name, several).length);
  }
  return w;
}

/** One log line as `docker compose up` prints it: `wait-for-db | line`, the label padded to `width`. */
export function logLine(label: string, width: number, line: string): string {
  return `${label.padEnd(width)} | ${line}\n`;
}

/** One log line under --json: an object of its own on its line, among the Pod and Event objects. */
export function logJsonLine(namespace: string, pod: string, container: string, containerID: string, line: string): string {
  return `${JSON.stringify({ kind: 'Log', namespace, pod, container, containerID, line })}\n`;
}

// ---- podlab logs' options ------------------------------------------------------------------------

/** The flags of `podlab logs` that shape the request, as typed. */
export interface LogFlags {
  previous?: boolean;
  timestamps?: boolean;
  tail?: string;
  since?: string;
  sinceTime?: string;
  limitBytes?: string;
  /** `-c` given and a CONTAINER after the pod's name too. */
  containerTwice?: boolean;
  /** --all-containers, and the container named (by -c or after the pod's name), which it excludes. */
  allContainers?: boolean;
  container?: string;
  /** --max-log-requests as typed. */
  maxLogRequests?: string;
}

/** The log request's options (the lab client's LogQuery, with sinceTime as kubectl sends it: RFC 3339 in UTC, whole seconds). */
export type LogRequest = LogQuery & { previous: boolean; timestamps: boolean; maxLogRequests: number };

/** kubectl logs' --max-log-requests default (LogsOptions.MaxFollowConcurrency). */
export const MAX_FOLLOW_CONCURRENCY = 5;

/**
 * kubectl logs' reading of its flags (pflag's parsing, then LogsOptions.Complete and Validate):
 * `--tail` and `--limit-bytes` are int64s (`0x10` and `010` too), `--since` a Go duration rounded
 * to whole seconds (half away from zero: `400ms` is 0, sent as such, which the API server
 * refuses), `--since-time` an RFC 3339 time; `--tail=-1` and `--limit-bytes=0` and `--since=0s`
 * mean unset. The error is kubectl's text.
 */
export function logRequest(f: LogFlags): LogRequest | { error: string; validate?: true } {
  const out: LogRequest = { previous: !!f.previous, timestamps: !!f.timestamps, maxLogRequests: MAX_FOLLOW_CONCURRENCY };
  const int = (v: string | undefined, flag: string): number | { error: string } | undefined => {
    if (v === undefined) return undefined;
    const n = goParseInt(v, 0);
    return typeof n === 'number' ? n : { error: `invalid argument ${goQuote(v)} for "${flag}" flag: ${n.error}` };
  };
  const tail = int(f.tail, '--tail');
  if (typeof tail === 'object') return tail;
  const limit = int(f.limitBytes, '--limit-bytes');
  if (typeof limit === 'object') return limit;
  const max = int(f.maxLogRequests, '--max-log-requests');
  if (typeof max === 'object') return max;
  if (max !== undefined) out.maxLogRequests = max;
  let sinceMs = 0;
  if (f.since !== undefined) {
    const d = parseGoDuration(f.since);
    if (typeof d !== 'number') return { error: `invalid argument ${goQuote(f.since)} for "--since" flag: ${d.error}` };
    sinceMs = d;
  }
  if (f.sinceTime !== undefined && f.sinceTime !== '') {
    const t = parseGoRfc3339(f.sinceTime);
    if (typeof t !== 'number') return t;
    out.sinceTime = new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  }
  if (limit) out.limitBytes = limit;
  // time.Duration.Round(time.Second): halfway values away from zero
  if (sinceMs !== 0) out.sinceSeconds = Math.sign(sinceMs) * Math.round(Math.abs(sinceMs) / 1000) || 0;
  if (tail !== undefined && tail !== -1) out.tail = tail;
  // Validate's checks, in its order: kubectl makes them after it found the pod (a missing pod is said first).
  const invalid = (error: string) => ({ error, validate: true as const });
  if (out.sinceTime !== undefined && sinceMs !== 0) return invalid('at most one of `sinceTime` or `sinceSeconds` may be specified');
  if (f.allContainers && f.container) return invalid(`--all-containers=true should not be specified with container name ${f.container}`);
  if (f.containerTwice) return invalid('only one of -c or an inline [CONTAINER] arg is allowed');
  if (out.limitBytes !== undefined && out.limitBytes < 0) return invalid('--limit-bytes must be greater than 0');
  if (out.sinceSeconds !== undefined && out.sinceSeconds < 0) return invalid('--since must be greater than 0');
  if (out.tail !== undefined && out.tail < -1) return invalid('--tail must be greater than or equal to -1');
  return out;
}

// ---- podlab logs --all-containers, --prefix ------------------------------------------------------

/**
 * `kubectl logs --all-containers`: every container of the pod, init containers first (sidecars
 * among them), then app containers, then ephemeral ones (logsForObjectWithClient's order).
 * kubectl collects the requests in a Go map, so the order it prints them in changes from run to
 * run; podlab keeps the spec's, the order the containers start in.
 */
export function allLogContainers(pod: Pod): string[] {
  return containersInOrder(pod).map(({ c }) => c.name);
}

/** kubectl logs --prefix (addPrefixIfNeeded): the source of each line, `[pod/NAME/CONTAINER] `. */
export function logSourcePrefix(pod: string, container: string): string {
  return `[pod/${pod}/${container}] `;
}

/**
 * kubectl's prefixing writer over its line reads: each line (an empty one too) starts with the
 * prefix, and a last line without a newline gets it as well and stays without one.
 */
export function prefixLines(text: string, prefix: string): string {
  if (!prefix || text === '') return text;
  const lines = text.split('\n');
  const last = lines.pop()!;
  return lines.map((l) => `${prefix}${l}\n`).join('') + (last === '' ? '' : prefix + last);
}

/** kubectl's refusal to follow more logs at once than --max-log-requests allows (one stream is always followed). */
export function followLimitError(streams: number, max: number): string | undefined {
  return streams > 1 && streams > max
    ? `you are attempting to follow ${streams} log streams, but maximum allowed concurrency is ${max}, use --max-log-requests to increase the limit`
    : undefined;
}
