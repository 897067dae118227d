// Readiness gates (pkg/kubelet/kubelet.go HandlePodReconcile, status.NeedToReconcilePodReadiness):
// a client sets a gate's condition through the status subresource, and the kubelet, seeing the
// pod's Ready condition disagree with its gates, syncs the pod at once, not at the next resync.
// The Registry over an engine on the fake runtime and the fake clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import { fakeRegistry } from '../support/fake-engine.js';
import { RESOURCES } from '../../src/server/resources.js';

const opts = { fieldValidation: 'Strict' as const, dryRun: false };

test('a readiness gate set True through the status subresource makes the pod Ready within the same second; set False, not Ready again', async () => {
  const { lab, registry } = await fakeRegistry();
  const stored = () => registry.get(RESOURCES.pods!, 'default', 'g') as Pod;
  const ready = () => {
    const c = stored().status?.conditions?.find((x) => x.type === 'Ready');
    return `${c?.status} ${c?.reason ?? ''}`.trim();
  };
  const setGate = async (status: 'True' | 'False') => {
    const p = structuredClone(stored());
    const others = (p.status?.conditions ?? []).filter((c) => c.type !== 'example.com/ready');
    const gate: PodCondition = { type: 'example.com/ready', status, lastTransitionTime: new Date(lab.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z') };
    await registry.update(RESOURCES.pods!, 'default', 'g', JSON.stringify({ ...p, status: { ...p.status, conditions: [...others, gate] } }), { ...opts, sub: 'status' });
  };
  await registry.create(
    RESOURCES.pods!,
    'default',
    JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'g' }, spec: { readinessGates: [{ conditionType: 'example.com/ready' }], containers: [{ name: 'app', image: 'busybox:1.35', command: ['sleep', '3600'] }] } }),
    opts,
  );
  await lab.clock.advanceAsync(2000);
  const seen = [ready()];
  await setGate('True');
  // (well before the lab's 10 s resync)
  await lab.clock.advanceAsync(100);
  seen.push(ready());
  await setGate('False');
  await lab.clock.advanceAsync(100);
  seen.push(ready());
  assert.deepEqual(seen, ['False ReadinessGatesNotReady', 'True', 'False ReadinessGatesNotReady']);
  await lab.close();
});
