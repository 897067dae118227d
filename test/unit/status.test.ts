import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, ContainerState, ContainerStatus, Pod, PodCondition, PodStatus } from 'kubernetes-types/core/v1';
import {
  computePodQOS,
  containersReadyCondition,
  generatePodStatus,
  getPhase,
  podInitializedCondition,
  podReadyCondition,
  type StatusInput,
} from '../../src/engine/kubelet/status.js';
import type { KContainerStatus, PodSandboxStatus, ProbeState, RuntimePodStatus, StartFailure } from '../../src/engine/kubelet/types.js';

const T0 = Date.UTC(2024, 0, 1, 10, 0, 0);
const at = (s: number) => T0 + s * 1000;
const iso = (s: number) => new Date(at(s)).toISOString().replace('.000Z', 'Z');

// ------------------------------------------------------------------------------------------------
// builders

type Policy = 'Always' | 'OnFailure' | 'Never';
function pod(opts: { init?: string[]; sidecars?: string[]; apps?: string[]; policy?: Policy; status?: PodStatus; deleting?: boolean; gates?: string[] } = {}): Pod {
  const c = (name: string): Container => ({ name, image: 'busybox:1.35' });
  const initContainers = [...(opts.sidecars ?? []).map((n) => ({ ...c(n), restartPolicy: 'Always' })), ...(opts.init ?? []).map(c)];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web',
      namespace: 'default',
      uid: 'uid-1',
      creationTimestamp: iso(0),
      ...(opts.deleting ? { deletionTimestamp: iso(100), deletionGracePeriodSeconds: 30 } : {}),
    },
    spec: {
      nodeName: 'podlab',
      restartPolicy: opts.policy ?? 'Always',
      ...(initContainers.length > 0 ? { initContainers } : {}),
      containers: (opts.apps ?? ['app']).map(c),
      ...(opts.gates ? { readinessGates: opts.gates.map((g) => ({ conditionType: g })) } : {}),
    },
    status: opts.status ?? {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null as unknown as string, lastTransitionTime: iso(0) }],
    },
  };
}

const running: ContainerState = { running: { startedAt: iso(1) } };
const waiting = (reason?: string): ContainerState => ({ waiting: reason ? { reason } : {} });
const exited = (exitCode: number): ContainerState => ({ terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error' } });

function cs(name: string, state: ContainerState, extra: Partial<ContainerStatus> = {}): ContainerStatus {
  return { name, state, lastState: {}, ready: false, restartCount: 0, image: 'busybox:1.35', imageID: '', ...extra };
}
const afterFailure = (name: string, reason = 'CrashLoopBackOff') => cs(name, waiting(reason), { lastState: exited(1) });

let seq = 0;
function sandbox(opts: { ready?: boolean; ip?: string; attempt?: number; id?: string } = {}): PodSandboxStatus {
  return {
    id: opts.id ?? 'sb0',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-1', attempt: opts.attempt ?? 0 },
    state: opts.ready === false ? 'SANDBOX_NOTREADY' : 'SANDBOX_READY',
    createdAt: at(1),
    ip: opts.ip ?? (opts.ready === false ? '' : '172.17.0.5'),
    labels: {},
    annotations: {},
  };
}
function inst(name: string, state: KContainerStatus['state'], extra: Partial<KContainerStatus> = {}): KContainerStatus {
  seq++;
  return {
    id: `c${seq}${name}`,
    name,
    state,
    createdAt: at(2),
    startedAt: state === 'created' ? 0 : at(3),
    finishedAt: state === 'exited' ? at(5) : 0,
    exitCode: 0,
    image: 'busybox:1.35',
    imageRef: 'sha256:5242710cbd55',
    reason: state === 'exited' ? 'Completed' : '',
    message: '',
    hash: 'abc',
    restartCount: 0,
    sandboxId: 'sb0',
    ...extra,
  };
}
const failed = (name: string, restartCount: number, finished: number, extra: Partial<KContainerStatus> = {}) =>
  inst(name, 'exited', { exitCode: 1, reason: 'Error', restartCount, createdAt: at(finished - 1), startedAt: at(finished - 1), finishedAt: at(finished), ...extra });

function runtime(containers: KContainerStatus[] = [], sandboxes: PodSandboxStatus[] = [sandbox()]): RuntimePodStatus {
  return { uid: 'uid-1', name: 'web', namespace: 'default', sandboxes, containers: [...containers].sort((a, b) => b.createdAt - a.createdAt) };
}

function gen(p: Pod, rt: RuntimePodStatus, more: Partial<StatusInput> = {}): PodStatus {
  return generatePodStatus({ pod: p, runtime: rt, reasonCache: new Map(), podIsTerminal: false, now: at(10), ...more });
}
const reasons = (entries: [string, StartFailure][]) => new Map(entries);
const cond = (s: PodStatus, type: string) => s.conditions!.find((c) => c.type === type)!;
const brief = (c: PodCondition) => [c.status, c.reason ?? '', c.message ?? ''];
const statusOf = (s: PodStatus, name: string) => [...(s.initContainerStatuses ?? []), ...(s.containerStatuses ?? [])].find((x) => x.name === name)!;

// ------------------------------------------------------------------------------------------------

describe('getPhase follows the kubelet branch by branch', () => {
  type Case = { name: string; pod: Pod; init?: ContainerStatus[]; regular?: ContainerStatus[]; terminal?: boolean; initialized?: boolean; want: string };
  const cases: Case[] = [
    { name: 'a pod whose containers have no status yet is Pending', pod: pod(), want: 'Pending' },
    { name: 'an init container without a status keeps the pod Pending', pod: pod({ init: ['init1'] }), regular: [cs('app', waiting('PodInitializing'))], want: 'Pending' },
    { name: 'a running init container keeps the pod Pending', pod: pod({ init: ['init1'] }), init: [cs('init1', running)], regular: [cs('app', waiting('PodInitializing'))], want: 'Pending' },
    { name: 'an init container waiting for its first start keeps the pod Pending', pod: pod({ init: ['init1'] }), init: [cs('init1', waiting('ErrImagePull'))], regular: [cs('app', waiting('PodInitializing'))], want: 'Pending' },
    { name: 'a failed init container under restartPolicy Never fails the pod', pod: pod({ init: ['init1'], policy: 'Never' }), init: [cs('init1', exited(1))], regular: [cs('app', waiting('PodInitializing'))], want: 'Failed' },
    { name: 'an init container waiting after a failure under Never fails the pod', pod: pod({ init: ['init1'], policy: 'Never' }), init: [afterFailure('init1')], regular: [cs('app', waiting('PodInitializing'))], want: 'Failed' },
    { name: 'a failed init container under OnFailure leaves the pod Pending', pod: pod({ init: ['init1'], policy: 'OnFailure' }), init: [cs('init1', exited(1))], regular: [cs('app', waiting('PodInitializing'))], want: 'Pending' },
    { name: 'an init container in CrashLoopBackOff under Always leaves the pod Pending', pod: pod({ init: ['init1'] }), init: [afterFailure('init1')], regular: [cs('app', waiting('PodInitializing'))], want: 'Pending' },
    { name: 'init containers done and the app running make the pod Running', pod: pod({ init: ['init1', 'init2'] }), init: [cs('init1', exited(0)), cs('init2', exited(0))], regular: [cs('app', running)], want: 'Running' },
    { name: 'an app container still waiting keeps the pod Pending', pod: pod({ apps: ['a', 'b'] }), regular: [cs('a', running), cs('b', waiting('ContainerCreating'))], want: 'Pending' },
    { name: 'a running container next to one without status is Pending', pod: pod({ apps: ['a', 'b'] }), regular: [cs('a', running)], want: 'Pending' },
    { name: 'a running container next to a terminated one is Running', pod: pod({ apps: ['a', 'b'] }), regular: [cs('a', running), cs('b', exited(1))], want: 'Running' },
    { name: 'a container waiting after a termination counts as stopped, Running under Always', pod: pod(), regular: [afterFailure('app')], want: 'Running' },
    { name: 'all containers exited 0 under Never is Succeeded', pod: pod({ apps: ['a', 'b'], policy: 'Never' }), regular: [cs('a', exited(0)), cs('b', exited(0))], want: 'Succeeded' },
    { name: 'one container failed under Never is Failed', pod: pod({ apps: ['a', 'b'], policy: 'Never' }), regular: [cs('a', exited(0)), cs('b', exited(1))], want: 'Failed' },
    { name: 'all containers exited 0 under OnFailure is Succeeded', pod: pod({ policy: 'OnFailure' }), regular: [cs('app', exited(0))], want: 'Succeeded' },
    { name: 'a failed container under OnFailure is Running while it restarts', pod: pod({ policy: 'OnFailure' }), regular: [cs('app', exited(1))], want: 'Running' },
    { name: 'all containers exited 0 under Always is Running while they restart', pod: pod(), regular: [cs('app', exited(0))], want: 'Running' },
    { name: 'a terminal pod under Always whose containers exited 0 is Succeeded', pod: pod(), regular: [cs('app', exited(0))], terminal: true, want: 'Succeeded' },
    { name: 'a terminal pod with one failure is Failed', pod: pod({ apps: ['a', 'b'] }), regular: [cs('a', exited(0)), cs('b', exited(137))], terminal: true, want: 'Failed' },
    { name: 'a running sidecar that has not started keeps a fresh pod Pending', pod: pod({ sidecars: ['proxy'] }), init: [cs('proxy', running, { started: false })], regular: [cs('app', waiting('PodInitializing'))], want: 'Pending' },
    { name: 'an unstarted sidecar does not send an initialized pod back to Pending', pod: pod({ sidecars: ['proxy'] }), init: [cs('proxy', running, { started: false })], regular: [cs('app', running)], initialized: true, want: 'Running' },
    { name: 'a started sidecar and a running app make the pod Running', pod: pod({ sidecars: ['proxy'] }), init: [cs('proxy', running, { started: true })], regular: [cs('app', running)], want: 'Running' },
    { name: 'a sidecar waiting for its first start keeps the pod Pending', pod: pod({ sidecars: ['proxy'] }), init: [cs('proxy', waiting('ContainerCreating'))], regular: [cs('app', running)], initialized: true, want: 'Pending' },
    { name: 'a sidecar crash-looping next to a running app leaves the pod Running', pod: pod({ sidecars: ['proxy'] }), init: [afterFailure('proxy')], regular: [cs('app', running)], want: 'Running' },
    { name: 'a failed sidecar under Never does not fail the pod', pod: pod({ sidecars: ['proxy'], policy: 'Never' }), init: [cs('proxy', exited(1))], regular: [cs('app', running)], want: 'Running' },
    { name: 'a sidecar pod under Never is Succeeded once the app exits 0', pod: pod({ sidecars: ['proxy'], policy: 'Never' }), init: [cs('proxy', exited(137))], regular: [cs('app', exited(0))], want: 'Succeeded' },
    { name: 'a sidecar without a status counts as unknown and keeps the pod Pending', pod: pod({ sidecars: ['proxy'] }), regular: [cs('app', running)], initialized: true, want: 'Pending' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.equal(getPhase(c.pod, { init: c.init ?? [], regular: c.regular ?? [] }, c.terminal ?? false, c.initialized ?? false), c.want);
    });
  }
});

describe('conditions carry the kubelet reasons and messages', () => {
  type Case = { name: string; status: () => PodStatus; want: Record<string, string[]> };
  const cases: Case[] = [
    {
      name: 'a fresh pod with two init containers and no sandbox lists every incomplete init container',
      status: () => gen(pod({ init: ['init1', 'init2'] }), runtime([], [])),
      want: {
        PodReadyToStartContainers: ['False', '', ''],
        Initialized: ['False', 'ContainersNotInitialized', 'containers with incomplete status: [init1 init2]'],
        Ready: ['False', 'ContainersNotReady', 'containers with unready status: [app]'],
        ContainersReady: ['False', 'ContainersNotReady', 'containers with unready status: [app]'],
        PodScheduled: ['True', '', ''],
      },
    },
    {
      name: 'a pod whose first init container is done lists only the unfinished ones',
      status: () => gen(pod({ init: ['init1', 'init2'] }), runtime([inst('init1', 'exited'), inst('init2', 'running')])),
      want: { PodReadyToStartContainers: ['True', '', ''], Initialized: ['False', 'ContainersNotInitialized', 'containers with incomplete status: [init2]'] },
    },
    {
      name: 'a running pod with every container ready has all conditions True without reasons',
      status: () => gen(pod({ apps: ['a', 'b'] }), runtime([inst('a', 'running'), inst('b', 'running')])),
      want: { PodReadyToStartContainers: ['True', '', ''], Initialized: ['True', '', ''], Ready: ['True', '', ''], ContainersReady: ['True', '', ''] },
    },
    {
      name: 'two unready containers are listed in spec order',
      status: () => gen(pod({ apps: ['b', 'a'] }), runtime([inst('b', 'created'), inst('a', 'running')]), { probes: new Map([['a', { ready: false }]]) }),
      want: { Ready: ['False', 'ContainersNotReady', 'containers with unready status: [b a]'] },
    },
    {
      name: 'a succeeded pod reports PodCompleted',
      status: () => gen(pod({ policy: 'Never' }), runtime([inst('app', 'exited')])),
      want: { Initialized: ['True', 'PodCompleted', ''], Ready: ['False', 'PodCompleted', ''], ContainersReady: ['False', 'PodCompleted', ''] },
    },
    {
      name: 'a failed pod reports PodFailed on readiness and keeps init incomplete',
      status: () => gen(pod({ init: ['init1', 'init2'], policy: 'Never' }), runtime([failed('init1', 0, 5)])),
      want: {
        Initialized: ['False', 'ContainersNotInitialized', 'containers with incomplete status: [init1 init2]'],
        Ready: ['False', 'PodFailed', ''],
        ContainersReady: ['False', 'PodFailed', ''],
      },
    },
    {
      name: 'an unstarted sidecar is incomplete and unready',
      status: () => gen(pod({ sidecars: ['proxy'] }), runtime([inst('proxy', 'running')]), { probes: new Map([['proxy', { started: false }]]) }),
      want: {
        Initialized: ['False', 'ContainersNotInitialized', 'containers with incomplete status: [proxy]'],
        ContainersReady: ['False', 'ContainersNotReady', 'containers with unready status: [proxy app]'],
      },
    },
    {
      name: 'a sandbox without an IP is not ready to start containers',
      status: () => gen(pod(), runtime([], [sandbox({ ip: '' })])),
      want: { PodReadyToStartContainers: ['False', '', ''] },
    },
    {
      name: 'a missing readiness gate condition makes the pod unready',
      status: () => gen(pod({ gates: ['example.com/feature'] }), runtime([inst('app', 'running')])),
      want: { Ready: ['False', 'ReadinessGatesNotReady', 'corresponding condition of pod readiness gate "example.com/feature" does not exist.'], ContainersReady: ['True', '', ''] },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const s = c.status();
      for (const [type, want] of Object.entries(c.want)) assert.deepEqual(brief(cond(s, type)), want, type);
    });
  }

  test('the five kubelet conditions come in kubelet order after conditions owned by others', () => {
    const p = pod();
    p.status!.conditions!.push({ type: 'example.com/feature', status: 'True', lastTransitionTime: iso(0) });
    const s = gen(p, runtime([inst('app', 'running')]));
    assert.deepEqual(
      s.conditions!.map((c) => c.type),
      ['example.com/feature', 'PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'],
    );
    assert.equal(cond(s, 'PodReadyToStartContainers').lastProbeTime, null);
  });

  test('PodScheduled is kept as the scheduler wrote it', () => {
    const p = pod();
    p.status!.conditions = [{ type: 'PodScheduled', status: 'True', lastTransitionTime: iso(-5), reason: 'Bound', message: 'by hand' }];
    assert.deepEqual(cond(gen(p, runtime()), 'PodScheduled'), p.status!.conditions[0]);
  });

  const gated = () => pod({ gates: ['example.com/a', 'example.com/b'] }).spec;
  const readyStatuses = [cs('app', running, { ready: true })];
  const gateCases: { name: string; conditions: PodCondition[]; want: string[] }[] = [
    {
      name: 'readiness gates that are False or missing are all reported, joined by commas',
      conditions: [{ type: 'example.com/a', status: 'False' }],
      want: ['False', 'ReadinessGatesNotReady', 'the status of pod readiness gate "example.com/a" is not "True", but False, corresponding condition of pod readiness gate "example.com/b" does not exist.'],
    },
    {
      name: 'readiness gates that are all True leave the pod Ready',
      conditions: [{ type: 'example.com/a', status: 'True' }, { type: 'example.com/b', status: 'True' }],
      want: ['True', '', ''],
    },
  ];
  for (const c of gateCases) {
    test(c.name, () => assert.deepEqual(brief(podReadyCondition(gated(), c.conditions, readyStatuses, 'Running') as PodCondition), c.want));
  }

  const unknownCases: { name: string; got: () => PodCondition; want: string[] }[] = [
    {
      name: 'init containers without a status are unknown, listed before the incomplete ones',
      got: () => podInitializedCondition(pod({ init: ['a', 'b', 'c'] }).spec, [cs('b', running), cs('app', waiting('PodInitializing'))], 'Pending') as PodCondition,
      want: ['False', 'ContainersNotInitialized', 'containers with unknown status: [a c], containers with incomplete status: [b]'],
    },
    {
      name: 'containers without a status are unknown, listed before the unready ones',
      got: () => containersReadyCondition(pod({ apps: ['a', 'b'] }).spec, [cs('b', running)], 'Running') as PodCondition,
      want: ['False', 'ContainersNotReady', 'containers with unknown status: [a], containers with unready status: [b]'],
    },
    {
      name: 'no container statuses at all is UnknownContainerStatuses',
      got: () => containersReadyCondition(pod().spec, [], 'Pending') as PodCondition,
      want: ['False', 'UnknownContainerStatuses', ''],
    },
    {
      name: 'no statuses with init containers leaves Initialized False with UnknownContainerStatuses',
      got: () => podInitializedCondition(pod({ init: ['a'] }).spec, [], 'Pending') as PodCondition,
      want: ['False', 'UnknownContainerStatuses', ''],
    },
    {
      name: 'a regular container that ran means the pod was initialized, even with a restarting sidecar',
      got: () => podInitializedCondition(pod({ sidecars: ['proxy'] }).spec, [afterFailure('proxy'), cs('app', running)], 'Running') as PodCondition,
      want: ['True', '', ''],
    },
  ];
  for (const c of unknownCases) test(c.name, () => assert.deepEqual(brief(c.got()), c.want));
});

describe('container states and waiting reasons', () => {
  type Case = { name: string; pod: Pod; rt: RuntimePodStatus; reasons?: [string, StartFailure][]; container: string; want: ContainerState };
  const backoff = { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=app pod=web_default(uid-1)' };
  const cases: Case[] = [
    { name: 'a container not created yet waits with ContainerCreating', pod: pod(), rt: runtime(), container: 'app', want: { waiting: { reason: 'ContainerCreating' } } },
    { name: 'an app container of a pod with init containers waits with PodInitializing', pod: pod({ init: ['init1'] }), rt: runtime(), container: 'app', want: { waiting: { reason: 'PodInitializing' } } },
    { name: 'an init container not created yet also waits with PodInitializing', pod: pod({ init: ['init1', 'init2'] }), rt: runtime([inst('init1', 'running')]), container: 'init2', want: { waiting: { reason: 'PodInitializing' } } },
    { name: 'a container the runtime only created waits without a reason', pod: pod(), rt: runtime([inst('app', 'created')]), container: 'app', want: { waiting: {} } },
    {
      name: 'an image pull failure shows the cached reason and message',
      pod: pod(),
      rt: runtime(),
      reasons: [['app', { reason: 'ErrImagePull', message: 'pull access denied for nope, repository does not exist' }]],
      container: 'app',
      want: { waiting: { reason: 'ErrImagePull', message: 'pull access denied for nope, repository does not exist' } },
    },
    { name: 'a running container shows running with its start time', pod: pod(), rt: runtime([inst('app', 'running')]), container: 'app', want: { running: { startedAt: iso(3) } } },
    { name: 'a cached reason is ignored while the container runs', pod: pod(), rt: runtime([inst('app', 'running')]), reasons: [['app', backoff]], container: 'app', want: { running: { startedAt: iso(3) } } },
    {
      name: 'a crashed container waiting to restart shows CrashLoopBackOff',
      pod: pod(),
      rt: runtime([failed('app', 0, 5)]),
      reasons: [['app', backoff]],
      container: 'app',
      want: { waiting: backoff },
    },
    {
      name: 'a failed container under Never stays terminated even with a cached reason',
      pod: pod({ policy: 'Never' }),
      rt: runtime([failed('app', 0, 5, { id: 'feed' })]),
      reasons: [['app', backoff]],
      container: 'app',
      want: { terminated: { exitCode: 1, reason: 'Error', startedAt: iso(4), finishedAt: iso(5), containerID: 'docker://feed' } },
    },
    {
      name: 'a container exited 0 under OnFailure stays terminated',
      pod: pod({ policy: 'OnFailure' }),
      rt: runtime([inst('app', 'exited', { id: 'beef' })]),
      reasons: [['app', backoff]],
      container: 'app',
      want: { terminated: { exitCode: 0, reason: 'Completed', startedAt: iso(3), finishedAt: iso(5), containerID: 'docker://beef' } },
    },
    {
      name: 'an init container that exited 0 never becomes waiting',
      pod: pod({ init: ['init1'] }),
      rt: runtime([inst('init1', 'exited', { id: 'abc' })]),
      reasons: [['init1', backoff]],
      container: 'init1',
      want: { terminated: { exitCode: 0, reason: 'Completed', startedAt: iso(3), finishedAt: iso(5), containerID: 'docker://abc' } },
    },
    {
      name: 'a failed init container under Always waits in CrashLoopBackOff',
      pod: pod({ init: ['init1'] }),
      rt: runtime([failed('init1', 0, 5)]),
      reasons: [['init1', backoff]],
      container: 'init1',
      want: { waiting: backoff },
    },
    {
      name: 'a deleted pod does not show containers as waiting to restart',
      pod: pod({ deleting: true }),
      rt: runtime([failed('app', 0, 5, { id: 'dead' })]),
      reasons: [['app', backoff]],
      container: 'app',
      want: { terminated: { exitCode: 1, reason: 'Error', startedAt: iso(4), finishedAt: iso(5), containerID: 'docker://dead' } },
    },
    {
      name: 'a container that could not run keeps the runtime message and has no finish time',
      pod: pod({ policy: 'Never' }),
      rt: runtime([inst('app', 'exited', { id: 'ccr', exitCode: 127, reason: 'ContainerCannotRun', message: 'exec: "nope": executable file not found in $PATH', startedAt: 0, finishedAt: 0 })]),
      container: 'app',
      want: { terminated: { exitCode: 127, reason: 'ContainerCannotRun', message: 'exec: "nope": executable file not found in $PATH', containerID: 'docker://ccr' } },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const s = gen(c.pod, c.rt, { reasonCache: reasons(c.reasons ?? []) });
      assert.deepEqual(statusOf(s, c.container).state, c.want);
    });
  }
});

describe('lastState and restartCount', () => {
  test('the second-newest instance becomes lastState and the newest gives restartCount', () => {
    const rt = runtime([failed('app', 0, 5, { id: 'first' }), failed('app', 1, 7, { id: 'second' }), inst('app', 'running', { id: 'third', restartCount: 2, createdAt: at(8), startedAt: at(8) })]);
    const s = statusOf(gen(pod(), rt), 'app');
    assert.deepEqual(s.state, { running: { startedAt: iso(8) } });
    assert.deepEqual(s.lastState, { terminated: { exitCode: 1, reason: 'Error', startedAt: iso(6), finishedAt: iso(7), containerID: 'docker://second' } });
    assert.equal(s.restartCount, 2);
    assert.equal(s.containerID, 'docker://third');
  });

  test('a pending restart moves the newest termination into lastState', () => {
    const rt = runtime([failed('app', 0, 5, { id: 'one' }), failed('app', 1, 7, { id: 'two' })]);
    const s = statusOf(gen(pod(), rt, { reasonCache: reasons([['app', { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=app pod=web_default(uid-1)' }]]) }), 'app');
    assert.deepEqual(s.state, { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=app pod=web_default(uid-1)' } });
    assert.deepEqual(s.lastState, { terminated: { exitCode: 1, reason: 'Error', startedAt: iso(6), finishedAt: iso(7), containerID: 'docker://two' } });
    assert.equal(s.restartCount, 1);
  });

  test('a container the runtime lost after it was running is marked ContainerStatusUnknown and counted as a restart', () => {
    const p = pod();
    p.status!.containerStatuses = [cs('app', running, { restartCount: 2, ready: true, containerID: 'docker://gone' })];
    const s = statusOf(gen(p, runtime()), 'app');
    assert.deepEqual(s.state, { waiting: { reason: 'ContainerCreating' } });
    assert.deepEqual(s.lastState, {
      terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was deleted.  The container used to be Running' },
    });
    assert.equal(s.restartCount, 3);
  });

  test('a container in an unknown runtime state after running is terminated with ContainerStatusUnknown', () => {
    const p = pod();
    p.status!.containerStatuses = [cs('app', running, { restartCount: 1 })];
    const s = statusOf(gen(p, runtime([inst('app', 'unknown', { restartCount: 1 })])), 'app');
    assert.deepEqual(s.state, { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated' } });
    assert.equal(s.restartCount, 2);
  });

  test('a previous terminated status is kept when the runtime no longer has the container', () => {
    const p = pod({ policy: 'Never', status: { phase: 'Succeeded', containerStatuses: [cs('app', { terminated: { exitCode: 0, reason: 'Completed', containerID: 'docker://x' } }, { restartCount: 0 })] } });
    assert.deepEqual(statusOf(gen(p, runtime([], [])), 'app').state, { terminated: { exitCode: 0, reason: 'Completed', containerID: 'docker://x' } });
  });
});

describe('container status fields', () => {
  test('a running container has its ids, image and flags in API order', () => {
    const s = statusOf(gen(pod(), runtime([inst('app', 'running', { id: '3f2a' })])), 'app');
    assert.deepEqual(s, {
      name: 'app',
      state: { running: { startedAt: iso(3) } },
      lastState: {},
      ready: true,
      restartCount: 0,
      image: 'busybox:1.35',
      imageID: 'docker://sha256:5242710cbd55',
      containerID: 'docker://3f2a',
      started: true,
      resources: {},
    });
    assert.deepEqual(Object.keys(s), ['name', 'state', 'lastState', 'ready', 'restartCount', 'image', 'imageID', 'containerID', 'started', 'resources']);
  });

  test('an image with a repo digest gets the docker-pullable prefix', () => {
    const s = statusOf(gen(pod(), runtime([inst('app', 'running', { imageRef: 'busybox@sha256:abcd' })])), 'app');
    assert.equal(s.imageID, 'docker-pullable://busybox@sha256:abcd');
  });

  test('a waiting container has an empty imageID, no containerID and started false', () => {
    assert.deepEqual(statusOf(gen(pod(), runtime()), 'app'), {
      name: 'app',
      state: { waiting: { reason: 'ContainerCreating' } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: 'busybox:1.35',
      imageID: '',
      started: false,
    });
  });

  const flagCases: { name: string; probe?: ProbeState; state: KContainerStatus['state']; want: [boolean, boolean] }[] = [
    { name: 'without probes a running container is started and ready', state: 'running', want: [true, true] },
    { name: 'a failing readiness probe leaves a started container unready', probe: { ready: false }, state: 'running', want: [true, false] },
    { name: 'a startup probe not yet passed leaves the container neither started nor ready', probe: { started: false, ready: true }, state: 'running', want: [false, false] },
    { name: 'an exited container is neither started nor ready', state: 'exited', want: [false, false] },
  ];
  for (const c of flagCases) {
    test(c.name, () => {
      const s = statusOf(gen(pod(), runtime([inst('app', c.state)]), { probes: c.probe ? new Map([['app', c.probe]]) : undefined }), 'app');
      assert.deepEqual([s.started, s.ready], c.want);
    });
  }

  test('a regular init container is ready once it exited 0, a sidecar once running', () => {
    const s = gen(pod({ sidecars: ['proxy'], init: ['init1'] }), runtime([inst('proxy', 'running'), inst('init1', 'exited')]));
    assert.deepEqual(s.initContainerStatuses!.map((x) => [x.name, x.ready, x.started]), [
      ['proxy', true, true],
      ['init1', true, false],
    ]);
  });

  test('init statuses follow the spec while app statuses are sorted by name', () => {
    const s = gen(pod({ init: ['zeta', 'alpha'], apps: ['web', 'db', 'cache'] }), runtime());
    assert.deepEqual(s.initContainerStatuses!.map((x) => x.name), ['zeta', 'alpha']);
    assert.deepEqual(s.containerStatuses!.map((x) => x.name), ['cache', 'db', 'web']);
  });
});

describe('pod-level fields', () => {
  test('podIP comes from the newest sandbox when it is ready', () => {
    const s = gen(pod(), runtime([inst('app', 'running')], [sandbox({ ip: '172.17.0.9', id: 'new', attempt: 1 }), sandbox({ ready: false })]), { hostIPs: ['192.168.65.3'] });
    assert.deepEqual([s.podIP, s.podIPs, s.hostIP, s.hostIPs], ['172.17.0.9', [{ ip: '172.17.0.9' }], '192.168.65.3', [{ ip: '192.168.65.3' }]]);
  });

  // With no sandbox ready the runtime reports no IP: the kubelet keeps the pod's earlier one (the
  // PLEG's getPodIPs, kubernetes#47806, and SyncTerminatingPod since #125404): a finished pod keeps its IP.
  const ipCases: [string, Parameters<typeof runtime>[1], string | undefined, string | undefined][] = [
    ['a pod whose sandbox never had an IP, stopped: none', [sandbox({ ready: false, ip: '' })], undefined, undefined],
    ['a finished pod (its sandbox stopped) keeps the IP it had', [sandbox({ ready: false, ip: '172.17.0.9' })], '172.17.0.9', '172.17.0.9'],
    ['a stopped sandbox and no IP before: none', [sandbox({ ready: false, ip: '172.17.0.9' })], undefined, undefined],
    ['a new sandbox that is ready: its IP, not the old one', [sandbox({ ip: '172.17.0.12', id: 'new', attempt: 1 }), sandbox({ ready: false })], '172.17.0.9', '172.17.0.12'],
    ['an older sandbox still ready, the newest not: no IP (the runtime reports the newest only)', [sandbox({ ready: false, id: 'new', attempt: 1, ip: '' }), sandbox({ ip: '172.17.0.9' })], '172.17.0.9', undefined],
  ];
  for (const [name, sandboxes, before, want] of ipCases) {
    test(name, () => {
      const p = pod(before ? { status: { phase: 'Running', podIP: before, podIPs: [{ ip: before }] } } : {});
      const s = gen(p, runtime([], sandboxes));
      assert.deepEqual([s.podIP, s.podIPs], [want, want ? [{ ip: want }] : undefined]);
    });
  }

  test('startTime is set once and then kept', () => {
    const first = gen(pod(), runtime());
    assert.equal(first.startTime, iso(10));
    const p = pod({ status: first });
    assert.equal(gen(p, runtime(), { now: at(50) }).startTime, iso(10));
  });

  test('the status fields come in API order', () => {
    const s = gen(pod({ init: ['init1'] }), runtime([inst('init1', 'running')]), { hostIPs: ['10.0.0.1'] });
    assert.deepEqual(Object.keys(s), ['phase', 'conditions', 'hostIP', 'hostIPs', 'podIP', 'podIPs', 'startTime', 'initContainerStatuses', 'containerStatuses', 'qosClass']);
  });

  const qos: { name: string; resources: Container['resources'][]; want: string }[] = [
    { name: 'no requests or limits is BestEffort', resources: [undefined], want: 'BestEffort' },
    { name: 'equal cpu and memory requests and limits is Guaranteed', resources: [{ requests: { cpu: '500m', memory: '128Mi' }, limits: { cpu: '0.5', memory: '128Mi' } }], want: 'Guaranteed' },
    { name: 'limits alone default the requests and are Guaranteed', resources: [{ limits: { cpu: '1', memory: '1Gi' } }], want: 'Guaranteed' },
    { name: 'requests below limits are Burstable', resources: [{ requests: { cpu: '100m' }, limits: { cpu: '200m', memory: '64Mi' } }], want: 'Burstable' },
    { name: 'one container without limits makes the pod Burstable', resources: [{ limits: { cpu: '1', memory: '1Gi' } }, { requests: { memory: '10Mi' } }], want: 'Burstable' },
    { name: 'zero requests count as none', resources: [{ requests: { cpu: '0' } }], want: 'BestEffort' },
  ];
  for (const c of qos) {
    test(c.name, () => {
      const p = pod({ apps: c.resources.map((_, i) => `c${i}`) });
      p.spec!.containers.forEach((container, i) => (container.resources = c.resources[i]));
      assert.equal(computePodQOS(p), c.want);
      assert.equal(gen(p, runtime()).qosClass, c.want);
    });
  }
});

describe('lastTransitionTime and terminal phases are sticky', () => {
  test('a condition keeps its lastTransitionTime while its status does not change', () => {
    const first = gen(pod(), runtime([inst('app', 'running')]), { now: at(10) });
    const second = gen(pod({ status: first }), runtime([inst('app', 'running')]), { now: at(20) });
    assert.equal(cond(second, 'Ready').lastTransitionTime, iso(10));
    assert.equal(cond(second, 'PodScheduled').lastTransitionTime, iso(0));
  });

  test('a condition whose status changes gets a new lastTransitionTime', () => {
    const first = gen(pod(), runtime([inst('app', 'running')]), { now: at(10) });
    const second = gen(pod({ status: first }), runtime([failed('app', 0, 15)]), { now: at(20) });
    assert.deepEqual([cond(second, 'Ready').status, cond(second, 'Ready').lastTransitionTime], ['False', iso(20)]);
    assert.equal(cond(second, 'Initialized').lastTransitionTime, iso(10));
  });

  test('lastTransitionTime is written with second precision', () => {
    const s = gen(pod(), runtime(), { now: at(10) + 789 });
    assert.equal(cond(s, 'Ready').lastTransitionTime, iso(10));
  });

  test('a Succeeded pod stays Succeeded when its containers disappear', () => {
    const p = pod({ policy: 'Never', status: { phase: 'Succeeded', reason: 'Done', message: 'all good' } });
    const s = gen(p, runtime([], []));
    assert.deepEqual([s.phase, s.reason, s.message], ['Succeeded', 'Done', 'all good']);
  });

  test('a Failed pod does not go back to Running', () => {
    const p = pod({ status: { phase: 'Failed' } });
    assert.equal(gen(p, runtime([inst('app', 'running')])).phase, 'Failed');
  });

  test('reason and message are dropped when the phase changes', () => {
    const p = pod({ status: { phase: 'Pending', reason: 'Waiting', message: 'for something' } });
    const s = gen(p, runtime([inst('app', 'running')]));
    assert.deepEqual([s.phase, s.reason, s.message], ['Running', undefined, undefined]);
  });

  test('a deleted pod whose containers all stopped becomes terminal from the exit codes', () => {
    const p = pod({ deleting: true, apps: ['a', 'b'] });
    const rt = runtime([inst('a', 'exited'), inst('b', 'exited', { exitCode: 143, reason: 'Error' })], [sandbox({ ready: false })]);
    assert.equal(gen(p, rt, { podIsTerminal: true }).phase, 'Failed');
  });
});

// status.containerStatuses[].volumeMounts (RecursiveReadOnlyMounts, on by default since 1.31): the
// default status lists the container's mounts (a read-only one with recursiveReadOnly Disabled: the
// runtime is not asked for recursive read-only mounts); a status converted from a runtime instance
// keeps the previous status's list (the CRI knows no volume names), so a container first seen
// running with no status before has none.
describe('volume mounts in the container statuses', () => {
  const withMounts = (status?: PodStatus): Pod => {
    const p = pod(status ? { status } : {});
    p.spec!.containers[0]!.volumeMounts = [
      { name: 'data', mountPath: '/data' },
      { name: 'cfg', mountPath: '/etc/app', readOnly: true },
    ];
    return p;
  };
  const listed = [
    { name: 'data', mountPath: '/data' },
    { name: 'cfg', mountPath: '/etc/app', readOnly: true, recursiveReadOnly: 'Disabled' },
  ];
  const cases: [string, () => unknown, unknown][] = [
    ['waiting to be created: the default status lists them', () => gen(withMounts(), runtime([])).containerStatuses, [{ ...cs('app', waiting('ContainerCreating')), started: false, volumeMounts: listed }]],
    [
      'running, with that status before: kept',
      () => {
        const first = gen(withMounts(), runtime([]));
        return gen(withMounts(first), runtime([inst('app', 'running', { id: 'r1' })])).containerStatuses?.[0]?.volumeMounts;
      },
      listed,
    ],
    ['running, with no status before: none (as the kubelet has none to copy)', () => gen(withMounts(), runtime([inst('app', 'running')])).containerStatuses?.[0]?.volumeMounts, undefined],
    ['a container without mounts has no list', () => gen(pod(), runtime([])).containerStatuses?.[0]?.volumeMounts, undefined],
  ];
  for (const [name, actual, expected] of cases) test(name, () => assert.deepEqual(actual(), expected));
});

// status.containerStatuses[].resources (InPlacePodVerticalScaling, on by default since 1.33): every
// status converted from a runtime instance carries them — a running one the resources enacted on
// it (a runtime that reports none, as Docker's, gives the allocated ones, the spec's: cpu, memory,
// ephemeral-storage and the extended resources and hugepages, kubernetes#124227), a created or
// exited one the allocated resources (kubernetes#128377) — and none written gives {}. The default
// status of a container the runtime has no instance of has none. For init, sidecar, regular and
// ephemeral containers alike (convertToAPIContainerStatuses serves all three). allocatedResources
// stays unset (its gate is off, and deprecated since 1.33).
describe('resources in a container status', () => {
  const withResources = (resources: Container['resources'], opts: Parameters<typeof pod>[0] = {}): Pod => {
    const p = pod(opts);
    for (const c of [...(p.spec!.initContainers ?? []), ...p.spec!.containers]) c.resources = resources;
    return p;
  };
  const all = {
    requests: { cpu: '250m', memory: '64Mi', 'ephemeral-storage': '1Gi', 'example.com/gpu': '1', 'hugepages-2Mi': '4Mi' },
    limits: { cpu: '500m', memory: '128Mi', 'ephemeral-storage': '2Gi', 'example.com/gpu': '1', 'hugepages-2Mi': '4Mi' },
  };
  const cases: [string, () => unknown, unknown][] = [
    ['running: the limits and requests, extended resources and hugepages included', () => statusOf(gen(withResources(all), runtime([inst('app', 'running')])), 'app').resources, all],
    ['limits alone (requests defaulted from them)', () => statusOf(gen(withResources({ limits: { memory: '128Mi' }, requests: { memory: '128Mi' } }), runtime([inst('app', 'running')])), 'app').resources, { limits: { memory: '128Mi' }, requests: { memory: '128Mi' } }],
    ['none written: an empty object', () => statusOf(gen(pod(), runtime([inst('app', 'running')])), 'app').resources, {}],
    ['only extended resources: those', () => statusOf(gen(withResources({ limits: { 'example.com/gpu': '1' }, requests: { 'example.com/gpu': '1' } }), runtime([inst('app', 'running')])), 'app').resources, { limits: { 'example.com/gpu': '1' }, requests: { 'example.com/gpu': '1' } }],
    ['waiting to be created (no runtime instance): none', () => 'resources' in statusOf(gen(withResources(all), runtime([])), 'app'), false],
    ['created, not started: the allocated ones', () => statusOf(gen(withResources(all), runtime([inst('app', 'created')])), 'app').resources, all],
    ['terminated: the allocated ones', () => statusOf(gen(withResources(all), runtime([inst('app', 'exited')])), 'app').resources, all],
    [
      'a running init container and a running sidecar have theirs',
      () => {
        const s = gen(withResources({ limits: { cpu: '1' }, requests: { cpu: '1' } }, { sidecars: ['side'], init: ['setup'] }), runtime([inst('side', 'running'), inst('setup', 'running')]));
        return [statusOf(s, 'side').resources, statusOf(s, 'setup').resources];
      },
      [{ limits: { cpu: '1' }, requests: { cpu: '1' } }, { limits: { cpu: '1' }, requests: { cpu: '1' } }],
    ],
    [
      'a running ephemeral container: an empty object (it may have no resources)',
      () => {
        const p = pod();
        p.spec!.ephemeralContainers = [{ name: 'debugger', image: 'busybox:1.35' }];
        return gen(p, runtime([inst('app', 'running'), inst('debugger', 'running')])).ephemeralContainerStatuses?.[0]?.resources;
      },
      {},
    ],
    [
      'written after started and before volumeMounts, as the API server orders the fields',
      () => {
        const p = withResources({ limits: { cpu: '1' }, requests: { cpu: '1' } });
        p.spec!.containers[0]!.volumeMounts = [{ name: 'data', mountPath: '/data' }];
        const first = gen(p, runtime([]));
        return Object.keys(statusOf(gen({ ...p, status: first }, runtime([inst('app', 'running')])), 'app'));
      },
      ['name', 'state', 'lastState', 'ready', 'restartCount', 'image', 'imageID', 'containerID', 'started', 'resources', 'volumeMounts'],
    ],
  ];
  for (const [name, actual, expected] of cases) test(name, () => assert.deepEqual(actual(), expected));
});
