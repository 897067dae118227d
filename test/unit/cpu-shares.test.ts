// The e2e suite's CPU figure: shares of the time between two /proc/stat readings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuShares, cpuSharesText, cpuTicks } from '../support/cpu-shares.js';

const stat = (cpu: string) => `${cpu}\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 12345\n`;

const cases: [string, () => unknown, unknown][] = [
  ['the aggregate line is read, not a single CPU\'s', () => cpuTicks(stat('cpu  10 1 5 100 2 0 1 3 4 0')), [10, 1, 5, 100, 2, 0, 1, 3, 4, 0]],
  [
    'user takes nice, system takes irq and softirq; guest time is not counted twice',
    () => cpuShares(cpuTicks(stat('cpu  0 0 0 0 0 0 0 0 0 0')), cpuTicks(stat('cpu  30 10 15 20 5 3 2 15 7 0'))),
    { user: 40, system: 20, idle: 20, iowait: 5, stolen: 15 },
  ],
  ['as printed', () => cpuSharesText({ user: 40, system: 20, idle: 20, iowait: 5, stolen: 15 }), 'user 40 %, system 20 %, idle 20 %, iowait 5 %, stolen 15 %'],
  ['a counter that went backwards (iowait may) counts as none', () => cpuShares([0, 0, 0, 0, 9, 0, 0, 0], [10, 0, 0, 10, 4, 0, 0, 0]), { user: 50, system: 0, idle: 50, iowait: 0, stolen: 0 }],
  ['no time between the readings: all zero, not NaN', () => cpuShares([1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1]), { user: 0, system: 0, idle: 0, iowait: 0, stolen: 0 }],
];
for (const [name, actual, expected] of cases) test(name, () => assert.deepEqual(actual(), expected));

test('a text without the aggregate line is an error, not zeros', () => {
  assert.throws(() => cpuTicks('cpu0 1 2 3\n'), /no aggregate cpu line/);
});
