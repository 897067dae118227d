// A deletion's progress notification appears only when the deletion is slow: a quick one never
// flashes a toast (the Pods view and the panel already show the pod Terminating).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noticeWhileSlow } from '../../../src/extension/slow-notice.js';

/** A timer the test moves by hand. */
function manualTimer() {
  let now = 0;
  const due: { at: number; fn: () => void; id: number }[] = [];
  let next = 1;
  return {
    timer: {
      set: (fn: () => void, ms: number) => {
        const id = next++;
        due.push({ at: now + ms, fn, id });
        return id;
      },
      clear: (id: unknown) => {
        const i = due.findIndex((d) => d.id === id);
        if (i >= 0) due.splice(i, 1);
      },
    },
    advance: async (ms: number) => {
      now += ms;
      for (const d of due.filter((x) => x.at <= now)) {
        due.splice(due.indexOf(d), 1);
        d.fn();
      }
      await new Promise((r) => setImmediate(r));
    },
    pending: () => due.length,
  };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
}

test('a task done before the delay: no notice, its value, no timer left', async () => {
  const t = manualTimer();
  const task = deferred<string>();
  const shown: Promise<unknown>[] = [];
  const result = noticeWhileSlow(task.promise, 500, (until) => shown.push(until), t.timer);
  await t.advance(499);
  task.resolve('deleted');
  assert.equal(await result, 'deleted');
  await t.advance(1000);
  assert.deepEqual([shown.length, t.pending()], [0, 0]);
});

test('a task still running at the delay: one notice, which ends when the task does', async () => {
  const t = manualTimer();
  const task = deferred<string>();
  const shown: Promise<unknown>[] = [];
  const result = noticeWhileSlow(task.promise, 500, (until) => shown.push(until), t.timer);
  await t.advance(500);
  assert.equal(shown.length, 1);
  let ended = false;
  void shown[0]!.then(() => (ended = true));
  await t.advance(2000);
  assert.equal(ended, false, 'the notice stays while the task runs');
  task.resolve('deleted');
  assert.equal(await result, 'deleted');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual([ended, shown.length], [true, 1]);
});

test('a task that fails: its error, and a notice already shown ends (it does not fail)', async () => {
  const t = manualTimer();
  const task = deferred<string>();
  const shown: Promise<unknown>[] = [];
  const result = noticeWhileSlow(task.promise, 500, (until) => shown.push(until), t.timer);
  await t.advance(600);
  task.reject(new Error('pods "x" not found'));
  await assert.rejects(result, /pods "x" not found/);
  assert.equal(shown.length, 1);
  assert.equal(await shown[0], undefined);
});
