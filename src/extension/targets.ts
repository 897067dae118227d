// What a command was invoked on: an explorer/editor URI, a CodeLens argument, a tree node, a
// command link's `{namespace, name}`, or nothing (then the active editor, or a pick of lab pods).
import * as vscode from 'vscode';
import type { Lab } from './lab.js';
import type { LabNode } from './tree.js';
import type { PodRef } from './manifest.js';

export interface LensArg {
  uri: string;
  docIndex: number;
  namespace?: string;
  name?: string;
}

export interface PodArg {
  namespace: string;
  name: string;
  container?: string;
  /** A kubeconfig context (a pod of a real cluster); absent for lab pods. */
  context?: string;
}

/** A pod a command acts on: in the lab, or in a kubeconfig context. */
export type PodTarget = PodRef & { container?: string; context?: string };

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null;
}

export function isLensArg(x: unknown): x is LensArg {
  return isObj(x) && typeof x.uri === 'string' && typeof x.docIndex === 'number';
}

export function isNode(x: unknown): x is LabNode {
  return isObj(x) && (x.type === 'pod' || x.type === 'group' || x.type === 'container') && isObj(x.row);
}

function isPodArg(x: unknown): x is PodArg {
  return isObj(x) && typeof x.namespace === 'string' && typeof x.name === 'string';
}

/** The pod (and maybe container) a command targets, without asking. */
export function podFromArg(arg: unknown): PodTarget | undefined {
  const ctx = (c: unknown) => (typeof c === 'string' && c !== '' ? { context: c } : {});
  if (isNode(arg)) {
    if (arg.type === 'pod') return { namespace: arg.row.namespace, name: arg.row.name, ...ctx(arg.context) };
    if (arg.type === 'group') return { namespace: arg.pod.namespace, name: arg.pod.name, ...ctx(arg.context) };
    return { namespace: arg.pod.namespace, name: arg.pod.name, container: arg.row.name, ...ctx(arg.context) };
  }
  if (isPodArg(arg)) return { namespace: arg.namespace, name: arg.name, ...(arg.container !== undefined ? { container: arg.container } : {}), ...ctx(arg.context) };
  return undefined;
}

/** Resolves the target pod, asking with a quick pick of lab pods when there is none. */
export async function pickPod(lab: Lab, arg: unknown, placeHolder: string, docPod?: () => Promise<PodTarget | undefined>): Promise<PodTarget | undefined> {
  const direct = podFromArg(arg);
  if (direct) return direct;
  if (docPod) {
    const fromDoc = await docPod();
    if (fromDoc) return fromDoc;
  }
  const engine = await lab.getEngine();
  const pods = engine.listPods();
  if (pods.length === 0) {
    void vscode.window.showInformationMessage('Pod Lab: there are no lab pods. Run a Pod manifest first.');
    return undefined;
  }
  if (pods.length === 1) {
    const p = pods[0]!;
    return { namespace: p.metadata?.namespace ?? 'default', name: p.metadata?.name ?? '' };
  }
  const pick = await vscode.window.showQuickPick(
    pods.map((p) => ({ label: p.metadata?.name ?? '', description: p.metadata?.namespace ?? 'default', detail: p.status?.phase })),
    { placeHolder },
  );
  return pick ? { namespace: pick.description ?? 'default', name: pick.label } : undefined;
}

/** The URI a Run command was invoked on (explorer, editor context, editor title, CodeLens), or the active editor's. */
export function fileFromArg(arg: unknown): { uri: vscode.Uri; docIndex?: number } | undefined {
  if (arg instanceof vscode.Uri) return { uri: arg };
  if (isLensArg(arg)) return { uri: vscode.Uri.parse(arg.uri), docIndex: arg.docIndex };
  const ed = vscode.window.activeTextEditor;
  if (ed && ed.document.languageId === 'yaml') return { uri: ed.document.uri };
  return undefined;
}
