import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { buildPodRows, containerTone, countOf, deleteAllQuestion, deletePodDetail, deletePodQuestion, lensSignature, lensTitles, livePodYaml, notStartedShellMessage, podRowsSignature, stepModePods } from '../../../src/extension/podModel.js';

const now = Date.UTC(2024, 0, 1, 12, 0, 0);
const t = (s: number) => new Date(now - s * 1000).toISOString().replace('.000Z', 'Z');

function crashingInitPod(): Pod {
  return {
    metadata: { name: 'failing-init', namespace: 'default', uid: 'u1', creationTimestamp: t(95) },
    spec: {
      initContainers: [
        { name: 'wait-for-db', image: 'busybox:1.35' },
        { name: 'proxy', image: 'busybox:1.35', restartPolicy: 'Always' },
      ],
      containers: [{ name: 'app', image: 'busybox:1.35' }],
    },
    status: {
      phase: 'Pending',
      initContainerStatuses: [
        {
          name: 'wait-for-db',
          image: 'busybox:1.35',
          imageID: '',
          ready: false,
          restartCount: 3,
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=wait-for-db pod=failing-init_default(u1)' } },
          lastState: { terminated: { exitCode: 1, reason: 'Error', containerID: 'docker://dead', finishedAt: t(10) } },
          containerID: 'docker://dead',
        },
        { name: 'proxy', image: 'busybox:1.35', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } },
      ],
      containerStatuses: [{ name: 'app', image: 'busybox:1.35', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }],
    },
  };
}

test('a pod row carries kubectl STATUS, READY, RESTARTS and AGE', () => {
  const [row] = buildPodRows([crashingInitPod()], now);
  assert.equal(row!.status, 'Init:CrashLoopBackOff');
  assert.equal(row!.ready, '0/2');
  assert.match(row!.restarts, /^3 \(10s ago\)$/);
  assert.equal(row!.age, '95s');
  assert.equal(row!.tone, 'error');
  assert.equal(row!.description, `Init:CrashLoopBackOff · ready 0/2 · restarts ${row!.restarts} · age 95s`);
});

test('containers are grouped init, sidecar, app in that order', () => {
  const [row] = buildPodRows([crashingInitPod()], now);
  assert.deepEqual(
    row!.groups.map((g) => [g.kind, g.containers.map((c) => c.name)]),
    [
      ['init', ['wait-for-db']],
      ['sidecar', ['proxy']],
      ['app', ['app']],
    ],
  );
});

test('a crash-looping init container shows its reason, last exit code and restarts, and offers Restart now and a shell', () => {
  const c = buildPodRows([crashingInitPod()], now)[0]!.groups[0]!.containers[0]!;
  assert.equal(c.description, 'CrashLoopBackOff · last exit 1 · 3 restarts');
  assert.equal(c.contextValue, 'container.init.waiting.backoff.exited');
  assert.equal(c.containerId, 'dead');
  assert.equal(c.icon, 'error');
});

test('a pod paused in step mode says so and offers Continue', () => {
  const [row] = buildPodRows([crashingInitPod()], now, new Map([['u1', 'wait-for-db']]));
  assert.equal(row!.contextValue, 'pod.stepWaiting');
  assert.match(row!.description, /^Paused \(step mode\) · /);
  assert.equal(row!.icon, 'debug-pause');
});

const cs = (state: ContainerStatus['state'], ready = false): ContainerStatus => ({ name: 'a', image: '', imageID: '', ready, restartCount: 0, state });
const toneCases: { name: string; cs: ContainerStatus | undefined; initialized?: boolean; want: ReturnType<typeof containerTone> }[] = [
  { name: 'a container without status is idle', cs: undefined, want: { icon: 'circle-large-outline', tone: 'idle', state: 'none', reason: '' } },
  { name: 'a running ready container is ok', cs: cs({ running: {} }, true), want: { icon: 'pass-filled', tone: 'ok', state: 'running', reason: 'Running' } },
  { name: 'a running unready container is a warning', cs: cs({ running: {} }), want: { icon: 'circle-large-filled', tone: 'warn', state: 'running', reason: 'Running, not ready' } },
  { name: 'a completed container passed', cs: cs({ terminated: { exitCode: 0, reason: 'Completed' } }), want: { icon: 'pass', tone: 'done', state: 'terminated', reason: 'Completed' } },
  { name: 'an image pull back-off is an error', cs: cs({ waiting: { reason: 'ImagePullBackOff' } }), want: { icon: 'error', tone: 'error', state: 'waiting', reason: 'ImagePullBackOff' } },
  { name: 'a container being created is in progress', cs: cs({ waiting: { reason: 'ContainerCreating' } }), want: { icon: 'loading~spin', tone: 'progress', state: 'waiting', reason: 'ContainerCreating' } },
  // Nothing happens to it until the init containers are done (which may be never, in a crash loop): no spinner.
  { name: 'a container waiting for the init containers (PodInitializing) waits, idle, without a spinner', cs: cs({ waiting: { reason: 'PodInitializing' } }), want: { icon: 'clock', tone: 'idle', state: 'waiting', reason: 'PodInitializing' } },
  // The kubelet keeps PodInitializing for a pod with init containers until the container exists.
  { name: 'PodInitializing once the pod is Initialized: the container is being created, in progress', cs: cs({ waiting: { reason: 'PodInitializing' } }), initialized: true, want: { icon: 'loading~spin', tone: 'progress', state: 'waiting', reason: 'PodInitializing' } },
];
for (const c of toneCases) {
  test(c.name, () => {
    assert.deepEqual(containerTone(c.cs, 'app', c.initialized ?? false), c.want);
  });
}

test('the CodeLens offers Run for a pod not in the lab, and its state with Delete and Show lifecycle once it runs', () => {
  assert.deepEqual(lensTitles(undefined, now), { actions: ['run'] });
  const l = lensTitles(crashingInitPod(), now);
  assert.deepEqual(l.actions, ['delete', 'lifecycle']);
  assert.match(l.summary!, /^Init:CrashLoopBackOff · 0\/2 · 3 \(10s ago\) restarts$/);
});

test('step mode is followed for pods with the annotation, or without it when the lab runs in step mode, until they finish', () => {
  const pod = (name: string, annotation: string | undefined, extra: Partial<Pod> = {}): Pod => ({
    metadata: { name, ...(annotation !== undefined ? { annotations: { 'lab.podlab.dev/step-mode': annotation } } : {}), ...extra.metadata },
    status: extra.status,
  });
  const pods = [
    pod('on', 'true'),
    pod('off', 'false'),
    pod('plain', undefined),
    pod('done', 'true', { status: { phase: 'Succeeded' } }),
    pod('failed', 'true', { status: { phase: 'Failed' } }),
    pod('leaving', 'true', { metadata: { name: 'leaving', deletionTimestamp: t(1) } }),
  ];
  const names = (labStepMode: boolean) => stepModePods(pods, labStepMode).map((p) => p.metadata?.name);
  assert.deepEqual({ lab: names(false), labInStepMode: names(true) }, { lab: ['on'], labInStepMode: ['on', 'plain'] });
});

test('counts and the Delete All question read as English for one pod and for several', () => {
  assert.deepEqual(
    { none: countOf(0, 'pod'), one: countOf(1, 'pod'), two: countOf(2, 'pod'), single: deleteAllQuestion(['web']).message, several: deleteAllQuestion(['a', 'b', 'c']) },
    {
      none: '0 pods',
      one: '1 pod',
      two: '2 pods',
      single: 'Delete the lab\'s only pod, "web"?',
      several: { message: 'Delete all 3 lab pods?', detail: 'a, b, c\n\nEach pod is deleted gracefully: its containers get SIGTERM and their grace period to stop.' },
    },
  );
});

test("the Pods view's and the CodeLenses' signatures change with what they show, not with the rest of a pod's status", () => {
  const pod = crashingInitPod();
  const st = pod.status!;
  const variants: Record<string, Pod> = {
    'a new resourceVersion and a condition probed again': {
      ...pod,
      metadata: { ...pod.metadata, resourceVersion: '999' },
      status: { ...st, conditions: [{ type: 'Ready', status: 'False', lastProbeTime: t(1) }] },
    },
    'another restart': { ...pod, status: { ...st, initContainerStatuses: st.initContainerStatuses!.map((s, i) => (i === 0 ? { ...s, restartCount: s.restartCount + 1 } : s)) } },
    'the pod ran its app container': {
      ...pod,
      status: {
        ...st,
        phase: 'Running',
        initContainerStatuses: st.initContainerStatuses!.map((s) => ({ ...s, ready: true, state: { terminated: { exitCode: 0, reason: 'Completed' } } })),
        containerStatuses: [{ name: 'app', image: 'busybox:1.35', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: t(1) } } }],
      },
    },
  };
  const rows = (p: Pod, held = new Map<string, string>()) => podRowsSignature([p], held);
  const lens = (p: Pod) => lensSignature([p]);
  const base = { rows: rows(pod), lens: lens(pod) };
  assert.deepEqual(
    Object.fromEntries(Object.entries(variants).map(([k, p]) => [k, { rows: rows(p) !== base.rows, lens: lens(p) !== base.lens }])),
    {
      'a new resourceVersion and a condition probed again': { rows: false, lens: false },
      'another restart': { rows: true, lens: true },
      'the pod ran its app container': { rows: true, lens: true },
    },
  );
  assert.deepEqual(
    { heldInStepMode: rows(pod, new Map([['u1', 'wait-for-db']])) !== base.rows, sameLater: rows(structuredClone(pod)) === base.rows, lensOfTwoInAnyOrder: lensSignature([pod, { ...pod, metadata: { ...pod.metadata, name: 'b' } }]) === lensSignature([{ ...pod, metadata: { ...pod.metadata, name: 'b' } }, pod]) },
    { heldInStepMode: true, sameLater: true, lensOfTwoInAnyOrder: true },
  );
});

test('the live YAML of a pod from a list (no apiVersion or kind) is kubectl get -o yaml\'s text: apiVersion and kind set, managedFields left out', () => {
  const pod = {
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, managedFields: [{ manager: 'kubectl-client-side-apply', operation: 'Update' }] },
    spec: { containers: [{ name: 'app', image: 'busybox:1.35', command: ['sh', '-c', 'echo hi: there'], ports: [{ containerPort: 8080 }] }] },
    status: { phase: 'Running', podIP: '172.17.0.2', startTime: '2026-11-24T11:09:00Z' },
  } as Pod;
  assert.equal(
    livePodYaml(pod),
    `apiVersion: v1
kind: Pod
metadata:
  labels:
    app: web
  name: web
  namespace: default
spec:
  containers:
  - command:
    - sh
    - -c
    - 'echo hi: there'
    image: busybox:1.35
    name: app
    ports:
    - containerPort: 8080
status:
  phase: Running
  podIP: 172.17.0.2
  startTime: "2026-11-24T11:09:00Z"
`,
  );
});

test("the delete question's detail says what deleting does to this pod now (a completed pod has nothing to stop)", () => {
  const pod = (running: number, grace?: number): Pod => ({
    metadata: { name: 'web' },
    spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'x' }], ...(grace !== undefined ? { terminationGracePeriodSeconds: grace } : {}) },
    status: {
      containerStatuses: ['a', 'b'].map((name, i) => ({ name, image: 'x', imageID: '', ready: false, restartCount: 0, state: i < running ? { running: {} } : { terminated: { exitCode: 0 } } })),
    },
  });
  assert.deepEqual(
    [deletePodDetail(pod(0), undefined), deletePodDetail(pod(1, 5), undefined), deletePodDetail(pod(2), 'prod')],
    [
      'None of its containers runs: the pod and its stopped containers are removed. (The setting podlab.confirmDelete turns this question off.)',
      "Its 1 running container gets SIGTERM, and SIGKILL if still running after the pod's grace period (5s). (The setting podlab.confirmDelete turns this question off.)",
      "This is a real cluster, not the lab. Its 2 running containers get SIGTERM, and SIGKILL if still running after the pod's grace period (30s). The pod is gone unless a controller re-creates it.",
    ],
  );
});

describe('whether Delete Pod asks first, and what', () => {
  const running: Pod = {
    metadata: { name: 'web', namespace: 'shop' },
    spec: { containers: [{ name: 'a', image: 'x' }] },
    status: { containerStatuses: [{ name: 'a', image: 'x', imageID: '', ready: true, restartCount: 0, state: { running: {} } }] },
  };
  const labDetail = "Its 1 running container gets SIGTERM, and SIGKILL if still running after the pod's grace period (30s). (The setting podlab.confirmDelete turns this question off.)";
  const clusterDetail = "This is a real cluster, not the lab. Its 1 running container gets SIGTERM, and SIGKILL if still running after the pod's grace period (30s). The pod is gone unless a controller re-creates it.";
  const cases: [string, string | undefined, boolean, ReturnType<typeof deletePodQuestion>][] = [
    ['a lab pod, with podlab.confirmDelete on (the default): asked, by name', undefined, true, { message: 'Delete pod "shop/web"?', detail: labDetail, confirm: 'Delete' }],
    ['a lab pod, with the setting off: deleted without a question', undefined, false, undefined],
    ['a pod of a real cluster, with the setting on: asked, naming the context', 'prod', true, { message: 'Delete pod "shop/web" in context "prod"?', detail: clusterDetail, confirm: 'Delete' }],
    ['a pod of a real cluster, with the setting off: still asked (the setting is for the lab)', 'prod', false, { message: 'Delete pod "shop/web" in context "prod"?', detail: clusterDetail, confirm: 'Delete' }],
  ];
  for (const [name, context, confirmSetting, want] of cases) test(name, () => assert.deepEqual(deletePodQuestion(running, context, confirmSetting), want));
});

test('Open Shell on a container that never started says why there is nothing to open, with its waiting reason and message when it has them', () => {
  assert.deepEqual(
    [
      notStartedShellMessage('app', { name: 'app', image: 'busybox:1.35', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }),
      notStartedShellMessage('app', { name: 'app', image: 'busybox:1.35', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'CreateContainerConfigError', message: 'configmap "cfg" not found' } } }),
      notStartedShellMessage('app', undefined),
    ],
    [
      'Container "app" has not started yet (waiting: PodInitializing), so there is no instance to open a shell in. Open Shell opens one in a running container, or in a copy of an exited one.',
      'Container "app" has not started yet (waiting: CreateContainerConfigError, configmap "cfg" not found), so there is no instance to open a shell in. Open Shell opens one in a running container, or in a copy of an exited one.',
      'Container "app" has not started yet, so there is no instance to open a shell in. Open Shell opens one in a running container, or in a copy of an exited one.',
    ],
  );
});
