// The Clusters view: the kubeconfig's contexts beside the lab. A context connects when expanded
// and lists the pods of its namespace with the same rows as the lab's (podModel.ts); a failure is
// shown on the context and as its only child, an RBAC refusal in the API server's words.
import * as vscode from 'vscode';
import type { Lab } from './lab.js';
import type { Clusters } from './clusters.js';
import { LOST_NOTE, contextRow, type ContextInfo } from './clusterModel.js';
import { buildPodRows } from './podModel.js';
import { nodeId, podChildren, podTreeItem, toneColor, type LabNode } from './tree.js';

export type ContextNode = { type: 'context'; info: ContextInfo };
export type MessageNode = { type: 'message'; context: string; text: string; icon: string };
export type ClusterNode = ContextNode | MessageNode | LabNode;

export class ClusterTree implements vscode.TreeDataProvider<ClusterNode> {
  private readonly emitter = new vscode.EventEmitter<ClusterNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(
    private readonly lab: Lab,
    private readonly clusters: Clusters,
  ) {
    lab.push(this.emitter, clusters.onDidChange(() => this.emitter.fire(undefined)));
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getTreeItem(n: ClusterNode): vscode.TreeItem {
    if (n.type === 'context') {
      const row = contextRow(n.info, this.clusters.namespace(n.info), this.clusters.state(n.info.name));
      const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = row.id;
      item.description = row.description;
      item.tooltip = row.tooltip;
      const color = toneColor[row.tone];
      item.iconPath = new vscode.ThemeIcon(row.icon, color ? new vscode.ThemeColor(color) : undefined);
      item.contextValue = row.contextValue;
      item.accessibilityInformation = { label: `context ${row.label} ${row.description}` };
      return item;
    }
    if (n.type === 'message') {
      const item = new vscode.TreeItem(n.text, vscode.TreeItemCollapsibleState.None);
      item.id = `msg:${n.context}:${n.text}`;
      item.tooltip = n.text;
      item.iconPath = new vscode.ThemeIcon(n.icon);
      item.contextValue = 'message';
      item.accessibilityInformation = { label: `message ${n.text}` };
      return item;
    }
    const item = podTreeItem(n, n.type === 'container' ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = nodeId(n);
    return item;
  }

  async getChildren(n?: ClusterNode): Promise<ClusterNode[]> {
    if (!n) {
      try {
        const contexts = await this.clusters.contexts();
        this.clusters.retain(contexts);
        if (contexts.length === 0) return [{ type: 'message', context: '', text: 'No kubeconfig contexts: set podlab.kubeconfig or KUBECONFIG, or create ~/.kube/config (kind and minikube write it).', icon: 'info' }];
        return contexts.map((info) => ({ type: 'context' as const, info }));
      } catch (e) {
        return [{ type: 'message', context: '', text: `Cannot read the kubeconfig: ${(e as Error).message}`, icon: 'warning' }];
      }
    }
    if (n.type === 'context') {
      const name = n.info.name;
      try {
        const engine = await this.clusters.engine(name);
        const st = this.clusters.state(name);
        // Its last pods would read as current (a Terminating spinner forever): say what is going on instead.
        if (st.kind === 'lost') return [{ type: 'message', context: name, text: `Connection lost: ${st.problem.text}. ${LOST_NOTE}`, icon: 'debug-disconnect' }];
        const rows = buildPodRows(engine.listPods(), Date.now(), new Map());
        if (rows.length === 0) return [{ type: 'message', context: name, text: `No pods in namespace ${this.clusters.namespace(n.info)}.`, icon: 'info' }];
        return rows.map((row) => ({ type: 'pod' as const, row, context: name }));
      } catch {
        const st = this.clusters.state(name);
        const text = st.kind === 'failed' ? st.problem.text : 'Cannot connect.';
        return [{ type: 'message', context: name, text, icon: st.kind === 'failed' && st.problem.kind === 'forbidden' ? 'lock' : 'warning' }];
      }
    }
    if (n.type === 'message') return [];
    return podChildren(n);
  }
}

export function registerClusterTree(lab: Lab, clusters: Clusters): ClusterTree {
  const tree = new ClusterTree(lab, clusters);
  const view = vscode.window.createTreeView('podlab.clusters', { treeDataProvider: tree, showCollapseAll: true });
  lab.push(view);
  return tree;
}
