// Where the cursor is: which document, which key or value, and the field path from the document's
// root to it. Shared by the public face (index.ts) and the editor assistance (assist.ts), which both
// import it (so neither imports the other). No upstream counterpart.
import { isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import { keyString } from './decode.js';
import { PARSE_OPTIONS, splitChunks } from './documents.js';
import { isLabKind, refAtPath, type LabKind } from './schema.js';

export interface PathAt {
  document: number;
  /** Keys and indexes from the document root to the node under the cursor. */
  path: (string | number)[];
  /** Range of the key (or scalar value) under the cursor. */
  offset: number;
  endOffset: number;
  /** Whether the cursor is on a key (false: on a value). */
  onKey: boolean;
  /** The document's `kind` when it is a plain string. */
  kind?: string;
}

/** The field path under `offset`: which key or value of which document the cursor is on. */
export function pathAt(text: string, offset: number): PathAt | undefined {
  const chunks = splitChunks(text);
  let index = 0;
  for (const chunk of chunks) {
    const slice = text.slice(chunk.start, chunk.end);
    const docs = parseAll(slice);
    if (offset >= chunk.start && offset <= chunk.end) {
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!;
        const rel = offset - chunk.start;
        if (rel < d.range[0] || rel > d.range[2]) continue;
        const hit = findPath(d.contents as Node | null, rel, []);
        if (!hit) return undefined;
        const at: PathAt = { document: index + i, path: hit.path, offset: hit.start + chunk.start, endOffset: hit.end + chunk.start, onKey: hit.onKey };
        const kind = kindOf(d);
        if (kind !== undefined) at.kind = kind;
        return at;
      }
      return undefined;
    }
    index += Math.max(1, docs.length);
  }
  return undefined;
}

function parseAll(slice: string): Document.Parsed[] {
  const r = parseAllDocuments(slice, PARSE_OPTIONS);
  return Array.isArray(r) ? r : [];
}

function kindOf(d: Document.Parsed): string | undefined {
  const root = d.contents;
  if (!isMap(root)) return undefined;
  for (const p of root.items) if (isScalar(p.key) && p.key.value === 'kind') return isScalar(p.value) && typeof p.value.value === 'string' ? p.value.value : undefined;
  return undefined;
}

/**
 * The schema root of a document of this kind: its own type for a Pod, ConfigMap or Secret, the Pod
 * for a document without a kind (one being typed), none for any other kind.
 */
export function rootType(kind: string | undefined): LabKind | undefined {
  if (kind === undefined || kind === '') return 'Pod';
  return isLabKind(kind) ? kind : undefined;
}

function findPath(node: Node | null, at: number, path: (string | number)[]): { path: (string | number)[]; start: number; end: number; onKey: boolean } | undefined {
  if (!node) return undefined;
  if (isMap(node)) {
    // keys first: a block value's range ends where the next key starts
    for (const p of node.items) {
      const k = p.key as Node | null;
      if (k?.range && at >= k.range[0] && at <= k.range[1]) return { path: [...path, keyString(p.key)], start: k.range[0], end: k.range[1], onKey: true };
    }
    for (const p of node.items) {
      const v = p.value as Node | null;
      const key = keyString(p.key);
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

/** The schema type at a path inside a document whose root is `root` (a Pod unless told). */
export function typeAtPath(path: (string | number)[], root: LabKind = 'Pod'): string | undefined {
  return refAtPath(path, root);
}
