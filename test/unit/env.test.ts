// The kubelet's environment and mounts (src/engine/kubelet/env.ts): every env source with its
// origin, every kubelet error text, optional handling, envFrom order and prefixes, $(VAR) rules,
// the downward API and resource fields, command expansion, and makeMounts. Whole results compared.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigMap, Container, EnvVar, Pod, Secret } from 'kubernetes-types/core/v1';
import {
  describeEnvironment,
  expand,
  expandCommand,
  expandCommandOnlyStatic,
  makeEnvironmentVariables,
  makeMounts,
  type EnvResult,
  type EnvVarView,
  type MountsResult,
  type ObjectLookup,
  type PodRuntimeFacts,
  type VolumeHostPath,
} from '../../src/engine/kubelet/env.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const cms: Record<string, ConfigMap> = {
  cfg: { metadata: { name: 'cfg' }, data: { A: 'from-cm', 'app.properties': 'x=1', REF: '$(A)' }, binaryData: { bin: b64('bytes') } },
  other: { metadata: { name: 'other' }, data: { A: 'from-other', B: 'b' } },
};
const secrets: Record<string, Secret> = { sec: { metadata: { name: 'sec' }, data: { A: b64('from-secret'), PASS: b64('s3cret') } } };
const lookup: ObjectLookup = { configMap: (_ns, n) => cms[n], secret: (_ns, n) => secrets[n] };
const facts: PodRuntimeFacts = {
  podIP: '10.88.0.5',
  podIPs: ['10.88.0.5', 'fd00::5'],
  hostIP: '192.168.1.2',
  hostIPs: ['192.168.1.2', 'fd00::2'],
  nodeName: 'podlab-node',
  nodeAllocatable: { cpu: '2', memory: '4Gi', 'ephemeral-storage': '10Gi' },
};

function pod(c: Partial<Container>, extra: { spec?: object; sidecar?: Container } = {}): Pod {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'u1', labels: { app: 'web' }, annotations: { note: 'hi' } },
    spec: {
      nodeName: 'podlab-node',
      serviceAccountName: 'default',
      containers: [{ name: 'app', ...c }, ...(extra.sidecar ? [extra.sidecar] : [])],
      initContainers: [{ name: 'setup', resources: { limits: { cpu: '100m' } } }],
      ...extra.spec,
    },
  };
}
const run = (c: Partial<Container>, extra?: { spec?: object; sidecar?: Container }): EnvResult => {
  const p = pod(c, extra);
  return makeEnvironmentVariables(p, p.spec!.containers[0]!, facts, lookup);
};
const fieldRef = (name: string, fieldPath: string, apiVersion = 'v1'): EnvVar => ({ name, valueFrom: { fieldRef: { apiVersion, fieldPath } } });
const resRef = (name: string, resource: string, divisor?: string, containerName?: string): EnvVar => ({
  name,
  valueFrom: { resourceFieldRef: { resource, ...(divisor ? { divisor } : {}), ...(containerName ? { containerName } : {}) } },
});
const value = { kind: 'value' } as const;

describe('makeEnvironmentVariables', () => {
  const cases: [string, Partial<Container>, EnvResult, { spec?: object; sidecar?: Container }?][] = [
    ['no env and no envFrom: no variables (Pod Lab has no Services, so no service links)', {}, { env: [] }],
    ['a literal value', { env: [{ name: 'X', value: '1' }] }, { env: [{ name: 'X', value: '1', source: value }] }],
    ['an entry with neither value nor valueFrom is set and empty', { env: [{ name: 'X' }] }, { env: [{ name: 'X', value: '', source: value }] }],
    [
      'a value refers to an earlier entry with $(VAR)',
      { env: [{ name: 'A', value: 'a' }, { name: 'B', value: '$(A)-b' }] },
      { env: [{ name: 'A', value: 'a', source: value }, { name: 'B', value: 'a-b', source: { kind: 'expanded', template: '$(A)-b' } }] },
    ],
    [
      'a later entry is not visible to an earlier one: the reference stays as written',
      { env: [{ name: 'B', value: '$(A)-b' }, { name: 'A', value: 'a' }] },
      { env: [{ name: 'B', value: '$(A)-b', source: value }, { name: 'A', value: 'a', source: value }] },
    ],
    [
      '$$(X) escapes a reference: $(X) literally',
      { env: [{ name: 'A', value: 'a' }, { name: 'B', value: '$$(A)' }] },
      { env: [{ name: 'A', value: 'a', source: value }, { name: 'B', value: '$(A)', source: { kind: 'expanded', template: '$$(A)' } }] },
    ],
    [
      'valueFrom values are never expanded',
      { env: [{ name: 'A', value: 'a' }, { name: 'B', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'REF' } } }] },
      { env: [{ name: 'A', value: 'a', source: value }, { name: 'B', value: '$(A)', source: { kind: 'configMapKeyRef', name: 'cfg', key: 'REF', optional: false } }] },
    ],
    [
      'an earlier valueFrom entry is visible to a later value',
      { env: [fieldRef('POD', 'metadata.name'), { name: 'HELLO', value: 'hi $(POD)' }] },
      {
        env: [
          { name: 'POD', value: 'web', source: { kind: 'fieldRef', apiVersion: 'v1', fieldPath: 'metadata.name' } },
          { name: 'HELLO', value: 'hi web', source: { kind: 'expanded', template: 'hi $(POD)' } },
        ],
      },
    ],
    [
      'envFrom first (keys sorted, every key passes), then env overwrites a name and takes its place',
      { envFrom: [{ configMapRef: { name: 'cfg' } }], env: [{ name: 'A', value: 'mine' }] },
      {
        env: [
          { name: 'REF', value: '$(A)', source: { kind: 'envFrom', from: 'configMap', name: 'cfg', key: 'REF', prefix: '' } },
          { name: 'app.properties', value: 'x=1', source: { kind: 'envFrom', from: 'configMap', name: 'cfg', key: 'app.properties', prefix: '' } },
          { name: 'A', value: 'mine', source: value },
        ],
      },
    ],
    [
      'a value may refer to an envFrom variable, even one of its own name',
      { envFrom: [{ configMapRef: { name: 'other' } }], env: [{ name: 'A', value: '$(A)+$(B)' }] },
      {
        env: [
          { name: 'B', value: 'b', source: { kind: 'envFrom', from: 'configMap', name: 'other', key: 'B', prefix: '' } },
          { name: 'A', value: 'from-other+b', source: { kind: 'expanded', template: '$(A)+$(B)' } },
        ],
      },
    ],
    [
      'a later envFrom source overwrites an earlier one; a prefix is prepended; Secret values are decoded and marked',
      { envFrom: [{ configMapRef: { name: 'cfg' } }, { configMapRef: { name: 'other' } }, { secretRef: { name: 'sec' }, prefix: 'S_' }] },
      {
        env: [
          { name: 'REF', value: '$(A)', source: { kind: 'envFrom', from: 'configMap', name: 'cfg', key: 'REF', prefix: '' } },
          { name: 'app.properties', value: 'x=1', source: { kind: 'envFrom', from: 'configMap', name: 'cfg', key: 'app.properties', prefix: '' } },
          { name: 'A', value: 'from-other', source: { kind: 'envFrom', from: 'configMap', name: 'other', key: 'A', prefix: '' } },
          { name: 'B', value: 'b', source: { kind: 'envFrom', from: 'configMap', name: 'other', key: 'B', prefix: '' } },
          { name: 'S_A', value: 'from-secret', source: { kind: 'envFrom', from: 'secret', name: 'sec', key: 'A', prefix: 'S_' }, secret: true },
          { name: 'S_PASS', value: 's3cret', source: { kind: 'envFrom', from: 'secret', name: 'sec', key: 'PASS', prefix: 'S_' }, secret: true },
        ],
      },
    ],
    [
      'a secret key is decoded and marked secret, and so is a value that expands it',
      { env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'sec', key: 'PASS' } } }, { name: 'DSN', value: 'u:$(P)@db' }] },
      {
        env: [
          { name: 'P', value: 's3cret', source: { kind: 'secretKeyRef', name: 'sec', key: 'PASS', optional: false }, secret: true },
          { name: 'DSN', value: 'u:s3cret@db', source: { kind: 'expanded', template: 'u:$(P)@db' }, secret: true },
        ],
      },
    ],
    ['a missing ConfigMap is an error (singular resource)', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'nope', key: 'A' } } }] }, { error: 'configmap "nope" not found' }],
    ['a missing Secret is an error (singular resource)', { env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'nope', key: 'A' } } }] }, { error: 'secret "nope" not found' }],
    ['a missing key of a ConfigMap names key, namespace and name', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k' } } }] }, { error: "couldn't find key k in ConfigMap default/cfg" }],
    ['a key only in binaryData is not found for env (the kubelet reads data)', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'bin' } } }] }, { error: "couldn't find key bin in ConfigMap default/cfg" }],
    ['a missing key of a Secret names key, namespace and name', { env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'sec', key: 'k' } } }] }, { error: "couldn't find key k in Secret default/sec" }],
    [
      'optional key references whose key or object is missing are left out',
      {
        env: [
          { name: 'K1', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k', optional: true } } },
          { name: 'K2', valueFrom: { configMapKeyRef: { name: 'nope', key: 'k', optional: true } } },
          { name: 'K3', valueFrom: { secretKeyRef: { name: 'sec', key: 'k', optional: true } } },
          { name: 'K4', valueFrom: { secretKeyRef: { name: 'nope', key: 'k', optional: true } } },
        ],
      },
      { env: [] },
    ],
    [
      'an optional reference left out keeps the envFrom value of the same name',
      { envFrom: [{ configMapRef: { name: 'other' } }], env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k', optional: true } } }] },
      {
        env: [
          { name: 'A', value: 'from-other', source: { kind: 'envFrom', from: 'configMap', name: 'other', key: 'A', prefix: '' } },
          { name: 'B', value: 'b', source: { kind: 'envFrom', from: 'configMap', name: 'other', key: 'B', prefix: '' } },
        ],
      },
    ],
    ['an optional missing envFrom source is skipped', { envFrom: [{ secretRef: { name: 'nope', optional: true } }, { configMapRef: { name: 'nope', optional: true } }] }, { env: [] }],
    ['a missing envFrom ConfigMap is an error', { envFrom: [{ configMapRef: { name: 'nope' } }] }, { error: 'configmap "nope" not found' }],
    ['a missing envFrom Secret is an error', { envFrom: [{ secretRef: { name: 'nope' } }] }, { error: 'secret "nope" not found' }],
    [
      'the first error in kubelet order wins: envFrom before env',
      { envFrom: [{ secretRef: { name: 'gone' } }], env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'nope', key: 'A' } } }] },
      { error: 'secret "gone" not found' },
    ],
    [
      'fileKeyRef is not supported by Pod Lab yet',
      { env: [{ name: 'F', valueFrom: { fileKeyRef: { volumeName: 'v', path: 'e.env', key: 'K' } } as EnvVar['valueFrom'] }] },
      { error: 'Pod Lab does not support fileKeyRef yet' },
    ],
    [
      'downward API fields: metadata, labels and annotations by key (absent → empty), node, service account, IPs (lists joined with commas)',
      {
        env: [
          fieldRef('F0', 'metadata.name'),
          fieldRef('F1', 'metadata.namespace'),
          fieldRef('F2', 'metadata.uid'),
          fieldRef('F3', "metadata.labels['app']"),
          fieldRef('F4', "metadata.annotations['none']"),
          fieldRef('F5', 'spec.nodeName'),
          fieldRef('F6', 'spec.serviceAccountName'),
          fieldRef('F7', 'status.podIP'),
          fieldRef('F8', 'status.podIPs'),
          fieldRef('F9', 'status.hostIP'),
          fieldRef('F10', 'status.hostIPs'),
        ],
      },
      {
        env: [
          ['F0', 'metadata.name', 'web'],
          ['F1', 'metadata.namespace', 'default'],
          ['F2', 'metadata.uid', 'u1'],
          ['F3', "metadata.labels['app']", 'web'],
          ['F4', "metadata.annotations['none']", ''],
          ['F5', 'spec.nodeName', 'podlab-node'],
          ['F6', 'spec.serviceAccountName', 'default'],
          ['F7', 'status.podIP', '10.88.0.5'],
          ['F8', 'status.podIPs', '10.88.0.5,fd00::5'],
          ['F9', 'status.hostIP', '192.168.1.2'],
          ['F10', 'status.hostIPs', '192.168.1.2,fd00::2'],
        ].map(([name, fieldPath, v]) => ({ name: name!, value: v!, source: { kind: 'fieldRef' as const, apiVersion: 'v1', fieldPath: fieldPath! } })),
      },
    ],
    ['a field path the downward API does not know is an error', { env: [fieldRef('X', 'spec.foo')] }, { error: 'field label not supported: spec.foo' }],
    ['a subscript on a field that has none is an error', { env: [fieldRef('X', "spec.nodeName['x']")] }, { error: "field label does not support subscript: spec.nodeName['x']" }],
    ['a fieldRef apiVersion other than v1 is an error', { env: [fieldRef('X', 'metadata.name', 'v2')] }, { error: 'unsupported pod version: v2' }],
    [
      'resourceFieldRef: ceil(quantity / divisor), cpu 250m → 1 (divisor 1m → 250), memory 64Mi → 64 (1Mi) or 67108864',
      {
        resources: { limits: { cpu: '250m', memory: '64Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
        env: [resRef('CPU', 'limits.cpu'), resRef('CPU_M', 'limits.cpu', '1m'), resRef('MEM_MI', 'limits.memory', '1Mi'), resRef('MEM', 'limits.memory'), resRef('REQ_M', 'requests.cpu', '1m')],
      },
      {
        env: [
          { name: 'CPU', value: '1', source: { kind: 'resourceFieldRef', resource: 'limits.cpu' } },
          { name: 'CPU_M', value: '250', source: { kind: 'resourceFieldRef', resource: 'limits.cpu', divisor: '1m' } },
          { name: 'MEM_MI', value: '64', source: { kind: 'resourceFieldRef', resource: 'limits.memory', divisor: '1Mi' } },
          { name: 'MEM', value: '67108864', source: { kind: 'resourceFieldRef', resource: 'limits.memory' } },
          { name: 'REQ_M', value: '250', source: { kind: 'resourceFieldRef', resource: 'requests.cpu', divisor: '1m' } },
        ],
      },
    ],
    [
      'resourceFieldRef: unset (or zero) limits default to the node allocatable; unset requests are 0',
      {
        resources: { limits: { memory: '0' } },
        env: [resRef('CPU', 'limits.cpu'), resRef('MEM_MI', 'limits.memory', '1Mi'), resRef('EPH_GI', 'limits.ephemeral-storage', '1Gi'), resRef('REQ', 'requests.cpu', '1m')],
      },
      {
        env: [
          { name: 'CPU', value: '2', source: { kind: 'resourceFieldRef', resource: 'limits.cpu' } },
          { name: 'MEM_MI', value: '4096', source: { kind: 'resourceFieldRef', resource: 'limits.memory', divisor: '1Mi' } },
          { name: 'EPH_GI', value: '10', source: { kind: 'resourceFieldRef', resource: 'limits.ephemeral-storage', divisor: '1Gi' } },
          { name: 'REQ', value: '0', source: { kind: 'resourceFieldRef', resource: 'requests.cpu', divisor: '1m' } },
        ],
      },
    ],
    [
      'resourceFieldRef: pod-level limits come before the node allocatable',
      { env: [resRef('CPU_M', 'limits.cpu', '1m'), resRef('MEM_MI', 'limits.memory', '1Mi')] },
      {
        env: [
          { name: 'CPU_M', value: '1500', source: { kind: 'resourceFieldRef', resource: 'limits.cpu', divisor: '1m' } },
          { name: 'MEM_MI', value: '4096', source: { kind: 'resourceFieldRef', resource: 'limits.memory', divisor: '1Mi' } },
        ],
      },
      { spec: { resources: { limits: { cpu: '1500m' } } } },
    ],
    [
      'resourceFieldRef with containerName: another container (defaulted) or an init container (as written)',
      { env: [resRef('SIDE', 'limits.memory', '1Mi', 'side'), resRef('INIT', 'limits.cpu', '1m', 'setup'), resRef('INIT_MEM', 'limits.memory', undefined, 'setup')] },
      {
        env: [
          { name: 'SIDE', value: '4096', source: { kind: 'resourceFieldRef', resource: 'limits.memory', divisor: '1Mi', containerName: 'side' } },
          { name: 'INIT', value: '100', source: { kind: 'resourceFieldRef', resource: 'limits.cpu', divisor: '1m', containerName: 'setup' } },
          { name: 'INIT_MEM', value: '0', source: { kind: 'resourceFieldRef', resource: 'limits.memory', containerName: 'setup' } },
        ],
      },
      { sidecar: { name: 'side' } },
    ],
    ['resourceFieldRef naming an unknown container is an error', { env: [resRef('X', 'limits.cpu', undefined, 'nope')] }, { error: 'container nope not found' }],
    ['resourceFieldRef of an unsupported resource is an error', { env: [resRef('X', 'limits.gpu')] }, { error: 'unsupported container resource : limits.gpu' }],
  ];
  for (const [name, c, want, extra] of cases) test(name, () => assert.deepEqual(run(c, extra), want));
});

describe('describeEnvironment (views: never fails)', () => {
  test('missing objects give the kubelet error, optional ones why they are left out, unknown allocatable no value', () => {
    const p = pod({
      envFrom: [{ configMapRef: { name: 'gone' } }],
      env: [
        { name: 'S', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } },
        { name: 'O', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k', optional: true } } },
        resRef('CPU', 'limits.cpu'),
        { name: 'USE', value: '$(S)/$(CPU)' },
      ],
    });
    const want: EnvVarView[] = [
      { name: 'S', source: { kind: 'secretKeyRef', name: 'nope', key: 'k', optional: false }, secret: true, error: 'secret "nope" not found' },
      { name: 'O', source: { kind: 'configMapKeyRef', name: 'cfg', key: 'k', optional: true }, skipped: "couldn't find key k in ConfigMap default/cfg" },
      { name: 'CPU', source: { kind: 'resourceFieldRef', resource: 'limits.cpu' }, unknown: 'node allocatable' },
      { name: 'USE', value: '$(S)/$(CPU)', source: value },
    ];
    assert.deepEqual(describeEnvironment(p, p.spec!.containers[0]!, { podIP: '', hostIP: '', nodeName: '' }, lookup), want);
  });
});

describe('$(VAR) expansion (third_party/forked/golang/expansion)', () => {
  const cases: [string, string, string][] = [
    ['defined variables are replaced, undefined ones stay as written', '$(A) and $(B)', 'a and $(B)'],
    ['an unterminated reference is kept', '$(A', '$(A'],
    ['scanning goes on after an unterminated reference', '$(x$$y $(A', '$(x$y $(A'],
    ['a dollar before any other character is kept', '$A stays', '$A stays'],
    ['$$ is one dollar, then the reference expands', '$$$(A)', '$a'],
    ['$$(A) is $(A) literally', '$$(A)', '$(A)'],
    ['an empty reference is kept', '$()', '$()'],
    ['a trailing dollar is kept', 'cost $', 'cost $'],
    ['shell syntax is untouched', 'echo ${A} $((1+2)) `date`', 'echo ${A} $((1+2)) `date`'],
  ];
  for (const [name, input, want] of cases) test(name, () => assert.equal(expand(input, (n) => (n === 'A' ? 'a' : undefined)), want));
});

describe('command and args expansion', () => {
  const c: Container = {
    name: 'app',
    command: ['sh', '-c', 'echo $(GREETING) $(POD) $(NOPE)'],
    args: ['$$(GREETING)'],
    env: [{ name: 'GREETING', value: 'hi $(POD)' }, fieldRef('POD', 'metadata.name')],
  };
  test('command and args see the final environment', () => {
    assert.deepEqual(expandCommand(c, [{ name: 'GREETING', value: 'hi $(POD)' }, { name: 'POD', value: 'web' }]), {
      command: ['sh', '-c', 'echo hi $(POD) web $(NOPE)'],
      args: ['$(GREETING)'],
    });
  });
  test('exec probes see only the static env values, unexpanded; a valueFrom entry is empty', () => {
    assert.deepEqual(expandCommandOnlyStatic(c.command!, c.env), ['sh', '-c', 'echo hi $(POD)  $(NOPE)']);
  });
});

describe('makeMounts', () => {
  const vols: Record<string, VolumeHostPath> = {
    data: { hostPath: '/state/pods/u1/volumes/empty-dir/data', kind: 'emptyDir' },
    mem: { hostPath: '/state/pods/u1/volumes/empty-dir/mem', kind: 'emptyDir', tmpfsVolume: 'podlab-u1-mem' },
    host: { hostPath: '/var/log', kind: 'hostPath' },
    cfg: { hostPath: '/state/pods/u1/volumes/configmap/cfg', kind: 'configMap' },
    sec: { hostPath: '/state/pods/u1/volumes/secret/sec', kind: 'secret' },
    dapi: { hostPath: '/state/pods/u1/volumes/downward-api/dapi', kind: 'downwardAPI' },
    proj: { hostPath: '/state/pods/u1/volumes/projected/proj', kind: 'projected' },
  };
  const hosts = '/state/pods/u1/etc-hosts';
  const env = [{ name: 'POD', value: 'web' }, { name: 'EMPTY', value: '' }];
  const mount = (c: Partial<Container>, etcHostsPath: string | undefined): MountsResult => {
    const p = pod(c);
    return makeMounts(p, p.spec!.containers[0]!, (n) => vols[n], { etcHostsPath, env });
  };
  const etc = { name: 'k8s-managed-etc-hosts', hostPath: hosts, containerPath: '/etc/hosts', readOnly: false, source: 'etcHosts' } as const;
  const cases: [string, Partial<Container>, string | undefined, MountsResult][] = [
    ['no volume mounts: only the managed /etc/hosts, read-write', {}, hosts, { mounts: [etc] }],
    ['no /etc/hosts before the pod has an IP (no path given)', {}, undefined, { mounts: [] }],
    [
      'configMap, secret, downwardAPI and projected volumes are read-only whatever the mount says; others as the mount says',
      {
        volumeMounts: [
          { name: 'cfg', mountPath: '/etc/cfg', readOnly: false },
          { name: 'sec', mountPath: '/etc/sec' },
          { name: 'dapi', mountPath: '/etc/podinfo' },
          { name: 'proj', mountPath: '/etc/proj' },
          { name: 'data', mountPath: '/data' },
          { name: 'host', mountPath: '/host', readOnly: true },
        ],
      },
      hosts,
      {
        mounts: [
          { name: 'cfg', hostPath: vols.cfg!.hostPath, containerPath: '/etc/cfg', readOnly: true, source: 'configMap' },
          { name: 'sec', hostPath: vols.sec!.hostPath, containerPath: '/etc/sec', readOnly: true, source: 'secret' },
          { name: 'dapi', hostPath: vols.dapi!.hostPath, containerPath: '/etc/podinfo', readOnly: true, source: 'downwardAPI' },
          { name: 'proj', hostPath: vols.proj!.hostPath, containerPath: '/etc/proj', readOnly: true, source: 'projected' },
          { name: 'data', hostPath: vols.data!.hostPath, containerPath: '/data', readOnly: false, source: 'emptyDir' },
          { name: 'host', hostPath: '/var/log', containerPath: '/host', readOnly: true, source: 'hostPath' },
          etc,
        ],
      },
    ],
    [
      'subPath is joined onto the volume path; subPathExpr is expanded with the container env first; a tmpfs volume is carried',
      {
        volumeMounts: [
          { name: 'cfg', mountPath: '/etc/app.conf', subPath: 'app.conf' },
          { name: 'data', mountPath: '/logs', subPathExpr: 'logs/$(POD)' },
          { name: 'mem', mountPath: '/cache' },
        ],
      },
      hosts,
      {
        mounts: [
          { name: 'cfg', hostPath: `${vols.cfg!.hostPath}/app.conf`, containerPath: '/etc/app.conf', readOnly: true, subPath: 'app.conf', source: 'configMap' },
          { name: 'data', hostPath: `${vols.data!.hostPath}/logs/web`, containerPath: '/logs', readOnly: false, subPath: 'logs/web', source: 'emptyDir' },
          { name: 'mem', hostPath: vols.mem!.hostPath, containerPath: '/cache', readOnly: false, source: 'emptyDir', tmpfsVolume: 'podlab-u1-mem' },
          etc,
        ],
      },
    ],
    [
      'a container that mounts /etc/hosts itself gets no managed one',
      { volumeMounts: [{ name: 'host', mountPath: '/etc/hosts', subPath: 'hosts' }] },
      hosts,
      { mounts: [{ name: 'host', hostPath: '/var/log/hosts', containerPath: '/etc/hosts', readOnly: false, subPath: 'hosts', source: 'hostPath' }] },
    ],
    ['a mount of a volume the pod does not have is an error', { volumeMounts: [{ name: 'nope', mountPath: '/x' }] }, hosts, { error: 'cannot find volume "nope" to mount into container "app"' }],
    [
      'subPathExpr referring to undefined or empty variables is an error naming them, sorted',
      { volumeMounts: [{ name: 'data', mountPath: '/x', subPathExpr: '$(ZED)/$(EMPTY)/$(POD)' }] },
      hosts,
      { error: 'missing value for EMPTY, ZED' },
    ],
    ['an expanded subPath must not be absolute', { volumeMounts: [{ name: 'data', mountPath: '/x', subPathExpr: '/$(POD)' }] }, hosts, { error: 'error SubPath `/web` must not be an absolute path' }],
    ['an expanded subPath must not step back', { volumeMounts: [{ name: 'data', mountPath: '/x', subPathExpr: '../$(POD)' }] }, hosts, { error: "unable to provision SubPath `../web`: must not contain '..'" }],
  ];
  for (const [name, c, etcHostsPath, want] of cases) test(name, () => assert.deepEqual(mount(c, etcHostsPath), want));
});
