import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, goDuration } from '../../src/engine/kubelet/backoff.js';

const S = 1000;

test('crash-loop gaps double from 10s and are capped at 300s', () => {
  const b = new Backoff(10 * S, 300 * S);
  const seen: number[] = [];
  let t = 0;
  for (let i = 0; i < 8; i++) {
    b.next('k', t);
    seen.push(b.get('k') / S);
    t += b.get('k');
  }
  assert.deepEqual(seen, [10, 20, 40, 80, 160, 300, 300, 300]);
});

test('an entry idle for more than twice the cap starts again at the initial delay', () => {
  const b = new Backoff(10 * S, 300 * S);
  b.next('k', 0);
  b.next('k', 1 * S);
  assert.equal(b.get('k'), 20 * S);
  b.next('k', 1 * S + 600 * S + 1);
  assert.equal(b.get('k'), 10 * S);
});

const sinceCases = [
  { name: 'a container that finished 5s ago with a 10s delay is in back-off', finished: 0, now: 5 * S, want: true },
  { name: 'a container that finished exactly 10s ago with a 10s delay is not', finished: 0, now: 10 * S, want: false },
  { name: 'a key never seen is not in back-off', finished: 0, now: 1, want: false, fresh: true },
];
for (const c of sinceCases) {
  test(c.name, () => {
    const b = new Backoff(10 * S, 300 * S);
    if (!c.fresh) b.next('k', c.finished);
    assert.equal(b.isInBackOffSince('k', c.finished, c.now), c.want);
  });
}

test('image pull back-off is measured from the last update', () => {
  const b = new Backoff(10 * S, 300 * S);
  b.next('img', 100 * S);
  assert.equal(b.isInBackOffSinceUpdate('img', 105 * S), true);
  assert.equal(b.isInBackOffSinceUpdate('img', 110 * S), false);
});

const durations: [number, string][] = [
  [10 * S, '10s'],
  [80 * S, '1m20s'],
  [300 * S, '5m0s'],
  [1500, '1.5s'],
  [250, '250ms'],
  [3_723 * S, '1h2m3s'],
];
for (const [ms, want] of durations) {
  test(`Go formats ${ms} ms as ${want}`, () => assert.equal(goDuration(ms), want));
}
