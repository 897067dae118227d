// The engine's public face: what the `podlab` CLI and the VS Code extension use. Neither shell
// reaches past this module into the store, scheduler or kubelet.
import type { ConfigMap, Pod, Event as KEvent, Namespace, Node, Secret } from 'kubernetes-types/core/v1';
import type { Disposable, PullProgress } from '../runtime/cri.js';

export type { ConfigMap, Pod, KEvent, Namespace, Node, Secret };

export type WatchEvent =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; kind: 'Pod'; object: Pod }
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; kind: 'Event'; object: KEvent }
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; kind: 'Node'; object: Node }
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; kind: 'ConfigMap'; object: ConfigMap }
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; kind: 'Secret'; object: Secret }
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; kind: 'Namespace'; object: Namespace };

/** The API objects a pod consumes that Pod Lab stores (as files under `<stateDir>/objects`). */
export type ConfigObjectKind = 'ConfigMap' | 'Secret';
export type ConfigObject = ConfigMap | Secret;
export type ConfigObjectOf<K extends ConfigObjectKind> = K extends 'ConfigMap' ? ConfigMap : Secret;

/** What `kubectl apply` reports per object: `configmap/x created|configured|unchanged`. */
export interface ApplyResult<O extends ConfigObject = ConfigObject> {
  outcome: 'created' | 'configured' | 'unchanged';
  /** The stored object (uid, resourceVersion, creationTimestamp; a Secret's stringData merged into data). */
  object: O;
}

export interface EngineSettings {
  /** Image of the sandbox (pause) container. Default registry.k8s.io/pause:3.10. */
  sandboxImage: string;
  /** Crash-loop back-off: initial delay and cap, milliseconds (kubelet: 10 s and 300 s). */
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** Virtual nodes; empty means one node sized like the Docker host. */
  nodes: Node[];
  /** Lab feature: pause before each init container until `continueStep`. */
  stepMode: boolean;
  /** Safety-net relist period (the runtime's event stream drives normal updates). */
  relistIntervalMs: number;
  /**
   * The kubelet's syncFrequency: a pod with nothing new is resynced this often (mounted ConfigMap,
   * Secret and downward API payloads refresh then). Default 60 000 (1 m, the kubelet's default).
   */
  resyncIntervalMs?: number;
  /** Where pod directories (termination-message files, events) live. */
  stateDir: string;
}

/** One run of a container: an attempt, as the runtime keeps it (the kubelet keeps the previous one too). */
export interface ContainerAttempt {
  containerName: string;
  attempt: number;
  id: string;
  state: 'created' | 'running' | 'exited' | 'unknown';
  exitCode?: number;
  reason?: string;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
}

/** Lab view of one pod beyond its v1 status: every attempt of every container, and the kubelet's timers. */
export interface PodDebugInfo {
  uid: string;
  sandboxes: { id: string; attempt: number; state: 'ready' | 'notready'; createdAt: number; ip: string }[];
  attempts: ContainerAttempt[];
  /** Crash-loop back-off per container name: when the next restart may happen (epoch ms). */
  backoff: Record<string, { until: number; delayMs: number }>;
  /** Step mode: the init container the kubelet is waiting to start, if any. */
  stepWaitingFor?: string;
  /** Step mode: each wait it held, oldest first (epoch ms; `until` when Continue let it go). */
  stepWaits?: StepWait[];
  /** The prober's recent runs per container and probe type (oldest first, bounded). */
  probes?: ProbeHistoryView[];
  /** Lifecycle hook runs (postStart, preStop), oldest first. */
  hooks?: HookRun[];
}

/** One init container held by step mode: from when, and until Continue. */
export interface StepWait {
  container: string;
  from: number;
  until?: number;
}

/** One probe run as the prober recorded it. */
export interface ProbeRunView {
  /** epoch ms */
  time: number;
  durationMs: number;
  containerId: string;
  result: 'success' | 'warning' | 'failure' | 'unknown';
  output: string;
  error?: string;
  /** The worker's result after this run, when it changed (threshold reached). */
  verdict?: string;
}

export interface ProbeHistoryView {
  containerName: string;
  probeType: 'liveness' | 'readiness' | 'startup';
  runs: ProbeRunView[];
}

/** One run of a lifecycle hook. */
export interface HookRun {
  containerName: string;
  containerId: string;
  hook: 'postStart' | 'preStop';
  /** epoch ms */
  startedAt: number;
  finishedAt?: number;
  /** The handler's failure message; absent on success. `timedOut` when the grace period ran out first. */
  error?: string;
  timedOut?: boolean;
}

export interface EngineApi {
  readonly settings: EngineSettings;
  /** Defaults and creates the pod (validation is the caller's job, through src/validation). */
  createPod(pod: Pod, opts?: { stepMode?: boolean }): Promise<Pod>;
  /** Graceful deletion (Killing, stop with max(grace, 2) s, sandbox stop, removal). Resolves when the pod is gone. */
  deletePod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<void>;
  getPod(namespace: string, name: string): Pod | undefined;
  listPods(): Pod[];
  listEvents(filter?: { uid?: string }): KEvent[];
  listNodes(): Node[];
  watch(listener: (e: WatchEvent) => void): Disposable;
  /**
   * Told when the connection to the API is lost (why; the client retries), when the reason changes,
   * and when it works again. The clients of a lab server and of a kubeconfig context have it; the
   * engine in-process does not.
   */
  onConnection?(listener: (problem: Error | undefined) => void): Disposable;
  /** Why the connection is lost now (undefined while it works), for a listener that comes late. */
  readonly connectionProblem?: Error;

  /**
   * ConfigMaps and Secrets (`kubectl apply` semantics): creates the object, or replaces the data,
   * binaryData, labels, annotations, immutable (and a Secret's data) of the existing one keeping
   * its uid and creationTimestamp, with a new resourceVersion; `unchanged` when nothing differs.
   * Namespace defaults to `default`, a Secret's `stringData` is merged into `data` (base64) and its
   * `type` defaults to `Opaque`. Throws an `InvalidError` (the API server's update validation:
   * `The ConfigMap "x" is invalid: data: Forbidden: field is immutable when \`immutable\` is set`).
   */
  applyObject<O extends ConfigObject>(obj: O): Promise<ApplyResult<O>>;
  getObject<K extends ConfigObjectKind>(kind: K, namespace: string, name: string): ConfigObjectOf<K> | undefined;
  /** Every object of the kind, all namespaces, sorted by namespace then name. */
  listObjects<K extends ConfigObjectKind>(kind: K): ConfigObjectOf<K>[];
  /** Throws a `NotFoundError` (`configmaps "x" not found`, `secrets "x" not found`); returns the deleted object. */
  deleteObject<K extends ConfigObjectKind>(kind: K, namespace: string, name: string): Promise<ConfigObjectOf<K>>;

  logs(namespace: string, name: string, container: string, opts?: { previous?: boolean; tail?: number; timestamps?: boolean }): Promise<string[]>;
  /** Follows the container's log (from `tail` lines back); `onEnd` when the container stops. */
  followLogs(namespace: string, name: string, container: string, onLine: (line: string, unterminated?: boolean) => void, opts?: { previous?: boolean; tail?: number; timestamps?: boolean; onEnd?: () => void }): Promise<Disposable>;
  debugInfo(namespace: string, name: string): Promise<PodDebugInfo | undefined>;
  /**
   * The pod's PodDebugInfo now, then again whenever the kubelet changes it (a container created,
   * started or exited, a back-off timer, step mode's wait, a probe or hook run), coalesced and
   * without repeats; `undefined` while no pod of that name exists. Follows a new pod of the same
   * name. The lab server serves it as a watch of `poddebugs`.
   */
  watchDebug(namespace: string, name: string, listener: (info: PodDebugInfo | undefined) => void): Disposable;
  /** Logs of one attempt by container id (for the attempt selector). */
  /** `timestamps`: each line begins with the runtime's RFC 3339 timestamp (kubectl logs --timestamps). */
  attemptLogs(containerId: string, tail?: number, timestamps?: boolean): Promise<string[]>;
  exec(namespace: string, name: string, container: string, cmd: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }>;

  /** Lab features. */
  continueStep(namespace: string, name: string): void;
  restartNow(namespace: string, name: string, container: string): void;

  onPullProgress(listener: (p: PullProgress & { pod: string }) => void): Disposable;
  /** Step mode: told when a pod's kubelet holds an init container until continueStep. */
  onStepWaiting(listener: (podKey: string, container: string) => void): Disposable;
  /** Stops workers and watches; leaves containers as they are (a later engine adopts them). */
  close(): Promise<void>;
}
