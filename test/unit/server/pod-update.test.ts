// A pod's spec is immutable but for a few fields (upstream ValidatePodUpdate): containers are neither
// added nor removed; the images may change; the active deadline may be set or lowered; tolerations
// may be added and their tolerationSeconds changed; a negative grace period may become 1; anything
// else, however deep in a container, is Forbidden with the API server's message. The admission
// chain's additions come with a create, not with an update's body; an update of a pod that has
// ephemeral containers is not refused as a create would be. The Registry over an engine on the fake
// runtime; updates are dry runs of the stored pod with one change.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { fakeRegistry, type FakeLab } from '../../support/fake-engine.js';
import { ApiError, RESOURCES, type Registry } from '../../../src/server/resources.js';
import { updateEphemeralContainers } from '../../../src/server/ephemeral.js';

let lab: FakeLab;
let registry: Registry;
const create = (pod: object) => registry.create(RESOURCES.pods!, 'default', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', ...pod }), { fieldValidation: 'Strict', dryRun: false });
before(async () => {
  ({ lab, registry } = await fakeRegistry());
  await create({
    metadata: { name: 'p' },
    spec: {
      initContainers: [{ name: 'init', image: 'busybox:1.35', args: ['true'] }],
      containers: [{ name: 'app', image: 'busybox:1.35', command: ['sh', '-c', 'sleep 3600'], env: [{ name: 'A', value: '1' }] }],
    },
  });
  await create({
    metadata: { name: 'q' },
    spec: {
      activeDeadlineSeconds: 60,
      terminationGracePeriodSeconds: -1,
      tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }],
      containers: [{ name: 'app', image: 'busybox:1.35' }],
    },
  });
  await create({
    metadata: { name: 'r' },
    spec: {
      containers: [{ name: 'app', image: 'busybox:1.35', resources: { limits: { cpu: '500m', memory: '64Mi' } }, volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }],
      volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '1Gi' } }],
    },
  });
});
after(() => lab.close());

const FORBIDDEN = (name: string) =>
  `Pod "${name}" is invalid: spec: Forbidden: pod updates may not change fields other than \`spec.containers[*].image\`,\`spec.initContainers[*].image\`,\`spec.activeDeadlineSeconds\`,\`spec.tolerations\` (only additions to existing tolerations),\`spec.terminationGracePeriodSeconds\` (allow it to be set to 1 if it was previously negative)`;

/** The stored pod with `change` made to a copy, sent as an update (dry run): what the server answers. */
async function update(name: string, change: (p: Pod) => void): Promise<{ ok: true } | { code: number; message: string }> {
  const p = structuredClone(registry.get(RESOURCES.pods!, 'default', name)) as Pod;
  change(p);
  try {
    await registry.update(RESOURCES.pods!, 'default', name, JSON.stringify(p), { fieldValidation: 'Strict', dryRun: true });
    return { ok: true };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { code: e.code, message: e.response.body.message ?? '' };
  }
}

const invalid = (name: string, rest: string) => ({ code: 422, message: `Pod "${name}" is invalid: ${rest}` });
const cases: [string, string, (p: Pod) => void, Awaited<ReturnType<typeof update>>][] = [
  ['an app container\'s image may change', 'p', (p) => void (p.spec!.containers[0]!.image = 'busybox:1.36'), { ok: true }],
  ['an init container\'s image may change', 'p', (p) => void (p.spec!.initContainers![0]!.image = 'busybox:1.36'), { ok: true }],
  ['the active deadline may be set', 'p', (p) => void (p.spec!.activeDeadlineSeconds = 30), { ok: true }],
  ['the same spec with its keys in another order is no change', 'p', (p) => void (p.spec!.containers[0] = Object.fromEntries(Object.entries(p.spec!.containers[0]!).reverse()) as never), { ok: true }],
  ['an empty list where there was none is no change (Go decodes both to nil)', 'p', (p) => void (p.spec!.initContainers![0]!.env = []), { ok: true }],
  ['an app container\'s command may not change', 'p', (p) => void (p.spec!.containers[0]!.command = ['sh', '-c', 'echo v2; sleep 3600']), { code: 422, message: FORBIDDEN('p') }],
  ['an app container\'s environment may not change', 'p', (p) => void p.spec!.containers[0]!.env!.push({ name: 'B', value: '2' }), { code: 422, message: FORBIDDEN('p') }],
  ['an environment variable\'s value may not change', 'p', (p) => void (p.spec!.containers[0]!.env![0]!.value = '2'), { code: 422, message: FORBIDDEN('p') }],
  ['an init container\'s args may not change', 'p', (p) => void (p.spec!.initContainers![0]!.args = ['false']), { code: 422, message: FORBIDDEN('p') }],
  ['the restart policy may not change', 'p', (p) => void (p.spec!.restartPolicy = 'Never'), { code: 422, message: FORBIDDEN('p') }],
  ['a container may not be added: said of the containers, and nothing more', 'p', (p) => void p.spec!.containers.push({ name: 'more', image: 'busybox:1.35' }), invalid('p', 'spec.containers: Forbidden: pod updates may not add or remove containers')],
  ['an init container may not be removed', 'p', (p) => void (p.spec!.initContainers = []), invalid('p', 'spec.initContainers: Forbidden: pod updates may not add or remove containers')],
  ['the active deadline may be lowered', 'q', (p) => void (p.spec!.activeDeadlineSeconds = 30), { ok: true }],
  ['the active deadline may not be raised', 'q', (p) => void (p.spec!.activeDeadlineSeconds = 120), invalid('q', 'spec.activeDeadlineSeconds: Invalid value: 120: must be less than or equal to previous value')],
  ['the active deadline may not be removed', 'q', (p) => void delete p.spec!.activeDeadlineSeconds, invalid('q', 'spec.activeDeadlineSeconds: Invalid value: "null": must not update from a positive integer to nil value')],
  ['a toleration may be added', 'q', (p) => void p.spec!.tolerations!.push({ key: 'spot', operator: 'Exists' }), { ok: true }],
  ['a toleration\'s seconds may change', 'q', (p) => void (p.spec!.tolerations![0]!.tolerationSeconds = 30), { ok: true }],
  ['a toleration may not be removed', 'q', (p) => void p.spec!.tolerations!.shift(), invalid('q', 'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds')],
  ['a negative grace period may become 1', 'q', (p) => void (p.spec!.terminationGracePeriodSeconds = 1), { ok: true }],
  ['a negative grace period may not become 5', 'q', (p) => void (p.spec!.terminationGracePeriodSeconds = 5), { code: 422, message: FORBIDDEN('q') }],
  [
    'a quantity written in another form is no change (0.5 is 500m, 1024Mi is 1Gi: both sides are canonical Quantities)',
    'r',
    (p) => {
      p.spec!.containers[0]!.resources = { limits: { cpu: '0.5', memory: '65536Ki' } };
      p.spec!.volumes![0]!.emptyDir = { sizeLimit: '1024Mi' };
    },
    { ok: true },
  ],
  ['a quantity of another value is a change', 'r', (p) => void (p.spec!.volumes![0]!.emptyDir = { sizeLimit: '2Gi' }), { code: 422, message: FORBIDDEN('r') }],
];
for (const [name, pod, change, expected] of cases) test(name, async () => assert.deepEqual(await update(pod, change), expected));

test('a create gets what the admission chain adds; an update body that leaves it out is a change of the spec, as on a cluster', async () => {
  const stored = registry.get(RESOURCES.pods!, 'default', 'p') as Pod;
  const { serviceAccountName, serviceAccount, priority, preemptionPolicy, tolerations } = stored.spec!;
  assert.deepEqual(
    { admitted: { serviceAccountName, serviceAccount, priority, preemptionPolicy, tolerations: tolerations?.map((t) => t.key) }, withoutIt: await update('p', (p) => void (delete p.spec!.serviceAccountName, delete p.spec!.serviceAccount)) },
    {
      admitted: { serviceAccountName: 'default', serviceAccount: 'default', priority: 0, preemptionPolicy: 'PreemptLowerPriority', tolerations: ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'] },
      withoutIt: { code: 422, message: FORBIDDEN('p') },
    },
  );
});

test('a pod with an ephemeral container can be updated (a label), not refused as a create with ephemeral containers would be', async () => {
  await create({ metadata: { name: 'dbg' }, spec: { containers: [{ name: 'app', image: 'busybox:1.35' }] } });
  const p = structuredClone(registry.get(RESOURCES.pods!, 'default', 'dbg')) as Pod;
  p.spec!.ephemeralContainers = [{ name: 'debugger', image: 'busybox:1.35' }];
  // kubectl debug: through the pods/ephemeralcontainers subresource.
  await updateEphemeralContainers(lab.engine, 'default', 'dbg', p, { fieldValidation: 'Strict', dryRun: false });
  assert.deepEqual(
    await update('dbg', (q) => void (q.metadata!.labels = { debugged: 'yes' })),
    { ok: true },
  );
});
