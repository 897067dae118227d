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

// The API server's create handler, in order: decoding (a strict-decoding 400), the object's namespace
// against the request's (400), admission (the Priority plugin's 403), validation (422). Under Warn the
// strict-decoding findings are warnings of the request whatever its answer, so a refusal carries them.
async function refusal(text: string, ns: string, fieldValidation: FieldValidation) {
  try {
    await registry.create(RESOURCES.pods!, ns, text, { fieldValidation, dryRun: true });
    return { created: true };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { code: e.code, reason: e.response.body.reason, message: e.response.body.message, warnings: e.warnings };
  }
}
const pod = (extra: string, meta = '"name":"p"') => `{"apiVersion":"v1","kind":"Pod","metadata":{${meta}},"spec":{${extra}"containers":[{"name":"a","image":"busybox:1.35"}]}}`;
const priorityDetail = 'the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name';
const order: [string, () => Promise<unknown>, unknown][] = [
  [
    'Warn: the 403 of admission carries the unknown field as a warning',
    () => refusal(pod('"priority":5,"bogus":1,'), 'default', 'Warn'),
    { code: 403, reason: 'Forbidden', message: `pods "p" is forbidden: ${priorityDetail}`, warnings: ['unknown field "spec.bogus"'] },
  ],
  [
    "Warn: validation's 422 carries it too",
    () => refusal(pod('"bogus":1,"restartPolicy":"Sometimes",'), 'default', 'Warn'),
    { code: 422, reason: 'Invalid', message: 'Pod "p" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"', warnings: ['unknown field "spec.bogus"'] },
  ],
  [
    'a namespace that differs from the request\'s is refused before admission',
    () => refusal(pod('"priority":5,', '"name":"p","namespace":"other"'), 'default', 'Strict'),
    { code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request', warnings: [] },
  ],
  [
    'Warn: the namespace refusal carries the warning',
    () => refusal(pod('"priority":5,"bogus":1,', '"name":"p","namespace":"other"'), 'default', 'Warn'),
    { code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request', warnings: ['unknown field "spec.bogus"'] },
  ],
  [
    'Strict: decoding refuses first, before the namespace',
    () => refusal(pod('"priority":5,"bogus":1,', '"name":"p","namespace":"other"'), 'default', 'Strict'),
    { code: 400, reason: 'BadRequest', message: 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.bogus"', warnings: [] },
  ],
];
for (const [name, actual, expected] of order) test(name, async () => assert.deepEqual(await actual(), expected));
