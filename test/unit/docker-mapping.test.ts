// The pure parts of the Docker runtime: dockershim names and labels, create options, status
// mapping, events, stream demultiplexing, tar reading, errors, connection resolution.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContainerConfig, PodSandboxConfig } from '../../src/runtime/cri.js';
import { RuntimeError } from '../../src/runtime/cri.js';
import {
  annotationsToLabels,
  containerLabels,
  extractLabels,
  makeContainerName,
  makeSandboxName,
  parseName,
  sandboxLabels,
} from '../../src/runtime/docker/naming.js';
import { containerCreateOptions, portBindings, sandboxCreateOptions, userSpec } from '../../src/runtime/docker/config.js';
import {
  dockerTime,
  mapContainerState,
  sandboxIp,
  toContainerStatus,
  toRuntimeEvent,
  toPullProgress,
  toSandboxStatus,
  type InspectLike,
} from '../../src/runtime/docker/status.js';
import { demuxAll, Demuxer, LineSplitter, splitLines } from '../../src/runtime/docker/streams.js';
import { readFirstEntry, FirstEntryReader } from '../../src/runtime/docker/tar.js';
import { dockerMessage, toRuntimeError, unavailableMessage } from '../../src/runtime/docker/errors.js';
import { resolveConnection } from '../../src/runtime/docker/connection.js';

const podMeta = { name: 'web', namespace: 'default', uid: '0b5c-11', attempt: 0 };

function sandboxConfig(over: Partial<PodSandboxConfig> = {}): PodSandboxConfig {
  return {
    metadata: podMeta,
    hostname: 'web',
    labels: { app: 'web' },
    annotations: { note: 'hi' },
    portMappings: [],
    hostNetwork: false,
    hostIPC: false,
    hostPID: false,
    podManifest: '{"kind":"Pod"}',
    ...over,
  };
}

function containerConfig(over: Partial<ContainerConfig> = {}): ContainerConfig {
  return {
    metadata: { name: 'app', attempt: 2 },
    image: 'busybox:1.35',
    command: [],
    args: [],
    envs: [],
    mounts: [],
    labels: {},
    annotations: {},
    ...over,
  };
}

describe('dockershim names', () => {
  const cases: { name: string; run: () => void }[] = [
    {
      name: 'a sandbox is named k8s_POD_<pod>_<ns>_<uid>_<attempt>',
      run: () => assert.equal(makeSandboxName({ ...podMeta, attempt: 3 }), 'k8s_POD_web_default_0b5c-11_3'),
    },
    {
      name: 'a container is named k8s_<container>_<pod>_<ns>_<uid>_<attempt>',
      run: () => assert.equal(makeContainerName(podMeta, { name: 'app', attempt: 1 }), 'k8s_app_web_default_0b5c-11_1'),
    },
    {
      name: 'a name with Docker\'s leading slash parses into its six parts',
      run: () =>
        assert.deepEqual(parseName('/k8s_app_web_default_0b5c-11_4'), {
          containerName: 'app',
          podName: 'web',
          podNamespace: 'default',
          podUid: '0b5c-11',
          attempt: 4,
        }),
    },
    { name: 'a name with five parts does not parse', run: () => assert.equal(parseName('k8s_app_web_default_1'), null) },
    { name: 'a name with seven parts does not parse', run: () => assert.equal(parseName('k8s_a_b_c_d_e_1'), null) },
    { name: 'a name without the k8s prefix does not parse', run: () => assert.equal(parseName('k9s_app_web_default_u_1'), null) },
    { name: 'a name with a non-numeric attempt does not parse', run: () => assert.equal(parseName('k8s_app_web_default_u_x'), null) },
  ];
  for (const c of cases) test(c.name, c.run);
});

describe('dockershim labels', () => {
  test('CRI annotations become labels prefixed with annotation.', () => {
    assert.deepEqual(annotationsToLabels({ 'io.kubernetes.container.hash': 'abc' }), {
      'annotation.io.kubernetes.container.hash': 'abc',
    });
  });

  test('a sandbox carries the pod labels, annotations, identity, POD name, type, lab label and manifest', () => {
    assert.deepEqual(sandboxLabels(podMeta, { app: 'web' }, { note: 'hi' }, '{"kind":"Pod"}'), {
      app: 'web',
      'annotation.note': 'hi',
      'io.kubernetes.pod.name': 'web',
      'io.kubernetes.pod.namespace': 'default',
      'io.kubernetes.pod.uid': '0b5c-11',
      'io.kubernetes.container.name': 'POD',
      'io.kubernetes.docker.type': 'podsandbox',
      'io.podlab.managed': 'true',
      'io.podlab.pod-manifest': '{"kind":"Pod"}',
    });
  });

  test('a container carries its sandbox id, an empty log path, type container and the lab label', () => {
    const l = containerLabels('sb1', podMeta, { name: 'app', attempt: 0 }, { x: 'y' }, { 'io.kubernetes.container.restartCount': '0' });
    assert.deepEqual(l, {
      x: 'y',
      'annotation.io.kubernetes.container.restartCount': '0',
      'io.kubernetes.pod.name': 'web',
      'io.kubernetes.pod.namespace': 'default',
      'io.kubernetes.pod.uid': '0b5c-11',
      'io.kubernetes.container.name': 'app',
      'io.kubernetes.docker.type': 'container',
      'io.kubernetes.sandbox.id': 'sb1',
      'io.kubernetes.container.logpath': '',
      'io.podlab.managed': 'true',
    });
  });

  const extractCases: { name: string; input: Record<string, string>; labels: Record<string, string>; annotations: Record<string, string> }[] = [
    {
      name: 'reading labels back drops the shim\'s internal labels and unprefixes annotations',
      input: {
        app: 'web',
        'annotation.io.kubernetes.container.hash': 'h1',
        'io.kubernetes.docker.type': 'container',
        'io.kubernetes.sandbox.id': 'sb',
        'io.kubernetes.container.logpath': '',
        'io.kubernetes.container.name': 'app',
      },
      labels: { app: 'web', 'io.kubernetes.container.name': 'app' },
      annotations: { 'io.kubernetes.container.hash': 'h1' },
    },
    {
      name: 'reading a sandbox\'s labels back hides its POD container name and the manifest',
      input: {
        app: 'web',
        'io.kubernetes.docker.type': 'podsandbox',
        'io.kubernetes.container.name': 'POD',
        'io.podlab.pod-manifest': '{}',
        'annotation.note': 'hi',
      },
      labels: { app: 'web' },
      annotations: { note: 'hi' },
    },
  ];
  for (const c of extractCases) {
    test(c.name, () => assert.deepEqual(extractLabels(c.input), { labels: c.labels, annotations: c.annotations }));
  }
});

describe('sandbox create options', () => {
  test('a plain pod sandbox gets a hostname, shareable IPC, default network, OOM score -998 and 2 CPU shares', () => {
    const o = sandboxCreateOptions(sandboxConfig(), 'registry.k8s.io/pause:3.10');
    assert.equal(o.name, 'k8s_POD_web_default_0b5c-11_0');
    assert.equal(o.Image, 'registry.k8s.io/pause:3.10');
    assert.equal(o.Hostname, 'web');
    assert.deepEqual(o.HostConfig, {
      NetworkMode: 'default',
      IpcMode: 'shareable',
      OomScoreAdj: -998,
      CpuShares: 2,
      RestartPolicy: { Name: 'no' },
    });
    assert.equal(o.ExposedPorts, undefined);
    assert.equal(o.Labels?.['io.podlab.pod-manifest'], '{"kind":"Pod"}');
  });

  test('host network, IPC and PID pods use the host namespaces and no hostname', () => {
    const o = sandboxCreateOptions(sandboxConfig({ hostNetwork: true, hostIPC: true, hostPID: true }), 'pause');
    assert.equal(o.Hostname, undefined);
    assert.equal(o.HostConfig?.NetworkMode, 'host');
    assert.equal(o.HostConfig?.IpcMode, 'host');
    assert.equal(o.HostConfig?.PidMode, 'host');
  });

  const portCases: {
    name: string;
    mappings: PodSandboxConfig['portMappings'];
    bindings: Record<string, { HostPort: string; HostIp: string }[]>;
  }[] = [
    { name: 'ports without a hostPort are not bound', mappings: [{ protocol: 'TCP', containerPort: 80, hostPort: 0 }], bindings: {} },
    {
      name: 'a hostPort binds "<containerPort>/tcp" to the host port',
      mappings: [{ protocol: 'TCP', containerPort: 80, hostPort: 8080 }],
      bindings: { '80/tcp': [{ HostPort: '8080', HostIp: '' }] },
    },
    {
      name: 'UDP and SCTP ports use their lower-case protocol and keep the host IP',
      mappings: [
        { protocol: 'UDP', containerPort: 53, hostPort: 5353, hostIp: '127.0.0.1' },
        { protocol: 'SCTP', containerPort: 9, hostPort: 9009 },
      ],
      bindings: { '53/udp': [{ HostPort: '5353', HostIp: '127.0.0.1' }], '9/sctp': [{ HostPort: '9009', HostIp: '' }] },
    },
    {
      name: 'two host ports for one container port are both bound',
      mappings: [
        { protocol: 'TCP', containerPort: 80, hostPort: 8080 },
        { protocol: 'TCP', containerPort: 80, hostPort: 8081 },
      ],
      bindings: { '80/tcp': [{ HostPort: '8080', HostIp: '' }, { HostPort: '8081', HostIp: '' }] },
    },
  ];
  for (const c of portCases) {
    test(c.name, () => {
      const { PortBindings, ExposedPorts } = portBindings(c.mappings);
      assert.deepEqual(PortBindings, c.bindings);
      assert.deepEqual(Object.keys(ExposedPorts), Object.keys(c.bindings));
    });
  }
});

describe('container create options', () => {
  test('an app container joins the sandbox network and IPC, keeps a private PID namespace and never restarts', () => {
    const o = containerCreateOptions('sb1', containerConfig(), sandboxConfig());
    assert.equal(o.name, 'k8s_app_web_default_0b5c-11_2');
    assert.deepEqual(o.HostConfig, { NetworkMode: 'container:sb1', IpcMode: 'container:sb1', RestartPolicy: { Name: 'no' } });
    assert.equal(o.Entrypoint, undefined);
    assert.equal(o.Cmd, undefined);
    assert.equal(o.Labels?.['io.kubernetes.sandbox.id'], 'sb1');
    assert.equal(o.Labels?.['io.podlab.managed'], 'true');
  });

  const cases: { name: string; config: Partial<ContainerConfig>; sandbox?: Partial<PodSandboxConfig>; check: (o: ReturnType<typeof containerCreateOptions>) => void }[] = [
    {
      name: 'shareProcessNamespace joins the sandbox PID namespace',
      config: { sharePid: true },
      check: (o) => assert.equal(o.HostConfig?.PidMode, 'container:sb1'),
    },
    {
      name: 'a hostPID pod uses the host PID namespace',
      config: { sharePid: true },
      sandbox: { hostPID: true },
      check: (o) => assert.equal(o.HostConfig?.PidMode, 'host'),
    },
    {
      name: 'a hostNetwork pod shares the host UTS namespace',
      config: {},
      sandbox: { hostNetwork: true },
      check: (o) => assert.equal(o.HostConfig?.UTSMode, 'host'),
    },
    {
      name: 'command becomes the entrypoint and args the cmd',
      config: { command: ['sh', '-c'], args: ['echo hi'] },
      check: (o) => {
        assert.deepEqual(o.Entrypoint, ['sh', '-c']);
        assert.deepEqual(o.Cmd, ['echo hi']);
      },
    },
    {
      name: 'args alone keep the image entrypoint',
      config: { args: ['echo', 'hi'] },
      check: (o) => {
        assert.equal(o.Entrypoint, undefined);
        assert.deepEqual(o.Cmd, ['echo', 'hi']);
      },
    },
    {
      name: 'env becomes KEY=VALUE and the working directory is kept',
      config: { envs: [{ key: 'A', value: '1' }, { key: 'B', value: 'x=y' }], workingDir: '/w' },
      check: (o) => {
        assert.deepEqual(o.Env, ['A=1', 'B=x=y']);
        assert.equal(o.WorkingDir, '/w');
      },
    },
    {
      name: 'mounts become binds and read-only ones end in :ro',
      config: {
        mounts: [
          { hostPath: '/h/a', containerPath: '/a' },
          { hostPath: '/h/b', containerPath: '/b', readonly: true },
        ],
      },
      check: (o) => assert.deepEqual(o.HostConfig?.Binds, ['/h/a:/a', '/h/b:/b:ro']),
    },
    {
      name: 'the termination-message file is bound at the default path',
      config: { terminationMessageHostPath: '/pods/u/containers/app/abcd1234' },
      check: (o) => assert.deepEqual(o.HostConfig?.Binds, ['/pods/u/containers/app/abcd1234:/dev/termination-log']),
    },
    {
      name: 'the termination-message file is bound at the path of the annotation',
      config: {
        terminationMessageHostPath: '/t/m',
        annotations: { 'io.kubernetes.container.terminationMessagePath': '/tmp/msg' },
      },
      check: (o) => assert.deepEqual(o.HostConfig?.Binds, ['/t/m:/tmp/msg']),
    },
    {
      name: 'a memory limit sets Memory and MemorySwap alike, CPU values pass through',
      config: { resources: { memoryLimitInBytes: 64 * 1024 * 1024, cpuShares: 512, cpuPeriod: 100000, cpuQuota: 50000 } },
      check: (o) => {
        assert.equal(o.HostConfig?.Memory, 67108864);
        assert.equal(o.HostConfig?.MemorySwap, 67108864);
        assert.equal(o.HostConfig?.CpuShares, 512);
        assert.equal(o.HostConfig?.CpuPeriod, 100000);
        assert.equal(o.HostConfig?.CpuQuota, 50000);
      },
    },
    {
      name: 'tty, stdin, privileged and the user pass through',
      config: { tty: true, stdin: true, stdinOnce: true, privileged: true, runAsUser: 1000, runAsGroup: 3000 },
      check: (o) => {
        assert.equal(o.Tty, true);
        assert.equal(o.OpenStdin, true);
        assert.equal(o.StdinOnce, true);
        assert.equal(o.HostConfig?.Privileged, true);
        assert.equal(o.User, '1000:3000');
      },
    },
    {
      name: 'annotations are stored as annotation. labels',
      config: { annotations: { 'io.kubernetes.container.hash': 'h' } },
      check: (o) => assert.equal(o.Labels?.['annotation.io.kubernetes.container.hash'], 'h'),
    },
  ];
  for (const c of cases) test(c.name, () => c.check(containerCreateOptions('sb1', containerConfig(c.config), sandboxConfig(c.sandbox))));

  test('runAsUser 0 is user "0"', () => assert.equal(userSpec(0), '0'));
  test('runAsGroup without runAsUser is refused as dockershim did', () => {
    assert.throws(() => userSpec(undefined, 5), (e: unknown) => e instanceof RuntimeError && e.message === 'runAsGroup is specified without a runAsUser');
  });
});

const zero = '0001-01-01T00:00:00Z';
function info(state: NonNullable<InspectLike['State']>, over: Partial<InspectLike> = {}): InspectLike {
  return {
    Id: 'c1',
    Name: '/k8s_app_web_default_0b5c-11_1',
    Created: '2024-05-01T10:00:00.123456789Z',
    Image: 'sha256:abc',
    State: state,
    Config: {
      Image: 'busybox:1.35',
      Labels: {
        'io.kubernetes.docker.type': 'container',
        'io.kubernetes.sandbox.id': 'sb1',
        'annotation.io.kubernetes.container.restartCount': '1',
        'io.kubernetes.container.name': 'app',
      },
    },
    ...over,
  };
}

describe('container status mapping', () => {
  const cases: { name: string; state: NonNullable<InspectLike['State']>; want: { state: string; reason: string; message?: string } }[] = [
    {
      name: 'a running container is CONTAINER_RUNNING',
      state: { Running: true, StartedAt: '2024-05-01T10:00:01Z', FinishedAt: zero },
      want: { state: 'CONTAINER_RUNNING', reason: '' },
    },
    {
      name: 'an exited container with exit code 0 is Completed',
      state: { Running: false, ExitCode: 0, StartedAt: '2024-05-01T10:00:01Z', FinishedAt: '2024-05-01T10:00:02Z' },
      want: { state: 'CONTAINER_EXITED', reason: 'Completed' },
    },
    {
      name: 'an exited container with a non-zero exit code is Error',
      state: { Running: false, ExitCode: 3, StartedAt: '2024-05-01T10:00:01Z', FinishedAt: '2024-05-01T10:00:02Z' },
      want: { state: 'CONTAINER_EXITED', reason: 'Error' },
    },
    {
      name: 'a container killed by a signal (137) is Error',
      state: { Running: false, ExitCode: 137, StartedAt: '2024-05-01T10:00:01Z', FinishedAt: '2024-05-01T10:00:02Z' },
      want: { state: 'CONTAINER_EXITED', reason: 'Error' },
    },
    {
      name: 'an OOM-killed container is OOMKilled whatever its exit code',
      state: { Running: false, OOMKilled: true, ExitCode: 0, StartedAt: '2024-05-01T10:00:01Z', FinishedAt: '2024-05-01T10:00:02Z' },
      want: { state: 'CONTAINER_EXITED', reason: 'OOMKilled' },
    },
    {
      name: 'a container that failed to start is ContainerCannotRun with Docker\'s error',
      state: { Running: false, ExitCode: 127, Error: 'exec: "nope": executable file not found', StartedAt: zero, FinishedAt: zero },
      want: { state: 'CONTAINER_EXITED', reason: 'ContainerCannotRun', message: 'exec: "nope": executable file not found' },
    },
    {
      name: 'a created, never started container is CONTAINER_CREATED',
      state: { Running: false, ExitCode: 0, StartedAt: zero, FinishedAt: zero },
      want: { state: 'CONTAINER_CREATED', reason: '' },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const m = mapContainerState(info(c.state));
      assert.equal(m.state, c.want.state);
      assert.equal(m.reason, c.want.reason);
      if (c.want.message !== undefined) assert.equal(m.message, c.want.message);
    });
  }

  test('ContainerCannotRun moves the start and finish times to the creation time', () => {
    const m = mapContainerState(info({ Running: false, ExitCode: 127, StartedAt: zero, FinishedAt: zero }));
    assert.equal(m.startedAt, Date.parse('2024-05-01T10:00:00.123Z'));
    assert.equal(m.finishedAt, m.startedAt);
  });

  const timeCases: [string, string | undefined, number][] = [
    ['Docker\'s zero time is 0', zero, 0],
    ['a missing time is 0', undefined, 0],
    ['a nanosecond time is truncated to milliseconds', '2024-05-01T10:00:00.123456789Z', Date.UTC(2024, 4, 1, 10, 0, 0, 123)],
    ['a time with an offset is converted to epoch', '2024-05-01T12:00:00+02:00', Date.UTC(2024, 4, 1, 10)],
  ];
  for (const [name, s, want] of timeCases) test(name, () => assert.equal(dockerTime(s), want));

  test('a full status carries metadata from the name, the sandbox id, image and unprefixed annotations', () => {
    const s = toContainerStatus(info({ Running: false, ExitCode: 2, StartedAt: '2024-05-01T10:00:01Z', FinishedAt: '2024-05-01T10:00:02Z' }));
    assert.deepEqual(s.metadata, { name: 'app', attempt: 1 });
    assert.equal(s.podSandboxId, 'sb1');
    assert.equal(s.exitCode, 2);
    assert.equal(s.image, 'busybox:1.35');
    assert.equal(s.imageRef, 'docker://sha256:abc');
    assert.deepEqual(s.annotations, { 'io.kubernetes.container.restartCount': '1' });
    assert.equal(s.finishedAt, Date.UTC(2024, 4, 1, 10, 0, 2));
  });
});

describe('sandbox status mapping', () => {
  const sb = (over: Partial<InspectLike>): InspectLike => ({
    Id: 'sb1',
    Name: '/k8s_POD_web_default_0b5c-11_2',
    Created: '2024-05-01T10:00:00Z',
    State: { Running: true },
    Config: { Labels: { 'io.kubernetes.docker.type': 'podsandbox', app: 'web', 'annotation.note': 'hi', 'io.podlab.pod-manifest': '{"a":1}' } },
    HostConfig: { NetworkMode: 'default' },
    NetworkSettings: { IPAddress: '172.17.0.5', Networks: { bridge: { IPAddress: '172.17.0.5' } } },
    ...over,
  });
  test('a running sandbox is ready with its bridge IP, labels, annotations and manifest', () => {
    const s = toSandboxStatus(sb({}));
    assert.equal(s.state, 'SANDBOX_READY');
    assert.equal(s.ip, '172.17.0.5');
    assert.deepEqual(s.metadata, { name: 'web', namespace: 'default', uid: '0b5c-11', attempt: 2 });
    assert.deepEqual(s.labels, { app: 'web' });
    assert.deepEqual(s.annotations, { note: 'hi' });
    assert.equal(s.podManifest, '{"a":1}');
  });
  test('a stopped sandbox is not ready and has no IP', () => {
    const s = toSandboxStatus(sb({ State: { Running: false } }));
    assert.equal(s.state, 'SANDBOX_NOTREADY');
    assert.equal(s.ip, '');
  });
  test('a host-network sandbox has no pod IP', () => assert.equal(sandboxIp(sb({ HostConfig: { NetworkMode: 'host' } })), ''));
  test('the IP is found in the networks when the top-level address is empty', () =>
    assert.equal(sandboxIp(sb({ NetworkSettings: { IPAddress: '', Networks: { lab: { IPAddress: '10.1.0.2' } } } })), '10.1.0.2'));
});

describe('Docker events', () => {
  const ev = (Action: string, type = 'container') => ({
    Type: 'container',
    Action,
    Actor: { ID: 'c1', Attributes: { 'io.kubernetes.docker.type': type, 'io.kubernetes.pod.uid': 'u1', 'io.kubernetes.container.name': 'app' } },
    time: 1700000000,
    timeNano: 1700000000123456789,
  });
  const cases: [string, string, string][] = [
    ['create is created', 'create', 'created'],
    ['start is started', 'start', 'started'],
    ['die is died', 'die', 'died'],
    ['oom is oom', 'oom', 'oom'],
    ['stop is stopped', 'stop', 'stopped'],
    ['destroy is destroyed', 'destroy', 'destroyed'],
    ['kill is other', 'kill', 'other'],
  ];
  for (const [name, action, want] of cases) test(`the Docker action ${name}`, () => assert.equal(toRuntimeEvent(ev(action))?.action, want));
  test('an event carries the pod uid, container name and millisecond time', () => {
    assert.deepEqual(toRuntimeEvent(ev('start')), { kind: 'container', action: 'started', id: 'c1', podUid: 'u1', containerName: 'app', time: 1700000000123 });
  });
  test('an event of a pause container is a sandbox event', () => assert.equal(toRuntimeEvent(ev('die', 'podsandbox'))?.kind, 'sandbox'));
  test('a network event is not a runtime event', () => assert.equal(toRuntimeEvent({ Type: 'network', Action: 'connect', Actor: { ID: 'n' } }), null));
});

describe('pull progress', () => {
  const cases: { name: string; msg: Parameters<typeof toPullProgress>[1]; want: ReturnType<typeof toPullProgress> }[] = [
    {
      name: 'a downloading layer reports its bytes',
      msg: { status: 'Downloading', id: 'a1b2', progressDetail: { current: 512, total: 2048 } },
      want: { progress: { image: 'busybox:1.35', status: 'Downloading', layer: 'a1b2', current: 512, total: 2048 } },
    },
    {
      name: 'a status without a layer is image-wide',
      msg: { status: 'Pulling from library/busybox', id: '1.35' },
      want: { progress: { image: 'busybox:1.35', status: 'Pulling from library/busybox', layer: '1.35' } },
    },
    {
      name: 'an empty progress detail adds no numbers',
      msg: { status: 'Pull complete', id: 'a1b2', progressDetail: {} },
      want: { progress: { image: 'busybox:1.35', status: 'Pull complete', layer: 'a1b2' } },
    },
    {
      name: 'an in-stream error is Docker\'s message',
      msg: { error: 'short', errorDetail: { message: 'manifest for busybox:1.35 not found' } },
      want: { error: 'manifest for busybox:1.35 not found' },
    },
    { name: 'a message without status is ignored', msg: {}, want: null },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(toPullProgress('busybox:1.35', c.msg), c.want));
});

function frame(kind: 1 | 2, text: string): Buffer {
  const body = Buffer.from(text);
  const h = Buffer.alloc(8);
  h[0] = kind;
  h.writeUInt32BE(body.length, 4);
  return Buffer.concat([h, body]);
}

describe('log streams', () => {
  test('a multiplexed stream is split into stdout and stderr chunks in order', () => {
    const got = demuxAll(Buffer.concat([frame(1, 'out\n'), frame(2, 'err\n'), frame(1, 'more\n')]));
    assert.deepEqual(got.map((c) => [c.kind, c.data.toString()]), [
      ['stdout', 'out\n'],
      ['stderr', 'err\n'],
      ['stdout', 'more\n'],
    ]);
  });
  test('a TTY stream is passed through as stdout', () => {
    assert.deepEqual(demuxAll(Buffer.from('hello tty\nline 2\n')).map((c) => c.data.toString()), ['hello tty\nline 2\n']);
  });
  test('frames cut at any byte are reassembled', () => {
    const all = Buffer.concat([frame(1, 'abc\n'), frame(2, 'defgh\n')]);
    for (let cut = 1; cut < all.length; cut++) {
      const got: string[] = [];
      const d = new Demuxer((k, c) => got.push(`${k}:${c}`));
      d.push(all.subarray(0, cut));
      d.push(all.subarray(cut));
      d.end();
      assert.equal(got.join(''), 'stdout:abc\nstderr:defgh\n', `cut at ${cut}`);
    }
  });
  test('a short TTY output under 8 bytes is flushed at the end', () => {
    assert.deepEqual(demuxAll(Buffer.from('hi\n')).map((c) => c.data.toString()), ['hi\n']);
  });
  const lineCases: [string, string, string[]][] = [
    ['text is split on newlines without a trailing empty line', 'a\nb\n', ['a', 'b']],
    ['a last line without a newline is kept', 'a\nb', ['a', 'b']],
    ['CRLF line ends are trimmed', 'a\r\nb\r\n', ['a', 'b']],
    ['empty text has no lines', '', []],
  ];
  for (const [name, text, want] of lineCases) test(name, () => assert.deepEqual(splitLines(text), want));
  test('stdout and stderr partial lines do not mix', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l, k) => lines.push(`${k}:${l}`));
    s.push('stdout', 'hel');
    s.push('stderr', 'oops\n');
    s.push('stdout', 'lo\nwor');
    s.end();
    assert.deepEqual(lines, ['stderr:oops', 'stdout:hello', 'stdout:wor']);
  });
});

describe('tar reading', () => {
  const dir = mkdtempSync(join(tmpdir(), 'podlab-tar-'));
  const tarOf = (args: string[]) => execFileSync('tar', ['-C', dir, '-c', ...args]);
  writeFileSync(join(dir, 'msg'), 'terminated: bye\n');
  writeFileSync(join(dir, 'empty'), '');
  writeFileSync(join(dir, 'big'), 'x'.repeat(5000) + 'THE END');
  const longName = 'n'.repeat(150);
  writeFileSync(join(dir, longName), 'long');
  symlinkSync('msg', join(dir, 'link'));

  test('the first file of an archive is read whole', () => {
    const e = readFirstEntry(tarOf(['msg']), 4096);
    assert.equal(e?.name, 'msg');
    assert.equal(e?.type, '0');
    assert.equal(e?.content.toString(), 'terminated: bye\n');
  });
  test('an empty file reads as empty', () => assert.equal(readFirstEntry(tarOf(['empty']), 4096)?.content.toString(), ''));
  test('a file longer than the limit keeps its last bytes', () => {
    const e = readFirstEntry(tarOf(['big']), 7);
    assert.equal(e?.content.toString(), 'THE END');
    assert.equal(e?.truncated, true);
  });
  test('a PAX long name is read', () => {
    const e = readFirstEntry(tarOf(['--format=pax', longName]), 100);
    assert.equal(e?.name, longName);
    assert.equal(e?.content.toString(), 'long');
  });
  test('a GNU long name is read', () => {
    const e = readFirstEntry(tarOf(['--format=gnu', longName]), 100);
    assert.equal(e?.name, longName);
    assert.equal(e?.content.toString(), 'long');
  });
  test('a symbolic link is reported with its target', () => {
    const e = readFirstEntry(tarOf(['link']), 100);
    assert.equal(e?.type, '2');
    assert.equal(e?.linkname, 'msg');
  });
  test('an archive fed one byte at a time gives the same file', () => {
    const r = new FirstEntryReader(4096);
    for (const b of tarOf(['msg'])) r.push(Buffer.from([b]));
    assert.equal(r.entry?.content.toString(), 'terminated: bye\n');
  });
  test('an empty archive has no entry', () => assert.equal(readFirstEntry(Buffer.alloc(1024), 10), null));
  test.after(() => rmSync(dir, { recursive: true, force: true }));
});

describe('errors and connection', () => {
  test('a missing socket gives one line that says how to start Docker', () => {
    const e = Object.assign(new Error('connect ENOENT /nope.sock'), { code: 'ENOENT' });
    assert.equal(
      unavailableMessage('/nope.sock', e),
      'Cannot connect to Docker at /nope.sock: no such socket. Start Docker (on this machine: bash scripts/ensure-docker.sh) and try again.',
    );
  });
  test('a connection error of any call becomes Unavailable', () => {
    const e = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const re = toRuntimeError(e, '/s', 'CreateFailed');
    assert.equal(re.code, 'Unavailable');
    assert.match(re.message, /^Cannot connect to Docker at \/s: connection refused\./);
  });
  test('a daemon 404 is NotFound with Docker\'s message', () => {
    const e = Object.assign(new Error('(HTTP code 404) no such container - No such container: abc '), {
      statusCode: 404,
      json: { message: 'No such container: abc' },
    });
    const re = toRuntimeError(e, '/s');
    assert.equal(re.code, 'NotFound');
    assert.equal(re.message, 'Error response from daemon: No such container: abc');
  });
  test('dockerode\'s HTTP wrapping is removed when there is no JSON body', () => {
    assert.equal(dockerMessage(new Error('(HTTP code 500) server error - boom ')), 'boom');
  });
  const connCases: { name: string; opts: { socketPath?: string; host?: string }; env: Record<string, string>; target: string; want: Record<string, unknown> }[] = [
    { name: 'without options or DOCKER_HOST the default socket is used', opts: {}, env: {}, target: '/var/run/docker.sock', want: { socketPath: '/var/run/docker.sock' } },
    { name: 'DOCKER_HOST unix:// gives a socket', opts: {}, env: { DOCKER_HOST: 'unix:///run/d.sock' }, target: '/run/d.sock', want: { socketPath: '/run/d.sock' } },
    { name: 'DOCKER_HOST tcp:// gives host and port over http', opts: {}, env: { DOCKER_HOST: 'tcp://10.0.0.1:2375' }, target: 'tcp://10.0.0.1:2375', want: { host: '10.0.0.1', port: '2375', protocol: 'http' } },
    { name: 'an explicit socket wins over DOCKER_HOST', opts: { socketPath: '/x.sock' }, env: { DOCKER_HOST: 'tcp://h:1' }, target: '/x.sock', want: { socketPath: '/x.sock' } },
    { name: 'an explicit host wins over DOCKER_HOST', opts: { host: 'unix:///y.sock' }, env: { DOCKER_HOST: 'tcp://h:1' }, target: '/y.sock', want: { socketPath: '/y.sock' } },
  ];
  for (const c of connCases) {
    test(c.name, () => {
      const r = resolveConnection(c.opts, c.env);
      assert.equal(r.target, c.target);
      for (const [k, v] of Object.entries(c.want)) assert.equal((r.dockerOptions as Record<string, unknown>)[k], v);
    });
  }
});
