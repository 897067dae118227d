// The watch cache keeps a bounded history with previous objects, answers 410 Expired past it, and
// starts and filters watches as k8s.io/apiserver/pkg/storage/cacher does.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WatchEvent } from '../../../src/engine/api.js';
import { parseFieldSelector, parseLabelSelector } from '../../../src/server/selectors.js';
import { WatchCache, bookmark, filterEvent, nextBookmarkTime, parseResourceVersion, type CachedEvent, type OutEvent, type WatchFilter } from '../../../src/server/watch-cache.js';

type PodLike = { metadata: { name: string; namespace: string; resourceVersion: string; labels?: Record<string, string> }; status?: { phase: string } };
const pod = (name: string, rv: number, labels?: Record<string, string>, namespace = 'default'): PodLike => ({
  metadata: { name, namespace, resourceVersion: String(rv), ...(labels ? { labels } : {}) },
});
const ev = (type: 'ADDED' | 'MODIFIED' | 'DELETED', object: object): WatchEvent => ({ type, kind: 'Pod', object }) as WatchEvent;
const web: WatchFilter = { labelSelector: parseLabelSelector('app=web') };

const expired = (message: string) => ({
  error: 'Expired',
  inStream: true,
  status: { code: 410, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Expired', code: 410 } },
});
const invalidRV = (message: string) => ({
  error: 'InvalidResourceVersion',
  inStream: false,
  status: { code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 } },
});

describe('a filtered watcher sees an object enter, stay in and leave its selection (convertToWatchEvent)', () => {
  const cases: [string, WatchEvent, object | undefined, WatchFilter, OutEvent | undefined][] = [
    ['a new matching object is ADDED', ev('ADDED', pod('a', 5, { app: 'web' })), undefined, web, { type: 'ADDED', object: pod('a', 5, { app: 'web' }) }],
    ['a new object outside the selection is not sent', ev('ADDED', pod('a', 5, { app: 'db' })), undefined, web, undefined],
    ['an object whose labels now match enters: ADDED', ev('MODIFIED', pod('a', 6, { app: 'web' })), pod('a', 5, { app: 'db' }), web, { type: 'ADDED', object: pod('a', 6, { app: 'web' }) }],
    ['an object that matched before and after stays: MODIFIED', ev('MODIFIED', pod('a', 6, { app: 'web', v: '2' })), pod('a', 5, { app: 'web' }), web, { type: 'MODIFIED', object: pod('a', 6, { app: 'web', v: '2' }) }],
    [
      'an object that stops matching leaves: DELETED with its previous state at the new resourceVersion',
      ev('MODIFIED', pod('a', 6, { app: 'db' })),
      pod('a', 5, { app: 'web' }),
      web,
      { type: 'DELETED', object: pod('a', 6, { app: 'web' }) },
    ],
    ['an object outside the selection before and after is not sent', ev('MODIFIED', pod('a', 6, { app: 'db' })), pod('a', 5, { app: 'x' }), web, undefined],
    ['a matching object deleted is DELETED', ev('DELETED', pod('a', 7, { app: 'web' })), pod('a', 6, { app: 'web' }), web, { type: 'DELETED', object: pod('a', 7, { app: 'web' }) }],
    ['an object deleted outside the selection is not sent', ev('DELETED', pod('a', 7, { app: 'db' })), pod('a', 6, { app: 'db' }), web, undefined],
    ['a MODIFIED object the watcher never saw and that now matches is ADDED', ev('MODIFIED', pod('a', 6, { app: 'web' })), undefined, web, { type: 'ADDED', object: pod('a', 6, { app: 'web' }) }],
    ['the namespace is part of the filter', ev('ADDED', pod('a', 5, { app: 'web' }, 'other')), undefined, { namespace: 'default' }, undefined],
    [
      'a field selector makes a phase change enter the selection',
      ev('MODIFIED', { ...pod('a', 6), status: { phase: 'Running' } }),
      { ...pod('a', 5), status: { phase: 'Pending' } },
      { fieldSelector: parseFieldSelector('Pod', 'status.phase=Running') },
      { type: 'ADDED', object: { ...pod('a', 6), status: { phase: 'Running' } } },
    ],
    ['no filter passes everything through', ev('MODIFIED', pod('a', 6)), pod('a', 5), {}, { type: 'MODIFIED', object: pod('a', 6) }],
  ];
  for (const [behaviour, e, prev, filter, expected] of cases) {
    test(behaviour, () => assert.deepEqual(filterEvent(e, prev, filter), expected));
  }
});

test('record keeps each event with the object\'s previous state and hands it to subscribers', () => {
  const cache = new WatchCache();
  cache.seed('Pod', [], 0);
  const seen: CachedEvent[] = [];
  const sub = cache.subscribe((e) => seen.push(e));
  const returned = [
    cache.record(ev('ADDED', pod('a', 1))),
    cache.record(ev('MODIFIED', pod('a', 2, { app: 'web' }))),
    cache.record(ev('DELETED', pod('a', 3, { app: 'web' }))),
  ];
  sub.dispose();
  cache.record(ev('ADDED', pod('a', 4)));
  const expected: CachedEvent[] = [
    { type: 'ADDED', kind: 'Pod', object: pod('a', 1), resourceVersion: 1 },
    { type: 'MODIFIED', kind: 'Pod', object: pod('a', 2, { app: 'web' }), prevObject: pod('a', 1), resourceVersion: 2 },
    { type: 'DELETED', kind: 'Pod', object: pod('a', 3, { app: 'web' }), prevObject: pod('a', 2, { app: 'web' }), resourceVersion: 3 },
  ];
  assert.deepEqual({ returned, seen, size: cache.size('Pod'), rv: cache.resourceVersion() }, { returned: expected, seen: expected, size: 4, rv: 4 });
});

describe('since() returns the events after a resourceVersion, or 410 Expired past the history (getAllEventsSinceLocked)', () => {
  // Seeded at 10, capacity 3: after events 11..15 only 13, 14, 15 are kept; oldest = 13.
  const full = () => {
    const cache = new WatchCache(3);
    cache.seed('Pod', [], 10);
    for (let rv = 11; rv <= 15; rv++) cache.record(ev('ADDED', pod(`p${rv}`, rv)));
    return cache;
  };
  // Seeded at 10, one event kept, none dropped: oldest = 10 + 1.
  const fresh = () => {
    const cache = new WatchCache(3);
    cache.seed('Pod', [], 10);
    cache.record(ev('ADDED', pod('p11', 11)));
    return cache;
  };
  const rvs = (r: ReturnType<WatchCache['since']>) => ('events' in r ? { events: r.events.map((e) => e.resourceVersion) } : r);
  const cases: [string, () => WatchCache, string, unknown][] = [
    ['the resourceVersion just before the oldest kept event is served in full', full, '12', { events: [13, 14, 15] }],
    ['one older is expired, naming oldest-1', full, '11', expired('too old resource version: 11 (12)')],
    ['a resourceVersion inside the history gets the events strictly after it', full, '13', { events: [14, 15] }],
    ['the latest resourceVersion gets nothing yet', full, '15', { events: [] }],
    ['a resourceVersion from the future gets nothing', full, '99', { events: [] }],
    ['"0" reads as 0, which is too old once events were dropped', full, '0', expired('too old resource version: 0 (12)')],
    ['with nothing dropped the seed\'s resourceVersion is the boundary', fresh, '10', { events: [11] }],
    ['with nothing dropped one older than the seed is expired', fresh, '9', expired('too old resource version: 9 (10)')],
    ['a resourceVersion that is not a number is a 500 as ParseUint fails', full, 'abc', invalidRV('resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax')],
    ['a negative resourceVersion is invalid syntax', full, '-1', invalidRV('resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax')],
    [
      'a resourceVersion beyond uint64 is out of range',
      full,
      '18446744073709551616',
      invalidRV('resourceVersion: Invalid value: "18446744073709551616": strconv.ParseUint: parsing "18446744073709551616": value out of range'),
    ],
  ];
  for (const [behaviour, make, rv, expected] of cases) {
    test(behaviour, () => assert.deepEqual(rvs(make().since('Pod', rv)), expected));
  }
});

test('the history is bounded per kind and other kinds do not count against it', () => {
  const cache = new WatchCache(2);
  for (let rv = 1; rv <= 50; rv++) cache.record(ev('ADDED', pod(`p${rv}`, rv)));
  cache.record({ type: 'ADDED', kind: 'ConfigMap', object: { metadata: { name: 'c', namespace: 'default', resourceVersion: '51' } } } as WatchEvent);
  const pods = cache.since('Pod', '48');
  const cms = cache.since('ConfigMap', '0');
  assert.deepEqual(
    { podSize: cache.size('Pod'), cmSize: cache.size('ConfigMap'), pods: 'events' in pods ? pods.events.map((e) => e.resourceVersion) : pods, cms: 'events' in cms ? cms.events.map((e) => e.resourceVersion) : cms },
    { podSize: 2, cmSize: 1, pods: [49, 50], cms: [51] },
  );
});

test('a capacity that is not a positive integer is refused', () => {
  assert.throws(() => new WatchCache(0), { name: 'RangeError', message: 'watch cache capacity must be a positive integer, got 0' });
});

describe('a watch starts as the cacher starts it for each resourceVersion', () => {
  // History: seeded at 10 with b (web) and c (db); then 11: a added (web), 12: c enters web,
  // 13: b leaves web, 14: d added (db).
  const make = () => {
    const cache = new WatchCache();
    cache.seed('Pod', [pod('b', 9, { app: 'web' }), pod('c', 8, { app: 'db' })], 10);
    cache.record(ev('ADDED', pod('a', 11, { app: 'web' })));
    cache.record(ev('MODIFIED', pod('c', 12, { app: 'web' })));
    cache.record(ev('MODIFIED', pod('b', 13, { app: 'db' })));
    cache.record(ev('ADDED', pod('d', 14, { app: 'db' })));
    return cache;
  };
  // The current objects in store order (not sorted), as the server would list them.
  const current = [pod('d', 14, { app: 'db' }), pod('c', 12, { app: 'web' }), pod('b', 13, { app: 'db' }), pod('a', 11, { app: 'web' }), pod('z', 14, { app: 'web' }, 'kube-system')];
  const cases: [string, string, WatchFilter, { sendInitialEvents?: boolean; allowWatchBookmarks?: boolean }, unknown][] = [
    [
      'unset resourceVersion: a synthetic ADDED per matching object in key order, live after the current version',
      '',
      web,
      {},
      {
        events: [
          { type: 'ADDED', object: pod('a', 11, { app: 'web' }) },
          { type: 'ADDED', object: pod('c', 12, { app: 'web' }) },
          { type: 'ADDED', object: pod('z', 14, { app: 'web' }, 'kube-system') },
        ],
        after: 14,
      },
    ],
    [
      '"0" starts the same way',
      '0',
      { ...web, namespace: 'default' },
      {},
      {
        events: [
          { type: 'ADDED', object: pod('a', 11, { app: 'web' }) },
          { type: 'ADDED', object: pod('c', 12, { app: 'web' }) },
        ],
        after: 14,
      },
    ],
    [
      'a specific resourceVersion replays the history after it through the filter',
      '10',
      web,
      {},
      {
        events: [
          { type: 'ADDED', object: pod('a', 11, { app: 'web' }) },
          { type: 'ADDED', object: pod('c', 12, { app: 'web' }) },
          { type: 'DELETED', object: pod('b', 13, { app: 'web' }) },
        ],
        after: 13,
      },
    ],
    ['the latest resourceVersion starts with nothing', '14', web, {}, { events: [], after: 14 }],
    ['a resourceVersion from the future starts after itself', '20', web, {}, { events: [], after: 20 }],
    ['a resourceVersion older than the history is Expired, an ERROR event', '5', web, {}, expired('too old resource version: 5 (10)')],
    ['an unparsable resourceVersion fails the request', 'x', web, {}, invalidRV('resourceVersion: Invalid value: "x": strconv.ParseUint: parsing "x": invalid syntax')],
    [
      'sendInitialEvents=true sends the state and the initial-events-end bookmark',
      '12',
      { ...web, namespace: 'default' },
      { sendInitialEvents: true, allowWatchBookmarks: true },
      {
        events: [
          { type: 'ADDED', object: pod('a', 11, { app: 'web' }) },
          { type: 'ADDED', object: pod('c', 12, { app: 'web' }) },
          { type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '14', creationTimestamp: null, annotations: { 'k8s.io/initial-events-end': 'true' } }, spec: { containers: null }, status: {} } },
        ],
        after: 14,
      },
    ],
    ['sendInitialEvents=false with an unset resourceVersion starts from now', '', web, { sendInitialEvents: false }, { events: [], after: 14 }],
    [
      'sendInitialEvents=true with a resourceVersion newer than the cache is 504 Too large resource version',
      '20',
      web,
      { sendInitialEvents: true, allowWatchBookmarks: true },
      {
        error: 'TooLargeResourceVersion',
        inStream: true,
        status: {
          code: 504,
          body: {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message: 'Timeout: Too large resource version: 20, current: 14',
            reason: 'Timeout',
            details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
            code: 504,
          },
        },
      },
    ],
  ];
  for (const [behaviour, rv, filter, opts, expected] of cases) {
    test(behaviour, () => assert.deepEqual(make().initialEvents('Pod', rv, current, filter, opts), expected));
  }
});

describe('a BOOKMARK object is an empty object of the kind with only its resourceVersion', () => {
  const meta = { resourceVersion: '42', creationTimestamp: null };
  const cases: [string, Parameters<typeof bookmark>, object][] = [
    ['a Pod bookmark', ['Pod', '42'], { kind: 'Pod', apiVersion: 'v1', metadata: meta, spec: { containers: null }, status: {} }],
    ['a ConfigMap bookmark', ['ConfigMap', '42'], { kind: 'ConfigMap', apiVersion: 'v1', metadata: meta }],
    ['a Secret bookmark', ['Secret', '42'], { kind: 'Secret', apiVersion: 'v1', metadata: meta }],
    ['a Namespace bookmark', ['Namespace', '42'], { kind: 'Namespace', apiVersion: 'v1', metadata: meta, spec: {}, status: {} }],
    [
      'an Event bookmark',
      ['Event', '42'],
      { kind: 'Event', apiVersion: 'v1', metadata: meta, involvedObject: {}, source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '' },
    ],
    [
      'a Node bookmark',
      ['Node', '42'],
      {
        kind: 'Node',
        apiVersion: 'v1',
        metadata: meta,
        spec: {},
        status: {
          daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
          nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '' },
        },
      },
    ],
    [
      'the bookmark ending the initial events carries the annotation',
      ['ConfigMap', '42', { initialEventsEnd: true }],
      { kind: 'ConfigMap', apiVersion: 'v1', metadata: { ...meta, annotations: { 'k8s.io/initial-events-end': 'true' } } },
    ],
  ];
  for (const [behaviour, args, expected] of cases) {
    test(behaviour, () => assert.deepEqual(JSON.parse(JSON.stringify(bookmark(...args))), expected));
  }
});

describe('bookmarks come every minute, or 2 s before the deadline (nextBookmarkTime)', () => {
  const cases: [string, number, number | undefined, number | undefined][] = [
    ['without a deadline: a minute from now', 1_000, undefined, 61_000],
    ['a far deadline: a minute from now', 1_000, 600_000, 61_000],
    ['a near deadline: 2 s before it', 1_000, 30_000, 28_000],
    ['a deadline within 2 s: no more bookmarks', 1_000, 2_500, undefined],
  ];
  for (const [behaviour, now, deadline, expected] of cases) {
    test(behaviour, () => assert.equal(nextBookmarkTime(now, deadline), expected));
  }
});

describe('resourceVersions parse as APIObjectVersioner.ParseResourceVersion', () => {
  const cases: [string, string, unknown][] = [
    ['unset is 0', '', 0],
    ['"0" is 0', '0', 0],
    ['leading zeros are allowed', '007', 7],
    ['a sign is not', '+7', invalidRV('resourceVersion: Invalid value: "+7": strconv.ParseUint: parsing "+7": invalid syntax')],
  ];
  for (const [behaviour, rv, expected] of cases) {
    test(behaviour, () => assert.deepEqual(parseResourceVersion(rv), expected));
  }
});
