// The pod's phase/STATUS history rebuilt from the server's data for a panel opened after the fact
// (src/extension/panel/history.ts), checked against hand-built pods and against recordings of a
// panel that watched from the start.
import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import type { Pod } from 'kubernetes-types/core/v1';
import type { WatchEvent, PodDebugInfo } from '../../src/engine/api.js';
import { mergeHistory, reconstructHistory, type StatusMark } from '../../src/extension/panel/history.js';
import { buildPanelModel, hookViews, instanceOf, newObservation, observe, withDebug, withEvents } from '../../src/extension/panel/model.js';
import { replayFeed, type RecordedStream } from '../../src/extension/panel/recording.js';
import { recordedStream } from '../support/fixtures.js';
import type { AttemptView, EventView } from '../../src/shared/protocol.js';

const T0 = Date.parse('2024-05-01T10:00:00Z');
const at = (s: number) => T0 + s * 1000;
const iso = (s: number) => new Date(at(s)).toISOString();

function pod(spec: Partial<NonNullable<Pod['spec']>>, status: NonNullable<Pod['status']> = {}): Pod {
  return {
    metadata: { name: 'p', namespace: 'default', uid: 'u1', creationTimestamp: iso(0) },
    spec: { containers: [{ name: 'app', image: 'busybox' }], ...spec },
    status,
  };
}

function attempt(attemptNo: number, start: number, finish?: number, exitCode?: number): AttemptView {
  return {
    attempt: attemptNo,
    containerId: `c${attemptNo}-${start}`,
    state: finish === undefined ? 'running' : 'exited',
    exitCode,
    reason: finish === undefined ? undefined : exitCode === 0 ? 'Completed' : 'Error',
    createdAt: at(start),
    startedAt: at(start),
    finishedAt: finish === undefined ? undefined : at(finish),
  };
}

function backOff(container: string, first: number, last: number, count: number): EventView {
  return { key: `bo-${container}`, type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', count, firstAt: at(first), lastAt: at(last), source: 'kubelet', fieldPath: `spec.initContainers{${container}}` };
}

const mark = (s: number, phase: string, status: string): StatusMark => ({ at: at(s), phase, status });

describe('rebuilding the phase and STATUS before the panel watched', () => {
  const cases: { name: string; pod: Pod; attempts: [string, AttemptView[]][]; events?: EventView[]; until: number; want: StatusMark[] }[] = [
    {
      name: 'an init container that fails, restarts at once, fails again and waits in back-off: Error, then CrashLoopBackOff from the first BackOff event',
      pod: pod(
        { initContainers: [{ name: 'init', image: 'busybox' }] },
        { phase: 'Pending', initContainerStatuses: [{ name: 'init', image: 'busybox', imageID: '', ready: false, restartCount: 1, state: { waiting: { reason: 'CrashLoopBackOff' } } }] },
      ),
      attempts: [['init', [attempt(0, 1, 2, 1), attempt(1, 3, 4, 1)]]],
      events: [backOff('init', 5, 30, 4)],
      until: at(60),
      want: [mark(0, 'Pending', 'Pending'), mark(1, 'Pending', 'Init:0/1'), mark(2, 'Pending', 'Init:Error'), mark(3, 'Pending', 'Init:0/1'), mark(4, 'Pending', 'Init:Error'), mark(5, 'Pending', 'Init:CrashLoopBackOff')],
    },
    {
      name: 'two init containers then the app: Init:0/2, Init:1/2, PodInitializing, then Running',
      pod: pod({ initContainers: [{ name: 'a', image: 'busybox' }, { name: 'b', image: 'busybox' }] }),
      attempts: [
        ['a', [attempt(0, 1, 2, 0)]],
        ['b', [attempt(0, 3, 4, 0)]],
        ['app', [attempt(0, 6)]],
      ],
      until: at(60),
      want: [mark(0, 'Pending', 'Pending'), mark(1, 'Pending', 'Init:0/2'), mark(2, 'Pending', 'Init:1/2'), mark(4, 'Pending', 'PodInitializing'), mark(6, 'Running', 'Running')],
    },
    {
      name: 'a liveness restart in the same sync publishes no exit: the pod stays Running',
      pod: pod({}),
      attempts: [['app', [attempt(0, 1, 30, 137), attempt(1, 30.2)]]],
      until: at(60),
      want: [mark(0, 'Pending', 'Pending'), mark(1, 'Running', 'Running')],
    },
    {
      name: 'restartPolicy Never: the app exiting 1 makes the pod Failed with STATUS Error',
      pod: pod({ restartPolicy: 'Never' }),
      attempts: [['app', [attempt(0, 1, 5, 1)]]],
      until: at(60),
      want: [mark(0, 'Pending', 'Pending'), mark(1, 'Running', 'Running'), mark(5, 'Failed', 'Error')],
    },
    {
      name: 'only what happened before the panel watched is rebuilt',
      pod: pod({ restartPolicy: 'Never' }),
      attempts: [['app', [attempt(0, 1, 5, 0)]]],
      until: at(3),
      want: [mark(0, 'Pending', 'Pending'), mark(1, 'Running', 'Running')],
    },
    {
      name: 'a pod without a creation time has nothing to rebuild',
      pod: { ...pod({}), metadata: { name: 'p' } },
      attempts: [['app', [attempt(0, 1)]]],
      until: at(60),
      want: [],
    },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(reconstructHistory(c.pod, new Map(c.attempts), c.until, c.events ?? []), c.want));
});

describe('merging rebuilt and observed history', () => {
  const cases: { name: string; rebuilt: StatusMark[]; observed: StatusMark[]; want: StatusMark[] }[] = [
    {
      name: 'rebuilt marks come first, up to the first sight; the first sight is dropped when it repeats the rebuilt state',
      rebuilt: [mark(0, 'Pending', 'Pending'), mark(1, 'Running', 'Running'), mark(9, 'Running', 'Error')],
      observed: [mark(5, 'Running', 'Running'), mark(7, 'Succeeded', 'Completed')],
      want: [mark(0, 'Pending', 'Pending'), mark(1, 'Running', 'Running'), mark(7, 'Succeeded', 'Completed')],
    },
    {
      name: 'a panel that watched from the creation keeps what it saw',
      rebuilt: [mark(0, 'Pending', 'Pending')],
      observed: [mark(0, 'Pending', 'Pending'), mark(2, 'Running', 'Running')],
      want: [mark(0, 'Pending', 'Pending'), mark(2, 'Running', 'Running')],
    },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(mergeHistory(c.rebuilt, c.observed), c.want));
});

describe('a panel opened late shows the history a watching panel saw', () => {
  for (const name of ['failing-init', 'two-containers', 'probes-and-hooks']) {
    test(`${name}: every STATUS of the re-opened panel is one the watching panel showed, in order, and its phases are the same`, () => {
      const s = recordedStream(name);
      const end = s.frames[s.frames.length - 1]!.at;
      const live = buildPanelModel(replayFeed(s).observation, end).timeline.phases;
      let lastPod: WatchEvent | undefined;
      let debug: PodDebugInfo | null = null;
      const events = [];
      for (const f of s.frames) {
        if ('debug' in f) debug = f.debug;
        else if (f.watch.kind === 'Pod') lastPod = f.watch;
        else events.push(f.watch.object);
      }
      let o = observe(newObservation(s.namespace, s.name), lastPod!, end);
      o = withDebug(withEvents(o, events as never), debug ?? undefined);
      const late = buildPanelModel(o, end).timeline.phases;
      const statuses = (ms: typeof live) => ms.map((m) => m.detail.replace(/^phase \w+, STATUS /, ''));
      const liveStatuses = statuses(live);
      let i = 0;
      for (const st of statuses(late)) {
        while (i < liveStatuses.length && liveStatuses[i] !== st) i++;
        assert.ok(i < liveStatuses.length, `${st} of ${JSON.stringify(statuses(late))} not in order in ${JSON.stringify(liveStatuses)}`);
        i++;
      }
      const phases = (ms: typeof live) => ms.filter((m) => m.kind === 'phase').map((m) => m.label);
      assert.deepEqual(phases(late), phases(live));
      assert.ok(late.length >= 3, `a re-opened panel shows more than Pending: ${JSON.stringify(statuses(late))}`);
    });
  }
});

describe('which instance a container id is on a real cluster (kubectl logs or logs --previous)', () => {
  const p: Pod = {
    metadata: { name: 'p' },
    status: {
      initContainerStatuses: [
        { name: 'init', image: 'busybox', imageID: '', ready: false, restartCount: 2, containerID: 'containerd://aaa', state: { terminated: { exitCode: 1, containerID: 'containerd://aaa' } }, lastState: { terminated: { exitCode: 1, containerID: 'containerd://bbb' } } },
      ],
    },
  };
  const cases: [string, string, 'current' | 'previous' | undefined][] = [
    ['the id of the status’s container (with its runtime scheme) is the current one', 'containerd://aaa', 'current'],
    ['a bare id matches the scheme-prefixed one', 'aaa', 'current'],
    ['the last state’s container is the previous one', 'bbb', 'previous'],
    ['an older instance is neither: the API has no logs of it', 'ccc', undefined],
  ];
  for (const [name, id, want] of cases) test(name, () => assert.equal(instanceOf(p, 'init', id), want));
});

describe('a container’s lifecycle hooks in the panel', () => {
  test('each hook’s handler in kubectl describe’s wording and its latest run, whole', () =>
    assert.deepEqual(
      hookViews(
        { name: 'web', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo hi'] } }, preStop: { httpGet: { path: '/quit', port: 8080 } } } },
        [
          { containerName: 'web', containerId: 'a', hook: 'postStart', startedAt: 1000, finishedAt: 1200 },
          { containerName: 'web', containerId: 'b', hook: 'postStart', startedAt: 5000, finishedAt: 5300, error: 'Exec lifecycle hook ([sh -c echo hi]) for Container "web" in Pod "p" failed - error: command \'sh -c echo hi\' exited with 1: , message: ""' },
          { containerName: 'other', containerId: 'c', hook: 'preStop', startedAt: 6000 },
        ],
      ),
      [
        { hook: 'postStart', handler: 'exec [sh -c echo hi]', last: { at: 5000, durationMs: 300, error: 'Exec lifecycle hook ([sh -c echo hi]) for Container "web" in Pod "p" failed - error: command \'sh -c echo hi\' exited with 1: , message: ""' } },
        { hook: 'preStop', handler: 'http-get http://:8080/quit' },
      ],
    ));
});
