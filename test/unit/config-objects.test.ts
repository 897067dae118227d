// ConfigMaps and Secrets: the store's kinds and `put`, normalisation, kubectl apply's outcome and the
// API server's update validation, and the lab's files (persistence round trip, corrupt files, a
// second process's changes arriving as watch events).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigMap, Pod, Secret } from 'kubernetes-types/core/v1';
import { Store, NotFoundError } from '../../src/engine/store.js';
import { FakeClock } from '../../src/engine/clock.js';
import type { ConfigObject, WatchEvent } from '../../src/engine/api.js';
import { InvalidError, applyBody, invalidMessage, normalizeConfigObject, notFoundMessage, planApply, withApplyRecord } from '../../src/engine/config-objects.js';
import { ConfigObjectFiles, objectPath, parseObjectFile } from '../../src/engine/config-persistence.js';

const T0 = Date.UTC(2024, 0, 1, 10, 0, 0);
const b64 = (s: string) => Buffer.from(s).toString('base64');

const cm = (name: string, data?: Record<string, string>, extra: Partial<ConfigMap> = {}): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...(data ? { data } : {}), ...extra });
const secret = (name: string, extra: Partial<Secret> & { stringData?: Record<string, string> } = {}): Secret => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, ...extra });

/** What a watcher saw: `TYPE Kind ns/name rv`. */
function recorder(store: Store): { seen: string[] } {
  const r = { seen: [] as string[] };
  store.watch((e: WatchEvent) => {
    if (e.kind !== 'ConfigMap' && e.kind !== 'Secret') return;
    r.seen.push(`${e.type} ${e.kind} ${e.object.metadata?.namespace}/${e.object.metadata?.name} ${e.object.metadata?.resourceVersion}`);
  });
  return r;
}

describe('the store keeps ConfigMaps and Secrets with watch', () => {
  test('put adds, replaces and ignores by uid and resourceVersion; a new uid is a delete and an add; rv counters move past what was put', () => {
    const store = new Store(new FakeClock(T0));
    const r = recorder(store);
    const a1 = { ...cm('a', { k: 'v' }), metadata: { name: 'a', namespace: 'default', uid: 'u1', resourceVersion: '7' } };
    const a2 = { ...cm('a', { k: 'w' }), metadata: { name: 'a', namespace: 'default', uid: 'u1', resourceVersion: '8' } };
    const a3 = { ...cm('a', { k: 'x' }), metadata: { name: 'a', namespace: 'default', uid: 'u2', resourceVersion: '9' } };
    const s1 = { ...secret('s'), metadata: { name: 's', namespace: 'default', uid: 'u3', resourceVersion: '3' } };
    const results = [store.put('ConfigMap', a1), store.put('ConfigMap', a1), store.put('ConfigMap', a2), store.put('ConfigMap', a3), store.put('Secret', s1)];
    assert.deepEqual(
      { results, seen: r.seen, got: store.get('ConfigMap', 'default', 'a'), secrets: store.list('Secret'), next: store.nextResourceVersion(), nextAtLeast: store.nextResourceVersion(20) },
      {
        results: ['ADDED', 'UNCHANGED', 'MODIFIED', 'ADDED', 'ADDED'],
        seen: ['ADDED ConfigMap default/a 7', 'MODIFIED ConfigMap default/a 8', 'DELETED ConfigMap default/a 10', 'ADDED ConfigMap default/a 9', 'ADDED Secret default/s 3'],
        got: a3,
        secrets: [s1],
        next: '11',
        nextAtLeast: '21',
      },
    );
  });

  test('a missing ConfigMap or Secret is NotFound with the API server\'s plural resource', () => {
    const store = new Store(new FakeClock(T0));
    const errs = [new NotFoundError('ConfigMap', 'x'), new NotFoundError('Secret', 'y')].map((e) => [e.name, e.message]);
    assert.deepEqual({ errs, texts: [notFoundMessage('ConfigMap', 'x'), notFoundMessage('Secret', 'y')], update: (() => { try { store.update('Secret', 'default', 'y', () => undefined); return 'updated'; } catch (e) { return (e as Error).message; } })() }, {
      errs: [['NotFound', 'configmaps "x" not found'], ['NotFound', 'secrets "y" not found']],
      texts: ['configmaps "x" not found', 'secrets "y" not found'],
      update: 'secrets "y" not found',
    });
  });
});

describe('normalizeConfigObject stores what the API server would', () => {
  const cases: [string, 'ConfigMap' | 'Secret', ConfigObject, ConfigObject][] = [
    [
      'a ConfigMap gets the default namespace, loses server-set metadata and empty maps',
      'ConfigMap',
      { kind: 'ConfigMap', metadata: { name: 'a', uid: 'old', resourceVersion: '4', labels: {}, annotations: { x: 'y' } }, data: { k: 'v' }, binaryData: {} },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', annotations: { x: 'y' } }, data: { k: 'v' } },
    ],
    [
      'binaryData is re-encoded canonically and immutable: false is kept',
      'ConfigMap',
      { kind: 'ConfigMap', metadata: { name: 'a', namespace: 'dev' }, binaryData: { bin: 'AAEC\n' }, immutable: false },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'dev' }, binaryData: { bin: 'AAEC' }, immutable: false },
    ],
    [
      'a Secret\'s stringData is merged into data as base64 and wins on equal keys; type defaults to Opaque',
      'Secret',
      { kind: 'Secret', metadata: { name: 's' }, data: { a: b64('from-data'), b: b64('kept') }, stringData: { a: 'from-stringData', c: 'plain' } } as Secret,
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' }, data: { a: b64('from-stringData'), b: b64('kept'), c: b64('plain') }, type: 'Opaque' },
    ],
    [
      'a Secret keeps its type and immutable flag; no data at all stays absent',
      'Secret',
      { kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/basic-auth', immutable: true },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' }, immutable: true, type: 'kubernetes.io/basic-auth' },
    ],
  ];
  for (const [name, kind, input, want] of cases) test(name, () => assert.deepEqual(normalizeConfigObject(kind, input), want));
});

describe('planApply follows kubectl apply and ValidateConfigMapUpdate / ValidateSecretUpdate', () => {
  const ctx = { now: T0, uid: 'new-uid', resourceVersion: '12' };
  const stored = (o: ConfigObject, uid = 'u1', rv = '5'): ConfigObject => ({ ...o, metadata: { ...o.metadata, uid, resourceVersion: rv, creationTimestamp: '2023-12-31T10:00:00Z' } });
  const n = <O extends ConfigObject>(o: O): O => normalizeConfigObject(o.kind as 'ConfigMap' | 'Secret', o);

  const outcomes: [string, ConfigObject | undefined, ConfigObject, unknown][] = [
    [
      'a new object is created with a new uid, the resourceVersion and creationTimestamp now',
      undefined,
      n(cm('a', { k: 'v' })),
      { outcome: 'created', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', uid: 'new-uid', resourceVersion: '12', creationTimestamp: '2024-01-01T10:00:00Z' }, data: { k: 'v' } } },
    ],
    [
      'the same data and labels (keys in another order) are unchanged: the stored object as it is',
      stored(n(cm('a', { x: '1', y: '2' }, { metadata: { name: 'a', labels: { p: '1', q: '2' } } }))),
      n(cm('a', { y: '2', x: '1' }, { metadata: { name: 'a', labels: { q: '2', p: '1' } } })),
      { outcome: 'unchanged', object: stored(n(cm('a', { x: '1', y: '2' }, { metadata: { name: 'a', labels: { p: '1', q: '2' } } }))) },
    ],
    [
      'new data and labels are configured: uid and creationTimestamp kept, a new resourceVersion, removed keys gone',
      stored(n(cm('a', { x: '1', gone: '3' }, { metadata: { name: 'a', labels: { old: 'y' } } }))),
      n(cm('a', { x: '2' }, { metadata: { name: 'a', labels: { fresh: 'z' } } })),
      { outcome: 'configured', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', labels: { fresh: 'z' }, uid: 'u1', resourceVersion: '12', creationTimestamp: '2023-12-31T10:00:00Z' }, data: { x: '2' } } },
    ],
    [
      'an immutable ConfigMap may change its labels',
      stored(n(cm('a', { x: '1' }, { immutable: true }))),
      n(cm('a', { x: '1' }, { immutable: true, metadata: { name: 'a', labels: { l: 'v' } } })),
      { outcome: 'configured', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', labels: { l: 'v' }, uid: 'u1', resourceVersion: '12', creationTimestamp: '2023-12-31T10:00:00Z' }, data: { x: '1' }, immutable: true } },
    ],
    [
      'a Secret whose stringData encodes to the stored data is unchanged',
      stored(n(secret('s', { data: { p: b64('pw') } }))),
      n(secret('s', { stringData: { p: 'pw' } })),
      { outcome: 'unchanged', object: stored(n(secret('s', { data: { p: b64('pw') } }))) },
    ],
  ];
  for (const [name, existing, desired, want] of outcomes) {
    test(name, () => assert.deepEqual(planApply(desired.kind as 'ConfigMap' | 'Secret', existing, desired, ctx), want));
  }

  const refusals: [string, ConfigObject, ConfigObject, string][] = [
    [
      'changing the data of an immutable ConfigMap is forbidden',
      stored(n(cm('a', { x: '1' }, { immutable: true }))),
      n(cm('a', { x: '2' }, { immutable: true })),
      'The ConfigMap "a" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    ],
    [
      'dropping immutable and changing data and binaryData lists every cause',
      stored(n(cm('a', { x: '1' }, { immutable: true }))),
      n(cm('a', { x: '2' }, { binaryData: { b: 'AA==' } })),
      'The ConfigMap "a" is invalid: \n* immutable: Forbidden: field is immutable when `immutable` is set\n* data: Forbidden: field is immutable when `immutable` is set\n* binaryData: Forbidden: field is immutable when `immutable` is set',
    ],
    [
      'changing the data of an immutable Secret is forbidden',
      stored(n(secret('s', { stringData: { p: 'a' }, immutable: true }))),
      n(secret('s', { stringData: { p: 'b' }, immutable: true })),
      'The Secret "s" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    ],
    [
      'a Secret\'s type never changes, immutable or not',
      stored(n(secret('s', { stringData: { p: 'a' } }))),
      n(secret('s', { stringData: { p: 'a' }, type: 'kubernetes.io/basic-auth' })),
      'The Secret "s" is invalid: type: Invalid value: "kubernetes.io/basic-auth": field is immutable',
    ],
  ];
  for (const [name, existing, desired, want] of refusals) {
    test(name, () => {
      let got: unknown;
      try {
        planApply(desired.kind as 'ConfigMap' | 'Secret', existing, desired, ctx);
        got = 'applied';
      } catch (e) {
        got = { name: (e as Error).name, isInvalid: e instanceof InvalidError, message: (e as Error).message };
      }
      assert.deepEqual(got, { name: 'Invalid', isInvalid: true, message: want });
    });
  }

  test('invalidMessage prints one identical cause once, inline', () => {
    const e = { field: 'data', type: 'Forbidden' as const, detail: 'field is immutable when `immutable` is set' };
    assert.equal(invalidMessage('ConfigMap', 'x', [e, e]), 'The ConfigMap "x" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  });
});

describe('the lab keeps ConfigMaps and Secrets as files', () => {
  const lab = () => mkdtempSync(join(tmpdir(), 'podlab-unit-objects-'));
  const files = (stateDir: string, store: Store, clock: FakeClock, log: string[] = []) =>
    new ConfigObjectFiles({ stateDir, store, clock, log: (l) => log.push(l), debounceMs: 5, rescanIntervalMs: 0 });

  test('apply writes the object, a second engine on the same lab loads it as it is; update keeps the uid with a higher resourceVersion; Secrets are 0600', () => {
    const dir = lab();
    try {
      const clock = new FakeClock(T0);
      const storeA = new Store(clock);
      const a = files(dir, storeA, clock);
      a.start();
      const seenA = recorder(storeA);
      const r1 = a.apply(cm('web', { k: 'v' }));
      const r2 = a.apply(cm('web', { k: 'v' }));
      const r3 = a.apply(cm('web', { k: 'w' }));
      const r4 = a.apply(secret('pw', { stringData: { p: 'x' } }));
      const storeB = new Store(clock);
      const b = files(dir, storeB, clock);
      b.start();
      const onDisk = JSON.parse(readFileSync(objectPath(dir, 'ConfigMap', 'default', 'web'), 'utf8'));
      const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
      assert.deepEqual(
        {
          outcomes: [r1.outcome, r2.outcome, r3.outcome, r4.outcome],
          sameUid: r3.object.metadata?.uid === r1.object.metadata?.uid,
          rvUp: Number(r3.object.metadata?.resourceVersion) > Number(r1.object.metadata?.resourceVersion),
          unchangedIsStored: r2.object,
          seenA: seenA.seen,
          onDisk,
          inB: storeB.get('ConfigMap', 'default', 'web'),
          secretInB: storeB.get('Secret', 'default', 'pw'),
          modes: [mode(objectPath(dir, 'Secret', 'default', 'pw')), mode(join(dir, 'objects', 'secrets', 'default'))],
          noTempFiles: readdirSync(join(dir, 'objects', 'configmaps', 'default')),
        },
        {
          outcomes: ['created', 'unchanged', 'configured', 'created'],
          sameUid: true,
          rvUp: true,
          unchangedIsStored: r1.object,
          seenA: [
            `ADDED ConfigMap default/web ${r1.object.metadata?.resourceVersion}`,
            `MODIFIED ConfigMap default/web ${r3.object.metadata?.resourceVersion}`,
            `ADDED Secret default/pw ${r4.object.metadata?.resourceVersion}`,
          ],
          onDisk: r3.object,
          inB: r3.object,
          secretInB: r4.object,
          modes: ['600', '700'],
          noTempFiles: ['web.json'],
        },
      );
      a.dispose();
      b.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('corrupt, half-written and misplaced files are skipped with one log line each; the good ones load', () => {
    const dir = lab();
    try {
      const clock = new FakeClock(T0);
      const good = new Store(clock);
      const writer = files(dir, good, clock);
      writer.start();
      writer.apply(cm('good', { k: 'v' }));
      writer.dispose();
      const nsDir = join(dir, 'objects', 'configmaps', 'default');
      writeFileSync(join(nsDir, 'torn.json'), '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"na');
      writeFileSync(join(nsDir, 'other.json'), JSON.stringify({ ...good.get('ConfigMap', 'default', 'good') }));
      writeFileSync(join(nsDir, '.good.json.123.abc.tmp'), 'partial');
      mkdirSync(join(dir, 'objects', 'secrets', 'default'), { recursive: true });
      writeFileSync(join(dir, 'objects', 'secrets', 'default', 'unreadable.json'), '{}');
      chmodSync(join(dir, 'objects', 'secrets', 'default', 'unreadable.json'), 0o000);
      const store = new Store(clock);
      const log: string[] = [];
      const reader = files(dir, store, clock, log);
      reader.start();
      reader.rescan();
      const readable = process.getuid?.() !== 0;
      assert.deepEqual(
        { configMaps: store.list('ConfigMap').map((o) => o.metadata?.name), secrets: store.list('Secret'), log },
        {
          configMaps: ['good'],
          secrets: [],
          log: [
            `skipping ${join(nsDir, 'other.json')}: metadata does not name default/other`,
            `skipping ${join(nsDir, 'torn.json')}: not JSON (${(() => { try { JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"na'); } catch (e) { return (e as Error).message; } return ''; })()})`,
            readable
              ? `skipping ${join(dir, 'objects', 'secrets', 'default', 'unreadable.json')}: EACCES: permission denied, open '${join(dir, 'objects', 'secrets', 'default', 'unreadable.json')}'`
              : `skipping ${join(dir, 'objects', 'secrets', 'default', 'unreadable.json')}: kind is undefined, not Secret`,
          ],
        },
      );
      reader.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('parseObjectFile wants the kind, namespace and name of its place and server metadata', () => {
    const ok = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'dev', uid: 'u', resourceVersion: '1' } };
    assert.deepEqual(
      [
        parseObjectFile(JSON.stringify(ok), 'Secret', 'dev', 's'),
        parseObjectFile(JSON.stringify(ok), 'ConfigMap', 'dev', 's'),
        parseObjectFile(JSON.stringify({ ...ok, metadata: { ...ok.metadata, uid: '' } }), 'Secret', 'dev', 's'),
        parseObjectFile('[1]', 'Secret', 'dev', 's'),
      ],
      [{ object: ok }, { error: 'kind is "Secret", not ConfigMap' }, { error: 'no uid or resourceVersion' }, { error: 'not an object' }],
    );
  });

  test('another process\'s creation, update and deletion reach a watching store as ADDED, MODIFIED, DELETED, and the writer sees each once', async () => {
    const dir = lab();
    try {
      const clock = new FakeClock(T0);
      const watching = new Store(clock);
      const w = files(dir, watching, clock);
      w.start();
      const seen = recorder(watching);
      const otherStore = new Store(clock);
      const other = files(dir, otherStore, clock);
      other.start();
      const seenByWriter = recorder(otherStore);
      const waitFor = async (n: number) => {
        for (let i = 0; i < 200 && seen.seen.length < n; i++) await new Promise((r) => setTimeout(r, 10));
      };
      const c = other.apply(cm('shared', { k: '1' }));
      await waitFor(1);
      const u = other.apply(cm('shared', { k: '2' }));
      await waitFor(2);
      other.delete('ConfigMap', 'default', 'shared');
      await waitFor(3);
      // The writer's own watcher fires too: its rescan finds nothing new, so no event repeats.
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(seenByWriter.seen, seen.seen);
      assert.deepEqual(seen.seen, [
        `ADDED ConfigMap default/shared ${c.object.metadata?.resourceVersion}`,
        `MODIFIED ConfigMap default/shared ${u.object.metadata?.resourceVersion}`,
        // A deletion is a change: the DELETED event carries the object at a new resourceVersion.
        `DELETED ConfigMap default/shared ${Number(u.object.metadata?.resourceVersion) + 1}`,
      ]);
      w.dispose();
      other.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('delete returns the object and removes the file; deleting again is NotFound', () => {
    const dir = lab();
    try {
      const clock = new FakeClock(T0);
      const store = new Store(clock);
      const f = files(dir, store, clock);
      f.start();
      const created = f.apply(secret('s', { stringData: { a: 'b' } })).object;
      const gone = f.delete('Secret', 'default', 's');
      let again: unknown;
      try {
        f.delete('Secret', 'default', 's');
      } catch (e) {
        again = [(e as Error).name, (e as Error).message];
      }
      assert.deepEqual({ gone, again, files: readdirSync(join(dir, 'objects', 'secrets', 'default')), stored: store.list('Secret') }, { gone: { ...created, metadata: { ...created.metadata, resourceVersion: String(Number(created.metadata?.resourceVersion) + 1) } }, again: ['NotFound', 'secrets "s" not found'], files: [], stored: [] });
      f.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("applyBody: what kubectl apply sends for a file's ConfigMap or Secret (its three-way merge with the stored object)", () => {
  const rec = (o: object) => `${JSON.stringify(o)}\n`;
  const LA = 'kubectl.kubernetes.io/last-applied-configuration';
  const stored = (o: ConfigMap): ConfigMap => ({ ...o, metadata: { namespace: 'default', uid: 'u1', resourceVersion: '5', ...o.metadata } });
  const cases: [string, ConfigMap | undefined, ConfigMap, unknown][] = [
    [
      'a new object: the file\'s, with the record of it (keys sorted, its namespace, an empty annotations map)',
      undefined,
      cm('a', { k: '<v>' }),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', annotations: { [LA]: '{"apiVersion":"v1","data":{"k":"\\u003cv\\u003e"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"a","namespace":"default"}}\n' } }, data: { k: '<v>' } },
    ],
    [
      'labels, annotations and data keys another client added are kept; those the last apply set and this one does not are removed',
      stored(cm('a', { x: '1', gone: '2', theirs: '3' }, { metadata: { name: 'a', labels: { app: 'web', extra: '1' }, annotations: { note: 'hello', [LA]: rec({ apiVersion: 'v1', data: { gone: '2', x: '1' }, kind: 'ConfigMap', metadata: { annotations: {}, labels: { app: 'web' }, name: 'a', namespace: 'default' } }) } } })),
      cm('a', { x: '2' }, { metadata: { name: 'a', labels: { app: 'web' } } }),
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        data: { x: '2', theirs: '3' },
        metadata: {
          name: 'a',
          namespace: 'default',
          labels: { app: 'web', extra: '1' },
          annotations: { note: 'hello', [LA]: rec({ apiVersion: 'v1', data: { x: '2' }, kind: 'ConfigMap', metadata: { annotations: {}, labels: { app: 'web' }, name: 'a', namespace: 'default' } }) },
          uid: 'u1',
          resourceVersion: '5',
        },
      },
    ],
    [
      'a stored object with no record (made by kubectl create): nothing is removed, this apply\'s keys are set',
      stored(cm('a', { old: '1' }, { metadata: { name: 'a', labels: { l: '1' } } })),
      cm('a', { new: '2' }),
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        data: { old: '1', new: '2' },
        metadata: { name: 'a', namespace: 'default', labels: { l: '1' }, annotations: { [LA]: rec({ apiVersion: 'v1', data: { new: '2' }, kind: 'ConfigMap', metadata: { annotations: {}, name: 'a', namespace: 'default' } }) }, uid: 'u1', resourceVersion: '5' },
      },
    ],
    [
      'immutable removed from the file after the last apply set it is removed (the server then refuses it)',
      stored(cm('a', { x: '1' }, { immutable: true, metadata: { name: 'a', annotations: { [LA]: rec({ apiVersion: 'v1', data: { x: '1' }, immutable: true, kind: 'ConfigMap', metadata: { annotations: {}, name: 'a', namespace: 'default' } }) } } })),
      cm('a', { x: '1' }),
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        data: { x: '1' },
        metadata: { name: 'a', namespace: 'default', annotations: { [LA]: rec({ apiVersion: 'v1', data: { x: '1' }, kind: 'ConfigMap', metadata: { annotations: {}, name: 'a', namespace: 'default' } }) }, uid: 'u1', resourceVersion: '5' },
      },
    ],
  ];
  for (const [name, existing, input, want] of cases) test(name, () => assert.deepEqual(applyBody('ConfigMap', existing, input), want));
});

describe("a pod run creates carries kubectl apply's record of the file's object", () => {
  const written = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', annotations: { team: 'blue' } }, spec: { containers: [{ name: 'app', image: 'busybox:1.35' }] } };
  const defaulted = (md: Record<string, unknown>) => ({ ...written, metadata: { namespace: 'default', ...md }, spec: { ...written.spec, restartPolicy: 'Always' } }) as Pod;
  const cases: [string, Pod, object | undefined, Pod][] = [
    [
      'a named pod: the record is the file\'s object with its namespace, as kubectl apply writes it; its own annotations kept',
      defaulted({ name: 'web', annotations: { team: 'blue' } }),
      written,
      defaulted({
        name: 'web',
        annotations: {
          team: 'blue',
          'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"team":"blue"},"name":"web","namespace":"default"},"spec":{"containers":[{"image":"busybox:1.35","name":"app"}]}}\n',
        },
      }),
    ],
    ['a pod named by generateName gets none (kubectl apply refuses those)', defaulted({ generateName: 'web-' }), { ...written, metadata: { generateName: 'web-' } }, defaulted({ generateName: 'web-' })],
    ['a pod whose written form is unknown gets none', defaulted({ name: 'web' }), undefined, defaulted({ name: 'web' })],
  ];
  for (const [name, pod, w, expected] of cases) test(name, () => assert.deepEqual(withApplyRecord(pod, w), expected));
});
