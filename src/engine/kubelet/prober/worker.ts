// The probe worker's state machine (upstream pkg/kubelet/prober/worker.go doProbe, with the event
// decisions of pkg/kubelet/prober/prober.go probe), as pure functions over data. One worker exists
// per container × probe type. A probe tick is two steps:
//
//   doProbe(state, input)              — everything before the handler runs: container-ID reset,
//                                        on-hold, not running, deletion, initial delay, started
//                                        gating. Says whether the handler must run now.
//   recordOutcome(state, input, out)   — everything after: events, error discarding, the
//                                        success/failure run counting, the verdict, on-hold.
//
// The caller (manager.ts) runs the handler between the two. A worker never steps again while its
// handler runs, so the pair behaves exactly like upstream's synchronous doProbe.
import type { ProbeType } from './defaults.js';
import { probeTypeString } from './defaults.js';

/** results.Result: the cached verdict per container ID that the kubelet reads. */
export type Result = 'Success' | 'Failure' | 'Unknown';

/** probe.Result: what one handler run says (pkg/probe/probe.go). */
export type ProbeStatus = 'success' | 'warning' | 'failure' | 'unknown';

/** One handler run, after pkg/kubelet/prober runProbeWithRetries. */
export interface ProbeOutcome {
  result: ProbeStatus;
  /** Raw output: exec stdout+stderr, the HTTP body or failure text, the dial error … */
  output: string;
  /** Set when the prober itself erred (not a failed probe): the run is discarded. */
  error?: string;
}

export interface WorkerState {
  /** The container ID the worker last saw ('' before the first). */
  containerId: string;
  /** The results-cache entry for containerId; undefined when there is none. */
  result?: Result;
  /**
   * The last probe result and how many times in a row it came. Not reset by a new container
   * (as upstream); lastResult starts at Success, the zero value of Go's results.Result.
   */
  lastResult: Result;
  resultRun: number;
  /** Skip probing until a new container ID appears. */
  onHold: boolean;
}

export const initialWorkerState = (): WorkerState => ({ containerId: '', lastResult: 'Success', resultRun: 0, onHold: false });

/** The value a worker's result takes for a new container (newWorker initialValue). */
export function initialValue(t: ProbeType): Result {
  return t === 'readiness' ? 'Failure' : t === 'liveness' ? 'Success' : 'Unknown';
}

/** The newest instance of the probed container, as the pod status shows it. */
export interface ContainerInstance {
  id: string;
  state: 'created' | 'running' | 'exited' | 'unknown';
  /** epoch ms (state.running.startedAt); 0 when unknown. */
  startedAt: number;
  /** The container status' `started` flag (startup probe succeeded, or none). */
  started: boolean;
}

export interface WorkerInput {
  now: number;
  probeType: ProbeType;
  /** The probe's counts (defaults applied). */
  probe: { initialDelaySeconds: number; successThreshold: number; failureThreshold: number };
  /** false until the kubelet has a status for the pod (GetPodStatus not ok). */
  podStatusKnown: boolean;
  /** status.phase; Succeeded/Failed end the worker. */
  podPhase?: string;
  /** metadata.deletionTimestamp is set. */
  deleting: boolean;
  restartPolicy: string;
  /** The probed container is a sidecar (init container with restartPolicy Always). */
  restartableInit: boolean;
  /**
   * kubeletRestartGracePeriod: the kubelet's start − 10 s. A running container that started before
   * it was adopted from a previous kubelet, and gets no initial result (ChangeContainerStatusOnKubeletRestart off, 1.35).
   */
  restartGraceBefore: number;
  /** undefined: the container has no status or no container ID yet. */
  instance?: ContainerInstance;
}

/** A change of the cached verdict (results manager Set that changed the value: an Update on its channel). */
export interface ResultUpdate {
  containerId: string;
  result: Result;
}

export interface ProbeEvent {
  type: 'Warning';
  reason: 'Unhealthy' | 'ProbeWarning';
  message: string;
}

/** Why a tick did not run the handler. */
export type SkipReason =
  | 'no pod status'
  | 'pod terminated'
  | 'no container'
  | 'on hold'
  | 'not running'
  | 'pod deleting'
  | 'initial delay'
  | 'not started'
  | 'startup done';

export interface DoProbeStep {
  state: WorkerState;
  /** false: the worker ends (and its result is removed). */
  keepGoing: boolean;
  /** true: run the handler now, then call recordOutcome. */
  run: boolean;
  skipped?: SkipReason;
  /** Verdict changes, in order. */
  updates: ResultUpdate[];
}

export interface RecordStep {
  state: WorkerState;
  /** The prober erred: the run was thrown away. */
  discarded: boolean;
  events: ProbeEvent[];
  updates: ResultUpdate[];
}

/** results manager Set: records the value and reports an update only when it changed. */
function set(s: WorkerState, result: Result, updates: ResultUpdate[]): WorkerState {
  if (s.result === result) return s;
  updates.push({ containerId: s.containerId, result });
  return { ...s, result };
}

/** Go's int32(time.Since(startedAt).Seconds()): truncation toward zero. */
const secondsSince = (now: number, t: number) => Math.trunc((now - t) / 1000);

/** Everything doProbe does before running the probe. */
export function doProbe(state: WorkerState, input: WorkerInput): DoProbeStep {
  const updates: ResultUpdate[] = [];
  const stop = (s: WorkerState, keepGoing: boolean, skipped: SkipReason): DoProbeStep => ({ state: s, keepGoing, run: false, skipped, updates });

  if (!input.podStatusKnown) return stop(state, true, 'no pod status');
  if (input.podPhase === 'Failed' || input.podPhase === 'Succeeded') return stop(state, false, 'pod terminated');
  const c = input.instance;
  if (!c || !c.id) return stop(state, true, 'no container');

  let s = state;
  if (s.containerId !== c.id) {
    // Remove(old) + Set(new, initialValue), unless the container outlived a kubelet restart.
    s = { ...s, containerId: c.id, result: undefined, onHold: false };
    const adopted = c.state === 'running' && c.startedAt > 0 && c.startedAt < input.restartGraceBefore;
    if (!adopted) s = set(s, initialValue(input.probeType), updates);
  }
  if (s.onHold) return stop(s, true, 'on hold');

  if (c.state !== 'running') {
    s = set(s, 'Failure', updates);
    // Abort if the container will not be restarted.
    const keepGoing = c.state !== 'exited' || input.restartPolicy !== 'Never' || input.restartableInit;
    return stop(s, keepGoing, 'not running');
  }

  if (input.deleting && (input.probeType === 'liveness' || input.probeType === 'startup')) {
    // A last result that keeps the shutdown quiet; then the worker stops.
    s = set(s, 'Success', updates);
    return stop(s, false, 'pod deleting');
  }

  if (secondsSince(input.now, c.startedAt) < input.probe.initialDelaySeconds) return stop(s, true, 'initial delay');

  if (c.started) {
    // Startup probing stops once the container has started (the worker stays for a restart).
    if (input.probeType === 'startup') return stop(s, true, 'startup done');
  } else if (input.probeType !== 'startup') {
    // Liveness and readiness wait until the container has started.
    return stop(s, true, 'not started');
  }
  return { state: s, keepGoing: true, run: true, updates };
}

/** prober.probe's verdict and event for one outcome; null = an error (the run is discarded). */
export function outcomeEvent(t: ProbeType, o: ProbeOutcome): { result: Result | null; event?: ProbeEvent } {
  const T = probeTypeString(t);
  if (o.error !== undefined) {
    return { result: null, event: { type: 'Warning', reason: 'Unhealthy', message: `${T} probe errored and resulted in ${o.result} state: ${o.error}` } };
  }
  switch (o.result) {
    case 'success':
      return { result: 'Success' };
    case 'warning':
      return { result: 'Success', event: { type: 'Warning', reason: 'ProbeWarning', message: `${T} probe warning: ${o.output}` } };
    case 'failure':
      return { result: 'Failure', event: { type: 'Warning', reason: 'Unhealthy', message: `${T} probe failed: ${o.output}` } };
    default:
      // Unknown without an error: a failure, without an event.
      return { result: 'Failure' };
  }
}

/** Everything doProbe does after the probe ran. */
export function recordOutcome(state: WorkerState, input: Pick<WorkerInput, 'probeType' | 'probe'>, outcome: ProbeOutcome): RecordStep {
  const updates: ResultUpdate[] = [];
  const { result, event } = outcomeEvent(input.probeType, outcome);
  const events = event ? [event] : [];
  if (result === null) return { state, discarded: true, events, updates };

  let s: WorkerState = countRun(state, result);
  const below =
    (result === 'Failure' && s.resultRun < input.probe.failureThreshold) || (result === 'Success' && s.resultRun < input.probe.successThreshold);
  if (below) return { state: s, discarded: false, events, updates };

  s = set(s, result, updates);
  if ((input.probeType === 'liveness' && result === 'Failure') || input.probeType === 'startup') {
    // A liveness failure means a restart, and a startup verdict is final for this container:
    // stop probing until a new container ID.
    s = { ...s, onHold: true, resultRun: 0 };
  }
  return { state: s, discarded: false, events, updates };
}

/** The run counting: the same result again extends the run, another one starts a new run. */
function countRun(state: WorkerState, result: Result): WorkerState {
  return state.lastResult === result ? { ...state, resultRun: state.resultRun + 1 } : { ...state, lastResult: result, resultRun: 1 };
}
