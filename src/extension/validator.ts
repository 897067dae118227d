// The one place the extension meets src/validation: it turns the validator's results into the
// shapes the editor features use (offsets into the text, per-document pods). The validator module
// is loaded on first use, so activation stays cheap.
import type * as V from '../validation/index.js';
import type * as Q from '../validation/quickfixes.js';
import { podRefOf, type PodRef } from './manifest.js';

type ValidationModule = typeof V;
type QuickFixModule = typeof Q;
let mod: ValidationModule | undefined;
let qmod: QuickFixModule | undefined;
let loading: Promise<ValidationModule> | undefined;

export type KnownObject = Q.KnownObject;

/** Loads the validator (and the learners' quick fixes beside it) on first use. */
export function loadValidator(): Promise<ValidationModule> {
  if (mod && qmod) return Promise.resolve(mod);
  loading ??= Promise.all([import('../validation/index.js'), import('../validation/quickfixes.js')]).then(([m, q]) => {
    qmod = q;
    return (mod = m);
  });
  return loading;
}

export function validatorIfLoaded(): ValidationModule | undefined {
  return mod;
}

export interface Prob {
  offset: number;
  endOffset: number;
  severity: 'error' | 'warning' | 'info';
  message: string;
  field?: string;
  type?: string;
  docIndex: number;
  raw: V.Problem | Q.ReferenceProblem;
}

export interface DocInfo {
  index: number;
  /** [start, end) of the document in the text */
  start: number;
  end: number;
  kind?: string;
  isPod: boolean;
  /** the decoded object (for Pods: the manifest as written) */
  object?: unknown;
  ref?: PodRef;
  problems: Prob[];
  hasErrors: boolean;
  raw: V.ValidatedDocument;
}

export interface Analysis {
  text: string;
  version: number;
  docs: DocInfo[];
  problems: Prob[];
}

function toProb(p: V.Problem | Q.ReferenceProblem, docIndex: number): Prob {
  return {
    offset: p.offset,
    endOffset: Math.max(p.endOffset, p.offset),
    severity: p.severity === 'warning' ? 'warning' : p.severity === 'error' ? 'error' : 'info',
    message: p.message,
    field: p.field,
    type: p.type,
    docIndex,
    raw: p,
  };
}

function toDocs(docs: readonly V.ValidatedDocument[]): DocInfo[] {
  return docs.map((d, i) => {
    const index = d.index ?? i;
    const object = d.pod;
    const problems = d.problems.map((p) => toProb(p, index));
    const isPod = d.kind === 'Pod';
    return {
      index,
      start: d.offset,
      end: d.endOffset,
      kind: d.kind,
      isPod,
      object,
      ref: isPod ? (podRefOf(object) ?? (d.name ? { namespace: d.namespace || 'default', name: d.name } : undefined)) : undefined,
      problems,
      hasErrors: problems.some((p) => p.severity === 'error'),
      raw: d,
    };
  });
}

/** One per open document: re-validates only the YAML documents an edit touched. */
export class DocumentAnalyzer {
  private inc: V.IncrementalValidator | undefined;
  last: Analysis | undefined;

  constructor(private readonly v: ValidationModule) {}

  update(text: string, version: number): Analysis {
    if (this.last && this.last.version === version && this.last.text === text) return this.last;
    this.inc ??= new this.v.IncrementalValidator();
    const docs = toDocs(this.inc.update(text).documents);
    this.last = { text, version, docs, problems: docs.flatMap((d) => d.problems) };
    return this.last;
  }
}

export function analyzeOnce(v: ValidationModule, text: string): Analysis {
  const docs = toDocs(v.validateText(text).documents);
  return { text, version: -1, docs, problems: docs.flatMap((d) => d.problems) };
}

export function docAt(a: Analysis, offset: number): DocInfo | undefined {
  return a.docs.find((d) => offset >= d.start && offset <= d.end);
}

/** The message the API server would answer a create with (`The Pod "x" is invalid: ...`). */
export function refusal(v: ValidationModule, d: DocInfo): string | undefined {
  if (!d.hasErrors) return undefined;
  return v.documentRefusal(d.raw);
}

// ---- hover, completion, quick fixes, path: thin adapters over the validator's functions ----

export interface HoverDoc {
  markdown: string;
  start: number;
  end: number;
}

export interface CompletionEntry {
  label: string;
  kind: 'key' | 'value';
  insertText?: string;
  snippet?: boolean;
  detail?: string;
  documentation?: string;
  start?: number;
  end?: number;
  sortText?: string;
}

export interface QuickFix {
  title: string;
  edits: { offset: number; endOffset: number; newText: string }[];
  preferred?: boolean;
  /** A fix that edits another file (see the validation's QuickFix.inFile). */
  inFile?: Q.QuickFix['inFile'];
}

export function hoverDocs(a: Analysis, offset: number): HoverDoc | undefined {
  const v = mod;
  if (!v) return undefined;
  const h = v.hoverAt(a.text, offset);
  if (!h) return undefined;
  return { markdown: h.markdown, start: h.offset, end: h.endOffset };
}

export function completionItems(a: Analysis, offset: number): CompletionEntry[] {
  const v = mod;
  if (!v) return [];
  return v.completionsAt(a.text, offset).map((c) => ({
    label: c.label,
    kind: c.kind === 'value' ? 'value' : 'key',
    insertText: c.insertText,
    snippet: c.snippet,
    detail: c.detail,
    documentation: c.documentation,
    start: c.offset,
    end: c.endOffset,
  }));
}

export function quickFixes(a: Analysis, p: Prob): QuickFix[] {
  const v = mod;
  if (!v) return [];
  return v.quickFixesFor(a.text, p.raw).map((f) => ({ title: f.title, edits: f.edits, preferred: f.isPreferred, ...(f.inFile ? { inFile: f.inFile } : {}) }));
}

/** The edit of a fix that adds a key to an object of another file, on that file's analysis now. */
export function addKeyEditIn(other: Analysis, fix: NonNullable<QuickFix['inFile']>): { offset: number; endOffset: number; newText: string } | undefined {
  return qmod?.addKeyEditIn(
    other.text,
    other.docs.map((d) => d.raw),
    fix.kind,
    fix.namespace,
    fix.name,
    fix.key,
  );
}

/**
 * Pod Lab's workspace check over an analysis: the references of its Pods to ConfigMaps, Secrets or
 * keys that neither the file nor `external` (other workspace files, the lab) define, as warnings
 * carrying their fixes (quickFixes returns them).
 */
export function referenceProbs(a: Analysis, external: readonly KnownObject[]): Prob[] {
  const q = qmod;
  if (!q) return [];
  try {
    return q.referenceFindings(a.text, a.docs.map((d) => d.raw), external).map((p) => toProb(p, p.document));
  } catch {
    // a check of our own must never cost the API server's diagnostics
    return [];
  }
}

/** Pod Lab's image hints (information): an image without a tag, or tagged latest, pulled before every start (imageFindings). */
export function imageProbs(a: Analysis): Prob[] {
  const q = qmod;
  if (!q) return [];
  try {
    return q.imageFindings(a.text, a.docs.map((d) => d.raw)).map((p) => toProb(p, p.document));
  } catch {
    return [];
  }
}

/** More words for a problem whose upstream message is terse (an invalid quantity's syntax), if any. */
export function explanation(a: Analysis, p: Prob): string | undefined {
  return qmod?.explanationFor(a.text, p.raw);
}

/** Where a document's CodeLens goes: its first content line (after `---`, comments, blank lines). */
export function lensOffset(a: Analysis, d: DocInfo): number {
  return qmod ? qmod.lensOffset(a.text, d.start, d.end) : d.start;
}

/** The ConfigMaps and Secrets a YAML text defines (`where`: its path, for messages). */
export function configObjectsIn(text: string, where?: string): KnownObject[] {
  return qmod ? qmod.configObjectsIn(text, 'workspace', where) : [];
}

/** The ConfigMaps and Secrets an analysed document defines (no second parse), `where`: its path. */
export function objectsOf(a: Analysis, where?: string): KnownObject[] {
  const q = qmod;
  if (!q) return [];
  const out: KnownObject[] = [];
  for (const d of a.docs) {
    const kind: KnownObject['kind'] | undefined = d.kind === 'ConfigMap' ? 'ConfigMap' : d.kind === 'Secret' ? 'Secret' : undefined;
    if (!kind || d.raw.apiVersion !== 'v1') continue;
    const known: KnownObject | undefined = d.raw.object
      ? q.knownObject(d.raw.object as Parameters<QuickFixModule['knownObject']>[0], 'workspace', where)
      : d.raw.name
        ? { kind, namespace: d.raw.namespace || 'default', name: d.raw.name, origin: 'workspace' as const, ...(where !== undefined ? { where } : {}) }
        : undefined;
    if (known) out.push(known);
  }
  return out;
}

/** A ConfigMap or Secret of the lab as a known object. */
export function labObject(kind: 'ConfigMap' | 'Secret', obj: unknown): KnownObject | undefined {
  return qmod?.knownObject({ ...(obj as object), kind } as Parameters<QuickFixModule['knownObject']>[0], 'lab');
}

export function fieldPathAt(a: Analysis, offset: number): (string | number)[] | undefined {
  const v = mod;
  if (!v) return undefined;
  return v.pathAt(a.text, offset)?.path;
}
