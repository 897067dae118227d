// The extension's one context object (rust-analyzer's `Ctx` is the model): it owns every
// disposable, the output channel, the settings, and the engine — which is started lazily, on the
// first command that needs it or when the Pod Lab view opens, never during activation.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { EngineApi, Pod } from '../engine/api.js';
import { parseNodesYaml, dockerCliEnv, serverCommandFor, type PodLabConfig } from './manifest.js';

export type ConnectionState =
  | { kind: 'idle' }
  | { kind: 'connecting' }
  | { kind: 'connected'; pods: number }
  /** Connected, then the lab server stopped answering (stopped or died): the client retries its port. */
  | { kind: 'lost'; message: string }
  | { kind: 'failed'; message: string };

/** While the lab server is lost, how often to look for another one. */
const SERVER_LOOK_MS = 2000;

/**
 * At most how long the window's views (the Pods view, CodeLenses, the status bar) wait after a
 * change, so a burst of changes is drawn once and the open lifecycle panel, whose update goes out
 * at once, usually reaches the workbench first (a change that comes while a redraw is pending is
 * drawn with it). A step-mode notice waits this long after its hold.
 */
export const VIEWS_FOLLOW_MS = 100;

export class Lab implements vscode.Disposable {
  readonly out: vscode.LogOutputChannel;
  private readonly disposables: vscode.Disposable[] = [];
  private enginePromise: Promise<EngineApi> | undefined;
  private engineValue: EngineApi | undefined;
  private engineSubs: { dispose(): void }[] = [];
  private state: ConnectionState = { kind: 'idle' };
  private readonly stateEmitter = new vscode.EventEmitter<ConnectionState>();
  /** Fired (debounced) when lab pods or their events change. */
  private readonly podsEmitter = new vscode.EventEmitter<void>();
  private podsTimer: NodeJS.Timeout | undefined;
  private readonly extraDisposeHooks: (() => void | Promise<void>)[] = [];

  readonly onDidChangeState = this.stateEmitter.event;
  readonly onDidChangePods = this.podsEmitter.event;

  constructor(readonly context: vscode.ExtensionContext) {
    this.out = vscode.window.createOutputChannel('Pod Lab', { log: true });
    this.push(this.out, this.stateEmitter, this.podsEmitter);
  }

  push(...ds: vscode.Disposable[]): void {
    this.disposables.push(...ds);
  }

  onDispose(hook: () => void | Promise<void>): void {
    this.extraDisposeHooks.push(hook);
  }

  log(line: string): void {
    this.out.info(line);
  }

  get connection(): ConnectionState {
    return this.state;
  }

  /** The engine if it is already running (no connection attempt). */
  get engineIfStarted(): EngineApi | undefined {
    return this.engineValue;
  }

  config(): PodLabConfig {
    const c = vscode.workspace.getConfiguration('podlab');
    return {
      sandboxImage: c.get<string>('sandboxImage'),
      backoffInitialSeconds: c.get<number>('backoff.initialSeconds'),
      backoffMaxSeconds: c.get<number>('backoff.maxSeconds'),
      nodesFile: c.get<string>('nodesFile'),
      dockerSocketPath: c.get<string>('docker.socketPath'),
      dockerHost: c.get<string>('docker.host'),
      stepMode: c.get<boolean>('stepMode'),
    };
  }

  dockerEnv(): Record<string, string> {
    return dockerCliEnv(this.config());
  }

  /** Starts (once) and returns the engine. A failure is remembered until `reconnect`. */
  getEngine(): Promise<EngineApi> {
    if (!this.enginePromise) {
      this.enginePromise = this.start();
      this.enginePromise.catch(() => undefined);
    }
    return this.enginePromise;
  }

  /** Retries a failed connection (status bar click); restarts the engine when settings changed. */
  async reconnect(): Promise<EngineApi> {
    await this.stopEngine();
    return this.getEngine();
  }

  private setState(s: ConnectionState): void {
    this.state = s;
    this.stateEmitter.fire(s);
  }

  private async start(): Promise<EngineApi> {
    this.setState({ kind: 'connecting' });
    const t0 = performance.now();
    try {
      const cfg = this.config();
      const nodesFile = await this.nodesFilePath(cfg);
      // The lab server of the same state directory as the `podlab` command line (PODLAB_STATE_DIR or
      // ~/.local/state/podlab): started in the background when none runs, shared with the CLI and kubectl.
      const { openLab, runningServer } = await import('../client/index.js');
      const { defaultStateDir } = await import('../shared/state-dir.js');
      const stateDir = defaultStateDir();
      const { engine, endpoint, started } = await openLab(stateDir, serverCommandFor(this.context.extensionPath, cfg, nodesFile), {
        onStart: () => this.log(`starting the lab server for ${stateDir}`),
      });
      this.engineValue = engine;
      this.engineSubs.push(engine.watch(() => this.podsChanged()));
      this.engineSubs.push(
        engine.onConnection((problem) => {
          if (this.engineValue !== engine) return;
          if (problem) {
            this.out.warn(`the lab server (pid ${endpoint.pid}, port ${endpoint.port}) stopped answering: ${problem.message}; retrying`);
            this.setState({ kind: 'lost', message: problem.message });
            // Another server of the state directory (started by the CLI or another window) usually
            // listens on another port: connect to it instead of retrying the old one.
            this.lookForServer(async () => {
              const now = await runningServer(stateDir);
              return now && (now.pid !== endpoint.pid || now.port !== endpoint.port) ? `pid ${now.pid}, port ${now.port}` : undefined;
            });
          } else {
            this.stopLooking();
            this.log(`the lab server on port ${endpoint.port} answers again; ${engine.listPods().length} lab pod(s)`);
            this.setState({ kind: 'connected', pods: engine.listPods().length });
            this.podsChanged();
          }
        }),
      );
      this.log(`${started ? 'started' : 'connected to'} the lab server https://127.0.0.1:${endpoint.port} (pid ${endpoint.pid}) in ${Math.round(performance.now() - t0)} ms; ${engine.listPods().length} lab pod(s)`);
      this.setState({ kind: 'connected', pods: engine.listPods().length });
      this.podsChanged();
      return engine;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.out.error(`cannot start the engine: ${message}`);
      this.setState({ kind: 'failed', message });
      this.enginePromise = undefined;
      throw e instanceof Error ? e : new Error(message);
    }
  }

  /** The nodes file of the settings, checked, as an absolute path for the server. */
  private async nodesFilePath(cfg: PodLabConfig): Promise<string | undefined> {
    const file = cfg.nodesFile?.trim();
    if (!file) return undefined;
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = path.isAbsolute(file) || !root ? vscode.Uri.file(file) : vscode.Uri.joinPath(root, file);
    const bytes = await vscode.workspace.fs.readFile(uri);
    const { nodes, errors } = parseNodesYaml(new TextDecoder().decode(bytes));
    for (const e of errors) this.out.warn(`nodes file ${uri.fsPath}: ${e}`);
    this.log(`nodes file ${uri.fsPath}: ${nodes.length} node(s)`);
    return uri.fsPath;
  }

  private serverLook: NodeJS.Timeout | undefined;

  /** While the lab server is lost: every 2 s, whether another one runs; if so, reconnect to it. */
  private lookForServer(another: () => Promise<string | undefined>): void {
    if (this.serverLook) return;
    const look = async () => {
      const found = await another().catch(() => undefined);
      if (!this.serverLook) return;
      if (!found) {
        this.serverLook = setTimeout(() => void look(), SERVER_LOOK_MS);
        return;
      }
      this.serverLook = undefined;
      this.log(`another lab server runs (${found}): reconnecting to it`);
      await this.reconnect().catch(() => undefined);
    };
    this.serverLook = setTimeout(() => void look(), SERVER_LOOK_MS);
  }

  private stopLooking(): void {
    clearTimeout(this.serverLook);
    this.serverLook = undefined;
  }

  private async stopEngine(): Promise<void> {
    this.stopLooking();
    const e = this.engineValue;
    this.engineValue = undefined;
    this.enginePromise = undefined;
    for (const s of this.engineSubs.splice(0)) s.dispose();
    if (e) await e.close().catch((err: unknown) => this.out.warn(`closing the engine: ${String(err)}`));
    this.setState({ kind: 'idle' });
  }

  private podsChanged(): void {
    if (this.podsTimer) return;
    this.podsTimer = setTimeout(() => {
      this.podsTimer = undefined;
      const e = this.engineValue;
      if (e && this.state.kind === 'connected') {
        const n = e.listPods().length;
        if (n !== this.state.pods) this.setState({ kind: 'connected', pods: n });
      }
      this.podsEmitter.fire();
    }, VIEWS_FOLLOW_MS);
  }

  pods(): Pod[] {
    return this.engineValue?.listPods() ?? [];
  }

  findPod(namespace: string, name: string): Pod | undefined {
    return this.engineValue?.getPod(namespace, name);
  }

  async dispose(): Promise<void> {
    if (this.podsTimer) clearTimeout(this.podsTimer);
    for (const h of this.extraDisposeHooks.splice(0)) {
      try {
        await h();
      } catch {
        // best effort
      }
    }
    await this.stopEngine();
    for (const d of this.disposables.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // best effort
      }
    }
  }
}
