// The lifecycle panel's pure host side: the observation reducer, the view model, the update feed
// (snapshots, patches, latency), the protocol helpers and the HTML shell.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Container, Event as KEvent, Pod } from 'kubernetes-types/core/v1';
import type { WatchEvent } from '../../src/engine/api.js';
import { PanelFeed } from '../../src/extension/panel/feed.js';
import { contentSecurityPolicy, panelHtml } from '../../src/extension/panel/html.js';
import {
  CONDITION_TYPES,
  buildPanelModel,
  envFromText,
  expandVars,
  flushDelay,
  newObservation,
  observe,
  resolveEnv,
  probeViews,
  laneMarks,
  withDebug,
} from '../../src/extension/panel/model.js';
import { replay, replayFeed, type RecordedStream } from '../../src/extension/panel/recording.js';
import {
  applyPatch,
  attemptFromKey,
  attemptKey,
  diffModel,
  isHostToWebview,
  isWebviewToHost,
  type EnvView,
  type PanelModel,
} from '../../src/shared/protocol.js';

const fixture = (name: string): RecordedStream =>
  JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'recorded', `${name}.json`), 'utf8')) as RecordedStream;
const failing = fixture('failing-init');
const twoContainers = fixture('two-containers');
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
  test('an acknowledgement of an unknown update measures nothing', () => {
    const f = new PanelFeed('default', 'web');
    assert.equal(f.onRendered(7, 100), undefined);
  });
});

describe('pacing updates to at most ten a second', () => {
  const tenFrom = (start: number, step: number) => Array.from({ length: 10 }, (_, i) => start + i * step);
  const cases: [string, number[], number, number][] = [
    ['the first update goes out at once', [], 5000, 0],
    ['an update 30 ms after the last post goes out at once while fewer than ten went out in the last second', [1000], 1030, 0],
    ['the tenth post of a burst goes out at once', tenFrom(1000, 5).slice(0, 9), 1050, 0],
    ['an eleventh post within the second waits until the oldest post leaves the window', tenFrom(1000, 5), 1100, 900],
    ['posts older than a second do not count', tenFrom(1000, 5), 2100, 0],
  ];
  for (const [name, posts, now, want] of cases) test(name, () => assert.equal(flushDelay(posts, now, 10, 1000), want));
});

describe('message guards', () => {
  const good: [string, unknown][] = [
    ['ready', { type: 'ready' }],
    ['rendered with a sequence number', { type: 'rendered', seq: 3 }],
    ['a logs request for a previous attempt', { type: 'request', id: 1, body: { kind: 'logs', container: 'app', attempt: { which: 'previous' } } }],
    ['a restart-now request', { type: 'request', id: 2, body: { kind: 'restartNow', container: 'init' } }],
    ['a continue request', { type: 'request', id: 3, body: { kind: 'continueStep' } }],
  ];
  const bad: [string, unknown][] = [
    ['a bare string', 'ready'],
    ['an unknown type', { type: 'hello' }],
    ['rendered without a sequence number', { type: 'rendered' }],
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
  const rec = fixture('recorded-failing-init');
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
    const two = fixture('recorded-two-containers');
    const m = buildPanelModel(replayFeed(two).observation, lastAt(two));
    assert.deepEqual([m.header.status, m.header.ready], ['Running', '2/2']);
  });
});

describe('probes and hooks in the panel', () => {
  const debug = {
    uid: 'u',
    sandboxes: [],
    attempts: [],
    backoff: {},
    probes: [
      {
        containerName: 'web',
        probeType: 'readiness' as const,
        runs: [
          { time: 1000, durationMs: 3, containerId: 'c1', result: 'failure' as const, output: 'HTTP probe failed with statuscode: 404' },
          { time: 2000, durationMs: 3, containerId: 'c1', result: 'success' as const, output: '', verdict: 'Success' },
        ],
      },
    ],
    hooks: [{ containerName: 'web', containerId: 'c1', hook: 'postStart' as const, startedAt: 500, finishedAt: 900 }],
  };
  const c = { name: 'web', readinessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 1 } };

  test('a probe shows kubectl describe\'s line, its verdict and its last run', () => {
    assert.deepEqual(probeViews(c, debug), [
      { type: 'Readiness', config: 'http-get http://:8080/ delay=0s timeout=1s period=1s #success=1 #failure=3', runs: 2, failures: 1, last: { at: 2000, result: 'success', output: '' }, verdict: 'Success' },
    ]);
  });

  test('the lane marks every run, the readiness flip and the hook run, in time order', () => {
    assert.deepEqual(laneMarks('web', debug), [
      { at: 500, end: 900, kind: 'hook', label: 'postStart', detail: '' },
      { at: 1000, kind: 'probe-fail', label: 'Readiness probe failed', detail: 'HTTP probe failed with statuscode: 404' },
      { at: 2000, kind: 'probe-pass', label: 'Readiness success', detail: '' },
      { at: 2000, kind: 'verdict', label: 'Readiness: Success', detail: 'ready' },
    ]);
  });

  test('dense passing runs are thinned to at most 61 marks, failures are all kept', () => {
    const runs = Array.from({ length: 100 }, (_, i) => ({ time: i * 1000, durationMs: 1, containerId: 'c1', result: (i % 10 === 9 ? 'failure' : 'success') as 'failure' | 'success', output: '' }));
    const marks = laneMarks('web', { ...debug, hooks: [], probes: [{ containerName: 'web', probeType: 'liveness', runs }] });
    assert.deepEqual(
      { passes: marks.filter((m) => m.kind === 'probe-pass').length, failures: marks.filter((m) => m.kind === 'probe-fail').length },
      { passes: 46, failures: 10 },
    );
  });
});
