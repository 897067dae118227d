// Ephemeral containers in the kubelet: computePodActions' EphemeralContainersToStart, the
// ephemeralContainerStatuses of the generated status, and SyncPod's step 5 on the recording fake
// runtime (start once, never restart, the target's PID namespace, events on
// spec.ephemeralContainers{name}, killed with the pod).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerConfig } from '../../src/runtime/cri.js';
import type { ContainerStatus, EphemeralContainer, Pod, PodStatus } from 'kubernetes-types/core/v1';
import { computePodActions, type PodActions } from '../../src/engine/kubelet/actions.js';
import { generatePodStatus } from '../../src/engine/kubelet/status.js';
import type { RuntimePodStatus, StartFailure } from '../../src/engine/kubelet/types.js';
import { ctr, pod, runtime, sandbox, T0 } from '../support/fixtures.js';
import { fakeLab, podOf, type FakeLab } from '../support/fake-engine.js';

const dbg = (name = 'dbg', extra: Partial<EphemeralContainer> = {}): EphemeralContainer => ({ name, image: 'busybox:1.35', command: ['sh'], ...extra });
function withEphemeral(p: Pod, ...list: EphemeralContainer[]): Pod {
  return { ...p, spec: { ...p.spec!, ephemeralContainers: list } };
}

/** The whole decision as plain data (the kill map as `[id, name: message (reason)]` pairs). */
function decision(a: PodActions) {
  return { ...a, containersToKill: [...a.containersToKill].map(([id, k]) => [id, `${k.name}: ${k.message} (${k.reason})`]) };
}
const NOTHING = { killPod: false, createSandbox: false, sandboxId: 'sb0', attempt: 0, initContainersToStart: [], containersToStart: [], ephemeralContainersToStart: [], containersToKill: [] };

describe('computePodActions: EphemeralContainersToStart', () => {
  const cases: { name: string; build: () => [Pod, RuntimePodStatus]; want: ReturnType<typeof decision> }[] = [
    {
      name: 'a new ephemeral container of a running pod is started, nothing else happens',
      build: () => {
        const p = withEphemeral(pod({}), dbg());
        return [p, runtime([sandbox()], [ctr(p, 'app', 'running', { id: 'app-1' })])];
      },
      want: { ...NOTHING, ephemeralContainersToStart: [0] },
    },
    {
      name: 'an ephemeral container that ran and exited is never started again, whatever the restartPolicy',
      build: () => {
        const p = withEphemeral(pod({}), dbg());
        return [p, runtime([sandbox()], [ctr(p, 'dbg', 'exited', { id: 'dbg-1', exitCode: 1 }), ctr(p, 'app', 'running', { id: 'app-1' })])];
      },
      want: NOTHING,
    },
    {
      name: 'a running ephemeral container is left alone; only the ones without any instance start, in spec order',
      build: () => {
        const p = withEphemeral(pod({}), dbg('one'), dbg('two'), dbg('three'));
        return [p, runtime([sandbox()], [ctr(p, 'two', 'running', { id: 'two-1' }), ctr(p, 'app', 'running', { id: 'app-1' })])];
      },
      want: { ...NOTHING, ephemeralContainersToStart: [0, 2] },
    },
    {
      name: 'an ephemeral container starts even while the pod is still initializing',
      build: () => {
        const p = withEphemeral(pod({ inits: ['init'] }), dbg());
        return [p, runtime([sandbox()], [ctr(p, 'init', 'running', { id: 'init-1' })])];
      },
      want: { ...NOTHING, ephemeralContainersToStart: [0] },
    },
    {
      name: 'no ephemeral container starts in the sync that (re)creates the sandbox',
      build: () => {
        const p = withEphemeral(pod({}), dbg());
        return [p, runtime([sandbox('notready')], [ctr(p, 'app', 'exited', { id: 'app-1', exitCode: 1 })])];
      },
      want: { ...NOTHING, killPod: true, createSandbox: true, attempt: 1, containersToStart: [0] },
    },
    {
      name: 'when every app container is done (Never) the pod is killed; the decision still lists the new ephemeral container',
      build: () => {
        const p = withEphemeral(pod({ restartPolicy: 'Never' }), dbg());
        return [p, runtime([sandbox()], [ctr(p, 'app', 'exited', { id: 'app-1' })])];
      },
      want: { ...NOTHING, killPod: true, ephemeralContainersToStart: [0] },
    },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(decision(computePodActions(...c.build())), c.want));
});

describe('generatePodStatus: ephemeralContainerStatuses', () => {
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const status = (p: Pod, rs: RuntimePodStatus, reasons: [string, StartFailure][] = []): PodStatus =>
    generatePodStatus({ pod: p, runtime: rs, reasonCache: new Map(reasons), podIsTerminal: false, now: T0 + 10_000 });
  const base = (name: string, state: ContainerStatus['state'], extra: Partial<ContainerStatus> = {}): ContainerStatus => ({
    name,
    state,
    lastState: {},
    ready: false,
    restartCount: 0,
    image: 'busybox:1.35',
    imageID: '',
    ...extra,
  });
  const cases: { name: string; build: () => [Pod, RuntimePodStatus, [string, StartFailure][]?]; want: ContainerStatus[] | undefined }[] = [
    { name: 'a pod without ephemeral containers has no ephemeralContainerStatuses', build: () => [pod({}), runtime([sandbox()], [])], want: undefined },
    {
      name: 'not yet created: Waiting ContainerCreating (PodInitializing when the pod has init containers), sorted by name',
      build: () => {
        const p = withEphemeral(pod({ inits: ['init'] }), dbg('zed'), dbg('abe'));
        return [p, runtime([sandbox()], [])];
      },
      want: [base('abe', { waiting: { reason: 'PodInitializing' } }), base('zed', { waiting: { reason: 'PodInitializing' } })],
    },
    {
      name: 'running and exited instances as for any container, never ready and without `started`',
      build: () => {
        const p = withEphemeral(pod({}), dbg('a'), dbg('b'));
        return [p, runtime([sandbox()], [ctr(p, 'a', 'running', { id: 'a1' }), ctr(p, 'b', 'exited', { id: 'b1', exitCode: 2, reason: 'Error' })])];
      },
      want: [
        base('a', { running: { startedAt: iso(T0) } }, { imageID: 'docker://sha256:abc', containerID: 'docker://a1', resources: {} }),
        base('b', { terminated: { exitCode: 2, reason: 'Error', startedAt: iso(T0), finishedAt: iso(T0 + 1000), containerID: 'docker://b1' } }, { imageID: 'docker://sha256:abc', containerID: 'docker://b1', resources: {} }),
      ],
    },
    {
      name: 'a failed start shows the reason cache, e.g. the missing target',
      build: () => {
        const p = withEphemeral(pod({}), dbg());
        return [p, runtime([sandbox()], []), [['dbg', { reason: 'CreateContainerConfigError', message: 'unable to find target container app' }]]];
      },
      want: [base('dbg', { waiting: { reason: 'CreateContainerConfigError', message: 'unable to find target container app' } })],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const [p, rs, reasons] = c.build();
      assert.deepEqual(status(p, rs, reasons).ephemeralContainerStatuses, c.want);
    });
  }

  test('ephemeral containers change nothing else: phase, conditions and container statuses are those of the pod without them', () => {
    const plain = pod({});
    const rsPlain = runtime([sandbox()], [ctr(plain, 'app', 'running', { id: 'app-1' })]);
    const withDbg = withEphemeral(plain, dbg());
    const rsDbg = runtime([sandbox()], [ctr(withDbg, 'dbg', 'exited', { id: 'dbg-1', exitCode: 1, reason: 'Error' }), ...rsPlain.containers]);
    const { ephemeralContainerStatuses: _e, ...rest } = status(withDbg, rsDbg);
    assert.deepEqual(rest, status(plain, rsPlain));
  });
});

describe('SyncPod step 5 on the fake runtime', () => {
  const sec = 1000;
  async function runningPod(app: Parameters<typeof podOf>[0]['containers'][number] = { name: 'app' }): Promise<FakeLab> {
    const lab = await fakeLab();
    await lab.engine.createPod(podOf({ terminationGracePeriodSeconds: 1, containers: [app] }));
    await lab.clock.advanceAsync(2 * sec);
    return lab;
  }
  const addEphemeral = (lab: FakeLab, ...list: EphemeralContainer[]) =>
    lab.engine.store.update('Pod', 'default', 'p', (p) => {
      (p.spec as { ephemeralContainers?: EphemeralContainer[] }).ephemeralContainers = list;
    });
  const created = (lab: FakeLab, name: string) => lab.rt.calls.find((c) => c.method === 'createContainer' && c.name === name)?.args[0] as ContainerConfig | undefined;
  const appId = (lab: FakeLab) => [...lab.rt.containers].find(([, c]) => c.config.metadata.name === 'app')?.[0];

  test('an added ephemeral container is started at once in the target container PID namespace, with stdin and tty, its events on spec.ephemeralContainers{dbg}', async () => {
    const lab = await runningPod();
    lab.rt.programs.set('app', {});
    const t = lab.clock.now();
    addEphemeral(lab, dbg('dbg', { stdin: true, tty: true, targetContainerName: 'app' }));
    await lab.clock.advanceAsync(1 * sec);
    assert.deepEqual(lab.rt.trace(['createContainer', 'startContainer'], t), ['createContainer dbg @0', 'startContainer dbg @0']);
    const cfg = created(lab, 'dbg')!;
    assert.deepEqual(
      { pidTargetId: cfg.pidTargetId, sharePid: cfg.sharePid, stdin: cfg.stdin, tty: cfg.tty, stdinOnce: cfg.stdinOnce, type: cfg.labels['io.podlab.container.type'] },
      { pidTargetId: appId(lab), sharePid: false, stdin: true, tty: true, stdinOnce: false, type: 'ephemeral' },
    );
    assert.deepEqual(lab.events().slice(-3), [
      'ephemeralContainers{dbg} Pulled: Container image "busybox:1.35" already present on machine',
      'ephemeralContainers{dbg} Created: Created container: dbg',
      'ephemeralContainers{dbg} Started: Started container dbg',
    ]);
    assert.deepEqual(lab.pod()?.status?.ephemeralContainerStatuses?.map((s) => [s.name, Object.keys(s.state ?? {})[0], s.ready]), [['dbg', 'running', false]]);
    await lab.close();
  });

  test('with shareProcessNamespace the target is not used: the container joins the pod PID namespace', async () => {
    const lab = await fakeLab();
    await lab.engine.createPod(podOf({ shareProcessNamespace: true, containers: [{ name: 'app' }] }));
    await lab.clock.advanceAsync(2 * sec);
    addEphemeral(lab, dbg('dbg', { targetContainerName: 'app' }));
    await lab.clock.advanceAsync(1 * sec);
    const cfg = created(lab, 'dbg')!;
    assert.deepEqual({ pidTargetId: cfg.pidTargetId, sharePid: cfg.sharePid }, { pidTargetId: undefined, sharePid: true });
    await lab.close();
  });

  test('an ephemeral container that exits is never restarted, and the pod stays Running 1/1', async () => {
    const lab = await runningPod();
    lab.rt.programs.set('dbg', { exitAfterMs: 100, exitCode: 1 });
    const t = lab.clock.now();
    addEphemeral(lab, dbg());
    await lab.clock.advanceAsync(60 * sec);
    assert.deepEqual(lab.rt.trace(['startContainer'], t), ['startContainer dbg @0']);
    const p = lab.pod();
    assert.deepEqual(
      { phase: p?.status?.phase, ready: p?.status?.conditions?.find((c) => c.type === 'Ready')?.status, dbg: p?.status?.ephemeralContainerStatuses?.[0]?.state?.terminated?.exitCode },
      { phase: 'Running', ready: 'True', dbg: 1 },
    );
    await lab.close();
  });

  test('a target without any instance fails the start with CreateContainerConfigError, retried by a later sync', async () => {
    const lab = await runningPod({ name: 'app', image: 'missing:1' });
    const t = lab.clock.now();
    addEphemeral(lab, dbg('dbg', { targetContainerName: 'app' }));
    await lab.clock.advanceAsync(1 * sec);
    assert.deepEqual(lab.rt.trace(['createContainer'], t), []);
    assert.ok(lab.events().includes('ephemeralContainers{dbg} Failed: Error: unable to find target container app'), lab.events().join('\n'));
    assert.deepEqual(lab.pod()?.status?.ephemeralContainerStatuses?.[0]?.state, { waiting: { reason: 'CreateContainerConfigError', message: 'unable to find target container app' } });
    await lab.close();
  });

  test('deleting the pod stops the ephemeral container with the others', async () => {
    const lab = await runningPod();
    addEphemeral(lab, dbg());
    await lab.clock.advanceAsync(1 * sec);
    const t = lab.clock.now();
    const gone = lab.engine.deletePod('default', 'p');
    await lab.clock.advanceAsync(5 * sec);
    await gone;
    assert.deepEqual(lab.rt.trace(['stopContainer'], t).sort(), ['stopContainer app @0', 'stopContainer dbg @0']);
    assert.ok(lab.events().includes('ephemeralContainers{dbg} Killing: Stopping container dbg'), lab.events().join('\n'));
    await lab.close();
  });
});
