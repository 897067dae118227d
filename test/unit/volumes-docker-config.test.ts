// The Docker side of runtime-managed tmpfs volumes (src/runtime/docker/config.ts): the volume's
// create options and the Binds entries of containers and of the sandbox that holds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mountSpec, sandboxCreateOptions, tmpfsVolumeCreateOptions } from '../../src/runtime/docker/config.js';
import type { Mount, PodSandboxConfig } from '../../src/runtime/cri.js';

test('a tmpfs volume is a local-driver volume of type tmpfs with the size in bytes, labelled as the lab\'s', () => {
  assert.deepEqual(tmpfsVolumeCreateOptions({ name: 'podlab_u_fast', sizeBytes: 67108864, labels: { 'io.kubernetes.pod.uid': 'u' } }), {
    Name: 'podlab_u_fast',
    Driver: 'local',
    DriverOpts: { type: 'tmpfs', device: 'tmpfs', o: 'size=67108864' },
    Labels: { 'io.kubernetes.pod.uid': 'u', 'io.podlab.managed': 'true' },
  });
});

test('without a size the tmpfs has no size option (the kernel default)', () => {
  assert.deepEqual(tmpfsVolumeCreateOptions({ name: 'v', labels: {} }), {
    Name: 'v',
    Driver: 'local',
    DriverOpts: { type: 'tmpfs', device: 'tmpfs' },
    Labels: { 'io.podlab.managed': 'true' },
  });
});

const mountCases: { name: string; m: Mount; want: string }[] = [
  { name: 'a host bind, read-write', m: { hostPath: '/h', containerPath: '/c' }, want: '/h:/c' },
  { name: 'a host bind, read-only', m: { hostPath: '/h', containerPath: '/c', readonly: true }, want: '/h:/c:ro' },
  { name: 'a tmpfs volume, read-write, without copying the image files', m: { hostPath: '/h', containerPath: '/c', tmpfsVolume: 'v' }, want: 'v:/c:nocopy' },
  { name: 'a tmpfs volume, read-only', m: { hostPath: '/h', containerPath: '/c', readonly: true, tmpfsVolume: 'v' }, want: 'v:/c:ro,nocopy' },
];
for (const c of mountCases) test(`Binds entry: ${c.name}`, () => assert.equal(mountSpec(c.m), c.want));

test('the sandbox gets Binds only when it holds volumes', () => {
  const base: PodSandboxConfig = {
    metadata: { name: 'p', namespace: 'default', uid: 'u', attempt: 0 },
    hostname: 'p',
    labels: {},
    annotations: {},
    portMappings: [],
    hostNetwork: false,
    hostIPC: false,
    hostPID: false,
    podManifest: '{}',
  };
  const without = sandboxCreateOptions(base, 'pause').HostConfig?.Binds;
  const withMounts = sandboxCreateOptions({ ...base, mounts: [{ hostPath: '/h', containerPath: '/.podlab/volumes/fast', readonly: true, tmpfsVolume: 'podlab_u_fast' }] }, 'pause').HostConfig?.Binds;
  assert.deepEqual({ without, withMounts }, { without: undefined, withMounts: ['podlab_u_fast:/.podlab/volumes/fast:ro,nocopy'] });
});
