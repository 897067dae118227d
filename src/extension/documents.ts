// Read-only virtual documents: `kubectl describe pod` (scheme podlab-describe, coloured by
// syntaxes/podlab-describe.tmLanguage.json) and container logs per attempt (scheme podlab-logs).
// Both refresh when the pod changes.
import * as vscode from 'vscode';
import type { Lab } from './lab.js';
import type { EngineApi } from '../engine/api.js';

export const DESCRIBE_SCHEME = 'podlab-describe';
export const LOGS_SCHEME = 'podlab-logs';

/** `context`: a kubeconfig context (a real cluster's pod), kept in the query; absent for the lab. */
export function describeUri(namespace: string, name: string, context?: string): vscode.Uri {
  return vscode.Uri.from({ scheme: DESCRIBE_SCHEME, path: `/${namespace}/${name}.podlab-describe`, query: context !== undefined ? new URLSearchParams({ context }).toString() : '' });
}

/** attempt: 'current' | 'previous' | a container id (one attempt of the debug info). */
export function logsUri(namespace: string, name: string, container: string, attempt: string, label?: string, context?: string): vscode.Uri {
  const suffix = attempt === 'current' ? '' : attempt === 'previous' ? ' (previous)' : ` (${label ?? attempt.slice(0, 12)})`;
  return vscode.Uri.from({
    scheme: LOGS_SCHEME,
    path: `${context !== undefined ? `/${context}` : ''}/${namespace}/${name}/${container}${suffix}.log`,
    query: new URLSearchParams({ ns: namespace, pod: name, container, attempt, ...(context !== undefined ? { context } : {}) }).toString(),
  });
}

/** The engine a document's address points at: the lab, or a kubeconfig context's API client. */
export type EngineFor = (context: string | undefined) => Promise<EngineApi>;

function parseDescribe(uri: vscode.Uri): { namespace: string; name: string } | undefined {
  const m = /^\/([^/]+)\/(.+)\.podlab-describe$/.exec(uri.path);
  return m ? { namespace: m[1]!, name: m[2]! } : undefined;
}

class DescribeProvider implements vscode.TextDocumentContentProvider {
  readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  constructor(private readonly engineFor: EngineFor) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseDescribe(uri);
    if (!ref) return 'Not a Pod Lab describe address.';
    const engine = await this.engineFor(new URLSearchParams(uri.query).get('context') ?? undefined);
    const pod = engine.getPod(ref.namespace, ref.name);
    if (!pod) return `Error from server (NotFound): pods "${ref.name}" not found\n`;
    const { describePod } = await import('../engine/describe.js');
    const events = engine.listEvents({ uid: pod.metadata?.uid });
    const node = pod.spec?.nodeName ? engine.listNodes().find((n) => n.metadata?.name === pod.spec?.nodeName) : undefined;
    const { isSimulatedNode } = await import('../shared/labels.js');
    return describePod(pod, events, Date.now(), { simulatedNode: isSimulatedNode(node) });
  }
}

class LogsProvider implements vscode.TextDocumentContentProvider {
  readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  constructor(private readonly engineFor: EngineFor) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const ns = q.get('ns') ?? 'default';
    const pod = q.get('pod') ?? '';
    const container = q.get('container') ?? '';
    const attempt = q.get('attempt') ?? 'current';
    try {
      const engine = await this.engineFor(q.get('context') ?? undefined);
      const lines =
        attempt === 'current' || attempt === 'previous'
          ? await engine.logs(ns, pod, container, { previous: attempt === 'previous' })
          : await engine.attemptLogs(attempt);
      return lines.length > 0 ? lines.join('\n') + '\n' : '';
    } catch (e) {
      return `${e instanceof Error ? e.message : String(e)}\n`;
    }
  }
}

export class LabDocuments {
  private readonly describe: DescribeProvider;
  private readonly logs: LogsProvider;

  constructor(
    private readonly lab: Lab,
    engineFor: EngineFor,
    /** Fired when pods of an opened kubeconfig context change. */
    clustersChanged: vscode.Event<void>,
  ) {
    this.describe = new DescribeProvider(engineFor);
    this.logs = new LogsProvider(engineFor);
    lab.push(
      clustersChanged(() => this.refreshOpen()),
      this.describe.emitter,
      this.logs.emitter,
      vscode.workspace.registerTextDocumentContentProvider(DESCRIBE_SCHEME, this.describe),
      vscode.workspace.registerTextDocumentContentProvider(LOGS_SCHEME, this.logs),
      lab.onDidChangePods(() => this.refreshOpen()),
    );
  }

  private refreshOpen(): void {
    for (const d of vscode.workspace.textDocuments) {
      if (d.isClosed) continue;
      if (d.uri.scheme === DESCRIBE_SCHEME) this.describe.emitter.fire(d.uri);
      else if (d.uri.scheme === LOGS_SCHEME && /attempt=(current|previous)/.test(d.uri.query)) this.logs.emitter.fire(d.uri);
    }
  }

  async openDescribe(namespace: string, name: string, context?: string): Promise<void> {
    const uri = describeUri(namespace, name, context);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'podlab-describe') doc = await vscode.languages.setTextDocumentLanguage(doc, 'podlab-describe');
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: outputColumn() });
  }

  async openLogs(namespace: string, name: string, container: string, attempt: string, label?: string, context?: string): Promise<void> {
    const uri = logsUri(namespace, name, container, attempt, label, context);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'log') doc = await vscode.languages.setTextDocumentLanguage(doc, 'log');
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: outputColumn() });
  }
}

/**
 * Where describe and logs documents open: the editor group that already shows one of them, so
 * they gather in one group beside the manifest instead of each opening a new group further right.
 */
function outputColumn(): vscode.ViewColumn {
  const ours = vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === DESCRIBE_SCHEME || e.document.uri.scheme === LOGS_SCHEME);
  return ours?.viewColumn ?? vscode.ViewColumn.Beside;
}
