// The lifecycle panel's logs pane as a log viewer (issue 9 §2), host and webview sides without I/O:
// the host's batching of followed log streams into `logChunk`s (LogChunks, src/extension/panel/feed.ts),
// the webview's line buffer, filter and texts (webview/format.ts), the protocol guards of the new
// messages, and the latency fix (an engine event from before the webview was ready is no sample).
// Upstream counterpart: `kubectl logs -f --tail --timestamps` (staging/src/k8s.io/kubectl/pkg/cmd/logs)
// over the kubelet's log streaming (pkg/kubelet/kuberuntime/logs/logs.go).
import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import type { Pod } from 'kubernetes-types/core/v1';
import type { WatchEvent } from '../../src/engine/api.js';
import { LogChunks, PanelFeed, type Latency } from '../../src/extension/panel/feed.js';
import { isHostToWebview, isWebviewToHost, type LogChunkMessage, type StateView } from '../../src/shared/protocol.js';
import { LOG_LINE_CAP, appendLogLines, defaultLogsContainer, droppedText, filterLogLines, logCountText, matchSegments, streamEndText, type LogBuffer } from '../../webview/format.js';

// ---------------------------------------------------------------------------------------------
// Host: batching followed logs.

type ChunkStep =
  | { open: true }
  | { push: [number, string] }
  | { end: number }
  | { replied: number }
  | { close: number }
  | { take: true };

/** Runs the steps; returns what every step gave (ids, booleans, chunks) and the open streams after. */
function runChunks(steps: ChunkStep[]): { results: unknown[]; open: number[]; pending: boolean } {
  const c = new LogChunks();
  const results: unknown[] = [];
  for (const s of steps) {
    if ('open' in s) results.push(c.open());
    else if ('push' in s) results.push(c.push(...s.push));
    else if ('end' in s) results.push(c.end(s.end));
    else if ('replied' in s) results.push(c.replied(s.replied));
    else if ('close' in s) results.push(c.close(s.close));
    else results.push(c.take());
  }
  return { results, open: c.ids, pending: c.pending };
}

const chunk = (stream: number, lines: string[], ended?: true): LogChunkMessage =>
  ended ? { type: 'logChunk', stream, lines, ended } : { type: 'logChunk', stream, lines };

describe('the host batches followed log lines into chunks', () => {
  const cases: [string, ChunkStep[], ReturnType<typeof runChunks>][] = [
    [
      'streams are numbered 1, 2, 3 in the order they are opened',
      [{ open: true }, { open: true }, { open: true }],
      { results: [1, 2, 3], open: [1, 2, 3], pending: false },
    ],
    [
      'lines wait for the reply: no chunk goes out before the webview knows the stream id',
      [{ open: true }, { push: [1, 'a'] }, { push: [1, 'b'] }, { take: true }],
      { results: [1, true, true, []], open: [1], pending: false },
    ],
    [
      'after the reply every line pushed since the last take goes out as one chunk, in order',
      [{ open: true }, { push: [1, 'a'] }, { replied: 1 }, { push: [1, 'b'] }, { push: [1, 'c'] }, { take: true }, { take: true }],
      { results: [1, true, undefined, true, true, [chunk(1, ['a', 'b', 'c'])], []], open: [1], pending: false },
    ],
    [
      'the end goes out with the last lines, once, and the stream is forgotten',
      [{ open: true }, { replied: 1 }, { push: [1, 'bye'] }, { end: 1 }, { end: 1 }, { push: [1, 'late'] }, { take: true }, { take: true }],
      { results: [1, undefined, true, true, false, false, [chunk(1, ['bye'], true)], []], open: [], pending: false },
    ],
    [
      'a stream that ends before its reply (a finished container) says so once the reply went out',
      [{ open: true }, { push: [1, 'done'] }, { end: 1 }, { take: true }, { replied: 1 }, { take: true }],
      { results: [1, true, true, [], undefined, [chunk(1, ['done'], true)]], open: [], pending: false },
    ],
    [
      'a closed stream (stopLogs, pod switch, reload) takes no more lines and posts nothing',
      [{ open: true }, { replied: 1 }, { push: [1, 'a'] }, { close: 1 }, { push: [1, 'b'] }, { end: 1 }, { take: true }, { close: 1 }],
      { results: [1, undefined, true, true, false, false, [], false], open: [], pending: false },
    ],
    [
      'two streams get a chunk each; a stream without new lines gets none',
      [{ open: true }, { open: true }, { open: true }, { replied: 1 }, { replied: 2 }, { replied: 3 }, { push: [3, 'x'] }, { push: [1, 'y'] }, { take: true }],
      { results: [1, 2, 3, undefined, undefined, undefined, true, true, [chunk(1, ['y']), chunk(3, ['x'])]], open: [1, 2, 3], pending: false },
    ],
    [
      'pending says whether a take would post something',
      [{ open: true }, { replied: 1 }, { push: [1, 'a'] }],
      { results: [1, undefined, true], open: [1], pending: true },
    ],
  ];
  for (const [name, steps, want] of cases) test(name, () => assert.deepEqual(runChunks(steps), want));
});

// ---------------------------------------------------------------------------------------------
// Webview: the line buffer, the filter and what the pane says.

describe('the webview keeps at most the last 5,000 lines', () => {
  const nums = (from: number, n: number) => Array.from({ length: n }, (_, i) => `line ${from + i}`);
  const cases: [string, LogBuffer, string[], number, LogBuffer][] = [
    ['a chunk is appended after the lines kept', { lines: ['a'], dropped: 0 }, ['b', 'c'], 5, { lines: ['a', 'b', 'c'], dropped: 0 }],
    ['an empty chunk changes nothing', { lines: ['a'], dropped: 2 }, [], 5, { lines: ['a'], dropped: 2 }],
    ['past the cap the oldest lines go and are counted', { lines: ['a', 'b', 'c', 'd'], dropped: 0 }, ['e', 'f', 'g'], 5, { lines: ['c', 'd', 'e', 'f', 'g'], dropped: 2 }],
    ['a chunk larger than the cap keeps its own last lines', { lines: ['a'], dropped: 1 }, ['b', 'c', 'd'], 2, { lines: ['c', 'd'], dropped: 3 }],
    ['exactly the cap drops nothing', { lines: [], dropped: 0 }, ['a', 'b'], 2, { lines: ['a', 'b'], dropped: 0 }],
  ];
  for (const [name, buf, lines, cap, want] of cases) test(name, () => assert.deepEqual(appendLogLines(buf, lines, cap), want));
  test('the default cap is 5,000: 5,003 lines keep lines 4 to 5,003 and count 3 dropped', () =>
    assert.deepEqual(appendLogLines({ lines: nums(1, 5000), dropped: 0 }, nums(5001, 3)), { lines: nums(4, 5000), dropped: 3 }));
  test('the chunk passed in is not changed', () => {
    const chunkLines = ['a', 'b', 'c'];
    appendLogLines({ lines: [], dropped: 0 }, chunkLines, 2);
    assert.deepEqual(chunkLines, ['a', 'b', 'c']);
  });
  test('LOG_LINE_CAP is 5000', () => assert.equal(LOG_LINE_CAP, 5000));
});

describe('the filter: a case-insensitive substring', () => {
  const lines = ['GET /health 200', 'ERROR cannot reach db', 'get /api 500', 'warning: slow', ''];
  const cases: [string, string, string[]][] = [
    ['an empty filter shows every line', '', lines],
    ['matches ignore case', 'get', ['GET /health 200', 'get /api 500']],
    ['a substring anywhere in the line matches', 'reach', ['ERROR cannot reach db']],
    ['spaces are part of the text', 'api 5', ['get /api 500']],
    ['regular expression characters are plain text', '/.*', []],
    ['nothing matches: no line', 'timeout', []],
  ];
  for (const [name, q, want] of cases) test(name, () => assert.deepEqual(filterLogLines(lines, q), want));
});

describe("the filter's matches, highlighted: a line cut into plain and matching pieces", () => {
  const cases: [string, string, string, [string, boolean][]][] = [
    ['an empty filter: the line as it is', 'GET /health', '', [['GET /health', false]]],
    ["a match keeps the line's own case", 'ERROR: an error', 'err', [['ERR', true], ['OR: an ', false], ['err', true], ['or', false]]],
    ['a match at the end', 'GET /api 500', '500', [['GET /api ', false], ['500', true]]],
    ['the whole line', 'abc', 'ABC', [['abc', true]]],
    ['matches do not overlap: aaa in aaaa is one', 'aaaa', 'aaa', [['aaa', true], ['a', false]]],
    ['regular expression characters are plain text', 'a.*b a.*b', '.*', [['a', false], ['.*', true], ['b a', false], ['.*', true], ['b', false]]],
    ['no match: the line as it is', 'warning: slow', 'timeout', [['warning: slow', false]]],
  ];
  for (const [name, line, q, want] of cases) test(name, () => assert.deepEqual(matchSegments(line, q), want.map(([text, match]) => ({ text, match }))));
});

describe('what the logs pane says', () => {
  const terminated = (exitCode: number, reason: string): Extract<StateView, { kind: 'terminated' }> => ({
    kind: 'terminated',
    reason,
    message: '',
    exitCode,
    containerId: 'docker://abc',
  });
  const cases: [string, string, string][] = [
    ['the filter count says N of M lines', logCountText(3, 120), '3 of 120 lines'],
    ['the filter count of a one-line log', logCountText(0, 1), '0 of 1 line'],
    ['dropped lines are counted with the cap', droppedText(1234), '1234 older lines dropped: the viewer keeps the last 5000.'],
    ['one dropped line', droppedText(1, 10), '1 older line dropped: the viewer keeps the last 10.'],
    ['a stream that ended with the container: its exit code and reason', streamEndText(terminated(3, 'Error')), 'The container finished (exit code 3, Error): the log stream ended.'],
    ['an exit without a reason', streamEndText(terminated(0, '')), 'The container finished (exit code 0): the log stream ended.'],
    ['an end whose exit the panel does not know yet', streamEndText(undefined), 'The log stream ended: the container is no longer running.'],
  ];
  for (const [name, got, want] of cases) test(name, () => assert.equal(got, want));
});

// ---------------------------------------------------------------------------------------------
// Protocol guards of the new messages.

describe('message guards for followed logs', () => {
  const toHost: [string, unknown, boolean][] = [
    ['a followLogs request for the current instance', { type: 'request', id: 1, body: { kind: 'followLogs', container: 'app', attempt: { which: 'current' }, timestamps: false, tail: 5000 } }, true],
    ['a followLogs request for the previous instance with timestamps', { type: 'request', id: 1, body: { kind: 'followLogs', container: 'app', attempt: { which: 'previous' }, timestamps: true, tail: 0 } }, true],
    ['a followLogs request of an attempt by id (one-shot reads only)', { type: 'request', id: 1, body: { kind: 'followLogs', container: 'app', attempt: { which: 'id', containerId: 'x' }, timestamps: false, tail: 10 } }, false],
    ['a followLogs request without timestamps', { type: 'request', id: 1, body: { kind: 'followLogs', container: 'app', attempt: { which: 'current' }, tail: 10 } }, false],
    ['a followLogs request without tail', { type: 'request', id: 1, body: { kind: 'followLogs', container: 'app', attempt: { which: 'current' }, timestamps: false } }, false],
    ['a followLogs request with a negative tail', { type: 'request', id: 1, body: { kind: 'followLogs', container: 'app', attempt: { which: 'current' }, timestamps: false, tail: -1 } }, false],
    ['a followLogs request with a fractional tail', { type: 'request', id: 1, body: { kind: 'followLogs', container: 'app', attempt: { which: 'current' }, timestamps: false, tail: 1.5 } }, false],
    ['a followLogs request without a container', { type: 'request', id: 1, body: { kind: 'followLogs', attempt: { which: 'current' }, timestamps: false, tail: 1 } }, false],
    ['a logs request with timestamps', { type: 'request', id: 1, body: { kind: 'logs', container: 'app', attempt: { which: 'previous' }, tail: 500, timestamps: true } }, true],
    ['a logs request with a string tail', { type: 'request', id: 1, body: { kind: 'logs', container: 'app', attempt: { which: 'previous' }, tail: '500' } }, false],
    ['a logs request with a string timestamps flag', { type: 'request', id: 1, body: { kind: 'logs', container: 'app', attempt: { which: 'previous' }, timestamps: 'yes' } }, false],
    ['stopLogs of a stream', { type: 'stopLogs', stream: 4 }, true],
    ['stopLogs without a stream', { type: 'stopLogs' }, false],
    ['stopLogs of stream 0 (ids start at 1)', { type: 'stopLogs', stream: 0 }, false],
    ['stopLogs of a string stream id', { type: 'stopLogs', stream: '4' }, false],
  ];
  for (const [name, m, want] of toHost) test(`the host ${want ? 'accepts' : 'rejects'} ${name}`, () => assert.equal(isWebviewToHost(m), want));

  const toWebview: [string, unknown, boolean][] = [
    ['a chunk of lines', { type: 'logChunk', stream: 1, lines: ['a', 'b'] }, true],
    ['the last chunk, ended', { type: 'logChunk', stream: 1, lines: [], ended: true }, true],
    ['a chunk without a stream', { type: 'logChunk', lines: ['a'] }, false],
    ['a chunk without lines', { type: 'logChunk', stream: 1 }, false],
    ['a chunk with a line that is not a string', { type: 'logChunk', stream: 1, lines: ['a', 2] }, false],
    ['a chunk with a non-boolean ended', { type: 'logChunk', stream: 1, lines: [], ended: 'yes' }, false],
    ['a followLogs reply with its stream id', { type: 'reply', id: 3, ok: true, body: { kind: 'followLogs', container: 'app', attempt: { which: 'current' }, stream: 1 } }, true],
  ];
  for (const [name, m, want] of toWebview) test(`the webview ${want ? 'accepts' : 'rejects'} ${name}`, () => assert.equal(isHostToWebview(m), want));
});

// ---------------------------------------------------------------------------------------------
// The latency fix: "shown X ms after the engine event" must not count the webview's own load.

function pod(phase: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-1', creationTimestamp: '2024-05-01T10:00:00Z' },
    spec: { containers: [{ name: 'app', image: 'busybox:1.35' }] },
    status: { phase },
  };
}
const podEv = (type: 'ADDED' | 'MODIFIED', phase: string): WatchEvent => ({ type, kind: 'Pod', object: pod(phase) });

/** What the manager does, step by step, with the monotonic clock of each step. */
type FeedStep =
  | { event: WatchEvent; mono: number }
  /** The webview said `ready` (first load or shown again) or asked for a resync. */
  | { ready: true }
  /** The manager flushes and the webview acknowledges the update at `mono`. */
  | { shown: number };

/** The latency samples the steps give (one entry per `shown`: undefined when it is no sample). */
function samples(steps: FeedStep[]): (Latency | undefined)[] {
  const feed = new PanelFeed('default', 'web');
  // The manager seeds the feed and resets it when it connects to the engine, before any `ready`.
  feed.resetWebview();
  const out: (Latency | undefined)[] = [];
  for (const s of steps) {
    if ('event' in s) feed.onWatch(s.event, 1_700_000_000_000 + s.mono, s.mono);
    else if ('ready' in s) feed.resetWebview();
    else {
      const m = feed.next(1_700_000_000_000 + s.shown);
      out.push(m ? feed.onRendered(m.seq, s.shown) : undefined);
    }
  }
  return out;
}

describe('the panel latency counts only engine events the ready webview could show', () => {
  const header = ['header', 'containers', 'timeline'] as const;
  const cases: [string, FeedStep[], (Latency | undefined)[]][] = [
    [
      'an engine event that arrived while the webview loaded is not a sample (the snapshot waited for the webview)',
      [{ event: podEv('ADDED', 'Pending'), mono: 10 }, { ready: true }, { shown: 900 }],
      [undefined],
    ],
    [
      'an engine event after the webview is ready is measured from the event to the acknowledgement',
      [{ ready: true }, { shown: 100 }, { event: podEv('ADDED', 'Pending'), mono: 200 }, { shown: 230 }],
      [undefined, { seq: 2, ms: 30, sections: [...header], containers: 'app none#0' }],
    ],
    [
      'an event while the webview was hidden is no sample once it is shown again; the next event is',
      [
        { ready: true },
        { event: podEv('ADDED', 'Pending'), mono: 50 },
        { shown: 70 },
        { event: podEv('MODIFIED', 'Running'), mono: 1000 },
        { ready: true },
        { shown: 5000 },
        { event: podEv('MODIFIED', 'Succeeded'), mono: 6000 },
        { shown: 6012 },
      ],
      [{ seq: 1, ms: 20, sections: ['header', 'conditions', 'containers', 'events', 'timeline', 'debug', 'notices'], containers: 'app none#0' }, undefined, { seq: 3, ms: 12, sections: ['header', 'timeline'], containers: 'app none#0' }],
    ],
    [
      'events folded into one update count from the first of them',
      [{ ready: true }, { shown: 1 }, { event: podEv('ADDED', 'Pending'), mono: 100 }, { event: podEv('MODIFIED', 'Running'), mono: 140 }, { shown: 160 }],
      [undefined, { seq: 2, ms: 60, sections: [...header], containers: 'app none#0' }],
    ],
  ];
  for (const [name, steps, want] of cases) test(name, () => assert.deepEqual(samples(steps), want));
});

describe('the container the logs pane opens on', () => {
  type C = Parameters<typeof defaultLogsContainer>[0][number];
  const c = (name: string, kind: C['kind'], state: StateView, failed = false): C => ({ name, kind, state, failed });
  const exited = (exitCode: number): StateView => ({ kind: 'terminated', reason: exitCode ? 'Error' : 'Completed', message: '', exitCode, containerId: '' });
  const running: StateView = { kind: 'running' };
  const waiting: StateView = { kind: 'waiting', reason: 'PodInitializing', message: '' };
  const cases: [string, C[], string | undefined][] = [
    ['a completed pod: kubectl logs\' default, the first app container (not the first init container)', [c('fetch-config', 'init', exited(0)), c('migrate', 'init', exited(0)), c('app', 'app', exited(0))], 'app'],
    ['a pod in its second init container: that one', [c('fetch-config', 'init', exited(0)), c('migrate', 'init', running), c('app', 'app', waiting)], 'migrate'],
    ['a failed container comes first', [c('fetch-config', 'init', exited(1), true), c('app', 'app', waiting)], 'fetch-config'],
    ['a pod whose init containers have not started: the first of them', [c('a', 'init', { kind: 'none' }), c('app', 'app', { kind: 'none' })], 'a'],
    ['a sidecar is not where the pod is at', [c('proxy', 'sidecar', running), c('app', 'app', running)], 'app'],
    ['no containers', [], undefined],
  ];
  for (const [name, containers, want] of cases) test(name, () => assert.equal(defaultLogsContainer(containers), want));
});
