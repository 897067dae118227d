// The live timeline's axis grows in steps: its span holds between updates, and what is drawn fills
// at least 75 % of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveSpan } from '../../webview/timeline.js';

for (const [name, needed, want] of [
  ['nothing yet: one second', 0, 1000],
  ['under a second: one second', 640, 1000],
  ['exactly a step: that step', 1000, 1000],
  ['just past one second: 1.2 s', 1001, 1200],
  ['1.3 s: 1.5 s', 1300, 1500],
  ['3.1 s: 4 s', 3100, 4000],
  ['8.01 s: the next decade, 10 s', 8010, 10_000],
  ['47 s: 50 s', 47_000, 50_000],
  ['61 s: 80 s', 61_000, 80_000],
  ['an hour and two minutes: 4,000 s', 3_720_000, 4_000_000],
] as const) {
  test(`live span: ${name}`, () => assert.equal(liveSpan(needed), want));
}

test('live span: every span from 1 s to 3 h holds what it must show and is filled at least 75 %', () => {
  const short: string[] = [];
  for (let needed = 1001; needed < 3 * 3_600_000; needed = Math.ceil(needed * 1.013)) {
    const span = liveSpan(needed);
    if (span < needed || needed / span < 0.75) short.push(`${needed} ms → ${span} ms`);
  }
  assert.deepEqual(short, []);
});
