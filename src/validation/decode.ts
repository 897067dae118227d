// Strict decoding of a YAML document into a v1 Pod, ConfigMap or Secret, as the API server's JSON decoder does it
// (sigs.k8s.io/json with strict field validation): one walk over the yaml AST that builds the value,
// records every node's position by field path, and reports unknown/duplicate fields and type errors.
import { isAlias, isMap, isScalar, isSeq, type Document, type Node, type Scalar } from 'yaml';
import { F, type FieldErr } from './errors.js';
import { goStringTypeName, goTypeName, typeSpec } from './schema.js';
import { goBase64Decode } from './go-codecs.js';
import { parseQuantity } from './quantity.js';

export interface DecodeCtx {
  base: number;
  doc: Document.Parsed;
  errs: FieldErr[];
  /** paths whose value was dropped because of a type error (validation errors there are suppressed) */
  dropped: Set<string>;
  depth: number;
}

const MAX_DEPTH = 200;

function resolve(node: unknown, ctx: DecodeCtx): Node | null {
  let n = node as Node | null;
  for (let i = 0; i < 20 && n && isAlias(n); i++) n = (n.resolve(ctx.doc) as Node | undefined) ?? null;
  if (n && isAlias(n)) return null;
  return n;
}

/** JSON kind of a node as Go's decoder names it. */
function jsonKind(n: Node | null): string {
  if (!n) return 'null';
  if (isMap(n)) return 'object';
  if (isSeq(n)) return 'array';
  if (isScalar(n)) {
    const v = n.value;
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'number' || typeof v === 'bigint') return 'number';
    if (typeof v === 'boolean') return 'bool';
    return 'string';
  }
  return 'object';
}

export function keyString(k: unknown): string {
  if (k === null || k === undefined) return 'null';
  if (isScalar(k)) {
    const v = (k as Scalar).value;
    if (v instanceof Date) return (k as Scalar).source ?? String(v);
    return v === null ? 'null' : String(v);
  }
  if (typeof k === 'object' && k && 'toJSON' in k) {
    try {
      return JSON.stringify((k as { toJSON(): unknown }).toJSON());
    } catch {
      return '?';
    }
  }
  return String(k);
}

function scalarString(n: Scalar): string {
  const v = n.value;
  if (typeof v === 'string') return v;
  if (v instanceof Date) return n.source ?? v.toISOString();
  return String(v);
}

function rangeOf(n: Node | null | undefined, ctx: DecodeCtx): [number, number] | undefined {
  const r = n?.range;
  return r ? [ctx.base + r[0], ctx.base + r[1]] : undefined;
}

function mismatch(ctx: DecodeCtx, node: Node | null, path: string, what: string, owner: string, goPath: string, goType: string): undefined {
  const e: FieldErr = {
    type: 'Type mismatch',
    field: path,
    detail: `json: cannot unmarshal ${what} into Go struct field ${owner}.${goPath} of type ${goType}`,
    severity: 'error',
    at: 'value',
  };
  const r = rangeOf(node, ctx);
  if (r) e.range = r;
  ctx.errs.push(e);
  ctx.dropped.add(path);
  return undefined;
}

function numberWhat(n: Node | null): string {
  if (n && isScalar(n) && typeof n.value === 'number') {
    const v = n.value;
    return Number.isInteger(v) && Math.abs(v) < 1e21 ? `number ${v}` : `number ${goFloat(v)}`;
  }
  return jsonKind(n);
}
function goFloat(v: number): string {
  // JSON text as Go would have received it from sigs.k8s.io/yaml (strconv 'g'-like exponent form)
  return String(v);
}

/**
 * Decodes `node` as a value of schema type `ref` at `path`. `owner`/`goPath` name the innermost Go
 * struct and the index-free JSON path, as encoding/json prints them. Returns undefined for absent/dropped.
 */
export function decodeValue(nodeIn: unknown, ref: string, path: string, owner: string, goPath: string, field: string, ctx: DecodeCtx): unknown {
  const node = resolve(nodeIn, ctx);
  if (!node || (isScalar(node) && (node.value === null || node.value === undefined))) return undefined;
  if (ctx.depth > MAX_DEPTH) return undefined;
  switch (ref) {
    case 'string':
      if (isScalar(node) && (typeof node.value === 'string' || node.value instanceof Date)) return scalarString(node);
      return mismatch(ctx, node, path, jsonKind(node), owner, goPath, goStringTypeName(owner, field));
    case 'bytes': {
      // []byte: a base64 string, decoded (and kept in canonical form); a bad one fails the whole decode
      if (!(isScalar(node) && (typeof node.value === 'string' || node.value instanceof Date))) return mismatch(ctx, node, path, jsonKind(node), owner, goPath, '[]uint8');
      const r = goBase64Decode(scalarString(node));
      if ('error' in r) {
        const e: FieldErr = { type: 'Type mismatch', field: path, detail: r.error, severity: 'error', at: 'value' };
        const rg = rangeOf(node, ctx);
        if (rg) e.range = rg;
        ctx.errs.push(e);
        ctx.dropped.add(path);
        return undefined;
      }
      return Buffer.from(r.bytes).toString('base64');
    }
    case 'int32':
    case 'int64': {
      if (isScalar(node) && typeof node.value === 'number') {
        const v = node.value;
        const lim = ref === 'int32' ? 2147483648 : 9223372036854775808;
        if (Number.isInteger(v) && v >= -lim && v < lim) return v;
        return mismatch(ctx, node, path, numberWhat(node), owner, goPath, ref);
      }
      return mismatch(ctx, node, path, jsonKind(node), owner, goPath, ref);
    }
    case 'bool':
      if (isScalar(node) && typeof node.value === 'boolean') return node.value;
      return mismatch(ctx, node, path, jsonKind(node), owner, goPath, 'bool');
    case 'Quantity': {
      let s: string;
      if (isScalar(node) && (typeof node.value === 'string' || typeof node.value === 'number' || node.value instanceof Date)) {
        s = typeof node.value === 'number' ? String(node.value) : scalarString(node);
        if (typeof node.value === 'string') s = s.trim();
      } else s = isScalar(node) ? String(node.value) : '{';
      const q = parseQuantity(s);
      if (typeof q === 'string') {
        const e: FieldErr = { type: 'Type mismatch', field: path, detail: q, severity: 'error', at: 'value' };
        const r = rangeOf(node, ctx);
        if (r) e.range = r;
        ctx.errs.push(e);
        ctx.dropped.add(path);
        return undefined;
      }
      return s;
    }
    case 'IntOrString': {
      if (isScalar(node)) {
        if (typeof node.value === 'string' || node.value instanceof Date) return scalarString(node);
        if (typeof node.value === 'number') {
          const v = node.value;
          if (Number.isInteger(v) && v >= -2147483648 && v < 2147483648) return v;
          return mismatch(ctx, node, path, numberWhat(node), owner, goPath, 'int32');
        }
      }
      return mismatch(ctx, node, path, jsonKind(node), owner, goPath, 'int32');
    }
    case 'Time':
      if (isScalar(node)) return scalarString(node);
      return mismatch(ctx, node, path, jsonKind(node), owner, goPath, 'string');
    case 'any':
      try {
        return node.toJSON();
      } catch {
        return undefined;
      }
  }
  if (ref.startsWith('[]')) {
    if (!isSeq(node)) return mismatch(ctx, node, path, jsonKind(node), owner, goPath, goTypeName(ref));
    const elem = ref.slice(2);
    const out: unknown[] = [];
    ctx.depth++;
    for (let i = 0; i < node.items.length; i++) {
      const item = node.items[i] as Node | null;
      const p = `${path}[${i}]`;
      const v = decodeValue(item, elem, p, owner, goPath, field, ctx);
      out.push(v === undefined ? zeroOf(elem) : v);
    }
    ctx.depth--;
    return out;
  }
  if (ref.startsWith('{}')) {
    if (!isMap(node)) return mismatch(ctx, node, path, jsonKind(node), owner, goPath, goTypeName(ref, owner, field));
    const elem = ref.slice(2);
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    ctx.depth++;
    for (const pair of node.items) {
      const key = keyString(pair.key);
      const p = `${path}[${key}]`;
      if (seen.has(key)) ctx.errs.push(dupField(p, pair.key as Node | null, ctx));
      seen.add(key);
      const v = decodeValue(pair.value, elem, p, owner, goPath, field, ctx);
      out[key] = v === undefined ? zeroOf(elem) : v;
    }
    ctx.depth--;
    return out;
  }
  const t = typeSpec(ref);
  if (!t) return undefined;
  if (!isMap(node)) return mismatch(ctx, node, path, jsonKind(node), owner, goPath, goTypeName(ref));
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  ctx.depth++;
  for (const pair of node.items) {
    const key = keyString(pair.key);
    const p = path ? `${path}.${key}` : key;
    const valueNode = resolve(pair.value, ctx);
    if (seen.has(key)) ctx.errs.push(dupField(p, pair.key as Node | null, ctx));
    seen.add(key);
    const spec = t.fields.get(key);
    if (!spec) {
      const e: FieldErr = { type: 'Unknown field', field: p, detail: `unknown field ${JSON.stringify(p)}`, severity: 'error', at: 'key' };
      const r = rangeOf(pair.key as Node | null, ctx);
      if (r) e.range = r;
      ctx.errs.push(e);
      continue;
    }
    const v = decodeValue(valueNode, spec.type, p, ref, goPath ? `${goPath}.${key}` : key, key, ctx);
    if (v !== undefined) out[key] = v;
    else delete out[key];
  }
  ctx.depth--;
  return out;
}

function dupField(p: string, key: Node | null, ctx: DecodeCtx): FieldErr {
  const e: FieldErr = { type: 'YAML syntax', field: p, detail: `duplicate field ${JSON.stringify(p)}`, severity: 'error', at: 'key' };
  const r = rangeOf(key, ctx);
  if (r) e.range = r;
  return e;
}

function zeroOf(ref: string): unknown {
  switch (ref) {
    case 'string':
    case 'bytes':
    case 'Time':
      return '';
    case 'int32':
    case 'int64':
      return 0;
    case 'bool':
      return false;
    case 'Quantity':
      return '0';
    case 'IntOrString':
      return 0;
    case 'any':
      return null;
  }
  if (ref.startsWith('[]')) return [];
  return {};
}

export { F };
