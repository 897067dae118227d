// Renders the lifecycle panel in headless Chromium (Debian's chromium driven by playwright-core)
// exactly as VS Code would serve it: the HTML from src/extension/panel/html.ts under its CSP, the
// bundled webview script, theme variables on the document like VS Code's webview host sets them,
// and a stand-in for acquireVsCodeApi that records posted messages and keeps setState's state.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { panelHtml } from '../../src/extension/panel/html.js';
import type { RecordedStream } from '../../src/extension/panel/recording.js';
import type { HostToWebview, ReplyBody, RequestBody, WebviewToHost } from '../../src/shared/protocol.js';
import { THEMES, type ThemeName } from './themes.js';

export const ROOT = join(__dirname, '..', '..');
export const ARTIFACTS = join(ROOT, '.test-artifacts');
const ORIGIN = 'https://podlab-webview.test';

/** Bundles webview/main.ts like scripts/build.mjs does (browser, IIFE, CSS as text). */
export async function bundleWebview(): Promise<string> {
  const out = await build({
    absWorkingDir: ROOT,
    entryPoints: ['webview/main.ts'],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.css': 'text' },
    write: false,
    logLevel: 'warning',
  });
  return out.outputFiles[0]!.text;
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

export interface PanelPage {
  page: Page;
  /** Messages the webview posted so far. */
  posted(): Promise<WebviewToHost[]>;
  /** Delivers a host message as VS Code does (a `message` event on window). */
  send(m: HostToWebview): Promise<void>;
  /** Waits until the webview has applied update `seq`. */
  waitForSeq(seq: number): Promise<void>;
  /** The state last saved with setState. */
  savedState(): Promise<unknown>;
  /** How many times the page called setState. */
  saves(): Promise<number>;
  /** CSP violations and console errors seen so far. */
  problems(): Promise<string[]>;
  /** Answers the webview's requests from a recorded stream (logs) and acknowledges actions. */
  serveRequests(stream: RecordedStream): void;
  setTheme(theme: ThemeName): Promise<void>;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function openPanel(
  browser: Browser,
  script: string,
  opts: { theme?: ThemeName; initialState?: unknown; width?: number; title?: string; clockAt?: number } = {},
): Promise<PanelPage> {
  const page = await browser.newPage({ viewport: { width: opts.width ?? 1100, height: 900 } });
  if (opts.clockAt !== undefined) {
    // A fake clock, paused: time (timers, frames, Date, performance.now) moves only when the test
    // moves it. Installed a second early: it runs until paused, and pausing cannot go back.
    await page.clock.install({ time: opts.clockAt - 1000 });
    await page.clock.pauseAt(opts.clockAt);
  }
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const nonce = 'dGVzdC1ub25jZS0xMjM0';
  const html = panelHtml({ cspSource: ORIGIN, nonce, scriptUri: `${ORIGIN}/dist/webview.js`, title: opts.title ?? 'default/pod' });
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/index.html') return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    if (url.pathname === '/dist/webview.js') return route.fulfill({ status: 200, contentType: 'text/javascript', body: script });
    return route.fulfill({ status: 404, body: '' });
  });
  const theme = THEMES[opts.theme ?? 'dark'];
  // A string, not a function: the test loader's transforms must not leak into the page.
  await page.addInitScript(`(() => {
    const posted = [];
    const csp = [];
    let state = ${JSON.stringify(opts.initialState ?? null)} ?? undefined;
    window.__posted = posted;
    window.__csp = csp;
    let saves = 0;
    window.__state = () => state;
    window.__saves = () => saves;
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => state,
      setState: (s) => { saves++; state = JSON.parse(JSON.stringify(s)); },
    });
    document.addEventListener('securitypolicyviolation', (e) =>
      csp.push('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' at ' + e.sourceFile + ':' + e.lineNumber));
    const apply = (t) => {
      const root = document.documentElement;
      for (const k of Array.from(root.style)) if (k.startsWith('--vscode-')) root.style.removeProperty(k);
      for (const [k, v] of Object.entries(t.vars)) root.style.setProperty(k, v);
      document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast', 'vscode-high-contrast-light');
      document.body.classList.add(t.kind);
      document.body.setAttribute('data-vscode-theme-kind', t.kind);
    };
    window.__applyTheme = apply;
    document.addEventListener('DOMContentLoaded', () => apply(${JSON.stringify(theme)}));
  })();`);
  await page.goto(`${ORIGIN}/index.html`);
  await page.waitForFunction(() => ((window as unknown as { __posted: { type: string }[] }).__posted ?? []).some((m) => m.type === 'ready'));

  let served = 0;
  let serving: NodeJS.Timeout | undefined;
  const posted = () => page.evaluate(() => (window as unknown as { __posted: WebviewToHost[] }).__posted.slice());
  const send = (m: HostToWebview) =>
    page.evaluate((data) => {
      window.dispatchEvent(new MessageEvent('message', { data }));
    }, m);
  return {
    page,
    posted,
    send,
    waitForSeq: async (seq) => {
      await page.waitForFunction((s) => Number(document.getElementById('app')?.dataset.seq ?? 0) >= s, seq);
    },
    savedState: () => page.evaluate(() => (window as unknown as { __state: () => unknown }).__state()),
    saves: () => page.evaluate(() => (window as unknown as { __saves: () => number }).__saves()),
    problems: async () => [...problems, ...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp.slice()))],
    serveRequests(stream) {
      const tick = async () => {
        try {
          const all = await posted();
          for (const m of all.slice(served)) {
            served++;
            if (m.type !== 'request') continue;
            const reply = answer(stream, m.body);
            await send(reply.ok ? { type: 'reply', id: m.id, ok: true, body: reply.body } : { type: 'reply', id: m.id, ok: false, error: reply.error });
            if (reply.ok && reply.body.kind === 'followLogs') {
              // A followed log: the recorded lines of that instance, in one chunk after the reply.
              const read = answer(stream, { kind: 'logs', container: reply.body.container, attempt: reply.body.attempt });
              await send({ type: 'logChunk', stream: reply.body.stream, lines: read.ok && read.body.kind === 'logs' ? read.body.lines : [] });
            }
          }
        } catch {
          return; // page closed
        }
        serving = setTimeout(() => void tick(), 25);
      };
      void tick();
    },
    setTheme: async (name) => {
      await page.evaluate((t) => (window as unknown as { __applyTheme: (t: unknown) => void }).__applyTheme(t), THEMES[name]);
      await page.waitForTimeout(50);
    },
    screenshot: async (name) => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const path = join(ARTIFACTS, `${name}.png`);
      // The whole page in one picture: what is scrolled out of view (content-visibility: auto,
      // left undrawn in a webview) is drawn for it.
      await page.evaluate((n) => {
        const style = document.createElement('style');
        style.nonce = n;
        style.id = 'draw-all-for-screenshot';
        style.textContent = '* { content-visibility: visible !important; }';
        document.head.appendChild(style);
      }, nonce);
      await page.screenshot({ path, fullPage: true });
      await page.evaluate(() => document.getElementById('draw-all-for-screenshot')?.remove());
      return path;
    },
    close: async () => {
      if (serving) clearTimeout(serving);
      await page.close();
    },
  };
}

let followed = 0;

function answer(stream: RecordedStream, body: RequestBody): { ok: true; body: ReplyBody } | { ok: false; error: string } {
  switch (body.kind) {
    case 'followLogs': {
      const read = answer(stream, { kind: 'logs', container: body.container, attempt: body.attempt });
      return read.ok ? { ok: true, body: { kind: 'followLogs', container: body.container, attempt: body.attempt, stream: ++followed } } : read;
    }
    case 'logs': {
      const logs = stream.logs ?? {};
      if (body.attempt.which === 'id') {
        const lines = logs[body.attempt.containerId];
        return lines ? { ok: true, body: { kind: 'logs', container: body.container, attempt: body.attempt, lines } } : { ok: false, error: 'no such container' };
      }
      // current / previous: the newest (or second-newest) attempt of that container in the recording.
      const ids = stream.frames
        .flatMap((f) => ('debug' in f && f.debug ? f.debug.attempts : []))
        .filter((a) => a.containerName === body.container)
        .sort((a, b) => b.attempt - a.attempt)
        .map((a) => a.id)
        .filter((id, i, all) => all.indexOf(id) === i);
      const id = ids[body.attempt.which === 'previous' ? 1 : 0];
      if (!id) return { ok: false, error: `previous terminated container "${body.container}" not found` };
      return { ok: true, body: { kind: 'logs', container: body.container, attempt: body.attempt, lines: logs[id] ?? [] } };
    }
    case 'restartNow':
      return { ok: true, body: { kind: 'restartNow' } };
    case 'continueStep':
      return { ok: true, body: { kind: 'continueStep' } };
    case 'openShell':
      return { ok: true, body: { kind: 'openShell' } };
    case 'switchPod':
      return { ok: true, body: { kind: 'switchPod' } };
  }
}
