// The kubelet's event correlator (client-go tools/record/events_cache.go): sequences of events in,
// the whole list of writes out (`new`/`patch` name count first-time message, or `dropped`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventCorrelator, type EventInput } from '../../src/engine/event-correlator.js';

const S = 1000;
const pod = (fieldPath?: string) => ({ apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', ...(fieldPath ? { fieldPath } : {}) });
const ev = (type: string, reason: string, message: string, fieldPath?: string, name = 'web'): EventInput => ({
  source: { component: 'kubelet', host: 'podlab-node' },
  involvedObject: { ...pod(fieldPath), name },
  type,
  reason,
  message,
});
const started = (c: string) => ev('Normal', 'Started', `Started container ${c}`, `spec.containers{${c}}`);
const created = (c: string) => ev('Normal', 'Created', `Created container: ${c}`, `spec.containers{${c}}`);
const backoff = ev('Warning', 'BackOff', 'Back-off restarting failed container app in pod web_default(u1)', 'spec.containers{app}');

/** 25 Normal events at 0 s, five containers' Started five times each: the Normal bucket spent. */
const normalBurst = Array.from({ length: 25 }, (_, i): [number, EventInput] => [0, started(`c${(i % 5) + 1}`)]);
const normalBurstWrites = [
  ...Array.from({ length: 5 }, (_, i) => `new web.n${i + 1} x1 first@0 spec.containers{c${i + 1}} Started container c${i + 1}`),
  ...Array.from({ length: 20 }, (_, i) => `patch web.n${(i % 5) + 1} x${Math.floor(i / 5) + 2} first@0 spec.containers{c${(i % 5) + 1}} Started container c${(i % 5) + 1}`),
];

/** Runs [time in s, event] pairs through one correlator; each write as a line. */
function run(steps: [number, EventInput][]): string[] {
  const c = new EventCorrelator();
  let n = 0;
  return steps.map(([t, e]) => {
    const r = c.correlate(e, t * S, `${e.involvedObject.name}.n${++n}`);
    if (r.skip) return 'dropped';
    return `${r.seen ? 'patch' : 'new'} ${r.name} x${r.count} first@${r.firstTimestamp / S} ${r.involvedObject.fieldPath ?? '-'} ${r.message}`;
  });
}

const cases: { name: string; steps: [number, EventInput][]; want: string[] }[] = [
  {
    name: 'a first event is new with count 1; the same event again patches it (count 2, the first time kept)',
    steps: [
      [0, backoff],
      [10, backoff],
    ],
    want: [
      'new web.n1 x1 first@0 spec.containers{app} Back-off restarting failed container app in pod web_default(u1)',
      'patch web.n1 x2 first@0 spec.containers{app} Back-off restarting failed container app in pod web_default(u1)',
    ],
  },
  {
    name: 'events that differ in message, field path or type are separate events',
    steps: [
      [0, started('a')],
      [1, started('b')],
      [2, ev('Warning', 'Started', 'Started container a', 'spec.containers{a}')],
    ],
    want: [
      'new web.n1 x1 first@0 spec.containers{a} Started container a',
      'new web.n2 x1 first@1 spec.containers{b} Started container b',
      'new web.n3 x1 first@2 spec.containers{a} Started container a',
    ],
  },
  {
    name: 'the tenth distinct message of one reason about one object within 10 minutes is a combined event, and the eleventh counts into it',
    steps: Array.from({ length: 11 }, (_, i): [number, EventInput] => [i, created(`c${i + 1}`)]),
    want: [
      ...Array.from({ length: 9 }, (_, i) => `new web.n${i + 1} x1 first@${i} spec.containers{c${i + 1}} Created container: c${i + 1}`),
      `new web.n10 x1 first@9 spec.containers{c10} (combined from similar events): Created container: c10`,
      `patch web.n10 x2 first@9 spec.containers{c11} (combined from similar events): Created container: c11`,
    ],
  },
  {
    name: 'after the combined event, a message still in the set of nine counts into its own event (upstream drops one arbitrary message, here the oldest)',
    steps: [...Array.from({ length: 10 }, (_, i): [number, EventInput] => [i, created(`c${i + 1}`)]), [10, created('c1')], [11, created('c5')]],
    want: [
      ...Array.from({ length: 9 }, (_, i) => `new web.n${i + 1} x1 first@${i} spec.containers{c${i + 1}} Created container: c${i + 1}`),
      `new web.n10 x1 first@9 spec.containers{c10} (combined from similar events): Created container: c10`,
      `patch web.n10 x2 first@9 spec.containers{c1} (combined from similar events): Created container: c1`,
      'patch web.n5 x2 first@4 spec.containers{c5} Created container: c5',
    ],
  },
  {
    name: 'more than 10 minutes without a similar event start the count of distinct messages afresh',
    steps: [...Array.from({ length: 9 }, (_, i): [number, EventInput] => [i, created(`c${i + 1}`)]), [609, created('c10')]],
    want: [
      ...Array.from({ length: 9 }, (_, i) => `new web.n${i + 1} x1 first@${i} spec.containers{c${i + 1}} Created container: c${i + 1}`),
      'new web.n10 x1 first@609 spec.containers{c10} Created container: c10',
    ],
  },
  {
    name: 'the 26th Warning about one object is dropped; five minutes later one goes through carrying every count',
    steps: [...Array.from({ length: 27 }, (_, i): [number, EventInput] => [i, backoff]), [326, backoff], [327, backoff]],
    want: [
      'new web.n1 x1 first@0 spec.containers{app} Back-off restarting failed container app in pod web_default(u1)',
      ...Array.from({ length: 24 }, (_, i) => `patch web.n1 x${i + 2} first@0 spec.containers{app} Back-off restarting failed container app in pod web_default(u1)`),
      'dropped',
      'dropped',
      'patch web.n1 x28 first@0 spec.containers{app} Back-off restarting failed container app in pod web_default(u1)',
      'dropped',
    ],
  },
  {
    name: 'Normal and Warning events have buckets of their own; containers of one pod share theirs',
    steps: [
      ...normalBurst,
      [0, created('c1')],
      [0, backoff],
      [0, ev('Normal', 'Started', 'Started container x', 'spec.containers{x}', 'other')],
    ],
    want: [
      ...normalBurstWrites,
      'dropped',
      'new web.n27 x1 first@0 spec.containers{app} Back-off restarting failed container app in pod web_default(u1)',
      'new other.n28 x1 first@0 spec.containers{x} Started container x',
    ],
  },
  {
    name: 'an event whose first occurrences were all dropped is written under the name it got first, with its whole count',
    steps: [...normalBurst, [1, created('late')], [2, created('late')], [301, created('late')]],
    want: [
      ...normalBurstWrites,
      'dropped',
      'dropped',
      'patch web.n26 x3 first@1 spec.containers{late} Created container: late',
    ],
  },
];

for (const c of cases) test(c.name, () => assert.deepEqual(run(c.steps), c.want));

test('combined events written in one millisecond (ten distinct messages of two reasons) are each written under a name of their own, without a reporting controller', async () => {
  const { Store } = await import('../../src/engine/store.js');
  const { FakeClock } = await import('../../src/engine/clock.js');
  const { EventRecorder } = await import('../../src/engine/events.js');
  const clock = new FakeClock();
  const store = new Store(clock);
  const rec = new EventRecorder(store, clock);
  const ref = pod();
  const kubelet = { component: 'kubelet' as const, host: 'podlab-node' };
  for (const reason of ['FailedMount', 'FailedAttachVolume']) {
    for (let i = 1; i <= 10; i++) rec.record(ref, 'Warning', reason, `${reason} ${i}`, kubelet);
  }
  const written = store
    .list('Event')
    .map((e) => `${e.reason} x${e.count} ${e.message} [${e.reportingComponent}/${e.reportingInstance}]`)
    .filter((m) => m.includes('FailedMount 1') || m.includes('combined'));
  assert.deepEqual(written, [
    // an event as the recorder makes it names its reporter; upstream's combined copy does not
    'FailedMount x1 FailedMount 1 [kubelet/podlab-node]',
    'FailedMount x1 (combined from similar events): FailedMount 10 [/]',
    'FailedAttachVolume x1 (combined from similar events): FailedAttachVolume 10 [/]',
  ]);
});
