// Volumes on the real Docker (src/engine/kubelet/volumes + DockerRuntime's tmpfs volumes): a
// `medium: Memory` emptyDir shared by two containers as one tmpfs with its size limit, held by the
// sandbox; a configMap volume written by the atomic writer, bind-mounted read-only, updated in a
// running container, while a subPath-style bind of one file keeps the old content. Every container
// carries this run's test label; containers and volumes are removed in the after hooks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigMap, Pod, Volume } from 'kubernetes-types/core/v1';
import type { Mount, PodSandboxConfig } from '../../src/runtime/cri.js';
import { connectDocker, DockerRuntime } from '../../src/runtime/docker/docker-runtime.js';
import { realClock } from '../../src/engine/clock.js';
import { VolumeManager } from '../../src/engine/kubelet/volumes/volume-manager.js';
import type { ObjectLookup } from '../../src/engine/kubelet/volumes/payload.js';
import { PodUIDLabel } from '../../src/shared/labels.js';
import { SandboxImage, TestRunLabel, busyboxContainer, podSandboxConfig, removeTestContainers, testRunId, waitFor } from './docker-helpers.js';

let rt: DockerRuntime;
let stateDir: string;
let vm: VolumeManager;
const events: string[] = [];
const uids: string[] = [];
const configMaps = new Map<string, ConfigMap>();
const lookup: ObjectLookup = { configMap: (_ns, name) => configMaps.get(name), secret: () => undefined };
const facts = { nodeAllocatable: { cpu: '2', memory: '1Gi' } };

before(async () => {
  rt = await connectDocker();
  stateDir = mkdtempSync(join(tmpdir(), 'podlab-vol-'));
  vm = new VolumeManager({ stateDir, clock: realClock, runtime: rt, recordEvent: (_p, type, reason, message) => events.push(`${type} ${reason} ${message}`) });
});

after(async () => {
  try {
    await removeTestContainers(rt.docker);
    for (const uid of uids) await vm.tearDown(uid).catch(() => undefined);
    // Whatever tearDown could not remove.
    for (const uid of uids) for (const v of await rt.listVolumes({ [PodUIDLabel]: uid })) await rt.removeVolume(v.name).catch(() => undefined);
    const left = await rt.docker.listContainers({ all: true, filters: { label: [`${TestRunLabel}=${testRunId}`] } });
    const leftVolumes = (await Promise.all(uids.map((uid) => rt.listVolumes({ [PodUIDLabel]: uid })))).flat();
    assert.deepEqual({ containers: left.length, volumes: leftVolumes }, { containers: 0, volumes: [] }, 'nothing of this run is left');
  } finally {
    vm.dispose();
    rt.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
});

/** A pod object for the sandbox config `sb` with these volumes. */
function podFor(sb: PodSandboxConfig, volumes: Volume[]): Pod {
  return { metadata: { name: sb.metadata.name, namespace: 'default', uid: sb.metadata.uid }, spec: { volumes, containers: [{ name: 'c', image: 'busybox:1.35' }] } };
}

async function runContainer(sandboxId: string, sb: PodSandboxConfig, name: string, command: string[], mounts: Mount[]): Promise<string> {
  const id = await rt.createContainer(sandboxId, busyboxContainer(name, command, { mounts }), sb);
  await rt.startContainer(id);
  return id;
}

async function sh(id: string, script: string): Promise<{ exitCode: number; out: string }> {
  const r = await rt.execSync(id, ['sh', '-c', script], 20);
  return { exitCode: r.exitCode, out: (r.stdout + r.stderr).trim() };
}

describe('a medium: Memory emptyDir shared by two containers', () => {
  let sb: PodSandboxConfig;
  let sandboxId: string;
  let writer: string;
  let reader: string;
  let cache: Mount;

  before(async () => {
    sb = podSandboxConfig('vol-mem');
    uids.push(sb.metadata.uid);
    const st = await vm.setUpPod(podFor(sb, [{ name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } }]), lookup, facts);
    assert.equal(st.ready, true, JSON.stringify(events));
    const vol = st.ready ? st.volumes.get('cache')! : undefined!;
    cache = { hostPath: vol.hostPath, containerPath: '/cache', tmpfsVolume: vol.tmpfsVolume };
    sandboxId = await rt.runPodSandbox({ ...sb, mounts: vm.sandboxMounts(sb.metadata.uid) }, SandboxImage);
    writer = await runContainer(sandboxId, sb, 'writer', ['sh', '-c', 'echo from-writer > /cache/w && exec sleep 3600'], [cache]);
    reader = await runContainer(sandboxId, sb, 'reader', ['sleep', '3600'], [cache]);
  });

  test('the volume is a runtime tmpfs volume named after the pod', () => {
    assert.equal(cache.tmpfsVolume, `podlab_${sb.metadata.uid}_cache`);
  });

  test("each container sees the other's files", async () => {
    const seen = await waitFor('the writer file', async () => {
      const r = await sh(reader, 'cat /cache/w');
      return r.exitCode === 0 ? r.out : undefined;
    });
    await sh(reader, 'echo from-reader > /cache/r');
    assert.deepEqual({ seen, back: (await sh(writer, 'cat /cache/r')).out }, { seen: 'from-writer', back: 'from-reader' });
  });

  test('df and mount show one tmpfs of the size limit (16Mi)', async () => {
    const df = await sh(reader, "df -k /cache | tail -n 1 | awk '{print $1, $2}'");
    const mount = await sh(reader, "grep ' /cache ' /proc/mounts | awk '{print $1, $2, $3}'");
    const opts = await sh(reader, "grep ' /cache ' /proc/mounts | awk '{print $4}'");
    assert.deepEqual(
      { df: df.out, mount: mount.out, size: opts.out.split(',').find((o) => o.startsWith('size=')) },
      { df: 'tmpfs 16384', mount: 'tmpfs /cache tmpfs', size: 'size=16384k' },
    );
  });

  test('the content outlives the containers while the sandbox holds the volume', async () => {
    await rt.stopContainer(writer, 0);
    await rt.stopContainer(reader, 0);
    const later = await runContainer(sandboxId, sb, 'later', ['sleep', '3600'], [cache]);
    assert.equal((await sh(later, 'cat /cache/w /cache/r')).out, 'from-writer\nfrom-reader');
  });
});

describe('a configMap volume written by the atomic writer', () => {
  let sb: PodSandboxConfig;
  let pod: Pod;
  let ctr: string;
  let dir: string;

  before(async () => {
    sb = podSandboxConfig('vol-cm');
    uids.push(sb.metadata.uid);
    configMaps.set('app-config', { metadata: { name: 'app-config', namespace: 'default' }, data: { 'app.properties': 'color=blue', mode: 'dev' } });
    pod = podFor(sb, [{ name: 'cfg', configMap: { name: 'app-config' } }]);
    const st = await vm.setUpPod(pod, lookup, facts);
    assert.equal(st.ready, true, JSON.stringify(events));
    dir = st.ready ? st.volumes.get('cfg')!.hostPath : '';
    const sandboxId = await rt.runPodSandbox(sb, SandboxImage);
    ctr = await runContainer(sandboxId, sb, 'app', ['sleep', '3600'], [
      // configMap volumes are mounted read-only whatever readOnly says
      { hostPath: dir, containerPath: '/etc/cfg', readonly: true },
      // a subPath mount: a bind of the one file, as it resolves now
      { hostPath: join(dir, 'app.properties'), containerPath: '/etc/sub.properties', readonly: true },
    ]);
  });

  test('ls -la shows the keys as symlinks into ..data, which links to the timestamped directory', async () => {
    const ls = await sh(ctr, 'ls -la /etc/cfg');
    const links = Object.fromEntries([...ls.out.matchAll(/ (\S+) -> (\S+)$/gm)].map((m) => [m[1], m[2]]));
    const tsDir = links['..data'] ?? '';
    assert.match(tsDir, /^\.\.\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_\d{2}\.\d+$/);
    assert.deepEqual(links, { '..data': tsDir, 'app.properties': '..data/app.properties', mode: '..data/mode' });
  });

  test('cat gives the data, and the volume is read-only', async () => {
    const cat = await sh(ctr, 'cat /etc/cfg/app.properties; echo; cat /etc/cfg/mode');
    const touch = await sh(ctr, 'touch /etc/cfg/x');
    assert.deepEqual({ cat: cat.out, touchFails: touch.exitCode !== 0 }, { cat: 'color=blue\ndev', touchFails: true });
  });

  test('an update reaches the running container through ..data, but not the subPath bind', async () => {
    configMaps.set('app-config', { metadata: { name: 'app-config', namespace: 'default' }, data: { 'app.properties': 'color=green' } });
    const changed = await vm.refresh(pod, lookup, facts);
    const whole = await sh(ctr, 'cat /etc/cfg/app.properties');
    const sub = await sh(ctr, 'cat /etc/sub.properties');
    const gone = await sh(ctr, 'ls /etc/cfg');
    assert.deepEqual({ changed, whole: whole.out, sub: sub.out, visible: gone.out.split('\n') }, { changed: ['cfg'], whole: 'color=green', sub: 'color=blue', visible: ['app.properties'] });
  });
});
