// The lifecycle panel's pure host side: the observation reducer, the view model, the update feed
// (snapshots, patches, latency), the protocol helpers and the HTML shell.
import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import type { Container, ContainerStatus, Event as KEvent, Pod } from 'kubernetes-types/core/v1';
import type { HookRun, PodDebugInfo, ProbeHistoryView, ProbeRunView, WatchEvent } from '../../src/engine/api.js';
import { PanelFeed } from '../../src/extension/panel/feed.js';
import { contentSecurityPolicy, panelHtml } from '../../src/extension/panel/html.js';
import {
  CONDITION_TYPES,
  buildPanelModel,
  envFromText,
  expandVars,
  postDelay,
  newObservation,
  observe,
  resolveEnv,
  probeViews,
  laneMarks,
  withDebug,
} from '../../src/extension/panel/model.js';
import { noticeViews } from '../../src/extension/panel/notices.js';
import { bucketWidth, mergeProbeRuns, recordReady, type ProbeRunsSeen } from '../../src/extension/panel/probes.js';
import { streakText } from '../../webview/format.js';
import { clusterMarks } from '../../webview/timeline.js';
import { replay, replayFeed, type RecordedStream } from '../../src/extension/panel/recording.js';
import { recordedStream } from '../support/fixtures.js';
import {
  PANEL_SECTIONS,
  applyPatch,
  attemptFromKey,
  attemptKey,
  diffModel,
  isHostToWebview,
  isWebviewToHost,
  type EnvView,
  type EventView,
  type LaneMark,
  type NoticeView,
  type PanelModel,
  type ProbeView,
  type ReadyMark,
} from '../../src/shared/protocol.js';

const failing = recordedStream('failing-init');
const twoContainers = recordedStream('two-containers');
const t0 = (s: RecordedStream) => s.frames[0]!.at;
const modelAt = (s: RecordedStream, offsetMs: number): PanelModel => {
  const at = t0(s) + offsetMs;
  return buildPanelModel(replayFeed(s, at).observation, at);
};
const lastAt = (s: RecordedStream) => s.frames[s.frames.length - 1]!.at;

function pod(name: string, extra: Partial<Pod> = {}, uid = 'uid-1'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid, creationTimestamp: '2024-05-01T10:00:00Z' },
    spec: { containers: [{ name: 'app', image: 'busybox:1.35' }] },
    status: { phase: 'Pending' },
    ...extra,
  };
}

function event(podName: string, reason: string, uid = 'uid-1', extra: Partial<KEvent> = {}): KEvent {
  return {
    metadata: { name: `${podName}.${reason}`, namespace: 'default', uid: `ev-${podName}-${reason}` },
    involvedObject: { kind: 'Pod', name: podName, namespace: 'default', uid },
    reason,
    message: `${reason} happened`,
    type: 'Normal',
    count: 1,
    firstTimestamp: '2024-05-01T10:00:01Z',
    lastTimestamp: '2024-05-01T10:00:01Z',
    source: { component: 'kubelet', host: 'podlab-node' },
    ...extra,
  };
}

const podEv = (type: 'ADDED' | 'MODIFIED' | 'DELETED', p: Pod): WatchEvent => ({ type, kind: 'Pod', object: p });
const evEv = (type: 'ADDED' | 'MODIFIED' | 'DELETED', e: KEvent): WatchEvent => ({ type, kind: 'Event', object: e });

describe('$(VAR) expansion', () => {
  const vars: Record<string, string> = { A: 'alpha', B: 'beta' };
  const lookup = (n: string) => vars[n];
  const cases: [string, string, string][] = [
    ['a defined variable is replaced by its value', 'x=$(A)', 'x=alpha'],
    ['two variables in one string are both replaced', '$(A)-$(B)', 'alpha-beta'],
    ['an undefined variable stays as written', 'x=$(NOPE)', 'x=$(NOPE)'],
    ['a doubled dollar escapes a reference', '$$(A)', '$(A)'],
    ['a doubled dollar alone becomes one dollar', 'cost: $$5', 'cost: $5'],
    ['a dollar without parenthesis is kept', 'echo $A', 'echo $A'],
    ['an unclosed reference is kept', 'x=$(A', 'x=$(A'],
    ['an empty reference is kept', '$()', '$()'],
  ];
  for (const [name, input, want] of cases) test(name, () => assert.equal(expandVars(input, lookup), want));
});

describe('the resolved environment of a container', () => {
  const b64 = (x: string) => Buffer.from(x).toString('base64');
  const noObjects = { configMap: () => undefined, secret: () => undefined };
  const objects = {
    configMap: (_ns: string, n: string) => (n === 'cfg' ? { metadata: { name: 'cfg' }, data: { mode: 'fast', LEVEL: 'debug' } } : undefined),
    secret: (_ns: string, n: string) => (n === 'db' ? { metadata: { name: 'db' }, data: { password: b64('s3cret') } } : undefined),
  };
  const p = pod('web', {
    metadata: { name: 'web', namespace: 'lab', uid: 'u-9', labels: { app: 'shop' } },
    status: { podIP: '172.17.0.9', podIPs: [{ ip: '172.17.0.9' }, { ip: 'fd00::9' }], hostIP: '172.17.0.1' },
    spec: { nodeName: 'podlab-node', containers: [] },
  });
  const cases: [string, Container, typeof objects | typeof noObjects, EnvView[]][] = [
    [
      'literals, $(VAR) against earlier variables, and downward API fields from the pod and its status',
      {
        name: 'app',
        env: [
          { name: 'HOST', value: 'db' },
          { name: 'URL', value: 'postgres://$(HOST):5432/$(MISSING)' },
          { name: 'NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
          { name: 'NS', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
          { name: 'IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
          { name: 'IPS', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIPs' } } },
          { name: 'APP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['app']" } } },
          { name: 'WHERE', value: '$(NAME) on $(IP)' },
        ],
      },
      noObjects,
      [
        { name: 'HOST', value: 'db' },
        { name: 'URL', value: 'postgres://db:5432/$(MISSING)' },
        { name: 'NAME', value: 'web', source: '(v1:metadata.name)' },
        { name: 'NS', value: 'lab', source: '(v1:metadata.namespace)' },
        { name: 'IP', value: '172.17.0.9', source: '(v1:status.podIP)' },
        { name: 'IPS', value: '172.17.0.9,fd00::9', source: '(v1:status.podIPs)' },
        { name: 'APP', value: 'shop', source: "(v1:metadata.labels['app'])" },
        { name: 'WHERE', value: 'web on 172.17.0.9' },
      ],
    ],
    [
      'without the objects, key references show kubectl describe\'s wording and no value; a required one carries the kubelet error',
      {
        name: 'app',
        env: [
          { name: 'PASS', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
          { name: 'CFG', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode', optional: true } } },
        ],
      },
      noObjects,
      [
        { name: 'PASS', source: "<set to the key 'password' in secret 'db'>  Optional: false", secret: true, error: 'secret "db" not found' },
        { name: 'CFG', source: "<set to the key 'mode' of config map 'cfg'>  Optional: true" },
      ],
    ],
    [
      'with the objects: envFrom keys (sorted, prefixed), key references, Secret values marked, a missing object with the kubelet error',
      {
        name: 'app',
        envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'CFG_' }],
        env: [
          { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode' } } },
          { name: 'PASS', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
          { name: 'GONE', valueFrom: { configMapKeyRef: { name: 'nope', key: 'k' } } },
          { name: 'MSG', value: 'mode=$(MODE)' },
          { name: 'DSN', value: 'user:$(PASS)@db' },
        ],
      },
      objects,
      [
        { name: 'CFG_LEVEL', value: 'debug', source: 'config map cfg (prefix CFG_)' },
        { name: 'CFG_mode', value: 'fast', source: 'config map cfg (prefix CFG_)' },
        { name: 'MODE', value: 'fast', source: "<set to the key 'mode' of config map 'cfg'>  Optional: false" },
        { name: 'PASS', value: 's3cret', source: "<set to the key 'password' in secret 'db'>  Optional: false", secret: true },
        { name: 'GONE', source: "<set to the key 'k' of config map 'nope'>  Optional: false", error: 'configmap "nope" not found' },
        { name: 'MSG', value: 'mode=fast' },
        { name: 'DSN', value: 'user:s3cret@db', secret: true },
      ],
    ],
    [
      'an optional key that is missing does not hide the envFrom value the container keeps',
      { name: 'app', envFrom: [{ configMapRef: { name: 'cfg' } }], env: [{ name: 'mode', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'nokey', optional: true } } }] },
      objects,
      [
        { name: 'LEVEL', value: 'debug', source: 'config map cfg' },
        { name: 'mode', value: 'fast', source: 'config map cfg' },
      ],
    ],
    [
      'a resource field from an unset limit reads the node allocatable, which the panel does not know',
      {
        name: 'app',
        resources: { requests: { cpu: '250m' } },
        env: [
          { name: 'CPU_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
          { name: 'CPU_REQ', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
        ],
      },
      noObjects,
      [
        { name: 'CPU_LIMIT', source: 'node allocatable (limits.cpu)' },
        { name: 'CPU_REQ', value: '250', source: '(requests.cpu)' },
      ],
    ],
  ];
  for (const [name, c, lookup, want] of cases) test(name, () => assert.deepEqual(resolveEnv(p, c, lookup), want));

  test("the envFrom lines are kubectl describe's `Environment Variables from:` lines", () => {
    assert.deepEqual(
      [{ configMapRef: { name: 'cfg' } }, { secretRef: { name: 'db', optional: true }, prefix: 'DB_' }].map(envFromText),
      ['cfg  ConfigMap  Optional: false', "db  Secret with prefix 'DB_'  Optional: true"],
    );
  });
});

describe('folding the watch stream into an observation', () => {
  test('a pod with another name is ignored (the same observation comes back)', () => {
    const o = newObservation('default', 'web');
    assert.equal(observe(o, podEv('ADDED', pod('other')), 1), o);
  });
  test('a pod in another namespace is ignored', () => {
    const o = newObservation('lab', 'web');
    assert.equal(observe(o, podEv('ADDED', pod('web')), 1), o);
  });
  test('an event about another pod is ignored', () => {
    const o = observe(newObservation('default', 'web'), podEv('ADDED', pod('web')), 1);
    assert.equal(observe(o, evEv('ADDED', event('other', 'Scheduled')), 2), o);
  });
  test('an event about an earlier pod of the same name (other uid) is ignored', () => {
    const o = observe(newObservation('default', 'web'), podEv('ADDED', pod('web')), 1);
    assert.equal(observe(o, evEv('ADDED', event('web', 'Scheduled', 'old-uid')), 2), o);
  });
  test('an aggregated event (MODIFIED, count 2) replaces the earlier one', () => {
    let o = observe(newObservation('default', 'web'), podEv('ADDED', pod('web')), 1);
    o = observe(o, evEv('ADDED', event('web', 'BackOff')), 2);
    o = observe(o, evEv('MODIFIED', event('web', 'BackOff', 'uid-1', { count: 2, lastTimestamp: '2024-05-01T10:00:11Z' })), 3);
    const m = buildPanelModel(o, Date.parse('2024-05-01T10:00:12Z'));
    assert.equal(m.events.length, 1);
    assert.equal(m.events[0]!.count, 2);
    assert.equal(m.events[0]!.lastAt, Date.parse('2024-05-01T10:00:11Z'));
  });
  test('a new pod with the same name starts over: old events and history are dropped', () => {
    let o = observe(newObservation('default', 'web'), podEv('ADDED', pod('web')), 1);
    o = observe(o, evEv('ADDED', event('web', 'Scheduled')), 2);
    o = observe(o, podEv('ADDED', pod('web', {}, 'uid-2')), 3);
    assert.equal(o.uid, 'uid-2');
    assert.deepEqual(Object.keys(o.events), []);
    assert.equal(o.history.length, 1);
  });
  test('a deleted pod is kept with its last state and marked gone', () => {
    let o = observe(newObservation('default', 'web'), podEv('ADDED', pod('web')), 1);
    o = observe(o, podEv('DELETED', pod('web', { status: { phase: 'Succeeded' } })), 2);
    assert.equal(o.gone, true);
    assert.equal(buildPanelModel(o, 3).header.gone, true);
  });
  test('a pod never seen is missing: kubectl\'s NotFound, not a made-up Unknown pod with a restart policy and 0/0 ready', () => {
    const m = buildPanelModel(newObservation('default', 'invalid-demo'), 3);
    assert.deepEqual([m.header.missing, m.header.status, m.header.gone, m.notices], [true, 'NotFound', false, []]);
    const seen = observe(newObservation('default', 'web'), podEv('ADDED', pod('web')), 1);
    assert.equal(buildPanelModel(seen, 2).header.missing, undefined, 'a pod seen is not missing');
    const onCluster = buildPanelModel({ ...newObservation('default', 'gone-before'), connectionTo: 'cluster' }, 3).header;
    assert.deepEqual([onCluster.missing, onCluster.cluster], [true, true], "a cluster's missing pod is said to be the cluster's");
  });
  test('the history records a mark only when the phase or STATUS changes', () => {
    let o = observe(newObservation('default', 'web'), podEv('ADDED', pod('web')), 1);
    o = observe(o, podEv('MODIFIED', pod('web')), 2);
    o = observe(o, podEv('MODIFIED', pod('web', { status: { phase: 'Running' } })), 3);
    assert.deepEqual(
      o.history.map((h) => [h.at, h.phase]),
      [
        [1, 'Pending'],
        [3, 'Running'],
      ],
    );
  });
  // A pod deleted at `gone`: the timeline drawn before, with a back-off in progress cut at the
  // deletion and what was still open (the sandbox, a running container) ended there.
  const cutAt = (t: PanelModel['timeline'], gone: number): PanelModel['timeline'] => {
    const lanes = t.lanes.map((l) => ({ ...l, bars: l.bars.map((b) => (b.kind === 'backoff' ? { ...b, end: Math.min(b.end!, gone) } : b.end === undefined ? { ...b, end: gone } : b)) }));
    const ends = lanes.flatMap((l) => l.bars.map((b) => b.end ?? b.start));
    return { ...t, lanes, end: Math.max(t.start, ...ends, ...t.phases.map((m) => m.at), ...t.events.map((m) => m.at)) };
  };
  const deletions: [string, RecordedStream, (before: PanelModel['timeline'], gone: number) => PanelModel['timeline']][] = [
    ['two running containers: their runs and the sandbox end at the deletion', twoContainers, cutAt],
    ['an init container in back-off: the back-off ends at the deletion', failing, cutAt],
  ];
  for (const [name, stream, expected] of deletions) {
    test(`a deleted pod keeps the timeline the kubelet's record drew, the sandbox and each attempt at its own time (recorded): ${name}`, () => {
      const at = lastAt(stream);
      const seen = replayFeed(stream, at).observation;
      assert.ok(seen.debug && seen.pod, 'the recording has the pod and its debug info');
      // the pod leaves the store, and the lab's poddebugs with it
      const gone = withDebug(observe(seen, podEv('DELETED', seen.pod), at + 10), undefined);
      const before = buildPanelModel(seen, at + 20);
      const after = buildPanelModel(gone, at + 20);
      assert.deepEqual(after.timeline, expected(before.timeline, at + 10));
      assert.deepEqual(
        after.containers.map((c) => c.attempts),
        before.containers.map((c) => c.attempts),
        'every attempt is kept as the kubelet had it last (the webview keeps the logs it read)',
      );
      // what only a live kubelet has is not claimed for the deleted pod
      assert.deepEqual([after.debug, after.containers.map((c) => c.backoff)], [{ stepWaitingFor: undefined, available: false }, after.containers.map(() => undefined)]);
    });
  }
  test('debug info of another pod uid is not taken', () => {
    const o = observe(newObservation('default', 'web'), podEv('ADDED', pod('web')), 1);
    assert.equal(withDebug(o, { uid: 'other', sandboxes: [], attempts: [], backoff: {} }).debug, undefined);
  });
});

describe('the view model of the failing init container pod (recorded stream)', () => {
  const cases: [string, number, string][] = [
    ['before the kubelet reports, STATUS is Pending', 100, 'Pending'],
    ['while the first init container runs, STATUS is Init:0/2', 340, 'Init:0/2'],
    ['after the first init container exits 0, STATUS is Init:1/2', 1000, 'Init:1/2'],
    ['after the second init container exits 3, STATUS is Init:Error', 1600, 'Init:Error'],
    ['during the back-off, STATUS is Init:CrashLoopBackOff', 5000, 'Init:CrashLoopBackOff'],
  ];
  for (const [name, off, want] of cases) test(name, () => assert.equal(modelAt(failing, off).header.status, want));

  const end = buildPanelModel(replayFeed(failing).observation, lastAt(failing));
  test('the phase stays Pending while an init container fails under restartPolicy Always', () => assert.equal(end.header.phase, 'Pending'));
  test('the five kubelet conditions come in kubectl describe order', () =>
    assert.deepEqual(
      end.conditions.map((c) => c.type),
      [...CONDITION_TYPES],
    ));
  test('Initialized is False with ContainersNotInitialized and lists the unfinished init container', () => {
    const c = end.conditions.find((x) => x.type === 'Initialized')!;
    assert.deepEqual([c.status, c.reason, c.message], ['False', 'ContainersNotInitialized', 'containers with incomplete status: [init-db-check]']);
  });
  test('containers are listed init first, in spec order, with their kind', () =>
    assert.deepEqual(
      end.containers.map((c) => [c.kind, c.name]),
      [
        ['init', 'init-ok'],
        ['init', 'init-db-check'],
        ['app', 'app'],
      ],
    ));
  test('the failing init container is flagged failed, waiting in CrashLoopBackOff with its last exit code 3', () => {
    const c = end.containers.find((x) => x.name === 'init-db-check')!;
    assert.equal(c.failed, true);
    assert.equal(c.state.kind === 'waiting' && c.state.reason, 'CrashLoopBackOff');
    assert.equal(c.lastState.kind === 'terminated' && c.lastState.exitCode, 3);
    assert.equal(c.restartCount, 3);
  });
  test('the init container that exited 0 is not flagged failed', () => assert.equal(end.containers[0]!.failed, false));
  test('the back-off of the failing container ends 40 s after its last exit', () => {
    const c = end.containers.find((x) => x.name === 'init-db-check')!;
    const last = c.attempts[c.attempts.length - 1]!;
    assert.deepEqual(c.backoff, { until: last.finishedAt! + 40_000, delayMs: 40_000 });
  });
  test('every attempt of the failing container is listed, oldest first, each with exit code 3', () => {
    const c = end.containers.find((x) => x.name === 'init-db-check')!;
    assert.deepEqual(
      c.attempts.map((a) => [a.attempt, a.exitCode]),
      [
        [0, 3],
        [1, 3],
        [2, 3],
        [3, 3],
      ],
    );
  });
  test('command, args and environment are shown with $(VAR) references expanded', () => {
    const c = end.containers.find((x) => x.name === 'init-db-check')!;
    assert.deepEqual(c.command, ['sh', '-c']);
    assert.match(c.args[0]!, /^echo "checking postgres:\/\/db\.default\.svc:5432\/app"/);
    assert.equal(c.env.find((e) => e.name === 'POD_NAME')?.value, 'init-fail');
  });
  test('the timeline has the sandbox lane first, then one lane per container in spec order', () =>
    assert.deepEqual(
      end.timeline.lanes.map((l) => l.key),
      ['sandbox', 'container:init-ok', 'container:init-db-check', 'container:app'],
    ));
  test('the failing container has a bar per attempt in start order, then the current back-off', () => {
    const lane = end.timeline.lanes.find((l) => l.key === 'container:init-db-check')!;
    const runs = lane.bars.filter((b) => b.kind === 'run');
    assert.deepEqual(
      runs.map((b) => b.attempt),
      [0, 1, 2, 3],
    );
    for (let i = 1; i < runs.length; i++) assert.ok(runs[i]!.start > runs[i - 1]!.end!, `attempt ${i} starts after attempt ${i - 1} ended`);
    assert.deepEqual(
      lane.bars.filter((b) => b.kind === 'backoff').map((b) => b.label),
      ['back-off 40s'],
    );
  });
  test('the gaps between restarts grow as the back-off doubles', () => {
    const runs = end.timeline.lanes.find((l) => l.key === 'container:init-db-check')!.bars.filter((b) => b.kind === 'run');
    const gaps = runs.slice(1).map((b, i) => b.start - runs[i]!.end!);
    assert.ok(gaps[1]! >= 10_000 && gaps[2]! >= 20_000 && gaps[2]! > gaps[1]!, `gaps ${gaps.join(', ')}`);
  });
  test('the first init container ran before the second ever started', () => {
    const ok = end.timeline.lanes.find((l) => l.key === 'container:init-ok')!.bars[0]!;
    const first = end.timeline.lanes.find((l) => l.key === 'container:init-db-check')!.bars[0]!;
    assert.ok(ok.end! <= first.start);
  });
  test('the app container has no bar: it never started', () =>
    assert.deepEqual(end.timeline.lanes.find((l) => l.key === 'container:app')!.bars, []));
  test('the phase row records Init:Error before Init:CrashLoopBackOff', () => {
    const labels = end.timeline.phases.map((p) => p.label);
    assert.ok(labels.indexOf('Init:Error') < labels.indexOf('Init:CrashLoopBackOff'));
  });
  test('Warning BackOff events are aggregated with a count', () => {
    const e = end.events.find((x) => x.reason === 'BackOff')!;
    assert.equal(e.type, 'Warning');
    assert.ok(e.count > 1);
    assert.match(e.message, /^Back-off restarting failed container init-db-check in pod init-fail_default\(/);
  });
  test('an expired back-off is not shown', () => {
    const c = end.containers.find((x) => x.name === 'init-db-check')!;
    const later = buildPanelModel(replayFeed(failing).observation, c.backoff!.until + 1);
    assert.equal(later.containers.find((x) => x.name === 'init-db-check')!.backoff, undefined);
  });
});

describe('the view model of the two-container pod (recorded stream)', () => {
  const end = buildPanelModel(replayFeed(twoContainers).observation, lastAt(twoContainers));
  test('it reaches Running with both containers ready', () => {
    assert.deepEqual([end.header.status, end.header.phase, end.header.ready], ['Running', 'Running', '2/2']);
    assert.deepEqual(
      end.containers.map((c) => [c.name, c.state.kind, c.ready]),
      [
        ['web', 'running', true],
        ['client', 'running', true],
      ],
    );
  });
  test('all five conditions are True', () => assert.deepEqual(end.conditions.map((c) => c.status), ['True', 'True', 'True', 'True', 'True']));
  test('the events are Scheduled, then Pulled, Created, Started for each container', () =>
    assert.deepEqual(
      end.events.map((e) => e.reason),
      ['Scheduled', 'Pulled', 'Created', 'Started', 'Pulled', 'Created', 'Started'],
    ));
  test('the scheduler event comes from default-scheduler, the others from the kubelet', () =>
    assert.deepEqual(
      [...new Set(end.events.map((e) => e.source))],
      ['default-scheduler', 'kubelet'],
    ));
  test('open bars (running containers, the sandbox) have no end', () =>
    assert.ok(end.timeline.lanes.every((l) => l.bars.every((b) => b.end === undefined))));
  test('the containers start in spec order', () => {
    const [web, client] = ['web', 'client'].map((n) => end.timeline.lanes.find((l) => l.label === n)!.bars[0]!.start);
    assert.ok(web! < client!);
  });
});

describe('the status and the attempt archive agree', () => {
  // The attempt archive (debug info) and the pod's status come on separate streams: the status may
  // already say the container ended while the archive still says it runs. The panel must not show
  // the pod Succeeded and its container running at once.
  test("an attempt the status already reports terminated is shown exited, with the status's exit code, reason and end", () => {
    const started = Date.parse('2024-05-01T10:00:02Z');
    const finished = Date.parse('2024-05-01T10:00:03Z');
    const done = pod('web', {
      status: {
        phase: 'Succeeded',
        containerStatuses: [
          {
            name: 'app',
            image: 'busybox:1.35',
            imageID: '',
            ready: false,
            restartCount: 0,
            containerID: 'docker://abc123',
            state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: '2024-05-01T10:00:02Z', finishedAt: '2024-05-01T10:00:03Z', containerID: 'docker://abc123' } },
          },
        ],
      },
    });
    const lagging: PodDebugInfo = { uid: 'uid-1', sandboxes: [], attempts: [{ containerName: 'app', attempt: 0, id: 'abc123', state: 'running', createdAt: started - 100, startedAt: started }], backoff: {} };
    const m = buildPanelModel(withDebug(observe(newObservation('default', 'web'), podEv('ADDED', done), 1), lagging), finished + 1000);
    const app = m.containers.find((c) => c.name === 'app')!;
    const bars = m.timeline.lanes.find((l) => l.key === 'container:app')!.bars;
    assert.deepEqual(
      { attempts: app.attempts, bars },
      {
        attempts: [{ attempt: 0, containerId: 'abc123', state: 'exited', exitCode: 0, reason: 'Completed', createdAt: started - 100, startedAt: started, finishedAt: finished }],
        bars: [{ key: 'app:abc123', kind: 'run', label: '#0 Completed (exit 0)', start: started, end: finished, outcome: 'succeeded', attempt: 0, exitCode: 0, reason: 'Completed' }],
      },
    );
  });
});

describe('sidecars', () => {
  test('an init container with restartPolicy Always is a sidecar', () => {
    const p = pod('web', {
      spec: {
        initContainers: [
          { name: 'setup', image: 'busybox:1.35' },
          { name: 'proxy', image: 'busybox:1.35', restartPolicy: 'Always' },
        ],
        containers: [{ name: 'app', image: 'busybox:1.35' }],
      },
    });
    const m = buildPanelModel(observe(newObservation('default', 'web'), podEv('ADDED', p), 1), 2);
    assert.deepEqual(
      m.containers.map((c) => c.kind),
      ['init', 'sidecar', 'app'],
    );
  });
});

describe('snapshots and patches', () => {
  const a = modelAt(failing, 1000);
  const b = modelAt(failing, 1600);
  test('a patch carries only the sections that changed', () => {
    const p = diffModel(a, b)!;
    assert.ok(p.header && p.containers);
    assert.equal(p.conditions, undefined);
  });
  test('applying the patch gives the newer model', () => assert.deepEqual(applyPatch(a, diffModel(a, b)!), b));
  test('no patch when nothing but the clock changed', () => assert.equal(diffModel(a, { ...a, now: a.now + 5 }), undefined));
});

describe('the update feed', () => {
  test('the first message is a snapshot, later ones are patches on the previous sequence number', () => {
    const msgs = replay(failing).map((m) => m.message);
    assert.equal(msgs[0]!.type, 'snapshot');
    for (let i = 1; i < msgs.length; i++) {
      const m = msgs[i]!;
      assert.equal(m.type, 'patch');
      if (m.type === 'patch') assert.equal(m.baseSeq, i);
    }
  });
  test('replaying the patches on the snapshot gives the model built from the whole stream', () => {
    let model: PanelModel | undefined;
    for (const { message: m } of replay(failing)) {
      if (m.type === 'snapshot') model = m.model;
      else if (m.type === 'patch') model = applyPatch(model!, m.changes);
    }
    assert.deepEqual(model, buildPanelModel(replayFeed(failing).observation, lastAt(failing)));
  });
  test('an event about another pod posts nothing', () => {
    const f = new PanelFeed('default', 'web');
    f.resetWebview();
    f.onWatch(podEv('ADDED', pod('web')), 1, 1);
    assert.equal(f.next(1)?.type, 'snapshot');
    assert.equal(f.onWatch(podEv('MODIFIED', pod('other')), 2, 2), false);
    assert.equal(f.next(2), undefined);
  });
  for (const place of ['cluster', 'lab server'] as const) {
    test(`a lost connection to the ${place} is said in the header while it lasts, and the pod is kept as last seen`, () => {
      const f = new PanelFeed('default', 'web');
      f.resetWebview();
      f.onWatch(podEv('ADDED', pod('web', { status: { phase: 'Running' } })), 1, 1);
      f.next(1);
      f.setConnection('connect ECONNREFUSED 127.0.0.1:6443', place);
      const lost = f.next(2);
      f.setConnection('connect ECONNREFUSED 127.0.0.1:6443', place);
      const again = f.next(3);
      f.setConnection(undefined, place);
      const back = f.next(4);
      const header = (m: typeof lost) =>
        m?.type === 'patch' ? { changed: Object.keys(m.changes).filter((k) => k !== 'now'), connectionLost: m.changes.header?.connectionLost, connectionTo: m.changes.header?.connectionTo, phase: m.changes.header?.phase } : m?.type;
      assert.deepEqual(
        { lost: header(lost), again: header(again), back: header(back) },
        {
          lost: { changed: ['header'], connectionLost: 'connect ECONNREFUSED 127.0.0.1:6443', connectionTo: place, phase: 'Running' },
          again: undefined,
          back: { changed: ['header'], connectionLost: undefined, connectionTo: undefined, phase: 'Running' },
        },
      );
    });
  }
  test('after the webview reloads, the next message is a snapshot again', () => {
    const f = new PanelFeed('default', 'web');
    f.onWatch(podEv('ADDED', pod('web')), 1, 1);
    f.next(1);
    f.resetWebview();
    assert.equal(f.next(2)?.type, 'snapshot');
  });
  test('the latency runs from the first engine event folded into an update to its acknowledgement', () => {
    const f = new PanelFeed('default', 'web');
    f.onWatch(podEv('ADDED', pod('web')), 1000, 10);
    f.onWatch(podEv('MODIFIED', pod('web', { status: { phase: 'Running' } })), 1001, 25);
    const m = f.next(1002)!;
    assert.equal(m.type, 'snapshot');
    assert.deepEqual(f.onRendered(m.type === 'snapshot' ? m.seq : -1, 52)?.ms, 42);
  });
  test('with the frame time the webview gives, the latency to the painted frame is measured beside the one to the acknowledgement', () => {
    const f = new PanelFeed('default', 'web');
    f.onWatch(podEv('ADDED', pod('web')), 1000, 10);
    const m = f.next(1002)!;
    assert.deepEqual(f.onRendered(m.seq, 52, 31), { seq: m.seq, ms: 42, paintedMs: 21, sections: [...PANEL_SECTIONS], containers: 'app none#0' });
  });
  const backoff = (delayMs: number) => ({ uid: 'uid-1', sandboxes: [], attempts: [], backoff: { app: { until: 20_000, delayMs } } });
  test('a debug state change is an engine event: measured from its arrival', () => {
    const f = new PanelFeed('default', 'web');
    f.onWatch(podEv('ADDED', pod('web')), 1000, 10);
    f.setDebug(backoff(10_000), 15);
    f.onRendered(f.next(1002)!.seq, 20);
    f.setDebug(backoff(20_000), 100);
    const m = f.next(1100)!;
    assert.deepEqual(f.onRendered(m.seq, 130), { seq: m.seq, ms: 30, sections: ['containers'], containers: 'app none#0' });
  });
  test('the debug watch\'s first delivery (its current state, as after a pod switch) is no sample, even when it comes after the webview is ready', () => {
    const f = new PanelFeed('default', 'web');
    f.seed({ type: 'ADDED', kind: 'Pod', object: pod('web') }, [], 1000);
    f.resetWebview();
    f.setDebug(backoff(10_000), 100);
    const m = f.next(1100)!;
    assert.deepEqual([m.type, f.onRendered(m.seq, 140, 130)], ['snapshot', undefined]);
  });
  test("step mode's waits stay on their init containers' lanes after the pod went on: each from its start until Continue, the current one open", () => {
    const f = new PanelFeed('default', 'web');
    const spec = { initContainers: [{ name: 'one', image: 'busybox:1.35' }, { name: 'two', image: 'busybox:1.35' }], containers: [{ name: 'app', image: 'busybox:1.35' }] };
    f.onWatch(podEv('ADDED', pod('web', { spec })), 1000, 10);
    f.setDebug({ uid: 'uid-1', sandboxes: [], attempts: [], backoff: {}, stepWaitingFor: 'two', stepWaits: [{ container: 'one', from: 1_000, until: 3_000 }, { container: 'two', from: 4_000 }] }, 20);
    const m = f.next(5_000)!;
    const model = m.type === 'snapshot' ? m.model : undefined;
    const waits = model?.timeline.lanes.flatMap((l) => l.bars.filter((b) => b.kind === 'stepwait').map((b) => ({ lane: l.key, label: b.label, start: b.start, end: b.end })));
    assert.deepEqual(waits, [
      { lane: 'container:one', label: 'waited for Continue (step mode)', start: 1_000, end: 3_000 },
      { lane: 'container:two', label: 'waiting for Continue (step mode)', start: 4_000, end: undefined },
    ]);
  });
  test('an acknowledgement of an unknown update measures nothing', () => {
    const f = new PanelFeed('default', 'web');
    assert.equal(f.onRendered(7, 100), undefined);
  });
});

describe('pacing updates by the webview\'s acknowledgements (a window of unacknowledged updates)', () => {
  // [sentence, the window, the posts not yet acknowledged (when they went out), now, the wait before the next post]
  const cases: [string, number, number[], number, number][] = [
    ['the first update goes out at once', 1, [], 5000, 0],
    ['with one in flight (the panel\'s window) the next waits for its acknowledgement, at most 250 ms after it went out', 1, [1000], 1040, 210],
    ['a post never acknowledged for 250 ms no longer holds the next (a hidden or reloading webview)', 1, [1000], 1300, 0],
    ['with a window of three, an update while two are in flight goes out at once', 3, [1000, 1010], 1020, 0],
    ['with three in flight the next waits until the oldest is acknowledged or 250 ms old', 3, [1000, 1010, 1020], 1040, 210],
    ['only the oldest having timed out frees a slot', 3, [1000, 1200, 1210], 1260, 0],
  ];
  for (const [name, window, unacked, now, want] of cases) test(name, () => assert.equal(postDelay(unacked, now, window), want));
});

describe('message guards', () => {
  const good: [string, unknown][] = [
    ['ready', { type: 'ready' }],
    ['rendered with a sequence number', { type: 'rendered', seq: 3 }],
    ['rendered with its webview, handling and paint times', { type: 'rendered', seq: 3, webviewMs: 20.5, renderMs: 4.1, paintedAt: 1795435725300.4 }],
    ['rendered with the earlier updates of its frame', { type: 'rendered', seq: 5, webviewMs: 9, paintedAt: 1795435725300.4, earlier: [{ seq: 3, webviewMs: 20.5, renderMs: 4.1 }, { seq: 4 }] }],
    ['a logs request for a previous attempt', { type: 'request', id: 1, body: { kind: 'logs', container: 'app', attempt: { which: 'previous' } } }],
    ['a restart-now request', { type: 'request', id: 2, body: { kind: 'restartNow', container: 'init' } }],
    ['a continue request', { type: 'request', id: 3, body: { kind: 'continueStep' } }],
  ];
  const bad: [string, unknown][] = [
    ['a bare string', 'ready'],
    ['an unknown type', { type: 'hello' }],
    ['rendered without a sequence number', { type: 'rendered' }],
    ['rendered with a handling time that is not a number', { type: 'rendered', seq: 3, renderMs: '4.1' }],
    ['rendered with an earlier update without a sequence number', { type: 'rendered', seq: 5, earlier: [{ seq: 3 }, { webviewMs: 2 }] }],
    ['rendered with earlier updates that are not a list', { type: 'rendered', seq: 5, earlier: { seq: 3 } }],
    ['a request of an unknown kind', { type: 'request', id: 1, body: { kind: 'rm -rf' } }],
    ['a restart-now request without a container', { type: 'request', id: 1, body: { kind: 'restartNow' } }],
  ];
  for (const [name, m] of good) test(`the host accepts ${name}`, () => assert.equal(isWebviewToHost(m), true));
  for (const [name, m] of bad) test(`the host rejects ${name}`, () => assert.equal(isWebviewToHost(m), false));
  test('the webview accepts a snapshot and rejects a patch without a base', () => {
    assert.equal(isHostToWebview({ type: 'snapshot', seq: 1, model: {} }), true);
    assert.equal(isHostToWebview({ type: 'patch', seq: 2, changes: {} }), false);
  });
  test('attempt references round-trip through their keys', () => {
    for (const ref of [{ which: 'current' }, { which: 'previous' }, { which: 'id', containerId: 'abc' }] as const)
      assert.deepEqual(attemptFromKey(attemptKey(ref)), ref);
  });
});

describe('the HTML shell', () => {
  const html = panelHtml({ cspSource: 'https://file+.vscode-resource.vscode-cdn.net', nonce: 'n0nce', scriptUri: 'https://x/dist/webview.js', title: 'default/web' });
  test('the CSP allows scripts only with the nonce and no inline styles', () => {
    const csp = contentSecurityPolicy('https://src', 'n0nce');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-n0nce'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  });
  test('the script tag carries the nonce', () => assert.match(html, /<script nonce="n0nce" src="https:\/\/x\/dist\/webview.js"><\/script>/));
  test('there is no inline script and no inline event handler', () => {
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    assert.equal((html.match(/<script/g) ?? []).length, 1);
  });
});

describe('streams recorded from a real engine run', () => {
  const rec = recordedStream('recorded-failing-init');
  const end = buildPanelModel(replayFeed(rec).observation, lastAt(rec));
  const c = end.containers.find((x) => x.kind === 'init')!;
  test('the recorded failing init pod ends in Init:CrashLoopBackOff, phase Pending', () =>
    assert.deepEqual([end.header.status, end.header.phase], ['Init:CrashLoopBackOff', 'Pending']));
  test('instances the runtime removed are still listed as attempts, marked removed', () => {
    assert.equal(c.attempts.length, c.restartCount + 1);
    assert.deepEqual(
      c.attempts.map((a) => a.removed === true),
      c.attempts.map((_, i) => i < c.attempts.length - 2),
    );
  });
  test('the timeline has a bar per attempt in start order', () => {
    const runs = end.timeline.lanes.find((l) => l.key === `container:${c.name}`)!.bars.filter((b) => b.kind === 'run');
    assert.deepEqual(
      runs.map((b) => b.attempt),
      c.attempts.map((a) => a.attempt),
    );
    for (let i = 1; i < runs.length; i++) assert.ok(runs[i]!.start > runs[i - 1]!.start);
  });
  test('the recorded two-container pod reaches Running with 2/2 ready', () => {
    const two = recordedStream('recorded-two-containers');
    const m = buildPanelModel(replayFeed(two).observation, lastAt(two));
    assert.deepEqual([m.header.status, m.header.ready], ['Running', '2/2']);
  });
});


// ---------------------------------------------------------------------------------------------
// Probes, lifecycle hooks, readiness and missing configuration (src/extension/panel/probes.ts,
// notices.ts) as the panel shows them.

const prun = (time: number, result: ProbeRunView['result'], extra: Partial<ProbeRunView> = {}): ProbeRunView => ({
  time,
  durationMs: 3,
  containerId: 'c1',
  result,
  output: '',
  ...extra,
});
const history = (containerName: string, probeType: ProbeHistoryView['probeType'], runs: ProbeRunView[]): ProbeHistoryView => ({ containerName, probeType, runs });
const debugWith = (probes: ProbeHistoryView[], hooks: HookRun[] = []): PodDebugInfo => ({ uid: 'uid-1', sandboxes: [], attempts: [], backoff: {}, probes, hooks });
const NOT_FOUND_404 = 'HTTP probe failed with statuscode: 404';

describe('the probe runs the panel keeps', () => {
  const a = prun(1000, 'failure', { output: NOT_FOUND_404, verdict: 'Failure' });
  const b = prun(3000, 'failure', { output: NOT_FOUND_404, verdict: 'Failure' });
  const c = prun(5000, 'success', { output: 'ok', verdict: 'Success' });
  const d = prun(7000, 'success', { output: 'ok', verdict: 'Success' });
  const cases: [string, ProbeRunsSeen, PodDebugInfo | undefined, ProbeRunsSeen][] = [
    ['the first history is taken as it is, per container and probe', {}, debugWith([history('web', 'readiness', [a, b])]), { 'web/readiness': [a, b] }],
    [
      "runs older than the prober's window are kept, and the window replaces the rest",
      { 'web/readiness': [a, b, { ...c, verdict: 'Failure' }] },
      debugWith([history('web', 'readiness', [c, d])]),
      { 'web/readiness': [a, b, c, d] },
    ],
    ['debug info without probes leaves the runs seen as they are', { 'web/readiness': [a] }, debugWith([]), { 'web/readiness': [a] }],
    ['no debug info leaves the runs seen as they are', { 'web/readiness': [a] }, undefined, { 'web/readiness': [a] }],
    [
      'an output longer than 1024 characters is cut, with an ellipsis',
      {},
      debugWith([history('web', 'liveness', [prun(1000, 'success', { output: 'x'.repeat(2000) })])]),
      { 'web/liveness': [prun(1000, 'success', { output: `${'x'.repeat(1024)}…` })] },
    ],
  ];
  for (const [name, seen, debug, want] of cases) test(name, () => assert.deepEqual(mergeProbeRuns(seen, debug), want));

  test('at most 3600 runs are kept per probe, the newest', () => {
    const runs = Array.from({ length: 3700 }, (_, i) => prun(i * 1000, 'success'));
    const kept = mergeProbeRuns({}, debugWith([history('web', 'liveness', runs)]))['web/liveness']!;
    assert.deepEqual({ length: kept.length, first: kept[0], last: kept[kept.length - 1] }, { length: 3600, first: prun(100_000, 'success'), last: prun(3_699_000, 'success') });
  });
});

describe("each probe's view: kubectl describe's line, the latest run, the run toward a verdict, the verdict and the flag it sets", () => {
  const liveness = { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 };
  const readiness = { httpGet: { path: '/index.html', port: 8080 }, periodSeconds: 2, successThreshold: 2 };
  const startup = { tcpSocket: { port: 8080 }, periodSeconds: 1, failureThreshold: 10 };
  const LIVENESS = 'exec [cat /tmp/healthy] delay=5s timeout=1s period=5s #success=1 #failure=3';
  const READINESS = 'http-get http://:8080/index.html delay=0s timeout=1s period=2s #success=2 #failure=3';
  const STARTUP = 'tcp-socket :8080 delay=0s timeout=1s period=1s #success=1 #failure=10';
  const status = (extra: Partial<ContainerStatus>): ContainerStatus => ({ name: 'web', image: 'busybox:1.35', imageID: '', ready: false, restartCount: 0, started: false, ...extra });
  const refused = 'dial tcp 172.17.0.5:8080: connect: connection refused';
  const cases: [string, Container, ProbeRunsSeen, ContainerStatus | undefined, ProbeView[]][] = [
    [
      'a probe that has not run shows only its line (a liveness probe sets no flag)',
      { name: 'web', livenessProbe: liveness },
      {},
      status({}),
      [{ type: 'Liveness', config: LIVENESS, runs: 0, failures: 0 }],
    ],
    [
      'the three probes come in kubectl describe order: Liveness, Readiness, Startup',
      { name: 'web', startupProbe: startup, readinessProbe: readiness, livenessProbe: liveness },
      {},
      status({}),
      [
        { type: 'Liveness', config: LIVENESS, runs: 0, failures: 0 },
        { type: 'Readiness', config: READINESS, runs: 0, failures: 0, flag: { name: 'ready', value: false } },
        { type: 'Startup', config: STARTUP, runs: 0, failures: 0, flag: { name: 'started', value: false } },
      ],
    ],
    [
      'a readiness probe failing twice: two failures in a row toward failureThreshold 3, verdict Failure, ready false',
      { name: 'web', readinessProbe: readiness },
      { 'web/readiness': [prun(1000, 'failure', { output: NOT_FOUND_404, verdict: 'Failure' }), prun(3000, 'failure', { output: NOT_FOUND_404, verdict: 'Failure' })] },
      status({ started: true }),
      [
        {
          type: 'Readiness',
          config: READINESS,
          runs: 2,
          failures: 2,
          last: { at: 3000, result: 'failure', output: NOT_FOUND_404, durationMs: 3 },
          streak: { result: 'Failure', count: 2, threshold: 3 },
          verdict: 'Failure',
          flag: { name: 'ready', value: false },
        },
      ],
    ],
    [
      'a warning counts as a success toward successThreshold',
      { name: 'web', readinessProbe: readiness },
      {
        'web/readiness': [
          prun(1000, 'failure', { output: NOT_FOUND_404, verdict: 'Failure' }),
          prun(3000, 'warning', { output: 'Probe terminated redirects', verdict: 'Failure' }),
          prun(5000, 'success', { verdict: 'Success' }),
        ],
      },
      status({ started: true, ready: true }),
      [
        {
          type: 'Readiness',
          config: READINESS,
          runs: 3,
          failures: 1,
          last: { at: 5000, result: 'success', output: '', durationMs: 3 },
          streak: { result: 'Success', count: 2, threshold: 2 },
          verdict: 'Success',
          flag: { name: 'ready', value: true },
        },
      ],
    ],
    [
      'a prober error is the latest run (its error as output) but does not count in the run toward a verdict',
      { name: 'web', readinessProbe: readiness },
      {
        'web/readiness': [
          prun(1000, 'failure', { output: NOT_FOUND_404, verdict: 'Failure' }),
          prun(3000, 'failure', { output: NOT_FOUND_404, verdict: 'Failure' }),
          prun(5000, 'unknown', { error: 'context deadline exceeded', verdict: 'Failure' }),
        ],
      },
      status({ started: true }),
      [
        {
          type: 'Readiness',
          config: READINESS,
          runs: 3,
          failures: 3,
          last: { at: 5000, result: 'unknown', output: 'context deadline exceeded', durationMs: 3, error: true },
          streak: { result: 'Failure', count: 2, threshold: 3 },
          verdict: 'Failure',
          flag: { name: 'ready', value: false },
        },
      ],
    ],
    [
      "a restarted container starts over: the run and the verdict are the new container's (its initial verdict when no run changed it)",
      { name: 'web', livenessProbe: liveness },
      {
        'web/liveness': [
          prun(5000, 'success', { verdict: 'Success' }),
          prun(10_000, 'failure', { output: "cat: can't open '/tmp/healthy': No such file or directory\n" }),
          prun(15_000, 'failure', { output: "cat: can't open '/tmp/healthy': No such file or directory\n" }),
          prun(20_000, 'failure', { output: "cat: can't open '/tmp/healthy': No such file or directory\n", verdict: 'Failure' }),
          prun(30_000, 'success', { containerId: 'c2' }),
        ],
      },
      status({ started: true, ready: true, restartCount: 1 }),
      [
        {
          type: 'Liveness',
          config: LIVENESS,
          runs: 5,
          failures: 3,
          last: { at: 30_000, result: 'success', output: '', durationMs: 3 },
          streak: { result: 'Success', count: 1, threshold: 1 },
          verdict: 'Success',
        },
      ],
    ],
    [
      'a startup probe that succeeded after refused connections: verdict Success, started true',
      { name: 'web', startupProbe: startup },
      {
        'web/startup': [
          prun(1000, 'failure', { output: refused, verdict: 'Unknown' }),
          prun(2000, 'failure', { output: refused, verdict: 'Unknown' }),
          prun(3000, 'success', { verdict: 'Success', durationMs: 1 }),
        ],
      },
      status({ started: true }),
      [
        {
          type: 'Startup',
          config: STARTUP,
          runs: 3,
          failures: 2,
          last: { at: 3000, result: 'success', output: '', durationMs: 1 },
          streak: { result: 'Success', count: 1, threshold: 1 },
          verdict: 'Success',
          flag: { name: 'started', value: true },
        },
      ],
    ],
    [
      'a grpc probe is written as kubectl does, and runs of other containers are not taken',
      { name: 'web', livenessProbe: { grpc: { port: 9090, service: 'health' } } },
      { 'api/liveness': [prun(1000, 'failure')] },
      undefined,
      [{ type: 'Liveness', config: 'grpc <pod>:9090 health delay=0s timeout=1s period=10s #success=1 #failure=3', runs: 0, failures: 0 }],
    ],
  ];
  for (const [name, c, seen, st, want] of cases) test(name, () => assert.deepEqual(probeViews(c, seen, st), want));
});

describe("the marks on a container's lane", () => {
  const failed = (t: number, verdict?: string) => prun(t, 'failure', { output: NOT_FOUND_404, ...(verdict ? { verdict } : {}) });
  const passed = (t: number, verdict?: string) => prun(t, 'success', { output: 'ok', ...(verdict ? { verdict } : {}) });
  const postStart: HookRun = { containerName: 'web', containerId: 'c1', hook: 'postStart', startedAt: 500, finishedAt: 575 };
  const FAIL_MARK = (at: number): LaneMark => ({ at, kind: 'probe-fail', probe: 'readiness', label: 'Readiness probe failed', detail: `${NOT_FOUND_404}\ntook 3 ms` });
  const PASS_MARK = (at: number): LaneMark => ({ at, kind: 'probe-pass', probe: 'readiness', label: 'Readiness probe succeeded', detail: 'ok\ntook 3 ms' });
  const everyRun = { 'web/readiness': [failed(1000, 'Failure'), failed(3000, 'Failure'), passed(5000, 'Success'), passed(7000, 'Success')] };

  test("every run is a mark, the hook a span, and a verdict mark only where the worker's verdict changed (the engine reports it on every run)", () => {
    assert.deepEqual(laneMarks('web', everyRun, [postStart, { ...postStart, containerName: 'other' }]), [
      { at: 500, end: 575, kind: 'hook', label: 'postStart hook', detail: 'returned after 75 ms' },
      FAIL_MARK(1000),
      FAIL_MARK(3000),
      PASS_MARK(5000),
      { at: 5003, kind: 'verdict', probe: 'readiness', verdict: 'Success', label: 'Readiness: Success', detail: 'ready: the pod counts the container as ready' },
      PASS_MARK(7000),
    ]);
  });

  test('runs that carry a verdict only when it changed give the same marks', () => {
    const onChange = { 'web/readiness': [failed(1000), failed(3000), passed(5000, 'Success'), passed(7000)] };
    assert.deepEqual(laneMarks('web', onChange, [postStart]), laneMarks('web', everyRun, [postStart]));
  });

  test("a new container starts from the probe's initial verdict: liveness Failure on the old one, nothing new on the restarted one", () => {
    const runs = { 'web/liveness': [prun(5000, 'success', { verdict: 'Success' }), prun(10_000, 'failure', { output: 'gone', verdict: 'Failure' }), prun(20_000, 'success', { containerId: 'c2', verdict: 'Success' })] };
    assert.deepEqual(laneMarks('web', runs, []), [
      { at: 5000, kind: 'probe-pass', probe: 'liveness', label: 'Liveness probe succeeded', detail: 'took 3 ms' },
      { at: 10_000, kind: 'probe-fail', probe: 'liveness', label: 'Liveness probe failed', detail: 'gone\ntook 3 ms' },
      {
        at: 10_003,
        kind: 'verdict',
        probe: 'liveness',
        verdict: 'Failure',
        label: 'Liveness: Failure',
        detail: 'unhealthy: the kubelet kills the container (restartPolicy decides what follows)',
      },
      { at: 20_000, kind: 'probe-pass', probe: 'liveness', label: 'Liveness probe succeeded', detail: 'took 3 ms' },
    ]);
  });

  test('a prober error is a failure mark that says it errored', () => {
    assert.deepEqual(laneMarks('web', { 'web/startup': [prun(1000, 'unknown', { error: 'context deadline exceeded' })] }, undefined), [
      { at: 1000, kind: 'probe-fail', probe: 'startup', label: 'Startup probe errored', detail: 'context deadline exceeded\ntook 3 ms' },
    ]);
  });

  test('a failed postStart hook, a preStop hook cut short by the grace period, and one still running', () => {
    const err = 'Exec lifecycle hook ([sh -c exit 1]) for Container "web" in Pod "p_default(uid-1)" failed - error: command \'sh -c exit 1\' exited with 1: , message: ""';
    const hooks: HookRun[] = [
      { containerName: 'web', containerId: 'c1', hook: 'postStart', startedAt: 1000, finishedAt: 1100, error: err },
      { containerName: 'web', containerId: 'c2', hook: 'preStop', startedAt: 5000, finishedAt: 7000, timedOut: true },
      { containerName: 'web', containerId: 'c3', hook: 'preStop', startedAt: 9000 },
    ];
    assert.deepEqual(laneMarks('web', {}, hooks), [
      { at: 1000, end: 1100, kind: 'hook-fail', label: 'postStart hook failed', detail: `${err}\nreturned after 100 ms` },
      { at: 5000, end: 7000, kind: 'hook', label: 'preStop hook cut short by the grace period', detail: 'still running after 2000 ms' },
      { at: 9000, kind: 'hook', label: 'preStop hook running', detail: 'still running' },
    ]);
  });

  test('above 120 runs, runs are grouped in clock-aligned buckets that count every run and keep the failures visible; verdicts stay exact', () => {
    // Ten minutes of periodSeconds: 1; readiness fails from 100 s to 129 s (Failure from the third failure).
    const t0 = 1_000_000;
    const runs = Array.from({ length: 600 }, (_, i) => {
      const bad = i >= 100 && i < 130;
      return bad ? failed(t0 + i * 1000, i >= 102 ? 'Failure' : 'Success') : passed(t0 + i * 1000, 'Success');
    });
    const marks = laneMarks('web', { 'web/readiness': runs }, []);
    const probeMarks = marks.filter((m) => m.kind !== 'verdict');
    assert.deepEqual(
      {
        probeMarks: probeMarks.length,
        runs: probeMarks.reduce((n, m) => n + (m.runs ?? 1), 0),
        failed: probeMarks.reduce((n, m) => n + (m.failed ?? 0), 0),
        failing: probeMarks.filter((m) => m.kind === 'probe-fail').map((m) => [m.at, m.end, m.runs, m.failed]),
        first: probeMarks[0],
        verdicts: marks.filter((m) => m.kind === 'verdict').map((m) => [m.at, m.verdict]),
      },
      {
        probeMarks: 60,
        runs: 600,
        failed: 30,
        failing: [
          [t0 + 100_000, t0 + 109_000, 10, 10],
          [t0 + 110_000, t0 + 119_000, 10, 10],
          [t0 + 120_000, t0 + 129_000, 10, 10],
        ],
        first: { at: t0, end: t0 + 9000, kind: 'probe-pass', probe: 'readiness', label: 'Readiness probe: 10 runs, 0 failed', detail: 'last run: ok\ntook 3 ms', runs: 10, failed: 0 },
        verdicts: [
          [t0 + 3, 'Success'],
          [t0 + 102_003, 'Failure'],
          [t0 + 130_003, 'Success'],
        ],
      },
    );
  });

  const widths: [string, number, number][] = [
    ['100 s of runs fit in 1 s buckets', 100_000, 1000],
    ['119 s of runs need 2 s buckets', 119_000, 2000],
    ['10 minutes of runs take 10 s buckets', 600_000, 10_000],
    ['10 hours of runs take 10 minute buckets', 36_000_000, 600_000],
    ['a day of runs takes 30 minute buckets', 86_400_000, 1_800_000],
  ];
  for (const [name, span, want] of widths) test(`the bucket width: ${name}`, () => assert.equal(bucketWidth(span, 120), want));
});

describe("the pod's Ready condition over time", () => {
  const withReady = (status: 'True' | 'False', at: string, reason?: string, message?: string): Pod =>
    pod('web', { status: { phase: 'Running', conditions: [{ type: 'Ready', status, lastTransitionTime: at, ...(reason ? { reason } : {}), ...(message ? { message } : {}) }] } });
  const T = (iso: string) => Date.parse(iso);
  const notReady: ReadyMark = { at: T('2024-05-01T10:00:01Z'), status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [web]' };
  const cases: [string, ReadyMark[], Pod, number, readonly ReadyMark[]][] = [
    ['a pod without a Ready condition records nothing', [], pod('web'), T('2024-05-01T10:00:00Z'), []],
    [
      'first seen long after its transition: the transition time',
      [],
      withReady('False', '2024-05-01T10:00:01Z', 'ContainersNotReady', 'containers with unready status: [web]'),
      T('2024-05-01T10:05:00Z'),
      [notReady],
    ],
    [
      "a flip seen live: the moment the host saw it (lastTransitionTime has whole seconds)",
      [notReady],
      withReady('True', '2024-05-01T10:00:09Z'),
      T('2024-05-01T10:00:09.993Z'),
      [notReady, { at: T('2024-05-01T10:00:09.993Z'), status: 'True', reason: '', message: '' }],
    ],
    [
      'the same status with another message is no flip',
      [notReady],
      withReady('False', '2024-05-01T10:00:01Z', 'ContainersNotReady', 'containers with unready status: [web sidecar]'),
      T('2024-05-01T10:00:20Z'),
      [notReady],
    ],
  ];
  for (const [name, hist, p, now, want] of cases) test(name, () => assert.deepEqual(recordReady(hist, p, now), want));

  test('the observation keeps every flip of the watched pod', () => {
    let obs = newObservation('default', 'web');
    obs = observe(obs, podEv('ADDED', withReady('False', '2024-05-01T10:00:01Z')), T('2024-05-01T10:00:01.200Z'));
    obs = observe(obs, podEv('MODIFIED', withReady('True', '2024-05-01T10:00:09Z')), T('2024-05-01T10:00:09.100Z'));
    obs = observe(obs, podEv('MODIFIED', withReady('False', '2024-05-01T10:01:00Z')), T('2024-05-01T10:01:00.400Z'));
    assert.deepEqual(obs.readyHistory, [
      { at: T('2024-05-01T10:00:01.200Z'), status: 'False', reason: '', message: '' },
      { at: T('2024-05-01T10:00:09.100Z'), status: 'True', reason: '', message: '' },
      { at: T('2024-05-01T10:01:00.400Z'), status: 'False', reason: '', message: '' },
    ]);
  });
});

describe('notices: a missing ConfigMap or Secret keeps the pod from starting', () => {
  const ev = (reason: string, message: string, count: number, lastAt: number, fieldPath = ''): EventView => ({
    key: `${reason}|${message}`,
    type: 'Warning',
    reason,
    message,
    count,
    firstAt: 1000,
    lastAt,
    source: 'kubelet',
    fieldPath,
  });
  const waiting = (reason: string, message?: string): ContainerStatus => ({
    name: 'app',
    image: 'busybox:1.35',
    imageID: '',
    ready: false,
    restartCount: 0,
    started: false,
    state: { waiting: { reason, ...(message ? { message } : {}) } },
  });
  const withApp = (app: Container, status: ContainerStatus, extra: Partial<Pod['spec']> = {}): Pod =>
    pod('p', { spec: { containers: [app], ...extra }, status: { phase: 'Pending', containerStatuses: [status] } });
  const envApp: Container = {
    name: 'app',
    image: 'busybox:1.35',
    env: [
      { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'mode' } } },
      { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'level' } } },
      { name: 'OTHER', valueFrom: { configMapKeyRef: { name: 'other', key: 'mode' } } },
      { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      { name: 'USER', valueFrom: { secretKeyRef: { name: 'db', key: 'user' } } },
    ],
    envFrom: [{ configMapRef: { name: 'app-config' }, prefix: 'APP_' }],
  };
  const volApp: Container = { name: 'app', image: 'busybox:1.35', volumeMounts: [{ name: 'cfg', mountPath: '/etc/app' }] };
  const cfgVolume = { volumes: [{ name: 'cfg', configMap: { name: 'app-config' } }] };
  const mountMsg = (err: string) => `MountVolume.SetUp failed for volume "cfg" : ${err}`;
  const ENV_EXPLAIN =
    'The kubelet resolves the environment before it creates the container. Until it can, the container stays Waiting (CreateContainerConfigError) and the kubelet tries again at every pod sync';
  const PULL_EXPLAIN =
    "The kubelet pulls a container's image, as its pull policy says, before it creates the container; after a failed pull it waits with a growing back-off (ImagePullBackOff) and tries again.";
  const MOUNT_EXPLAIN =
    "The kubelet sets up every volume before it starts the pod's containers, so they stay Waiting (ContainerCreating) while it retries the mount with a growing back-off";

  // as the lab's Docker said it (userland proxy), and as Docker's iptables proxy says it
  const PORT_TAKEN =
    'Failed to create pod sandbox: failed to start sandbox container for pod "p": Error response from daemon: driver failed programming external connectivity on endpoint k8s_POD_p_default_u_0 (5f1c): Error starting userland proxy: listen tcp4 0.0.0.0:9090: bind: address already in use';
  const PORT_ALLOCATED = 'Failed to create pod sandbox: Bind for 0.0.0.0:8080 failed: port is already allocated';
  const SANDBOX_EXPLAIN =
    "The kubelet creates the pod's sandbox (the pause container that holds its network namespace) before any of its containers, so they stay Waiting (ContainerCreating) while it tries again at its next sync, about 10 s later.";
  const HOST_PORT_EXPLAIN = `A hostPort is a port of this machine that Docker forwards to the pod, and another pod or process holds this one: stop what holds it, choose another hostPort, or leave hostPort out (the pod is reached at its IP without one).`;
  /** The sandbox notice for a taken port: the message, the pod's host ports in that order, the event. */
  const portNotice = (message: string, ports: string[], count: number, lastAt: number): NoticeView => ({
    key: 'sandbox',
    kind: 'sandbox',
    title: "The pod's sandbox cannot be created (FailedCreatePodSandBox): the pod cannot start",
    message,
    references: ports,
    explain: `${SANDBOX_EXPLAIN} ${HOST_PORT_EXPLAIN}`,
    event: { reason: 'FailedCreatePodSandBox', count, lastAt },
  });
  const PORT_8080 = 'hostPort 8080 (container web, containerPort 80/TCP)';
  const PORT_9090 = 'hostPort 9090 (container web, containerPort 90/UDP)';
  const sandboxPod = (ready: 'True' | 'False'): Pod =>
    pod('p', {
      spec: { containers: [{ name: 'web', image: 'busybox:1.35', ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 90, hostPort: 9090, protocol: 'UDP' }, { containerPort: 7000 }] }] },
      status: { phase: 'Pending', conditions: [{ type: 'PodReadyToStartContainers', status: ready }], containerStatuses: [waiting('ContainerCreating')] },
    });
  const cases: [string, Pod, EventView[], NoticeView[]][] = [
    [
      'env from a ConfigMap that does not exist: CreateContainerConfigError with the kubelet\'s message, every reference to it, and the Failed event',
      withApp(envApp, waiting('CreateContainerConfigError', 'configmap "app-config" not found')),
      [ev('Failed', 'Error: configmap "app-config" not found', 3, 21_000, 'spec.containers{app}'), ev('Failed', 'Error: something else', 1, 30_000)],
      [
        {
          key: 'config:app',
          kind: 'container-config',
          title: 'Container app cannot be created (CreateContainerConfigError)',
          message: 'configmap "app-config" not found',
          missing: { kind: 'ConfigMap', name: 'app-config', namespace: 'default' },
          container: 'app',
          references: ['env MODE (key mode)', 'env LEVEL (key level)', 'envFrom (prefix APP_)'],
          explain: `${ENV_EXPLAIN}: create ConfigMap app-config in namespace default (a ConfigMap document in the manifest, run again), or mark the reference optional: true, and the container starts at the next try.`,
          event: { reason: 'Failed', count: 3, lastAt: 21_000 },
        },
      ],
    ],
    [
      'a key missing from a Secret names the key, and only the references to that key',
      withApp(envApp, waiting('CreateContainerConfigError', "couldn't find key password in Secret default/db")),
      [],
      [
        {
          key: 'config:app',
          kind: 'container-config',
          title: 'Container app cannot be created (CreateContainerConfigError)',
          message: "couldn't find key password in Secret default/db",
          missing: { kind: 'Secret', name: 'db', namespace: 'default', key: 'password' },
          container: 'app',
          references: ['env PASSWORD (key password)'],
          explain: `${ENV_EXPLAIN}: add the key password to Secret db, or mark the reference optional: true, and the container starts at the next try.`,
        },
      ],
    ],
    [
      'a config error that names no object has no missing object and no hint',
      withApp(envApp, waiting('CreateContainerConfigError', 'container sidecar not found')),
      [],
      [
        {
          key: 'config:app',
          kind: 'container-config',
          title: 'Container app cannot be created (CreateContainerConfigError)',
          message: 'container sidecar not found',
          container: 'app',
          references: [],
          explain: `${ENV_EXPLAIN}.`,
        },
      ],
    ],
    [
      'a volume from a ConfigMap that does not exist: FailedMount, the volume and who mounts it',
      withApp(volApp, waiting('ContainerCreating'), cfgVolume),
      [ev('FailedMount', mountMsg('configmap "app-config" not found'), 4, 16_000)],
      [
        {
          key: 'mount:cfg',
          kind: 'mount',
          title: 'Volume cfg cannot be set up (FailedMount): the pod cannot start',
          message: mountMsg('configmap "app-config" not found'),
          missing: { kind: 'ConfigMap', name: 'app-config', namespace: 'default' },
          volume: 'cfg',
          references: ['volume cfg (configMap app-config)', 'mounted by app at /etc/app'],
          explain: `${MOUNT_EXPLAIN}: create ConfigMap app-config in namespace default (a ConfigMap document in the manifest, run again), or mark the volume source optional: true, and the pod starts at the next try.`,
          event: { reason: 'FailedMount', count: 4, lastAt: 16_000 },
        },
      ],
    ],
    [
      "the latest FailedMount of a volume is shown: a key missing from the volume's ConfigMap",
      withApp(volApp, waiting('ContainerCreating'), { volumes: [{ name: 'cfg', configMap: { name: 'app-config', items: [{ key: 'mode', path: 'mode' }] } }] }),
      [ev('FailedMount', mountMsg('configmap "app-config" not found'), 4, 16_000), ev('FailedMount', mountMsg('configmap references non-existent config key: mode'), 2, 40_000)],
      [
        {
          key: 'mount:cfg',
          kind: 'mount',
          title: 'Volume cfg cannot be set up (FailedMount): the pod cannot start',
          message: mountMsg('configmap references non-existent config key: mode'),
          missing: { kind: 'ConfigMap', name: 'app-config', namespace: 'default', key: 'mode' },
          volume: 'cfg',
          references: ['volume cfg (configMap app-config)', 'mounted by app at /etc/app'],
          explain: `${MOUNT_EXPLAIN}: add the key mode to ConfigMap app-config, or mark the volume source optional: true, and the pod starts at the next try.`,
          event: { reason: 'FailedMount', count: 2, lastAt: 40_000 },
        },
      ],
    ],
    [
      'once a container has started, an earlier FailedMount no longer holds the pod',
      pod('p', {
        spec: { containers: [volApp], ...cfgVolume },
        status: { phase: 'Running', containerStatuses: [{ ...waiting('x'), state: { running: { startedAt: '2024-05-01T10:00:30Z' } } }] },
      }),
      [ev('FailedMount', mountMsg('configmap "app-config" not found'), 4, 16_000)],
      [],
    ],
    ['a pod with no problem has no notice', withApp(volApp, waiting('ContainerCreating'), cfgVolume), [], []],
    [
      'an image pulled under imagePullPolicy Always fails: the kubelet\'s message, the image and its policy, why a present image is pulled anyway, and the Failed event',
      withApp({ name: 'app', image: 'busybox:1.35', imagePullPolicy: 'Always' }, waiting('ErrImagePull', 'Error response from daemon: Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host')),
      [ev('Failed', 'Failed to pull image "busybox:1.35": Error response from daemon: Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host', 2, 9_000, 'spec.containers{app}'), ev('Failed', 'Error: ErrImagePull', 2, 9_000)],
      [
        {
          key: 'pull:app',
          kind: 'image-pull',
          title: 'Container app cannot start: its image cannot be pulled (ErrImagePull)',
          message: 'Error response from daemon: Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host',
          container: 'app',
          references: ['image busybox:1.35', 'imagePullPolicy Always'],
          explain: `${PULL_EXPLAIN} Its imagePullPolicy is Always (the API server's default for an image without a tag or with :latest), so the kubelet pulls it even when it is present on this machine: where no registry is reachable, set imagePullPolicy: IfNotPresent on an image that is present (a tagged one, such as busybox:1.35).`,
          event: { reason: 'Failed', count: 2, lastAt: 9_000 },
        },
      ],
    ],
    [
      'an image that is not present backs off: ImagePullBackOff, how to make it present',
      withApp({ name: 'app', image: 'example/web:2', imagePullPolicy: 'IfNotPresent' }, waiting('ImagePullBackOff', 'Back-off pulling image "example/web:2"')),
      [],
      [
        {
          key: 'pull:app',
          kind: 'image-pull',
          title: 'Container app cannot start: its image cannot be pulled (ImagePullBackOff)',
          message: 'Back-off pulling image "example/web:2"',
          container: 'app',
          references: ['image example/web:2', 'imagePullPolicy IfNotPresent'],
          explain: `${PULL_EXPLAIN} The image is not present on this machine's Docker, so it has to be pulled: where no registry is reachable, load or build it into Docker (docker load, docker build; in a Pod Lab checkout, bash scripts/build-images.sh builds busybox:1.35 and the pause image), or name an image that is present.`,
        },
      ],
    ],
    [
      'a host port something else holds: the sandbox cannot be created, the pod\'s host ports with the one named first, how to free it',
      sandboxPod('False'),
      [ev('FailedCreatePodSandBox', PORT_TAKEN, 3, 20_000), ev('Scheduled', 'Successfully assigned default/p to podlab-node', 1, 1_000)],
      [portNotice(PORT_TAKEN, [PORT_9090, PORT_8080], 3, 20_000)],
    ],
    [
      'another sandbox failure: the kubelet\'s words and its retry, nothing said of ports',
      sandboxPod('False'),
      [ev('FailedCreatePodSandBox', 'Failed to create pod sandbox: no such image: podlab/pause:3.10', 1, 5_000)],
      [
        {
          key: 'sandbox',
          kind: 'sandbox',
          title: "The pod's sandbox cannot be created (FailedCreatePodSandBox): the pod cannot start",
          message: 'Failed to create pod sandbox: no such image: podlab/pause:3.10',
          references: [],
          explain: SANDBOX_EXPLAIN,
          event: { reason: 'FailedCreatePodSandBox', count: 1, lastAt: 5_000 },
        },
      ],
    ],
    [
      "Docker's other words for a taken port name it too",
      sandboxPod('False'),
      [ev('FailedCreatePodSandBox', PORT_ALLOCATED, 1, 5_000)],
      [portNotice(PORT_ALLOCATED, [PORT_8080, PORT_9090], 1, 5_000)],
    ],
    [
      'a cluster without the PodReadyToStartContainers condition: the kubelet went on to pull after the failure, so the sandbox exists',
      { ...sandboxPod('False'), status: { phase: 'Pending', containerStatuses: [waiting('ContainerCreating')] } },
      [ev('FailedCreatePodSandBox', PORT_TAKEN, 2, 20_000), ev('MissingClusterDNS', 'pod: "p_default(u)". kubelet does not have ClusterDNS IP configured', 4, 31_000), ev('Pulling', 'Pulling image "busybox:1.35"', 1, 31_000)],
      [],
    ],
    [
      'a cluster without the condition, nothing after the failure but its retry: the notice stays',
      { ...sandboxPod('False'), status: { phase: 'Pending', containerStatuses: [waiting('ContainerCreating')] } },
      [ev('FailedCreatePodSandBox', PORT_ALLOCATED, 1, 5_000), ev('MissingClusterDNS', 'pod: "p_default(u)". kubelet does not have ClusterDNS IP configured', 2, 6_000)],
      [portNotice(PORT_ALLOCATED, [PORT_8080, PORT_9090], 1, 5_000)],
    ],
    ['a sandbox created after failures: its earlier FailedCreatePodSandBox events are past, no notice', sandboxPod('True'), [ev('FailedCreatePodSandBox', PORT_TAKEN, 3, 20_000)], []],
  ];
  for (const [name, p, events, want] of cases) test(name, () => assert.deepEqual(noticeViews(p, events), want));
  test('on a real cluster the sandbox notice speaks of the node, and of no retry time', () => {
    const [n] = noticeViews(sandboxPod('False'), [ev('FailedCreatePodSandBox', PORT_TAKEN, 1, 5_000)], 'cluster');
    assert.equal(
      n?.explain,
      "The kubelet creates the pod's sandbox (the pause container that holds its network namespace) before any of its containers, so they stay Waiting (ContainerCreating) while it tries again at its next sync. A hostPort is a port of the node, and another pod or process on that node holds this one: choose another hostPort, or leave hostPort out (a Service or the pod's IP reaches it without one).",
    );
  });
  test("on a real cluster the pull notice speaks of the node and the registry, not of this machine's Docker and Pod Lab's scripts", () => {
    const [n] = noticeViews(withApp({ name: 'app', image: 'example/web:2', imagePullPolicy: 'IfNotPresent' }, waiting('ImagePullBackOff', 'Back-off pulling image "example/web:2"')), [], 'cluster');
    assert.equal(n?.explain, `${PULL_EXPLAIN} Check the image name and tag, that the node can reach the registry, and for a private registry the pod's imagePullSecrets.`);
  });
});

describe("the probes table's sentence about the run toward a verdict", () => {
  const cases: [string, NonNullable<ProbeView['streak']>, string | undefined, string][] = [
    ['two failures of three, verdict still Success', { result: 'Failure', count: 2, threshold: 3 }, 'Success', '2 failures in a row: 1 more makes the verdict Failure (failureThreshold 3)'],
    ['one failure of three, no verdict yet', { result: 'Failure', count: 1, threshold: 3 }, undefined, '1 failure in a row: 2 more make the verdict Failure (failureThreshold 3)'],
    ['the threshold reached', { result: 'Failure', count: 5, threshold: 3 }, 'Failure', '5 failures in a row (failureThreshold 3 reached)'],
    ['one success of two', { result: 'Success', count: 1, threshold: 2 }, 'Failure', '1 success in a row: 1 more makes the verdict Success (successThreshold 2)'],
    ['failures under the threshold while the verdict is already Failure (readiness starts there)', { result: 'Failure', count: 2, threshold: 3 }, 'Failure', '2 failures in a row (failureThreshold 3)'],
  ];
  for (const [name, st, verdict, want] of cases) test(name, () => assert.equal(streakText(st, verdict), want));
});

describe('probes, hooks and notices in the models of the recorded and hand-built streams', () => {
  const probesPod = recordedStream('probes-and-hooks');
  const dense = recordedStream('probes-dense');
  const envPod = recordedStream('missing-configmap-env');
  const volPod = recordedStream('missing-configmap-volume');
  const end = (s: RecordedStream) => buildPanelModel(replayFeed(s).observation, lastAt(s));
  const rel = (s: RecordedStream, t: number | undefined) => (t === undefined ? undefined : t - t0(s));

  test('the recorded probes pod: Ready False, True once the page exists, False after the liveness restart, True again', () => {
    assert.deepEqual(
      end(probesPod).timeline.ready?.map((r) => [rel(probesPod, r.at), r.status, r.reason]),
      [
        [8, 'False', 'ContainersNotReady'],
        [9697, 'True', ''],
        [62_527, 'False', 'ContainersNotReady'],
        [72_023, 'True', ''],
      ],
    );
  });

  test("the recorded probes pod: the container's lane has a strip per probe, both postStart runs, the preStop run and every verdict change", () => {
    const lane = end(probesPod).timeline.lanes.find((l) => l.key === 'container:web')!;
    assert.deepEqual(
      {
        probes: lane.probes,
        marks: lane.marks!.filter((m) => !m.kind.startsWith('probe')).map((m) => [rel(probesPod, m.at), rel(probesPod, m.end), m.kind, m.label]),
        failures: lane.marks!.filter((m) => m.kind === 'probe-fail').map((m) => `${m.probe} ${rel(probesPod, m.at)}`),
      },
      {
        probes: ['startup', 'liveness', 'readiness'],
        marks: [
          [421, 478, 'hook', 'postStart hook'],
          [612, undefined, 'verdict', 'Startup: Success'],
          [9693, undefined, 'verdict', 'Readiness: Success'],
          [52_316, undefined, 'verdict', 'Liveness: Failure'],
          [52_330, 54_331, 'hook', 'preStop hook'],
          [62_473, 62_522, 'hook', 'postStart hook'],
          [62_605, undefined, 'verdict', 'Startup: Success'],
          [72_018, undefined, 'verdict', 'Readiness: Success'],
        ],
        failures: [
          'readiness 1675',
          'readiness 1682',
          'readiness 1690',
          'readiness 3691',
          'readiness 5691',
          'readiness 7691',
          'liveness 42250',
          'liveness 47250',
          'liveness 52250',
          'readiness 62607',
          'readiness 62619',
          'readiness 64620',
          'readiness 66620',
          'readiness 68619',
          'readiness 70014',
        ],
      },
    );
  });

  test('the recorded probes pod: the liveness probe after the restart, counted on the new container', () => {
    const live = end(probesPod).containers[0]!.probes[0]!;
    assert.deepEqual({ ...live, last: { ...live.last!, at: rel(probesPod, live.last!.at) } }, {
      type: 'Liveness',
      config: 'exec [cat /tmp/healthy] delay=5s timeout=1s period=5s #success=1 #failure=3',
      runs: 11,
      failures: 3,
      last: { at: 72_250, result: 'success', output: '', durationMs: 61 },
      streak: { result: 'Success', count: 1, threshold: 1 },
      verdict: 'Success',
    });
  });

  test('the hand-built dense pod: four minutes at one run a second are drawn as at most 120 marks a probe, counting every run', () => {
    const lane = end(dense).timeline.lanes.find((l) => l.key === 'container:web')!;
    const summary = (probe: string) => {
      const ms = lane.marks!.filter((m) => m.probe === probe && m.kind !== 'verdict');
      return { marks: ms.length, runs: ms.reduce((n, m) => n + (m.runs ?? 1), 0), failed: ms.reduce((n, m) => n + (m.failed ?? (m.kind === 'probe-fail' ? 1 : 0)), 0) };
    };
    assert.deepEqual(
      { startup: summary('startup'), liveness: summary('liveness'), readiness: summary('readiness'), verdicts: lane.marks!.filter((m) => m.kind === 'verdict').map((m) => [rel(dense, m.at), m.label]) },
      {
        startup: { marks: 3, runs: 3, failed: 2 },
        liveness: { marks: 118, runs: 236, failed: 0 },
        readiness: { marks: 118, runs: 236, failed: 47 },
        verdicts: [
          [3391, 'Startup: Success'],
          [21_944, 'Readiness: Success'],
          [123_944, 'Readiness: Failure'],
          [151_944, 'Readiness: Success'],
        ],
      },
    );
  });

  test("the hand-built dense pod: the worker's failed postStart and its second, successful one", () => {
    const lane = end(dense).timeline.lanes.find((l) => l.key === 'container:worker')!;
    assert.deepEqual(
      lane.marks!.map((m) => [rel(dense, m.at), rel(dense, m.end), m.kind, m.label, m.detail.split('\n')[1]]),
      [
        [435, 480, 'hook-fail', 'postStart hook failed', 'returned after 45 ms'],
        [10_635, 10_690, 'hook', 'postStart hook', undefined],
      ],
    );
  });

  test("the recorded pod whose env needs a missing ConfigMap: the container's lane shows it waiting since the first try", () => {
    const m = end(envPod);
    const failed = m.events.find((e) => e.reason === 'Failed')!;
    assert.deepEqual(m.timeline.lanes.find((l) => l.key === 'container:app')!.bars, [
      { key: 'app:config', kind: 'waiting', label: 'CreateContainerConfigError', start: failed.firstAt, end: undefined, outcome: 'failed', reason: 'CreateContainerConfigError' },
    ]);
  });

  test('the recorded pod whose env needs a missing ConfigMap: CreateContainerConfigError and one notice naming it', () => {
    const m = end(envPod);
    assert.deepEqual({ status: m.header.status, notices: m.notices }, {
      status: 'CreateContainerConfigError',
      notices: [
        {
          key: 'config:app',
          kind: 'container-config',
          title: 'Container app cannot be created (CreateContainerConfigError)',
          message: 'configmap "app-config" not found',
          missing: { kind: 'ConfigMap', name: 'app-config', namespace: 'default' },
          container: 'app',
          references: ['env MODE (key mode)'],
          explain:
            'The kubelet resolves the environment before it creates the container. Until it can, the container stays Waiting (CreateContainerConfigError) and the kubelet tries again at every pod sync: create ConfigMap app-config in namespace default (a ConfigMap document in the manifest, run again), or mark the reference optional: true, and the container starts at the next try.',
          event: { reason: 'Failed', count: 3, lastAt: m.events.find((e) => e.reason === 'Failed')!.lastAt },
        },
      ],
    });
  });

  test('the recorded pod whose volume needs a missing ConfigMap: ContainerCreating and one FailedMount notice', () => {
    const m = end(volPod);
    assert.deepEqual(
      { status: m.header.status, notices: m.notices.map((n) => ({ ...n, event: { ...n.event!, lastAt: rel(volPod, n.event!.lastAt) } })) },
      {
        status: 'ContainerCreating',
        notices: [
          {
            key: 'mount:cfg',
            kind: 'mount',
            title: 'Volume cfg cannot be set up (FailedMount): the pod cannot start',
            message: 'MountVolume.SetUp failed for volume "cfg" : configmap "app-config" not found',
            missing: { kind: 'ConfigMap', name: 'app-config', namespace: 'default' },
            volume: 'cfg',
            references: ['volume cfg (configMap app-config)', 'mounted by app at /etc/app'],
            explain:
              "The kubelet sets up every volume before it starts the pod's containers, so they stay Waiting (ContainerCreating) while it retries the mount with a growing back-off: create ConfigMap app-config in namespace default (a ConfigMap document in the manifest, run again), or mark the volume source optional: true, and the pod starts at the next try.",
            event: { reason: 'FailedMount', count: 6, lastAt: m.events.find((e) => e.reason === 'FailedMount')!.lastAt! - t0(volPod) },
          },
        ],
      },
    );
  });
});

describe('probe marks closer than 3 px are drawn as one (webview/timeline.ts)', () => {
  const px = (t: number) => t / 1000; // one pixel a second
  const mark = (at: number, kind: LaneMark['kind'], probe?: LaneMark['probe'], extra: Partial<LaneMark> = {}): LaneMark => ({
    at,
    kind,
    ...(probe ? { probe } : {}),
    label: `${kind} ${at}`,
    detail: `out ${at}`,
    ...extra,
  });
  const cases: [string, LaneMark[], LaneMark[]][] = [
    ['marks 3 px apart or more stay as they are', [mark(0, 'probe-pass', 'readiness'), mark(3000, 'probe-fail', 'readiness')], [mark(0, 'probe-pass', 'readiness'), mark(3000, 'probe-fail', 'readiness')]],
    [
      "runs closer than 3 px become one mark that counts them, failed when any failed, with the last failure's text",
      [mark(0, 'probe-pass', 'readiness'), mark(1000, 'probe-fail', 'readiness'), mark(2000, 'probe-pass', 'readiness'), mark(5000, 'probe-pass', 'readiness')],
      [
        { at: 0, end: 2000, kind: 'probe-fail', probe: 'readiness', label: 'Readiness probe: 3 runs, 1 failed', detail: 'last failure: out 1000', runs: 3, failed: 1 },
        mark(5000, 'probe-pass', 'readiness'),
      ],
    ],
    [
      'groups from the host add up their runs and keep their own text',
      [mark(0, 'probe-pass', 'liveness', { end: 500, runs: 10, failed: 0, detail: 'last run: ok' }), mark(1000, 'probe-pass', 'liveness', { end: 1500, runs: 10, failed: 0, detail: 'last run: fine' })],
      [{ at: 0, end: 1500, kind: 'probe-pass', probe: 'liveness', label: 'Liveness probe: 20 runs, 0 failed', detail: 'last run: fine', runs: 20, failed: 0 }],
    ],
    [
      'runs of different probes do not merge, and verdicts and hooks pass through',
      [mark(0, 'hook'), mark(0, 'probe-pass', 'startup'), mark(500, 'probe-pass', 'liveness'), mark(600, 'verdict', 'startup'), mark(1000, 'probe-pass', 'startup')],
      [
        mark(0, 'hook'),
        { at: 0, end: 1000, kind: 'probe-pass', probe: 'startup', label: 'Startup probe: 2 runs, 0 failed', detail: 'last run: out 1000', runs: 2, failed: 0 },
        mark(500, 'probe-pass', 'liveness'),
        mark(600, 'verdict', 'startup'),
      ],
    ],
  ];
  for (const [name, marks, want] of cases) test(name, () => assert.deepEqual(clusterMarks(marks, px), want));
});
