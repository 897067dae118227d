// Engine.close while a pod worker's sync is in flight: the runtime call under way is finished, the
// sync starts nothing more, and close resolves only then, so whoever removes the lab's containers
// after close (the lab server's stop, a test's clean-up) finds every container the sync made.
// Before, the kubelet dropped its workers before waiting for them, and a sandbox and container
// made after close outlived the clean-up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settle } from '../../src/engine/clock.js';
import { fakeLab, podOf } from '../support/fake-engine.js';

test('close waits for the runtime call in flight, then the sync starts no container: nothing is made after close resolves', async () => {
  const lab = await fakeLab();
  const order: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const run = lab.rt.runPodSandbox.bind(lab.rt);
  lab.rt.runPodSandbox = async (...args) => {
    order.push('sandbox requested');
    await held;
    const id = await run(...args);
    order.push('sandbox made');
    return id;
  };
  await lab.engine.createPod(podOf({ containers: [{ name: 'app', command: ['sleep', '3600'] }] }));
  await settle();
  assert.deepEqual(order, ['sandbox requested']);
  const closed = lab.close().then(() => order.push('close resolved'));
  await settle();
  order.push('released');
  release();
  await closed;
  const started = lab.rt.calls.filter((c) => c.method === 'startContainer').map((c) => c.name);
  assert.deepEqual({ order, started }, { order: ['sandbox requested', 'released', 'sandbox made', 'close resolved'], started: [] });
});
