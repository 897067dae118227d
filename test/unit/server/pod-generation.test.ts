// metadata.generation of a pod (1.33, pkg/registry/core/pod/strategy.go): 1 when created, whatever
// the body says; one more for each write that changes the spec (an update of the images, an
// ephemeral container added), none for a write that leaves it (labels, the status, the binding,
// which sets nodeName outside the update strategy). An update cannot set it. The Registry over
// an engine on the fake runtime.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { fakeRegistry, type FakeLab } from '../../support/fake-engine.js';
import { RESOURCES, type Registry } from '../../../src/server/resources.js';
import { updateEphemeralContainers } from '../../../src/server/ephemeral.js';

let lab: FakeLab;
let registry: Registry;
before(async () => ({ lab, registry } = await fakeRegistry()));
after(() => lab.close());

const opts = { fieldValidation: 'Strict' as const, dryRun: false };
const stored = (name: string) => structuredClone(registry.get(RESOURCES.pods!, 'default', name)) as Pod;
const generation = (name: string) => stored(name).metadata?.generation;
async function put(name: string, change: (p: Pod) => void): Promise<void> {
  const p = stored(name);
  change(p);
  await registry.update(RESOURCES.pods!, 'default', name, JSON.stringify(p), opts);
}

test('a pod’s generation through its writes', async () => {
  const seen: [string, number | undefined][] = [];
  await registry.create(
    RESOURCES.pods!,
    'default',
    JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'g', generation: 7 }, spec: { nodeName: 'podlab-node', containers: [{ name: 'app', image: 'busybox:1.35' }] } }),
    opts,
  );
  seen.push(['created (the body said 7)', generation('g')]);
  await put('g', (p) => (p.metadata!.labels = { tier: 'web' }));
  seen.push(['labels changed', generation('g')]);
  await put('g', (p) => (p.spec!.containers[0]!.image = 'busybox:1.36'));
  seen.push(['image changed', generation('g')]);
  await put('g', (p) => (p.spec!.activeDeadlineSeconds = 600));
  seen.push(['activeDeadlineSeconds set', generation('g')]);
  await put('g', (p) => ((p.metadata as { generation?: number }).generation = 40));
  seen.push(['an update asking for 40', generation('g')]);
  await registry.update(RESOURCES.pods!, 'default', 'g', JSON.stringify({ ...stored('g'), status: { phase: 'Running' } }), { ...opts, sub: 'status' });
  seen.push(['status written', generation('g')]);
  const withDebug = stored('g');
  withDebug.spec!.ephemeralContainers = [{ name: 'debugger', image: 'busybox:1.35' }];
  await updateEphemeralContainers(lab.engine, 'default', 'g', withDebug, opts);
  seen.push(['an ephemeral container added', generation('g')]);
  await updateEphemeralContainers(lab.engine, 'default', 'g', stored('g'), opts);
  seen.push(['the same ephemeral containers again', generation('g')]);
  assert.deepEqual(seen, [
    ['created (the body said 7)', 1],
    ['labels changed', 1],
    ['image changed', 2],
    ['activeDeadlineSeconds set', 3],
    ['an update asking for 40', 3],
    ['status written', 3],
    ['an ephemeral container added', 4],
    ['the same ephemeral containers again', 4],
  ]);
});

test('the scheduler binding a pod to a node leaves its generation at 1', async () => {
  await registry.create(RESOURCES.pods!, 'default', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b' }, spec: { containers: [{ name: 'app', image: 'busybox:1.35' }] } }), opts);
  await lab.clock.advanceAsync(1000);
  assert.deepEqual({ node: stored('b').spec?.nodeName, generation: generation('b') }, { node: 'podlab-node', generation: 1 });
});

test('a graceful deletion counts one more generation (BeforeDelete); the pod is still there, Terminating', async () => {
  await registry.create(RESOURCES.pods!, 'default', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'd' }, spec: { containers: [{ name: 'app', image: 'busybox:1.35' }] } }), opts);
  await lab.clock.advanceAsync(1000);
  const before = generation('d');
  lab.engine.beginDeletion('default', 'd', 30);
  assert.deepEqual({ before, after: generation('d'), deleting: !!stored('d').metadata?.deletionTimestamp }, { before: 1, after: 2, deleting: true });
});

test('a dry run answers with the generation the write would store', async () => {
  const created = await registry.create(RESOURCES.pods!, 'default', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'dry', generation: 5 }, spec: { containers: [{ name: 'app', image: 'busybox:1.35' }] } }), { ...opts, dryRun: true });
  await registry.create(RESOURCES.pods!, 'default', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'dry' }, spec: { containers: [{ name: 'app', image: 'busybox:1.35' }] } }), opts);
  const p = stored('dry');
  p.spec!.containers[0]!.image = 'busybox:1.36';
  const updated = await registry.update(RESOURCES.pods!, 'default', 'dry', JSON.stringify(p), { ...opts, dryRun: true });
  assert.deepEqual([(created.object as Pod).metadata?.generation, (updated.object as Pod).metadata?.generation, generation('dry')], [1, 2, 1]);
});
