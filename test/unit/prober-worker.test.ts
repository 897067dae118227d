// The probe worker's state machine (pkg/kubelet/prober/worker.go doProbe + prober.go probe): each
// rule of the kubelet behaviour spec §6 as one case, comparing the whole step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  doProbe,
  initialWorkerState,
  recordOutcome,
  type ContainerInstance,
  type DoProbeStep,
  type ProbeOutcome,
  type RecordStep,
  type WorkerInput,
  type WorkerState,
} from '../../src/engine/kubelet/prober/worker.js';

const T0 = Date.UTC(2024, 0, 1);
const sec = 1000;

const running = (id: string, over: Partial<ContainerInstance> = {}): ContainerInstance => ({ id, state: 'running', startedAt: T0, started: true, ...over });

const input = (over: Partial<WorkerInput> = {}): WorkerInput => ({
  now: T0 + 60 * sec,
  probeType: 'liveness',
  probe: { initialDelaySeconds: 0, successThreshold: 1, failureThreshold: 3 },
  podStatusKnown: true,
  deleting: false,
  restartPolicy: 'Always',
  restartableInit: false,
  restartGraceBefore: T0 - 3600 * sec,
  instance: running('c1'),
  ...over,
});

const st = (over: Partial<WorkerState> = {}): WorkerState => ({ ...initialWorkerState(), ...over });
/** A worker that already saw container c1 (its initial result set). */
const seen = (result: WorkerState['result'], over: Partial<WorkerState> = {}) => st({ containerId: 'c1', result, ...over });

const doProbeCases: { name: string; state: WorkerState; input: WorkerInput; want: DoProbeStep }[] = [
  {
    name: 'without a pod status the worker waits and changes nothing',
    state: st(),
    input: input({ podStatusKnown: false }),
    want: { state: st(), keepGoing: true, run: false, skipped: 'no pod status', updates: [] },
  },
  {
    name: 'a pod in a terminal phase ends the worker',
    state: seen('Success'),
    input: input({ podPhase: 'Succeeded' }),
    want: { state: seen('Success'), keepGoing: false, run: false, skipped: 'pod terminated', updates: [] },
  },
  {
    name: 'a container without an ID yet is waited for',
    state: st(),
    input: input({ instance: undefined }),
    want: { state: st(), keepGoing: true, run: false, skipped: 'no container', updates: [] },
  },
  {
    name: 'a new readiness container starts as Failure and is probed once started',
    state: st(),
    input: input({ probeType: 'readiness' }),
    want: { state: seen('Failure'), keepGoing: true, run: true, updates: [{ containerId: 'c1', result: 'Failure' }] },
  },
  {
    name: 'a new liveness container starts as Success',
    state: st(),
    input: input({ probeType: 'liveness' }),
    want: { state: seen('Success'), keepGoing: true, run: true, updates: [{ containerId: 'c1', result: 'Success' }] },
  },
  {
    name: 'a new startup container starts as Unknown and is probed before it has started',
    state: st(),
    input: input({ probeType: 'startup', instance: running('c1', { started: false }) }),
    want: { state: seen('Unknown'), keepGoing: true, run: true, updates: [{ containerId: 'c1', result: 'Unknown' }] },
  },
  {
    name: 'a new container ID resets the result and clears on-hold, keeping the run count as upstream does',
    state: seen('Failure', { lastResult: 'Failure', resultRun: 0, onHold: true }),
    input: input({ instance: running('c2') }),
    want: {
      state: st({ containerId: 'c2', result: 'Success', lastResult: 'Failure', resultRun: 0, onHold: false }),
      keepGoing: true,
      run: true,
      updates: [{ containerId: 'c2', result: 'Success' }],
    },
  },
  {
    name: 'a worker on hold skips probing while the container ID stays the same',
    state: seen('Failure', { onHold: true }),
    input: input(),
    want: { state: seen('Failure', { onHold: true }), keepGoing: true, run: false, skipped: 'on hold', updates: [] },
  },
  {
    name: 'a container that is not running turns readiness to Failure and the worker goes on under restartPolicy Always',
    state: seen('Success'),
    input: input({ probeType: 'readiness', instance: running('c1', { state: 'exited' }) }),
    want: { state: seen('Failure'), keepGoing: true, run: false, skipped: 'not running', updates: [{ containerId: 'c1', result: 'Failure' }] },
  },
  {
    name: 'an exited container under restartPolicy Never ends the worker',
    state: seen('Failure'),
    input: input({ probeType: 'readiness', restartPolicy: 'Never', instance: running('c1', { state: 'exited' }) }),
    want: { state: seen('Failure'), keepGoing: false, run: false, skipped: 'not running', updates: [] },
  },
  {
    name: 'an exited sidecar keeps its worker even under restartPolicy Never (it is restarted)',
    state: seen('Failure'),
    input: input({ probeType: 'readiness', restartPolicy: 'Never', restartableInit: true, instance: running('c1', { state: 'exited' }) }),
    want: { state: seen('Failure'), keepGoing: true, run: false, skipped: 'not running', updates: [] },
  },
  {
    name: 'a created but not started container under restartPolicy Never keeps the worker waiting',
    state: seen('Failure'),
    input: input({ probeType: 'readiness', restartPolicy: 'Never', instance: running('c1', { state: 'created' }) }),
    want: { state: seen('Failure'), keepGoing: true, run: false, skipped: 'not running', updates: [] },
  },
  {
    name: 'on deletion a startup worker sets Success and stops',
    state: seen('Unknown'),
    input: input({ probeType: 'startup', deleting: true, instance: running('c1', { started: false }) }),
    want: { state: seen('Success'), keepGoing: false, run: false, skipped: 'pod deleting', updates: [{ containerId: 'c1', result: 'Success' }] },
  },
  {
    name: 'on deletion a liveness worker sets Success and stops',
    state: seen('Success'),
    input: input({ probeType: 'liveness', deleting: true }),
    want: { state: seen('Success'), keepGoing: false, run: false, skipped: 'pod deleting', updates: [] },
  },
  {
    name: 'on deletion readiness goes on probing',
    state: seen('Success'),
    input: input({ probeType: 'readiness', deleting: true }),
    want: { state: seen('Success'), keepGoing: true, run: true, updates: [] },
  },
  {
    name: 'the probe is skipped while int32(now − startedAt) seconds is below initialDelaySeconds (9.999 s counts as 9)',
    state: seen('Success'),
    input: input({ now: T0 + 9999, probe: { initialDelaySeconds: 10, successThreshold: 1, failureThreshold: 3 } }),
    want: { state: seen('Success'), keepGoing: true, run: false, skipped: 'initial delay', updates: [] },
  },
  {
    name: 'the probe runs once the initial delay has passed',
    state: seen('Success'),
    input: input({ now: T0 + 10 * sec, probe: { initialDelaySeconds: 10, successThreshold: 1, failureThreshold: 3 } }),
    want: { state: seen('Success'), keepGoing: true, run: true, updates: [] },
  },
  {
    name: 'liveness waits until the container has started',
    state: seen('Success'),
    input: input({ probeType: 'liveness', instance: running('c1', { started: false }) }),
    want: { state: seen('Success'), keepGoing: true, run: false, skipped: 'not started', updates: [] },
  },
  {
    name: 'readiness waits until the container has started',
    state: seen('Failure'),
    input: input({ probeType: 'readiness', instance: running('c1', { started: false }) }),
    want: { state: seen('Failure'), keepGoing: true, run: false, skipped: 'not started', updates: [] },
  },
  {
    name: 'startup stops probing once the container has started, and the worker stays',
    state: seen('Unknown'),
    input: input({ probeType: 'startup', instance: running('c1', { started: true }) }),
    want: { state: seen('Unknown'), keepGoing: true, run: false, skipped: 'startup done', updates: [] },
  },
  {
    name: 'a container that was running before the kubelet restarted gets no initial result',
    state: st(),
    input: input({ probeType: 'readiness', restartGraceBefore: T0 + sec, instance: running('c1', { startedAt: T0 }) }),
    want: { state: st({ containerId: 'c1', result: undefined }), keepGoing: true, run: true, updates: [] },
  },
];

for (const c of doProbeCases) {
  test(`doProbe: ${c.name}`, () => {
    assert.deepEqual(doProbe(c.state, c.input), c.want);
  });
}

const ok = (output = ''): ProbeOutcome => ({ result: 'success', output });
const fail = (output: string): ProbeOutcome => ({ result: 'failure', output });
const probe = (failureThreshold = 3, successThreshold = 1) => ({ initialDelaySeconds: 0, successThreshold, failureThreshold });

const recordCases: {
  name: string;
  state: WorkerState;
  input: Pick<WorkerInput, 'probeType' | 'probe'>;
  outcome: ProbeOutcome;
  want: RecordStep;
}[] = [
  {
    name: 'a liveness failure below failureThreshold leaves the verdict alone and records an Unhealthy event with the raw output',
    state: seen('Success'),
    input: { probeType: 'liveness', probe: probe(3) },
    outcome: fail("cat: can't open '/tmp/healthy': No such file or directory\n"),
    want: {
      state: seen('Success', { lastResult: 'Failure', resultRun: 1 }),
      discarded: false,
      events: [{ type: 'Warning', reason: 'Unhealthy', message: "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n" }],
      updates: [],
    },
  },
  {
    name: 'the third liveness failure in a row turns the verdict to Failure and puts the worker on hold',
    state: seen('Success', { lastResult: 'Failure', resultRun: 2 }),
    input: { probeType: 'liveness', probe: probe(3) },
    outcome: fail('HTTP probe failed with statuscode: 500'),
    want: {
      state: seen('Failure', { lastResult: 'Failure', resultRun: 0, onHold: true }),
      discarded: false,
      events: [{ type: 'Warning', reason: 'Unhealthy', message: 'Liveness probe failed: HTTP probe failed with statuscode: 500' }],
      updates: [{ containerId: 'c1', result: 'Failure' }],
    },
  },
  {
    name: 'a success between failures starts a new run, so failures must be consecutive',
    state: seen('Success', { lastResult: 'Failure', resultRun: 2 }),
    input: { probeType: 'liveness', probe: probe(3) },
    outcome: ok(),
    want: { state: seen('Success', { lastResult: 'Success', resultRun: 1 }), discarded: false, events: [], updates: [] },
  },
  {
    name: 'readiness needs successThreshold successes in a row before it turns Success',
    state: seen('Failure', { lastResult: 'Success', resultRun: 0 }),
    input: { probeType: 'readiness', probe: probe(3, 2) },
    outcome: ok('ok'),
    want: { state: seen('Failure', { lastResult: 'Success', resultRun: 1 }), discarded: false, events: [], updates: [] },
  },
  {
    name: 'the successThreshold-th readiness success turns it Success and readiness is never put on hold',
    state: seen('Failure', { lastResult: 'Success', resultRun: 1 }),
    input: { probeType: 'readiness', probe: probe(3, 2) },
    outcome: ok('ok'),
    want: { state: seen('Success', { lastResult: 'Success', resultRun: 2 }), discarded: false, events: [], updates: [{ containerId: 'c1', result: 'Success' }] },
  },
  {
    name: 'a readiness failure at the threshold turns it Failure without putting the worker on hold',
    state: seen('Success', { lastResult: 'Failure', resultRun: 2 }),
    input: { probeType: 'readiness', probe: probe(3) },
    outcome: fail('HTTP probe failed with statuscode: 404'),
    want: {
      state: seen('Failure', { lastResult: 'Failure', resultRun: 3 }),
      discarded: false,
      events: [{ type: 'Warning', reason: 'Unhealthy', message: 'Readiness probe failed: HTTP probe failed with statuscode: 404' }],
      updates: [{ containerId: 'c1', result: 'Failure' }],
    },
  },
  {
    name: 'a startup success is a final verdict: Success and on hold until a new container',
    state: seen('Unknown'),
    input: { probeType: 'startup', probe: probe(30) },
    outcome: ok(),
    want: { state: seen('Success', { lastResult: 'Success', resultRun: 0, onHold: true }), discarded: false, events: [], updates: [{ containerId: 'c1', result: 'Success' }] },
  },
  {
    name: 'a startup failure below its threshold keeps the verdict Unknown',
    state: seen('Unknown'),
    input: { probeType: 'startup', probe: probe(30) },
    outcome: fail('dial tcp 10.1.0.5:8080: connect: connection refused'),
    want: {
      state: seen('Unknown', { lastResult: 'Failure', resultRun: 1 }),
      discarded: false,
      events: [{ type: 'Warning', reason: 'Unhealthy', message: 'Startup probe failed: dial tcp 10.1.0.5:8080: connect: connection refused' }],
      updates: [],
    },
  },
  {
    name: 'a prober error is discarded: no counting, only the errored event',
    state: seen('Success', { lastResult: 'Failure', resultRun: 2 }),
    input: { probeType: 'liveness', probe: probe(3) },
    outcome: { result: 'unknown', output: '', error: 'container not running (c1)' },
    want: {
      state: seen('Success', { lastResult: 'Failure', resultRun: 2 }),
      discarded: true,
      events: [{ type: 'Warning', reason: 'Unhealthy', message: 'Liveness probe errored and resulted in unknown state: container not running (c1)' }],
      updates: [],
    },
  },
  {
    name: 'a warning counts as a success and records a ProbeWarning event',
    state: seen('Failure'),
    input: { probeType: 'readiness', probe: probe(3) },
    outcome: { result: 'warning', output: 'Probe terminated redirects, Response body: <a href="http://0.0.0.0/">Found</a>.' },
    want: {
      state: seen('Success', { lastResult: 'Success', resultRun: 1 }),
      discarded: false,
      events: [{ type: 'Warning', reason: 'ProbeWarning', message: 'Readiness probe warning: Probe terminated redirects, Response body: <a href="http://0.0.0.0/">Found</a>.' }],
      updates: [{ containerId: 'c1', result: 'Success' }],
    },
  },
  {
    name: 'an unknown result without an error counts as a failure without an event',
    state: seen('Success'),
    input: { probeType: 'liveness', probe: probe(1) },
    outcome: { result: 'unknown', output: '' },
    want: { state: seen('Failure', { lastResult: 'Failure', resultRun: 0, onHold: true }), discarded: false, events: [], updates: [{ containerId: 'c1', result: 'Failure' }] },
  },
  {
    name: 'a result equal to the cached verdict sends no update',
    state: seen('Success', { lastResult: 'Success', resultRun: 4 }),
    input: { probeType: 'readiness', probe: probe(3) },
    outcome: ok(),
    want: { state: seen('Success', { lastResult: 'Success', resultRun: 5 }), discarded: false, events: [], updates: [] },
  },
];

for (const c of recordCases) {
  test(`recordOutcome: ${c.name}`, () => {
    assert.deepEqual(recordOutcome(c.state, c.input, c.outcome), c.want);
  });
}
