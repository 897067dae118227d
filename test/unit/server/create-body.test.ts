// A create's body reaches the decoder as the API server's does: a key written twice in the JSON is
// the strict decoding finding `duplicate field` (refused under Strict, a warning under Warn, the
// last value kept), also when the pod is named by generateName. The Registry over an engine on the
// fake runtime.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { fakeRegistry, type FakeLab } from '../../support/fake-engine.js';
import { ApiError, RESOURCES, type Registry, type FieldValidation } from '../../../src/server/resources.js';

let lab: FakeLab;
let registry: Registry;
before(async () => {
  ({ lab, registry } = await fakeRegistry());
});
after(() => lab.close());

const body = (meta: string) => `{"apiVersion":"v1","kind":"Pod","metadata":${meta},"spec":{"containers":[{"name":"a","image":"busybox:1.35","image":"busybox:1.36"}]}}`;

async function create(text: string, fieldValidation: FieldValidation) {
  try {
    const { object, warnings } = await registry.create(RESOURCES.pods!, 'default', text, { fieldValidation, dryRun: true });
    const pod = object as Pod;
    return { named: (pod.metadata?.name ?? '').replace(/^gen-[a-z0-9]{5}$/, 'gen-<5>'), image: pod.spec?.containers[0]?.image, warnings };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { code: e.code, message: e.response.body.message };
  }
}

const cases: [string, string, FieldValidation, Awaited<ReturnType<typeof create>>][] = [
  [
    'Strict refuses a body that writes a key twice',
    body('{"name":"twice"}'),
    'Strict',
    { code: 400, message: 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: duplicate field "spec.containers[0].image"' },
  ],
  ['Warn creates the pod with the last value and warns', body('{"name":"twice"}'), 'Warn', { named: 'twice', image: 'busybox:1.36', warnings: ['duplicate field "spec.containers[0].image"'] }],
  ['Warn with generateName: the generated name, and the warning', body('{"generateName":"gen-"}'), 'Warn', { named: 'gen-<5>', image: 'busybox:1.36', warnings: ['duplicate field "spec.containers[0].image"'] }],
  ['Ignore says nothing', body('{"name":"twice"}'), 'Ignore', { named: 'twice', image: 'busybox:1.36', warnings: [] }],
];

for (const [name, text, fv, expected] of cases) test(name, async () => assert.deepEqual(await create(text, fv), expected));

test('a PUT that writes a key twice warns under Warn, as a create does', async () => {
  await registry.create(RESOURCES.pods!, 'default', '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"put"},"spec":{"containers":[{"name":"a","image":"busybox:1.35"}]}}', { fieldValidation: 'Strict', dryRun: false });
  // The stored pod (what admission added included, as a GET gives it) with its image written twice.
  const stored = JSON.stringify(registry.get(RESOURCES.pods!, 'default', 'put'));
  const twice = stored.replace('"image":"busybox:1.35"', '"image":"busybox:1.35","image":"busybox:1.36"');
  const { object, warnings } = await registry.update(RESOURCES.pods!, 'default', 'put', twice, { fieldValidation: 'Warn', dryRun: true });
  assert.deepEqual({ image: (object as Pod).spec?.containers[0]?.image, warnings }, { image: 'busybox:1.36', warnings: ['duplicate field "spec.containers[0].image"'] });
});
