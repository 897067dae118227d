// A pod's DELETE as the API server answers it (1.33: apiserver pkg/registry/rest/delete.go
// BeforeDelete, generic/registry/store.go Delete, and the pod strategy's CheckGracefulDelete in
// pkg/registry/core/pod/strategy.go), and the status a created pod starts with (PrepareForCreate).
// The Registry over an engine on the fake runtime and the fake clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { fakeRegistry, type FakeLab } from '../../support/fake-engine.js';
import { RESOURCES, type Registry } from '../../../src/server/resources.js';

let lab: FakeLab;
let registry: Registry;
/** Each test on a lab of its own. */
const withLab = (fn: (t: import('node:test').TestContext) => Promise<void>) => async (t: import('node:test').TestContext) => {
  ({ lab, registry } = await fakeRegistry());
  try {
    await fn(t);
  } finally {
    // (the terminations under way end before the engine closes: it waits for its pod workers)
    await lab.clock.advanceAsync(120 * sec);
    await lab.close();
  }
};

const opts = { fieldValidation: 'Strict' as const, dryRun: false };
const sec = 1000;
const stored = (name: string): Pod | undefined => {
  try {
    return registry.get(RESOURCES.pods!, 'default', name) as Pod;
  } catch {
    return undefined;
  }
};
const since = (t: string | undefined, t0: number) => (t === undefined ? undefined : (Date.parse(t) - t0) / sec);

/** A pod whose container `app` ignores SIGTERM (it runs until the grace period's SIGKILL). */
async function running(name: string, spec: Record<string, unknown> = {}): Promise<void> {
  lab.rt.programs.set('app', { onTerm: 'ignore' });
  await registry.create(
    RESOURCES.pods!,
    'default',
    JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox:1.35', command: ['sleep', '3600'] }], ...spec } }),
    opts,
  );
  await lab.clock.advanceAsync(1 * sec);
}

/** What a DELETE leaves: gone, or the deletion's timestamp (seconds after `t0`), grace and generation. */
async function deleteAs(name: string, grace: number | undefined, t0: number) {
  const { gone } = await registry.delete(RESOURCES.pods!, 'default', name, { dryRun: false, ...(grace === undefined ? {} : { gracePeriodSeconds: grace }) });
  const p = stored(name);
  if (gone || !p) return { gone: true };
  return { gone: false, at: since(p.metadata?.deletionTimestamp, t0), grace: p.metadata?.deletionGracePeriodSeconds, generation: p.metadata?.generation };
}

test('a second DELETE of a terminating pod: only a shorter grace moves its deletion earlier (BeforeDelete)', withLab(async (t) => {
  // [the second DELETE's grace, seconds after the first (grace 40) it comes] → what it leaves
  const cases: [string, number | undefined, number, object][] = [
    ['no grace given: the deletion under way goes on unchanged', undefined, 5, { gone: false, at: 40, grace: 40, generation: 2 }],
    ['a longer grace is not taken', 60, 5, { gone: false, at: 40, grace: 40, generation: 2 }],
    ['the same grace changes nothing', 40, 5, { gone: false, at: 40, grace: 40, generation: 2 }],
    ['a shorter grace (20): the deletion comes 20 s after the first request, and no generation more', 20, 5, { gone: false, at: 20, grace: 20, generation: 2 }],
    // kubectl delete --now: grace 1; 40 - 40 + 1 is in the past, so now, and a grace of 1
    ['--now (grace 1) after 5 s: the timestamp would be in the past, so it is now, with a grace of 1', 1, 5, { gone: false, at: 5, grace: 1, generation: 2 }],
    ['a shorter grace (10) that would also be past after 15 s: now, with a grace of 1', 10, 15, { gone: false, at: 15, grace: 1, generation: 2 }],
    ['--force --grace-period=0: removed at once', 0, 5, { gone: true }],
    // (BeforeDelete takes a negative grace as 1)
    ['a negative grace (-5): as 1, so now, with a grace of 1', -5, 5, { gone: false, at: 5, grace: 1, generation: 2 }],
  ];
  for (const [name, grace, after, want] of cases) {
    await t.test(name, async () => {
      const pod = `p${cases.findIndex((c) => c[0] === name)}`;
      await running(pod);
      const t0 = Math.floor(lab.clock.now() / sec) * sec;
      assert.deepEqual(await deleteAs(pod, 40, t0), { gone: false, at: 40, grace: 40, generation: 2 });
      await lab.clock.advanceAsync(after * sec);
      assert.deepEqual(await deleteAs(pod, grace, t0), want);
    });
  }
}));

test('the first DELETE of a pod (CheckGracefulDelete): a finished pod goes at once, a negative grace counts as 1', withLab(async (t) => {
  await t.test('a Succeeded pod, even with a grace given', async () => {
    lab.rt.programs.set('ok', { exitAfterMs: 0, exitCode: 0 });
    await running('done', { restartPolicy: 'Never', containers: [{ name: 'ok', image: 'busybox:1.35', command: ['true'] }] });
    await lab.clock.advanceAsync(2 * sec);
    assert.equal(stored('done')?.status?.phase, 'Succeeded');
    assert.deepEqual(await deleteAs('done', 30, lab.clock.now()), { gone: true });
  });
  await t.test('a Failed pod', async () => {
    lab.rt.programs.set('bad', { exitAfterMs: 0, exitCode: 1 });
    await running('failed', { restartPolicy: 'Never', containers: [{ name: 'bad', image: 'busybox:1.35', command: ['false'] }] });
    await lab.clock.advanceAsync(2 * sec);
    assert.equal(stored('failed')?.status?.phase, 'Failed');
    assert.deepEqual(await deleteAs('failed', undefined, lab.clock.now()), { gone: true });
  });
  await t.test('a running pod with a grace of -5', async () => {
    await running('neg');
    const t0 = Math.floor(lab.clock.now() / sec) * sec;
    assert.deepEqual(await deleteAs('neg', -5, t0), { gone: false, at: 1, grace: 1, generation: 2 });
  });
}));

test('a created pod starts Pending with its QoS class (PrepareForCreate), in the answer, the store and a dry run', withLab(async () => {
  const body = (name: string, resources: object) =>
    JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox:1.35', resources }] }, status: { phase: 'Running', qosClass: 'BestEffort' } });
  const guaranteed = { limits: { cpu: '100m', memory: '64Mi' } };
  const created = (await registry.create(RESOURCES.pods!, 'default', body('q', guaranteed), opts)).object as Pod;
  const dry = (await registry.create(RESOURCES.pods!, 'default', body('q-dry', { requests: { cpu: '100m' } }), { ...opts, dryRun: true })).object as Pod;
  const best = (await registry.create(RESOURCES.pods!, 'default', body('q-best', {}), opts)).object as Pod;
  assert.deepEqual(
    [created.status, stored('q')?.status?.qosClass, dry.status, best.status],
    [{ phase: 'Pending', qosClass: 'Guaranteed' }, 'Guaranteed', { phase: 'Pending', qosClass: 'Burstable' }, { phase: 'Pending', qosClass: 'BestEffort' }],
  );
}));

test('a status written without qosClass keeps the one the pod was created with (the status strategy backfills it)', withLab(async () => {
  await registry.create(RESOURCES.pods!, 'default', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 's' }, spec: { nodeName: 'elsewhere', containers: [{ name: 'app', image: 'busybox:1.35', resources: { limits: { cpu: '1', memory: '1Gi' } } }] } }), opts);
  const p = { ...structuredClone(stored('s')!), status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] } };
  await registry.update(RESOURCES.pods!, 'default', 's', JSON.stringify(p), { ...opts, sub: 'status' });
  assert.deepEqual(stored('s')?.status, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }], qosClass: 'Guaranteed' });
}));

// POST pods/eviction (pkg/registry/core/pod/storage/eviction.go). The lab has no
// PodDisruptionBudgets, so every eviction is allowed: the pod gets the DisruptionTarget condition
// (addConditionAndDeletePod), then is deleted with the eviction's deleteOptions.
test('an eviction: the DisruptionTarget condition, then a deletion with the eviction’s grace; a Status Success answer', withLab(async () => {
  await running('ev');
  const t0 = Math.floor(lab.clock.now() / sec) * sec;
  const answer = await registry.evict('default', 'ev', JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'ev', namespace: 'default' }, deleteOptions: { gracePeriodSeconds: 20 } }), false);
  const p = stored('ev');
  const target = p?.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
  assert.deepEqual(
    { answer, target, at: since(p?.metadata?.deletionTimestamp, t0), grace: p?.metadata?.deletionGracePeriodSeconds },
    {
      answer: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
      target: { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: new Date(t0).toISOString().replace('.000Z', 'Z'), reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' },
      at: 20,
      grace: 20,
    },
  );
  // the kubelet keeps a condition it does not own while it terminates the pod
  await lab.clock.advanceAsync(2 * sec);
  assert.equal(stored('ev')?.status?.conditions?.find((c) => c.type === 'DisruptionTarget')?.reason, 'EvictionByEvictionAPI');
}));

test('an eviction refused: another name in the body (400), no such pod (404); a dry run changes nothing', withLab(async () => {
  await running('keep');
  const evict = (name: string, body: object, dry = false) =>
    registry.evict('default', name, JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', ...body }), dry).then(
      () => 'evicted',
      (e: { code?: number; message?: string }) => `${e.code} ${e.message}`,
    );
  assert.deepEqual(
    [
      await evict('keep', { metadata: { name: 'other' } }),
      await evict('nope', { metadata: { name: 'nope' } }),
      await evict('keep', { metadata: { name: 'keep' } }, true),
      await evict('keep', { metadata: { name: 'keep' }, deleteOptions: { dryRun: ['All'] } }),
    ],
    ['400 name in URL does not match name in Eviction object', '404 pods "nope" not found', 'evicted', 'evicted'],
  );
  const p = stored('keep');
  assert.deepEqual({ deleting: p?.metadata?.deletionTimestamp, conditions: p?.status?.conditions?.map((c) => c.type).includes('DisruptionTarget') }, { deleting: undefined, conditions: false });
}));
