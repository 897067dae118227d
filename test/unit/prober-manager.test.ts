// The prober manager on the fake clock with a scripted probe runner: periods, thresholds, initial
// delay, startup gating, resets on a new container, on-hold, deletion and termination, the manual
// readiness trigger, slow handlers, history, and the events' exact text. Each test compares the
// whole trace of probe runs, events and verdict callbacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, Probe } from 'kubernetes-types/core/v1';
import { FakeClock } from '../../src/engine/clock.js';
import { ProberManager, type ProbeRequest } from '../../src/engine/kubelet/prober/index.js';
import type { ProbeOutcome } from '../../src/engine/kubelet/prober/worker.js';
import type { KContainerStatus, RuntimePodStatus } from '../../src/engine/kubelet/types.js';
import type { ExecResult, RuntimeService } from '../../src/runtime/cri.js';

const T0 = Date.UTC(2024, 0, 1);
const sec = 1000;
const HOUR = 3600 * sec;
const UID = 'uid-1';

const execProbe = (over: Partial<Probe> = {}): Probe => ({ exec: { command: ['cat', '/tmp/healthy'] }, ...over });
const ctr = (name: string, over: Partial<Container> = {}): Container => ({ name, image: 'busybox:1.35', ...over });

function podOf(containers: Container[], over: { sidecars?: Container[]; restartPolicy?: string; deleting?: boolean; status?: Pod['status'] } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: UID, ...(over.deleting ? { deletionTimestamp: '2024-01-01T00:00:15Z' } : {}) },
    spec: {
      restartPolicy: over.restartPolicy ?? 'Always',
      ...(over.sidecars ? { initContainers: over.sidecars.map((c) => ({ ...c, restartPolicy: 'Always' })) } : {}),
      containers,
    },
    ...(over.status ? { status: over.status } : {}),
  };
}

function inst(name: string, id: string, startedAtMs: number, state: KContainerStatus['state'] = 'running'): KContainerStatus {
  return {
    id,
    name,
    state,
    createdAt: startedAtMs,
    startedAt: startedAtMs,
    finishedAt: state === 'exited' ? startedAtMs + sec : 0,
    exitCode: 0,
    image: 'busybox:1.35',
    imageRef: 'sha256:abc',
    reason: '',
    message: '',
    hash: '',
    restartCount: 0,
    sandboxId: 'sb0',
  };
}

function rs(...containers: KContainerStatus[]): RuntimePodStatus {
  return {
    uid: UID,
    name: 'web',
    namespace: 'default',
    sandboxes: [
      {
        id: 'sb0',
        metadata: { name: 'web', namespace: 'default', uid: UID, attempt: 0 },
        state: 'SANDBOX_READY',
        createdAt: T0,
        ip: '10.1.0.5',
        labels: {},
        annotations: {},
      },
    ],
    containers,
  };
}

const ok: ProbeOutcome = { result: 'success', output: '' };
const catFail: ProbeOutcome = { result: 'failure', output: "cat: can't open '/tmp/healthy': No such file or directory\n" };

interface HarnessOpts {
  random?: () => number;
  startedAt?: number;
  historyLimit?: number;
  /** The n-th run (1-based) of a container/probeType. */
  outcome?: (req: ProbeRequest, n: number, clock: FakeClock) => ProbeOutcome | Promise<ProbeOutcome>;
  runtime?: RuntimeService;
}

function harness(opts: HarnessOpts = {}) {
  const clock = new FakeClock(T0);
  const log: string[] = [];
  const at = () => `${(clock.now() - T0) / 1000}s`;
  const counts = new Map<string, number>();
  const m = new ProberManager({
    clock,
    random: opts.random ?? (() => 0),
    startedAt: opts.startedAt ?? T0 - HOUR,
    ...(opts.historyLimit ? { historyLimit: opts.historyLimit } : {}),
    ...(opts.runtime
      ? { runtime: opts.runtime }
      : {
          runProbe: async (req: ProbeRequest) => {
            const k = `${req.container.name}/${req.probeType}`;
            const n = (counts.get(k) ?? 0) + 1;
            counts.set(k, n);
            log.push(`${at()} probe ${k} ${req.containerId} @${req.podIP}`);
            return (opts.outcome ?? (() => ok))(req, n, clock);
          },
        }),
    onEvent: (_pod, type, reason, message, name) => log.push(`${at()} event ${name} ${type} ${reason}: ${message}`),
    onLivenessOrStartupVerdict: (uid, u) => log.push(`${at()} sync ${uid} ${u.containerName}/${u.probeType} ${u.containerId} ${u.result}`),
    onReadinessChanged: (uid, u) => log.push(`${at()} status ${uid} ${u.containerName}/${u.probeType} ${u.containerId} ${u.result}`),
  });
  /** Moves the clock to `s` seconds after T0, letting every probe settle. */
  const to = (s: number) => clock.advanceAsync(T0 + s * sec - clock.now());
  const flags = (trigger = false) => Object.fromEntries(m.containerFlags(UID, { trigger }));
  const results = () => {
    const r = m.results(UID);
    return { liveness: Object.fromEntries(r.liveness), startup: Object.fromEntries(r.startup) };
  };
  return { clock, m, log, to, flags, results };
}

test('liveness: probes every period from addPod, the third failure in a row is a verdict, the worker holds until a new container resets it', async () => {
  const h = harness({ outcome: () => catFail });
  const pod = podOf([ctr('app', { livenessProbe: execProbe({ periodSeconds: 10, failureThreshold: 3 }) })]);
  h.m.addPod(pod);
  await h.to(3);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0 + 3 * sec)));
  await h.to(35);
  const at35 = h.results();
  await h.to(45);
  h.m.updateRuntime(pod, rs(inst('app', 'c2', T0 + 45 * sec), inst('app', 'c1', T0 + 3 * sec, 'exited')));
  await h.to(50);
  const msg = "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n";
  assert.deepEqual(
    { log: h.log, at35, at50: h.results() },
    {
      log: [
        '10s probe app/liveness c1 @10.1.0.5',
        `10s event app Warning Unhealthy: ${msg}`,
        '20s probe app/liveness c1 @10.1.0.5',
        `20s event app Warning Unhealthy: ${msg}`,
        '30s probe app/liveness c1 @10.1.0.5',
        `30s event app Warning Unhealthy: ${msg}`,
        '30s sync uid-1 app/liveness c1 Failure',
        '50s probe app/liveness c2 @10.1.0.5',
        `50s event app Warning Unhealthy: ${msg}`,
      ],
      at35: { liveness: { c1: 'Failure' }, startup: {} },
      at50: { liveness: { c2: 'Success' }, startup: {} },
    },
  );
});

test('initialDelaySeconds: ticks before int32(now − startedAt) reaches the delay do not probe', async () => {
  const h = harness();
  const pod = podOf([ctr('app', { livenessProbe: execProbe({ periodSeconds: 10, initialDelaySeconds: 15 }) })]);
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0 + 3 * sec)));
  await h.to(30);
  assert.deepEqual(h.log, ['20s probe app/liveness c1 @10.1.0.5', '30s probe app/liveness c1 @10.1.0.5']);
});

test('startup gates liveness and readiness: both wait until the startup probe succeeds, then startup stops', async () => {
  const h = harness({
    outcome: (req, n) => (req.probeType === 'startup' && n === 1 ? { result: 'failure', output: 'dial tcp 10.1.0.5:8080: connect: connection refused' } : ok),
  });
  const p = (over: Partial<Probe> = {}) => execProbe({ periodSeconds: 5, ...over });
  const pod = podOf([ctr('app', { startupProbe: p({ failureThreshold: 3 }), readinessProbe: p(), livenessProbe: p() })]);
  h.m.addPod(pod);
  await h.to(1);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0 + sec)));
  await h.to(6);
  const at6 = h.flags();
  await h.to(16);
  assert.deepEqual(
    { log: h.log, at6, at16: h.flags(), results: h.results() },
    {
      log: [
        '5s sync uid-1 app/startup c1 Unknown',
        '5s probe app/startup c1 @10.1.0.5',
        '5s event app Warning Unhealthy: Startup probe failed: dial tcp 10.1.0.5:8080: connect: connection refused',
        '5s status uid-1 app/readiness c1 Failure',
        '10s probe app/startup c1 @10.1.0.5',
        '10s sync uid-1 app/startup c1 Success',
        '10s probe app/readiness c1 @10.1.0.5',
        '10s status uid-1 app/readiness c1 Success',
        '10s probe app/liveness c1 @10.1.0.5',
        '15s probe app/readiness c1 @10.1.0.5',
        '15s probe app/liveness c1 @10.1.0.5',
      ],
      at6: { app: { started: false, ready: false } },
      at16: { app: { started: true, ready: true } },
      results: { liveness: { c1: 'Success' }, startup: { c1: 'Success' } },
    },
  );
});

test('status generation triggers an immediate readiness run for a started, unready container, and the ticker restarts from it', async () => {
  const h = harness();
  const pod = podOf([ctr('app', { readinessProbe: execProbe({ periodSeconds: 10 }) })]);
  h.m.addPod(pod);
  await h.to(2);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0 + 2 * sec)));
  const before = h.flags(true);
  await h.to(2);
  const after = h.flags(true);
  await h.to(25);
  assert.deepEqual(
    { before, after, log: h.log },
    {
      before: { app: { started: true, ready: false } },
      after: { app: { started: true, ready: true } },
      log: [
        '2s status uid-1 app/readiness c1 Failure',
        '2s probe app/readiness c1 @10.1.0.5',
        '2s status uid-1 app/readiness c1 Success',
        '12s probe app/readiness c1 @10.1.0.5',
        '22s probe app/readiness c1 @10.1.0.5',
      ],
    },
  );
});

test('triggerReadiness runs the readiness probe at once; a trigger during a run is kept for one more run', async () => {
  const h = harness({ outcome: (_r, n, clock) => (n === 2 ? new Promise((r) => clock.setTimeout(() => r(ok), 3 * sec)) : ok) });
  const pod = podOf([ctr('app', { readinessProbe: execProbe({ periodSeconds: 10 }) })]);
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0)));
  await h.to(4);
  h.m.triggerReadiness(UID, 'app');
  await h.to(5);
  h.m.triggerReadiness(UID, 'app');
  h.m.triggerReadiness(UID, 'app');
  await h.to(20);
  assert.deepEqual(h.log, [
    '0s status uid-1 app/readiness c1 Failure',
    '0s probe app/readiness c1 @10.1.0.5',
    '0s status uid-1 app/readiness c1 Success',
    '4s probe app/readiness c1 @10.1.0.5',
    '7s probe app/readiness c1 @10.1.0.5',
    '17s probe app/readiness c1 @10.1.0.5',
  ]);
});

test('deletion: liveness sets Success and stops, readiness goes on probing', async () => {
  const h = harness({ outcome: (req) => (req.probeType === 'liveness' ? catFail : ok) });
  const p = execProbe({ periodSeconds: 10, failureThreshold: 3 });
  const pod = podOf([ctr('app', { livenessProbe: p, readinessProbe: p })]);
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0)));
  await h.to(15);
  h.m.updateRuntime(podOf(pod.spec!.containers, { deleting: true }), rs(inst('app', 'c1', T0)));
  await h.to(30);
  const failed = "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n";
  assert.deepEqual(
    { log: h.log, workers: h.m.workers(UID).map((w) => `${w.containerName}/${w.probeType}`), results: h.results() },
    {
      log: [
        // The workers start together: their first runs interleave.
        '0s status uid-1 app/readiness c1 Failure',
        '0s probe app/readiness c1 @10.1.0.5',
        '0s probe app/liveness c1 @10.1.0.5',
        '0s status uid-1 app/readiness c1 Success',
        `0s event app Warning Unhealthy: ${failed}`,
        '10s probe app/readiness c1 @10.1.0.5',
        '10s probe app/liveness c1 @10.1.0.5',
        `10s event app Warning Unhealthy: ${failed}`,
        '20s probe app/readiness c1 @10.1.0.5',
        '30s probe app/readiness c1 @10.1.0.5',
      ],
      workers: ['app/readiness'],
      results: { liveness: {}, startup: {} },
    },
  );
});

test('deletion does not release a liveness worker already on hold after a Failure (as upstream): setTerminating does', async () => {
  const h = harness({ outcome: () => catFail });
  const pod = podOf([ctr('app', { livenessProbe: execProbe({ periodSeconds: 10, failureThreshold: 1 }) })]);
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0)));
  await h.to(5);
  h.m.updateRuntime(podOf(pod.spec!.containers, { deleting: true }), rs(inst('app', 'c1', T0)));
  await h.to(15);
  const held = h.results();
  h.m.setTerminating(UID);
  assert.deepEqual({ held, terminating: h.results(), workers: h.m.workers(UID) }, { held: { liveness: { c1: 'Failure' }, startup: {} }, terminating: { liveness: {}, startup: {} }, workers: [] });
});

test('termination: setTerminating stops liveness and startup at once (a sidecar is not liveness-probed while the pod terminates); readiness goes on', async () => {
  const h = harness();
  const p = execProbe({ periodSeconds: 10 });
  const pod = podOf([ctr('app', { readinessProbe: p })], { sidecars: [ctr('proxy', { livenessProbe: p, startupProbe: p })] });
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('proxy', 's1', T0), inst('app', 'c1', T0)));
  await h.to(5);
  h.m.setTerminating(UID);
  h.m.addPod(pod);
  await h.to(25);
  assert.deepEqual(
    { log: h.log, workers: h.m.workers(UID).map((w) => `${w.containerName}/${w.probeType}`), flags: h.flags() },
    {
      log: [
        // The workers start together: their first runs interleave.
        '0s status uid-1 app/readiness c1 Failure',
        '0s probe app/readiness c1 @10.1.0.5',
        '0s sync uid-1 proxy/startup s1 Unknown',
        '0s probe proxy/startup s1 @10.1.0.5',
        '0s status uid-1 app/readiness c1 Success',
        '0s sync uid-1 proxy/startup s1 Success',
        '10s probe app/readiness c1 @10.1.0.5',
        '20s probe app/readiness c1 @10.1.0.5',
      ],
      workers: ['app/readiness'],
      flags: { app: { started: true, ready: true }, proxy: { started: true, ready: true } },
    },
  );
});

test('a slow handler holds up only its own worker; its missed ticks collapse into one run when it returns', async () => {
  const h = harness({ outcome: (req, n, clock) => (req.container.name === 'slow' && n === 1 ? new Promise((r) => clock.setTimeout(() => r(ok), 25 * sec)) : ok) });
  const p = execProbe({ periodSeconds: 10 });
  const pod = podOf([ctr('slow', { livenessProbe: p }), ctr('fast', { livenessProbe: p })]);
  h.m.addPod(pod);
  await h.to(1);
  h.m.updateRuntime(pod, rs(inst('slow', 's1', T0), inst('fast', 'f1', T0)));
  await h.to(45);
  assert.deepEqual(
    { log: h.log, slow: h.m.history(UID).find((x) => x.containerName === 'slow')?.runs.map((r) => `${(r.time - T0) / 1000}s +${r.durationMs}ms`) },
    {
      log: [
        '10s probe slow/liveness s1 @10.1.0.5',
        '10s probe fast/liveness f1 @10.1.0.5',
        '20s probe fast/liveness f1 @10.1.0.5',
        '30s probe fast/liveness f1 @10.1.0.5',
        '35s probe slow/liveness s1 @10.1.0.5',
        '40s probe slow/liveness s1 @10.1.0.5',
        '40s probe fast/liveness f1 @10.1.0.5',
      ],
      slow: ['10s +25000ms', '35s +0ms', '40s +0ms'],
    },
  );
});

test('the kubelet started less than a period ago: each worker first sleeps a random part of its period', async () => {
  const h = harness({ startedAt: T0, random: () => 0.5 });
  const pod = podOf([ctr('app', { livenessProbe: execProbe({ periodSeconds: 10 }) })]);
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0)));
  await h.to(26);
  assert.deepEqual(h.log, ['5s probe app/liveness c1 @10.1.0.5', '15s probe app/liveness c1 @10.1.0.5', '25s probe app/liveness c1 @10.1.0.5']);
});

test('an exited container under restartPolicy Never ends its readiness worker and is not ready', async () => {
  const h = harness();
  const pod = podOf([ctr('app', { readinessProbe: execProbe({ periodSeconds: 10 }) })], { restartPolicy: 'Never' });
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0)));
  await h.to(5);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0, 'exited')));
  await h.to(30);
  assert.deepEqual(
    { log: h.log, workers: h.m.workers(UID), flags: h.flags() },
    {
      log: ['0s status uid-1 app/readiness c1 Failure', '0s probe app/readiness c1 @10.1.0.5', '0s status uid-1 app/readiness c1 Success', '10s status uid-1 app/readiness c1 Failure'],
      workers: [],
      flags: { app: { started: false, ready: false } },
    },
  );
});

test('a pod in a terminal phase ends every worker', async () => {
  const h = harness();
  const pod = podOf([ctr('app', { livenessProbe: execProbe({ periodSeconds: 10 }) })]);
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0)));
  await h.to(5);
  h.m.updateRuntime({ ...pod, status: { phase: 'Succeeded' } }, rs(inst('app', 'c1', T0, 'exited')));
  await h.to(30);
  assert.deepEqual({ log: h.log, workers: h.m.workers(UID), pending: h.clock.pending() }, { log: ['0s probe app/liveness c1 @10.1.0.5'], workers: [], pending: 0 });
});

test('a container adopted after a kubelet restart keeps started and, while the pod is Ready, ready until probed', async () => {
  const h = harness({ startedAt: T0 });
  const p = execProbe({ periodSeconds: 10, initialDelaySeconds: 7200 });
  const status = (ready: 'True' | 'False'): Pod['status'] => ({
    phase: 'Running',
    conditions: [{ type: 'Ready', status: ready }],
    containerStatuses: [{ name: 'app', containerID: 'docker://c1', ready: ready === 'True', started: true, restartCount: 0, image: 'busybox:1.35', imageID: '' }],
  });
  const specs = [ctr('app', { startupProbe: p, readinessProbe: p })];
  const before = T0 - HOUR;
  h.m.addPod(podOf(specs, { status: status('True') }));
  h.m.updateRuntime(podOf(specs, { status: status('True') }), rs(inst('app', 'c1', before)));
  await h.to(1);
  const ready = h.flags();
  h.m.updateRuntime(podOf(specs, { status: status('False') }), rs(inst('app', 'c1', before)));
  assert.deepEqual(
    { ready, notReady: h.flags(), log: h.log, results: h.results() },
    {
      ready: { app: { started: true, ready: true } },
      notReady: { app: { started: true, ready: false } },
      log: [],
      results: { liveness: {}, startup: {} },
    },
  );
});

test('history keeps the last historyLimit runs per worker, with time, duration, outcome and verdict', async () => {
  const h = harness({ historyLimit: 3, outcome: (_r, n) => (n % 2 ? ok : { result: 'failure', output: `HTTP probe failed with statuscode: 50${n}` }) });
  const pod = podOf([ctr('app', { readinessProbe: execProbe({ periodSeconds: 1, failureThreshold: 1 }) })]);
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0)));
  await h.to(4);
  assert.deepEqual(h.m.history(UID), [
    {
      containerName: 'app',
      probeType: 'readiness',
      runs: [
        { time: T0 + 2 * sec, durationMs: 0, containerId: 'c1', result: 'success', output: '', verdict: 'Success' },
        { time: T0 + 3 * sec, durationMs: 0, containerId: 'c1', result: 'failure', output: 'HTTP probe failed with statuscode: 504', verdict: 'Failure' },
        { time: T0 + 4 * sec, durationMs: 0, containerId: 'c1', result: 'success', output: '', verdict: 'Success' },
      ],
    },
  ]);
});

test('removePod stops every worker: no more runs, events or timers', async () => {
  const h = harness({ outcome: () => catFail });
  const pod = podOf([ctr('app', { livenessProbe: execProbe({ periodSeconds: 10 }), readinessProbe: execProbe({ periodSeconds: 10 }) })]);
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0)));
  await h.to(5);
  const n = h.log.length;
  h.m.removePod(UID);
  await h.to(60);
  assert.deepEqual({ added: h.log.slice(n), pending: h.clock.pending(), history: h.m.history(UID), workers: h.m.workers(UID) }, { added: [], pending: 0, history: [], workers: [] });
});

test('with the real handlers an exec probe runs the $(VAR)-expanded command through ExecSync and reports stdout+stderr', async () => {
  const execs: string[] = [];
  const runtime = {
    async execSync(id: string, cmd: string[], timeoutSeconds?: number): Promise<ExecResult> {
      execs.push(`${id} ${JSON.stringify(cmd)} ${timeoutSeconds}`);
      return { exitCode: 1, stdout: 'not ready\n', stderr: 'oops\n' };
    },
  } as unknown as RuntimeService;
  const h = harness({ runtime });
  const probe = execProbe({ exec: { command: ['sh', '-c', 'test -f $(MARKER) && $(UNSET) $(FROM)'] }, periodSeconds: 10, failureThreshold: 1, timeoutSeconds: 2 });
  const env = [{ name: 'MARKER', value: '/tmp/ready' }, { name: 'FROM', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }];
  const pod = podOf([ctr('app', { env, readinessProbe: probe })]);
  h.m.addPod(pod);
  h.m.updateRuntime(pod, rs(inst('app', 'c1', T0)));
  await h.to(1);
  assert.deepEqual(
    { execs, log: h.log },
    {
      execs: ['c1 ["sh","-c","test -f /tmp/ready && $(UNSET) "] 2'],
      log: ['0s status uid-1 app/readiness c1 Failure', '0s event app Warning Unhealthy: Readiness probe failed: not ready\noops\n'],
    },
  );
});
