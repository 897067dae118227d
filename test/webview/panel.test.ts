// The lifecycle panel rendered in headless Chromium from recorded engine streams: the host-side
// PanelFeed turns each recorded frame into the snapshot/patch messages the extension would post,
// and the test checks what a learner sees (STATUS, conditions, containers, back-off countdown,
// per-attempt logs, the timeline) plus the protocol behaviour (acks, requests, state on reload).
// Screenshots go to .test-artifacts/.
import { strict as assert } from 'node:assert';
import { setTimeout as delay } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { replay, type RecordedStream } from '../../src/extension/panel/recording.js';
import { recordedStream } from '../support/fixtures.js';
import { buildPanelModel, newObservation, observe } from '../../src/extension/panel/model.js';
import { humanDuration } from '../../src/engine/printer.js';
import { applyPatch, type HostToWebview, type PanelModel, type WebviewState, type WebviewToHost } from '../../src/shared/protocol.js';
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

/** Opens the panel and plays a stream into it; returns the page and the messages sent. */
async function play(stream: RecordedStream, opts: Parameters<typeof openPanel>[2] = {}): Promise<{ p: PanelPage; sent: HostToWebview[] }> {
  const p = await openPanel(browser, script, { title: `${stream.namespace}/${stream.name}`, ...opts });
  p.serveRequests(stream);
  const sent = replay(stream).map((m) => m.message);
  for (const m of sent) await p.send(m);
  const last = sent[sent.length - 1]!;
  await p.waitForSeq(last.type === 'snapshot' || last.type === 'patch' ? last.seq : 0);
  return { p, sent };
}

const text = (p: PanelPage, sel: string) => p.page.locator(sel).first().innerText();
const cells = (p: PanelPage, rowSel: string) => p.page.locator(`${rowSel} td`).allInnerTexts();

describe('the failing init container pod', () => {
  const stream = recordedStream('failing-init');
  let p: PanelPage;
  let sent: HostToWebview[];

  before(async () => {
    ({ p, sent } = await play(stream));
    // Logs of every attempt are requested and answered before we look.
    await p.page.waitForFunction(() => document.querySelectorAll('details.attempt pre.log-lines').length === 4);
  });
  after(async () => {
    await p?.close();
  });

  test('the header shows the kubectl STATUS, phase, readiness, restarts, node and pod IP', async () => {
    assert.equal(await text(p, '[data-testid=status]'), 'Init:CrashLoopBackOff');
    assert.equal(await text(p, '[data-testid=phase]'), 'Pending');
    assert.equal(await text(p, '[data-testid=ready]'), '0/1');
    assert.match(await text(p, '[data-testid=restarts]'), /^3 \(\d+s ago\)$/);
    assert.equal(await text(p, '[data-testid=node]'), 'podlab-node');
    assert.equal(await text(p, '[data-testid=pod-ip]'), '172.17.0.5');
  });

  test('the five conditions are listed in order with status, reason and message', async () => {
    const rows = await p.page.locator('[data-testid=conditions-table] tbody tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td')).slice(0, 4).map((td) => td.textContent)),
    );
    assert.deepEqual(rows, [
      ['PodReadyToStartContainers', 'True', '', ''],
      ['Initialized', 'False', 'ContainersNotInitialized', 'containers with incomplete status: [init-db-check]'],
      ['Ready', 'False', 'ContainersNotReady', 'containers with unready status: [app]'],
      ['ContainersReady', 'False', 'ContainersNotReady', 'containers with unready status: [app]'],
      ['PodScheduled', 'True', '', ''],
    ]);
  });

  test('every container shows its state, reason, exit code, restarts, started and ready', async () => {
    const row = (name: string) => cells(p, `[data-testid=containers-table] tr[data-container="${name}"]`);
    const [ok, failing, app] = await Promise.all([row('init-ok'), row('init-db-check'), row('app')]);
    assert.deepEqual(ok.slice(2, 9), ['Terminated (Completed)', 'Completed', '0', '0', 'false', 'true', '']);
    assert.deepEqual(failing.slice(2, 9), ['Waiting (CrashLoopBackOff)', 'CrashLoopBackOff', '', '3', 'false', 'false', 'Error (exit 3)']);
    assert.deepEqual(app.slice(2, 8), ['Waiting (PodInitializing)', 'PodInitializing', '', '0', 'false', 'false']);
  });

  test('the failed init container card shows its exit code, command, args and resolved env', async () => {
    const card = '[data-testid="failed-init-init-db-check"]';
    assert.match(await text(p, `${card} [data-testid=failed-exit-code]`), /exit code 3 \(Error\)/);
    assert.equal(await text(p, `${card} [data-testid=command]`), '["sh","-c"]');
    assert.match(await text(p, `${card} [data-testid=args]`), /checking postgres:\/\/db\.default\.svc:5432\/app/);
    const env = await p.page.locator(`${card} [data-testid=env] tbody tr`).allInnerTexts();
    assert.deepEqual(
      env.map((r) => r.replace(/\s+/g, ' ').trim()),
      ['DB_HOST db.default.svc', 'DB_URL postgres://db.default.svc:5432/app', 'POD_NAME init-fail (v1:metadata.name)'],
    );
  });

  test('the back-off countdown counts down to the next restart (40 s back-off)', async () => {
    const el = p.page.locator('[data-testid="backoff-init-db-check"] [data-fmt=countdown]');
    const first = Number(await el.getAttribute('data-seconds-left'));
    // The recording ends 29 s before the restart is due; the webview's clock runs on from there.
    assert.ok(first > 20 && first <= 29, `seconds left ${first}`);
    assert.match(await el.innerText(), /^next restart in \d+s$/);
    assert.match(await text(p, '[data-testid="backoff-init-db-check"]'), /back-off 40s/);
    await p.page.waitForFunction((f) => Number(document.querySelector('[data-fmt=countdown]')?.getAttribute('data-seconds-left')) < f, first, {
      timeout: 5000,
    });
  });

  test('every attempt is listed newest first with its exit code, times and its own logs', async () => {
    const attempts = await p.page.locator('[data-testid=attempts] details.attempt').evaluateAll((ds) =>
      ds.map((d) => ({
        attempt: d.getAttribute('data-attempt'),
        exit: d.getAttribute('data-exit-code'),
        summary: d.querySelector('summary')!.textContent,
        logs: d.querySelector('pre.log-lines')?.textContent,
      })),
    );
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.exit]),
      [
        ['3', '3'],
        ['2', '3'],
        ['1', '3'],
        ['0', '3'],
      ],
    );
    for (const a of attempts) {
      assert.match(a.summary!, /exit code 3 Error started \d\d:\d\d:\d\d\.\d{3}, finished \d\d:\d\d:\d\d\.\d{3} \(31ms\)/);
      assert.equal(a.logs, 'checking postgres://db.default.svc:5432/app\ncannot reach db.default.svc:5432');
    }
    // The logs were asked for by container id, one request per attempt.
    const ids = (await p.posted()).flatMap((m) => (m.type === 'request' && m.body.kind === 'logs' && m.body.attempt.which === 'id' ? [m.body.attempt.containerId] : []));
    assert.equal(new Set(ids).size, 4);
  });

  test('the timeline has the sandbox, then a lane per container in spec order', async () => {
    const lanes = await p.page.locator('svg.timeline g.lane').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-lane')));
    assert.deepEqual(lanes, ['sandbox', 'container:init-ok', 'container:init-db-check', 'container:app']);
  });

  test('the timeline draws one bar per attempt, in start order, left to right, then the back-off', async () => {
    const bars = await p.page.locator('svg.timeline g.lane[data-lane="container:init-db-check"] g.bar').evaluateAll((gs) =>
      gs.map((g) => ({
        kind: g.getAttribute('data-kind'),
        attempt: g.getAttribute('data-attempt'),
        outcome: g.getAttribute('data-outcome'),
        x: Number(g.querySelector('rect')!.getAttribute('x')),
      })),
    );
    const runs = bars.filter((b) => b.kind === 'run');
    assert.deepEqual(
      runs.map((b) => [b.attempt, b.outcome]),
      [
        ['0', 'failed'],
        ['1', 'failed'],
        ['2', 'failed'],
        ['3', 'failed'],
      ],
    );
    for (let i = 1; i < runs.length; i++) assert.ok(runs[i]!.x > runs[i - 1]!.x, 'bars go left to right in start order');
    const backoff = bars.filter((b) => b.kind === 'backoff');
    assert.equal(backoff.length, 1);
    assert.ok(backoff[0]!.x >= runs[3]!.x);
    // init-ok ran (and succeeded) before the first attempt of init-db-check.
    const okX = Number(await p.page.locator('svg.timeline g.lane[data-lane="container:init-ok"] g.bar rect').getAttribute('x'));
    assert.ok(okX < runs[0]!.x);
    assert.equal(await p.page.locator('svg.timeline g.lane[data-lane="container:init-ok"] g.bar').getAttribute('data-outcome'), 'succeeded');
    assert.equal(await p.page.locator('svg.timeline g.lane[data-lane="container:app"] g.bar').count(), 0);
  });

  test('the timeline axis starts at 0s and its ticks increase', async () => {
    const ticks = await p.page.locator('svg.timeline g.axis text.tick').evaluateAll((ts) =>
      ts.map((t) => ({ label: t.textContent, offset: Number(t.getAttribute('data-offset')), x: Number(t.getAttribute('x')) })),
    );
    assert.equal(ticks[0]!.label, '0s');
    assert.ok(ticks.length >= 3);
    for (let i = 1; i < ticks.length; i++) assert.ok(ticks[i]!.offset > ticks[i - 1]!.offset && ticks[i]!.x > ticks[i - 1]!.x);
  });

  test('the timeline marks the phase/STATUS changes and the events', async () => {
    const phases = await p.page.locator('svg.timeline g.phase-mark').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-label')));
    assert.equal(phases[0], 'Pending');
    assert.ok(phases.indexOf('Init:Error') > 0 && phases.indexOf('Init:CrashLoopBackOff') > phases.indexOf('Init:Error'));
    const warnings = await p.page.locator('svg.timeline g.event-mark.event-Warning').count();
    assert.ok(warnings >= 2, 'first and last BackOff');
  });

  test('the events list shows type, reason, age with count, source and message', async () => {
    const backoff = await cells(p, '[data-testid=events-table] tr[data-reason=BackOff]');
    assert.equal(backoff[0], 'Warning');
    assert.equal(backoff[1], 'BackOff');
    assert.match(backoff[2]!, /^\d+s \(x5 over \d+s\)$/);
    assert.equal(backoff[3], 'kubelet');
    assert.match(backoff[4]!, /^Back-off restarting failed container init-db-check in pod init-fail_default\(/);
    const scheduled = await cells(p, '[data-testid=events-table] tr[data-reason=Scheduled]');
    assert.deepEqual([scheduled[3], scheduled[4]], ['default-scheduler', 'Successfully assigned default/init-fail to podlab-node']);
  });

  test('the logs pane opens on the failed container and offers current, previous and every attempt', async () => {
    const options = await p.page.locator('[data-testid=logs-attempt] vscode-option').evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    assert.equal(options[0], 'current');
    assert.equal(options[1], 'previous');
    assert.equal(options.length, 6);
    assert.equal(await p.page.locator('[data-testid=logs-container] vscode-option[selected]').getAttribute('value'), 'init-db-check');
  });

  test('every update is acknowledged with its sequence number', async () => {
    const acked = new Set((await p.posted()).flatMap((m) => renderedSeqs(m)));
    for (const m of sent) if (m.type === 'snapshot' || m.type === 'patch') assert.ok(acked.has(m.seq), `update ${m.seq} acknowledged`);
  });

  test('Restart now and Open Shell post typed requests for the failed container', async () => {
    await p.page.click('[data-testid="restart-now-init-db-check"]');
    await p.page.click('[data-testid="open-shell-init-db-check"]');
    await p.page.waitForFunction(() =>
      (window as unknown as { __posted: { type: string; body?: { kind: string } }[] }).__posted.some((m) => m.body?.kind === 'openShell'),
    );
    const bodies = (await p.posted()).flatMap((m) => (m.type === 'request' && m.body.kind !== 'logs' && m.body.kind !== 'followLogs' ? [m.body] : []));
    assert.deepEqual(bodies, [
      { kind: 'restartNow', container: 'init-db-check' },
      { kind: 'openShell', container: 'init-db-check' },
    ]);
  });

  test('Restart now is labelled as a lab feature', async () => {
    assert.match(await text(p, '[data-testid="failed-init-init-db-check"] .actions'), /lab feature/i);
  });

  test('no CSP violation and no script error happened', async () => {
    assert.deepEqual(await p.problems(), []);
  });

  test('screenshots in dark, light and high-contrast themes', async () => {
    await p.screenshot('panel-failing-init-dark');
    await p.setTheme('light');
    await p.screenshot('panel-failing-init-light');
    await p.setTheme('high-contrast');
    await p.screenshot('panel-failing-init-high-contrast');
    await p.setTheme('dark');
    // The toolkit follows the theme: a primary button takes the theme's button colour.
    const bg = await p.page.locator('[data-zoom=all]').evaluate((b) => getComputedStyle(b).getPropertyValue('--button-primary-background').trim());
    assert.equal(bg.toLowerCase(), '#0078d4');
  });
});

describe('the two-container pod', () => {
  const stream = recordedStream('two-containers');
  let p: PanelPage;
  before(async () => {
    ({ p } = await play(stream, { theme: 'light' }));
  });
  after(async () => {
    await p?.close();
  });

  test('it shows Running with both containers ready', async () => {
    assert.equal(await text(p, '[data-testid=status]'), 'Running');
    assert.equal(await text(p, '[data-testid=ready]'), '2/2');
    for (const name of ['web', 'client']) {
      const row = await cells(p, `[data-testid=containers-table] tr[data-container="${name}"]`);
      assert.deepEqual(row.slice(2, 8), ['Running', '', '', '0', 'true', 'true']);
    }
  });

  test('all five conditions are True', async () => {
    const statuses = await p.page.locator('[data-testid=conditions-table] td[data-col=status]').allInnerTexts();
    assert.deepEqual(statuses, ['True', 'True', 'True', 'True', 'True']);
  });

  test('the events are Scheduled, Pulled, Created and Started', async () => {
    const reasons = await p.page.locator('[data-testid=events-table] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-reason')));
    assert.deepEqual(reasons, ['Scheduled', 'Pulled', 'Created', 'Started', 'Pulled', 'Created', 'Started']);
  });

  test('the timeline shows both containers running, web started first, and no failed-init card', async () => {
    const bars = await p.page.locator('svg.timeline g.lane[data-kind=app] g.bar').evaluateAll((gs) =>
      gs.map((g) => [g.closest('g.lane')!.getAttribute('data-lane'), g.getAttribute('data-outcome'), Number(g.querySelector('rect')!.getAttribute('x'))] as const),
    );
    assert.deepEqual(
      bars.map((b) => [b[0], b[1]]),
      [
        ['container:web', 'running'],
        ['container:client', 'running'],
      ],
    );
    assert.ok(bars[0]![2] < bars[1]![2]);
    assert.equal(await p.page.locator('[data-testid^=failed-init-]').count(), 0);
    await p.screenshot('panel-two-containers-light');
    assert.deepEqual(await p.problems(), []);
  });
});

/** The updates a message acknowledges, oldest first (none unless it is a `rendered`). */
function renderedSeqs(m: WebviewToHost): number[] {
  return m.type === 'rendered' ? [...(m.earlier ?? []).map((u) => u.seq), m.seq] : [];
}

describe('protocol behaviour in the webview', () => {
  const stream = recordedStream('failing-init');

  test('a burst of updates is saved once, after the burst, with the last update', async () => {
    const p = await openPanel(browser, script, { title: `${stream.namespace}/${stream.name}` });
    try {
      const updates = replay(stream)
        .map((m) => m.message)
        .filter((m) => m.type === 'snapshot' || m.type === 'patch');
      const last = updates.at(-1)!;
      await p.page.evaluate((ms) => {
        for (const data of ms) window.dispatchEvent(new MessageEvent('message', { data }));
      }, updates);
      const during = await p.saves();
      await p.page.waitForTimeout(500);
      const saved = (await p.savedState()) as WebviewState;
      assert.deepEqual({ during, after: await p.saves(), seq: saved.seq, updates: updates.length > 1 }, { during: 0, after: 1, seq: last.type === 'snapshot' || last.type === 'patch' ? last.seq : -1, updates: true });
    } finally {
      await p.close();
    }
  });

  test('an update that finds the panel idle is drawn at once; those that follow within a frame wait for the next frame, together', async () => {
    const msgs = replay(stream);
    const updates = msgs.map((m) => m.message).filter((m): m is Extract<HostToWebview, { type: 'snapshot' | 'patch' }> => m.type === 'snapshot' || m.type === 'patch');
    const start = msgs[0]!.at;
    // Frames, timers and performance.now() move only when the test moves the clock.
    const p = await openPanel(browser, script, { title: `${stream.namespace}/${stream.name}`, clockAt: start });
    try {
      await p.page.evaluate(() => {
        const w = window as unknown as { __renders: number };
        w.__renders = 0;
        new MutationObserver((records) => {
          w.__renders += records.length;
        }).observe(document.getElementById('app')!, { attributes: true, attributeFilter: ['data-seq'] });
      });
      // Each message in a task of its own, as the workbench delivers them; the answer is read in
      // a later task, once the microtasks of the last delivery have run.
      const deliver = async (ms: readonly HostToWebview[]) => {
        for (const data of ms) await p.page.evaluate((d) => window.dispatchEvent(new MessageEvent('message', { data: d })), data);
        return p.page.evaluate(() => ({ seq: document.getElementById('app')!.dataset.seq ?? '', renders: (window as unknown as { __renders: number }).__renders }));
      };
      const [a, b, c, d] = updates as [(typeof updates)[number], (typeof updates)[number], (typeof updates)[number], (typeof updates)[number]];
      const first = await deliver([a]);
      const burst = await deliver([b, c]);
      await p.page.clock.runFor(20);
      const atFrame = await deliver([]);
      await p.page.clock.runFor(100);
      const later = await deliver([d]);
      assert.deepEqual(
        { first, burst, atFrame, later },
        {
          first: { seq: String(a.seq), renders: 1 },
          burst: { seq: String(a.seq), renders: 1 },
          atFrame: { seq: String(c.seq), renders: 2 },
          later: { seq: String(d.seq), renders: 3 },
        },
      );
    } finally {
      await p.close();
    }
  });

  test('a burst of updates that arrives in one task is rendered once, and acknowledged in one message that names each update', async () => {
    const p = await openPanel(browser, script, { title: `${stream.namespace}/${stream.name}` });
    try {
      const updates = replay(stream)
        .map((m) => m.message)
        .filter((m): m is Extract<HostToWebview, { type: 'snapshot' | 'patch' }> => m.type === 'snapshot' || m.type === 'patch');
      const rendersDuring = await p.page.evaluate((ms) => {
        // Each render marks the root with the update it shows (data-seq): count those marks.
        const w = window as unknown as { __renders: number };
        w.__renders = 0;
        new MutationObserver((records) => {
          w.__renders += records.length;
        }).observe(document.getElementById('app')!, { attributes: true, attributeFilter: ['data-seq'] });
        for (const data of ms) window.dispatchEvent(new MessageEvent('message', { data }));
        return document.getElementById('app')!.dataset.seq ?? '';
      }, updates);
      await p.waitForSeq(updates.at(-1)!.seq);
      await p.page.waitForTimeout(100);
      const renders = await p.page.evaluate(() => (window as unknown as { __renders: number }).__renders);
      const acks = (await p.posted()).flatMap((m) => (m.type === 'rendered' ? [renderedSeqs(m)] : []));
      assert.deepEqual(
        { rendersDuring, renders, acks },
        { rendersDuring: '', renders: 1, acks: [updates.map((u) => u.seq)] },
      );
    } finally {
      await p.close();
    }
  });

  // The second half of the failing-init stream changes the containers, the events and the
  // timeline again and again (each back-off, restart and exit); the learner is in the panel meanwhile.
  async function halfway(): Promise<{ p: PanelPage; rest: Extract<HostToWebview, { type: 'snapshot' | 'patch' }>[]; touched: string[] }> {
    const updates = replay(stream)
      .map((m) => m.message)
      .filter((m): m is Extract<HostToWebview, { type: 'snapshot' | 'patch' }> => m.type === 'snapshot' || m.type === 'patch');
    const half = Math.floor(updates.length / 2);
    const p = await openPanel(browser, script, { title: `${stream.namespace}/${stream.name}` });
    p.serveRequests(stream);
    for (const m of updates.slice(0, half)) await p.send(m);
    await p.waitForSeq(updates[half - 1]!.seq);
    const rest = updates.slice(half);
    const touched = [...new Set(rest.flatMap((m) => (m.type === 'patch' ? Object.keys(m.changes) : ['snapshot'])))].sort();
    return { p, rest, touched };
  }

  test('keyboard focus stays where it was while updates change the section around it', async () => {
    const { p, rest, touched } = await halfway();
    try {
      await p.page.focus('[data-testid=containers] > h2');
      for (const m of rest) await p.send(m);
      await p.waitForSeq(rest.at(-1)!.seq);
      const focused = await p.page.evaluate(() => {
        const a = document.activeElement;
        return a ? `${a.tagName} in ${a.closest('section')?.getAttribute('data-testid') ?? 'no section'}` : 'nothing';
      });
      assert.deepEqual({ focused, containersChanged: touched.includes('containers') }, { focused: 'H2 in containers', containersChanged: true });
    } finally {
      await p.close();
    }
  });

  test('a panel that does not have the focus does not take it when an update rebuilds the logs pane', async () => {
    const { p, rest } = await halfway();
    try {
      await p.page.focus('[data-testid=logs-wrap]');
      // The learner moves on (the command palette, an editor): in VS Code the webview's frame keeps
      // its last focused element, but its document no longer has the focus. (Headless Chromium
      // tells every page it has the focus: the document says what the webview's would.)
      await p.page.evaluate(() => {
        Document.prototype.hasFocus = () => false;
        const w = window as unknown as { __rebuilt: boolean };
        w.__rebuilt = false;
        const old = document.querySelector('[data-testid=logs-wrap]');
        new MutationObserver(() => (w.__rebuilt ||= !old!.isConnected)).observe(document.body, { childList: true, subtree: true });
      });
      for (const m of rest) await p.send(m);
      await p.waitForSeq(rest.at(-1)!.seq);
      const after = await p.page.evaluate(() => ({
        rebuilt: (window as unknown as { __rebuilt: boolean }).__rebuilt,
        active: (document.activeElement as HTMLElement | null)?.dataset.testid || document.activeElement?.tagName || '',
      }));
      assert.deepEqual(after, { rebuilt: true, active: 'BODY' });
    } finally {
      await p.close();
    }
  });

  test("text the learner selected in an event's message stays selected while updates change the events", async () => {
    const { p, rest, touched } = await halfway();
    try {
      const selected = await p.page.evaluate(() => {
        const cell = document.querySelector('[data-testid=events-table] tbody tr td.message')!;
        const range = document.createRange();
        range.selectNodeContents(cell);
        getSelection()!.removeAllRanges();
        getSelection()!.addRange(range);
        return getSelection()!.toString();
      });
      for (const m of rest) await p.send(m);
      await p.waitForSeq(rest.at(-1)!.seq);
      const after = await p.page.evaluate(() => getSelection()!.toString());
      assert.deepEqual({ after, eventsChanged: touched.includes('events'), nonEmpty: selected.length > 0 }, { after: selected, eventsChanged: true, nonEmpty: true });
    } finally {
      await p.close();
    }
  });

  test('state survives hide/show: a reloaded webview renders its saved state and asks for a snapshot', async () => {
    const { p } = await play(stream);
    await p.page.click('[data-zoom=first5s]');
    const saved = await p.savedState();
    await p.close();
    const again = await openPanel(browser, script, { initialState: saved });
    try {
      assert.equal(await again.page.locator('#app').getAttribute('data-restored'), 'true');
      assert.equal(await text(again, '[data-testid=status]'), 'Init:CrashLoopBackOff');
      assert.equal(await again.page.locator('[data-zoom=first5s]').getAttribute('aria-pressed'), 'true');
      const ready = (await again.posted()).find((m): m is Extract<WebviewToHost, { type: 'ready' }> => m.type === 'ready');
      assert.equal(typeof ready?.haveSeq, 'number');
    } finally {
      await again.close();
    }
  });

  test('a patch that does not follow the last update makes the webview ask for a resync', async () => {
    const p = await openPanel(browser, script);
    try {
      const [first, second] = replay(stream).map((m) => m.message);
      await p.send(first!);
      await p.waitForSeq(1);
      assert.equal(second!.type, 'patch');
      if (second!.type === 'patch') await p.send({ ...second!, baseSeq: 7, seq: 8 });
      await p.page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'resync'));
      assert.equal(await p.page.locator('#app').getAttribute('data-seq'), '1');
    } finally {
      await p.close();
    }
  });

  test('in step mode the panel offers Continue, says it is a lab feature, and posts continueStep', async () => {
    // The stream up to the sandbox, then the engine reports it waits before the first init container.
    const t0 = stream.frames[0]!.at;
    const frames = stream.frames.filter((f) => f.at <= t0 + 195);
    const lastDebug = [...frames].reverse().find((f) => 'debug' in f);
    assert.ok(lastDebug && 'debug' in lastDebug && lastDebug.debug);
    frames.push({ at: t0 + 196, debug: { ...lastDebug.debug, stepWaitingFor: 'init-ok' } });
    const { p } = await play({ ...stream, frames });
    try {
      const banner = await text(p, '[data-testid=step]');
      assert.match(banner, /Step mode: the kubelet is waiting before it starts init container init-ok/);
      assert.match(banner, /Pod Lab feature/);
      assert.match(banner, /real kubelet has no such mode/);
      assert.equal(await p.page.locator('svg.timeline g.bar[data-kind=stepwait]').count(), 1);
      await p.page.click('[data-testid=continue]');
      await p.page.waitForFunction(() =>
        (window as unknown as { __posted: { body?: { kind: string } }[] }).__posted.some((m) => m.body?.kind === 'continueStep'),
      );
      await p.screenshot('panel-step-mode-dark');
    } finally {
      await p.close();
    }
  });

  test('a deleted pod keeps its last state with a notice: its badge says Deleted (its last STATUS in the title), and its age stops at the deletion', async () => {
    const last = [...stream.frames].reverse().find((f) => 'watch' in f && f.watch.kind === 'Pod');
    assert.ok(last && 'watch' in last);
    const frames = [...stream.frames, { at: last.at + 60_000, watch: { ...last.watch, type: 'DELETED' as const } }];
    const { p } = await play({ ...stream, frames });
    try {
      assert.match(await text(p, '[data-testid=gone]'), /deleted/);
      assert.equal(await text(p, '[data-testid=status]'), 'Deleted');
      assert.equal(await p.page.locator('[data-testid=status]').getAttribute('title'), 'Deleted. Its last kubectl STATUS: Init:CrashLoopBackOff');
      // (the recording is old: a running clock would show its age in days or years)
      const created = Date.parse((last.watch.object as { metadata?: { creationTimestamp?: string } }).metadata?.creationTimestamp ?? '');
      assert.equal(await text(p, '[data-testid=age]'), humanDuration(last.at + 60_000 - created));
    } finally {
      await p.close();
    }
  });

  test("a deleted pod's logs say the pod was deleted, not the API's not-found error", async () => {
    const last = [...stream.frames].reverse().find((f) => 'watch' in f && f.watch.kind === 'Pod');
    assert.ok(last && 'watch' in last);
    // Without debug frames the recorded answers have no attempt: every log request fails, as the host's does for a deleted pod.
    const frames = [...stream.frames.filter((f) => 'watch' in f), { at: last.at + 60_000, watch: { ...last.watch, type: 'DELETED' as const } }];
    const { p } = await play({ ...stream, frames });
    try {
      await p.page.locator('[data-testid=logs-gone]').first().waitFor({ timeout: 5000 });
      assert.equal(await text(p, '[data-testid=logs-gone]'), 'This pod was deleted: its containers and their logs were removed with it.');
    } finally {
      await p.close();
    }
  });

  test("a pod deleted with its panel open keeps what the kubelet recorded: the sandbox, every attempt at its own time in the timeline, and the logs read before", async () => {
    const { p, sent } = await play(stream);
    try {
      await p.page.waitForFunction(() => document.querySelectorAll('details.attempt pre.log-lines').length === 4);
      type Drawn = [string | null | undefined, string | null, string | null, number, number | null];
      const drawn = () =>
        p.page
          .locator('svg.timeline g.bar')
          .evaluateAll((gs) => gs.map((g) => [g.closest('g.lane')?.getAttribute('data-kind'), g.getAttribute('data-kind'), g.getAttribute('data-attempt'), Number(g.getAttribute('data-start')), g.hasAttribute('data-end') ? Number(g.getAttribute('data-end')) : null])) as Promise<Drawn[]>;
      const before = await drawn();
      const logs = () => p.page.locator('details.attempt pre.log-lines').allTextContents();
      const logsBefore = await logs();
      // the pod leaves the store, and the lab's poddebugs with it
      const last = [...stream.frames].reverse().find((f) => 'watch' in f && f.watch.kind === 'Pod');
      assert.ok(last && 'watch' in last);
      const goneAt = last.at + 1000;
      const deleted = { ...stream, frames: [...stream.frames, { at: goneAt, watch: { ...last.watch, type: 'DELETED' as const } }, { at: goneAt + 1, debug: null }] };
      const more = replay(deleted).map((m) => m.message).slice(sent.length);
      assert.ok(more.length > 0);
      for (const m of more) await p.send(m);
      await p.page.locator('[data-testid=gone]').waitFor({ timeout: 5000 });
      const after = await drawn();
      assert.ok(before.some(([lane]) => lane === 'sandbox'), 'the sandbox was drawn');
      assert.ok(before.some(([, kind]) => kind === 'backoff'), 'a back-off was drawn');
      // every bar as it was, at its own time; the back-off the init container was in and what was still open end at the deletion
      assert.deepEqual(
        after,
        before.map(([lane, kind, attempt, start, end]): Drawn => [lane, kind, attempt, start, kind === 'backoff' ? Math.min(end!, goneAt) : (end ?? goneAt)]),
      );
      assert.deepEqual(await logs(), logsBefore);
      assert.equal(await p.page.locator('[data-testid=logs-gone]').count(), 0);
    } finally {
      await p.close();
    }
  });
});

describe('streams recorded from a real engine run', () => {
  test('the recorded failing init pod: STATUS, every attempt in the timeline, logs of the attempts the runtime kept', async () => {
    const stream = recordedStream('recorded-failing-init');
    const { p } = await play(stream);
    try {
      assert.equal(await text(p, '[data-testid=status]'), 'Init:CrashLoopBackOff');
      const bars = await p.page.locator('svg.timeline g.lane[data-kind=init] g.bar[data-kind=run]').evaluateAll((gs) =>
        gs.map((g) => [Number(g.getAttribute('data-attempt')), Number(g.querySelector('rect')!.getAttribute('x'))]),
      );
      assert.deepEqual(
        bars.map((b) => b[0]),
        [0, 1, 2, 3],
      );
      for (let i = 1; i < bars.length; i++) assert.ok(bars[i]![1]! > bars[i - 1]![1]!);
      assert.equal(await p.page.locator('svg.timeline g.bar[data-kind=backoff]').count(), 1);
      await p.page.waitForFunction(() => document.querySelectorAll('details.attempt pre.log-lines').length === 2);
      const kept = await p.page.locator('details.attempt:not([data-removed]) pre.log-lines').evaluateAll((ps) => ps.map((x) => x.textContent ?? ''));
      for (const logs of kept) assert.match(logs, /db not reachable/);
      assert.equal(await p.page.locator('details.attempt[data-removed] .removed').count(), 2);
      await p.screenshot('panel-recorded-failing-init-dark');
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });

  test('the recorded two-container pod: Running, 2/2, both containers running in the timeline', async () => {
    const stream = recordedStream('recorded-two-containers');
    const { p } = await play(stream, { theme: 'light' });
    try {
      assert.equal(await text(p, '[data-testid=status]'), 'Running');
      assert.equal(await text(p, '[data-testid=ready]'), '2/2');
      const outcomes = await p.page.locator('svg.timeline g.lane[data-kind=app] g.bar').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-outcome')));
      assert.deepEqual(outcomes, ['running', 'running']);
      const reasons = await p.page.locator('[data-testid=events-table] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-reason')));
      assert.deepEqual(reasons, ['Scheduled', 'Pulled', 'Created', 'Started', 'Pulled', 'Created', 'Started']);
      await p.screenshot('panel-recorded-two-containers-light');
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });
});

describe('a pod with probes and hooks (recorded from examples/probes-and-hooks.yaml, 75 s)', () => {
  const stream = recordedStream('probes-and-hooks');
  let p: PanelPage;

  before(async () => {
    ({ p } = await play(stream));
  });
  after(async () => {
    await p?.close();
  });

  const row = (probe: string) =>
    p.page.locator(`[data-testid=probes] tr[data-probe=${probe}]`).evaluate((tr) => ({
      config: tr.querySelector('[data-col=config]')!.textContent,
      verdict: tr.querySelector('[data-testid=verdict]')!.textContent,
      flag: tr.querySelector('[data-testid=flag]')?.textContent ?? null,
      result: tr.querySelector('[data-testid=result]')?.textContent ?? null,
      streak: tr.querySelector('[data-testid=streak]')?.textContent ?? null,
      seen: tr.querySelector('[data-testid=seen]')?.textContent ?? null,
      output: tr.querySelector('[data-testid=output]')?.textContent ?? null,
    }));

  test("the probes table: each probe as kubectl describe writes it, its verdict and the flag it sets, the latest run and the run toward a verdict", async () => {
    const rows = await p.page.locator('[data-testid=probes] tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-container')} ${tr.getAttribute('data-probe')}`));
    assert.deepEqual(rows, ['web Liveness', 'web Readiness', 'web Startup']);
    assert.deepEqual(await row('Liveness'), {
      config: 'exec [cat /tmp/healthy] delay=5s timeout=1s period=5s #success=1 #failure=3',
      verdict: 'Success',
      flag: null,
      result: 'success',
      streak: '1 success in a row (successThreshold 1 reached)',
      seen: '3 of 11 runs seen failed',
      output: null,
    });
    assert.deepEqual(await row('Readiness'), {
      config: 'http-get http://:http/index.html delay=0s timeout=1s period=2s #success=1 #failure=3',
      verdict: 'Success',
      flag: 'ready: true',
      result: 'success',
      streak: '2 successes in a row (successThreshold 1 reached)',
      seen: '12 of 41 runs seen failed',
      output: 'ready at Mon Nov 23 00:47:59 UTC 2026\n',
    });
    assert.deepEqual(await row('Startup'), {
      config: 'exec [cat /tmp/post-start] delay=0s timeout=1s period=1s #success=1 #failure=10',
      verdict: 'Success',
      flag: 'started: true',
      result: 'success',
      streak: '1 success in a row (successThreshold 1 reached)',
      seen: '0 of 2 runs seen failed',
      output: 'started\n',
    });
    assert.match(await p.page.locator('[data-testid=probes] tr[data-probe=Readiness] [data-col=last]').innerText(), /^success at \d\d:\d\d:\d\d\.\d{3}, took 3ms/);
  });

  test('the Ready condition row shows False, True, False after the liveness restart, and True again, each flip with its reason', async () => {
    const marks = await p.page.locator('svg.timeline g.ready-mark').evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-status'), g.querySelector('title')!.textContent]));
    assert.deepEqual(
      marks.map((m) => m[0]),
      ['False', 'True', 'False', 'True'],
    );
    assert.match(marks[0]![1]!, /^Ready is False \(ContainersNotReady: containers with unready status: \[web\]\) at \+0\.\d{3}s/);
    assert.match(marks[1]![1]!, /^Ready turned True at \+10\.\d{3}s/);
    assert.match(marks[2]![1]!, /^Ready turned False \(ContainersNotReady: containers with unready status: \[web\]\) at \+63\.\d{3}s/);
    assert.match(marks[3]![1]!, /^Ready turned True at \+72\.\d{3}s/);
    assert.equal(await p.page.locator('svg.timeline g.ready-mark line.ready-flip').count(), 3);
  });

  test("the container's lane has a strip per probe, in the order the kubelet uses them", async () => {
    const labels = await p.page.locator('[data-lane="container:web"] text.strip-label').allTextContents();
    assert.deepEqual(labels, ['startup', 'liveness', 'readiness']);
  });

  test('every failed run is marked (close ones merged and counted), with the probe output on hover', async () => {
    const fails = await p.page.locator('[data-lane="container:web"] .lane-mark[data-kind=probe-fail]').evaluateAll((gs) =>
      gs.map((g) => ({ probe: g.getAttribute('data-probe'), failed: Number(g.getAttribute('data-failed') ?? 1), title: g.querySelector('title')!.textContent! })),
    );
    const count = (probe: string) => fails.filter((f) => f.probe === probe).reduce((n, f) => n + f.failed, 0);
    assert.deepEqual({ readiness: count('readiness'), liveness: count('liveness') }, { readiness: 12, liveness: 3 });
    for (const f of fails.filter((x) => x.probe === 'readiness')) assert.match(f.title, /Readiness probe(:| failed).*\n(last failure: )?HTTP probe failed with statuscode: 404/);
    for (const f of fails.filter((x) => x.probe === 'liveness')) assert.match(f.title, /^web: Liveness probe failed at \+\d+\.\d{3}s .*\ncat: can't open '\/tmp\/healthy': No such file or directory\ntook \d+ ms$/);
  });

  test('a failed run is drawn taller than a passed one, in another colour', async () => {
    const size = (kind: string) =>
      p.page.locator(`[data-lane="container:web"] .lane-mark[data-kind=${kind}]`).first().evaluate((g) => {
        const l = g.querySelector('line, rect')!;
        const box = (l as SVGGraphicsElement).getBBox();
        return { height: box.height, colour: getComputedStyle(l).getPropertyValue(l.tagName === 'line' ? 'stroke' : 'fill') };
      });
    const [fail, pass] = [await size('probe-fail'), await size('probe-pass')];
    assert.ok(fail.height > pass.height, `failure ${fail.height}px, pass ${pass.height}px`);
    assert.notEqual(fail.colour, pass.colour);
  });

  test('the verdict changes are diamonds on their strip: startup twice, readiness twice, liveness Failure once', async () => {
    const v = await p.page.locator('[data-lane="container:web"] .lane-mark[data-kind=verdict]').evaluateAll((gs) => gs.map((g) => `${g.getAttribute('data-probe')} ${g.getAttribute('data-verdict')}`));
    assert.deepEqual(v, ['startup Success', 'readiness Success', 'liveness Failure', 'startup Success', 'readiness Success']);
    const title = await p.page.locator('[data-lane="container:web"] .lane-mark[data-kind=verdict][data-probe=liveness] title').textContent();
    assert.match(title!, /Liveness: Failure .*\nunhealthy: the kubelet kills the container/);
  });

  test('the hook runs are spans on the lane: postStart, preStop (2 s sleep) at the liveness kill, postStart of the restarted container', async () => {
    const hooks = await p.page.locator('[data-lane="container:web"] .lane-mark[data-kind=hook] title').allTextContents();
    assert.deepEqual(
      hooks.map((t) => t.replace(/ at .*\n/, ' | ')),
      ['web: postStart hook | returned after 57 ms', 'web: preStop hook | returned after 2001 ms', 'web: postStart hook | returned after 49 ms'],
    );
    const widths = await p.page.locator('[data-lane="container:web"] .lane-mark[data-kind=hook] rect').evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('width'))));
    assert.ok(widths[1]! > widths[0]! * 5, `preStop (2 s) is wider than postStart (57 ms): ${widths.join(', ')}`);
  });

  test('the legend explains the probe marks, verdicts, hooks and the Ready row', async () => {
    const legend = await p.page.locator('.legend').innerText();
    for (const s of ['probe passed', 'probe failed', 'verdict changed', 'hook ran', 'hook failed', 'Ready True', 'Ready False']) assert.ok(legend.includes(s), `legend has "${s}"`);
  });

  test('no CSP violation or script error; screenshots in dark and light themes', async () => {
    await p.screenshot('panel-probes-and-hooks-dark');
    await p.setTheme('light');
    await p.screenshot('panel-probes-and-hooks-light');
    await p.setTheme('dark');
    assert.deepEqual(await p.problems(), []);
  });
});

describe('a pod probed every second for four minutes, with a failing postStart hook (hand-built)', () => {
  const stream = recordedStream('probes-dense');
  let p: PanelPage;

  before(async () => {
    ({ p } = await play(stream));
  });
  after(async () => {
    await p?.close();
  });

  const strip = (probe: string) =>
    p.page.locator(`[data-lane="container:web"] .lane-mark[data-probe=${probe}]:not([data-kind=verdict])`).evaluateAll((gs) =>
      gs.map((g) => ({ kind: g.getAttribute('data-kind')!, runs: Number(g.getAttribute('data-runs') ?? 1), failed: Number(g.getAttribute('data-failed') ?? (g.getAttribute('data-kind') === 'probe-fail' ? 1 : 0)), x: Number(g.querySelector('line, rect')!.getAttribute(g.querySelector('line') ? 'x1' : 'x')) })),
    );

  test('each strip stays readable: marks at least 3 px apart, every run counted, every failure kept', async () => {
    const width = Number(await p.page.locator('svg.timeline').getAttribute('width'));
    for (const [probe, runs, failed] of [
      ['readiness', 236, 47],
      ['liveness', 236, 0],
      ['startup', 3, 2],
    ] as const) {
      const marks = await strip(probe);
      assert.ok(marks.length <= width / 3, `${probe}: ${marks.length} marks in ${width}px`);
      for (let i = 1; i < marks.length; i++) assert.ok(marks[i]!.x - marks[i - 1]!.x >= 2.9, `${probe} marks ${i - 1} and ${i} are ${marks[i]!.x - marks[i - 1]!.x}px apart`);
      assert.deepEqual(
        { runs: marks.reduce((n, m) => n + m.runs, 0), failed: marks.reduce((n, m) => n + m.failed, 0) },
        { runs, failed },
        probe,
      );
    }
  });

  test("a group of runs says how many it stands for and shows the last failure's output", async () => {
    const title = await p.page.locator('[data-lane="container:web"] .lane-mark[data-kind=probe-fail][data-probe=readiness][data-runs] title').first().textContent();
    assert.match(title!, /^web: Readiness probe: \d+ runs, \d+ failed from \+\d+\.\d{3}s to \+\d+\.\d{3}s .*\nlast failure: cat: can't open '\/tmp\/ready': No such file or directory\ntook 44 ms$/);
  });

  test('zoomed to the last 60 s, the strips show the runs of that minute', async () => {
    await p.page.click('[data-zoom=last60s]');
    try {
      const marks = await strip('readiness');
      const runs = marks.reduce((n, m) => n + m.runs, 0);
      assert.ok(runs >= 55 && runs <= 62, `runs in the last minute: ${runs}`);
      assert.equal(marks.filter((m) => m.kind === 'probe-fail').length, 0, 'no readiness failure in the last minute');
    } finally {
      await p.page.click('[data-zoom=all]');
    }
  });

  test('the Ready row flips True at 21 s, False at 124 s, True at 152 s', async () => {
    const marks = await p.page.locator('svg.timeline g.ready-mark').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-status')));
    assert.deepEqual(marks, ['False', 'True', 'False', 'True']);
  });

  test("the worker's failed postStart is a red span whose hover has the kubelet's message; its second run is a plain span", async () => {
    const hooks = await p.page.locator('[data-lane="container:worker"] .lane-mark').evaluateAll((gs) =>
      gs.map((g) => [g.getAttribute('data-kind'), g.querySelector('title')!.textContent!.split('\n').slice(0, 2).join(' | ').replace(/ at \+[^|]*(?= \|)/, '')]),
    );
    assert.deepEqual(hooks, [
      [
        'hook-fail',
        'worker: postStart hook failed | Exec lifecycle hook ([sh -c test -f /tmp/config]) for Container "worker" in Pod "flaky_default(5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9)" failed - error: command \'sh -c test -f /tmp/config\' exited with 1: , message: ""',
      ],
      ['hook', 'worker: postStart hook | returned after 55 ms'],
    ]);
    const fill = await p.page.locator('[data-lane="container:worker"] .lane-mark[data-kind=hook-fail] rect').evaluate((r) => getComputedStyle(r).fill);
    const ok = await p.page.locator('[data-lane="container:worker"] .lane-mark[data-kind=hook] rect').evaluate((r) => getComputedStyle(r).fill);
    assert.notEqual(fill, ok);
  });

  test('the readiness row of the probes table: 89 successes in a row after 47 failures seen', async () => {
    const text = await p.page.locator('[data-testid=probes] tr[data-probe=Readiness] [data-col=last]').innerText();
    assert.match(text, /89 successes in a row \(successThreshold 1 reached\)\n47 of 236 runs seen failed/);
    await p.screenshot('panel-probes-dense-dark');
    assert.deepEqual(await p.problems(), []);
  });
});

describe('a missing ConfigMap (recorded)', () => {
  test('referenced by the env: the pod shows CreateContainerConfigError and a notice naming the ConfigMap and the variable', async () => {
    const { p } = await play(recordedStream('missing-configmap-env'));
    try {
      assert.equal(await text(p, '[data-testid=status]'), 'CreateContainerConfigError');
      const box = p.page.locator('[data-testid="notice-config:app"]');
      assert.deepEqual(
        await box.evaluate((b) => ({
          title: b.querySelector('h2')!.textContent,
          message: b.querySelector('[data-testid=notice-message]')!.textContent,
          missing: b.querySelector('[data-testid=notice-missing]')!.textContent,
          refs: b.querySelector('[data-testid=notice-refs]')!.textContent,
          event: b.querySelector('[data-testid=notice-event]')!.textContent!.replace(/\d+s ago/, 'Ns ago'),
        })),
        {
          title: 'Container app cannot be created (CreateContainerConfigError)',
          message: 'configmap "app-config" not found',
          missing: 'Missing: ConfigMap app-config in namespace default',
          refs: 'Referenced by: env MODE (key mode)',
          event: 'Warning Failed ×3, last Ns ago',
        },
      );
      assert.match(await box.locator('.explain').innerText(), /create ConfigMap app-config in namespace default/);
      // The notice comes before the timeline, where a learner looks first.
      const order = await p.page.locator('#app > section').evaluateAll((ss) => ss.map((s) => s.id));
      assert.ok(order.indexOf('section-notices') < order.indexOf('section-timeline'));
      assert.equal(await p.page.locator('svg.timeline [data-lane="container:app"] g.bar[data-kind=waiting]').getAttribute('data-outcome'), 'failed');
      const reason = p.page.locator('[data-testid=containers-table] tr[data-container=app] [data-col=reason]');
      assert.deepEqual([await reason.innerText(), await reason.getAttribute('title')], ['CreateContainerConfigError', 'configmap "app-config" not found']);
      await p.screenshot('panel-missing-configmap-env-dark');
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });

  test('mounted as a volume: the pod shows ContainerCreating, the FailedMount events, and a notice naming the volume and the ConfigMap', async () => {
    const { p } = await play(recordedStream('missing-configmap-volume'), { theme: 'light' });
    try {
      assert.equal(await text(p, '[data-testid=status]'), 'ContainerCreating');
      const box = p.page.locator('[data-testid="notice-mount:cfg"]');
      assert.deepEqual(
        await box.evaluate((b) => ({
          title: b.querySelector('h2')!.textContent,
          message: b.querySelector('[data-testid=notice-message]')!.textContent,
          missing: b.querySelector('[data-testid=notice-missing]')!.textContent,
          refs: b.querySelector('[data-testid=notice-refs]')!.textContent,
        })),
        {
          title: 'Volume cfg cannot be set up (FailedMount): the pod cannot start',
          message: 'MountVolume.SetUp failed for volume "cfg" : configmap "app-config" not found',
          missing: 'Missing: ConfigMap app-config in namespace default',
          refs: 'Referenced by: volume cfg (configMap app-config), mounted by app at /etc/app',
        },
      );
      const failed = await cells(p, '[data-testid=events-table] tr[data-reason=FailedMount]');
      assert.deepEqual([failed[0], failed[1], failed[4]], ['Warning', 'FailedMount', 'MountVolume.SetUp failed for volume "cfg" : configmap "app-config" not found']);
      assert.match(failed[2]!, /\(x6 over \d+s\)/);
      await p.screenshot('panel-missing-configmap-volume-light');
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });
});

describe('the panel fits where it opens: 360, 600 and 1200 px, dark and light', () => {
  const stream = recordedStream('failing-init');
  for (const width of [360, 600, 1200]) {
    for (const theme of ['dark', 'light'] as const) {
      test(`${width} px, ${theme}: nothing wider than the panel; containers are ${width < 720 ? 'cards of labelled lines' : 'a table'}`, async () => {
        const { p } = await play(stream, { width, theme });
        try {
          const layout = await p.page.evaluate(() => {
            const cw = document.documentElement.clientWidth;
            const wider = Array.from(document.querySelectorAll('body *'))
              .filter((el) => el.getBoundingClientRect().right > cw + 1 && el.closest('.log-lines') === null)
              .map((el) => `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}`);
            const row = document.querySelector('[data-testid=containers-table] tr[data-container=init-db-check]')!;
            const last = row.querySelector('td[data-col=last-state]') as HTMLElement;
            const exit = document.querySelector('[data-testid=containers-table] tr[data-container=init-ok] td[data-col=exit-code]') as HTMLElement;
            const [lastShown, exitShown] = [last, exit].map((el) => {
              const r = el.getBoundingClientRect();
              return r.width > 0 && r.left >= 0 && r.right <= cw + 1;
            });
            return {
              wider: wider.slice(0, 5),
              rowDisplay: getComputedStyle(row).display,
              headingsShown: getComputedStyle(document.querySelector('[data-testid=containers-table] thead')!).display !== 'none',
              lastState: { text: last.innerText, label: last.dataset.label, shown: lastShown },
              exitCode: { text: exit.innerText, label: exit.dataset.label, shown: exitShown },
            };
          });
          const narrow = width < 720;
          assert.deepEqual(layout, {
            wider: [],
            rowDisplay: narrow ? 'block' : 'table-row',
            headingsShown: !narrow,
            lastState: { text: 'Error (exit 3)', label: 'Last state', shown: true },
            exitCode: { text: '0', label: 'Exit code', shown: true },
          });
          await p.screenshot(`panel-failing-init-${width}px-${theme}`);
          assert.deepEqual(await p.problems(), []);
        } finally {
          await p.close();
        }
      });
    }
  }

  test('a section folds from its heading, and stays folded when the panel is reopened', async () => {
    const { p } = await play(stream, { width: 600 });
    let saved: unknown;
    try {
      await p.page.click('[data-testid=conditions] > h2');
      saved = await p.savedState();
      const folded = await p.page.evaluate(() => ({
        expanded: document.querySelector('[data-testid=conditions] > h2')!.getAttribute('aria-expanded'),
        tableShown: (document.querySelector('[data-testid=conditions-table]') as HTMLElement).getBoundingClientRect().height > 0,
      }));
      assert.deepEqual({ folded, remembered: (saved as { ui: { open?: string[] } }).ui.open }, { folded: { expanded: 'false', tableShown: false }, remembered: ['!section:conditions'] });
    } finally {
      await p.close();
    }
    const again = await openPanel(browser, script, { width: 600, initialState: saved });
    try {
      await again.page.waitForSelector('[data-testid=conditions] > h2');
      assert.equal(await again.page.locator('[data-testid=conditions] > h2').getAttribute('aria-expanded'), 'false');
      await again.page.keyboard.press('Tab');
      await again.page.focus('[data-testid=conditions] > h2');
      await again.page.keyboard.press('Enter');
      assert.equal(await again.page.locator('[data-testid=conditions] > h2').getAttribute('aria-expanded'), 'true');
    } finally {
      await again.close();
    }
  });
});

describe('one panel for all pods: the pod switcher', () => {
  test('lists the lab pods with their STATUS, marks the one shown, and asks the host to switch', async () => {
    const { p } = await play(recordedStream('failing-init'), { width: 600 });
    try {
      assert.equal(await p.page.locator('[data-testid=pod-switcher]').count(), 0, 'no switcher while the host has not listed two pods');
      await p.send({
        type: 'pods',
        current: { namespace: 'default', name: 'init-fail' },
        pods: [
          { namespace: 'default', name: 'init-fail', status: 'Init:CrashLoopBackOff' },
          { namespace: 'default', name: 'web', status: 'Running' },
          { namespace: 'team-a', name: 'job', status: 'Completed' },
        ],
      });
      const sw = p.page.locator('[data-testid=pod-switcher]');
      await sw.waitFor();
      const options = await sw.locator('vscode-option').evaluateAll((os) => os.map((o) => ({ value: o.getAttribute('value'), text: o.textContent?.trim(), selected: o.hasAttribute('selected') })));
      assert.deepEqual(options, [
        { value: 'default/init-fail', text: 'init-fail · Init:CrashLoopBackOff', selected: true },
        { value: 'default/web', text: 'web · Running', selected: false },
        { value: 'team-a/job', text: 'team-a/job · Completed', selected: false },
      ]);
      await sw.evaluate((el) => {
        (el as unknown as { value: string }).value = 'team-a/job';
        el.dispatchEvent(new Event('change'));
      });
      await p.page.waitForFunction(() => (window as unknown as { __posted: { type: string; body?: { kind: string } }[] }).__posted.some((m) => m.body?.kind === 'switchPod'));
      const asked = (await p.posted()).flatMap((m) => (m.type === 'request' && m.body.kind === 'switchPod' ? [m.body] : []));
      assert.deepEqual(asked, [{ kind: 'switchPod', namespace: 'team-a', name: 'job' }]);
      await p.screenshot('panel-pod-switcher-600px-dark');
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });
});

describe("a container's environment", () => {
  test('at 360 px, an envFrom source is a line of its own (kubectl describe\'s "Environment Variables from"), not a row that reads as a variable named envFrom', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'env-demo', namespace: 'default', uid: 'u-env', creationTimestamp: '2026-11-24T10:00:00Z' },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'busybox:1.35',
            envFrom: [{ configMapRef: { name: 'settings' } }, { prefix: 'DB_', secretRef: { name: 'db', optional: true } }],
            env: [{ name: 'MODE', value: 'debug' }],
          },
        ],
      },
      status: { phase: 'Pending' },
    };
    const now = Date.parse('2026-11-24T10:00:05Z');
    const obs = observe(newObservation('default', 'env-demo'), { type: 'ADDED', kind: 'Pod', object: pod } as Parameters<typeof observe>[1], now);
    const p = await openPanel(browser, script, { title: 'default/env-demo', width: 360 });
    try {
      await p.send({ type: 'snapshot', seq: 1, model: buildPanelModel(obs, now) });
      await p.waitForSeq(1);
      const details = p.page.locator('[data-testid=container-details-app]');
      await details.locator('summary').click();
      const rows = await details.locator('[data-testid=env] tbody tr').evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.children).map((td) => [td.getAttribute('data-label') ?? '', (td.textContent ?? '').replace(/\s+/g, ' ').trim()])),
      );
      assert.deepEqual(rows, [
        [['', 'Environment variables from: settings ConfigMap Optional: false']],
        [['', "Environment variables from: db Secret with prefix 'DB_' Optional: true"]],
        [
          ['Name', 'MODE'],
          ['Value', 'debug'],
        ],
      ]);
      await p.screenshot('panel-env-from-360px-dark');
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });
});

describe("a Secret's value in the environment", () => {
  test('it is masked until clicked, hidden again by a second click or Enter, and a redraw of the containers shows it as the element says', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'secret-demo', namespace: 'default', uid: 'u-sec', creationTimestamp: '2026-11-24T10:00:00Z' },
      spec: { containers: [{ name: 'app', image: 'busybox:1.35', env: [{ name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }] }] },
      status: { phase: 'Pending' },
    };
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'default' }, data: { password: Buffer.from('hunter2').toString('base64') } };
    const now = Date.parse('2026-11-24T10:00:05Z');
    const obs = observe(newObservation('default', 'secret-demo'), { type: 'ADDED', kind: 'Pod', object: pod } as Parameters<typeof observe>[1], now);
    obs.lookup = { configMap: () => undefined, secret: (ns, name) => (ns === 'default' && name === 'db' ? (secret as never) : undefined) };
    const p = await openPanel(browser, script, { title: 'default/secret-demo', width: 1100 });
    try {
      await p.send({ type: 'snapshot', seq: 1, model: buildPanelModel(obs, now) });
      await p.waitForSeq(1);
      const details = p.page.locator('[data-testid=container-details-app]');
      await details.locator('summary').click();
      const value = details.locator('[data-testid=env-secret]');
      const shown = async () => [await value.innerText(), (await value.getAttribute('title')) ?? ''];
      const masked = ['••••••', 'From a Secret: click to show'];
      const revealed = ['hunter2', 'From a Secret: click to hide'];
      const seen: string[][] = [await shown()];
      assert.doesNotMatch(await p.page.locator('body').innerText(), /hunter2/, 'the value is nowhere on the page before it is asked for');
      await value.click();
      seen.push(await shown());
      await value.click();
      seen.push(await shown());
      await value.focus();
      await p.page.keyboard.press('Enter');
      seen.push(await shown());
      assert.deepEqual(seen, [masked, revealed, masked, revealed]);
      // the pod changes (it starts): the containers section is redrawn; the value reads as its title says
      const running = { ...pod, status: { phase: 'Running', containerStatuses: [{ name: 'app', image: 'busybox:1.35', imageID: '', ready: true, restartCount: 0, started: true, state: { running: { startedAt: '2026-11-24T10:00:06Z' } } }] } };
      const later = observe(obs, { type: 'MODIFIED', kind: 'Pod', object: running } as Parameters<typeof observe>[1], now + 2000);
      later.lookup = obs.lookup;
      await p.send({ type: 'snapshot', seq: 2, model: buildPanelModel(later, now + 2000) });
      await p.waitForSeq(2);
      const after = await shown();
      assert.ok(JSON.stringify(after) === JSON.stringify(masked) || JSON.stringify(after) === JSON.stringify(revealed), `after the redraw: ${JSON.stringify(after)}`);
      await value.click();
      assert.notDeepEqual(await shown(), after, 'a click still toggles it after the redraw');
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });
});

describe('a pod that is not in the lab', () => {
  test("Show Lifecycle on a pod never created says kubectl's NotFound and how it comes to exist, and shows no made-up state (no Unknown, no restart policy, no 0/0, no empty sections)", async () => {
    const p = await openPanel(browser, script, { title: 'default/invalid-demo', width: 600 });
    try {
      await p.send({ type: 'snapshot', seq: 1, model: buildPanelModel(newObservation('default', 'invalid-demo'), Date.now()) });
      await p.waitForSeq(1);
      const shown = await p.page.evaluate(() => ({
        banner: document.querySelector('[data-testid=missing]')?.textContent ?? null,
        status: document.querySelector('[data-testid=status]')?.textContent ?? null,
        facts: document.querySelectorAll('dl.facts').length,
        sections: Array.from(document.querySelectorAll('main > section, main > *')).filter((e) => e.querySelector('h2')).map((e) => e.querySelector('h2')!.textContent),
      }));
      assert.deepEqual(shown, {
        banner:
          'pods "invalid-demo" not found: there is no such pod in the lab (it was never created, or it was deleted before this panel opened). Run Pod on its manifest creates it, and this panel follows it from then on.',
        status: null,
        facts: 0,
        sections: shown.sections.filter((t) => t === 'Logs'),
      });
      await p.screenshot('panel-missing-pod-600px-dark');
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });
});

describe('the pod switcher follows the pods', () => {
  test("the closed switcher shows the shown pod's STATUS as it changes, and the shown pod when it is no longer in the lab (not the first other one)", async () => {
    const { p } = await play(recordedStream('failing-init'), { width: 600 });
    try {
      const list = (pods: { name: string; status: string }[]): HostToWebview => ({ type: 'pods', current: { namespace: 'default', name: 'init-fail' }, pods: pods.map((x) => ({ namespace: 'default', ...x })) });
      const shown = () => p.page.locator('[data-testid=pod-switcher]').evaluate((el) => (el.shadowRoot?.querySelector('.selected-value')?.textContent ?? '').trim());
      await p.send(list([{ name: 'init-fail', status: 'Init:0/2' }, { name: 'web', status: 'Running' }]));
      await p.page.locator('[data-testid=pod-switcher]').waitFor();
      await p.page.waitForFunction(() => document.querySelector('[data-testid=pod-switcher]')?.shadowRoot?.querySelector('.selected-value')?.textContent?.includes('Init:0/2'));
      await p.send(list([{ name: 'init-fail', status: 'Init:1/2' }, { name: 'web', status: 'Running' }]));
      await p.page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid=pod-switcher] vscode-option')).some((o) => o.textContent?.includes('Init:1/2')));
      await new Promise((r) => setTimeout(r, 100));
      const afterChange = await shown();
      await p.send(list([{ name: 'crashloop', status: 'CrashLoopBackOff' }, { name: 'web', status: 'Running' }]));
      await p.page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid=pod-switcher] vscode-option')).some((o) => o.textContent?.includes('crashloop')));
      await new Promise((r) => setTimeout(r, 100));
      const options = await p.page.locator('[data-testid=pod-switcher] vscode-option').evaluateAll((os) => os.map((o) => [o.getAttribute('value'), o.textContent?.trim(), o.hasAttribute('selected')]));
      assert.deepEqual(
        { afterChange, afterGone: await shown(), options },
        {
          afterChange: 'init-fail · Init:1/2',
          afterGone: 'init-fail · not in the lab',
          options: [
            ['default/crashloop', 'crashloop · CrashLoopBackOff', false],
            ['default/init-fail', 'init-fail · not in the lab', true],
            ['default/web', 'web · Running', false],
          ],
        },
      );
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });
});

describe("the toolkit's components across updates", () => {
  // Sections are morphed into place: the attributes a component gives itself (its role, tabindex,
  // ARIA state, generated ids) must survive an update, or keyboard and screen-reader users lose it.
  test('a dropdown, its options and the buttons keep the attributes they set on themselves when the panel updates', async () => {
    const { p } = await play(recordedStream('failing-init'), { width: 600 });
    try {
      const pods = (webStatus: string): HostToWebview => ({
        type: 'pods',
        current: { namespace: 'default', name: 'init-fail' },
        pods: [
          { namespace: 'default', name: 'init-fail', status: 'Init:CrashLoopBackOff' },
          { namespace: 'default', name: 'web', status: webStatus },
        ],
      });
      await p.send(pods('ContainerCreating'));
      await p.page.locator('[data-testid=pod-switcher]').waitFor();
      const attrs = () =>
        p.page.evaluate(() =>
          // which attributes each has, and the values of those that make it a control
          Array.from(document.querySelectorAll('[data-testid=pod-switcher], [data-testid=pod-switcher] vscode-option, [data-testid=initDebug] vscode-button')).map((el) => ({
            tag: el.localName,
            names: Array.from(el.attributes).map((a) => a.name).sort(),
            control: ['role', 'tabindex', 'aria-haspopup', 'aria-expanded', 'aria-disabled'].map((n) => el.getAttribute(n)),
          })),
        );
      // The toolkit sets its attributes a frame or more after an option joins the list (FAST's
      // update queue runs on requestAnimationFrame): both readings are taken once two agree.
      const settled = async (until = Date.now() + 5000) => {
        let last = await attrs();
        for (;;) {
          await delay(50);
          const next = await attrs();
          if (isDeepStrictEqual(next, last) || Date.now() > until) return next;
          last = next;
        }
      };
      const before = await settled();
      await p.send(pods('Running'));
      await p.page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid=pod-switcher] vscode-option')).some((o) => o.textContent?.includes('Running')));
      // What the morph strips (a role, a tabindex, an id) the toolkit never sets again, so a lost
      // one still fails the comparison below.
      let after = await settled();
      for (const until = Date.now() + 5000; !isDeepStrictEqual(after, before) && Date.now() < until; after = await attrs()) await delay(50);
      const comboboxes = before.filter((e) => e.control[0] === 'combobox').length;
      assert.deepEqual({ after, comboboxes }, { after: before, comboboxes: 1 });
      const sw = p.page.locator('[data-testid=pod-switcher]');
      await sw.evaluate((el) => {
        (el as unknown as { value: string }).value = 'default/web';
        el.dispatchEvent(new Event('change'));
      });
      await p.page.waitForFunction(() => (window as unknown as { __posted: { type: string; body?: { kind: string } }[] }).__posted.some((m) => m.body?.kind === 'switchPod'));
      assert.deepEqual(await p.problems(), []);
    } finally {
      await p.close();
    }
  });
});

describe('a failing init container on a real cluster (no lab debug info)', () => {
  test('the failed card shows the exit code but offers neither Restart now nor the copy shell, and says why', async () => {
    const lab = recordedStream('failing-init');
    // What a kubeconfig context's client delivers: the watch of the pod and its events, no PodDebug.
    const stream: RecordedStream = { ...lab, frames: lab.frames.filter((f) => 'watch' in f) };
    const { p } = await play(stream);
    try {
      await p.page.locator('[data-testid^=failed-init-]').first().waitFor({ timeout: 5000 });
      assert.equal(await p.page.locator('[data-testid^=restart-now-]').count(), 0);
      assert.equal(await p.page.locator('[data-testid^=open-shell-]').count(), 0);
      assert.match(await text(p, '[data-testid=cluster-note]'), /^A real cluster: the back-off runs its course \(no Restart now\)/);
      assert.equal(await text(p, '[data-testid=failed-exit-code]'), ' exit code 3 (Error)');
    } finally {
      await p.close();
    }
  });

  for (const place of ['cluster', 'lab server'] as const) {
    test(`while the connection to the ${place} is lost the header says so, and the banner goes when it is back`, async () => {
      const lab = recordedStream('failing-init');
      const stream: RecordedStream = { ...lab, frames: lab.frames.filter((f) => 'watch' in f) };
      const { p, sent } = await play(stream);
      try {
        const last = sent.filter((m): m is Extract<HostToWebview, { type: 'snapshot' | 'patch' }> => m.type === 'snapshot' || m.type === 'patch').at(-1)!;
        const patch = (seq: number, connectionLost: string | undefined): HostToWebview => ({ type: 'patch', seq, baseSeq: seq - 1, changes: { now: modelOf(sent).now, header: { ...modelOf(sent).header, ...(connectionLost !== undefined ? { connectionLost, connectionTo: place } : {}) } } });
        await p.send(patch(last.seq + 1, 'connect ECONNREFUSED 127.0.0.1:6443'));
        await p.waitForSeq(last.seq + 1);
        const lost = await text(p, '[data-testid=connection-lost]');
        const status = await text(p, '[data-testid=status]');
        await p.send(patch(last.seq + 2, undefined));
        await p.waitForSeq(last.seq + 2);
        assert.deepEqual(
          { lost, status, after: await p.page.locator('[data-testid=connection-lost]').count() },
          { lost: `The connection to the ${place} is lost (connect ECONNREFUSED 127.0.0.1:6443); retrying. The panel shows the pod as last seen.`, status: 'Init:CrashLoopBackOff', after: 0 },
        );
      } finally {
        await p.close();
      }
    });
  }
});

/** The model after these messages (the last snapshot with its patches applied). */
function modelOf(sent: HostToWebview[]): PanelModel {
  let model: PanelModel | undefined;
  for (const m of sent) {
    if (m.type === 'snapshot') model = m.model;
    else if (m.type === 'patch' && model) model = applyPatch(model, m.changes);
  }
  return model!;
}

describe('each container’s details: environment, probes and lifecycle hooks', () => {
  test('folded under the row; opened, they show the probe lines and each hook’s handler with its last run', async () => {
    const { p } = await play(recordedStream('probes-and-hooks'));
    try {
      const details = p.page.locator('[data-testid=container-details-web]');
      assert.equal(await details.evaluate((d) => (d as HTMLDetailsElement).open), false);
      await details.locator('summary').click();
      const hooks = await details.locator('[data-testid=container-hooks] li').allInnerTexts();
      assert.equal(hooks.length, 2);
      assert.match(hooks[0]!, /^postStart: exec \[sh -c echo started > \/tmp\/post-start\] — ran at \d\d:\d\d:\d\d\.\d{3} \(\d+ms\)$/);
      assert.match(hooks[1]!, /^preStop: sleep 2s — /);
      const probes = await details.locator('[data-testid=container-probes] li').allInnerTexts();
      assert.ok(probes.length >= 1 && probes.every((l) => /^(Liveness|Readiness|Startup): (http-get|exec|tcp-socket|grpc) /.test(l)), probes.join(' | '));
    } finally {
      await p.close();
    }
  });
});

describe('an update draws what a panel opened on the same model draws', () => {
  // The panel keeps what did not change (timeline rows, container rows): after each update, what it
  // shows must be exactly what a fresh panel draws from the model at the same moment. Both pages run
  // on a paused fake clock; after the update, a click on the selected zoom redraws the timeline in
  // both at the same display time (the kept rows of the updated panel stay kept).
  const COMPARED = ['header', 'step', 'notices', 'timeline', 'containers', 'conditions', 'events'];
  const shown = (p: PanelPage) =>
    p.page.evaluate((ids) => {
      (document.querySelector('[data-zoom][aria-pressed=true]') as HTMLElement).click();
      return ids.map((id) => {
        const el = document.getElementById(`section-${id}`)!.cloneNode(true) as Element;
        // ages and countdowns are set after every render from the clock, kept rows included
        for (const t of Array.from(el.querySelectorAll('[data-fmt]'))) t.textContent = '';
        // attributes in name order (a kept element gains an attribute after the ones it had)
        for (const e of [el, ...Array.from(el.querySelectorAll('*'))]) {
          const attrs = Array.from(e.attributes).map((x) => [x.name, x.value] as const).sort(([x], [y]) => (x < y ? -1 : 1));
          for (const [k] of attrs) e.removeAttribute(k);
          for (const [k, v] of attrs) e.setAttribute(k, v);
        }
        return `${id}: ${el.innerHTML}`;
      });
    }, COMPARED);

  for (const name of ['init-sequence', 'failing-init', 'probes-and-hooks']) {
    test(`${name}: after each of its updates, every section but the logs and the init-container card (whose logs come by request) is what a fresh panel draws`, async () => {
      const stream = recordedStream(name);
      const msgs = replay(stream);
      const start = msgs[0]!.at;
      const width = 900;
      const a = await openPanel(browser, script, { clockAt: start, width });
      const b = await openPanel(browser, script, { clockAt: start, width });
      a.serveRequests(stream);
      b.serveRequests(stream);
      let model: PanelModel | undefined;
      let compared = 0;
      let now = start;
      try {
        for (const { at, message } of msgs) {
          if (message.type !== 'snapshot' && message.type !== 'patch') continue;
          model = message.type === 'snapshot' ? message.model : applyPatch(model!, message.changes);
          // updates closer than a frame arrive a frame apart
          now = Math.max(now + 40, at);
          await a.page.clock.pauseAt(now);
          await a.send(message);
          // a frame for the update, one for the toolkit's components to reflect their attributes
          await a.page.clock.runFor(40);
          await b.page.reload();
          await b.page.clock.pauseAt(now);
          await b.send({ type: 'snapshot', seq: message.seq, model });
          await b.page.clock.runFor(40);
          for (const p of [a, b]) assert.equal(await p.page.evaluate(() => document.getElementById('app')!.dataset.seq), String(message.seq));
          assert.deepEqual(await shown(a), await shown(b), `after update ${message.seq} (+${now - start} ms)`);
          compared++;
        }
      } finally {
        await a.close();
        await b.close();
      }
      assert.equal(compared, msgs.length);
    });
  }
});
