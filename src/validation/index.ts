// The validator's public face: validate a whole text (every YAML document), incrementally for the
// editor, render kubectl's "is invalid" message, and answer hover / completion / quick-fix queries.
import { isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import { collect, rebase, splitChunks, validateChunk, PARSE_OPTIONS, type Problem, type RelDoc, type ValidatedDocument, type ValidationResult } from './documents.js';
import { keyString } from './decode.js';
import { refAtPath, typeSpec } from './schema.js';

export type { Problem, ValidatedDocument, ValidationResult } from './documents.js';
export type { ProblemType } from './errors.js';
export { applyPodDefaults } from './defaults.js';
export { hoverAt, completionsAt, quickFixesFor } from './assist.js';

export function validateText(text: string): ValidationResult {
  const docs: ValidatedDocument[] = [];
  for (const chunk of splitChunks(text)) docs.push(...rebase(validateChunk(text.slice(chunk.start, chunk.end)), chunk, docs.length));
  return collect(docs);
}

/**
 * Re-validates only the documents whose text changed: results are cached per document chunk
 * (by its exact text), then moved to their new place in the file.
 */
export class IncrementalValidator {
  private cache = new Map<string, RelDoc[]>();

  update(text: string): ValidationResult {
    const next = new Map<string, RelDoc[]>();
    const docs: ValidatedDocument[] = [];
    for (const chunk of splitChunks(text)) {
      const slice = text.slice(chunk.start, chunk.end);
      const rels = next.get(slice) ?? this.cache.get(slice) ?? validateChunk(slice);
      next.set(slice, rels);
      docs.push(...rebase(rels, chunk, docs.length));
    }
    this.cache = next;
    return collect(docs);
  }
}

/**
 * What kubectl prints when the API server refuses the Pod. Decoding comes first (section 1 of the
 * rules): a type mismatch or a bad quantity is a 400 naming the first one; unknown or duplicate fields
 * are a 400 `strict decoding error` listing them all; YAML syntax errors fail in kubectl before any
 * request. Only a Pod that decodes reaches validation: a 422 listing every field error (identical
 * lines once), inline when there is one. `file` is the manifest's name as kubectl shows it.
 */
export function invalidPodMessage(name: string, problems: Problem[], file?: string): string {
  const errors = problems.filter((p) => p.severity === 'error');
  const creating = file === undefined ? '' : `error when creating ${JSON.stringify(file)}: `;
  const syntax = errors.find((p) => p.type === 'YAML syntax' && !p.detail.startsWith('duplicate field '));
  if (syntax) return `error: error parsing ${file ?? 'the manifest'}: error converting YAML to JSON: ${syntax.detail}`;
  const typeErr = errors.find((p) => p.type === 'Type mismatch');
  const head = `Error from server (BadRequest): ${creating}Pod in version "v1" cannot be handled as a Pod: `;
  if (typeErr) return head + typeErr.detail;
  const strict = errors.filter((p) => p.type === 'Unknown field' || (p.type === 'YAML syntax' && p.detail.startsWith('duplicate field ')));
  if (strict.length) return `${head}strict decoding error: ${strict.map((p) => p.detail).join(', ')}`;
  const errs = [...new Set(errors.map((p) => p.message))];
  if (errs.length === 1) return `The Pod "${name}" is invalid: ${errs[0]}`;
  return `The Pod "${name}" is invalid: \n${errs.map((e) => `* ${e}`).join('\n')}`;
}

export interface PathAt {
  document: number;
  /** Keys and indexes from the document root to the node under the cursor. */
  path: (string | number)[];
  /** Range of the key (or scalar value) under the cursor. */
  offset: number;
  endOffset: number;
  /** Whether the cursor is on a key (false: on a value). */
  onKey: boolean;
}

/** The field path under `offset`: which key or value of which document the cursor is on. */
export function pathAt(text: string, offset: number): PathAt | undefined {
  const chunks = splitChunks(text);
  let index = 0;
  for (const chunk of chunks) {
    const slice = text.slice(chunk.start, chunk.end);
    const count = validateChunkCount(slice);
    if (offset >= chunk.start && offset <= chunk.end) {
      const docs = parseAll(slice);
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!;
        const rel = offset - chunk.start;
        if (rel < d.range[0] || rel > d.range[2]) continue;
        const hit = findPath(d.contents as Node | null, rel, []);
        if (!hit) return undefined;
        return { document: index + i, path: hit.path, offset: hit.start + chunk.start, endOffset: hit.end + chunk.start, onKey: hit.onKey };
      }
      return undefined;
    }
    index += count;
  }
  return undefined;
}

function parseAll(slice: string): Document.Parsed[] {
  const r = parseAllDocuments(slice, PARSE_OPTIONS);
  return Array.isArray(r) ? r : [];
}

function validateChunkCount(slice: string): number {
  return Math.max(1, parseAll(slice).length);
}

function findPath(node: Node | null, at: number, path: (string | number)[]): { path: (string | number)[]; start: number; end: number; onKey: boolean } | undefined {
  if (!node) return undefined;
  if (isMap(node)) {
    for (const p of node.items) {
      const k = p.key as Node | null;
      const v = p.value as Node | null;
      const key = keyString(p.key);
      if (k?.range && at >= k.range[0] && at <= k.range[1]) return { path: [...path, key], start: k.range[0], end: k.range[1], onKey: true };
      if (v?.range && at >= v.range[0] && at <= v.range[1]) {
        if (isScalar(v)) return { path: [...path, key], start: v.range[0], end: v.range[1], onKey: false };
        return findPath(v, at, [...path, key]);
      }
    }
    return undefined;
  }
  if (isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const item = node.items[i] as Node | null;
      if (item?.range && at >= item.range[0] && at <= item.range[1]) {
        if (isScalar(item)) return { path: [...path, i], start: item.range[0], end: item.range[1], onKey: false };
        return findPath(item, at, [...path, i]);
      }
    }
  }
  return undefined;
}

/** The schema type at a path inside a Pod document (for hover and completion). */
export function typeAtPath(path: (string | number)[]): string | undefined {
  return refAtPath(path);
}

export { typeSpec };
