// The API server's decoding of a request body under each fieldValidation (section 1 of the
// validation rules): Strict refuses unknown and duplicate fields with a 400 listing them all,
// Warn (kubectl's --validate=warn, and the API server's default) creates the object without them
// and returns each as a warning, Ignore drops them silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, decode } from '../../../src/server/resources.js';

const withUnknown = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { containers: [{ name: 'a', image: 'busybox', foo: 1 }], bar: true } });
const withDuplicate = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{"containers":[{"name":"a","image":"busybox","image":"nginx"}]}}';
const configMap = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' }, extra: 1 });

function outcome(kind: 'Pod' | 'ConfigMap', body: string, fv: 'Strict' | 'Warn' | 'Ignore') {
  try {
    const { object, warnings } = decode(kind, body, fv);
    const o = object as { spec?: { containers?: Record<string, unknown>[] } & Record<string, unknown>; data?: unknown };
    return { containerKeys: o.spec ? Object.keys(o.spec.containers?.[0] ?? {}).filter((k) => ['name', 'image', 'foo'].includes(k)) : undefined, image: o.spec?.containers?.[0]?.image, specBar: o.spec?.bar, data: o.data, warnings };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { code: e.code, message: e.response.body.message };
  }
}

const cases: [string, ReturnType<typeof outcome>, ReturnType<typeof outcome>][] = [
  [
    'Strict refuses a pod with unknown fields, naming every one in the order of the document',
    outcome('Pod', withUnknown, 'Strict'),
    { code: 400, message: 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].foo", unknown field "spec.bar"' },
  ],
  [
    'Warn creates the pod without the unknown fields and warns of each',
    outcome('Pod', withUnknown, 'Warn'),
    { containerKeys: ['name', 'image'], image: 'busybox', specBar: undefined, data: undefined, warnings: ['unknown field "spec.containers[0].foo"', 'unknown field "spec.bar"'] },
  ],
  ['Ignore creates the pod without them and says nothing', outcome('Pod', withUnknown, 'Ignore'), { containerKeys: ['name', 'image'], image: 'busybox', specBar: undefined, data: undefined, warnings: [] }],
  [
    'Warn keeps the last of duplicate fields and warns',
    outcome('Pod', withDuplicate, 'Warn'),
    { containerKeys: ['name', 'image'], image: 'nginx', specBar: undefined, data: undefined, warnings: ['duplicate field "spec.containers[0].image"'] },
  ],
  ['Warn also applies to a ConfigMap', outcome('ConfigMap', configMap, 'Warn'), { containerKeys: undefined, image: undefined, specBar: undefined, data: { k: 'v' }, warnings: ['unknown field "extra"'] }],
];

for (const [name, actual, expected] of cases) test(name, () => assert.deepEqual(actual, expected));

test('every quantity of a pod is stored in its canonical form, as the API server encodes a Quantity (resources, emptyDir sizeLimit, resourceFieldRef divisors, the claim of an ephemeral volume)', () => {
  const body = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'q' },
    spec: {
      containers: [
        {
          name: 'a',
          image: 'busybox',
          resources: { limits: { cpu: '1000m', memory: '1024Mi' }, requests: { cpu: '0.5' } },
          env: [{ name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1000m' } } }],
        },
      ],
      volumes: [
        { name: 'scratch', emptyDir: { sizeLimit: '1024Mi' } },
        { name: 'info', downwardAPI: { items: [{ path: 'mem', resourceFieldRef: { containerName: 'a', resource: 'limits.memory', divisor: '1024Ki' } }] } },
        { name: 'claim', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } } } } } },
        { name: 'proj', projected: { sources: [{ downwardAPI: { items: [{ path: 'cpu', resourceFieldRef: { containerName: 'a', resource: 'requests.cpu', divisor: '0.001' } }] } }] } },
      ],
    },
  });
  type Spec = {
    containers: { resources: unknown; env: { valueFrom: { resourceFieldRef: { divisor: string } } }[] }[];
    volumes: { emptyDir?: { sizeLimit: string }; ephemeral?: { volumeClaimTemplate: { spec: { resources: unknown } } }; downwardAPI?: { items: { resourceFieldRef: { divisor: string } }[] }; projected?: { sources: { downwardAPI: { items: { resourceFieldRef: { divisor: string } }[] } }[] } }[];
  };
  const spec = (decode('Pod', body, 'Strict').object as { spec: Spec }).spec;
  assert.deepEqual(
    {
      resources: spec.containers[0]!.resources,
      envDivisor: spec.containers[0]!.env[0]!.valueFrom.resourceFieldRef.divisor,
      sizeLimit: spec.volumes[0]!.emptyDir!.sizeLimit,
      volumeDivisor: spec.volumes[1]!.downwardAPI!.items[0]!.resourceFieldRef.divisor,
      projectedDivisor: spec.volumes[3]!.projected!.sources[0]!.downwardAPI.items[0]!.resourceFieldRef.divisor,
      claim: spec.volumes[2]!.ephemeral!.volumeClaimTemplate.spec.resources,
    },
    { resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } }, envDivisor: '1', sizeLimit: '1Gi', volumeDivisor: '1Mi', projectedDivisor: '1m', claim: { requests: { storage: '1Gi' } } },
  );
});
