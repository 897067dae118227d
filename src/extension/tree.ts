// The Pod Lab view: pods → container groups (init / sidecar / app) → containers, driven by the
// engine's watch (debounced by Lab). Opening the view connects to Docker.
import * as vscode from 'vscode';
import { simulatedNodeNames } from '../shared/labels.js';
import type { Lab } from './lab.js';
import type { StepModeWatch } from './step-mode.js';
import { buildPodRows, podRowsSignature, type PodRow, type GroupRow, type ContainerRow, type Tone } from './podModel.js';

/** `context`: the kubeconfig context the pod lives in (the Clusters view); absent for lab pods. */
export type PodNode = { type: 'pod'; row: PodRow; context?: string };
export type GroupNode = { type: 'group'; pod: PodRow; row: GroupRow; context?: string };
export type ContainerNode = { type: 'container'; pod: PodRow; row: ContainerRow; context?: string };
export type LabNode = PodNode | GroupNode | ContainerNode;

export const toneColor: Record<Tone, string | undefined> = {
  ok: 'testing.iconPassed',
  done: 'testing.iconPassed',
  progress: 'charts.blue',
  warn: 'charts.yellow',
  error: 'testing.iconFailed',
  idle: 'disabledForeground',
};

function icon(id: string, tone: Tone): vscode.ThemeIcon {
  const c = toneColor[tone];
  return new vscode.ThemeIcon(id, c ? new vscode.ThemeColor(c) : undefined);
}

export class PodTree implements vscode.TreeDataProvider<LabNode> {
  private readonly emitter = new vscode.EventEmitter<LabNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private rows: PodRow[] = [];
  /** podRowsSignature of the pods at the last refresh their changes caused. */
  private shownSig = '';
  private ageTimer: NodeJS.Timeout | undefined;
  private visible = false;
  /** Tree item ids the user collapsed (kept in the workspace state, so a reload keeps them). */
  private readonly collapsed: Set<string>;

  constructor(
    private readonly lab: Lab,
    private readonly steps: StepModeWatch,
  ) {
    this.collapsed = new Set(lab.context.workspaceState.get<string[]>(COLLAPSED_KEY, []));
    lab.push(
      this.emitter,
      lab.onDidChangePods(() => this.podsChanged()),
      steps.onDidChange(() => this.refresh()),
      lab.onDidChangeState(() => this.emitter.fire(undefined)),
    );
    lab.onDispose(() => {
      if (this.ageTimer) clearInterval(this.ageTimer);
    });
  }

  setVisible(v: boolean): void {
    this.visible = v;
    if (v && !this.ageTimer) {
      // ages and back-off countdowns move even when nothing else changes
      this.ageTimer = setInterval(() => this.lab.engineIfStarted && this.emitter.fire(undefined), 5000);
    } else if (!v && this.ageTimer) {
      clearInterval(this.ageTimer);
      this.ageTimer = undefined;
    }
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  /** The lab's objects changed: the rows are drawn again only if what they show changed (not for an Event's count). */
  private podsChanged(): void {
    const engine = this.lab.engineIfStarted;
    if (engine) {
      const sig = podRowsSignature(engine.listPods(), this.steps.held, simulatedNodeNames(engine.listNodes()));
      if (sig === this.shownSig) return;
      this.shownSig = sig;
    }
    this.refresh();
  }

  /** The user expanded or collapsed an item: remembered for the next refresh and the next session. */
  setCollapsed(n: LabNode, collapsed: boolean): void {
    const id = nodeId(n);
    if (collapsed === this.collapsed.has(id)) return;
    if (collapsed) this.collapsed.add(id);
    else this.collapsed.delete(id);
    // Bounded: ids of pods long gone do not pile up.
    const ids = [...this.collapsed].slice(-500);
    void this.lab.context.workspaceState.update(COLLAPSED_KEY, ids);
  }

  private state(n: LabNode): vscode.TreeItemCollapsibleState {
    return this.collapsed.has(nodeId(n)) ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded;
  }

  getTreeItem(n: LabNode): vscode.TreeItem {
    return podTreeItem(n, this.state(n));
  }

  getChildren(n?: LabNode): LabNode[] | Promise<LabNode[]> {
    if (!n) return this.roots();
    return podChildren(n);
  }

  getParent(n: LabNode): LabNode | undefined {
    if (n.type === 'pod') return undefined;
    if (n.type === 'group') return { type: 'pod', row: n.pod };
    const g = n.pod.groups.find((x) => x.containers.some((c) => c.id === n.row.id));
    return g ? { type: 'group', pod: n.pod, row: g } : undefined;
  }

  private async roots(): Promise<LabNode[]> {
    // opening the view connects to Docker (lazily, never during activation)
    const engine = this.lab.engineIfStarted ?? (await this.lab.getEngine().catch(() => undefined));
    if (!engine) return [];
    this.rows = buildPodRows(engine.listPods(), Date.now(), this.steps.held, simulatedNodeNames(engine.listNodes()));
    return this.rows.map((row) => ({ type: 'pod' as const, row }));
  }
}

/** The tree item of a pod, a container group or a container (the Pods and the Clusters views). */
export function podTreeItem(n: LabNode, state: vscode.TreeItemCollapsibleState): vscode.TreeItem {
  if (n.type === 'pod') {
    const r = n.row;
    const item = new vscode.TreeItem(r.name, state);
    item.id = nodeId(n);
    item.description = r.description;
    item.tooltip = r.tooltip;
    item.iconPath = icon(r.icon, r.tone);
    item.contextValue = r.contextValue;
    item.accessibilityInformation = { label: `pod ${r.name} ${r.status} ready ${r.ready} restarts ${r.restarts} age ${r.age}` };
    item.command = { command: 'podlab.showLifecycle', title: 'Show Lifecycle', arguments: [n] };
    return item;
  }
  if (n.type === 'group') {
    const item = new vscode.TreeItem(n.row.label, state);
    item.id = nodeId(n);
    item.contextValue = `group.${n.row.kind}`;
    item.description = `${n.row.containers.length}`;
    item.iconPath = new vscode.ThemeIcon(n.row.kind === 'init' ? 'debug-step-into' : n.row.kind === 'sidecar' ? 'layout-sidebar-right' : 'package');
    return item;
  }
  const r = n.row;
  const item = new vscode.TreeItem(r.name, vscode.TreeItemCollapsibleState.None);
  item.id = nodeId(n);
  item.description = r.description;
  item.tooltip = new vscode.MarkdownString(r.tooltip.split('\n').map((l) => l.replace(/([\\`*_[\]<>])/g, '\\$1')).join('  \n'));
  item.iconPath = icon(r.icon, r.tone);
  item.contextValue = r.contextValue;
  item.accessibilityInformation = { label: `${r.kind} container ${r.name} ${r.description}` };
  return item;
}

const COLLAPSED_KEY = 'podlab.tree.collapsed';

export function nodeId(n: LabNode): string {
  const ctx = n.context !== undefined ? `@${n.context}/` : '';
  return n.type === 'pod' ? `${ctx}pod:${n.row.id}` : n.type === 'group' ? `${ctx}group:${n.row.id}` : `${ctx}container:${n.row.id}`;
}

/** A pod's container groups, a group's containers (keeping the pod's context). */
export function podChildren(n: LabNode): LabNode[] {
  if (n.type === 'pod') return n.row.groups.map((g) => ({ type: 'group' as const, pod: n.row, row: g, context: n.context }));
  if (n.type === 'group') return n.row.containers.map((c) => ({ type: 'container' as const, pod: n.pod, row: c, context: n.context }));
  return [];
}

export function registerTree(lab: Lab, steps: StepModeWatch): PodTree {
  const tree = new PodTree(lab, steps);
  const view = vscode.window.createTreeView('podlab.pods', { treeDataProvider: tree, showCollapseAll: true });
  tree.setVisible(view.visible);
  lab.push(
    view,
    view.onDidChangeVisibility((e) => tree.setVisible(e.visible)),
    view.onDidCollapseElement((e) => tree.setCollapsed(e.element, true)),
    view.onDidExpandElement((e) => tree.setCollapsed(e.element, false)),
    lab.onDidChangeState((s) => {
      view.message =
        s.kind === 'failed'
          ? `Docker is not reachable: ${s.message}`
          : s.kind === 'lost'
            ? `The lab server stopped answering (${s.message}); retrying. The pods below are as last seen. "Pod Lab: Reconnect to Docker" starts it again.`
            : s.kind === 'connecting'
              ? 'Connecting to Docker…'
              : undefined;
      if (s.kind === 'connected') view.badge = s.pods > 0 ? { value: s.pods, tooltip: `${s.pods} lab pod(s)` } : undefined;
    }),
  );
  return tree;
}
