// Editor assistance over the same schema and validator, in Pod, ConfigMap and Secret documents: hover
// docs for any key (type, required, default, allowed values, a lab note — for the fields Pod Lab cannot
// honour, the lab warning's text — the description from kubernetes-types and a reference link),
// completion of the keys valid at the cursor and of enum values, and quick fixes for the common mistakes.
import { pathAt, rootType } from './paths.js';
import { refAtPath, typeSpec, type LabKind } from './schema.js';
import { DEFAULTS, ENUMS, LAB_NOTES, SUGGESTED } from './assist-data.js';
import type { Problem } from './documents.js';
import { enumValueFixes, quantityFixes, typeMismatchFixes, unknownFieldFixes, type QuickFix, type ReferenceProblem } from './quickfixes.js';

export { DEFAULTS, ENUMS, LAB_NOTES, SUGGESTED };

export interface Hover {
  markdown: string;
  offset: number;
  endOffset: number;
  path: (string | number)[];
  document: number;
}

export interface Completion {
  label: string;
  kind: 'field' | 'value';
  detail?: string;
  documentation?: string;
  insertText: string;
  /** insertText is a snippet (${1:placeholder} syntax). */
  snippet?: boolean;
  /** Range to replace; the word at the cursor when absent. */
  offset?: number;
  endOffset?: number;
}

export type { QuickFix };

const API_REF = 'https://kubernetes.io/docs/reference/kubernetes-api/';
const REF_PAGES: Record<string, string> = {
  Pod: 'workload-resources/pod-v1/',
  ConfigMap: 'config-and-storage-resources/config-map-v1/',
  Secret: 'config-and-storage-resources/secret-v1/',
  PodSpec: 'workload-resources/pod-v1/#PodSpec',
  Container: 'workload-resources/pod-v1/#Container',
  ObjectMeta: 'common-definitions/object-meta/#ObjectMeta',
  Volume: 'config-and-storage-resources/volume/#Volume',
  Probe: 'workload-resources/pod-v1/#Probe',
};

const strip = (ref: string | undefined) => ref?.replace(/^(\[\]|\{\})+/, '');

function ownerAndField(path: (string | number)[], root: LabKind): { owner?: string; field?: string } {
  const keys = path.slice();
  while (typeof keys[keys.length - 1] === 'number') keys.pop();
  const field = keys[keys.length - 1];
  if (typeof field !== 'string') return {};
  return { owner: strip(refAtPath(keys.slice(0, -1), root)), field };
}

function typeLabel(ref: string): string {
  if (ref.startsWith('[]')) return `${typeLabel(ref.slice(2))}[]`;
  if (ref.startsWith('{}')) return `map[string]${typeLabel(ref.slice(2))}`;
  return ref;
}

const quoteEnum = (v: string) => (v === '' ? '`""`' : `\`${v}\``);

export function hoverAt(text: string, offset: number): Hover | undefined {
  const at = pathAt(text, offset);
  if (!at || !at.onKey) return undefined;
  const root = rootType(at.kind);
  if (!root) return undefined;
  const { owner, field } = ownerAndField(at.path, root);
  if (!owner || !field) return undefined;
  const spec = typeSpec(owner)?.fields.get(field);
  if (!spec) return undefined;
  const key = `${owner}.${field}`;
  const lines = [`**${field}** \`${typeLabel(spec.type)}\` — ${spec.required ? 'required' : 'optional'}`, ''];
  if (DEFAULTS[key]) lines.push(`Default: ${DEFAULTS[key]}`, '');
  if (ENUMS[key]) lines.push(`Allowed values: ${ENUMS[key]!.map(quoteEnum).join(', ')}`, '');
  if (SUGGESTED[key]) lines.push(`Common values: ${SUGGESTED[key]!.map(quoteEnum).join(', ')}`, '');
  if (LAB_NOTES[key]) lines.push(`*Pod Lab:* ${LAB_NOTES[key]}`, '');
  if (spec.doc) lines.push(spec.doc, '');
  const page = REF_PAGES[owner] ?? REF_PAGES[root];
  lines.push(`[${owner} API reference](${API_REF}${page})`);
  return { markdown: lines.join('\n'), offset: at.offset, endOffset: at.endOffset, path: at.path, document: at.document };
}

interface LineInfo {
  /** column where the line's key starts (after indentation and any `- `) */
  keyCol: number;
  key?: string;
  dash: boolean;
}

function lineInfo(text: string, start: number): LineInfo | undefined {
  const end = text.indexOf('\n', start);
  const line = text.slice(start, end < 0 ? text.length : end);
  if (/^\s*(#|---|$)/.test(line)) return undefined;
  const m = /^(\s*)((?:-\s+)*)([^\s#:][^:#]*?)?\s*(:(?=\s|$)|$)/.exec(line);
  if (!m) return { keyCol: line.length - line.trimStart().length, dash: false };
  return { keyCol: m[1]!.length + m[2]!.length, key: m[4] ? m[3] : undefined, dash: m[2]!.length > 0 };
}

/** The object the cursor is in, from the indentation of the lines around it: its path and the keys it already has. */
function objectAt(text: string, offset: number, root: LabKind): { path: (string | number)[]; present: Set<string> } | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const m = /^(\s*)((?:-\s+)*)[\w.-]*$/.exec(text.slice(lineStart, offset));
  if (!m) return undefined;
  const indent = m[1]!.length + m[2]!.length;
  const ownDash = m[2]!.length > 0;
  const present = new Set<string>();
  let sibling: number | undefined;
  let parent: number | undefined;
  // upwards: the key that opens this object and, unless the cursor starts a new list item, the
  // siblings up to the start of this list item
  for (let s = lineStart; s > 0; ) {
    s = text.lastIndexOf('\n', s - 2) + 1;
    const li = lineInfo(text, s);
    if (li && li.keyCol < indent) {
      if (li.key !== undefined) parent = s + li.keyCol;
      break;
    }
    if (!ownDash && li && li.keyCol === indent && li.key !== undefined) {
      present.add(li.key);
      sibling ??= s + li.keyCol;
      if (li.dash) break;
    }
  }
  // downwards: the rest of this object
  for (let s = text.indexOf('\n', offset) + 1; s > 0 && s < text.length; s = text.indexOf('\n', s) + 1) {
    const li = lineInfo(text, s);
    if (!li) continue;
    if (li.keyCol < indent || (li.keyCol === indent && li.dash)) break;
    if (li.keyCol === indent && li.key !== undefined) {
      present.add(li.key);
      sibling ??= s + li.keyCol;
    }
  }
  if (sibling !== undefined) {
    const hit = pathAt(text, sibling);
    return hit ? { path: hit.path.slice(0, -1), present } : undefined;
  }
  if (parent !== undefined) {
    const hit = pathAt(text, parent);
    if (!hit) return undefined;
    // the key above opens the object (or the list of objects) the cursor is in
    return { path: refAtPath(hit.path, root)?.startsWith('[]') ? [...hit.path, 0] : hit.path, present };
  }
  return indent === 0 ? { path: [], present } : undefined;
}

/** Keys valid in the object at the cursor (not already present) and, on a value, the allowed values. */
export function completionsAt(text: string, offset: number): Completion[] {
  const at = pathAt(text, offset);
  const root = rootType(at ? at.kind : documentKindAt(text, offset));
  if (!root) return [];
  // on a value (even an empty one after `key: `), but not on an empty list item where a key is typed
  if (at && !at.onKey && (at.endOffset > at.offset || typeof at.path[at.path.length - 1] === 'string')) {
    const { owner, field } = ownerAndField(at.path, root);
    const key = `${owner}.${field}`;
    const values = owner && field ? (ENUMS[key] ?? SUGGESTED[key]) : undefined;
    return (values ?? []).map((v) => ({ label: v === '' ? '""' : v, kind: 'value' as const, insertText: v === '' ? '""' : v, offset: at.offset, endOffset: at.endOffset }));
  }
  const ctx = objectAt(text, offset, root);
  const path = ctx?.path ?? (at ? at.path.slice(0, -1) : []);
  const ref = strip(refAtPath(path, root));
  const t = typeSpec(ref ?? root);
  if (!t) return [];
  const present = ctx?.present ?? new Set<string>();
  return [...t.fields.entries()]
    .filter(([k]) => !present.has(k) && !(t.name === 'Pod' && k === 'status'))
    .map(([k, f]) => {
      const key = `${t.name}.${k}`;
      const c: Completion = { label: k, kind: 'field', detail: `${typeLabel(f.type)}${f.required ? ' (required)' : ''}`, insertText: `${k}: ` };
      const doc = [DEFAULTS[key] ? `Default: ${DEFAULTS[key]}` : '', f.doc ?? ''].filter(Boolean).join('\n\n');
      if (doc) c.documentation = doc;
      return c;
    });
}

const LABEL_RE = /[^a-z0-9-]/g;
const unquote = (v: string) => (/^["'].*["']$/.test(v) ? v.slice(1, -1) : v);

/**
 * The quick fixes of a problem: those a reference finding (quickfixes.ts referenceFindings) carries,
 * else the ones computed from the problem's type, field and the text.
 */
export function quickFixesFor(text: string, problem: Problem | ReferenceProblem): QuickFix[] {
  if ('fixes' in problem) return problem.fixes;
  const value = text.slice(problem.offset, problem.endOffset);
  const fixes: QuickFix[] = [];
  const replace = (title: string, newText: string, preferred = false): QuickFix => ({ title, ...(preferred ? { isPreferred: true } : {}), edits: [{ offset: problem.offset, endOffset: problem.endOffset, newText }] });
  if (problem.type === 'Invalid value' && /\.name$/.test(problem.field) && /RFC 1123|must not contain dots|no more than 63/.test(problem.detail)) {
    const quoted = /^["']/.test(value);
    const raw = unquote(value);
    const fixed = raw.toLowerCase().replace(LABEL_RE, '-').replace(/-+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '') || 'name';
    if (fixed !== raw) fixes.push(replace(`Change the name to "${fixed}"`, quoted ? `"${fixed}"` : fixed, true));
  }
  // near misses, decode-time type errors and quantities (quickfixes.ts)
  fixes.push(...enumValueFixes(text, problem), ...unknownFieldFixes(text, problem), ...typeMismatchFixes(text, problem), ...quantityFixes(text, problem));
  if (problem.type === 'Duplicate value' && /\.name$/.test(problem.field)) {
    const raw = unquote(value);
    let n = 2;
    while (new RegExp(`name:\\s*["']?${raw.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-${n}["']?\\s*$`, 'm').test(text)) n++;
    fixes.push(replace(`Rename to "${raw}-${n}"`, `${raw}-${n}`, true));
  }
  if (problem.type === 'Required value' && /\.image$/.test(problem.field)) {
    const lineStart = text.lastIndexOf('\n', problem.offset - 1) + 1;
    const indent = ' '.repeat(problem.offset - lineStart);
    const lineEnd = text.indexOf('\n', problem.offset);
    const at = lineEnd < 0 ? text.length : lineEnd;
    fixes.push({ title: 'Add image: busybox:1.35', isPreferred: true, edits: [{ offset: at, endOffset: at, newText: `\n${indent}image: busybox:1.35` }] });
  }
  const over = /^"([^"]*)": must be (less than or equal to|equal to) (\S+) limit of (\S+)$/.exec(problem.detail);
  if (problem.type === 'Invalid value' && /\.resources\.requests$/.test(problem.field) && over) {
    const [, request, , resource, limit] = over;
    fixes.push(replace(`Lower the ${resource} request to the limit (${limit})`, /^\d+$/.test(limit!) ? `"${limit}"` : limit!, true));
    const lim = findLimit(text, problem.offset, resource!);
    if (lim) fixes.push({ title: `Raise the ${resource} limit to the request (${request})`, edits: [{ offset: lim[0], endOffset: lim[1], newText: /^\d+$/.test(request!) ? `"${request}"` : request! }] });
  }
  return fixes;
}

/**
 * The `kind` of the document around `offset` when the cursor is not on a node (a blank line being
 * typed): the first `kind:` line between the document's `---` markers.
 */
function documentKindAt(text: string, offset: number): string | undefined {
  const before = text.lastIndexOf('\n---', offset - 1);
  const start = before < 0 ? (text.startsWith('---') ? 3 : 0) : before + 4;
  const after = text.indexOf('\n---', offset);
  const doc = text.slice(start, after < 0 ? text.length : after);
  const m = /^kind:[ \t]*["']?([^"'#\s]+)/m.exec(doc);
  return m ? m[1] : undefined;
}

/** The `<resource>: <value>` under the `limits:` next to the request at `offset` (same resources block). */
function findLimit(text: string, offset: number, resource: string): [number, number] | undefined {
  const at = pathAt(text, offset);
  if (!at) return undefined;
  const i = at.path.lastIndexOf('requests');
  if (i < 0) return undefined;
  const block = text.slice(0, offset).lastIndexOf('resources:');
  if (block < 0) return undefined;
  const re = new RegExp(`^\\s*${resource.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\s*(\\S+)`, 'gm');
  const limits = text.indexOf('limits:', block);
  if (limits < 0) return undefined;
  re.lastIndex = limits;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index + m[0].length - m[1]!.length;
    const hit = pathAt(text, start);
    if (hit && hit.path.slice(0, i).join('/') === at.path.slice(0, i).join('/') && hit.path[i] === 'limits') return [start, start + m[1]!.length];
    if (hit && hit.path.slice(0, i).join('/') !== at.path.slice(0, i).join('/')) return undefined;
  }
  return undefined;
}
