import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computePodActions, type PodActions, type ProbeResults } from '../../src/engine/kubelet/actions.js';
import type { Pod } from 'kubernetes-types/core/v1';
import type { RuntimePodStatus } from '../../src/engine/kubelet/types.js';
import { ctr, pod, runtime, sandbox } from '../support/fixtures.js';

interface Expect {
  killPod?: boolean;
  createSandbox?: boolean;
  attempt?: number;
  init?: number[];
  start?: number[];
  /** `name: message (reason)` of each container to kill. */
  kill?: string[];
}

/** The decision and the runtime state it was made from (for the no-action baseline). */
function decide(p: Pod, rs: RuntimePodStatus, probes?: ProbeResults): { got: PodActions; rs: RuntimePodStatus } {
  return { got: computePodActions(p, rs, probes), rs };
}

/** What computePodActions returns when nothing is to be done: the current sandbox kept, nothing started or killed. */
function baseline(rs: RuntimePodStatus): Expect & { sandboxId: string } {
  const sb = rs.sandboxes[0];
  return { killPod: false, createSandbox: false, sandboxId: sb?.id ?? '', attempt: sb?.metadata.attempt ?? 0, init: [], start: [], kill: [] };
}

const cases: { name: string; build: () => ReturnType<typeof decide>; want: Expect }[] = [
  {
    name: 'a pod with no sandbox gets sandbox attempt 0 and all its containers started',
    build: () => decide(pod({ containers: ['a', 'b'] }), runtime([], [])),
    want: { killPod: true, createSandbox: true, attempt: 0, start: [0, 1], init: [] },
  },
  {
    name: 'a pod with init containers and no sandbox starts only the first init container',
    build: () => decide(pod({ inits: ['i1', 'i2'] }), runtime([], [])),
    want: { killPod: true, createSandbox: true, init: [0], start: [] },
  },
  {
    name: 'a running init container is waited for',
    build: () => {
      const p = pod({ inits: ['i1', 'i2'] });
      return decide(p, runtime([sandbox()], [ctr(p, 'i1', 'running')]));
    },
    want: { killPod: false, createSandbox: false, init: [], start: [] },
  },
  {
    name: 'an init container that exited 0 lets the next one start',
    build: () => {
      const p = pod({ inits: ['i1', 'i2'] });
      return decide(p, runtime([sandbox()], [ctr(p, 'i1', 'exited')]));
    },
    want: { init: [1], start: [] },
  },
  {
    name: 'the last init container exiting 0 starts every app container',
    build: () => {
      const p = pod({ inits: ['i1', 'i2'], containers: ['a', 'b'] });
      return decide(p, runtime([sandbox()], [ctr(p, 'i2', 'exited'), ctr(p, 'i1', 'exited')]));
    },
    want: { init: [], start: [0, 1] },
  },
  {
    name: 'a failed init container under restartPolicy Always is restarted',
    build: () => {
      const p = pod({ inits: ['i1', 'i2'] });
      return decide(p, runtime([sandbox()], [ctr(p, 'i1', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: false, init: [0], start: [] },
  },
  {
    name: 'a failed init container under restartPolicy Never kills the pod and starts nothing',
    build: () => {
      const p = pod({ inits: ['i1', 'i2'], restartPolicy: 'Never' });
      return decide(p, runtime([sandbox()], [ctr(p, 'i1', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: true, init: [], start: [] },
  },
  {
    name: 'an OOM-killed init container counts as failed even with exit code 0',
    build: () => {
      const p = pod({ inits: ['i1'], restartPolicy: 'Never' });
      return decide(p, runtime([sandbox()], [ctr(p, 'i1', 'exited', { exitCode: 0, reason: 'OOMKilled' })]));
    },
    want: { killPod: true },
  },
  {
    name: 'once an app container runs, finished init containers are not run again',
    build: () => {
      const p = pod({ inits: ['i1'], containers: ['a'] });
      return decide(p, runtime([sandbox()], [ctr(p, 'a', 'running'), ctr(p, 'i1', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: false, init: [], start: [] },
  },
  {
    name: 'a running sidecar lets the next init container start',
    build: () => {
      const p = pod({ sidecars: ['s'], inits: ['i1'] });
      return decide(p, runtime([sandbox()], [ctr(p, 's', 'running')]));
    },
    want: { init: [1], start: [] },
  },
  {
    name: 'an exited sidecar is restarted even under restartPolicy Never',
    build: () => {
      const p = pod({ sidecars: ['s'], restartPolicy: 'Never' });
      return decide(p, runtime([sandbox()], [ctr(p, 's', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: false, init: [0] },
  },
  {
    name: 'an app container that exited 1 under Always is restarted',
    build: () => {
      const p = pod({ containers: ['a'] });
      return decide(p, runtime([sandbox()], [ctr(p, 'a', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: false, start: [0] },
  },
  {
    name: 'an app container that exited 0 under OnFailure is not restarted and the pod is killed',
    build: () => {
      const p = pod({ containers: ['a'], restartPolicy: 'OnFailure' });
      return decide(p, runtime([sandbox()], [ctr(p, 'a', 'exited', { exitCode: 0 })]));
    },
    want: { killPod: true, start: [] },
  },
  {
    name: 'an app container that exited 1 under OnFailure is restarted',
    build: () => {
      const p = pod({ containers: ['a'], restartPolicy: 'OnFailure' });
      return decide(p, runtime([sandbox()], [ctr(p, 'a', 'exited', { exitCode: 1 })]));
    },
    want: { start: [0] },
  },
  {
    name: 'under Never, one exited container and one running container: keep the running one',
    build: () => {
      const p = pod({ containers: ['a', 'b'], restartPolicy: 'Never' });
      return decide(p, runtime([sandbox()], [ctr(p, 'a', 'exited', { exitCode: 1 }), ctr(p, 'b', 'running')]));
    },
    want: { killPod: false, start: [] },
  },
  {
    name: 'a running container whose spec changed is killed and restarted',
    build: () => {
      const p = pod({ containers: ['a'] });
      return decide(p, runtime([sandbox()], [ctr(p, 'a', 'running', { hash: 'deadbeef' })]));
    },
    want: { start: [0], kill: ['a: Container a definition changed, will be restarted ()'] },
  },
  {
    name: 'a liveness failure under Never kills the container without restart',
    build: () => {
      const p = pod({ containers: ['a', 'b'], restartPolicy: 'Never' });
      const a = ctr(p, 'a', 'running');
      return decide(p, runtime([sandbox()], [a, ctr(p, 'b', 'running')]), { liveness: new Map([[a.id, 'Failure']]) });
    },
    want: { start: [], kill: ['a: Container a failed liveness probe (LivenessProbe)'] },
  },
  {
    name: 'a sandbox that is not ready is recreated with the next attempt and init containers re-run',
    build: () => {
      const p = pod({ inits: ['i1'], containers: ['a'] });
      return decide(p, runtime([sandbox('notready', 2)], [ctr(p, 'a', 'exited', { exitCode: 137 })]));
    },
    want: { killPod: true, createSandbox: true, attempt: 3, init: [0] },
  },
  {
    name: 'a dead sandbox of a finished pod under Never is not recreated',
    build: () => {
      const p = pod({ containers: ['a'], restartPolicy: 'Never' });
      return decide(p, runtime([sandbox('notready', 0)], [ctr(p, 'a', 'exited', { exitCode: 0 })]));
    },
    want: { killPod: true, createSandbox: false, attempt: 1 },
  },
  {
    name: 'a dead sandbox of an OnFailure pod whose containers all succeeded is not recreated',
    build: () => {
      const p = pod({ containers: ['a'], restartPolicy: 'OnFailure' });
      return decide(p, runtime([sandbox('notready', 0)], [ctr(p, 'a', 'exited', { exitCode: 0 })]));
    },
    want: { killPod: true, createSandbox: false, attempt: 1 },
  },
  {
    name: 'two ready sandboxes force a new one',
    build: () => decide(pod({}), runtime([sandbox('ready', 1), sandbox('ready', 0)], [])),
    want: { killPod: true, createSandbox: true, attempt: 2, start: [0] },
  },
  {
    name: 'a sandbox without an IP is recreated unless the pod uses the host network',
    build: () => decide(pod({ hostNetwork: true }), runtime([sandbox('ready', 0, '')], [])),
    want: { createSandbox: false, start: [0] },
  },
  {
    name: 'a deleted pod does not restart exited containers',
    build: () => {
      const p = pod({ containers: ['a'], deleting: true });
      return decide(p, runtime([sandbox()], [ctr(p, 'a', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: true, start: [] },
  },
  {
    name: 'a running container whose liveness probe succeeds is kept: nothing to do',
    build: () => {
      const p = pod({ containers: ['a'] });
      const a = ctr(p, 'a', 'running');
      return decide(p, runtime([sandbox()], [a]), { liveness: new Map([[a.id, 'Success']]) });
    },
    want: {},
  },
  {
    name: 'a liveness failure under Always kills the container and restarts it in the same sync',
    build: () => {
      const p = pod({ containers: ['a', 'b'] });
      const a = ctr(p, 'a', 'running');
      return decide(p, runtime([sandbox()], [a, ctr(p, 'b', 'running')]), { liveness: new Map([[a.id, 'Failure']]) });
    },
    want: { start: [0], kill: ['a: Container a failed liveness probe, will be restarted (LivenessProbe)'] },
  },
  {
    name: 'a startup probe failure kills and restarts the container',
    build: () => {
      const p = pod({ containers: ['a'] });
      const a = ctr(p, 'a', 'running');
      return decide(p, runtime([sandbox()], [a]), { startup: new Map([[a.id, 'Failure']]) });
    },
    want: { start: [0], kill: ['a: Container a failed startup probe, will be restarted (StartupProbe)'] },
  },
  {
    name: 'a liveness verdict for an older instance does not touch the running one',
    build: () => {
      const p = pod({ containers: ['a'] });
      return decide(p, runtime([sandbox()], [ctr(p, 'a', 'running')]), { liveness: new Map([['a-old', 'Failure']]) });
    },
    want: {},
  },
  {
    name: 'a sidecar with a startup probe and no result yet holds the next init container',
    build: () => {
      const p = pod({ sidecars: ['s'], inits: ['i'], containers: ['a'] });
      p.spec!.initContainers![0]!.startupProbe = { exec: { command: ['true'] } };
      return decide(p, runtime([sandbox()], [ctr(p, 's', 'running')]));
    },
    want: {},
  },
  {
    name: 'a sidecar that passed its startup probe lets the next init container start',
    build: () => {
      const p = pod({ sidecars: ['s'], inits: ['i'], containers: ['a'] });
      p.spec!.initContainers![0]!.startupProbe = { exec: { command: ['true'] } };
      const s1 = ctr(p, 's', 'running');
      return decide(p, runtime([sandbox()], [s1]), { startup: new Map([[s1.id, 'Success']]) });
    },
    want: { init: [1] },
  },
  {
    name: 'a sidecar failing its startup probe is killed and restarted, with no "will be restarted" suffix',
    build: () => {
      const p = pod({ sidecars: ['s'], containers: ['a'] });
      p.spec!.initContainers![0]!.startupProbe = { exec: { command: ['true'] } };
      const s1 = ctr(p, 's', 'running');
      return decide(p, runtime([sandbox()], [s1]), { startup: new Map([[s1.id, 'Failure']]) });
    },
    want: { init: [0], kill: ['s: Init container s failed startup probe (StartupProbe)'] },
  },
  {
    name: 'a running sidecar failing liveness after the pod initialized is killed and restarted',
    build: () => {
      const p = pod({ sidecars: ['s'], containers: ['a'] });
      const s1 = ctr(p, 's', 'running');
      return decide(p, runtime([sandbox()], [s1, ctr(p, 'a', 'running')]), { liveness: new Map([[s1.id, 'Failure']]) });
    },
    want: { init: [0], kill: ['s: Init container s failed liveness probe (LivenessProbe)'] },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { got, rs } = c.build();
    const whole = {
      killPod: got.killPod,
      createSandbox: got.createSandbox,
      sandboxId: got.sandboxId,
      attempt: got.attempt,
      init: got.initContainersToStart,
      start: got.containersToStart,
      kill: [...got.containersToKill.values()].map((k) => `${k.name}: ${k.message} (${k.reason})`),
    };
    assert.deepEqual(whole, { ...baseline(rs), ...c.want });
  });
}
