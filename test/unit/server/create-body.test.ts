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
async function refusal(text: string, ns: string, fieldValidation: FieldValidation, dryRun = true) {
  try {
    await registry.create(RESOURCES.pods!, ns, text, { fieldValidation, dryRun });
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
  [
    "Strict: decoding refuses before admission finds the request's namespace missing",
    () => refusal(pod('"bogus":1,'), 'nope', 'Strict'),
    { code: 400, reason: 'BadRequest', message: 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.bogus"', warnings: [] },
  ],
  [
    'Warn: the missing namespace (NamespaceLifecycle, admission) carries the warning',
    () => refusal(pod('"bogus":1,'), 'nope', 'Warn'),
    { code: 404, reason: 'NotFound', message: 'namespaces "nope" not found', warnings: ['unknown field "spec.bogus"'] },
  ],
  [
    "a namespace that differs from the request's is refused before the request's is found missing",
    () => refusal(pod('', '"name":"p","namespace":"other"'), 'nope', 'Strict'),
    { code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request', warnings: [] },
  ],
  [
    'Warn: AlreadyExists (from storage) carries the warning',
    async () => {
      await refusal(pod('', '"name":"twin"'), 'default', 'Strict', false);
      return refusal(pod('"bogus":1,', '"name":"twin"'), 'default', 'Warn');
    },
    { code: 409, reason: 'AlreadyExists', message: 'pods "twin" already exists', warnings: ['unknown field "spec.bogus"'] },
  ],
];
for (const [name, actual, expected] of order) test(name, async () => assert.deepEqual(await actual(), expected));

// The update handler: the object's namespace against the request's; validation's 422 carries the
// decoding's warnings (the strategy's own come only after validation passed).
async function updateRefusal(text: string, fieldValidation: FieldValidation) {
  try {
    await registry.update(RESOURCES.pods!, 'default', 'held', text, { fieldValidation, dryRun: true });
    return { updated: true };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { code: e.code, reason: e.response.body.reason, message: e.response.body.message, warnings: e.warnings };
  }
}
/** The stored pod `held` (created once), changed by `change`, as a PUT body. */
async function heldChanged(change: (p: Pod & { spec: Record<string, unknown> }) => void): Promise<string> {
  let stored: Pod | undefined;
  try {
    stored = registry.get(RESOURCES.pods!, 'default', 'held') as Pod;
  } catch {
    await refusal(pod('', '"name":"held"'), 'default', 'Strict', false);
    stored = registry.get(RESOURCES.pods!, 'default', 'held') as Pod;
  }
  const p = structuredClone(stored) as Pod & { spec: Record<string, unknown> };
  change(p);
  return JSON.stringify(p);
}
const updates: [string, (p: Pod & { spec: Record<string, unknown> }) => void, FieldValidation, unknown][] = [
  [
    "an update whose object names another namespace than the request's",
    (p) => (p.metadata!.namespace = 'other'),
    'Strict',
    { code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request', warnings: [] },
  ],
  [
    "Warn: an update's 422 carries the unknown field's warning",
    (p) => Object.assign(p.spec, { bogus: 1, restartPolicy: 'Never' }),
    'Warn',
    {
      code: 422,
      reason: 'Invalid',
      message:
        'Pod "held" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
      warnings: ['unknown field "spec.bogus"'],
    },
  ],
];
for (const [name, change, fv, expected] of updates) test(name, async () => assert.deepEqual(await updateRefusal(await heldChanged(change), fv), expected));
