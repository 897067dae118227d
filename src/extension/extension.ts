// Entry point. `activate` stays thin (rust-analyzer's client is the model): it builds the one
// context object that owns every disposable, registers the command table, the editor features,
// the view and the status bar — and makes no Docker call. The engine starts on first use.
import * as vscode from 'vscode';
import { Lab } from './lab.js';
import type { EngineApi } from '../engine/api.js';
import { registerCommands, type Services } from './commands.js';
import { StepModeWatch, announceHeld } from './step-mode.js';
import { registerLanguageFeatures } from './language.js';
import { registerTree } from './tree.js';
import { registerStatusBar } from './statusBar.js';
import { LabDocuments } from './documents.js';
import { Shells } from './shell.js';
import { watchPulls } from './pull.js';
import { Clusters } from './clusters.js';
import { registerClusterTree } from './cluster-tree.js';

/** Set by the bundle's first line (scripts/build.mjs): when the bundle began to run. */
declare const __podlabBundleStart: number | undefined;
/** How long the bundle's modules took to run before activate could be called (undefined unbundled). */
const bundleMs = typeof __podlabBundleStart === 'number' ? performance.now() - __podlabBundleStart : undefined;

let lab: Lab | undefined;

export function activate(context: vscode.ExtensionContext): { lab: Lab } {
  const t0 = performance.now();
  const l = new Lab(context);
  lab = l;
  const clusters = new Clusters(l);
  const diags = registerLanguageFeatures(l, () => clusters.openPlaces());
  const steps = new StepModeWatch(l, announceHeld());
  const tree = registerTree(l, steps);
  l.onDispose(() => clusters.dispose());
  const engineFor = (context: string | undefined) => (context === undefined ? l.getEngine() : clusters.engine(context));
  const clusterTree = registerClusterTree(l, clusters);
  const docs = new LabDocuments(l, engineFor, clusters.onDidChange);
  const shells = new Shells(l);
  l.onDispose(() => shells.dispose());
  let panel: { show(namespace: string, name: string, context?: string): void; engineReplaced(context: string | undefined, engine: EngineApi): void; dispose(): void } | undefined;
  l.onDispose(() => panel?.dispose());
  const services: Services = {
    lab: l,
    diags,
    docs,
    shells,
    tree,
    clusters,
    clusterTree,
    async showPanel(namespace, name, ctx) {
      if (!panel) {
        const { LifecyclePanelManager } = await import('./panel/manager.js');
        panel = new LifecyclePanelManager(context.extensionUri, engineFor, l.out);
      }
      panel.show(namespace, name, ctx);
    },
  };
  registerCommands(services);
  registerStatusBar(l);
  // once connected: pull progress notifications
  let pulls: vscode.Disposable | undefined;
  l.push(
    l.onDidChangeState((s) => {
      pulls?.dispose();
      pulls = undefined;
      const engine = l.engineIfStarted;
      if (s.kind === 'connected' && engine) pulls = watchPulls(l, (fn) => engine.onPullProgress(fn));
      // After Reconnect (a new lab server), the lab's panel follows the new engine.
      if (s.kind === 'connected' && engine) panel?.engineReplaced(undefined, engine);
    }),
    { dispose: () => pulls?.dispose() },
    vscode.workspace.onDidChangeConfiguration((e) => {
      // Only the settings the lab server starts with (the kubeconfig, the delete question … apply at once).
      const engineSettings = ['podlab.sandboxImage', 'podlab.backoff', 'podlab.nodesFile', 'podlab.docker', 'podlab.stepMode'];
      if (engineSettings.some((k) => e.affectsConfiguration(k)) && l.engineIfStarted) {
        void vscode.window.showInformationMessage('Pod Lab: settings changed. Reconnect to apply them to the engine.', 'Reconnect').then((c) => {
          if (c) void vscode.commands.executeCommand('podlab.reconnect');
        });
      }
    }),
  );
  const ms = performance.now() - t0;
  const loaded = bundleMs === undefined ? '' : `; its bundle's modules ran in ${bundleMs.toFixed(1)} ms before`;
  l.log(`Pod Lab activated in ${ms.toFixed(1)} ms (no Docker call; the engine starts on first use${loaded})`);
  return { lab: l };
}

export async function deactivate(): Promise<void> {
  const l = lab;
  lab = undefined;
  await l?.dispose();
}
