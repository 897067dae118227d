// The per-document pipeline: split the text into YAML documents, parse each with `yaml` (keeping node
// ranges), decode strictly, default, validate, and place every finding in the text. Pods, ConfigMaps
// and Secrets are decoded and validated as the API server does; other kinds are reported as not run.
import { Document, isMap, isScalar, isSeq, Pair, parseAllDocuments, Scalar, YAMLMap, YAMLSeq, type Node } from 'yaml';
import type { ConfigMap, Pod, Secret } from 'kubernetes-types/core/v1';
import { decodeValue, keyString, type DecodeCtx } from './decode.js';
import { admitPod, priorityRefusal } from './admission.js';
import { defaultPodInPlace } from './defaults.js';
import { F, goQuote, isStrictOnly, renderMessage, renderWarning, type FieldErr, type ProblemSource, type ProblemType } from './errors.js';
import { labFindings, type LabOptions } from './lab.js';
import { defaultSecretInPlace, secretWarnings, stringDataOnlyKeys, validateConfigMap, validateSecret } from './objects.js';
import { validatePod } from './rules.js';
import { CORE_V1_KINDS, LAB_KINDS, type LabKind } from './schema.js';
import { nearest } from './near.js';

export interface Problem {
  document: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  offset: number;
  endOffset: number;
  severity: 'error' | 'warning';
  field: string;
  type: ProblemType;
  detail: string;
  message: string;
  /** 'podlab' for Pod Lab's own warnings (type `Lab warning`); absent for the API server's findings */
  source?: ProblemSource;
}

/** A v1 object Pod Lab creates, decoded and defaulted as the API server stores it. */
export type LabObject = Pod | ConfigMap | Secret;

export interface ValidatedDocument {
  index: number;
  offset: number;
  endOffset: number;
  kind?: string;
  apiVersion?: string;
  name?: string;
  /** Where the name's value is (absolute offsets and 1-based lines once rebased). */
  nameAt?: { line: number; column: number; endLine: number; endColumn: number; offset: number; endOffset: number };
  namespace?: string;
  /** A v1 Pod, ConfigMap or Secret that decodes: `podlab run` creates it (when it has no errors). */
  runnable: boolean;
  skipReason?: string;
  /** The defaulted Pod (Pods only; the same object as `object`). */
  pod?: Pod;
  /** The defaulted object of a runnable document: a Pod, a ConfigMap, or a Secret (stringData merged into data). */
  object?: LabObject;
  problems: Problem[];
}

export interface ValidationResult {
  documents: ValidatedDocument[];
  problems: Problem[];
}

/** YAML parse options: YAML 1.1 like kubectl's sigs.k8s.io/yaml (0644 is octal, yes/no are booleans). */
export const PARSE_OPTIONS = { version: '1.1', uniqueKeys: false, prettyErrors: false } as const;

/** A document's value as kubectl reads it (YAML 1.1), or undefined when it does not parse. */
export function documentValue(text: string, doc: Pick<ValidatedDocument, 'offset' | 'endOffset'>): unknown {
  const [d] = parseAllDocuments(text.slice(doc.offset, doc.endOffset), PARSE_OPTIONS) as unknown as { toJS(): unknown; errors: unknown[] }[];
  return d && !d.errors.length ? d.toJS() : undefined;
}

/** A document's object as the file wrote it (YAML 1.1, as kubectl reads it): what kubectl apply records. */
export function writtenObject<T extends object = Record<string, unknown>>(text: string, doc: Pick<ValidatedDocument, 'offset' | 'endOffset'>): T | undefined {
  const v = documentValue(text, doc);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as T) : undefined;
}

/** A slice of the text holding one or more YAML documents; split at `---` lines. */
export interface Chunk {
  start: number;
  end: number;
  /** 0-based line of `start` */
  line: number;
}

const DOC_START = /^---(?=[ \t\r\n]|$)/gm;

function onlyCommentsOrDirectives(s: string): boolean {
  for (const raw of s.split('\n')) {
    const l = raw.trim();
    if (l !== '' && l[0] !== '#' && l[0] !== '%') return false;
  }
  return true;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Splits at document-start markers (`---` at column 0). Comment/directive-only heads join the next chunk. */
export function splitChunks(text: string): Chunk[] {
  const starts: number[] = [0];
  DOC_START.lastIndex = 0;
  for (let m = DOC_START.exec(text); m; m = DOC_START.exec(text)) if (m.index > 0) starts.push(m.index);
  if (starts.length > 1 && onlyCommentsOrDirectives(text.slice(0, starts[1]))) starts.splice(1, 1);
  const chunks: Chunk[] = [];
  let line = 0;
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i]!;
    const end = i + 1 < starts.length ? starts[i + 1]! : text.length;
    chunks.push({ start, end, line });
    line += countNewlines(text, start, end);
  }
  return chunks;
}

/** A document's result with offsets relative to its chunk and lines relative to the chunk's first line. */
export type RelDoc = Omit<ValidatedDocument, 'index' | 'problems'> & { problems: Omit<Problem, 'document'>[] };

type Found = { key: Node | null; value: Node | null; pair: Pair | null };

/** Splits a rendered field path (`spec.containers[0].resources.limits[cpu]`) into segments. */
export function splitField(field: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    if (c === '.') {
      if (cur) out.push(cur);
      cur = '';
    } else if (c === '[') {
      if (cur) out.push(cur);
      cur = '';
      const close = field.indexOf(']', i + 1);
      const end = close < 0 ? field.length : close;
      out.push('\u0000' + field.slice(i + 1, end));
      i = end;
    } else cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

/** Walks the AST along `segments`; returns the deepest node reached and how many segments matched. */
export function walk(doc: Document.Parsed, segments: string[]): { found: Found; depth: number; chain: Found[] } {
  let cur: Found = { key: null, value: doc.contents as Node | null, pair: null };
  const chain: Found[] = [cur];
  let i = 0;
  while (i < segments.length) {
    const node = cur.value;
    const raw = segments[i]!;
    const bracket = raw.charCodeAt(0) === 0;
    const seg = bracket ? raw.slice(1) : raw;
    let next: Found | undefined;
    let used = 1;
    if (node && isSeq(node) && /^\d+$/.test(seg)) {
      const item = node.items[Number(seg)] as Node | undefined;
      if (item) next = { key: null, value: item, pair: null };
    } else if (node && isMap(node)) {
      // a key may itself contain dots (annotation keys rendered with Child): try longer joins
      for (let j = i; j < segments.length && !next; j++) {
        const cand = segments
          .slice(i, j + 1)
          .map((s) => (s.charCodeAt(0) === 0 ? s.slice(1) : s))
          .join('.');
        for (const p of node.items) {
          if (keyString(p.key) === cand) {
            next = { key: p.key as Node, value: p.value as Node | null, pair: p };
            used = j - i + 1;
            break;
          }
        }
        if (j - i > 8) break;
      }
    }
    if (!next) break;
    cur = next;
    chain.push(cur);
    i += used;
  }
  return { found: cur, depth: i, chain };
}

function firstLineEnd(text: string, start: number, end: number): number {
  const nl = text.indexOf('\n', start);
  return nl < 0 || nl > end ? end : nl;
}

/** Where a finding is shown: [start, end) relative to the chunk. */
function locate(doc: Document.Parsed, chunkText: string, e: FieldErr, docRange: [number, number]): [number, number] {
  const segments = splitField(e.loc ?? e.field);
  const { found, depth } = walk(doc, segments);
  const complete = depth === segments.length;
  const wantKey = (complete && e.at === 'key') || !complete;
  const k = found.key?.range;
  const v = found.value?.range;
  if (wantKey && k) return [k[0], k[1]];
  if (v && found.value) {
    if (isScalar(found.value)) {
      return v[1] > v[0] ? [v[0], v[1]] : k ? [k[0], k[1]] : [v[0], v[1]];
    }
    if (k) return [k[0], k[1]];
    return [v[0], firstLineEnd(chunkText, v[0], v[1])];
  }
  if (k) return [k[0], k[1]];
  return [docRange[0], firstLineEnd(chunkText, docRange[0], docRange[1])];
}

function scalarOf(node: unknown): unknown {
  return isScalar(node) ? node.value : undefined;
}

function topPair(root: Node | null, key: string): Pair | undefined {
  if (!root || !isMap(root)) return undefined;
  for (const p of root.items) if (isScalar(p.key) && p.key.value === key) return p;
  return undefined;
}

function jsonKind(n: unknown): string {
  if (isMap(n)) return 'object';
  if (isSeq(n)) return 'array';
  const v = scalarOf(n);
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

/** Reports duplicate keys in a document that is not decoded as a Pod. */
function duplicateKeys(node: unknown, path: string, errs: FieldErr[], base: number, depth: number): void {
  if (depth > 100) return;
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const p of node.items) {
      const k = keyString(p.key);
      const child = path ? `${path}.${k}` : k;
      if (seen.has(k)) {
        const r = (p.key as Node | null)?.range;
        const e: FieldErr = { type: 'YAML syntax', field: child, detail: `duplicate field ${JSON.stringify(child)}`, severity: 'error', at: 'key' };
        if (r) e.range = [base + r[0], base + r[1]];
        errs.push(e);
      }
      seen.add(k);
      duplicateKeys(p.value, child, errs, base, depth + 1);
    }
  } else if (isSeq(node)) {
    node.items.forEach((it, i) => duplicateKeys(it, `${path}[${i}]`, errs, base, depth + 1));
  }
}

const LAB_KIND_BY_LOWER = new Map<string, LabKind>(LAB_KINDS.map((k) => [k.toLowerCase(), k]));

/** Validates one parsed document. Offsets in the result are relative to the chunk. */
function processDocument(doc: Document.Parsed, chunkText: string, lc: Lines, opts: LabOptions): RelDoc {
  const range: [number, number] = [doc.range[0], doc.range[2]];
  const rel: RelDoc = { offset: range[0], endOffset: range[1], runnable: false, problems: [] };
  const errs: FieldErr[] = [];
  for (const e of doc.errors) {
    errs.push({ type: 'YAML syntax', field: '', detail: e.message, severity: 'error', range: [e.pos[0], Math.max(e.pos[1], e.pos[0])] });
  }
  for (const w of doc.warnings) {
    errs.push({ type: 'YAML syntax', field: '', detail: w.message, severity: 'warning', range: [w.pos[0], Math.max(w.pos[1], w.pos[0])] });
  }
  const root = doc.contents as Node | null;
  const finish = (): RelDoc => {
    rel.problems = errs.map((e) => place(e, doc, chunkText, lc, range));
    return rel;
  };
  if (root === null || (isScalar(root) && root.value === null)) {
    rel.skipReason = 'empty document';
    return finish();
  }
  if (!isMap(root)) {
    if (!doc.errors.length)
      errs.push({
        type: 'Type mismatch',
        field: '',
        detail: `json: cannot unmarshal ${jsonKind(root)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
        severity: 'error',
        range: [root.range?.[0] ?? range[0], root.range?.[1] ?? range[1]],
      });
    rel.skipReason = 'not a Kubernetes object (the document is not a mapping)';
    return finish();
  }
  const kindPair = topPair(root, 'kind');
  const avPair = topPair(root, 'apiVersion');
  const kindV = scalarOf(kindPair?.value);
  const avV = scalarOf(avPair?.value);
  if (typeof kindV === 'string') rel.kind = kindV;
  if (typeof avV === 'string') rel.apiVersion = avV;
  const meta = topPair(root, 'metadata')?.value;
  const namePair = topPair(meta as Node, 'name');
  const nameV = scalarOf(namePair?.value);
  const nsV = scalarOf(topPair(meta as Node, 'namespace')?.value);
  if (typeof nameV === 'string') {
    rel.name = nameV;
    const r = (namePair?.value as Node | null)?.range;
    if (r) rel.nameAt = lc.span(r[0], r[1]);
  }
  if (typeof nsV === 'string') rel.namespace = nsV;

  // A Pod, ConfigMap or Secret, or one of them with the kind's case wrong
  const labKind = typeof kindV === 'string' ? LAB_KIND_BY_LOWER.get(kindV.toLowerCase()) : undefined;
  const typeErr = (pair: Pair | undefined, field: string, v: unknown) => {
    if (pair && v !== undefined && v !== null && typeof v !== 'string') {
      const r = (pair.value as Node | null)?.range;
      const e: FieldErr = {
        type: 'Type mismatch',
        field,
        detail: `json: cannot unmarshal ${jsonKind(pair.value)} into Go struct field TypeMeta.${field} of type string`,
        severity: 'error',
      };
      if (r) e.range = [r[0], r[1]];
      errs.push(e);
      return true;
    }
    return false;
  };
  const badKindType = typeErr(kindPair, 'kind', kindV);
  const badAvType = typeErr(avPair, 'apiVersion', avV);
  if (!labKind) {
    if (!doc.errors.length) duplicateKeys(root, '', errs, 0, 0);
    if (badKindType || badAvType || kindV === undefined || kindV === null || kindV === '') {
      if (!badKindType && (kindV === undefined || kindV === null || kindV === '')) errs.push({ type: 'Required value', field: 'kind', detail: 'kind not set', severity: 'error' });
      if (!badAvType && (avV === undefined || avV === null || avV === '')) errs.push({ type: 'Required value', field: 'apiVersion', detail: 'apiVersion not set', severity: 'error' });
      rel.skipReason = 'not a Kubernetes object (kind is not set)';
      return finish();
    }
    const k = String(kindV);
    if (avV === 'v1' && !CORE_V1_KINDS.has(k)) {
      // the same kind in another case, else the nearest near miss (`Pdo`, `Servce`)
      const match = [...CORE_V1_KINDS].find((c) => c.toLowerCase() === k.toLowerCase()) ?? nearest(k, [...CORE_V1_KINDS], undefined, 1)[0]?.name;
      if (match) {
        errs.push({
          type: 'Invalid value',
          field: 'kind',
          detail: `${goQuote(k)}: no matches for kind ${goQuote(k)} in version "v1" (did you mean ${goQuote(match)}?)`,
          severity: 'error',
          at: 'value',
        });
      }
    }
    rel.skipReason = `Pod Lab runs Pods, ConfigMaps and Secrets only: this ${k} is not run`;
    return finish();
  }
  if (kindV !== labKind) {
    errs.push({ type: 'Invalid value', field: 'kind', detail: `${goQuote(String(kindV))}: no matches for kind ${goQuote(String(kindV))} in version ${goQuote(String(avV ?? ''))} (did you mean ${goQuote(labKind)}?)`, severity: 'error', at: 'value' });
  }
  if (!badAvType) {
    if (avV === undefined || avV === null || avV === '') errs.push({ type: 'Required value', field: 'apiVersion', detail: 'apiVersion not set', severity: 'error' });
    else if (avV !== 'v1')
      errs.push({ type: 'Invalid value', field: 'apiVersion', detail: `${goQuote(String(avV))}: no matches for kind ${goQuote(labKind)} in version ${goQuote(String(avV))}`, severity: 'error', at: 'value' });
  }
  if (doc.errors.length) {
    rel.runnable = false;
    rel.skipReason = 'the document has YAML syntax errors';
    return finish();
  }
  const ctx: DecodeCtx = { base: 0, doc, errs, dropped: new Set(), depth: 0 };
  const before = errs.length;
  const decoded = decodeValue(root, labKind, '', labKind, '', '', ctx) as LabObject | undefined;
  // Unknown and duplicate fields are strict-decoding problems: the object still decodes (without
  // them), so the API server can create it under fieldValidation Warn or Ignore.
  const strictOnly = isStrictOnly;
  const decodeFailed = errs.slice(before).some((e) => !strictOnly(e));
  rel.runnable = kindV === labKind && avV === 'v1';
  if (!rel.runnable) rel.skipReason = `not a v1 ${labKind}`;
  if (!decoded) return finish();
  let object: LabObject;
  let found: FieldErr[];
  if (labKind === 'Pod') {
    object = defaultPodInPlace(decoded as Pod);
    // Validated as admitted (ServiceAccount, DefaultTolerationSeconds, Priority), as on create; the
    // object stays as written and defaulted: the lab server admits it on create, and a real
    // cluster's admission (its PriorityClasses, its toleration seconds) must not find ours in it.
    found = validatePod(admitPod(structuredClone(object)), { update: opts.update });
    // the admission chain refuses a create before validation (the Priority plugin's 403)
    const refused = opts.update || !rel.runnable ? undefined : priorityRefusal(object as Pod);
    if (refused) found.unshift({ ...F.forbidden(refused.field, refused.detail, { at: 'value' }), source: 'admission' });
  } else if (labKind === 'ConfigMap') {
    object = decoded as ConfigMap;
    found = validateConfigMap(object);
  } else {
    const secret = decoded as Secret;
    const written = { data: secret.data !== undefined, stringData: secret.stringData !== undefined };
    const fromStringData = stringDataOnlyKeys(secret);
    object = defaultSecretInPlace(secret);
    found = validateSecret(object, fromStringData, written);
    // the strategy's warnings come only with a create that passed validation
    if (!found.length && !decodeFailed) found.push(...secretWarnings(object, fromStringData));
  }
  found.push(...labFindings(object, opts, labKind));
  for (const e of found) {
    if (ctx.dropped.size && isUnderDropped(e.field, ctx.dropped)) continue;
    errs.push(e);
  }
  if (!decodeFailed && rel.runnable) {
    rel.object = object;
    if (labKind === 'Pod') rel.pod = object as Pod;
  }
  return finish();
}

function isUnderDropped(field: string, dropped: Set<string>): boolean {
  for (const d of dropped) if (field === d || field.startsWith(d + '.') || field.startsWith(d + '[')) return true;
  return false;
}

function place(e: FieldErr, doc: Document.Parsed, chunkText: string, lc: Lines, docRange: [number, number]): Omit<Problem, 'document'> {
  let r: [number, number];
  try {
    r = e.range ?? locate(doc, chunkText, e, docRange);
  } catch {
    r = [docRange[0], docRange[0]];
  }
  const s = Math.max(0, Math.min(r[0], chunkText.length));
  const en = Math.max(s, Math.min(r[1], chunkText.length));
  return {
    ...lc.span(s, en),
    severity: e.severity,
    field: e.field,
    type: e.type,
    detail: e.detail,
    message: e.severity === 'warning' ? renderWarning(e.field, e.detail) : renderMessage(e.field, e.type, e.detail),
    ...(e.source ? { source: e.source } : {}),
  };
}

/**
 * 1-based line/column of offsets in a text. Our own table rather than yaml's LineCounter, which
 * misses newlines the lexer skips while recovering from some syntax errors.
 */
export class Lines {
  private starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  /** A problem's place: 1-based start and end line/column, and the offsets. */
  span(start: number, end: number): { line: number; column: number; endLine: number; endColumn: number; offset: number; endOffset: number } {
    const a = this.linePos(start);
    const b = this.linePos(end);
    return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col, offset: start, endOffset: end };
  }

  linePos(offset: number): { line: number; col: number } {
    const st = this.starts;
    let lo = 0;
    let hi = st.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (st[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - st[lo]! + 1 };
  }
}

/** Parses and validates one chunk of text (which starts at a line start). */
export function validateChunk(chunkText: string, opts: LabOptions = {}): RelDoc[] {
  const lc = new Lines(chunkText);
  let docs: Document.Parsed[];
  // yaml builds an Error (with a stack trace) for every syntax problem; half-typed text has many and
  // their stacks are never read, so capturing them is skipped while parsing.
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 0;
    const parsed = parseAllDocuments(chunkText, PARSE_OPTIONS);
    docs = Array.isArray(parsed) ? parsed : [];
  } catch (err) {
    return [internalDoc(chunkText, err)];
  } finally {
    Error.stackTraceLimit = limit;
  }
  const out: RelDoc[] = [];
  for (const d of docs) {
    try {
      out.push(processDocument(d, chunkText, lc, opts));
    } catch (err) {
      out.push(internalDoc(chunkText, err, d.range[0], d.range[2]));
    }
  }
  return out;
}

function internalDoc(chunkText: string, err: unknown, start = 0, end = chunkText.length): RelDoc {
  const detail = err instanceof Error ? err.message : String(err);
  let line = 1;
  for (let i = chunkText.indexOf('\n'); i >= 0 && i < start; i = chunkText.indexOf('\n', i + 1)) line++;
  return {
    offset: start,
    endOffset: end,
    runnable: false,
    skipReason: 'internal error',
    problems: [
      {
        line,
        column: 1,
        endLine: line,
        endColumn: 1,
        offset: start,
        endOffset: start,
        severity: 'error',
        field: '',
        type: 'Internal error',
        detail,
        message: renderMessage('', 'Internal error', detail),
      },
    ],
  };
}

/** A JSON value as the yaml nodes the decoder walks (without source ranges). */
function nodeOf(v: unknown): Node {
  if (Array.isArray(v)) {
    const seq = new YAMLSeq();
    for (const x of v) seq.items.push(nodeOf(x));
    return seq;
  }
  if (v !== null && typeof v === 'object') {
    const map = new YAMLMap();
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      // as JSON.stringify would leave it out
      if (x !== undefined) map.items.push(new Pair(new Scalar(k), nodeOf(x)));
    }
    return map;
  }
  return new Scalar(v);
}

/**
 * Validates a value already parsed from JSON (an API request body) as one document, without the
 * YAML parser: the same decoding, defaulting and validation as `validateChunk`, but its problems
 * have no place in a text (offsets 0, line 1). JSON's duplicate keys are gone from such a value, so
 * callers with a text that has them must validate the text.
 */
export function validateJsonValue(value: unknown, opts: LabOptions = {}): RelDoc {
  const doc = new Document() as unknown as Document.Parsed;
  doc.contents = nodeOf(value) as Document.Parsed['contents'];
  (doc as { range: [number, number, number] }).range = [0, 0, 0];
  try {
    return processDocument(doc, '', new Lines(''), opts);
  } catch (err) {
    return internalDoc('', err);
  }
}

/** Places chunk-relative documents in the whole text. */
export function rebase(rels: RelDoc[], chunk: Chunk, firstIndex: number): ValidatedDocument[] {
  return rels.map((r, i) => {
    const index = firstIndex + i;
    const d: ValidatedDocument = {
      index,
      offset: r.offset + chunk.start,
      endOffset: r.endOffset + chunk.start,
      runnable: r.runnable,
      problems: r.problems.map((p) => ({
        document: index,
        line: p.line + chunk.line,
        column: p.column,
        endLine: p.endLine + chunk.line,
        endColumn: p.endColumn,
        offset: p.offset + chunk.start,
        endOffset: p.endOffset + chunk.start,
        severity: p.severity,
        field: p.field,
        type: p.type,
        detail: p.detail,
        message: p.message,
        ...(p.source ? { source: p.source } : {}),
      })),
    };
    if (r.kind !== undefined) d.kind = r.kind;
    if (r.apiVersion !== undefined) d.apiVersion = r.apiVersion;
    if (r.name !== undefined) d.name = r.name;
    if (r.nameAt !== undefined) d.nameAt = { ...r.nameAt, line: r.nameAt.line + chunk.line, endLine: r.nameAt.endLine + chunk.line, offset: r.nameAt.offset + chunk.start, endOffset: r.nameAt.endOffset + chunk.start };
    if (r.namespace !== undefined) d.namespace = r.namespace;
    if (r.skipReason !== undefined) d.skipReason = r.skipReason;
    if (r.pod !== undefined) d.pod = r.pod;
    if (r.object !== undefined) d.object = r.object;
    return d;
  });
}

export function collect(documents: ValidatedDocument[]): ValidationResult {
  for (const p of sameNameProblems(documents)) documents[p.document]!.problems.push(p);
  return { documents, problems: documents.flatMap((d) => d.problems) };
}

/** The kinds Pod Lab creates, each once per namespace and name. */
const ONE_PER_NAME = new Set(['Pod', 'ConfigMap', 'Secret']);

/**
 * Pod Lab's warning on a document that names a v1 Pod, ConfigMap or Secret an earlier document of
 * the file already names (same namespace): the API server keeps one object per name, so `podlab
 * run` creates a Pod once — the later document is refused as AlreadyExists, or taken for the
 * running pod when its containers are the same; Run Pod on it offers to delete the running one —
 * and applies a ConfigMap or Secret twice, the later replacing the earlier. Placed on the later
 * document's name.
 */
export function sameNameProblems(documents: readonly ValidatedDocument[]): Problem[] {
  const first = new Map<string, ValidatedDocument>();
  const out: Problem[] = [];
  for (const d of documents) {
    if (d.apiVersion !== 'v1' || !d.kind || !ONE_PER_NAME.has(d.kind) || !d.name || !d.nameAt) continue;
    const ns = d.namespace || 'default';
    const key = `${d.kind}/${ns}/${d.name}`;
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, d);
      continue;
    }
    const where = `document ${earlier.index + 1} (line ${earlier.nameAt!.line})`;
    const what = `${d.kind} "${d.name}"${d.namespace ? ` in namespace "${ns}"` : ''}`;
    const outcome =
      d.kind === 'Pod'
        ? 'so the lab holds one of them at a time: podlab run creates the first and refuses this one as AlreadyExists (or takes it for that pod when its containers are the same); Run Pod on this one offers to delete the first'
        : 'so podlab run applies both, in file order, and this one replaces the first';
    const detail = `${where} of this file already defines ${what}; the API server keeps one object per name, ${outcome}`;
    out.push({ document: d.index, ...d.nameAt, severity: 'warning', field: 'metadata.name', type: 'Lab warning', detail, message: `metadata.name: ${detail}`, source: 'podlab' });
  }
  return out;
}
