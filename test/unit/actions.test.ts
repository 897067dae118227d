import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computePodActions } from '../../src/engine/kubelet/actions.js';
import { ctr, pod, runtime, sandbox } from '../support/fixtures.js';

interface Expect {
  killPod?: boolean;
  createSandbox?: boolean;
  attempt?: number;
  init?: number[];
  start?: number[];
  kill?: string[];
}

const cases: { name: string; build: () => ReturnType<typeof computePodActions>; want: Expect }[] = [
  {
    name: 'a pod with no sandbox gets sandbox attempt 0 and all its containers started',
    build: () => computePodActions(pod({ containers: ['a', 'b'] }), runtime([], [])),
    want: { killPod: true, createSandbox: true, attempt: 0, start: [0, 1], init: [] },
  },
  {
    name: 'a pod with init containers and no sandbox starts only the first init container',
    build: () => computePodActions(pod({ inits: ['i1', 'i2'] }), runtime([], [])),
    want: { createSandbox: true, init: [0], start: [] },
  },
  {
    name: 'a running init container is waited for',
    build: () => {
      const p = pod({ inits: ['i1', 'i2'] });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'i1', 'running')]));
    },
    want: { killPod: false, createSandbox: false, init: [], start: [] },
  },
  {
    name: 'an init container that exited 0 lets the next one start',
    build: () => {
      const p = pod({ inits: ['i1', 'i2'] });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'i1', 'exited')]));
    },
    want: { init: [1], start: [] },
  },
  {
    name: 'the last init container exiting 0 starts every app container',
    build: () => {
      const p = pod({ inits: ['i1', 'i2'], containers: ['a', 'b'] });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'i2', 'exited'), ctr(p, 'i1', 'exited')]));
    },
    want: { init: [], start: [0, 1] },
  },
  {
    name: 'a failed init container under restartPolicy Always is restarted',
    build: () => {
      const p = pod({ inits: ['i1', 'i2'] });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'i1', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: false, init: [0], start: [] },
  },
  {
    name: 'a failed init container under restartPolicy Never kills the pod and starts nothing',
    build: () => {
      const p = pod({ inits: ['i1', 'i2'], restartPolicy: 'Never' });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'i1', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: true, init: [], start: [] },
  },
  {
    name: 'an OOM-killed init container counts as failed even with exit code 0',
    build: () => {
      const p = pod({ inits: ['i1'], restartPolicy: 'Never' });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'i1', 'exited', { exitCode: 0, reason: 'OOMKilled' })]));
    },
    want: { killPod: true },
  },
  {
    name: 'once an app container runs, finished init containers are not run again',
    build: () => {
      const p = pod({ inits: ['i1'], containers: ['a'] });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'a', 'running'), ctr(p, 'i1', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: false, init: [], start: [] },
  },
  {
    name: 'a running sidecar lets the next init container start',
    build: () => {
      const p = pod({ sidecars: ['s'], inits: ['i1'] });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 's', 'running')]));
    },
    want: { init: [1], start: [] },
  },
  {
    name: 'an exited sidecar is restarted even under restartPolicy Never',
    build: () => {
      const p = pod({ sidecars: ['s'], restartPolicy: 'Never' });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 's', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: false, init: [0] },
  },
  {
    name: 'an app container that exited 1 under Always is restarted',
    build: () => {
      const p = pod({ containers: ['a'] });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'a', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: false, start: [0] },
  },
  {
    name: 'an app container that exited 0 under OnFailure is not restarted and the pod is killed',
    build: () => {
      const p = pod({ containers: ['a'], restartPolicy: 'OnFailure' });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'a', 'exited', { exitCode: 0 })]));
    },
    want: { killPod: true, start: [] },
  },
  {
    name: 'an app container that exited 1 under OnFailure is restarted',
    build: () => {
      const p = pod({ containers: ['a'], restartPolicy: 'OnFailure' });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'a', 'exited', { exitCode: 1 })]));
    },
    want: { start: [0] },
  },
  {
    name: 'under Never, one exited container and one running container: keep the running one',
    build: () => {
      const p = pod({ containers: ['a', 'b'], restartPolicy: 'Never' });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'a', 'exited', { exitCode: 1 }), ctr(p, 'b', 'running')]));
    },
    want: { killPod: false, start: [] },
  },
  {
    name: 'a running container whose spec changed is killed and restarted',
    build: () => {
      const p = pod({ containers: ['a'] });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'a', 'running', { hash: 'deadbeef' })]));
    },
    want: { start: [0], kill: ['Container a definition changed, will be restarted'] },
  },
  {
    name: 'a liveness failure under Never kills the container without restart',
    build: () => {
      const p = pod({ containers: ['a', 'b'], restartPolicy: 'Never' });
      const a = ctr(p, 'a', 'running');
      return computePodActions(p, runtime([sandbox()], [a, ctr(p, 'b', 'running')]), { liveness: new Map([[a.id, 'Failure']]) });
    },
    want: { start: [], kill: ['Container a failed liveness probe'] },
  },
  {
    name: 'a sandbox that is not ready is recreated with the next attempt and init containers re-run',
    build: () => {
      const p = pod({ inits: ['i1'], containers: ['a'] });
      return computePodActions(p, runtime([sandbox('notready', 2)], [ctr(p, 'a', 'exited', { exitCode: 137 })]));
    },
    want: { killPod: true, createSandbox: true, attempt: 3, init: [0] },
  },
  {
    name: 'a dead sandbox of a finished pod under Never is not recreated',
    build: () => {
      const p = pod({ containers: ['a'], restartPolicy: 'Never' });
      return computePodActions(p, runtime([sandbox('notready', 0)], [ctr(p, 'a', 'exited', { exitCode: 0 })]));
    },
    want: { killPod: true, createSandbox: false },
  },
  {
    name: 'a dead sandbox of an OnFailure pod whose containers all succeeded is not recreated',
    build: () => {
      const p = pod({ containers: ['a'], restartPolicy: 'OnFailure' });
      return computePodActions(p, runtime([sandbox('notready', 0)], [ctr(p, 'a', 'exited', { exitCode: 0 })]));
    },
    want: { createSandbox: false },
  },
  {
    name: 'two ready sandboxes force a new one',
    build: () => computePodActions(pod({}), runtime([sandbox('ready', 1), sandbox('ready', 0)], [])),
    want: { createSandbox: true, attempt: 2 },
  },
  {
    name: 'a sandbox without an IP is recreated unless the pod uses the host network',
    build: () => computePodActions(pod({ hostNetwork: true }), runtime([sandbox('ready', 0, '')], [])),
    want: { createSandbox: false, start: [0] },
  },
  {
    name: 'a deleted pod does not restart exited containers',
    build: () => {
      const p = pod({ containers: ['a'], deleting: true });
      return computePodActions(p, runtime([sandbox()], [ctr(p, 'a', 'exited', { exitCode: 1 })]));
    },
    want: { killPod: true, start: [] },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const got = c.build();
    if (c.want.killPod !== undefined) assert.equal(got.killPod, c.want.killPod, 'killPod');
    if (c.want.createSandbox !== undefined) assert.equal(got.createSandbox, c.want.createSandbox, 'createSandbox');
    if (c.want.attempt !== undefined) assert.equal(got.attempt, c.want.attempt, 'attempt');
    if (c.want.init !== undefined) assert.deepEqual(got.initContainersToStart, c.want.init, 'initContainersToStart');
    if (c.want.start !== undefined) assert.deepEqual(got.containersToStart, c.want.start, 'containersToStart');
    if (c.want.kill !== undefined) assert.deepEqual([...got.containersToKill.values()].map((k) => k.message), c.want.kill, 'kill messages');
  });
}
