// The one message protocol between the extension host (src/extension/panel) and the lifecycle
// panel's webview (webview/). Both sides import this module; no message is built from ad-hoc
// strings. Everything here is plain data plus a few pure helpers (no `vscode`, no DOM).
//
// Flow:
//   webview → host  {type:'ready'}                     (after every load: first open, or shown again)
//   host → webview  {type:'snapshot', seq, model}      (full view model)
//   host → webview  {type:'patch', seq, baseSeq, changes}   (only the sections that changed)
//   webview → host  {type:'rendered', seq, earlier?}    (acknowledges the updates a frame shows, once painted)
//   webview → host  {type:'resync', haveSeq}            (a patch did not apply: send a snapshot)
//   webview → host  {type:'request', id, body}          → host → webview {type:'reply', id, ok, ...}
//   host → webview  {type:'pods', current, pods}        (the pod switcher: the lab's pods, which one is shown)
//   webview → host  {type:'request', id, body:{kind:'followLogs', …}} → reply {kind:'followLogs', stream}
//   host → webview  {type:'logChunk', stream, lines, ended?}   (a followed log: batched lines; `ended` once)
//   webview → host  {type:'stopLogs', stream}           (the webview no longer shows that stream)
import type { ContainerAttempt } from '../engine/api.js';

// ---------------------------------------------------------------------------------------------
// The view model: what the panel shows. Times are epoch milliseconds; "open" ends are undefined
// and drawn up to the webview's clock (`PanelModel.now` plus the time elapsed since receipt).

export type ContainerKind = 'init' | 'sidecar' | 'app';

export interface HeaderView {
  namespace: string;
  name: string;
  uid: string;
  /** kubectl STATUS column (Init:CrashLoopBackOff, Running, Terminating, …). */
  status: string;
  phase: string;
  /** kubectl READY column, e.g. "1/2". */
  ready: string;
  restarts: number;
  /** When the most recently restarted container last finished (for "3 (12s ago)"). */
  lastRestartAt?: number;
  node: string;
  podIP: string;
  hostIP: string;
  qosClass: string;
  restartPolicy: string;
  createdAt?: number;
  deletingAt?: number;
  /** The pod no longer exists in the store (deleted). The last known state stays shown. */
  gone: boolean;
  /** When its deletion was seen: the age stops there. */
  goneAt?: number;
  /** No such pod was seen at all (never created, or deleted before the panel opened): nothing to show but that. */
  missing?: boolean;
  /** The pod is a kubeconfig context's (a real cluster), not the lab's: the panel words what it says for it. */
  cluster?: boolean;
  /** The API client's connection is lost (why; it retries): the panel shows the pod as last seen. */
  connectionLost?: string;
  /** What the lost connection was to: the lab server, or a kubeconfig context's cluster. */
  connectionTo?: 'lab server' | 'cluster';
  /** status.reason / status.message (e.g. Evicted), when set. */
  reason?: string;
  message?: string;
}

export interface ConditionView {
  type: string;
  /** "True" | "False" | "Unknown", or "" when the condition is not (yet) present. */
  status: string;
  reason: string;
  message: string;
  lastTransitionAt?: number;
}

export type StateView =
  | { kind: 'none' }
  | { kind: 'waiting'; reason: string; message: string }
  | { kind: 'running'; startedAt?: number }
  | {
      kind: 'terminated';
      reason: string;
      message: string;
      exitCode: number;
      signal?: number;
      startedAt?: number;
      finishedAt?: number;
      containerId: string;
    };

export interface EnvView {
  name: string;
  /** The value as the container sees it ($(VAR) references expanded), when it can be known. */
  value?: string;
  /** Where the value comes from when it is not a literal (kubectl describe's wording). */
  source?: string;
  /** From a Secret: shown masked until the user asks. */
  secret?: boolean;
  /** Why the kubelet cannot resolve it (e.g. `configmap "x" not found`). */
  error?: string;
}

/** One run of a container as the panel shows it: the engine's ContainerAttempt, keyed by container id. */
export type AttemptView = Omit<ContainerAttempt, 'containerName' | 'id'> & {
  containerId: string;
  /** The runtime no longer has this instance (the kubelet keeps only the previous one): seen earlier, logs gone. */
  removed?: boolean;
};

export interface ContainerView {
  name: string;
  kind: ContainerKind;
  /** Position in its list (initContainers or containers). */
  index: number;
  image: string;
  imageID: string;
  containerID: string;
  state: StateView;
  lastState: StateView;
  restartCount: number;
  started?: boolean;
  ready: boolean;
  command: string[];
  args: string[];
  env: EnvView[];
  envFrom: string[];
  workingDir: string;
  /** Every attempt the runtime still has, oldest first. */
  attempts: AttemptView[];
  /** Crash-loop back-off: the next restart may happen at `until`. */
  backoff?: { until: number; delayMs: number };
  /** A regular init container whose latest run failed (exit ≠ 0): the debugging view opens. */
  failed: boolean;
  /** Step mode (lab feature): the kubelet waits for Continue before starting this init container. */
  stepWaiting: boolean;
  /** The container's probes: configuration as kubectl describe prints it and the prober's latest results. */
  probes: ProbeView[];
  /** Its lifecycle hooks (postStart, preStop): the handler and the latest run the engine recorded. */
  hooks: HookView[];
}

export interface HookView {
  hook: 'postStart' | 'preStop';
  /** The handler in kubectl describe's probe wording: `exec [sh -c …]`, `http-get http://:8080/`, `sleep 2s`. */
  handler: string;
  /** The latest run (lab debug info only): when it started, how long it took, and its failure if any. */
  last?: { at: number; durationMs?: number; error?: string };
}

export type ProbeType = 'liveness' | 'readiness' | 'startup';

export interface ProbeView {
  type: 'Liveness' | 'Readiness' | 'Startup';
  /** kubectl describe's line, e.g. `http-get http://:8080/ delay=0s timeout=1s period=10s #success=1 #failure=3`. */
  config: string;
  /** Runs the panel has seen (the prober remembers the last 100; the panel keeps what it saw), and how many of them failed. */
  runs: number;
  failures: number;
  /** The latest run: its result (success | warning | failure | unknown), output (or the prober's error), start and duration. */
  last?: { at: number; result: string; output: string; durationMs: number; error?: boolean };
  /**
   * The latest result as the worker counts it (warning counts as Success, unknown as Failure, a
   * prober error not at all), how many runs of the current container gave it in a row, and the
   * threshold (successThreshold / failureThreshold) at which it becomes the verdict.
   */
  streak?: { result: 'Success' | 'Failure'; count: number; threshold: number };
  /** The worker's current verdict, when it has one (Success / Failure). */
  verdict?: string;
  /** What the verdict sets in the container's status: `started` (startup probe), `ready` (readiness probe). */
  flag?: { name: 'started' | 'ready'; value: boolean };
}

/** A mark on a container's lane: a probe run (or several, aggregated), a verdict change or a lifecycle hook run. */
export interface LaneMark {
  at: number;
  /** Hooks: when the handler returned (undefined: still running). Aggregated probe runs: the last run's start. */
  end?: number;
  kind: 'probe-pass' | 'probe-fail' | 'verdict' | 'hook' | 'hook-fail';
  /** Probe runs and verdicts: which probe (each has its own strip on the lane). */
  probe?: ProbeType;
  /** Verdict marks: the new verdict (Success / Failure). */
  verdict?: string;
  label: string;
  detail: string;
  /** Aggregated probe runs: how many runs this mark stands for, and how many of them failed (absent: one run). */
  runs?: number;
  failed?: number;
}

/** A transition of the pod's Ready condition (the first entry is the state first seen). */
export interface ReadyMark {
  at: number;
  /** "True" | "False" | "Unknown" */
  status: string;
  reason: string;
  message: string;
}

/**
 * Something that stops the pod from starting and that a learner must fix: a ConfigMap or Secret
 * that does not exist (CreateContainerConfigError, FailedMount), a key missing from one, or
 * another volume set-up failure. Computed on the host from the pod's status, spec and events.
 */
export interface NoticeView {
  key: string;
  kind: 'container-config' | 'mount' | 'image-pull' | 'sandbox' | 'simulated';
  /** One line saying what is wrong, e.g. `Container app cannot start: configmap "x" not found`. */
  title: string;
  /** The kubelet's own words (container waiting message, or the FailedMount event's message), verbatim. */
  message: string;
  /** The object the kubelet could not find, when the message names one. */
  missing?: { kind: 'ConfigMap' | 'Secret'; name: string; namespace: string; key?: string };
  container?: string;
  volume?: string;
  /** Where the pod refers to the missing object: `env MODE (key mode)`, `envFrom`, `volume cfg` … */
  references: string[];
  /** What the kubelet does meanwhile and how it ends. */
  explain: string;
  /** The event behind the notice (FailedMount, Failed): how often and when last. */
  event?: { reason: string; count: number; lastAt?: number };
}

export interface EventView {
  /** Stable key (metadata.uid or name). */
  key: string;
  type: string;
  reason: string;
  message: string;
  count: number;
  firstAt?: number;
  lastAt?: number;
  /** kubectl's "From" column: source.component (and host), or reportingController. */
  source: string;
  /** involvedObject.fieldPath, e.g. spec.initContainers{init-fail}. */
  fieldPath: string;
}

export type BarOutcome = 'running' | 'succeeded' | 'failed' | 'created' | 'unknown';

export interface TimelineBar {
  /** Unique within the timeline (container id, sandbox id, or a derived key). */
  key: string;
  /** waiting: the kubelet cannot create the container (CreateContainerConfigError), drawn from its first try. */
  kind: 'run' | 'backoff' | 'stepwait' | 'waiting';
  label: string;
  start: number;
  /** undefined: still going on (drawn up to "now"). */
  end?: number;
  outcome: BarOutcome;
  attempt?: number;
  exitCode?: number;
  reason?: string;
}

export interface TimelineLane {
  key: string;
  label: string;
  kind: 'sandbox' | ContainerKind;
  bars: TimelineBar[];
  /** Probe runs, readiness/liveness/startup verdict changes and hook runs on this container. */
  marks?: LaneMark[];
  /** The probes this container has, in the order their strips are drawn (startup, liveness, readiness). */
  probes?: ProbeType[];
}

export interface TimelineMark {
  at: number;
  label: string;
  detail: string;
  kind: 'phase' | 'status' | 'Normal' | 'Warning';
}

export interface TimelineView {
  start: number;
  /** Last time known from the data (the webview extends the axis to its clock while the pod lives). */
  end: number;
  lanes: TimelineLane[];
  /** Phase changes and kubectl STATUS changes as the host observed them. */
  phases: TimelineMark[];
  events: TimelineMark[];
  /** The pod's Ready condition over time, as the host saw it change (absent before it is first set). */
  ready?: ReadyMark[];
}

export interface DebugView {
  /** Step mode (lab feature): which init container the kubelet waits to start, if any. */
  stepWaitingFor?: string;
  /** Whether debug information (attempts, back-off) is available from the engine. */
  available: boolean;
}

export interface PanelModel {
  /** Host clock when the model was built (epoch ms). */
  now: number;
  header: HeaderView;
  conditions: ConditionView[];
  containers: ContainerView[];
  events: EventView[];
  timeline: TimelineView;
  debug: DebugView;
  /** Problems that keep the pod from starting (missing ConfigMaps and Secrets, failed mounts). */
  notices: NoticeView[];
}

export type PanelSection = Exclude<keyof PanelModel, 'now'>;
export const PANEL_SECTIONS: readonly PanelSection[] = ['header', 'conditions', 'containers', 'events', 'timeline', 'debug', 'notices'];

/** The sections that differ (JSON-wise) between two models; `now` always travels. */
export type PanelPatch = Partial<Omit<PanelModel, 'now'>> & { now: number };

// ---------------------------------------------------------------------------------------------
// Requests (webview → host) and their replies.

/** Which run of a container: the current one, the previous one (kubectl logs --previous), or one by container id. */
export type AttemptRef = { which: 'current' } | { which: 'previous' } | { which: 'id'; containerId: string };

/** The instances a log can be followed on (kubectl logs -f, with or without --previous); others are one-shot reads by id. */
export type FollowAttemptRef = Extract<AttemptRef, { which: 'current' | 'previous' }>;

export type RequestBody =
  | { kind: 'logs'; container: string; attempt: AttemptRef; tail?: number; timestamps?: boolean }
  /** Follows the container's log (kubectl logs -f --tail=N [--timestamps]); the reply names the stream its `logChunk`s carry. */
  | { kind: 'followLogs'; container: string; attempt: FollowAttemptRef; timestamps: boolean; tail: number }
  | { kind: 'restartNow'; container: string }
  | { kind: 'continueStep' }
  | { kind: 'openShell'; container: string }
  | { kind: 'switchPod'; namespace: string; name: string };

export type RequestKind = RequestBody['kind'];

export interface ReplyBodies {
  logs: { kind: 'logs'; container: string; attempt: AttemptRef; lines: string[] };
  followLogs: { kind: 'followLogs'; container: string; attempt: FollowAttemptRef; stream: number };
  restartNow: { kind: 'restartNow' };
  continueStep: { kind: 'continueStep' };
  openShell: { kind: 'openShell' };
  switchPod: { kind: 'switchPod' };
}
export type ReplyBody = ReplyBodies[RequestKind];

export type ReplyMessage =
  | { type: 'reply'; id: number; ok: true; body: ReplyBody }
  | { type: 'reply'; id: number; ok: false; error: string };

// ---------------------------------------------------------------------------------------------
// Messages per direction.

/** One entry of the panel's pod switcher. */
export interface PodChoice {
  namespace: string;
  name: string;
  /** kubectl's STATUS column. */
  status: string;
}

export type HostToWebview =
  | { type: 'snapshot'; seq: number; model: PanelModel }
  | { type: 'patch'; seq: number; baseSeq: number; changes: PanelPatch }
  | { type: 'pods'; current: { namespace: string; name: string }; pods: PodChoice[] }
  | LogChunkMessage
  | ReplyMessage;

/**
 * Lines of a followed log (a `followLogs` stream), batched: at most one message per stream about
 * every 50 ms. `ended`: the stream is over (the container finished); no message follows it.
 */
export interface LogChunkMessage {
  type: 'logChunk';
  stream: number;
  lines: string[];
  ended?: boolean;
}

/** An update a painted frame shows, with its times in the webview (see `rendered`). */
export interface RenderedUpdate {
  seq: number;
  webviewMs?: number;
  renderMs?: number;
}

export type WebviewToHost =
  | { type: 'ready'; haveSeq?: number }
  /**
   * One message for the updates one frame shows: the last (`seq` and its times), and the ones
   * before it in `earlier`, oldest first (each message to the host costs the workbench a reply
   * through its socket, at the moments the next updates come).
   * `webviewMs`: from the update's arrival in the webview to its acknowledgement;
   * `renderMs`: the part of it spent working on it: applying the patch, and rendering the frame's
   *   sections (shared with the other updates of that frame);
   * `paintedAt`: when the frame showing them had been painted, on the webview's clock (epoch ms,
   * fractional); absent when no frame came within 50 ms (a hidden or throttled panel).
   */
  | ({ type: 'rendered'; paintedAt?: number; earlier?: RenderedUpdate[] } & RenderedUpdate)
  | { type: 'resync'; haveSeq?: number }
  | { type: 'request'; id: number; body: RequestBody }
  | { type: 'stopLogs'; stream: number };

/** What the webview keeps with getState/setState so it survives hide/show without retainContextWhenHidden. */
export interface WebviewState {
  version: typeof PROTOCOL_VERSION;
  seq: number;
  model?: PanelModel;
  /** The webview's Date.now() when `model` arrived: the display clock is model.now + elapsed since then. */
  receivedAt?: number;
  ui: {
    logsContainer?: string;
    /** Key of AttemptRef: "current", "previous" or a container id. */
    logsAttempt?: string;
    /** Time range of the timeline: the whole run, the first 5 seconds, or the last 60 seconds. */
    timelineZoom?: 'all' | 'first5s' | 'last60s';
    /** <details> the user opened ("key") or closed ("!key"). */
    open?: string[];
    /** Logs pane: lines carry the runtime's timestamps (kubectl logs --timestamps). Default off. */
    logsTimestamps?: boolean;
    /** Logs pane: long lines wrap. Default on. */
    logsWrap?: boolean;
  };
}

export const PROTOCOL_VERSION = 2 as const;

// ---------------------------------------------------------------------------------------------
// Pure helpers shared by both sides.

/** The sections of `next` that differ from `prev`; undefined when nothing but the clock changed. */
export function diffModel(prev: PanelModel, next: PanelModel): PanelPatch | undefined {
  const changes: PanelPatch = { now: next.now };
  let any = false;
  for (const s of PANEL_SECTIONS) {
    if (JSON.stringify(prev[s]) !== JSON.stringify(next[s])) {
      (changes as Record<string, unknown>)[s] = next[s];
      any = true;
    }
  }
  return any ? changes : undefined;
}

/** Applies a patch from `diffModel` to the model it was computed against. */
export function applyPatch(prev: PanelModel, patch: PanelPatch): PanelModel {
  return { ...prev, ...patch };
}

/** The sections a patch replaces. */
export function patchedSections(patch: PanelPatch): PanelSection[] {
  return PANEL_SECTIONS.filter((s) => patch[s] !== undefined);
}

export function attemptKey(ref: AttemptRef): string {
  return ref.which === 'id' ? ref.containerId : ref.which;
}

export function attemptFromKey(key: string | undefined): AttemptRef {
  if (key === undefined || key === 'current') return { which: 'current' };
  if (key === 'previous') return { which: 'previous' };
  return { which: 'id', containerId: key };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** A stream id: the host numbers streams 1, 2, 3 … */
function isStreamId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
}

/** A line count (tail): a whole number, not negative. */
function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isRenderedUpdate(u: unknown): u is RenderedUpdate {
  return isObject(u) && typeof u.seq === 'number' && (u.webviewMs === undefined || typeof u.webviewMs === 'number') && (u.renderMs === undefined || typeof u.renderMs === 'number');
}

/** Narrowing guard for messages arriving at the host (they cross a trust boundary). */
export function isWebviewToHost(m: unknown): m is WebviewToHost {
  if (!isObject(m) || typeof m.type !== 'string') return false;
  switch (m.type) {
    case 'ready':
    case 'resync':
      return m.haveSeq === undefined || typeof m.haveSeq === 'number';
    case 'rendered':
      return isRenderedUpdate(m) && (m.paintedAt === undefined || typeof m.paintedAt === 'number') && (m.earlier === undefined || (Array.isArray(m.earlier) && m.earlier.every(isRenderedUpdate)));
    case 'stopLogs':
      return isStreamId(m.stream);
    case 'request': {
      if (typeof m.id !== 'number' || !isObject(m.body)) return false;
      const b = m.body;
      switch (b.kind) {
        case 'logs':
          return (
            typeof b.container === 'string' &&
            isObject(b.attempt) &&
            typeof b.attempt.which === 'string' &&
            (b.tail === undefined || isCount(b.tail)) &&
            (b.timestamps === undefined || typeof b.timestamps === 'boolean')
          );
        case 'followLogs':
          return (
            typeof b.container === 'string' &&
            isObject(b.attempt) &&
            (b.attempt.which === 'current' || b.attempt.which === 'previous') &&
            typeof b.timestamps === 'boolean' &&
            isCount(b.tail)
          );
        case 'restartNow':
        case 'openShell':
          return typeof b.container === 'string';
        case 'continueStep':
          return true;
        case 'switchPod':
          return typeof b.namespace === 'string' && typeof b.name === 'string';
        default:
          return false;
      }
    }
    default:
      return false;
  }
}

/** Narrowing guard for messages arriving at the webview. */
export function isHostToWebview(m: unknown): m is HostToWebview {
  if (!isObject(m)) return false;
  switch (m.type) {
    case 'snapshot':
      return typeof m.seq === 'number' && isObject(m.model);
    case 'patch':
      return typeof m.seq === 'number' && typeof m.baseSeq === 'number' && isObject(m.changes);
    case 'reply':
      return typeof m.id === 'number' && typeof m.ok === 'boolean';
    case 'pods':
      return isObject(m.current) && Array.isArray(m.pods);
    case 'logChunk':
      return (
        isStreamId(m.stream) &&
        Array.isArray(m.lines) &&
        m.lines.every((l) => typeof l === 'string') &&
        (m.ended === undefined || typeof m.ended === 'boolean')
      );
    default:
      return false;
  }
}
