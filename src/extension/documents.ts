// Read-only virtual documents: `kubectl describe pod` (scheme podlab-describe, coloured by
// syntaxes/podlab-describe.tmLanguage.json), the pod's live object as `kubectl get -o yaml`
// prints it (scheme podlab-yaml, YAML that the manifest tools leave alone) and container logs per
// attempt (scheme podlab-logs). All refresh when the pod changes.
import * as vscode from 'vscode';
import type { Lab } from './lab.js';
import type { EngineApi } from '../engine/api.js';
import { outputGroup } from './output-group.js';

export const DESCRIBE_SCHEME = 'podlab-describe';
export const LOGS_SCHEME = 'podlab-logs';
export const YAML_SCHEME = 'podlab-yaml';

/** `context`: a kubeconfig context (a real cluster's pod), kept in the query; absent for the lab. */
export function describeUri(namespace: string, name: string, context?: string): vscode.Uri {
  return vscode.Uri.from({ scheme: DESCRIBE_SCHEME, path: `/${namespace}/${name}.podlab-describe`, query: context !== undefined ? new URLSearchParams({ context }).toString() : '' });
}

/** The live YAML of a pod: its tab reads `NAME (live).yaml`. */
export function yamlUri(namespace: string, name: string, context?: string): vscode.Uri {
  return vscode.Uri.from({ scheme: YAML_SCHEME, path: `/${namespace}/${name} (live).yaml`, query: new URLSearchParams({ ns: namespace, pod: name, ...(context !== undefined ? { context } : {}) }).toString() });
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

/** A read-only document drawn from an engine (the lab's, or a context's), redrawn when `emitter` fires for it. */
abstract class EngineDocument implements vscode.TextDocumentContentProvider {
  readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  constructor(private readonly engineFor: EngineFor) {}

  /** The document's text; an error becomes `errorText` of its message. */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    try {
      return await this.text(await this.engineFor(new URLSearchParams(uri.query).get('context') ?? undefined), uri);
    } catch (e) {
      return this.errorText(e instanceof Error ? e.message : String(e));
    }
  }

  protected abstract text(engine: EngineApi, uri: vscode.Uri): Promise<string>;

  protected errorText(message: string): string {
    return `${message}\n`;
  }
}

class DescribeProvider extends EngineDocument {
  protected async text(engine: EngineApi, uri: vscode.Uri): Promise<string> {
    const ref = parseDescribe(uri);
    if (!ref) return 'Not a Pod Lab describe address.';
    const pod = engine.getPod(ref.namespace, ref.name);
    if (!pod) return `Error from server (NotFound): pods "${ref.name}" not found\n`;
    const { describePod } = await import('../engine/describe.js');
    const events = engine.listEvents({ uid: pod.metadata?.uid });
    const node = pod.spec?.nodeName ? engine.listNodes().find((n) => n.metadata?.name === pod.spec?.nodeName) : undefined;
    const { isSimulatedNode } = await import('../shared/labels.js');
    return describePod(pod, events, Date.now(), { simulatedNode: isSimulatedNode(node) });
  }
}

class YamlProvider extends EngineDocument {
  protected async text(engine: EngineApi, uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const name = q.get('pod') ?? '';
    const pod = engine.getPod(q.get('ns') ?? 'default', name);
    if (!pod) return this.errorText(`Error from server (NotFound): pods "${name}" not found`);
    const { livePodYaml } = await import('./podModel.js');
    return livePodYaml(pod);
  }

  /** A YAML comment, so the document stays YAML. */
  protected override errorText(message: string): string {
    return `# ${message}\n`;
  }
}

class LogsProvider extends EngineDocument {
  /** What each open log document last showed: a log read before its pod was deleted stays, as `kubectl logs -f` leaves what it printed. */
  readonly shown = new Map<string, string>();

  protected async text(engine: EngineApi, uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const attempt = q.get('attempt') ?? 'current';
    const pod = q.get('pod') ?? '';
    let lines: string[];
    try {
      lines =
        attempt === 'current' || attempt === 'previous'
          ? await engine.logs(q.get('ns') ?? 'default', pod, q.get('container') ?? '', { previous: attempt === 'previous' })
          : await engine.attemptLogs(attempt);
    } catch (e) {
      const kept = this.shown.get(uri.toString());
      if (kept !== undefined && !engine.getPod(q.get('ns') ?? 'default', pod)) return kept;
      throw e;
    }
    const text = lines.length > 0 ? lines.join('\n') + '\n' : '';
    this.shown.set(uri.toString(), text);
    return text;
  }
}

export class LabDocuments {
  private readonly describe: DescribeProvider;
  private readonly yaml: YamlProvider;
  private readonly logs: LogsProvider;

  constructor(
    private readonly lab: Lab,
    engineFor: EngineFor,
    /** Fired when pods of an opened kubeconfig context change. */
    clustersChanged: vscode.Event<void>,
  ) {
    this.describe = new DescribeProvider(engineFor);
    this.yaml = new YamlProvider(engineFor);
    this.logs = new LogsProvider(engineFor);
    lab.push(
      clustersChanged(() => this.refreshOpen()),
      this.describe.emitter,
      this.yaml.emitter,
      this.logs.emitter,
      vscode.workspace.registerTextDocumentContentProvider(DESCRIBE_SCHEME, this.describe),
      vscode.workspace.registerTextDocumentContentProvider(YAML_SCHEME, this.yaml),
      vscode.workspace.registerTextDocumentContentProvider(LOGS_SCHEME, this.logs),
      lab.onDidChangePods(() => this.refreshOpen()),
      vscode.workspace.onDidCloseTextDocument((d) => this.logs.shown.delete(d.uri.toString())),
    );
  }

  private refreshOpen(): void {
    for (const d of vscode.workspace.textDocuments) {
      if (d.isClosed) continue;
      if (d.uri.scheme === DESCRIBE_SCHEME) this.describe.emitter.fire(d.uri);
      else if (d.uri.scheme === YAML_SCHEME) this.yaml.emitter.fire(d.uri);
      else if (d.uri.scheme === LOGS_SCHEME && /attempt=(current|previous)/.test(d.uri.query)) this.logs.emitter.fire(d.uri);
    }
  }

  async openDescribe(namespace: string, name: string, context?: string): Promise<void> {
    const uri = describeUri(namespace, name, context);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'podlab-describe') doc = await vscode.languages.setTextDocumentLanguage(doc, 'podlab-describe');
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: outputColumn() });
  }

  async openYaml(namespace: string, name: string, context?: string): Promise<void> {
    let doc = await vscode.workspace.openTextDocument(yamlUri(namespace, name, context));
    if (doc.languageId !== 'yaml') doc = await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: outputColumn() });
  }

  async openLogs(namespace: string, name: string, container: string, attempt: string, label?: string, context?: string): Promise<void> {
    const uri = logsUri(namespace, name, container, attempt, label, context);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'log') doc = await vscode.languages.setTextDocumentLanguage(doc, 'log');
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: outputColumn() });
  }
}

/** Where describe, live YAML and logs documents open: the group that has one of them (output-group.ts), else beside. */
function outputColumn(): vscode.ViewColumn {
  const groups = vscode.window.tabGroups.all.map((g) => ({
    viewColumn: g.viewColumn,
    tabs: g.tabs.map((t) => ({ scheme: t.input instanceof vscode.TabInputText ? t.input.uri.scheme : undefined, active: t.isActive })),
  }));
  return outputGroup(groups, [DESCRIBE_SCHEME, YAML_SCHEME, LOGS_SCHEME]) ?? vscode.ViewColumn.Beside;
}
