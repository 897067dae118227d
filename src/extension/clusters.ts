// The kubeconfig's contexts beside the lab: one API client per opened context (src/client/cluster.ts,
// @kubernetes/client-node underneath, loaded only when a context is opened), its namespace choice
// kept in the global state, and a debounced "pods changed" for the Clusters view, the panel and
// the documents. Owned by the Lab context object like every other disposable.
import { homedir } from 'node:os';
import { basename, delimiter, dirname } from 'node:path';
import * as vscode from 'vscode';
import type { EngineApi } from '../engine/api.js';
import type { Lab } from './lab.js';
import { classify, kubeconfigFiles, namespaceOf, type ClusterState, type ContextInfo } from './clusterModel.js';

/** What src/client/cluster.ts exports (loaded on demand). */
interface ClusterModule {
  listContexts(kubeconfigPath?: string): ContextInfo[];
  openCluster(opts: { kubeconfig?: string; context: string; namespace?: string }): Promise<EngineApi & Required<Pick<EngineApi, 'onConnection'>> & { readonly labFeatures: boolean }>;
}

interface Entry {
  state: ClusterState;
  /** The context as it was when the client was opened. */
  info?: ContextInfo;
  engine?: EngineApi;
  opening?: Promise<EngineApi>;
  subs: { dispose(): void }[];
}

const NAMESPACE_KEY = (ctx: string) => `podlab.clusters.namespace.${ctx}`;

export class Clusters implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly emitter = new vscode.EventEmitter<void>();
  private timer: NodeJS.Timeout | undefined;
  private module: ClusterModule | undefined;
  /** The kubeconfig files' watchers and their subscriptions. */
  private readonly watchers: vscode.Disposable[] = [];
  /** Fired (debounced) when contexts, their states or their pods change. */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly lab: Lab) {
    lab.push(
      this.emitter,
      // Another kubeconfig: the open contexts are closed and the view lists the new file's.
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('podlab.kubeconfig')) return;
        if (this.watchers.length) this.watchKubeconfig();
        void this.closeAll();
      }),
      { dispose: () => this.watchers.splice(0).forEach((w) => w.dispose()) },
    );
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((n) => this.close(n)));
    this.changed();
  }

  private async load(): Promise<ClusterModule> {
    this.module ??= (await import('../client/cluster.js')) as ClusterModule;
    return this.module;
  }

  /** The kubeconfig file of the settings (empty: kubectl's default, KUBECONFIG or ~/.kube/config). */
  kubeconfig(): string | undefined {
    const p = vscode.workspace.getConfiguration('podlab').get<string>('kubeconfig')?.trim();
    return p ? p : undefined;
  }

  /**
   * Watches the kubeconfig files (from the first listing on): a context that `kind create cluster`
   * adds, or one deleted, shows without Refresh Contexts.
   */
  private watchKubeconfig(): void {
    for (const w of this.watchers.splice(0)) w.dispose();
    for (const f of kubeconfigFiles(this.kubeconfig(), process.env.KUBECONFIG, homedir(), delimiter)) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dirname(f)), basename(f)));
      const changed = () => this.changed();
      this.watchers.push(w, w.onDidChange(changed), w.onDidCreate(changed), w.onDidDelete(changed));
    }
  }

  /** The contexts of the kubeconfig, without the lab's own (`podlab`, shown as the lab). */
  async contexts(): Promise<ContextInfo[]> {
    if (this.watchers.length === 0) this.watchKubeconfig();
    const m = await this.load();
    return m.listContexts(this.kubeconfig());
  }

  async context(name: string): Promise<ContextInfo> {
    const c = (await this.contexts()).find((x) => x.name === name);
    if (!c) throw new Error(`context "${name}" is not in the kubeconfig`);
    return c;
  }

  namespace(info: ContextInfo): string {
    return namespaceOf(info, this.lab.context.globalState.get<string>(NAMESPACE_KEY(info.name)));
  }

  state(name: string): ClusterState {
    return this.entries.get(name)?.state ?? { kind: 'closed' };
  }

  /** The connected contexts: their engines and the namespace each shows (for live hovers). */
  openPlaces(): { context: string; namespace: string; engine: EngineApi }[] {
    const out: { context: string; namespace: string; engine: EngineApi }[] = [];
    for (const [context, e] of this.entries) {
      const ns = (e.engine as { target?: { namespace?: string } } | undefined)?.target?.namespace;
      if (e.engine) out.push({ context, namespace: ns ?? 'default', engine: e.engine });
    }
    return out;
  }

  engineIfOpen(name: string): EngineApi | undefined {
    return this.entries.get(name)?.engine;
  }

  /** Opens (once) the API client of a context; failures are kept as the context's state until retried. */
  engine(name: string): Promise<EngineApi> {
    const e = this.entries.get(name);
    if (e?.engine) return Promise.resolve(e.engine);
    if (e?.opening) return e.opening;
    const entry: Entry = { state: { kind: 'connecting' }, subs: [] };
    this.entries.set(name, entry);
    this.changed();
    entry.opening = (async () => {
      const t0 = performance.now();
      try {
        const m = await this.load();
        const info = await this.context(name);
        entry.info = info;
        const namespace = this.namespace(info);
        const engine = await m.openCluster({ kubeconfig: this.kubeconfig(), context: name, namespace });
        if (this.entries.get(name) !== entry) {
          await engine.close();
          throw new Error(`context "${name}" was closed while connecting`);
        }
        entry.engine = engine;
        entry.subs.push(
          engine.watch(() => this.podsChanged(name)),
          // The server stopped answering (the client retries), or answers again.
          engine.onConnection((problem) => {
            if (this.entries.get(name) !== entry) return;
            if (problem) {
              const p = classify(problem);
              if (entry.state.kind !== 'lost') this.lab.out.warn(`context ${name}: connection lost (${p.text}); retrying`);
              entry.state = { kind: 'lost', problem: p };
            } else {
              this.lab.log(`context ${name}: connected again`);
              entry.state = { kind: 'connected', pods: engine.listPods().length };
            }
            this.changed();
          }),
        );
        entry.state = { kind: 'connected', pods: engine.listPods().length };
        this.lab.log(`context ${name}: connected to ${info.server}, namespace ${namespace}, ${engine.listPods().length} pod(s) in ${Math.round(performance.now() - t0)} ms`);
        this.changed();
        return engine;
      } catch (err) {
        const problem = classify(err);
        this.lab.out.warn(`context ${name}: ${problem.text}`);
        if (this.entries.get(name) === entry) {
          entry.state = { kind: 'failed', problem };
          entry.opening = undefined;
          this.changed();
        }
        throw err instanceof Error ? err : new Error(String(err));
      }
    })();
    entry.opening.catch(() => undefined);
    return entry.opening;
  }

  /** Shows another namespace of the context (reconnects its client). */
  async setNamespace(name: string, namespace: string): Promise<void> {
    await this.lab.context.globalState.update(NAMESPACE_KEY(name), namespace);
    await this.close(name);
    this.changed();
  }

  /**
   * Closes the clients of contexts the kubeconfig no longer has (they would retry forever), or
   * whose cluster, server or user it changed (`kind create cluster` again: a new port and
   * certificate); expanding such a context connects it anew.
   */
  retain(contexts: readonly ContextInfo[]): void {
    for (const [name, e] of [...this.entries]) {
      const now = contexts.find((c) => c.name === name);
      if (!now || (e.info && (e.info.server !== now.server || e.info.user !== now.user || e.info.cluster !== now.cluster))) void this.close(name);
    }
  }

  async close(name: string): Promise<void> {
    const e = this.entries.get(name);
    this.entries.delete(name);
    if (!e) return;
    for (const s of e.subs.splice(0)) s.dispose();
    await e.engine?.close().catch((err: unknown) => this.lab.out.warn(`closing context ${name}: ${String(err)}`));
    this.changed();
  }

  private podsChanged(name: string): void {
    const e = this.entries.get(name);
    if (e?.engine && e.state.kind === 'connected') e.state = { kind: 'connected', pods: e.engine.listPods().length };
    this.changed();
  }

  private changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.emitter.fire();
    }, 100);
  }

  async dispose(): Promise<void> {
    await this.closeAll();
    if (this.timer) clearTimeout(this.timer);
  }
}
