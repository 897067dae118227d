// Editor integration of the validator: diagnostics (debounced, per document, incremental), Pod
// Lab's workspace check of ConfigMap/Secret references (against the file, the other YAML files of
// the workspace and the lab's objects), hover (field docs, and live state of a running pod's
// containers), completion, quick fixes and the Run / Delete / Show lifecycle CodeLenses on the
// first line of every Pod document.
import * as vscode from 'vscode';
import type { EngineApi } from '../engine/api.js';
import type { Lab } from './lab.js';
import { looksLikeKubernetes, refKey } from './manifest.js';
import { lensSignature, lensTitles } from './podModel.js';
import { YAML_SCHEME } from './documents.js';
import {
  DocumentAnalyzer,
  loadValidator,
  docAt,
  hoverDocs,
  completionItems,
  quickFixes,
  addKeyEditIn,
  fieldPathAt,
  referenceProbs,
  imageProbs,
  explanation,
  lensOffset,
  configObjectsIn,
  labObject,
  objectsOf,
  type Analysis,
  type DocInfo,
  type KnownObject,
  type Prob,
} from './validator.js';

const DEBOUNCE_MS = 200;
const SELECTOR: vscode.DocumentSelector = [{ language: 'yaml' }];

/** A YAML document the manifest tools work on: not an output, a git version or a pod's live YAML (which has status and server-set fields). */
export function isCandidate(doc: vscode.TextDocument): boolean {
  return doc.languageId === 'yaml' && doc.uri.scheme !== 'output' && doc.uri.scheme !== 'git' && doc.uri.scheme !== YAML_SCHEME;
}

const WORKSPACE_GLOB = '**/*.{yaml,yml}';
const WORKSPACE_EXCLUDE = '**/{node_modules,.git}/**';
const MAX_WORKSPACE_FILES = 2000;
const MAX_FILE_BYTES = 1 << 20;

const signature = (objs: readonly KnownObject[]) => JSON.stringify(objs);

/**
 * The ConfigMaps and Secrets defined outside the document being checked: the other YAML files of
 * the workspace (open documents as their latest analysis has them, the rest as on disk, kept
 * current by a file watcher) and the lab's objects. Fires when any of them changes.
 */
class WorkspaceObjects implements vscode.Disposable {
  private readonly disk = new Map<string, KnownObject[]>();
  private readonly open = new Map<string, { version: number; objects: KnownObject[] }>();
  private lab: KnownObject[] = [];
  private labSig = '[]';
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subs: vscode.Disposable[] = [];
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly labRef: Lab,
    /** the latest analysis of an open document (of any version) */
    private readonly analysisOf: (uri: vscode.Uri) => Analysis | undefined,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(WORKSPACE_GLOB);
    this.subs.push(
      watcher,
      watcher.onDidCreate((u) => void this.read(u)),
      watcher.onDidChange((u) => void this.read(u)),
      watcher.onDidDelete((u) => {
        if (this.disk.delete(u.toString())) this.changed();
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (this.open.delete(d.uri.toString())) this.changed();
      }),
      labRef.onDidChangePods(() => this.refreshLab()),
      labRef.onDidChangeState(() => this.refreshLab()),
    );
    void this.scan().catch((e: unknown) => labRef.out.debug(`scanning the workspace for ConfigMaps and Secrets: ${String(e)}`));
  }

  /** Every known object except those of `uri` itself (its own come from its analysis). */
  known(uri: vscode.Uri): KnownObject[] {
    const self = uri.toString();
    const out: KnownObject[] = [];
    const openNow = new Set<string>();
    for (const d of vscode.workspace.textDocuments) {
      const key = d.uri.toString();
      if (key === self || !isCandidate(d) || d.uri.scheme !== 'file') continue;
      openNow.add(key);
      out.push(...this.openObjects(d));
    }
    for (const [key, objs] of this.disk) if (key !== self && !openNow.has(key)) out.push(...objs);
    out.push(...this.lab);
    return out;
  }

  /** An open document's objects: from its analysis when current, else parsed once per version. */
  private openObjects(d: vscode.TextDocument): KnownObject[] {
    const key = d.uri.toString();
    const hit = this.open.get(key);
    if (hit && hit.version === d.version) return hit.objects;
    const a = this.analysisOf(d.uri);
    const where = vscode.workspace.asRelativePath(d.uri);
    const file = d.uri.toString();
    const objects = (a && a.version === d.version ? objectsOf(a, where) : configObjectsIn(d.getText(), where)).map((o) => ({ ...o, file }));
    this.open.set(key, { version: d.version, objects });
    return objects;
  }

  /** A document was analysed: when the objects it defines changed, the others are checked again. */
  analysed(d: vscode.TextDocument): void {
    if (d.uri.scheme !== 'file') return;
    const key = d.uri.toString();
    const before = signature(this.open.get(key)?.objects ?? this.disk.get(key) ?? []);
    if (signature(this.openObjects(d)) !== before) this.changed();
  }

  private async scan(): Promise<void> {
    await loadValidator();
    const uris = await vscode.workspace.findFiles(WORKSPACE_GLOB, WORKSPACE_EXCLUDE, MAX_WORKSPACE_FILES);
    for (const u of uris) await this.read(u, false);
    this.changed();
  }

  private async read(uri: vscode.Uri, fire = true): Promise<void> {
    try {
      const st = await vscode.workspace.fs.stat(uri);
      if (st.size > MAX_FILE_BYTES) return;
      await loadValidator();
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const objs = configObjectsIn(text, vscode.workspace.asRelativePath(uri)).map((o) => ({ ...o, file: uri.toString() }));
      const key = uri.toString();
      const before = signature(this.disk.get(key) ?? []);
      if (objs.length) this.disk.set(key, objs);
      else this.disk.delete(key);
      if (fire && signature(objs) !== before) this.changed();
    } catch {
      // unreadable or gone: nothing to know
    }
  }

  private refreshLab(): void {
    const engine = this.labRef.engineIfStarted;
    const objs: KnownObject[] = [];
    if (engine) {
      for (const kind of ['ConfigMap', 'Secret'] as const) {
        for (const o of engine.listObjects(kind)) {
          const k = labObject(kind, o);
          if (k) objs.push(k);
        }
      }
    }
    const sig = signature(objs);
    if (sig === this.labSig) return;
    this.lab = objs;
    this.labSig = sig;
    this.changed();
  }

  private changed(): void {
    this.emitter.fire();
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.emitter.dispose();
  }
}

/** Owns diagnostics and the per-document incremental validators. */
export class Diagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('podlab');
  private readonly analyzers = new Map<string, DocumentAnalyzer>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly ownFindings = new Map<string, Prob[]>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly subs: vscode.Disposable[] = [];
  private readonly objects: WorkspaceObjects;
  readonly onDidAnalyze = this.emitter.event;

  constructor(private readonly lab: Lab) {
    this.objects = new WorkspaceObjects(lab, (uri) => this.analyzers.get(uri.toString())?.last);
    this.subs.push(
      this.objects,
      this.objects.onDidChange(() => this.republish()),
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.schedule(e.document, DEBOUNCE_MS);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
    );
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  private schedule(doc: vscode.TextDocument, delay: number): void {
    if (!isCandidate(doc)) return;
    const key = doc.uri.toString();
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.analyze(doc).catch((e: unknown) => this.lab.out.error(`validating ${doc.uri.fsPath}: ${String(e)}`));
      }, delay),
    );
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.analyzers.delete(key);
    this.ownFindings.delete(key);
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.delete(key);
    this.collection.delete(uri);
  }

  /** Validates now (or returns the cached analysis of this version). */
  async analyze(doc: vscode.TextDocument): Promise<Analysis | undefined> {
    if (!isCandidate(doc) || doc.isClosed) return undefined;
    const text = doc.getText();
    if (!looksLikeKubernetes(text)) {
      this.collection.delete(doc.uri);
      this.analyzers.delete(doc.uri.toString());
      this.ownFindings.delete(doc.uri.toString());
      return undefined;
    }
    const key = doc.uri.toString();
    let an = this.analyzers.get(key);
    if (an?.last && an.last.version === doc.version) return an.last;
    const v = await loadValidator();
    if (!an) {
      an = new DocumentAnalyzer(v);
      this.analyzers.set(key, an);
    }
    const t0 = performance.now();
    const a = an.update(text, doc.version);
    const ms = performance.now() - t0;
    if (ms > 50) this.lab.out.debug(`validated ${doc.uri.fsPath} in ${ms.toFixed(1)} ms`);
    this.publish(doc, a);
    this.objects.analysed(doc);
    this.emitter.fire(doc.uri);
    return a;
  }

  /** The validator's problems, the workspace check's reference warnings and the image hints of an analysis, as diagnostics. */
  private publish(doc: vscode.TextDocument, a: Analysis): void {
    const own = [...referenceProbs(a, this.objects.known(doc.uri)), ...imageProbs(a)];
    this.ownFindings.set(doc.uri.toString(), own);
    this.collection.set(
      doc.uri,
      [...a.problems, ...own].map((p) => toDiagnostic(doc, p, explanation(a, p))),
    );
  }

  /** The workspace's or the lab's ConfigMaps/Secrets changed: re-check the references of every analysed document. */
  private republish(): void {
    for (const doc of vscode.workspace.textDocuments) {
      const a = this.analyzers.get(doc.uri.toString())?.last;
      if (a && a.version === doc.version && !doc.isClosed) this.publish(doc, a);
    }
  }

  /** Pod Lab's own findings last published for a document: the workspace check's reference warnings, the image hints. */
  ownFindingsFor(uri: vscode.Uri): readonly Prob[] {
    return this.ownFindings.get(uri.toString()) ?? [];
  }

  /** The latest analysis (possibly of an older version) without validating. */
  cached(doc: vscode.TextDocument): Analysis | undefined {
    return this.analyzers.get(doc.uri.toString())?.last;
  }

  /** Problems of this document as diagnostics (for code actions). */
  diagnosticsFor(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const s of this.subs) s.dispose();
    this.collection.dispose();
    this.emitter.dispose();
  }
}

const probOf = new WeakMap<vscode.Diagnostic, Prob>();

function toDiagnostic(doc: vscode.TextDocument, p: Prob, more?: string): vscode.Diagnostic {
  const range = new vscode.Range(doc.positionAt(p.offset), doc.positionAt(p.endOffset > p.offset ? p.endOffset : p.offset + 1));
  const sev =
    p.severity === 'error' ? vscode.DiagnosticSeverity.Error : p.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information;
  const d = new vscode.Diagnostic(range, p.message, sev);
  d.source = 'Pod Lab';
  if (p.type) d.code = p.type;
  // the API server's message stays exact; the explanation (an invalid quantity's syntax) comes below it
  if (more) d.relatedInformation = [new vscode.DiagnosticRelatedInformation(new vscode.Location(doc.uri, range), more)];
  probOf.set(d, p);
  return d;
}

function podFromDoc(lab: Lab, d: DocInfo) {
  return d.ref ? lab.findPod(d.ref.namespace, d.ref.name) : undefined;
}

/** Run / Delete / Show lifecycle on the first line of each Pod document, reflecting the pod's live state. */
export class PodCodeLenses implements vscode.CodeLensProvider {
  private readonly emitter = new vscode.EventEmitter<void>();
  /** lensSignature of the lab's pods when the lenses were last asked for again because of them. */
  private shownSig = '';
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(
    private readonly lab: Lab,
    private readonly diags: Diagnostics,
  ) {
    lab.push(
      this.emitter,
      lab.onDidChangePods(() => {
        // Asked again only when a lens would read differently (not for an Event or a probe's time).
        const sig = lensSignature(lab.pods());
        if (sig === this.shownSig) return;
        this.shownSig = sig;
        this.emitter.fire();
      }),
      lab.onDidChangeState(() => this.emitter.fire()),
      diags.onDidAnalyze(() => this.emitter.fire()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.emitter.fire()),
    );
  }

  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const a = this.diags.cached(doc) ?? (await this.diags.analyze(doc));
    if (!a) return [];
    const lenses: vscode.CodeLens[] = [];
    const trusted = vscode.workspace.isTrusted;
    const now = Date.now();
    for (const d of a.docs) {
      if (!d.isPod) continue;
      // on the Pod's first content line: a lens on its `---` line would look like the previous document's
      const at = doc.positionAt(lensOffset(a, d));
      const range = new vscode.Range(at, at);
      const target = { uri: doc.uri.toString(), docIndex: d.index, namespace: d.ref?.namespace, name: d.ref?.name };
      if (!trusted) {
        lenses.push(
          new vscode.CodeLens(range, {
            title: '$(shield) Pod Lab: pods cannot run in an untrusted workspace',
            command: 'workbench.trust.manage',
            tooltip: 'Running a pod starts containers on your Docker. Trust this workspace to run it.',
          }),
        );
        continue;
      }
      const live = podFromDoc(this.lab, d);
      const t = lensTitles(live, now);
      if (t.summary) {
        lenses.push(new vscode.CodeLens(range, { title: `$(pulse) ${t.summary}`, command: 'podlab.showLifecycle', arguments: [target], tooltip: `Lab pod ${d.ref ? refKey(d.ref) : ''}` }));
      }
      for (const action of t.actions) {
        if (action === 'run') {
          const title = d.hasErrors ? '▶ Run Pod (invalid: see Problems)' : '▶ Run Pod';
          lenses.push(new vscode.CodeLens(range, { title, command: 'podlab.runPod', arguments: [target], tooltip: 'Validate and run this Pod on the local Docker' }));
          lenses.push(new vscode.CodeLens(range, { title: 'Step Mode', command: 'podlab.runPodStepMode', arguments: [target], tooltip: 'Run, pausing before each init container (a lab feature)' }));
        } else if (action === 'delete') {
          lenses.push(new vscode.CodeLens(range, { title: 'Delete', command: 'podlab.deletePod', arguments: [target], tooltip: 'Delete the lab pod (graceful)' }));
        } else {
          lenses.push(new vscode.CodeLens(range, { title: 'Show lifecycle', command: 'podlab.showLifecycle', arguments: [target] }));
        }
      }
    }
    return lenses;
  }
}

/** A place a pod may run: the lab, or an opened kubeconfig context (the engine and the namespace it shows). */
export interface LivePlace {
  context?: string;
  namespace?: string;
  engine: EngineApi;
}

export class PodHover implements vscode.HoverProvider {
  constructor(
    private readonly lab: Lab,
    private readonly diags: Diagnostics,
    /** The kubeconfig contexts opened in the Clusters view. */
    private readonly clusterPlaces: () => LivePlace[] = () => [],
  ) {}

  async provideHover(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
    const a = await this.diags.analyze(doc);
    if (!a) return undefined;
    const offset = doc.offsetAt(pos);
    const h = hoverDocs(a, offset);
    const parts: vscode.MarkdownString[] = [];
    let range: vscode.Range | undefined;
    if (h) {
      parts.push(new vscode.MarkdownString(h.markdown));
      range = new vscode.Range(doc.positionAt(h.start), doc.positionAt(h.end));
    }
    const places: LivePlace[] = [...(this.lab.engineIfStarted ? [{ engine: this.lab.engineIfStarted }] : []), ...this.clusterPlaces()];
    for (const place of places) {
      const live = await this.liveState(a, offset, place);
      if (live) parts.push(live);
    }
    if (parts.length === 0) return undefined;
    return new vscode.Hover(parts, range);
  }

  private async liveState(a: Analysis, offset: number, place: LivePlace): Promise<vscode.MarkdownString | undefined> {
    const engine = place.engine;
    const d = docAt(a, offset);
    if (!d?.isPod || !d.ref) return undefined;
    const path = fieldPathAt(a, offset);
    if (!path || path.length !== 4 || path[0] !== 'spec') return undefined;
    const [, list, idx, field] = path;
    if ((list !== 'containers' && list !== 'initContainers') || typeof idx !== 'number' || (field !== 'name' && field !== 'image')) return undefined;
    const spec = (d.object as { spec?: Record<string, { name?: string }[]> } | undefined)?.spec;
    const cname = spec?.[list]?.[idx]?.name;
    if (!cname) return undefined;
    // On a context, a manifest without a namespace runs in the context's namespace.
    const explicitNs = (d.object as { metadata?: { namespace?: string } } | undefined)?.metadata?.namespace;
    const namespace = place.context !== undefined && !explicitNs ? (place.namespace ?? d.ref.namespace) : d.ref.namespace;
    const pod = engine.getPod(namespace, d.ref.name);
    if (!pod) return undefined;
    const statuses = list === 'initContainers' ? pod.status?.initContainerStatuses : pod.status?.containerStatuses;
    const cs = statuses?.find((s) => s.name === cname);
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = { enabledCommands: ['podlab.showLifecycle', 'podlab.showLogs'] };
    const where = place.context === undefined ? 'Live in Pod Lab' : `Live in context ${escapeMd(place.context)}`;
    md.appendMarkdown(`**${where}** — \`${namespace}/${d.ref.name}\` container \`${cname}\`\n\n`);
    if (!cs?.state) {
      md.appendMarkdown('State: not created yet\n\n');
    } else if (cs.state.running) {
      md.appendMarkdown(`State: **Running** since ${cs.state.running.startedAt ?? '?'} · ready: ${cs.ready ? 'yes' : 'no'}\n\n`);
    } else if (cs.state.waiting) {
      md.appendMarkdown(`State: **Waiting** · reason: **${cs.state.waiting.reason ?? ''}**${cs.state.waiting.message ? ` — ${escapeMd(cs.state.waiting.message)}` : ''}\n\n`);
    } else if (cs.state.terminated) {
      md.appendMarkdown(`State: **Terminated** · reason: **${cs.state.terminated.reason ?? ''}** · exit code: **${cs.state.terminated.exitCode}**\n\n`);
    }
    const last = cs?.lastState?.terminated;
    if (last) md.appendMarkdown(`Last state: Terminated · ${last.reason ?? ''} · exit code: **${last.exitCode}**\n\n`);
    md.appendMarkdown(`Restarts: **${cs?.restartCount ?? 0}**\n\n`);
    try {
      const useLast = !cs?.state?.running && !cs?.state?.terminated && !!last;
      const lines = await engine.logs(namespace, d.ref.name, cname, { tail: 5, previous: useLast });
      if (lines.length > 0) {
        md.appendMarkdown(useLast ? 'Last lines (previous attempt):\n' : 'Last lines:\n');
        md.appendCodeblock(lines.join('\n'), 'log');
      }
    } catch {
      // no logs yet
    }
    const ctx = place.context !== undefined ? { context: place.context } : {};
    const args = encodeURIComponent(JSON.stringify([{ namespace, name: d.ref.name, ...ctx }]));
    const largs = encodeURIComponent(JSON.stringify([{ namespace, name: d.ref.name, container: cname, ...ctx }]));
    md.appendMarkdown(`[Show lifecycle](command:podlab.showLifecycle?${args}) · [Show logs](command:podlab.showLogs?${largs})`);
    return md;
  }
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}

export class PodCompletion implements vscode.CompletionItemProvider {
  constructor(private readonly diags: Diagnostics) {}

  async provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.CompletionItem[] | undefined> {
    // complete against the text as it is now (the debounced analysis may be older)
    const a = await this.diags.analyze(doc);
    if (!a) return undefined;
    const items = completionItems(a, doc.offsetAt(pos));
    return items.map((c) => {
      const item = new vscode.CompletionItem(c.label, c.kind === 'value' ? vscode.CompletionItemKind.EnumMember : vscode.CompletionItemKind.Property);
      if (c.insertText !== undefined) item.insertText = c.snippet ? new vscode.SnippetString(c.insertText) : c.insertText;
      if (c.detail) item.detail = c.detail;
      if (c.documentation) item.documentation = new vscode.MarkdownString(c.documentation);
      if (c.start !== undefined && c.end !== undefined) item.range = new vscode.Range(doc.positionAt(c.start), doc.positionAt(c.end));
      if (c.sortText) item.sortText = c.sortText;
      return item;
    });
  }
}

export class PodQuickFixes implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };
  constructor(private readonly diags: Diagnostics) {}

  async provideCodeActions(doc: vscode.TextDocument, range: vscode.Range, ctx: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    const a = await this.diags.analyze(doc);
    if (!a) return [];
    const out: vscode.CodeAction[] = [];
    for (const diag of ctx.diagnostics) {
      if (diag.source !== 'Pod Lab') continue;
      // the problem behind the diagnostic, from the current analysis (a stale one's fixes would edit the wrong offsets)
      const current = [...a.problems, ...this.diags.ownFindingsFor(doc.uri)];
      const known = probOf.get(diag);
      const p = (known && current.includes(known) ? known : undefined) ?? current.find((q) => q.message === diag.message && doc.positionAt(q.offset).isEqual(diag.range.start));
      if (!p) continue;
      for (const fix of quickFixes(a, p)) {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        const edit = new vscode.WorkspaceEdit();
        for (const e of fix.edits) edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.endOffset)), e.newText);
        if (fix.inFile) {
          // The object is in another file: the edit is computed on that file as it is now.
          const other = await vscode.workspace.openTextDocument(vscode.Uri.parse(fix.inFile.file)).then(
            (d) => d,
            () => undefined,
          );
          const oa = other ? await this.diags.analyze(other) : undefined;
          const e = other && oa ? addKeyEditIn(oa, fix.inFile) : undefined;
          if (!other || !e) continue;
          edit.replace(other.uri, new vscode.Range(other.positionAt(e.offset), other.positionAt(e.endOffset)), e.newText);
        }
        action.edit = edit;
        action.diagnostics = [diag];
        action.isPreferred = fix.preferred === true;
        out.push(action);
      }
    }
    void range;
    return out;
  }
}

export function registerLanguageFeatures(lab: Lab, clusterPlaces?: () => LivePlace[]): Diagnostics {
  const diags = new Diagnostics(lab);
  lab.push(
    diags,
    vscode.languages.registerCodeLensProvider(SELECTOR, new PodCodeLenses(lab, diags)),
    vscode.languages.registerHoverProvider(SELECTOR, new PodHover(lab, diags, clusterPlaces)),
    vscode.languages.registerCompletionItemProvider(SELECTOR, new PodCompletion(diags), ':', ' ', '-'),
    vscode.languages.registerCodeActionsProvider(SELECTOR, new PodQuickFixes(diags), PodQuickFixes.metadata),
  );
  return diags;
}
