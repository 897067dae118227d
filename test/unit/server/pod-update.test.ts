// A pod's spec is immutable but for a few fields (upstream ValidatePodUpdate): an update that changes
// anything else, however deep in a container, is Forbidden with the API server's message; the
// images, the active deadline and added tolerations may change. The Registry over an engine on the
// fake runtime; updates are dry runs of the stored pod with one change.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { fakeRegistry, type FakeLab } from '../../support/fake-engine.js';
import { ApiError, RESOURCES, type Registry } from '../../../src/server/resources.js';

let lab: FakeLab;
let registry: Registry;
before(async () => {
  ({ lab, registry } = await fakeRegistry());
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      initContainers: [{ name: 'init', image: 'busybox:1.35', args: ['true'] }],
      containers: [{ name: 'app', image: 'busybox:1.35', command: ['sh', '-c', 'sleep 3600'], env: [{ name: 'A', value: '1' }] }],
    },
  };
  await registry.create(RESOURCES.pods!, 'default', JSON.stringify(pod), { fieldValidation: 'Strict', dryRun: false });
});
after(() => lab.close());

const FORBIDDEN =
  'Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** The stored pod with `change` made to a copy, sent as an update (dry run): what the server answers. */
async function update(change: (p: Pod) => void): Promise<{ ok: true } | { code: number; message: string }> {
  const p = structuredClone(registry.get(RESOURCES.pods!, 'default', 'p')) as Pod;
  change(p);
  try {
    await registry.update(RESOURCES.pods!, 'default', 'p', JSON.stringify(p), { fieldValidation: 'Strict', dryRun: true });
    return { ok: true };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { code: e.code, message: e.response.body.message ?? '' };
  }
}

const forbidden = { code: 422, message: FORBIDDEN };
const cases: [string, (p: Pod) => void, Awaited<ReturnType<typeof update>>][] = [
  ['an app container\'s image may change', (p) => void (p.spec!.containers[0]!.image = 'busybox:1.36'), { ok: true }],
  ['an init container\'s image may change', (p) => void (p.spec!.initContainers![0]!.image = 'busybox:1.36'), { ok: true }],
  ['the active deadline may be set', (p) => void (p.spec!.activeDeadlineSeconds = 30), { ok: true }],
  ['the same spec with its keys in another order is no change', (p) => void (p.spec!.containers[0] = Object.fromEntries(Object.entries(p.spec!.containers[0]!).reverse()) as never), { ok: true }],
  ['an empty list where there was none is no change (Go decodes both to nil)', (p) => void (p.spec!.initContainers![0]!.env = []), { ok: true }],
  ['an app container\'s command may not change', (p) => void (p.spec!.containers[0]!.command = ['sh', '-c', 'echo v2; sleep 3600']), forbidden],
  ['an app container\'s environment may not change', (p) => void p.spec!.containers[0]!.env!.push({ name: 'B', value: '2' }), forbidden],
  ['an environment variable\'s value may not change', (p) => void (p.spec!.containers[0]!.env![0]!.value = '2'), forbidden],
  ['an init container\'s args may not change', (p) => void (p.spec!.initContainers![0]!.args = ['false']), forbidden],
  ['a container may not be added', (p) => void p.spec!.containers.push({ name: 'more', image: 'busybox:1.35' }), forbidden],
  ['the restart policy may not change', (p) => void (p.spec!.restartPolicy = 'Never'), forbidden],
];
for (const [name, change, expected] of cases) test(name, async () => assert.deepEqual(await update(change), expected));
