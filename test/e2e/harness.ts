// End-to-end harness: a REAL VS Code (code-server from npm, served on loopback) with the packaged
// .vsix installed into a fresh extensions dir, driven by Debian's chromium through playwright-core.
// No mocks: the extension talks to the real Docker.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync, cpSync, existsSync, readdirSync, readFileSync, statSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { chromium, type Browser, type Page, type Frame, type FrameLocator, type Locator } from 'playwright-core';

export const ROOT = path.resolve(__dirname, '../..');
export const ARTIFACTS = path.join(ROOT, '.test-artifacts');
export const VSIX = process.env.PODLAB_E2E_VSIX ?? path.join(ROOT, 'dist', 'pod-lab.vsix');

export function log(msg: string): void {
  process.stderr.write(`[e2e ${new Date().toISOString().slice(11, 23)}] ${msg}\n`);
}

function codeServerEntry(): string {
  const out = execFileSync('bash', [path.join(ROOT, 'scripts/code-server.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const entry = out.split('\n').pop() ?? '';
  if (!existsSync(entry)) throw new Error(`code-server entry not found: ${entry}`);
  return entry;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

export interface Session {
  dir: string;
  workspace: string;
  userDataDir: string;
  /** The KUBECONFIG of the VS Code server (written by the scenario that needs contexts). */
  kubeconfig: string;
  url: string;
  server: ChildProcess;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export const testSettings = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'workbench.colorTheme': 'Default Dark Modern',
  // the suite deletes pods through the command many times; the modal question would stop each
  'podlab.confirmDelete': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'git.enabled': false,
  'editor.hover.delay': 200,
  'editor.minimap.enabled': false,
  'editor.codeLens': true,
  'files.autoSave': 'off',
  'window.restoreWindows': 'none',
  'chat.commandCenter.enabled': false,
  // short back-offs keep the crash-loop scenario short (the engine's default is the kubelet's 10 s/300 s)
  'podlab.backoff.initialSeconds': 2,
  'podlab.backoff.maxSeconds': 16,
};

/** Starts code-server with the packaged extension on a copy of `examples/`, and opens it in chromium. */
export async function startSession(name: string, extraFiles: Record<string, string> = {}): Promise<Session> {
  if (!existsSync(VSIX)) throw new Error(`${VSIX} is missing: run "npm run package" first (npm run test:e2e does)`);
  const entry = codeServerEntry();
  const dir = path.join(ARTIFACTS, `e2e-${name}-${Date.now()}`);
  const workspace = path.join(dir, 'examples');
  const userDataDir = path.join(dir, 'user-data');
  const extensionsDir = path.join(dir, 'extensions');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  cpSync(path.join(ROOT, 'examples'), workspace, { recursive: true });
  for (const [f, text] of Object.entries(extraFiles)) writeFileSync(path.join(workspace, f), text);
  writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(testSettings, null, 2));
  const config = path.join(dir, 'code-server.yaml');
  writeFileSync(config, 'auth: none\ncert: false\n');
  const common = ['--config', config, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  log(`installing ${path.relative(ROOT, VSIX)} into a fresh extensions dir`);
  execFileSync(process.execPath, [entry, ...common, '--install-extension', VSIX], { stdio: ['ignore', 'pipe', 'pipe'] });
  const installed = readdirSync(extensionsDir).filter((d) => d.startsWith('podlab.pod-lab'));
  if (installed.length !== 1) throw new Error(`extension not installed: ${readdirSync(extensionsDir).join(', ')}`);

  const port = await freePort();
  const server = spawn(
    process.execPath,
    [entry, ...common, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--bind-addr', `127.0.0.1:${port}`, workspace],
    // KUBECONFIG: the Clusters view's kubeconfig (kubectl's default rule), absent until a scenario writes it.
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'xdg'), KUBECONFIG: path.join(dir, 'kubeconfig') } },
  );
  const serverLog: string[] = [];
  server.stdout?.on('data', (b: Buffer) => serverLog.push(b.toString()));
  server.stderr?.on('data', (b: Buffer) => serverLog.push(b.toString()));
  await waitFor(async () => serverLog.join('').includes('HTTP server listening'), 30000, 'code-server to listen');
  // The panel's per-update latency lines, which the suite's figures are read from, are at trace
  // level: the web workbench takes an extension's log level from the URL's payload (as desktop
  // VS Code takes `--log podlab.pod-lab:trace`).
  const payload = JSON.stringify([['logLevel', 'podlab.pod-lab:trace']]);
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`;
  log(`code-server on ${url}`);

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage'],
  });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  // clipboard permissions keep VS Code from prompting
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${port}` }).catch(() => undefined);
  const page = await context.newPage();
  page.on('pageerror', (e) => log(`page error: ${e.message}`));
  // PODLAB_E2E_FRAMES=1: every WebSocket frame between the workbench and code-server, as the
  // browser reported it (direction, size, the protocol header in hex, the start of the payload),
  // written to frames.log in the session's folder: which messages share the socket with the panel's
  // updates. The time is when this process got the browser's report, so under load it is late.
  const frames: string[] = [];
  if (process.env.PODLAB_E2E_FRAMES === '1') {
    page.on('websocket', (ws) => {
      const record = (dir: 'in' | 'out') => (f: { payload: string | Buffer }) => {
        const b = typeof f.payload === 'string' ? Buffer.from(f.payload) : f.payload;
        frames.push(`${Date.now()} ${dir} ${b.length} ${b.subarray(0, 13).toString('hex')} ${b.subarray(13, 400).toString('latin1').replace(/[^\x20-\x7e]/g, '.')}`);
      };
      ws.on('framereceived', record('in'));
      ws.on('framesent', record('out'));
    });
  }
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60000 });
  // PODLAB_E2E_TRACE=<file>: a Chrome performance trace of the whole session (chrome://tracing, Perfetto).
  const trace = process.env.PODLAB_E2E_TRACE;
  if (trace) await browser.startTracing(page, { path: trace, categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', 'ipc', 'mojom'] });
  return {
    dir,
    workspace,
    userDataDir,
    kubeconfig: path.join(dir, 'kubeconfig'),
    url,
    server,
    browser,
    page,
    async close() {
      writeFileSync(path.join(dir, 'code-server.log'), serverLog.join(''));
      if (frames.length) writeFileSync(path.join(dir, 'frames.log'), frames.join('\n'));
      if (trace) await browser.stopTracing().catch((e: unknown) => log(`the trace was not written: ${String(e)}`));
      await browser.close().catch(() => undefined);
      server.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      if (server.exitCode === null) server.kill('SIGKILL');
    },
  };
}

export async function waitFor<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number, what: string, intervalMs = 250): Promise<T> {
  const end = Date.now() + timeoutMs;
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      lastErr = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastErr ? `: ${String(lastErr)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export async function screenshot(s: Session, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `e2e-${name}.png`);
  await s.page.screenshot({ path: file });
  return file;
}

// ---- driving the workbench ------------------------------------------------------------------

const quickInput = '.quick-input-widget';

/**
 * Opens the quick input (F1, or `key`) and types `text` into it. A workbench command that ran
 * just before can close the new quick input: when the active editor is a webview, the focus the
 * workbench gives back to it after the previous quick input closed reaches the webview's frame by
 * a message, and can land after F1 (under load, tens of ms later), taking the focus from the
 * quick input, which closes when it loses the focus. The quick input is then opened again; each
 * such retry is logged with the element that had the focus, so a product that steals the focus
 * shows up in the suite's output rather than being hidden.
 */
async function quickInputWith(page: Page, text: string, key = 'F1'): Promise<Locator> {
  const input = page.locator(`${quickInput} .quick-input-box input`);
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Escape');
    await page.keyboard.press(key);
    await input.waitFor({ state: 'visible', timeout: 10000 });
    try {
      await input.fill(text, { timeout: 3000 });
      if ((await input.isVisible()) && (await input.inputValue()) === text) return input;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
    if (attempt >= 3) throw new Error(`the quick input closed three times before "${text}" was typed`);
    const focused = await page.evaluate(() => {
      const a = document.activeElement;
      return a ? `${a.tagName.toLowerCase()}${a.className ? `.${String(a.className).trim().split(/\s+/).join('.')}` : ''}` : 'none';
    });
    log(`the quick input closed before "${text}" was typed (focus now on ${focused}); opening it again`);
  }
}

export async function runCommand(page: Page, title: string): Promise<void> {
  await quickInputWith(page, `>${title}`);
  const row = page.locator(`${quickInput} .monaco-list-row`, { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: 10000 });
  // pick the exact title, not a longer one that starts with it (recently used commands come first:
  // "Run Pod in Step Mode" is listed above "Run Pod" once it was used)
  const rows = page.locator(`${quickInput} .monaco-list-row`);
  const n = await rows.count();
  for (let i = 0; i < n; i++) {
    const name = ((await rows.nth(i).locator('.label-name').first().textContent()) ?? '').trim();
    if (name === title) {
      await rows.nth(i).click();
      return;
    }
  }
  await row.click();
}

/** Lists the palette entries matching a filter (titles as shown). */
export async function paletteEntries(page: Page, filter: string): Promise<string[]> {
  await quickInputWith(page, `>${filter}`);
  await page.locator(`${quickInput} .monaco-list-row`).first().waitFor({ timeout: 10000 });
  await page.waitForTimeout(300);
  const labels = await page.locator(`${quickInput} .monaco-list-row .label-name`).allTextContents();
  await page.keyboard.press('Escape');
  return labels.map((l) => l.replace(/\s+/g, ' ').trim());
}

/** Opens a workspace file with Quick Open and waits for its editor. */
export async function openFile(page: Page, file: string): Promise<void> {
  // F1 opens the quick input; without the ">" prefix it is Quick Open (Ctrl+P can be taken by a focused panel)
  await quickInputWith(page, file);
  const row = page.locator(`${quickInput} .monaco-list-row[aria-label^="${file}"]`).first();
  await row.waitFor({ timeout: 10000 });
  await row.click();
  await page.locator(`.tabs-container .tab.active[aria-label*="${file}"]`).waitFor({ timeout: 10000 });
  await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor();
}

/** Moves the cursor (Go to Line/Column). */
export async function gotoLine(page: Page, line: number, column: number): Promise<void> {
  await quickInputWith(page, `:${line}:${column}`, 'Control+g');
  await page.keyboard.press('Enter');
}

export async function explorerRow(page: Page, file: string): Promise<Locator> {
  await runCommand(page, 'View: Show Explorer');
  const row = page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${file}"]`).first();
  await row.waitFor({ timeout: 10000 });
  return row;
}

/** Right-clicks a row and chooses a context-menu item by its exact label. */
export async function contextMenu(page: Page, target: Locator, item: string): Promise<string[]> {
  await target.click({ button: 'right' });
  const menu = page.locator('.monaco-menu .actions-container').first();
  await menu.waitFor({ timeout: 10000 });
  const labels = (await page.locator('.monaco-menu .action-label').allTextContents()).map((s) => s.trim()).filter((s) => s !== '');
  const entry = page.locator('.monaco-menu .action-item', { has: page.locator(`.action-label:text-is("${item}")`) }).first();
  await entry.hover();
  await entry.click();
  // a click during the menu's open animation can be lost: the item is then focused, Enter runs it
  await page.waitForTimeout(400);
  if (await menu.isVisible().catch(() => false)) await page.keyboard.press('Enter');
  return labels;
}

export async function contextMenuLabels(page: Page, target: Locator): Promise<string[]> {
  await target.click({ button: 'right' });
  await page.locator('.monaco-menu .actions-container').first().waitFor({ timeout: 10000 });
  const labels = (await page.locator('.monaco-menu .action-label').allTextContents()).map((s) => s.trim()).filter((s) => s !== '');
  await page.keyboard.press('Escape');
  return labels;
}

export async function notifications(page: Page): Promise<string[]> {
  return (await page.locator('.notification-toast .notification-list-item-message').allTextContents()).map((s) => s.trim());
}

/** Clicks a button of the notification whose message contains `text`. */
export async function clickNotificationButton(page: Page, text: string, button: string): Promise<void> {
  const toast = page.locator('.notification-toast', { hasText: text }).first();
  await toast.waitFor({ timeout: 30000 });
  await toast.locator('.monaco-button', { hasText: button }).first().click();
}

/** Clicks a link (a command link) in the notification whose message contains `text`. */
export async function clickNotificationLink(page: Page, text: string, link: string): Promise<void> {
  const toast = page.locator('.notification-toast', { hasText: text }).first();
  await toast.waitFor({ timeout: 30000 });
  await toast.locator('.notification-list-item-message a', { hasText: link }).first().click();
}

export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications').catch(() => undefined);
}

/** Text of the Problems panel rows. */
export async function problems(page: Page): Promise<string[]> {
  await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
  const rows = page.locator('.markers-panel .monaco-list-row');
  await rows.first().waitFor({ timeout: 15000 });
  return (await rows.allTextContents()).map((s) => s.replace(/\s+/g, ' ').trim());
}

/** The Pod Lab view's rows (their accessibility labels). */
export async function treeRows(page: Page): Promise<string[]> {
  const rows = page.locator('.pane-body .monaco-list-row[aria-label^="pod "], .pane-body .monaco-list-row[aria-label*=" container "]');
  return (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).filter((s) => s !== '');
}

export async function showPodLabView(page: Page): Promise<void> {
  await runCommand(page, 'Pod Lab: Focus on Pods View');
}

/** The lifecycle panel's webview content frame (the newest one). */
export async function panelFrame(page: Page, timeoutMs = 30000): Promise<Frame> {
  return waitFor(
    async () => {
      for (const f of page.frames().reverse()) {
        if (f.name() === 'active-frame' || f.url().includes('fake.html') || f.url().includes('index.html?id=')) {
          if (f.isDetached()) continue;
          // Something drawn (not read through innerText: polled while pods run, that would lay the
          // whole panel out each time).
          const has = ((await f.evaluate(`document.querySelector('[data-testid=header]')?.childElementCount ?? 0`).catch(() => 0)) as number) > 0;
          const isOurs = (await f.evaluate(`!!document.querySelector('script[src*="webview.js"]')`).catch(() => false)) as boolean;
          if (has && isOurs) return f;
        }
      }
      return undefined;
    },
    timeoutMs,
    'the lifecycle panel webview',
  );
}

/**
 * The panel's whole text as drawn. Parts scrolled out of view (content-visibility: auto) are left
 * undrawn, and innerText leaves out what is not drawn (a user scrolls to them, or finds them with
 * Find, which draws them): they are drawn for the reading.
 */
export async function frameText(f: Frame): Promise<string> {
  return f.evaluate(`(() => {
    const skipped = [...document.querySelectorAll('section, tr')].filter((el) => getComputedStyle(el).contentVisibility === 'auto');
    for (const el of skipped) el.style.contentVisibility = 'visible';
    const text = document.body.innerText;
    for (const el of skipped) el.style.contentVisibility = '';
    return text;
  })()`) as Promise<string>;
}

/** The text of the lifecycle panel now showing (re-resolved each call: a panel's frame is replaced when it is hidden or another opens). */
export async function panelText(page: Page): Promise<string> {
  return frameText(await panelFrame(page, 15000));
}

export function webviewLocator(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
}

/** Lab containers (sandboxes and containers) of the named pods, from the real Docker. */
export function labContainers(podNames: string[]): { id: string; name: string; pod: string }[] {
  const out = execFileSync('docker', ['ps', '-a', '--filter', 'label=io.podlab.managed=true', '--format', '{{.ID}}\t{{.Names}}\t{{.Label "io.kubernetes.pod.name"}}'], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [id, name, pod] = l.split('\t');
      return { id: id ?? '', name: name ?? '', pod: pod ?? '' };
    })
    .filter((c) => podNames.includes(c.pod));
}

/** Removes what a test left behind (only the named pods' containers and debug images of this suite). */
export function removeLabContainers(podNames: string[]): void {
  const ids = labContainers(podNames).map((c) => c.id);
  const debug = execFileSync('docker', ['ps', '-a', '--filter', 'label=io.podlab.debug-copy=true', '--format', '{{.ID}}\t{{.Label "io.podlab.debug-copy.of"}}'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => podNames.includes((l.split('\t')[1] ?? '').split('/')[0] ?? ''))
    .map((l) => l.split('\t')[0]!);
  const all = [...ids, ...debug];
  if (all.length > 0) execFileSync('docker', ['rm', '-f', ...all], { stdio: 'ignore' });
}

/** The "Pod Lab" output channel's log file in this session's user-data dir. */
export function outputLog(s: Session): string {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.includes('Pod Lab') && e.endsWith('.log')) found.push(p);
    }
  };
  const logs = path.join(s.userDataDir, 'logs');
  if (existsSync(logs)) walk(logs);
  return found.map((f) => readFileSync(f, 'utf8')).join('\n');
}

export function cleanupDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
