// The lifecycle panel's logs pane as a log viewer (issue 9 §2), in headless Chromium through the
// harness: the current instance is followed (`followLogs` → stream id → `logChunk`s → `stopLogs`),
// the pane keeps the last 5,000 lines and says when it dropped older ones, says when a finished
// container's stream ended, and has timestamps / wrap toggles (remembered) and a case-insensitive
// filter ("N of M lines"), keyboard-operable and fitting a narrow panel. The test plays the host:
// it answers the webview's requests itself. Upstream counterpart: `kubectl logs -f --tail --timestamps`
// (staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go).
import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { replay, type RecordedStream } from '../../src/extension/panel/recording.js';
import { recordedStream } from '../support/fixtures.js';
import {
  PROTOCOL_VERSION,
  applyPatch,
  type ContainerView,
  type HostToWebview,
  type PanelModel,
  type RequestBody,
  type WebviewState,
  type WebviewToHost,
} from '../../src/shared/protocol.js';
import { bundleWebview, launch, openPanel, type PanelPage } from './harness.js';


let browser: Browser;
let script: string;

before(async () => {
  script = await bundleWebview();
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

type Request = { id: number; body: RequestBody; index: number };

/** The model and sequence number the host reaches after the whole stream. */
function endOf(stream: RecordedStream): { model: PanelModel; seq: number; messages: HostToWebview[] } {
  const messages = replay(stream).map((m) => m.message);
  let model: PanelModel | undefined;
  let seq = 0;
  for (const m of messages) {
    if (m.type === 'snapshot') model = m.model;
    else if (m.type === 'patch') model = applyPatch(model!, m.changes);
    if (m.type === 'snapshot' || m.type === 'patch') seq = m.seq;
  }
  return { model: model!, seq, messages };
}

/** Opens the panel and plays the stream into it (no request is answered: the test does that). */
async function play(stream: RecordedStream, opts: Parameters<typeof openPanel>[2] = {}): Promise<{ p: PanelPage; model: PanelModel; seq: number }> {
  const p = await openPanel(browser, script, { title: `${stream.namespace}/${stream.name}`, ...opts });
  const { model, seq, messages } = endOf(stream);
  for (const m of messages) await p.send(m);
  await p.waitForSeq(seq);
  return { p, model, seq };
}

/**
 * The last request after message `from` that matches, waiting for one. (While a stream plays in,
 * the pane may follow several instances in turn: a container without an id yet, then its instance.)
 */
async function request(p: PanelPage, match: (b: RequestBody) => boolean, from = 0): Promise<Request> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const posted = await p.posted();
    for (let i = posted.length - 1; i >= from; i--) {
      const m = posted[i]!;
      if (m.type === 'request' && match(m.body)) return { id: m.id, body: m.body, index: i };
    }
    if (Date.now() > deadline) throw new Error(`no matching request; posted: ${JSON.stringify(posted.slice(from))}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const isFollow = (b: RequestBody) => b.kind === 'followLogs';

/** Answers a followLogs request with a stream id. */
async function openStream(p: PanelPage, r: Request, stream: number): Promise<void> {
  assert.equal(r.body.kind, 'followLogs');
  if (r.body.kind !== 'followLogs') return;
  await p.send({ type: 'reply', id: r.id, ok: true, body: { kind: 'followLogs', container: r.body.container, attempt: r.body.attempt, stream } });
}

const logText = (p: PanelPage) => p.page.locator('[data-testid=logs-lines]').innerText();
const visibleText = async (p: PanelPage, testid: string): Promise<string | null> => {
  const el = p.page.locator(`[data-testid=logs] [data-testid=${testid}]`);
  return (await el.count()) && (await el.isVisible()) ? el.innerText() : null;
};
/** Waits until the log shows exactly `text`. */
const waitLog = (p: PanelPage, text: string) =>
  p.page.waitForFunction((t) => document.querySelector('[data-testid=logs-lines]')?.textContent === t, text, { timeout: 5000 });
const stops = async (p: PanelPage) => (await p.posted()).flatMap((m) => (m.type === 'stopLogs' ? [m.stream] : []));
const ui = async (p: PanelPage) => ((await p.savedState()) as WebviewState).ui;

/** A patch replacing one container of the model (the rest as it is). */
function containerPatch(model: PanelModel, seq: number, name: string, change: (c: ContainerView) => ContainerView): { patch: HostToWebview; model: PanelModel } {
  const containers = model.containers.map((c) => (c.name === name ? change(c) : c));
  const next = { ...model, now: model.now + 1000, containers };
  return { patch: { type: 'patch', seq: seq + 1, baseSeq: seq, changes: { now: next.now, containers } }, model: next };
}

describe('following the current instance of a running container', () => {
  const stream = recordedStream('two-containers');
  let p: PanelPage;
  let model: PanelModel;
  let seq: number;
  let first: Request;

  before(async () => {
    ({ p, model, seq } = await play(stream));
    first = await request(p, isFollow);
  });
  after(async () => {
    await p?.close();
  });

  test('the pane asks to follow the shown container from 5,000 lines back, without timestamps, and offers no Refresh', async () => {
    assert.deepEqual(first.body, { kind: 'followLogs', container: 'web', attempt: { which: 'current' }, timestamps: false, tail: 5000 });
    assert.equal(await p.page.locator('[data-testid=logs-refresh]').count(), 0);
    assert.equal(await p.page.locator('[data-testid=logs] .loading-logs').innerText(), 'loading logs…');
  });

  test('a stream asked for an earlier instance (before web had a container id) is stopped when its reply comes', async () => {
    const asked = (await p.posted()).flatMap((m) => (m.type === 'request' && m.body.kind === 'followLogs' ? [{ id: m.id, body: m.body, index: 0 }] : []));
    assert.deepEqual(
      asked.map((r) => r.body),
      [
        { kind: 'followLogs', container: 'web', attempt: { which: 'current' }, timestamps: false, tail: 5000 },
        { kind: 'followLogs', container: 'web', attempt: { which: 'current' }, timestamps: false, tail: 5000 },
      ],
    );
    await openStream(p, asked[0]!, 9);
    await p.page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'stopLogs'));
    assert.deepEqual(await stops(p), [9]);
  });

  test('lines show once the stream id is known, and only the lines of that stream; until the first, the live log says it has none yet', async () => {
    await p.send({ type: 'logChunk', stream: 1, lines: ['before the reply'] });
    await openStream(p, first, 1);
    await waitLog(p, '(no output yet)');
    await p.send({ type: 'logChunk', stream: 7, lines: ['another stream'] });
    await p.send({ type: 'logChunk', stream: 1, lines: ['GET /health 200', 'ERROR db unreachable'] });
    await waitLog(p, 'GET /health 200\nERROR db unreachable');
    assert.equal(await visibleText(p, 'logs-status'), 'Following web (live)');
    assert.equal(await visibleText(p, 'logs-dropped'), null);
    assert.equal(await visibleText(p, 'logs-count'), null);
  });

  test('the filter keeps the lines containing the text, ignoring case, and says N of M lines; Escape clears it', async () => {
    await p.send({ type: 'logChunk', stream: 1, lines: ['get /api 500', 'warning: slow', 'Error: retry'] });
    await waitLog(p, 'GET /health 200\nERROR db unreachable\nget /api 500\nwarning: slow\nError: retry');
    await p.page.locator('[data-testid=logs-filter]').fill('eRR');
    assert.equal(await logText(p), 'ERROR db unreachable\nError: retry');
    assert.equal(await visibleText(p, 'logs-count'), '2 of 5 lines');
    // each match is marked, in the line's own case, in the theme's find-match colour
    const marks = await p.page.evaluate(() =>
      Array.from(document.querySelectorAll('[data-testid=logs-lines] mark')).map((m) => [m.textContent, getComputedStyle(m).backgroundColor !== getComputedStyle(m.parentElement!).backgroundColor]),
    );
    assert.deepEqual(marks, [['ERR', true], ['Err', true]]);
    await p.page.locator('[data-testid=logs-filter]').fill('timeout');
    assert.equal(await logText(p), '(no line contains "timeout")');
    assert.equal(await visibleText(p, 'logs-count'), '0 of 5 lines');
    await p.page.locator('[data-testid=logs-filter]').press('Escape');
    assert.deepEqual(
      [await p.page.locator('[data-testid=logs-filter]').inputValue(), await visibleText(p, 'logs-count'), await logText(p)],
      ['', null, 'GET /health 200\nERROR db unreachable\nget /api 500\nwarning: slow\nError: retry'],
    );
  });

  test('an update of the containers keeps the stream, the filter, its focus and the lines', async () => {
    const filter = p.page.locator('[data-testid=logs-filter]');
    await filter.focus();
    await p.page.keyboard.type('GET');
    const before = (await p.posted()).length;
    const { patch, model: next } = containerPatch(model, seq, 'web', (c) => ({ ...c, ready: !c.ready }));
    await p.send(patch);
    await p.waitForSeq(seq + 1);
    model = next;
    seq += 1;
    const state = await p.page.evaluate(() => ({
      focused: (document.activeElement as HTMLElement | null)?.dataset.testid,
      value: (document.querySelector('[data-testid=logs-filter]') as HTMLInputElement).value,
      lines: document.querySelector('[data-testid=logs-lines]')?.textContent,
    }));
    assert.deepEqual(state, { focused: 'logs-filter', value: 'GET', lines: 'GET /health 200\nget /api 500' });
    const since = (await p.posted()).slice(before);
    assert.deepEqual(
      since.filter((m) => m.type !== 'rendered'),
      [],
      'no new request, no stopLogs',
    );
    await filter.fill('');
  });

  test('the pane keeps the last 5,000 lines and says how many older ones it dropped', async () => {
    const lines = Array.from({ length: 5010 }, (_, i) => `n ${i}`);
    await p.send({ type: 'logChunk', stream: 1, lines: lines.slice(0, 3000) });
    await p.send({ type: 'logChunk', stream: 1, lines: lines.slice(3000) });
    await p.page.waitForFunction(() => document.querySelector('[data-testid=logs-lines]')?.textContent?.endsWith('n 5009'));
    const shown = (await logText(p)).split('\n');
    // 5 lines before, 5,010 now: the 5 old ones and the first 10 new ones went.
    assert.deepEqual([shown.length, shown[0], shown[4999]], [5000, 'n 10', 'n 5009']);
    assert.equal(await visibleText(p, 'logs-dropped'), '15 older lines dropped: the viewer keeps the last 5000.');
    // Following: the newest line is in view.
    const atEnd = await p.page.evaluate(() => {
      const pre = document.querySelector('[data-testid=logs-lines]') as HTMLElement;
      return pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 2;
    });
    assert.equal(atEnd, true);
  });

  test('wrap off (Space on the focused toggle) keeps long lines on one line, and is remembered', async () => {
    assert.equal(await p.page.locator('[data-testid=logs-wrap]').isChecked(), true);
    await p.page.locator('[data-testid=logs-wrap]').focus();
    await p.page.keyboard.press('Space');
    assert.equal(await p.page.locator('[data-testid=logs-lines]').getAttribute('class'), 'log-lines nowrap');
    assert.equal((await ui(p)).logsWrap, false);
    await p.page.keyboard.press('Space');
    assert.equal(await p.page.locator('[data-testid=logs-lines]').getAttribute('class'), 'log-lines');
    assert.equal((await ui(p)).logsWrap, true);
  });

  let second: Request;
  test('timestamps on (keyboard) closes the stream and opens one with timestamps; the toggle keeps focus and is remembered', async () => {
    const from = (await p.posted()).length;
    await p.page.locator('[data-testid=logs-timestamps]').focus();
    await p.page.keyboard.press('Space');
    second = await request(p, isFollow, from);
    assert.deepEqual(second.body, { kind: 'followLogs', container: 'web', attempt: { which: 'current' }, timestamps: true, tail: 5000 });
    assert.deepEqual(await stops(p), [9, 1]);
    assert.equal((await ui(p)).logsTimestamps, true);
    assert.equal(await p.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid), 'logs-timestamps');
    assert.equal(await p.page.locator('[data-testid=logs-timestamps]').isChecked(), true);
    await openStream(p, second, 2);
    await p.send({ type: 'logChunk', stream: 1, lines: ['old stream'] });
    await p.send({ type: 'logChunk', stream: 2, lines: ['2024-05-01T10:00:01.000000000Z GET /health 200'] });
    await waitLog(p, '2024-05-01T10:00:01.000000000Z GET /health 200');
    assert.equal(await visibleText(p, 'logs-dropped'), null);
  });

  test('when the container finishes its stream ends, and the pane says so with the exit code', async () => {
    const web = model.containers.find((c) => c.name === 'web')!;
    const { patch } = containerPatch(model, seq, 'web', (c) => ({
      ...c,
      ready: false,
      state: { kind: 'terminated', reason: 'Completed', message: '', exitCode: 0, containerId: web.containerID, startedAt: model.now - 5000, finishedAt: model.now },
    }));
    await p.send({ type: 'logChunk', stream: 2, lines: ['bye'], ended: true });
    await p.send(patch);
    await p.waitForSeq(seq + 1);
    seq += 1;
    await p.page.waitForFunction(() => document.querySelector('[data-testid=logs-view]')?.getAttribute('data-state') === 'ended');
    assert.equal(await visibleText(p, 'logs-status'), 'The container finished (exit code 0, Completed): the log stream ended.');
    assert.equal(await logText(p), '2024-05-01T10:00:01.000000000Z GET /health 200\nbye');
    // The same instance, finished: no new stream (two while the stream played in, one for timestamps), nothing to stop.
    assert.equal((await p.posted()).filter((m) => m.type === 'request' && m.body.kind === 'followLogs').length, 3);
    assert.deepEqual(await stops(p), [9, 1]);
  });

  test('the previous instance is one read (kubectl logs --previous --timestamps) with a Refresh button', async () => {
    const from = (await p.posted()).length;
    await p.page.locator('[data-testid=logs-attempt]').evaluate((el) => {
      (el as unknown as { value: string }).value = 'previous';
      el.dispatchEvent(new Event('change'));
    });
    const r = await request(p, (b) => b.kind === 'logs', from);
    assert.deepEqual(r.body, { kind: 'logs', container: 'web', attempt: { which: 'previous' }, tail: 500, timestamps: true });
    await p.send({ type: 'reply', id: r.id, ok: true, body: { kind: 'logs', container: 'web', attempt: { which: 'previous' }, lines: ['first run', 'FATAL: crashed'] } });
    await waitLog(p, 'first run\nFATAL: crashed');
    assert.equal(await p.page.locator('[data-testid=logs-refresh]').count(), 1);
    assert.equal(await visibleText(p, 'logs-status'), null);
    await p.page.locator('[data-testid=logs-filter]').fill('fatal');
    assert.equal(await visibleText(p, 'logs-count'), '1 of 2 lines');
    await p.page.locator('[data-testid=logs-filter]').fill('');
    const from2 = (await p.posted()).length;
    await p.page.locator('[data-testid=logs-refresh]').click();
    const again = await request(p, (b) => b.kind === 'logs', from2);
    assert.deepEqual(again.body, r.body);
  });

  test('back on current, a new stream opens (the ended one is not stopped twice)', async () => {
    const from = (await p.posted()).length;
    await p.page.locator('[data-testid=logs-attempt]').evaluate((el) => {
      (el as unknown as { value: string }).value = 'current';
      el.dispatchEvent(new Event('change'));
    });
    const r = await request(p, isFollow, from);
    assert.deepEqual(r.body, { kind: 'followLogs', container: 'web', attempt: { which: 'current' }, timestamps: true, tail: 5000 });
    assert.deepEqual(await stops(p), [9, 1]);
  });

  test('no CSP violation and no script error happened', async () => {
    await p.screenshot('logs-pane-following-dark');
    assert.deepEqual(await p.problems(), []);
  });
});

describe('the stream of a finished container', () => {
  test("a crash-looping init container's stream ends at once and the pane names its last exit", async () => {
    const { p } = await play(recordedStream('failing-init'));
    try {
      const r = await request(p, isFollow);
      assert.deepEqual(r.body, { kind: 'followLogs', container: 'init-db-check', attempt: { which: 'current' }, timestamps: false, tail: 5000 });
      await openStream(p, r, 1);
      await p.send({ type: 'logChunk', stream: 1, lines: ['checking postgres://db.default.svc:5432/app', 'cannot reach db.default.svc:5432'], ended: true });
      await p.page.waitForFunction(() => document.querySelector('[data-testid=logs-view]')?.getAttribute('data-state') === 'ended');
      assert.equal(await visibleText(p, 'logs-status'), 'The container finished (exit code 3, Error): the log stream ended.');
      assert.equal(await logText(p), 'checking postgres://db.default.svc:5432/app\ncannot reach db.default.svc:5432');
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });

  test('a container that printed nothing: "(no output yet)" while the stream is live, "(no output)" once it ended', async () => {
    const { p } = await play(recordedStream('failing-init'));
    try {
      const r = await request(p, isFollow);
      await openStream(p, r, 1);
      await waitLog(p, '(no output yet)');
      await p.send({ type: 'logChunk', stream: 1, lines: [], ended: true });
      await p.page.waitForFunction(() => document.querySelector('[data-testid=logs-view]')?.getAttribute('data-state') === 'ended');
      assert.deepEqual([await visibleText(p, 'logs-status'), await logText(p)], ['The container finished (exit code 3, Error): the log stream ended.', '(no output)']);
    } finally {
      await p.close();
    }
  });

  test('an attempt picked by its container id is read with timestamps when they are on (kubectl logs --timestamps)', async () => {
    const { p } = await play(recordedStream('failing-init'));
    try {
      const options = await p.page.locator('[data-testid=logs-attempt] vscode-option').evaluateAll((os) => os.map((o) => o.getAttribute('value') ?? ''));
      const byId = options.find((v) => v !== 'current' && v !== 'previous')!;
      await p.page.locator('[data-testid=logs-timestamps]').check();
      const from = (await p.posted()).length;
      await p.page.locator('[data-testid=logs-attempt]').evaluate((el, v) => {
        (el as unknown as { value: string }).value = v;
        el.dispatchEvent(new Event('change'));
      }, byId);
      const r = await request(p, (b) => b.kind === 'logs', from);
      assert.deepEqual(
        { body: r.body, enabled: await p.page.locator('[data-testid=logs-timestamps]').isEnabled() },
        { body: { kind: 'logs', container: 'init-db-check', attempt: { which: 'id', containerId: byId }, tail: 500, timestamps: true }, enabled: true },
      );
    } finally {
      await p.close();
    }
  });

  test('a stream that cannot open (the container is waiting) shows the engine error', async () => {
    const { p } = await play(recordedStream('failing-init'));
    try {
      const r = await request(p, isFollow);
      await p.send({ type: 'reply', id: r.id, ok: false, error: 'container "init-db-check" in pod "init-fail" is waiting to start: CrashLoopBackOff' });
      await p.page.locator('[data-testid=logs-error]').waitFor({ timeout: 5000 });
      assert.equal(await visibleText(p, 'logs-error'), 'container "init-db-check" in pod "init-fail" is waiting to start: CrashLoopBackOff');
    } finally {
      await p.close();
    }
  });
});

describe('a container still waiting to start', () => {
  test("the refusal follows the waiting reason: when it changes (ContainerCreating, then CreateContainerConfigError) the pane asks again and shows the new words, as kubectl's would", async () => {
    const { p, model, seq } = await play(recordedStream('failing-init'));
    try {
      const r = await request(p, isFollow);
      const c = r.body.kind === 'followLogs' ? r.body.container : '';
      const waitingFor = (reason: string) => `container "${c}" in pod "init-fail" is waiting to start: ${reason}`;
      const first = containerPatch(model, seq, c, (x) => ({ ...x, state: { kind: 'waiting', reason: 'ContainerCreating', message: '' } }));
      await p.send(first.patch);
      await p.waitForSeq(seq + 1);
      // (the first stream is still opening: its answer is the refusal)
      const asked = r;
      await p.send({ type: 'reply', id: asked.id, ok: false, error: waitingFor('ContainerCreating') });
      await p.page.waitForFunction((t) => document.querySelector('[data-testid=logs] [data-testid=logs-error]')?.textContent === t, waitingFor('ContainerCreating'), { timeout: 5000 });
      const second = containerPatch(first.model, seq + 1, c, (x) => ({ ...x, state: { kind: 'waiting', reason: 'CreateContainerConfigError', message: 'configmap "settings" not found' } }));
      await p.send(second.patch);
      await p.waitForSeq(seq + 2);
      const again = await request(p, isFollow, asked.index + 1);
      await p.send({ type: 'reply', id: again.id, ok: false, error: waitingFor('CreateContainerConfigError') });
      await p.page.waitForFunction((t) => document.querySelector('[data-testid=logs] [data-testid=logs-error]')?.textContent === t, waitingFor('CreateContainerConfigError'), { timeout: 5000 });
      assert.equal(await visibleText(p, 'logs-error'), waitingFor('CreateContainerConfigError'));
    } finally {
      await p.close();
    }
  });
});

describe('the pane after a reload, a deleted pod and a narrow panel', () => {
  const stream = recordedStream('two-containers');

  test('a reloaded webview restores the toggles and opens no stream before the host answers its ready', async () => {
    const { model, seq, messages } = endOf(stream);
    const saved: WebviewState = { version: PROTOCOL_VERSION, seq, model, receivedAt: Date.now(), ui: { logsTimestamps: true, logsWrap: false } };
    const p = await openPanel(browser, script, { initialState: saved });
    try {
      assert.equal(await p.page.locator('#app').getAttribute('data-restored'), 'true');
      assert.deepEqual(
        [await p.page.locator('[data-testid=logs-timestamps]').isChecked(), await p.page.locator('[data-testid=logs-wrap]').isChecked()],
        [true, false],
      );
      await p.page.waitForTimeout(100);
      assert.deepEqual(
        (await p.posted()).map((m: WebviewToHost) => m.type),
        ['ready'],
      );
      await p.send(messages[0]!);
      const r = await request(p, isFollow);
      assert.deepEqual(r.body, { kind: 'followLogs', container: 'web', attempt: { which: 'current' }, timestamps: true, tail: 5000 });
    } finally {
      await p.close();
    }
  });

  test("a deleted pod's followed log says the pod was deleted", async () => {
    const last = [...stream.frames].reverse().find((f) => 'watch' in f && f.watch.kind === 'Pod');
    assert.ok(last && 'watch' in last);
    const frames = [...stream.frames, { at: last.at + 60_000, watch: { ...last.watch, type: 'DELETED' as const } }];
    const { p } = await play({ ...stream, frames });
    try {
      await p.page.locator('[data-testid=logs-gone]').waitFor({ timeout: 5000 });
      assert.equal(await visibleText(p, 'logs-gone'), 'This pod was deleted: its containers and their logs were removed with it.');
    } finally {
      await p.close();
    }
  });

  test('at 360 px the toolbar wraps, the filter takes its own line, and nothing is wider than the panel (wrap off too)', async () => {
    const { p } = await play(stream, { width: 360, theme: 'light' });
    try {
      const r = await request(p, isFollow);
      await openStream(p, r, 1);
      await p.send({ type: 'logChunk', stream: 1, lines: ['x'.repeat(400), 'short line'] });
      await p.page.waitForFunction(() => document.querySelector('[data-testid=logs-lines]')?.textContent?.endsWith('short line'));
      await p.page.locator('[data-testid=logs-wrap]').uncheck();
      const layout = await p.page.evaluate(() => {
        const cw = document.documentElement.clientWidth;
        const filter = document.querySelector('[data-testid=logs-filter]')!.getBoundingClientRect();
        const wrap = document.querySelector('[data-testid=logs-wrap]')!.getBoundingClientRect();
        const pre = document.querySelector('[data-testid=logs-lines]') as HTMLElement;
        return {
          wider: Array.from(document.querySelectorAll('body *'))
            .filter((el) => el.getBoundingClientRect().right > cw + 1 && el.closest('.log-lines') === null)
            .map((el) => el.tagName.toLowerCase() + (el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : '')),
          pageScrolls: document.documentElement.scrollWidth > cw,
          filterOwnLine: filter.top >= wrap.bottom - 1 && filter.right <= cw + 1,
          preScrollsSideways: pre.scrollWidth > pre.clientWidth && pre.getBoundingClientRect().right <= cw + 1,
        };
      });
      assert.deepEqual(layout, { wider: [], pageScrolls: false, filterOwnLine: true, preScrollsSideways: true });
      await p.screenshot('logs-pane-360px-light');
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });
});
