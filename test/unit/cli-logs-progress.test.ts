// The command line's story (src/cli/pod-logs.ts, log-streams.ts, delete-progress.ts,
// delete-reporter.ts): kubectl's default container and its note, which logs `run --logs` starts
// reading and when, how its lines are labelled, and `delete`'s progress — the pure decisions, and
// the shells driven through fake engines (no server, no Docker).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import {
  allContainerNames,
  chooseExecContainer,
  chooseLogsContainer,
  currentInstance,
  labelWidth,
  logJsonLine,
  logLine,
  logsToDrain,
  logsToStart,
  type ContainerChoice,
  type LogFollowState,
  type LogStart,
} from '../../src/cli/pod-logs.js';
import { allLogContainers, followLimitError, logRequest, logSourcePrefix, prefixLines, type LogFlags } from '../../src/cli/pod-logs.js';
import { deletionProgress, isWaitingLine, redraw, runningContainers } from '../../src/cli/delete-progress.js';
import { RunLogs } from '../../src/cli/log-streams.js';
import { DeletionReporter } from '../../src/cli/delete-reporter.js';
import type { WatchEvent } from '../../src/engine/api.js';

// ---- pods ----------------------------------------------------------------------------------------

type Spec = { init?: (string | [string, 'Always'])[]; app?: string[]; eph?: string[] };

function pod(spec: Spec, status: { init?: ContainerStatus[]; app?: ContainerStatus[]; eph?: ContainerStatus[] } = {}, metadata: Pod['metadata'] = {}): Pod {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'u1', ...metadata },
    spec: {
      containers: (spec.app ?? ['app']).map((name) => ({ name, image: 'busybox:1.35' })),
      ...(spec.init ? { initContainers: spec.init.map((c) => (typeof c === 'string' ? { name: c, image: 'busybox:1.35' } : { name: c[0], image: 'busybox:1.35', restartPolicy: c[1] })) } : {}),
      ...(spec.eph ? { ephemeralContainers: spec.eph.map((name) => ({ name, image: 'busybox:1.35' })) } : {}),
    },
    status: {
      ...(status.init ? { initContainerStatuses: status.init } : {}),
      ...(status.app ? { containerStatuses: status.app } : {}),
      ...(status.eph ? { ephemeralContainerStatuses: status.eph } : {}),
    },
  };
}

const base = (name: string, id: string): ContainerStatus => ({ name, image: 'busybox:1.35', imageID: '', ready: false, restartCount: 0, containerID: `docker://${id}` });
const running = (name: string, id: string): ContainerStatus => ({ ...base(name, id), state: { running: { startedAt: '2025-01-01T10:00:00Z' } } });
const exited = (name: string, id: string, exitCode = 0): ContainerStatus => ({ ...base(name, id), state: { terminated: { exitCode, containerID: `docker://${id}` } } });
const created = (name: string, id: string): ContainerStatus => ({ ...base(name, id), state: { waiting: {} } });
const backoff = (name: string, id: string): ContainerStatus => ({
  ...base(name, id),
  restartCount: 1,
  state: { waiting: { reason: 'CrashLoopBackOff' } },
  lastState: { terminated: { exitCode: 1, reason: 'Error', containerID: `docker://${id}` } },
});

// ---- the default container -------------------------------------------------------------------

describe("kubectl logs' container choice (logsForObjectWithClient)", () => {
  const several = { init: ['init-a'], app: ['app', 'sidecar'] };
  const cases: [string, Pod, string | undefined, ContainerChoice][] = [
    ['the only container, without a note', pod({ app: ['app'] }), undefined, { container: 'app', notes: [] }],
    ['the first of two containers, with the note', pod({ app: ['app', 'sidecar'] }), undefined, { container: 'app', notes: ['Defaulted container "app" out of: app, sidecar'] }],
    ['the first container with the note when the pod also has an init container (kubectl counts every kind)', pod({ init: ['init-a'], app: ['app'] }), undefined, { container: 'app', notes: ['Defaulted container "app" out of: app, init-a (init)'] }],
    [
      'the note lists containers, then ephemeral ones, then init ones',
      pod({ init: ['init-a', ['proxy', 'Always']], app: ['app', 'sidecar'], eph: ['dbg'] }),
      undefined,
      { container: 'app', notes: ['Defaulted container "app" out of: app, sidecar, dbg (ephem), init-a (init), proxy (init)'] },
    ],
    ['the default-container annotation wins, without a note', pod(several, {}, { annotations: { 'kubectl.kubernetes.io/default-container': 'sidecar' } }), undefined, { container: 'sidecar', notes: [] }],
    ['the annotation may name an init container', pod(several, {}, { annotations: { 'kubectl.kubernetes.io/default-container': 'init-a' } }), undefined, { container: 'init-a', notes: [] }],
    [
      'an annotation naming no container says so, then the first is defaulted with the note',
      pod(several, {}, { annotations: { 'kubectl.kubernetes.io/default-container': 'nope' } }),
      undefined,
      { container: 'app', notes: ['Default container name "nope" not found in pod web', 'Defaulted container "app" out of: app, sidecar, init-a (init)'] },
    ],
    ['an annotation naming no container of a one-container pod: only that it was not found', pod({ app: ['app'] }, {}, { annotations: { 'kubectl.kubernetes.io/default-container': 'nope' } }), undefined, { container: 'app', notes: ['Default container name "nope" not found in pod web'] }],
    ['-c wins over the annotation, without a note', pod(several, {}, { annotations: { 'kubectl.kubernetes.io/default-container': 'sidecar' } }), 'init-a', { container: 'init-a', notes: [] }],
    // kubectl 1.27–1.33 against the lab server: `error: container bogus is not valid for pod web` (logsForObjectWithClient's own check, not podcmd's "out of" form)
    ['-c naming no container of the pod is an error naming it and the pod', pod(several), 'bogus', { error: 'container bogus is not valid for pod web' }],
    ['a pod without containers is an error, not a crash', { metadata: { name: 'web', namespace: 'lab' }, spec: { containers: [] } }, undefined, { error: 'pod lab/web does not have any containers' }],
  ];
  for (const [name, p, requested, want] of cases) test(name, () => assert.deepEqual(chooseLogsContainer(p, requested), want));
});

describe("kubectl exec's container choice (ExecOptions.Run: a completed pod refused, FindOrDefaultContainerByName only without -c)", () => {
  const several = { init: ['init-a'], app: ['app', 'sidecar'] };
  const cases: [string, Pod, string | undefined, ContainerChoice][] = [
    ['the only container, without a note', pod({ app: ['app'] }), undefined, { container: 'app', notes: [] }],
    ['the first container with the note when there is an init container', pod({ init: ['wait'], app: ['app'] }), undefined, { container: 'app', notes: ['Defaulted container "app" out of: app, wait (init)'] }],
    ['the annotation, without a note', pod(several, {}, { annotations: { 'kubectl.kubernetes.io/default-container': 'sidecar' } }), undefined, { container: 'sidecar', notes: [] }],
    ['an annotation naming no container is passed over silently', pod(several, {}, { annotations: { 'kubectl.kubernetes.io/default-container': 'nope' } }), undefined, { container: 'app', notes: ['Defaulted container "app" out of: app, sidecar, init-a (init)'] }],
    ['-c naming an init container is taken', pod(several), 'init-a', { container: 'init-a', notes: [] }],
    // kubectl leaves -c to the API server, which answers `container bogus is not valid for pod web`.
    ['-c naming no container of the pod goes to the server as it is', pod(several), 'bogus', { container: 'bogus', notes: [] }],
    ['a pod that Succeeded is refused before any container is chosen', { ...pod(several), status: { phase: 'Succeeded' } }, 'app', { error: 'cannot exec into a container in a completed pod; current phase is Succeeded' }],
    ['a pod that Failed is refused, without -c too', { ...pod(several), status: { phase: 'Failed' } }, undefined, { error: 'cannot exec into a container in a completed pod; current phase is Failed' }],
  ];
  for (const [name, p, requested, want] of cases) test(name, () => assert.deepEqual(chooseExecContainer(p, requested), want));

  test('a pod with nothing but its containers lists them alone', () => assert.equal(allContainerNames(pod({ app: ['a', 'b'] })), 'a, b'));
});

// ---- which logs run --logs starts ------------------------------------------------------------------

describe('the instance a container status shows', () => {
  const cases: [string, ContainerStatus | undefined, ReturnType<typeof currentInstance>][] = [
    ['no status: none', undefined, undefined],
    ['running: that instance, followed', running('app', 'a1'), { containerID: 'docker://a1', running: true }],
    ['finished: that instance, read once', exited('app', 'a1'), { containerID: 'docker://a1', running: false }],
    ['created, not started: none', created('app', 'a1'), undefined],
    ['waiting after a crash: the last finished instance', backoff('app', 'a1'), { containerID: 'docker://a1', running: false }],
  ];
  for (const [name, s, want] of cases) test(name, () => assert.deepEqual(currentInstance(s), want));
});

describe('which logs run --logs starts reading now', () => {
  const st = (started: Record<string, string> = {}, open: string[] = []): LogFollowState => ({ started: new Map(Object.entries(started)), open: new Set(open) });
  const follow = (container: string, id: string, role: LogStart['role']): LogStart => ({ container, role, containerID: `docker://${id}`, running: true });
  const read = (container: string, id: string, role: LogStart['role']): LogStart => ({ container, role, containerID: `docker://${id}`, running: false });
  const spec: Spec = { init: ['init-a', 'init-b'], app: ['app'] };
  const cases: [string, Pod, LogFollowState, LogStart[]][] = [
    ['nothing has started: nothing', pod(spec), st(), []],
    ['the first init container runs: follow it', pod(spec, { init: [running('init-a', 'i1'), created('init-b', 'i2')] }), st(), [follow('init-a', 'i1', 'init')]],
    ['an init container already followed: nothing new', pod(spec, { init: [running('init-a', 'i1')] }), st({ 'init-a': 'docker://i1' }, ['init-a']), []],
    [
      'the next init container runs while the previous one is still being read: held back',
      pod(spec, { init: [exited('init-a', 'i1'), running('init-b', 'i2')] }),
      st({ 'init-a': 'docker://i1' }, ['init-a']),
      [],
    ],
    [
      'the previous init container has been read to its end: follow the next',
      pod(spec, { init: [exited('init-a', 'i1'), running('init-b', 'i2')] }),
      st({ 'init-a': 'docker://i1' }),
      [follow('init-b', 'i2', 'init')],
    ],
    [
      'an init container that finished before it was seen is read by id, and holds back what came after it',
      pod(spec, { init: [exited('init-a', 'i1'), exited('init-b', 'i2')], app: [running('app', 'a1')] }),
      st(),
      [read('init-a', 'i1', 'init')],
    ],
    [
      'every init container read: the app container is followed',
      pod(spec, { init: [exited('init-a', 'i1'), exited('init-b', 'i2')], app: [running('app', 'a1')] }),
      st({ 'init-a': 'docker://i1', 'init-b': 'docker://i2' }),
      [follow('app', 'a1', 'app')],
    ],
    [
      'a sidecar holds nothing back: it and the app container are followed, in start order',
      pod({ init: ['init-a', ['proxy', 'Always']], app: ['app', 'worker'] }, { init: [exited('init-a', 'i1'), running('proxy', 'p1')], app: [running('app', 'a1'), running('worker', 'w1')] }),
      st({ 'init-a': 'docker://i1' }),
      [follow('proxy', 'p1', 'sidecar'), follow('app', 'a1', 'app'), follow('worker', 'w1', 'app')],
    ],
    ['a restarted container: its new instance is followed', pod({ app: ['app'] }, { app: [running('app', 'a2')] }), st({ app: 'docker://a1' }), [follow('app', 'a2', 'app')]],
    ["a restarted container whose previous instance's log is still open: it waits for its end", pod({ app: ['app'] }, { app: [running('app', 'a2')] }), st({ app: 'docker://a1' }, ['app']), []],
    ['a crash-looping container found waiting: its last instance is read', pod({ app: ['app'] }, { app: [backoff('app', 'a1')] }), st(), [read('app', 'a1', 'app')]],
    ['a crash-looping container whose last instance was read: nothing', pod({ app: ['app'] }, { app: [backoff('app', 'a1')] }), st({ app: 'docker://a1' }), []],
    [
      'an ephemeral container is followed even while an init container holds the others back',
      pod({ init: ['init-a'], app: ['app'], eph: ['dbg'] }, { init: [running('init-a', 'i1')], eph: [running('dbg', 'd1')] }),
      st({ 'init-a': 'docker://i1' }, ['init-a']),
      [follow('dbg', 'd1', 'ephemeral')],
    ],
  ];
  for (const [name, p, state, want] of cases) test(name, () => assert.deepEqual(logsToStart(p, state), want));
});

describe('which logs run --logs waits for before it exits', () => {
  const st = (open: string[]): LogFollowState => ({ started: new Map(), open: new Set(open) });
  const cases: [string, Pod | undefined, LogFollowState, string[]][] = [
    ['nothing open: nothing', pod({ app: ['app'] }, { app: [exited('app', 'a1')] }), st([]), []],
    ["a finished container's log still open: it", pod({ app: ['app', 'web'] }, { app: [exited('app', 'a1'), running('web', 'w1')] }), st(['app', 'web']), ['app']],
    ['a running container: not waited for (its stream stays open)', pod({ app: ['app'] }, { app: [running('app', 'a1')] }), st(['app']), []],
    ['the pod is gone: every open log', undefined, st(['app', 'init-a']), ['app', 'init-a']],
  ];
  for (const [name, p, state, want] of cases) test(name, () => assert.deepEqual(logsToDrain(p, state), want));
});

describe('log lines', () => {
  const cases: [string, string, string][] = [
    ['a label padded to the width, then " | " and the line', logLine('app', 11, 'serving on :80'), 'app         | serving on :80\n'],
    ['the longest label is not padded', logLine('wait-for-db', 11, 'ok'), 'wait-for-db | ok\n'],
    ['an empty line keeps its label', logLine('app', 3, ''), 'app | \n'],
    [
      'under --json, a line is an object of its own',
      logJsonLine('default', 'web', 'app', 'docker://a1', 'say "hi"'),
      '{"kind":"Log","namespace":"default","pod":"web","container":"app","containerID":"docker://a1","line":"say \\"hi\\""}\n',
    ],
  ];
  for (const [name, got, want] of cases) test(name, () => assert.equal(got, want));

  test('the width is the longest container name of every kind; with several pods, of POD/CONTAINER', () =>
    assert.deepEqual(
      [labelWidth([pod({ init: ['wait-for-db'], app: ['app'], eph: ['dbg'] })]), labelWidth([pod({ app: ['app'] }), pod({ app: ['main'] }, {}, { name: 'database' })])],
      [11, 13],
    ));
});

// ---- the run --logs shell, on a fake engine ----------------------------------------------------------

class FakeLogEngine {
  readonly pods = new Map<string, Pod>();
  readonly follows: { container: string; onLine: (l: string) => void; onEnd?: () => void }[] = [];
  readonly reads = new Map<string, string[]>();
  readonly calls: string[] = [];
  getPod(_ns: string, name: string): Pod | undefined {
    return this.pods.get(name);
  }
  async followLogs(_ns: string, name: string, container: string, onLine: (l: string) => void, opts: { onEnd?: () => void } = {}) {
    this.calls.push(`follow ${name}/${container}`);
    this.follows.push({ container, onLine, onEnd: opts.onEnd });
    return { dispose: () => this.calls.push(`dispose ${name}/${container}`) };
  }
  async attemptLogs(id: string): Promise<string[]> {
    this.calls.push(`read ${id}`);
    return this.reads.get(id) ?? [];
  }
}

const flush = () => new Promise((r) => setImmediate(r));

describe('run --logs follows each container as it starts (fake engine)', () => {
  test('init container lines come before the app container, whose restarted instance is followed too; labels padded like docker compose', async () => {
    const engine = new FakeLogEngine();
    const out: string[] = [];
    const spec: Spec = { init: ['wait-for-db'], app: ['app'] };
    const logs = new RunLogs(engine, [pod(spec)], { out: (s) => out.push(s), err: (s) => out.push(`ERR ${s}`) }, false);
    const at = (p: Pod) => {
      engine.pods.set('web', p);
      logs.update(p);
    };
    at(pod(spec, { init: [running('wait-for-db', 'i1')], app: [created('app', 'a1')] }));
    await flush();
    engine.follows[0]!.onLine('waiting for db');
    // The app container starts while the init container's last line is still on its way: held back.
    at(pod(spec, { init: [exited('wait-for-db', 'i1')], app: [running('app', 'a1')] }));
    await flush();
    engine.follows[0]!.onLine('db is up');
    engine.follows[0]!.onEnd!();
    await flush();
    engine.follows[1]!.onLine('serving');
    at(pod(spec, { init: [exited('wait-for-db', 'i1')], app: [running('app', 'a2')] }));
    await flush();
    engine.follows[1]!.onEnd!();
    await flush();
    engine.follows[2]!.onLine('serving again');
    logs.dispose();
    engine.follows[2]!.onLine('after dispose');
    assert.deepEqual(
      { out, calls: engine.calls },
      {
        out: ['wait-for-db | waiting for db\n', 'wait-for-db | db is up\n', 'app         | serving\n', 'app         | serving again\n'],
        calls: ['follow web/wait-for-db', 'follow web/app', 'follow web/app', 'dispose web/app'],
      },
    );
  });

  test('under --json, an init container seen only once finished is read by its id, each line an object; drain waits for the last log', async () => {
    const engine = new FakeLogEngine();
    engine.reads.set('i1', ['one', 'two']);
    const out: string[] = [];
    const spec: Spec = { init: ['init'], app: ['app'] };
    const logs = new RunLogs(engine, [pod(spec)], { out: (s) => out.push(s), err: (s) => out.push(`ERR ${s}`) }, true);
    const p1 = pod(spec, { init: [exited('init', 'i1')], app: [running('app', 'a1')] });
    engine.pods.set('web', p1);
    logs.update(p1);
    await flush();
    await flush();
    engine.follows[0]!.onLine('hello');
    const p2 = pod(spec, { init: [exited('init', 'i1')], app: [exited('app', 'a1')] });
    engine.pods.set('web', p2);
    logs.update(p2);
    let drained = false;
    const drain = logs.drain(10_000).then(() => (drained = true));
    await flush();
    const before = drained;
    engine.follows[0]!.onEnd!();
    await drain;
    logs.dispose();
    const line = (container: string, id: string, l: string) => logJsonLine('default', 'web', container, `docker://${id}`, l);
    assert.deepEqual(
      { out, calls: engine.calls, before, drained },
      { out: [line('init', 'i1', 'one'), line('init', 'i1', 'two'), line('app', 'a1', 'hello')], calls: ['read i1', 'follow web/app'], before: false, drained: true },
    );
  });

  test('with several pods each line says POD/CONTAINER; a log that cannot be read is said on stderr; drain gives up after its timeout', async () => {
    const engine = new FakeLogEngine();
    engine.attemptLogs = async (id: string) => {
      engine.calls.push(`read ${id}`);
      throw new Error('no such container');
    };
    const out: string[] = [];
    const web = pod({ app: ['app'] });
    const db = pod({ app: ['main'] }, {}, { name: 'database', uid: 'u2' });
    const logs = new RunLogs(engine, [web, db], { out: (s) => out.push(s), err: (s) => out.push(`ERR ${s}`) }, false);
    const w = pod({ app: ['app'] }, { app: [running('app', 'a1')] });
    const d = pod({ app: ['main'] }, { app: [exited('main', 'm1')] }, { name: 'database', uid: 'u2' });
    engine.pods.set('web', w);
    engine.pods.set('database', d);
    logs.update(w);
    logs.update(d);
    await flush();
    engine.follows[0]!.onLine('up');
    const w2 = pod({ app: ['app'] }, { app: [exited('app', 'a1')] });
    engine.pods.set('web', w2);
    const t0 = Date.now();
    await logs.drain(50);
    const waited = Date.now() - t0 >= 40;
    logs.dispose();
    assert.deepEqual(
      { out, calls: engine.calls, waited },
      {
        out: ['ERR podlab: the log of container main of pod database: no such container\n', 'web/app       | up\n'],
        calls: ['follow web/app', 'read m1', 'dispose web/app'],
        waited: true,
      },
    );
  });
});

// ---- delete's progress -----------------------------------------------------------------------------

describe("a deleting pod's progress line", () => {
  const deleting = (status: Parameters<typeof pod>[1], grace = 30, ts = '2025-01-01T10:00:30Z') => pod({ init: [['proxy', 'Always']], app: ['app'] }, status, { deletionTimestamp: ts, deletionGracePeriodSeconds: grace });
  const now = Date.parse('2025-01-01T10:00:18Z');
  const cases: [string, Pod, number, string | undefined][] = [
    ['not being deleted: none', pod({ app: ['app'] }, { app: [running('app', 'a1')] }), now, undefined],
    ['one container running: waits for it, with the grace period and the time left', deleting({ init: [exited('proxy', 'p1', 137)], app: [running('app', 'a1')] }), now, 'pod "web" deleting: waiting for container "app" to stop (grace period 30s, 12s left)'],
    [
      'a sidecar and the app running: both, sidecar first',
      deleting({ init: [running('proxy', 'p1')], app: [running('app', 'a1')] }),
      now,
      'pod "web" deleting: waiting for containers "proxy", "app" to stop (grace period 30s, 12s left)',
    ],
    ['part of a second left counts as a second', deleting({ app: [running('app', 'a1')] }), now + 500, 'pod "web" deleting: waiting for container "app" to stop (grace period 30s, 12s left)'],
    ['past the deletionTimestamp: 0s left, never less', deleting({ app: [running('app', 'a1')] }, 3), now + 20_000, 'pod "web" deleting: waiting for container "app" to stop (grace period 3s, 0s left)'],
    ['nothing runs any more: the pod is being removed', deleting({ app: [exited('app', 'a1', 137)] }), now, 'pod "web" deleting: containers stopped, removing the pod'],
  ];
  for (const [name, p, at, want] of cases) test(name, () => assert.deepEqual(deletionProgress(p, at), want));

  test('running containers: init (sidecars), app, ephemeral, in that order', () =>
    assert.deepEqual(runningContainers(pod({ init: [['proxy', 'Always']], app: ['app', 'b'], eph: ['dbg'] }, { init: [running('proxy', 'p')], app: [exited('app', 'a'), running('b', 'b')], eph: [running('dbg', 'd')] })), ['proxy', 'b', 'dbg']));

  test('only a waiting line is printed when stderr is not a terminal', () =>
    assert.deepEqual(
      ['pod "x" deleting: waiting for container "app" to stop (grace period 3s, 3s left)', 'pod "x" deleting: containers stopped, removing the pod', undefined].map(isWaitingLine),
      [true, false, false],
    ));
});

describe('redrawing lines in place on a terminal', () => {
  const cases: [string, number, string[], number, string][] = [
    ['the first draw writes the lines', 0, ['a', 'b'], 80, 'a\nb\n'],
    ['a redraw goes up over the lines shown, erases, and writes', 1, ['c'], 80, '\x1b[1A\r\x1b[Jc\n'],
    ['erasing goes up and erases only', 2, [], 80, '\x1b[2A\r\x1b[J'],
    ['nothing shown, nothing to write: nothing', 0, [], 80, ''],
    ['a line wider than the terminal is cut so that it cannot wrap', 0, ['abcdefgh'], 5, 'abcd\n'],
  ];
  for (const [name, previous, lines, columns, want] of cases) test(name, () => assert.equal(redraw(previous, lines, columns), want));
});

describe('the delete progress reporter (fake engine and clock)', () => {
  class FakeWatchEngine {
    readonly pods = new Map<string, Pod>();
    readonly listeners = new Set<(e: WatchEvent) => void>();
    getPod(_ns: string, name: string) {
      return this.pods.get(name);
    }
    watch(l: (e: WatchEvent) => void) {
      this.listeners.add(l);
      return { dispose: () => this.listeners.delete(l) };
    }
    set(p: Pod) {
      this.pods.set(p.metadata!.name!, p);
      for (const l of this.listeners) l({ type: 'MODIFIED', kind: 'Pod', object: p });
    }
  }
  const deletingAt = (app: ContainerStatus) => pod({ app: ['app'] }, { app: [app] }, { deletionTimestamp: '2025-01-01T10:00:03Z', deletionGracePeriodSeconds: 3 });

  /** The same deletion seen by a reporter: stderr and stdout writes, in order. */
  async function story(terminal: { columns: number } | undefined): Promise<string[]> {
    const engine = new FakeWatchEngine();
    const writes: string[] = [];
    let now = Date.parse('2025-01-01T10:00:00Z');
    engine.pods.set('web', pod({ app: ['app'] }, { app: [running('app', 'a1')] }));
    const r = new DeletionReporter(engine, (s) => writes.push(`err ${JSON.stringify(s)}`), terminal, () => now);
    r.track('default', 'web');
    engine.set(deletingAt(running('app', 'a1')));
    // Other output of the command (a ConfigMap deleted) goes above the progress line.
    r.above(() => writes.push('out "configmap \\"cm\\" deleted\\n"'));
    now += 1000;
    engine.set(deletingAt(running('app', 'a1')));
    engine.set(deletingAt(running('app', 'a1')));
    now += 2500;
    engine.set(deletingAt(exited('app', 'a1', 137)));
    r.finished('default', 'web');
    r.above(() => writes.push('out "pod \\"web\\" deleted\\n"'));
    engine.set(deletingAt(exited('app', 'a1', 137)));
    r.dispose();
    return writes;
  }

  test('not on a terminal: one line when the pod starts waiting, then the final line', async () =>
    assert.deepEqual(await story(undefined), [
      'err "pod \\"web\\" deleting: waiting for container \\"app\\" to stop (grace period 3s, 3s left)\\n"',
      'out "configmap \\"cm\\" deleted\\n"',
      'out "pod \\"web\\" deleted\\n"',
    ]));

  test('on a terminal: the line is rewritten in place as it changes, erased, then the final line', async () =>
    assert.deepEqual(await story({ columns: 200 }), [
      'err "pod \\"web\\" deleting: waiting for container \\"app\\" to stop (grace period 3s, 3s left)\\n"',
      'err "\\u001b[1A\\r\\u001b[J"',
      'out "configmap \\"cm\\" deleted\\n"',
      'err "pod \\"web\\" deleting: waiting for container \\"app\\" to stop (grace period 3s, 3s left)\\n"',
      'err "\\u001b[1A\\r\\u001b[Jpod \\"web\\" deleting: waiting for container \\"app\\" to stop (grace period 3s, 2s left)\\n"',
      'err "\\u001b[1A\\r\\u001b[Jpod \\"web\\" deleting: containers stopped, removing the pod\\n"',
      'err "\\u001b[1A\\r\\u001b[J"',
      'out "pod \\"web\\" deleted\\n"',
    ]));
});

describe("kubectl logs' flags as the request's options (pflag, then LogsOptions.Complete and Validate; Validate's refusals marked, as kubectl makes them after finding the pod)", () => {
  const none = { previous: false, timestamps: false, maxLogRequests: 5 };
  const cases: [string, LogFlags, ReturnType<typeof logRequest>][] = [
    ['no flags: no options (and kubectl\'s limit of five followed streams)', {}, none],
    ['--timestamps and --previous', { timestamps: true, previous: true }, { previous: true, timestamps: true, maxLogRequests: 5 }],
    ['--max-log-requests is an int as pflag reads it', { maxLogRequests: '0x8' }, { ...none, maxLogRequests: 8 }],
    ['--max-log-requests=x is pflag\'s error', { maxLogRequests: 'x' }, { error: 'invalid argument "x" for "--max-log-requests" flag: strconv.ParseInt: parsing "x": invalid syntax' }],
    ['--all-containers with a container named is refused, naming it', { allContainers: true, container: 'app' }, { error: '--all-containers=true should not be specified with container name app', validate: true }],
    ['--all-containers alone is no refusal', { allContainers: true }, none],
    ['that refusal comes before the -c one', { allContainers: true, container: 'app', containerTwice: true }, { error: '--all-containers=true should not be specified with container name app', validate: true }],
    ['and after the since conflict', { allContainers: true, container: 'app', since: '5s', sinceTime: '2026-01-01T00:00:00Z' }, { error: 'at most one of `sinceTime` or `sinceSeconds` may be specified', validate: true }],
    ['--tail=-1 is the default (every line)', { tail: '-1' }, none],
    ['--tail=0 asks for no lines', { tail: '0' }, { ...none, tail: 0 }],
    ['--tail takes an int64 as pflag reads it (0x10 is 16)', { tail: '0x10' }, { ...none, tail: 16 }],
    ['--tail=3.5 is pflag\'s error', { tail: '3.5' }, { error: 'invalid argument "3.5" for "--tail" flag: strconv.ParseInt: parsing "3.5": invalid syntax' }],
    ['--tail=-2 is refused', { tail: '-2' }, { error: '--tail must be greater than or equal to -1', validate: true }],
    ['--since=1h30m is 5400 seconds', { since: '1h30m' }, { ...none, sinceSeconds: 5400 }],
    ['--since=1.5s rounds half away from zero: 2', { since: '1.5s' }, { ...none, sinceSeconds: 2 }],
    ['--since=1.4s rounds to 1', { since: '1.4s' }, { ...none, sinceSeconds: 1 }],
    ['--since=400ms rounds to 0, which is sent (the API server refuses it)', { since: '400ms' }, { ...none, sinceSeconds: 0 }],
    ['--since=0s is unset', { since: '0s' }, none],
    ['--since=-5s is refused', { since: '-5s' }, { error: '--since must be greater than 0', validate: true }],
    ['--since=5 has no unit', { since: '5' }, { error: 'invalid argument "5" for "--since" flag: time: missing unit in duration "5"' }],
    ['--since-time is sent in UTC, in whole seconds', { sinceTime: '2026-11-24T05:07:00.5+01:00' }, { ...none, sinceTime: '2026-11-24T04:07:00Z' }],
    ['--since-time that is no RFC 3339 time is Go\'s parse error', { sinceTime: '2026-11-24' }, { error: 'parsing time "2026-11-24" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"' }],
    ['--since and --since-time together are refused', { since: '5s', sinceTime: '2026-01-01T00:00:00Z' }, { error: 'at most one of `sinceTime` or `sinceSeconds` may be specified', validate: true }],
    ['--limit-bytes=0 is unset', { limitBytes: '0' }, none],
    ['--limit-bytes=10', { limitBytes: '10' }, { ...none, limitBytes: 10 }],
    ['--limit-bytes=-1 is refused', { limitBytes: '-1' }, { error: '--limit-bytes must be greater than 0', validate: true }],
    ['-c and an inline CONTAINER together are refused', { containerTwice: true }, { error: 'only one of -c or an inline [CONTAINER] arg is allowed', validate: true }],
    ['that refusal comes after the since conflict and before --limit-bytes\'s', { containerTwice: true, limitBytes: '-1' }, { error: 'only one of -c or an inline [CONTAINER] arg is allowed', validate: true }],
    ['--limit-bytes is checked before --since and --tail, as Validate does', { limitBytes: '-1', since: '-5s', tail: '-2' }, { error: '--limit-bytes must be greater than 0', validate: true }],
    ['the since conflict comes first', { containerTwice: true, since: '5s', sinceTime: '2026-01-01T00:00:00Z' }, { error: 'at most one of `sinceTime` or `sinceSeconds` may be specified', validate: true }],
  ];
  for (const [name, flags, want] of cases) test(name, () => assert.deepEqual(logRequest(flags), want));
});

describe('kubectl logs --all-containers and --prefix: the containers read, the label of each line, the limit on followed streams', () => {
  const cases: [string, () => unknown, unknown][] = [
    ['every container in spec order: init containers (a sidecar among them), app containers, ephemeral ones', () => allLogContainers(pod({ init: ['a', ['side', 'Always'], 'b'], app: ['web', 'log'], eph: ['dbg'] })), ['a', 'side', 'b', 'web', 'log', 'dbg']],
    ['a pod of one container: that one', () => allLogContainers(pod({})), ['app']],
    ['the prefix names the pod and the container', () => logSourcePrefix('web', 'init-a'), '[pod/web/init-a] '],
    ['each line gets the prefix, an empty one too', () => prefixLines('one\n\ntwo\n', '[p] '), '[p] one\n[p] \n[p] two\n'],
    ['a last line without a newline gets it and stays without one', () => prefixLines('one\ntwo', '[p] '), '[p] one\n[p] two'],
    ['no text, no prefix', () => prefixLines('', '[p] '), ''],
    ['no prefix asked: the text as it is', () => prefixLines('one\n', ''), 'one\n'],
    ['following six streams with the default limit is refused in kubectl\'s words', () => followLimitError(6, 5), 'you are attempting to follow 6 log streams, but maximum allowed concurrency is 5, use --max-log-requests to increase the limit'],
    ['five streams are within the limit', () => followLimitError(5, 5), undefined],
    ['one stream is always followed, whatever the limit', () => followLimitError(1, 0), undefined],
    ['two streams with a limit of one are refused', () => followLimitError(2, 1), 'you are attempting to follow 2 log streams, but maximum allowed concurrency is 1, use --max-log-requests to increase the limit'],
  ];
  for (const [name, fn, want] of cases) test(name, () => assert.deepEqual(fn(), want));
});
