// The volume manager (src/engine/kubelet/volumes/volume-manager.ts) with a FakeClock, a fake event
// sink, a fake runtime for tmpfs volumes and a temporary state directory; and hostPath type checks.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigMap, Pod, Secret, Volume } from 'kubernetes-types/core/v1';
import { FakeClock } from '../../src/engine/clock.js';
import type { EventType } from '../../src/engine/events.js';
import type { RuntimeVolume, TmpfsVolumeConfig } from '../../src/runtime/cri.js';
import { VolumeManager, type PodVolumesStatus } from '../../src/engine/kubelet/volumes/volume-manager.js';
import type { ObjectLookup, VolumeFacts } from '../../src/engine/kubelet/volumes/payload.js';
import { setUpHostPath } from '../../src/engine/kubelet/volumes/host-path.js';

const T0 = Date.UTC(2024, 0, 1);
const UID = 'u-1';
const facts: VolumeFacts = { nodeAllocatable: { cpu: '2', memory: '1Gi' } };

let stateDir: string;
let clock: FakeClock;
let events: { at: number; type: EventType; reason: string; message: string; pod: string }[];
let ready: { at: number; uid: string }[];
let rtCalls: string[];
let rtVolumes: Map<string, RuntimeVolume>;
let store: { configMaps: Map<string, ConfigMap>; secrets: Map<string, Secret> };
let vm: VolumeManager;

const lookup: ObjectLookup = {
  configMap: (ns, name) => store.configMaps.get(`${ns}/${name}`),
  secret: (ns, name) => store.secrets.get(`${ns}/${name}`),
};

beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), 'podlab-vm-'));
  clock = new FakeClock(T0);
  events = [];
  ready = [];
  rtCalls = [];
  rtVolumes = new Map();
  store = { configMaps: new Map(), secrets: new Map() };
  let n = 0;
  vm = new VolumeManager({
    stateDir,
    clock,
    recordEvent: (pod, type, reason, message) => events.push({ at: clock.now() - T0, type, reason, message, pod: pod.metadata?.name ?? '' }),
    onVolumesReady: (uid) => ready.push({ at: clock.now() - T0, uid }),
    runtime: {
      ensureTmpfsVolume: async (c: TmpfsVolumeConfig) => {
        rtCalls.push(`ensure ${JSON.stringify(c)}`);
        rtVolumes.set(c.name, { name: c.name, labels: c.labels });
        return c.name;
      },
      removeVolume: async (name: string) => {
        rtCalls.push(`remove ${name}`);
        rtVolumes.delete(name);
      },
      listVolumes: async (sel: Record<string, string>) => [...rtVolumes.values()].filter((v) => Object.entries(sel).every(([k, x]) => v.labels[k] === x)),
    },
    random: () => ++n,
  });
});
afterEach(() => {
  vm.dispose();
  rmSync(stateDir, { recursive: true, force: true });
});

const mkPod = (volumes: Volume[], over: Partial<Pod['metadata']> = {}): Pod => ({
  metadata: { name: 'web', namespace: 'default', uid: UID, labels: { app: 'web' }, ...over },
  spec: { volumes, containers: [{ name: 'app', image: 'busybox', resources: { limits: { memory: '128Mi' } } }] },
});
const addConfigMap = (name: string, data: Record<string, string>, immutable?: boolean) =>
  store.configMaps.set(`default/${name}`, { metadata: { name, namespace: 'default' }, data, ...(immutable ? { immutable } : {}) });
const volDir = (plugin: string, name: string) => join(stateDir, 'pods', UID, 'volumes', `kubernetes.io~${plugin}`, name);
const modeOf = (p: string) => (lstatSync(p).mode & 0o7777).toString(8);
const failed = (vol: string, err: string) => `MountVolume.SetUp failed for volume "${vol}" : ${err}`;
const W = (at: number, message: string) => ({ at, type: 'Warning' as const, reason: 'FailedMount', message, pod: 'web' });

test('a missing ConfigMap: FailedMount on the pod at 0, 0.5, 1.5, 3.5, 7.5 s, and the pod is not ready', async () => {
  const pod = mkPod([{ name: 'cfg', configMap: { name: 'app-config' } }]);
  const first = await vm.setUpPod(pod, lookup, facts);
  await clock.advanceAsync(8000);
  const msg = failed('cfg', 'configmap "app-config" not found');
  assert.deepEqual(
    { first, events, ready, status: vm.status(UID), next: vm.nextRetryAt(UID), dir: existsSync(volDir('configmap', 'cfg')) },
    {
      first: { ready: false, unmounted: ['cfg'], nextRetryAt: T0 + 500 },
      events: [W(0, msg), W(500, msg), W(1500, msg), W(3500, msg), W(7500, msg)],
      ready: [],
      status: { ready: false, unmounted: ['cfg'], nextRetryAt: T0 + 15500 },
      next: T0 + 15500,
      dir: false,
    },
  );
});

test('calling setUpPod again during the back-off does not retry early', async () => {
  const pod = mkPod([{ name: 'cfg', configMap: { name: 'app-config' } }]);
  await vm.setUpPod(pod, lookup, facts);
  await clock.advanceAsync(200);
  const again = await vm.setUpPod(pod, lookup, facts);
  assert.deepEqual({ again, events: events.length }, { again: { ready: false, unmounted: ['cfg'], nextRetryAt: T0 + 500 }, events: 1 });
});

test('each failing volume has its own event and back-off', async () => {
  const pod = mkPod([
    { name: 'cfg', configMap: { name: 'a' } },
    { name: 'sec', secret: { secretName: 'b' } },
    { name: 'data', persistentVolumeClaim: { claimName: 'c' } },
  ]);
  await vm.setUpPod(pod, lookup, facts);
  await clock.advanceAsync(1000);
  const c = failed('cfg', 'configmap "a" not found');
  const s = failed('sec', 'secret "b" not found');
  const d = failed('data', 'Pod Lab does not support persistentVolumeClaim volumes');
  assert.deepEqual(events, [W(0, c), W(0, s), W(0, d), W(500, c), W(500, s), W(500, d)]);
});

test('the pod becomes ready at the next retry once the ConfigMap exists, with no further event', async () => {
  const pod = mkPod([{ name: 'cfg', configMap: { name: 'app-config' } }]);
  await vm.setUpPod(pod, lookup, facts);
  await clock.advanceAsync(2000); // failures at 0, 0.5, 1.5; next at 3.5
  addConfigMap('app-config', { 'app.properties': 'x=1' });
  await clock.advanceAsync(2000);
  assert.deepEqual(
    { events: events.map((e) => e.at), ready, status: vm.status(UID), content: readFileSync(join(volDir('configmap', 'cfg'), 'app.properties'), 'utf8'), timers: clock.pending() },
    {
      events: [0, 500, 1500],
      ready: [{ at: 3500, uid: UID }],
      status: { ready: true, volumes: new Map([['cfg', { hostPath: volDir('configmap', 'cfg'), kind: 'configMap' }]]) },
      content: 'x=1',
      timers: 0,
    },
  );
});

test('an optional missing ConfigMap or Secret is an empty volume, ready at once', async () => {
  const pod = mkPod([
    { name: 'cfg', configMap: { name: 'nope', optional: true } },
    { name: 'sec', secret: { secretName: 'nope', optional: true } },
  ]);
  const st = await vm.setUpPod(pod, lookup, facts);
  assert.deepEqual(
    { st, events, cfg: readdirSync(volDir('configmap', 'cfg')).sort(), sec: readdirSync(volDir('secret', 'sec')).sort() },
    {
      st: {
        ready: true,
        volumes: new Map([
          ['cfg', { hostPath: volDir('configmap', 'cfg'), kind: 'configMap' }],
          ['sec', { hostPath: volDir('secret', 'sec'), kind: 'secret' }],
        ]),
      },
      events: [],
      cfg: ['..2024_01_01_00_00_00.1', '..data'],
      sec: ['..2024_01_01_00_00_00.2', '..data'],
    },
  );
});

test('every supported kind: host paths, directory modes, the tmpfs volume and the sandbox mount', async () => {
  const hp = join(stateDir, 'host', 'made');
  addConfigMap('cm', { k: 'v' });
  store.secrets.set('default/s', { metadata: { name: 's' }, data: { pw: Buffer.from('hunter2').toString('base64') } });
  const pod = mkPod([
    { name: 'scratch', emptyDir: {} },
    { name: 'nosource' } as Volume,
    { name: 'fast', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
    { name: 'host', hostPath: { path: hp, type: 'DirectoryOrCreate' } },
    { name: 'cfg', configMap: { name: 'cm' } },
    { name: 'sec', secret: { secretName: 's', defaultMode: 0o400 } },
    { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
    { name: 'all', projected: { sources: [{ configMap: { name: 'cm' } }, { secret: { name: 's' } }] } },
  ]);
  const st = await vm.setUpPod(pod, lookup, facts);
  const memName = `podlab_${UID}_fast`;
  assert.deepEqual(
    {
      st,
      events,
      rtCalls,
      sandbox: vm.sandboxMounts(UID),
      modes: {
        scratch: modeOf(volDir('empty-dir', 'scratch')),
        cfg: modeOf(volDir('configmap', 'cfg')),
        sec: modeOf(volDir('secret', 'sec')),
        info: modeOf(volDir('downward-api', 'info')),
        all: modeOf(volDir('projected', 'all')),
        host: modeOf(hp),
      },
      files: {
        pw: [readFileSync(join(volDir('secret', 'sec'), 'pw'), 'utf8'), (lstatSync(join(volDir('secret', 'sec'), '..data', 'pw')).mode & 0o777).toString(8)],
        labels: readFileSync(join(volDir('downward-api', 'info'), 'labels'), 'utf8'),
        all: readdirSync(volDir('projected', 'all')).filter((f) => !f.startsWith('..')).sort(),
      },
    },
    {
      st: {
        ready: true,
        volumes: new Map([
          ['scratch', { hostPath: volDir('empty-dir', 'scratch'), kind: 'emptyDir' }],
          ['nosource', { hostPath: volDir('empty-dir', 'nosource'), kind: 'emptyDir' }],
          ['fast', { hostPath: volDir('empty-dir', 'fast'), kind: 'emptyDir', tmpfsVolume: memName }],
          ['host', { hostPath: hp, kind: 'hostPath' }],
          ['cfg', { hostPath: volDir('configmap', 'cfg'), kind: 'configMap' }],
          ['sec', { hostPath: volDir('secret', 'sec'), kind: 'secret' }],
          ['info', { hostPath: volDir('downward-api', 'info'), kind: 'downwardAPI' }],
          ['all', { hostPath: volDir('projected', 'all'), kind: 'projected' }],
        ]),
      },
      events: [],
      rtCalls: [
        `ensure ${JSON.stringify({
          name: memName,
          sizeBytes: 64 * 1024 * 1024,
          labels: {
            'io.podlab.managed': 'true',
            'io.podlab.lab': stateDir,
            'io.kubernetes.pod.uid': UID,
            'io.kubernetes.pod.name': 'web',
            'io.kubernetes.pod.namespace': 'default',
            'io.podlab.volume.name': 'fast',
          },
        })}`,
      ],
      sandbox: [{ hostPath: volDir('empty-dir', 'fast'), containerPath: '/.podlab/volumes/fast', readonly: true, tmpfsVolume: memName }],
      modes: { scratch: '777', cfg: '777', sec: '1777', info: '1777', all: '1777', host: '755' },
      files: { pw: ['hunter2', '400'], labels: 'app="web"', all: ['k', 'pw'] },
    },
  );
});

test('a Memory emptyDir without a tmpfs-capable runtime is a disk directory', async () => {
  const plain = new VolumeManager({ stateDir, clock, recordEvent: () => undefined });
  const st = await plain.setUpPod(mkPod([{ name: 'fast', emptyDir: { medium: 'Memory' } }]), lookup, facts);
  assert.deepEqual(st, { ready: true, volumes: new Map([['fast', { hostPath: volDir('empty-dir', 'fast'), kind: 'emptyDir' }]]) });
});

test('refresh re-writes changed ConfigMaps and labels and reports which volumes changed', async () => {
  addConfigMap('cm', { k: 'v1' });
  const pod = mkPod([
    { name: 'cfg', configMap: { name: 'cm' } },
    { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
    { name: 'scratch', emptyDir: {} },
  ]);
  await vm.setUpPod(pod, lookup, facts);
  const unchanged = await vm.refresh(pod, lookup, facts);
  clock.advance(61_000);
  addConfigMap('cm', { k: 'v2' });
  const cmChanged = await vm.refresh(pod, lookup, facts);
  const relabelled = mkPod(pod.spec!.volumes!, { labels: { app: 'web', tier: 'front' } });
  const labelsChanged = await vm.refresh(relabelled, lookup, facts);
  assert.deepEqual(
    {
      unchanged,
      cmChanged,
      labelsChanged,
      k: readFileSync(join(volDir('configmap', 'cfg'), 'k'), 'utf8'),
      data: lstatSync(join(volDir('configmap', 'cfg'), '..data')).isSymbolicLink(),
      cfgDirs: readdirSync(volDir('configmap', 'cfg')).sort(),
      labels: readFileSync(join(volDir('downward-api', 'info'), 'labels'), 'utf8'),
      events,
    },
    {
      unchanged: [],
      cmChanged: ['cfg'],
      labelsChanged: ['info'],
      k: 'v2',
      data: true,
      cfgDirs: ['..2024_01_01_00_01_01.3', '..data', 'k'],
      labels: 'app="web"\ntier="front"',
      events: [],
    },
  );
});

test('a refresh that fails (ConfigMap deleted) keeps the old content and the pod ready, and retries with back-off', async () => {
  addConfigMap('cm', { k: 'v1' });
  const pod = mkPod([{ name: 'cfg', configMap: { name: 'cm' } }]);
  await vm.setUpPod(pod, lookup, facts);
  store.configMaps.delete('default/cm');
  const changed = await vm.refresh(pod, lookup, facts);
  await clock.advanceAsync(600);
  const during = { ready: vm.status(UID)?.ready, k: readFileSync(join(volDir('configmap', 'cfg'), 'k'), 'utf8') };
  addConfigMap('cm', { k: 'v3' });
  await clock.advanceAsync(1000); // retry at 1.5 s succeeds
  const msg = failed('cfg', 'configmap "cm" not found');
  assert.deepEqual(
    { changed, during, events, ready, k: readFileSync(join(volDir('configmap', 'cfg'), 'k'), 'utf8'), timers: clock.pending() },
    { changed: [], during: { ready: true, k: 'v1' }, events: [W(0, msg), W(500, msg)], ready: [], k: 'v3', timers: 0 },
  );
});

test('an immutable ConfigMap is not re-read: later changes to the store are not seen', async () => {
  addConfigMap('cm', { k: 'v1' }, true);
  const pod = mkPod([{ name: 'cfg', configMap: { name: 'cm' } }]);
  await vm.setUpPod(pod, lookup, facts);
  store.configMaps.delete('default/cm');
  addConfigMap('cm', { k: 'v2' });
  const changed = await vm.refresh(pod, lookup, facts);
  assert.deepEqual({ changed, k: readFileSync(join(volDir('configmap', 'cfg'), 'k'), 'utf8'), events }, { changed: [], k: 'v1', events: [] });
});

test('a hostPath type check failure is a FailedMount with the upstream text', async () => {
  const file = join(stateDir, 'a-file');
  writeFileSync(file, 'x');
  const st = await vm.setUpPod(mkPod([{ name: 'h', hostPath: { path: file, type: 'Directory' } }]), lookup, facts);
  assert.deepEqual({ st, events }, { st: { ready: false, unmounted: ['h'], nextRetryAt: T0 + 500 }, events: [W(0, failed('h', `hostPath type check failed: ${file} is not a directory`))] });
});

test('tearDown removes the volume directories and the tmpfs volume and cancels retries', async () => {
  const pod = mkPod([
    { name: 'fast', emptyDir: { medium: 'Memory' } },
    { name: 'scratch', emptyDir: {} },
    { name: 'cfg', configMap: { name: 'missing' } },
  ]);
  mkdirSync(join(stateDir, 'pods', UID, 'containers'), { recursive: true });
  await vm.setUpPod(pod, lookup, facts);
  rtCalls = [];
  await vm.tearDown(UID);
  await clock.advanceAsync(5000);
  assert.deepEqual(
    { rtCalls, podDir: readdirSync(join(stateDir, 'pods', UID)), status: vm.status(UID), timers: clock.pending(), events: events.length },
    { rtCalls: [`remove podlab_${UID}_fast`], podDir: ['containers'], status: undefined, timers: 0, events: 1 },
  );
});

test('tearDown of a pod this process never set up finds its tmpfs volumes by label', async () => {
  rtVolumes.set('left', { name: 'left', labels: { 'io.kubernetes.pod.uid': UID, 'io.podlab.managed': 'true' } });
  rtVolumes.set('other', { name: 'other', labels: { 'io.kubernetes.pod.uid': 'u-2', 'io.podlab.managed': 'true' } });
  mkdirSync(volDir('configmap', 'cfg'), { recursive: true });
  await vm.tearDown(UID);
  assert.deepEqual({ rtCalls, left: [...rtVolumes.keys()], volumes: existsSync(join(stateDir, 'pods', UID, 'volumes')) }, { rtCalls: ['remove left'], left: ['other'], volumes: false });
});

test('status of an unknown pod is undefined and it has no retry', () => {
  const s: PodVolumesStatus | undefined = vm.status('nope');
  assert.deepEqual({ s, next: vm.nextRetryAt('nope'), mounts: vm.sandboxMounts('nope') }, { s: undefined, next: undefined, mounts: [] });
});

// ---- hostPath type checks ----------------------------------------------------------------------

const hostPathCases: {
  name: string;
  path: (d: string) => string;
  type?: string;
  want: (d: string) => string | undefined;
  /** What to look at afterwards, and what it should be. */
  after?: [(d: string) => string, string];
}[] = [
  { name: 'no type: the path as given, unchecked', path: (d) => join(d, 'absent'), want: () => undefined, after: [(d) => String(existsSync(join(d, 'absent'))), 'false'] },
  { name: 'Directory on a missing path', path: (d) => join(d, 'absent'), type: 'Directory', want: (d) => `hostPath type check failed: ${join(d, 'absent')} is not a directory` },
  { name: 'Directory on a directory', path: (d) => d, type: 'Directory', want: () => undefined },
  { name: 'DirectoryOrCreate creates the directories 0755', path: (d) => join(d, 'x/y'), type: 'DirectoryOrCreate', want: () => undefined, after: [(d) => modeOf(join(d, 'x/y')), '755'] },
  { name: 'DirectoryOrCreate on a file', path: (d) => join(d, 'f'), type: 'DirectoryOrCreate', want: (d) => `hostPath type check failed: ${join(d, 'f')} is not a directory` },
  { name: 'File on a directory', path: (d) => d, type: 'File', want: (d) => `hostPath type check failed: ${d} is not a file` },
  { name: 'File on a file', path: (d) => join(d, 'f'), type: 'File', want: () => undefined },
  { name: 'FileOrCreate creates an empty file 0644', path: (d) => join(d, 'new'), type: 'FileOrCreate', want: () => undefined, after: [(d) => modeOf(join(d, 'new')), '644'] },
  {
    name: 'FileOrCreate in a missing directory fails like Go open',
    path: (d) => join(d, 'no/new'),
    type: 'FileOrCreate',
    want: (d) => `open ${join(d, 'no/new')}: no such file or directory`,
  },
  { name: 'Socket on a file', path: (d) => join(d, 'f'), type: 'Socket', want: (d) => `hostPath type check failed: ${join(d, 'f')} is not a socket file` },
  { name: 'CharDevice on /dev/null', path: () => '/dev/null', type: 'CharDevice', want: () => undefined },
  { name: 'BlockDevice on /dev/null', path: () => '/dev/null', type: 'BlockDevice', want: () => 'hostPath type check failed: /dev/null is not a block device' },
  { name: 'an unknown type', path: (d) => d, type: 'Pipe', want: () => 'Pipe is an invalid volume type' },
  { name: 'a path with ..', path: () => '/tmp/../etc', type: 'Directory', want: () => "invalid HostPath `/tmp/../etc`: must not contain '..'" },
];
for (const c of hostPathCases) {
  test(`hostPath: ${c.name}`, () => {
    const d = join(stateDir, 'hp');
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'f'), 'x');
    const got = setUpHostPath({ path: c.path(d), ...(c.type ? { type: c.type } : {}) });
    assert.deepEqual({ got, after: c.after?.[0](d) }, { got: c.want(d), after: c.after?.[1] });
  });
}
