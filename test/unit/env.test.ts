// makeEnvironmentVariables and $(VAR): every source with its origin, every kubelet error text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigMap, Container, Pod, Secret } from 'kubernetes-types/core/v1';
import { expand, makeEnvironmentVariables, type ObjectLookup } from '../../src/engine/kubelet/env.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const cms: Record<string, ConfigMap> = { cfg: { metadata: { name: 'cfg' }, data: { A: 'from-cm', 'app.properties': 'x=1' }, binaryData: { bin: b64('bytes') } } };
const secrets: Record<string, Secret> = { sec: { metadata: { name: 'sec' }, data: { A: b64('from-secret'), PASS: b64('s3cret') } } };
const lookup: ObjectLookup = { configMap: (_ns, n) => cms[n], secret: (_ns, n) => secrets[n] };
const facts = { podIP: '10.88.0.5', hostIP: '127.0.0.1', nodeName: 'podlab-node', nodeAllocatable: { cpu: '2', memory: '4Gi' } };
const pod = (c: Partial<Container>): Pod => ({ metadata: { name: 'web', namespace: 'default', uid: 'u1', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', ...c }] } });
const run = (c: Partial<Container>) => {
  const p = pod(c);
  const r = makeEnvironmentVariables(p, p.spec!.containers[0]!, facts, lookup);
  return 'error' in r ? r : r.env.map((v) => `${v.name}=${v.value} <${v.source.kind}${v.secret ? ' secret' : ''}>`);
};

const cases: [string, Partial<Container>, unknown][] = [
  ['a literal value', { env: [{ name: 'X', value: '1' }] }, ['X=1 <value>']],
  ['a value refers to an earlier one with $(VAR)', { env: [{ name: 'A', value: 'a' }, { name: 'B', value: '$(A)-b' }] }, ['A=a <value>', 'B=a-b <value>']],
  ['a later variable is not visible to an earlier one', { env: [{ name: 'B', value: '$(A)-b' }, { name: 'A', value: 'a' }] }, ['B=$(A)-b <value>', 'A=a <value>']],
  ['$$ escapes a reference', { env: [{ name: 'A', value: 'a' }, { name: 'B', value: '$$(A)' }] }, ['A=a <value>', 'B=$(A) <value>']],
  ['valueFrom values are never expanded', { env: [{ name: 'A', value: 'a' }, { name: 'B', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'A' } } }] }, ['A=a <value>', 'B=from-cm <configMapKeyRef>']],
  ['envFrom first, then env overwrites', { envFrom: [{ configMapRef: { name: 'cfg' } }], env: [{ name: 'A', value: 'mine' }] }, ['app.properties=x=1 <envFrom>', 'A=mine <value>']],
  ['a later envFrom source overwrites, with its prefix', { envFrom: [{ configMapRef: { name: 'cfg' } }, { secretRef: { name: 'sec' }, prefix: 'S_' }] }, ['A=from-cm <envFrom>', 'app.properties=x=1 <envFrom>', 'S_A=from-secret <envFrom secret>', 'S_PASS=s3cret <envFrom secret>']],
  ['a secret key is decoded and marked secret', { env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'sec', key: 'PASS' } } }] }, ['P=s3cret <secretKeyRef secret>']],
  ['a missing ConfigMap is an error', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'nope', key: 'A' } } }] }, { error: 'configmap "nope" not found' }],
  ['a missing Secret is an error', { env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'nope', key: 'A' } } }] }, { error: 'secret "nope" not found' }],
  ['a missing key of a ConfigMap names namespace and name', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k' } } }] }, { error: "couldn't find key k in ConfigMap default/cfg" }],
  ['a missing key of a Secret names namespace and name', { env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'sec', key: 'k' } } }] }, { error: "couldn't find key k in Secret default/sec" }],
  ['an optional missing key is left out', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k', optional: true } } }] }, []],
  ['an optional missing envFrom source is skipped', { envFrom: [{ secretRef: { name: 'nope', optional: true } }] }, []],
  ['a missing envFrom ConfigMap is an error', { envFrom: [{ configMapRef: { name: 'nope' } }] }, { error: 'configmap "nope" not found' }],
  [
    'downward API fields',
    { env: ['metadata.name', 'metadata.namespace', 'metadata.uid', "metadata.labels['app']", "metadata.annotations['none']", 'spec.nodeName', 'status.podIP', 'status.hostIP'].map((f, i) => ({ name: `F${i}`, valueFrom: { fieldRef: { fieldPath: f } } })) },
    ['F0=web', 'F1=default', 'F2=u1', 'F3=web', 'F4=', 'F5=podlab-node', 'F6=10.88.0.5', 'F7=127.0.0.1'].map((s) => `${s} <fieldRef>`),
  ],
  [
    'resourceFieldRef rounds up by the divisor and defaults limits to the node allocatable',
    {
      resources: { limits: { cpu: '250m', memory: '64Mi' } },
      env: [
        { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
        { name: 'CPU_M', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } } },
        { name: 'MEM_MI', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
        { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory' } } },
        { name: 'EPH', valueFrom: { resourceFieldRef: { resource: 'requests.ephemeral-storage' } } },
      ],
    },
    ['CPU=1', 'CPU_M=250', 'MEM_MI=64', 'MEM=67108864', 'EPH=0'].map((s) => `${s} <resourceFieldRef>`),
  ],
];
for (const [name, c, want] of cases) test(`env: ${name}`, () => assert.deepEqual(run(c), want));

for (const [input, want] of [
  ['$(A) and $(B)', 'a and $(B)'],
  ['$(A', '$(A'],
  ['$A stays', '$A stays'],
  ['$$$(A)', '$a'],
  ['$()', '$()'],
] as const) {
  test(`$(VAR): ${JSON.stringify(input)} expands to ${JSON.stringify(want)}`, () => assert.equal(expand(input, (n) => (n === 'A' ? 'a' : undefined)), want));
}
