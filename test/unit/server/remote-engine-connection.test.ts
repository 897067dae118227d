// The lab server's client (RemoteEngine, what the extension and the CLI use) when the server goes
// away: a LabServer on the fake engine over real HTTPS, closed and started again on its port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadOrCreateCredentials } from '../../../src/server/credentials.js';
import { LabServer } from '../../../src/server/server.js';
import { LabConnection } from '../../../src/client/connection.js';
import { RemoteEngine } from '../../../src/client/remote-engine.js';
import { fakeLab, podOf } from '../../support/fake-engine.js';

/** Waits (real time) until `pred` holds, up to 10 s. */
async function until(pred: () => boolean, what: () => string): Promise<void> {
  for (let i = 0; i < 500 && !pred(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(pred(), what());
}

test('a lab server that goes away: the client says the connection is lost, keeps retrying, and has the pods again when a server answers', async () => {
  const lab = await fakeLab();
  const credentials = await loadOrCreateCredentials(lab.engine.settings.stateDir);
  const first = new LabServer({ engine: lab.engine, credentials, log: () => undefined });
  const port = await first.listen(0);
  const remote = await RemoteEngine.connect(
    new LabConnection({ server: `https://127.0.0.1:${port}`, ca: credentials.caPem, token: credentials.token }),
    { pid: process.pid, port, startedAt: Date.now(), kubeconfig: '', version: 'test', settings: { sandboxImage: 'pause', backoffInitialMs: 10_000, backoffMaxMs: 300_000, stepMode: false, nodes: [] } },
    lab.engine.settings.stateDir,
  );
  const seen: string[] = [];
  const sub = remote.onConnection((problem) => seen.push(problem ? `lost: ${(problem as { code?: string }).code} ${problem.message}` : 'back'));
  let second: LabServer | undefined;
  try {
    await first.close();
    // (A watch cut while the server closes may first report the reset.)
    await until(() => (remote.connectionProblem as { code?: string } | undefined)?.code === 'ECONNREFUSED', () => `connection states after the server closed: ${seen.join(', ')}`);
    // Away for a while (longer than one retry's pause)...
    await new Promise((r) => setTimeout(r, 1500));
    // Meanwhile a pod is made (as by the CLI against the next server): the client lists it when back.
    await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
    second = new LabServer({ engine: lab.engine, credentials, log: () => undefined });
    await second.listen(port);
    await until(() => seen.at(-1) === 'back', () => seen.join(', '));
    await until(() => remote.listPods().length === 1, () => `pods: ${remote.listPods().length}`);
    // The lab's own stream (pull progress, step-mode holds) is back too, however long the server was away.
    const held: string[] = [];
    const holds = remote.onStepWaiting((pod, container) => held.push(`${pod} ${container}`));
    // (A hold is an event, not a state: one made before the stream is back is not replayed, so
    // step-mode pods are made until one's hold arrives.)
    for (let i = 0; i < 20 && held.length === 0; i++) {
      await lab.engine.createPod(podOf({ initContainers: [{ name: 'setup' }], containers: [{ name: 'app' }] }, `q${i}`), { stepMode: true });
      await lab.clock.advanceAsync(1000);
      await new Promise((r) => setTimeout(r, 500));
    }
    holds.dispose();
    assert.deepEqual(
      { seen: seen.filter((x) => !x.startsWith('lost: ECONNRESET')), problem: remote.connectionProblem, hasP: remote.listPods().some((p) => p.metadata?.name === 'p'), held: held.slice(0, 1).map((h) => h.replace(/q\d+/, 'qN')) },
      { seen: [`lost: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:${port}`, 'back'], problem: undefined, hasP: true, held: ['default/qN setup'] },
    );
  } finally {
    sub.dispose();
    await remote.close();
    await second?.close();
    await lab.close();
  }
});
