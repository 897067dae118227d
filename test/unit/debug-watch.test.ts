// The engine's debug watch (engine.watchDebug, served as a watch of the lab API's poddebugs): the
// lab's view of a pod beyond its status (every attempt, back-off timers, step mode's waiting init
// container, probe and hook runs) delivered as it changes, on the fake runtime and fake clock.
// Nothing polls: every delivery below comes from a kubelet change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodDebugInfo } from '../../src/engine/api.js';
import { fakeLab, podOf } from '../support/fake-engine.js';

const sec = 1000;

/** One delivery in a line: attempts per container, back-off delays, step wait, probe runs, hook runs. */
function summary(d: PodDebugInfo | undefined): string {
  if (!d) return 'gone';
  const attempts = new Map<string, number>();
  for (const a of d.attempts) attempts.set(a.containerName, (attempts.get(a.containerName) ?? 0) + 1);
  const parts = [[...attempts].map(([n, k]) => `${n}×${k}`).join(' ') || 'no attempts'];
  const backoff = Object.entries(d.backoff).map(([n, b]) => `${n} ${b.delayMs / 1000}s`);
  if (backoff.length) parts.push(`back-off ${backoff.join(' ')}`);
  if (d.stepWaitingFor) parts.push(`waiting for ${d.stepWaitingFor}`);
  const runs = (d.probes ?? []).reduce((n, p) => n + p.runs.length, 0);
  if (runs) parts.push(`${runs} probe runs`);
  if (d.hooks?.length) parts.push(`${d.hooks.length} hook runs`);
  return parts.join(', ');
}

/** Distinct deliveries in order (a change the summary does not show, like a new timestamp, is folded). */
function collect(lab: Awaited<ReturnType<typeof fakeLab>>, name = 'p') {
  const seen: string[] = [];
  const sub = lab.engine.watchDebug('default', name, (d) => {
    const s = summary(d);
    if (seen[seen.length - 1] !== s) seen.push(s);
  });
  return { seen, dispose: () => sub.dispose() };
}

test('a debug watch gives the current state at once and then every restart and back-off timer of a crash loop', async () => {
  const lab = await fakeLab();
  lab.rt.programs.set('app', { exitAfterMs: 0, exitCode: 1 });
  const w = collect(lab);
  await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(35 * sec);
  w.dispose();
  assert.deepEqual(w.seen, [
    'gone',
    'no attempts',
    'app×1',
    'app×2',
    'app×2, back-off app 10s',
    'app×3',
    'app×3, back-off app 20s',
    'app×4',
    'app×4, back-off app 40s',
  ]);
  await lab.close();
});

test('a debug watch shows step mode holding each init container and letting it go after Continue', async () => {
  const lab = await fakeLab();
  for (const n of ['one', 'two']) lab.rt.programs.set(n, { exitAfterMs: 0, exitCode: 0 });
  const w = collect(lab);
  await lab.engine.createPod(podOf({ initContainers: [{ name: 'one' }, { name: 'two' }], containers: [{ name: 'app', command: ['sleep', '3600'] }] }), { stepMode: true });
  await lab.clock.advanceAsync(1 * sec);
  lab.engine.continueStep('default', 'p');
  await lab.clock.advanceAsync(1 * sec);
  lab.engine.continueStep('default', 'p');
  await lab.clock.advanceAsync(1 * sec);
  w.dispose();
  assert.deepEqual(w.seen, ['gone', 'no attempts', 'no attempts, waiting for one', 'one×1', 'one×1, waiting for two', 'one×1 two×1', 'one×1 two×1 app×1']);
  await lab.close();
});

test('every probe run and hook run reaches a debug watch, though neither changes the pod', async () => {
  const lab = await fakeLab();
  lab.rt.execHandler = (_n, cmd) => (cmd[0] === 'check' ? { exitCode: 1, stdout: 'not yet\n', stderr: '' } : { exitCode: 0, stdout: '', stderr: '' });
  const w = collect(lab);
  await lab.engine.createPod(
    podOf({ containers: [{ name: 'app', command: ['sleep', '3600'], readinessProbe: { exec: { command: ['check'] }, periodSeconds: 2 }, lifecycle: { postStart: { exec: { command: ['true'] } } } }] }),
  );
  await lab.clock.advanceAsync(7 * sec);
  w.dispose();
  assert.deepEqual(w.seen, [
    'gone',
    'no attempts',
    // the start and the hook run come in one read (the fake runtime answers at once)
    'app×1, 1 hook runs',
    // at start, once more on the pod sync (readiness's manual trigger), then every 2 s
    'app×1, 1 probe runs, 1 hook runs',
    'app×1, 2 probe runs, 1 hook runs',
    'app×1, 3 probe runs, 1 hook runs',
    'app×1, 4 probe runs, 1 hook runs',
    'app×1, 5 probe runs, 1 hook runs',
  ]);
  await lab.close();
});

test('a debug watch says when its pod is deleted and follows a new pod of the same name', async () => {
  const lab = await fakeLab();
  const w = collect(lab);
  await lab.engine.createPod(podOf({ containers: [{ name: 'app', command: ['sleep', '3600'] }] }));
  await lab.clock.advanceAsync(1 * sec);
  const gone = lab.engine.deletePod('default', 'p', 0);
  await lab.clock.advanceAsync(3 * sec);
  await gone;
  await lab.engine.createPod(podOf({ containers: [{ name: 'other', command: ['sleep', '3600'] }] }));
  await lab.clock.advanceAsync(1 * sec);
  w.dispose();
  assert.deepEqual(w.seen, ['gone', 'no attempts', 'app×1', 'gone', 'no attempts', 'other×1']);
  await lab.close();
});

test('after Restart now fails again, the back-off shown (delay, end) agrees with the status message and the next restart', async () => {
  const lab = await fakeLab();
  lab.rt.programs.set('app', { exitAfterMs: 0, exitCode: 1 });
  await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(15 * sec); // starts at 0, 0 and 10 s: now in a 20 s back-off
  lab.engine.restartNow('default', 'p', 'app');
  await lab.clock.advanceAsync(1 * sec); // restarted at once, failed again: a 40 s back-off
  const info = await lab.engine.debugInfo('default', 'p');
  const last = info!.attempts[info!.attempts.length - 1]!;
  const message = lab.pod()?.status?.containerStatuses?.[0]?.state?.waiting?.message;
  const t = lab.clock.now();
  await lab.clock.advanceAsync(45 * sec);
  const next = lab.rt.trace(['startContainer'], t);
  assert.deepEqual(
    { backoff: info!.backoff, message, next },
    {
      backoff: { app: { delayMs: 40_000, until: last.finishedAt! + 40_000 } },
      message: `back-off 40s restarting failed container=app pod=p_default(${info!.uid})`,
      // the worker wakes 5 ms after the end, so the back-off has surely passed
      next: [`startContainer app @${last.finishedAt! + 40_000 - t + 5}`],
    },
  );
  await lab.close();
});

test('step mode keeps each wait it held, from its start until Continue, so the panel can draw it after the pod went on', async () => {
  const lab = await fakeLab();
  for (const n of ['one', 'two']) lab.rt.programs.set(n, { exitAfterMs: 0, exitCode: 0 });
  await lab.engine.createPod(podOf({ initContainers: [{ name: 'one' }, { name: 'two' }], containers: [{ name: 'app', command: ['sleep', '3600'] }] }), { stepMode: true });
  await lab.clock.advanceAsync(2 * sec);
  lab.engine.continueStep('default', 'p');
  await lab.clock.advanceAsync(3 * sec);
  const waiting = (await lab.engine.debugInfo('default', 'p'))?.stepWaits;
  lab.engine.continueStep('default', 'p');
  await lab.clock.advanceAsync(1 * sec);
  const done = (await lab.engine.debugInfo('default', 'p'))?.stepWaits;
  const rel = (ws: typeof done) => ws?.map((w) => ({ container: w.container, from: w.from - lab.t0, ...(w.until !== undefined ? { until: w.until - lab.t0 } : {}) }));
  assert.deepEqual(
    { waiting: rel(waiting), done: rel(done) },
    {
      waiting: [{ container: 'one', from: 0, until: 2000 }, { container: 'two', from: 2000 }],
      done: [{ container: 'one', from: 0, until: 2000 }, { container: 'two', from: 2000, until: 5000 }],
    },
  );
  await lab.close();
});
