// The lifecycle panel: ONE WebviewPanel beside the editor, showing one pod at a time with a pod
// switcher (running a file of 20 pods opens one panel, not 20; Show Lifecycle on another pod
// switches it). The host subscribes to the engine's watch for the pod and its events and to the
// pod's debug watch (the lab API's poddebugs: attempts, back-off timers, step wait, probe and hook
// runs; nothing is polled), posts an update once the webview acknowledged the previous one (changes
// in between are folded into it), and logs the latency from an engine event to the painted frame
// and to the webview's `rendered` acknowledgement. The view model is
// built by the pure code in model.ts / feed.ts. The logs pane follows the shown container's log
// (`kubectl logs -f`): lines are batched into one `logChunk` post per ~50 ms per stream, and every
// stream is closed on stopLogs, pod switch, webview reload (or hide) and dispose.
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { EngineApi, WatchEvent } from '../../engine/api.js';
import { simulatedNodeNames } from '../../shared/labels.js';
import {
  isWebviewToHost,
  type HostToWebview,
  type RenderedUpdate,
  type ReplyBody,
  type RequestBody,
  type WebviewToHost,
} from '../../shared/protocol.js';
import { LOG_BATCH_MS, LogChunks, PanelFeed, type Latency } from './feed.js';
import { makeNonce, panelHtml } from './html.js';
import { postDelay, instanceOf } from './model.js';
import { podStatusText } from '../../engine/printer.js';

/**
 * Updates posted and not yet acknowledged before the next waits (flow control: a hidden or reloading
 * webview is not flooded, see ACK_TIMEOUT_MS). With one in flight, a container's state change
 * waited for the acknowledgement of the update of its events, posted milliseconds before (engine
 * event → painted p95 91–102 ms in the e2e suite); with three, bursts at a pod's start still filled
 * the window (time in the extension host p95 36 ms, up to 62). The webview renders every update that
 * arrives before a frame in that frame, so more in flight costs it nothing: with eight, the time in
 * the extension host is p95 7.6 ms, at most 17.
 */
const POST_WINDOW = 8;
/** How long an unacknowledged update holds its slot (the webview may be hidden or reloading). */
const ACK_TIMEOUT_MS = 250;
/** Latency target from an engine event to the painted panel. */
const LATENCY_TARGET_MS = 100;

/**
 * Where the panels write (the Pod Lab output channel). Each update's latency is a trace line: one
 * a frame while a pod changes is noise at the channel's default level; Developer: Set Log Level…
 * → Pod Lab → Trace shows them (the e2e suite opens the workbench at that level through its URL).
 */
export interface PanelLog {
  info(line: string): void;
  trace(line: string): void;
}

export interface OpenShellArgs {
  namespace: string;
  name: string;
  container: string;
  /** The kubeconfig context of a real cluster's pod. */
  context?: string;
}

/**
 * One panel for the lab's pods, and one per kubeconfig context whose pods are shown: each has the
 * pod switcher of its own place (the lab, or the context's namespace).
 */
export class LifecyclePanelManager implements vscode.Disposable {
  private readonly panels = new Map<string, PodPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    /** The lab's engine (context undefined), or a kubeconfig context's API client. */
    private readonly getEngine: (context: string | undefined) => Promise<EngineApi>,
    private readonly log: PanelLog,
  ) {}

  show(namespace: string, name: string, context?: string): void {
    const key = context ?? '';
    const open = this.panels.get(key);
    if (open) {
      open.switchTo(namespace, name);
      open.reveal();
      return;
    }
    const panel = new PodPanel(this.extensionUri, namespace, name, () => this.getEngine(context), this.log, context);
    this.panels.set(key, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(key) === panel) this.panels.delete(key);
    });
  }

  /** The engine of a place was replaced (Reconnect started a new lab server): its panel follows the new one. */
  engineReplaced(context: string | undefined, engine: EngineApi): void {
    this.panels.get(context ?? '')?.rebind(engine);
  }

  /** Latencies measured so far while the lab's panel showed this pod (for the e2e tests and the output channel). */
  latencies(namespace: string, name: string): readonly Latency[] {
    return this.panels.get('')?.latencies.filter((l) => l.pod === `${namespace}/${name}`) ?? [];
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.dispose();
    this.panels.clear();
  }
}

class PodPanel {
  private readonly panel: vscode.WebviewPanel;
  private feed: PanelFeed;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposeListeners: (() => void)[] = [];
  private engine: EngineApi | undefined;
  private watch: { dispose(): void } | undefined;
  private debugWatch: { dispose(): void } | undefined;
  private connection: { dispose(): void } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushing = false;
  /** The webview is loaded and listening (it said `ready`); hidden webviews are destroyed. */
  private webviewReady = false;
  /** The updates posted and not yet acknowledged (performance.now() when posted; ms from the engine event to the post). */
  /** Posted updates not yet acknowledged; `workbenchMs`: when the workbench answered the post (its round trip). */
  private unacked: { at: number; seq: number; hostMs?: number; workbenchMs?: number }[] = [];
  private disposed = false;
  /** The pod switcher's list as last posted (JSON), so an unchanged list is not posted again. */
  private podsPosted = '';
  readonly latencies: (Latency & { pod: string })[] = [];
  /** Followed logs: ids and unposted lines (pure), and the engine's subscriptions by stream id. */
  private readonly logChunks = new LogChunks();
  private readonly logSubs = new Map<number, { dispose(): void }>();
  private logTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private namespace: string,
    private name: string,
    getEngine: () => Promise<EngineApi>,
    private readonly log: PanelLog,
    /** The kubeconfig context of a real cluster's pods; undefined for the lab. */
    private readonly context?: string,
  ) {
    this.feed = new PanelFeed(namespace, name);
    this.panel = vscode.window.createWebviewPanel(
      'podlab.lifecycle',
      this.titleOf(name),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        enableCommandUris: false,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
      },
    );
    const webview = this.panel.webview;
    this.loadWebview();
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)),
      this.panel.onDidChangeViewState((e) => {
        // Without retainContextWhenHidden the webview is destroyed when hidden and reloads when
        // shown; it then says `ready` again and gets a snapshot.
        if (!e.webviewPanel.visible) {
          this.webviewReady = false;
          // The destroyed webview's log streams have no reader any more.
          this.closeLogStreams();
        }
      }),
      this.panel.onDidDispose(() => this.dispose()),
    );
    void this.connect(getEngine);
  }

  private titleOf(name: string): string {
    return this.context === undefined ? `Pod ${name}` : `Pod ${name} (${this.context})`;
  }

  onDidDispose(fn: () => void): void {
    this.disposeListeners.push(fn);
  }

  reveal(): void {
    this.panel.reveal(this.panel.viewColumn, true);
  }

  /** Shows another pod in this panel: a new feed and debug watch, a snapshot to the webview. */
  switchTo(namespace: string, name: string): void {
    if (namespace === this.namespace && name === this.name) return;
    this.namespace = namespace;
    this.name = name;
    this.debugWatch?.dispose();
    this.debugWatch = undefined;
    this.closeLogStreams();
    this.feed = new PanelFeed(namespace, name, this.feed.lastSeq);
    this.panel.title = this.titleOf(name);
    if (this.engine) this.follow(this.engine);
    this.schedule();
  }

  /** Seeds the feed with the pod and its events, and follows its debug state. */
  private follow(engine: EngineApi): void {
    const feed = this.feed;
    feed.setLookup({ configMap: (ns, n) => engine.getObject('ConfigMap', ns, n), secret: (ns, n) => engine.getObject('Secret', ns, n) });
    feed.setSimulatedNodes([...simulatedNodeNames(engine.listNodes())]);
    // (a panel opened, or rebound, while the connection is already lost says so at once)
    feed.setConnection(engine.connectionProblem?.message, this.connectionTo);
    const pod = engine.getPod(this.namespace, this.name);
    const uid = pod?.metadata?.uid;
    feed.seed(pod ? { type: 'ADDED', kind: 'Pod', object: pod } : undefined, uid ? engine.listEvents({ uid }) : [], Date.now());
    feed.resetWebview();
    this.debugWatch = engine.watchDebug(this.namespace, this.name, (info) => {
      if (this.feed !== feed) return;
      feed.setDebug(info, performance.now());
      this.schedule();
    });
    this.postPods();
  }

  /** The pod switcher: the lab's pods and which one is shown (posted when that changes). */
  private postPods(): void {
    const engine = this.engine;
    if (!engine || !this.webviewReady) return;
    const pods = engine
      .listPods()
      .map((p) => ({ namespace: p.metadata?.namespace ?? 'default', name: p.metadata?.name ?? '', status: podStatusText(p) }))
      .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
    const msg: HostToWebview = { type: 'pods', current: { namespace: this.namespace, name: this.name }, pods };
    const json = JSON.stringify(msg);
    if (json === this.podsPosted) return;
    this.podsPosted = json;
    this.post(msg);
  }

  private async connect(getEngine: () => Promise<EngineApi>): Promise<void> {
    try {
      const engine = await getEngine();
      if (this.disposed || this.engine) return;
      this.attach(engine);
    } catch (err) {
      this.log.info(`lifecycle ${this.key}: cannot reach the engine: ${errorText(err)}`);
    }
  }

  private attach(engine: EngineApi): void {
    this.engine = engine;
    this.watch = engine.watch((e) => this.onWatch(e));
    // The API client says when its connection is lost and back (the engine in-process has no such state).
    this.connection = engine.onConnection?.((problem) => {
      this.feed.setConnection(problem?.message, this.connectionTo);
      this.schedule();
    });
    this.follow(engine);
    this.schedule();
  }

  /** (Re)loads the webview's page; a reloaded webview says `ready` and gets a snapshot. */
  private loadWebview(): void {
    const webview = this.panel.webview;
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.js')).toString(),
      title: `${this.namespace}/${this.name}`,
    });
  }

  /**
   * Follows the pod on a new engine (the old one was closed): its state and history are read
   * afresh, and the webview is reloaded, so the log it followed on the old server is opened again.
   */
  rebind(engine: EngineApi): void {
    if (this.disposed || engine === this.engine) return;
    for (const d of [this.watch, this.debugWatch, this.connection]) d?.dispose();
    this.watch = this.debugWatch = this.connection = undefined;
    this.closeLogStreams();
    this.feed = new PanelFeed(this.namespace, this.name, this.feed.lastSeq);
    this.webviewReady = false;
    this.loadWebview();
    this.attach(engine);
  }

  /** What this panel's engine connects to: the lab server (no context), or a context's cluster. */
  private get connectionTo(): 'lab server' | 'cluster' {
    return this.context === undefined ? 'lab server' : 'cluster';
  }

  private get key(): string {
    return `${this.namespace}/${this.name}`;
  }

  private onWatch(e: WatchEvent): void {
    if (e.kind === 'Pod') this.podsChanged();
    if (!this.feed.onWatch(e, Date.now(), performance.now())) return;
    this.schedule();
  }

  private podsTimer: NodeJS.Timeout | undefined;
  /** The switcher's list follows the lab's pods (at most a few times a second). */
  private podsChanged(): void {
    if (this.podsTimer || this.disposed) return;
    this.podsTimer = setTimeout(() => {
      this.podsTimer = undefined;
      this.postPods();
    }, 250);
  }

  /** Posts pending changes once the last update is acknowledged (or its wait ran out). */
  private schedule(): void {
    if (this.timer || this.disposed) return;
    const now = performance.now();
    this.unacked = this.unacked.filter((p) => p.at + ACK_TIMEOUT_MS > now);
    const delay = postDelay(this.unacked.map((p) => p.at), now, POST_WINDOW, ACK_TIMEOUT_MS);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delay);
  }

  /** Schedules again now that the wait may be shorter (an acknowledgement came, the webview reloaded). */
  private reschedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule();
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.disposed || !this.engine) return;
    this.flushing = true;
    try {
      if (this.webviewReady && !this.disposed) {
        const since = this.feed.pendingSince;
        const msg = this.feed.next(Date.now());
        if (msg) {
          const at = performance.now();
          const sent: (typeof this.unacked)[number] = { at, seq: msg.seq, hostMs: since === undefined ? undefined : at - since };
          // postMessage resolves once the workbench took the message in: the first leg of the way to the webview.
          this.panel.webview.postMessage(msg).then(
            () => void (sent.workbenchMs = performance.now() - at),
            () => undefined,
          );
          this.unacked.push(sent);
          if (msg.type === 'snapshot') this.panel.title = this.titleOf(this.name);
        }
      }
    } finally {
      this.flushing = false;
    }
    if (this.feed.pending && this.webviewReady) this.schedule();
  }

  private post(m: HostToWebview): void {
    void this.panel.webview.postMessage(m);
  }

  /** The updates a painted frame shows (oldest first): what waited for them goes out, and each one's latency is logged. */
  private onRendered(updates: readonly RenderedUpdate[], paintedAt: number | undefined): void {
    const posts = updates.map((u) => this.unacked.find((p) => p.seq === u.seq));
    const newest = Math.max(...updates.map((u) => u.seq));
    if (this.unacked.some((p) => p.seq <= newest)) {
      this.unacked = this.unacked.filter((p) => p.seq > newest);
      // Changes held while the window was full go out now.
      if (this.feed.pending) this.reschedule();
    }
    updates.forEach((u, i) => this.logRendered(u, posts[i], paintedAt));
  }

  /** One shown update's latency, kept and logged (an update that no engine event caused is logged as shown). */
  private logRendered(u: RenderedUpdate, acked: (typeof this.unacked)[number] | undefined, paintedAt: number | undefined): void {
    // The webview's frame time, on its own clock, is read on this one through the wall clock
    // both start from; it is used only where it can be true: between the post and the
    // acknowledgement (a webview on another machine, or a clock that moved during a sleep, is not).
    const now = performance.now();
    const mapped = paintedAt === undefined ? undefined : paintedAt - performance.timeOrigin;
    const paintedMono = mapped !== undefined && acked && mapped >= acked.at - 1 && mapped <= now + 1 ? mapped : undefined;
    const lat = this.feed.onRendered(u.seq, now, paintedMono);
    if (lat) {
      this.latencies.push({ ...lat, pod: this.key });
      if (this.latencies.length > 1000) this.latencies.shift();
      const shown = lat.paintedMs ?? lat.ms;
      const flag = shown > LATENCY_TARGET_MS ? ` (over the ${LATENCY_TARGET_MS} ms target)` : '';
      const host = acked?.hostMs;
      const parts = [
        lat.paintedMs === undefined ? '' : `acknowledged after ${lat.ms.toFixed(1)} ms`,
        host === undefined ? '' : `${host.toFixed(1)} ms in the extension host`,
        acked?.workbenchMs === undefined ? '' : `the workbench answered the post after ${acked.workbenchMs.toFixed(1)} ms`,
        u.webviewMs === undefined ? '' : `${u.webviewMs} ms in the webview${u.renderMs === undefined ? '' : ` (${u.renderMs} ms handling it)`}`,
        paintedMono === undefined || paintedAt === undefined ? '' : `painted at ${paintedAt.toFixed(1)}`,
      ].filter(Boolean);
      const detail = parts.length ? ` (${parts.join(', ')})` : '';
      this.log.trace(`lifecycle ${this.key}: update #${lat.seq} [${lat.sections.join(', ')}] ${lat.paintedMs === undefined ? 'shown' : 'painted'} ${shown.toFixed(1)} ms after the engine event${detail}${flag}; containers: ${lat.containers || 'none'}`);
      return;
    }
    const last = this.feed.lastShown;
    if (last?.seq === u.seq) {
      // A snapshot for a (re)loaded webview, or a change of the lab's objects: no sample, but what it shows from now on.
      this.log.trace(`lifecycle ${this.key}: update #${u.seq} [${last.sections.join(', ')}] shown (not caused by an engine event${paintedMono === undefined || paintedAt === undefined ? '' : `; painted at ${paintedAt.toFixed(1)}`}); containers: ${last.containers || 'none'}`);
    }
  }

  private onMessage(raw: unknown): void {
    if (!isWebviewToHost(raw)) {
      this.log.info(`lifecycle ${this.key}: ignored a malformed message from the webview`);
      return;
    }
    const m: WebviewToHost = raw;
    switch (m.type) {
      case 'ready':
      case 'resync':
        this.log.info(`lifecycle ${this.key}: the webview ${m.type === 'ready' ? 'loaded' : 'asked for a snapshot'} (it had update #${m.haveSeq ?? 'none'})`);
        this.webviewReady = true;
        this.feed.resetWebview();
        // A (re)loaded webview acknowledges nothing posted before.
        this.unacked = [];
        if (m.type === 'ready') {
          this.podsPosted = '';
          // A reloaded webview: the streams the previous one followed are nobody's.
          this.closeLogStreams();
        }
        this.postPods();
        this.reschedule();
        break;
      case 'rendered':
        this.onRendered([...(m.earlier ?? []), m], m.paintedAt);
        break;
      case 'request':
        void this.answer(m.id, m.body);
        break;
      case 'stopLogs':
        this.closeLogStream(m.stream);
        break;
    }
  }

  // --- followed logs ---------------------------------------------------------------------------

  private onLogLine(stream: number, line: string): void {
    if (this.logChunks.push(stream, line)) this.scheduleLogs();
  }

  private onLogEnd(stream: number): void {
    if (this.logChunks.end(stream)) this.scheduleLogs();
  }

  /** Posts the streams' new lines at most once per LOG_BATCH_MS. */
  private scheduleLogs(): void {
    if (this.logTimer || this.disposed || !this.logChunks.pending) return;
    this.logTimer = setTimeout(() => {
      this.logTimer = undefined;
      this.flushLogs();
    }, LOG_BATCH_MS);
  }

  private flushLogs(): void {
    if (this.disposed) return;
    for (const chunk of this.logChunks.take()) {
      this.post(chunk);
      if (chunk.ended) {
        this.logSubs.get(chunk.stream)?.dispose();
        this.logSubs.delete(chunk.stream);
      }
    }
  }

  private closeLogStream(stream: number): void {
    this.logChunks.close(stream);
    this.logSubs.get(stream)?.dispose();
    this.logSubs.delete(stream);
  }

  private closeLogStreams(): void {
    for (const id of new Set([...this.logChunks.ids, ...this.logSubs.keys()])) this.closeLogStream(id);
  }

  /** Opens a followed log of the shown pod; the stream id goes back in the reply. */
  private async followLogs(engine: EngineApi, body: Extract<RequestBody, { kind: 'followLogs' }>): Promise<ReplyBody> {
    const { namespace, name } = this;
    const stream = this.logChunks.open();
    let sub: { dispose(): void };
    try {
      sub = await engine.followLogs(namespace, name, body.container, (line) => this.onLogLine(stream, line), {
        previous: body.attempt.which === 'previous',
        tail: body.tail,
        timestamps: body.timestamps,
        onEnd: () => this.onLogEnd(stream),
      });
    } catch (err) {
      this.logChunks.close(stream);
      throw err;
    }
    // Closed while the engine opened it (stopLogs, pod switch, reload, dispose): nobody reads it.
    if (!this.logChunks.has(stream) || this.disposed) sub.dispose();
    else this.logSubs.set(stream, sub);
    return { kind: 'followLogs', container: body.container, attempt: body.attempt, stream };
  }

  private async answer(id: number, body: RequestBody): Promise<void> {
    try {
      const reply = await this.handle(body);
      this.post({ type: 'reply', id, ok: true, body: reply });
      if (reply.kind === 'followLogs') {
        // Chunks only after the reply, so the webview knows the stream they belong to.
        this.logChunks.replied(reply.stream);
        this.scheduleLogs();
      }
    } catch (err) {
      this.post({ type: 'reply', id, ok: false, error: errorText(err) });
    }
  }

  private async handle(body: RequestBody): Promise<ReplyBody> {
    const engine = this.engine;
    if (!engine) throw new Error('The Pod Lab engine is not connected yet.');
    const { namespace, name } = this;
    switch (body.kind) {
      case 'logs': {
        const a = body.attempt;
        // On a real cluster an instance is reachable only as the current or the previous one (kubectl logs [--previous]).
        const byStatus = a.which === 'id' && this.context !== undefined ? instanceOf(engine.getPod(namespace, name), body.container, a.containerId) : undefined;
        const lines =
          a.which === 'id' && !byStatus
            ? await engine.attemptLogs(a.containerId, body.tail, body.timestamps)
            : byStatus
              ? await engine.logs(namespace, name, body.container, { previous: byStatus === 'previous', tail: body.tail, timestamps: body.timestamps })
            : await engine.logs(namespace, name, body.container, { previous: a.which === 'previous', tail: body.tail, timestamps: body.timestamps });
        return { kind: 'logs', container: body.container, attempt: a, lines };
      }
      case 'followLogs':
        return this.followLogs(engine, body);
      case 'restartNow':
        this.log.info(`lifecycle ${this.key}: Restart now (lab feature) for init container ${body.container}`);
        engine.restartNow(namespace, name, body.container);
        return { kind: 'restartNow' };
      case 'continueStep':
        this.log.info(`lifecycle ${this.key}: Continue (step mode, lab feature)`);
        engine.continueStep(namespace, name);
        return { kind: 'continueStep' };
      case 'openShell': {
        const args: OpenShellArgs = { namespace, name, container: body.container, ...(this.context !== undefined ? { context: this.context } : {}) };
        await vscode.commands.executeCommand('podlab.openShell', args);
        return { kind: 'openShell' };
      }
      case 'switchPod':
        this.switchTo(body.namespace, body.name);
        return { kind: 'switchPod' };
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.podsTimer) clearTimeout(this.podsTimer);
    if (this.logTimer) clearTimeout(this.logTimer);
    this.closeLogStreams();
    this.watch?.dispose();
    this.connection?.dispose();
    this.debugWatch?.dispose();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
    for (const fn of this.disposeListeners) fn();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

