// The lab API's poddebugs watch over real HTTPS: a LabServer on the fake engine (fake runtime,
// fake clock) and the client's RemoteEngine.watchDebug, which the extension's panel uses instead
// of polling. The remote watch must deliver exactly what the engine's own watch delivers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodDebugInfo } from '../../../src/engine/api.js';
import { loadOrCreateCredentials } from '../../../src/server/credentials.js';
import { LabServer } from '../../../src/server/server.js';
import { LabConnection } from '../../../src/client/connection.js';
import { RemoteEngine } from '../../../src/client/remote-engine.js';
import { fakeLab, podOf } from '../../support/fake-engine.js';

const sec = 1000;

let t0 = 0;
function summary(d: PodDebugInfo | undefined): string {
  if (!d) return 'gone';
  const sandboxes = d.sandboxes.map((x) => `[${x.state}]`).join('');
  const attempts = d.attempts.map((a) => `${a.containerName}#${a.attempt}:${a.state}${a.exitCode !== undefined ? `/${a.exitCode}` : ''}`).join(' ');
  const backoff = Object.entries(d.backoff).map(([n, b]) => ` back-off ${n} ${b.delayMs / 1000}s until ${(b.until - t0) / 1000}s`).join('');
  return `${sandboxes} ${attempts || 'no attempts'}${backoff}${d.stepWaitingFor ? ` waiting for ${d.stepWaitingFor}` : ''}`;
}

async function labWithServer() {
  const lab = await fakeLab();
  const credentials = await loadOrCreateCredentials(lab.engine.settings.stateDir);
  const server = new LabServer({ engine: lab.engine, credentials, log: () => undefined });
  const port = await server.listen(0);
  const conn = new LabConnection({ server: `https://127.0.0.1:${port}`, ca: credentials.caPem, token: credentials.token });
  const remote = await RemoteEngine.connect(
    conn,
    { pid: process.pid, port, startedAt: Date.now(), kubeconfig: '', version: 'test', settings: { sandboxImage: 'pause', backoffInitialMs: 10_000, backoffMaxMs: 300_000, stepMode: false, nodes: [] } },
    lab.engine.settings.stateDir,
  );
  return {
    lab,
    conn,
    remote,
    async close() {
      await remote.close();
      await server.close();
      await lab.close();
    },
  };
}

/** Waits (real time) until `pred` holds, up to 5 s. */
async function until(pred: () => boolean, what: () => string): Promise<void> {
  for (let i = 0; i < 250 && !pred(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(pred(), what());
}

test('the poddebugs watch delivers to a client exactly what the engine delivers: a crash loop, its deletion, a new pod of the name', async () => {
  const t = await labWithServer();
  const { lab, remote } = t;
  t0 = lab.clock.now();
  lab.rt.programs.set('app', { exitAfterMs: 0, exitCode: 1 });
  const local: string[] = [];
  const far: string[] = [];
  const subs = [lab.engine.watchDebug('default', 'p', (d) => local.push(summary(d))), remote.watchDebug('default', 'p', (d) => far.push(summary(d)))];
  await until(() => far.length === 1, () => far.join(' | '));
  await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(12 * sec);
  await until(() => far.length === local.length, () => `${far.join(' | ')} vs ${local.join(' | ')}`);
  const gone = lab.engine.deletePod('default', 'p', 0);
  await lab.clock.advanceAsync(3 * sec);
  await gone;
  lab.rt.programs.set('other', { exitAfterMs: 60_000, exitCode: 0 });
  await lab.engine.createPod(podOf({ containers: [{ name: 'other' }] }));
  await lab.clock.advanceAsync(1 * sec);
  await until(() => far.length === local.length && far[far.length - 1] === local[local.length - 1], () => `${far.join(' | ')} vs ${local.join(' | ')}`);
  for (const s of subs) s.dispose();
  assert.deepEqual(far, local);
  // Each container instance as it is created, started and exits; the back-off timers as the
  // kubelet sets them (restart at once, then 10 s after the exit, then 20 s).
  assert.deepEqual(local, [
    'gone',
    ' no attempts',
    '[ready] no attempts',
    '[ready] app#0:running',
    '[ready] app#0:exited/1',
    '[ready] app#0:exited/1 app#1:created',
    '[ready] app#0:exited/1 app#1:running',
    '[ready] app#0:exited/1 app#1:exited/1',
    '[ready] app#0:exited/1 app#1:exited/1 back-off app 10s until 10s',
    '[ready] app#0:exited/1 app#1:exited/1 app#2:created',
    '[ready] app#0:exited/1 app#1:exited/1 app#2:running',
    '[ready] app#0:exited/1 app#1:exited/1 app#2:exited/1',
    '[ready] app#0:exited/1 app#1:exited/1 app#2:exited/1 back-off app 20s until 30s',
    'gone',
    ' no attempts',
    '[ready] no attempts',
    '[ready] other#0:running',
  ]);
  await t.close();
});

test('a poddebugs watch without a pod name is refused with the reason', async () => {
  const t = await labWithServer();
  await assert.rejects(t.conn.request('GET', '/apis/lab.podlab.dev/v1alpha1/namespaces/default/poddebugs?watch=true'), {
    name: 'ApiStatusError',
    code: 400,
    message: 'watching poddebugs needs fieldSelector=metadata.name=<pod>, got ""',
  });
  await assert.rejects(t.conn.request('GET', '/apis/lab.podlab.dev/v1alpha1/namespaces/default/poddebugs'), {
    name: 'ApiStatusError',
    code: 400,
    message: 'poddebugs are read one pod at a time (GET .../poddebugs/NAME) or watched (?watch=true&fieldSelector=metadata.name=NAME)',
  });
  await t.close();
});

test("an attempt's logs through the API: as the runtime keeps them, with its timestamps only when asked (kubectl logs --timestamps)", async () => {
  const t = await labWithServer();
  const { lab, remote } = t;
  try {
    lab.rt.programs.set('app', { exitAfterMs: 0, exitCode: 1, logs: ['2026-11-23T10:00:00.000000001Z checking db', '2026-11-23T10:00:01.000000001Z cannot reach db'] });
    await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
    await lab.clock.advanceAsync(1 * sec);
    const id = (await lab.engine.debugInfo('default', 'p'))!.attempts[0]!.id;
    assert.deepEqual(
      { plain: await remote.attemptLogs(id), stamped: await remote.attemptLogs(id, undefined, true), last: await remote.attemptLogs(id, 1, true) },
      {
        plain: ['checking db', 'cannot reach db'],
        stamped: ['2026-11-23T10:00:00.000000001Z checking db', '2026-11-23T10:00:01.000000001Z cannot reach db'],
        last: ['2026-11-23T10:00:01.000000001Z cannot reach db'],
      },
    );
  } finally {
    await t.close();
  }
});
