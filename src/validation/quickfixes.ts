// Editor help for the mistakes learners make (issue 9 §3), pure and without `vscode`: near-miss
// field names and enum values (edit distance), quoted numbers and unquoted strings where the API
// server's decoder wants the other, quantity suffix mistakes (`64MB`), references to ConfigMaps,
// Secrets or keys that no document of the workspace (nor the lab) defines, and where the Run Pod
// CodeLens of a document goes. No upstream counterpart: the texts it explains are the API
// server's decode errors (sigs.k8s.io/json, apimachinery pkg/api/resource/quantity.go) and the
// kubelet's (pkg/kubelet/kubelet_pods.go makeEnvironmentVariables, pkg/volume/{configmap,secret,
// projected}, operation_generator.go's FailedMount), as the lab's engine reproduces them.
import { isMap, isScalar, isSeq, parseAllDocuments, parseDocument, type Document, type Node, type Pair } from 'yaml';
import type { ConfigMap, Container, Pod, Secret, Volume } from 'kubernetes-types/core/v1';
import { keyString } from './decode.js';
import { parseImageTag } from './defaults.js';
import { Lines, PARSE_OPTIONS, splitChunks, splitField, walk, type Problem, type ValidatedDocument } from './documents.js';
import { pathAt, rootType } from './paths.js';
import { parseQuantity, QUANTITY_FORMAT_ERR, QUANTITY_NUMERIC_ERR, QUANTITY_SUFFIX_ERR } from './quantity.js';
import { refAtPath, typeSpec } from './schema.js';

export interface QuickFix {
  title: string;
  isPreferred?: boolean;
  edits: { offset: number; endOffset: number; newText: string }[];
  /**
   * A fix that edits another file (`edits` is empty): adds `key` to the object there, computed on
   * that file's text when the fix is applied (addKeyEditIn), as the file may have changed since.
   */
  inFile?: { file: string; kind: ConfigKind; namespace: string; name: string; key: string };
}

const unquote = (v: string) => (/^(["']).*\1$/s.test(v) ? v.slice(1, -1) : v);
const quoteOf = (v: string) => (/^(["']).*\1$/s.test(v) ? v[0]! : '');

// ---- edit distance: near.ts (a leaf module) ----

export { editDistance, nearMissLimit, nearest, type Near } from './near.js';
import { nearMissLimit, nearest } from './near.js';

// ---- near-miss field names and enum values ----

/** The keys of the YAML mapping whose key range holds `offset` (the siblings of an unknown field). */
function siblingKeys(text: string, offset: number): string[] {
  for (const chunk of splitChunks(text)) {
    if (offset < chunk.start || offset > chunk.end) continue;
    const docs = parseAllDocuments(text.slice(chunk.start, chunk.end), PARSE_OPTIONS);
    for (const d of Array.isArray(docs) ? docs : []) {
      const found = mapWithKeyAt(d.contents as Node | null, offset - chunk.start, 0);
      if (found) return found.items.map((p) => keyString(p.key));
    }
  }
  return [];
}

function mapWithKeyAt(node: Node | null, at: number, depth: number): { items: Pair[] } | undefined {
  if (!node || depth > 100) return undefined;
  if (isMap(node)) {
    for (const p of node.items) {
      const r = (p.key as Node | null)?.range;
      if (r && at >= r[0] && at <= r[1]) return node;
    }
    for (const p of node.items) {
      const hit = mapWithKeyAt(p.value as Node | null, at, depth + 1);
      if (hit) return hit;
    }
  } else if (isSeq(node)) {
    for (const it of node.items) {
      const hit = mapWithKeyAt(it as Node | null, at, depth + 1);
      if (hit) return hit;
    }
  }
  return undefined;
}

/**
 * `unknown field "spec.containers[0].comand"`: the allowed fields of that object nearest to the
 * unknown name (not those already present), nearest first, the nearest preferred.
 */
export function unknownFieldFixes(text: string, problem: Problem): QuickFix[] {
  if (problem.type !== 'Unknown field') return [];
  const at = pathAt(text, problem.offset);
  const root = rootType(at?.kind);
  if (!at || !at.onKey || !root) return [];
  const word = at.path[at.path.length - 1];
  if (typeof word !== 'string') return [];
  const owner = refAtPath(at.path.slice(0, -1), root);
  const t = owner ? typeSpec(owner) : undefined;
  if (!t) return [];
  const present = new Set(siblingKeys(text, problem.offset));
  const allowed = [...t.fields.keys()].filter((k) => !present.has(k) && !(t.name === 'Pod' && k === 'status'));
  return nearest(word, allowed).map((n, i) => ({
    title: `Change the field name to "${n.name}"`,
    ...(i === 0 ? { isPreferred: true } : {}),
    edits: [{ offset: at.offset, endOffset: at.endOffset, newText: n.name }],
  }));
}

/**
 * `Unsupported value: "IfNotPresnt": supported values: ...`: every supported value, the near misses
 * first, nearest first (the same word in another case first), the nearest preferred; then the
 * others in the API server's order.
 */
export function enumValueFixes(text: string, problem: Problem): QuickFix[] {
  if (problem.type !== 'Unsupported value') return [];
  const m = /supported values: (.*)$/.exec(problem.detail);
  const values = m ? [...m[1]!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((x) => x[1]!) : [];
  if (!values.length) return [];
  const raw = unquote(text.slice(problem.offset, problem.endOffset));
  const near = nearest(raw, values, nearMissLimit(raw), values.length).map((n) => n.name);
  const ordered = [...near, ...values.filter((v) => !near.includes(v))];
  return ordered.map((v, i) => ({
    title: `Use "${v}"`,
    ...(i === 0 && near.length ? { isPreferred: true } : {}),
    edits: [{ offset: problem.offset, endOffset: problem.endOffset, newText: v === '' ? '""' : v }],
  }));
}

// ---- decode-time type errors ----

const TYPE_ERR = /^json: cannot unmarshal (\w+) into Go struct field \S+ of type (\S+)$/;
const INT_TYPES = /^u?int(8|16|32|64)?$/;

/**
 * A decode-time type mismatch with the value the learner meant: `containerPort: "8080"` → 8080,
 * `hostNetwork: "true"` → true, and the other way round a number or boolean where a string is
 * wanted (`value: 8080`, a label `version: 1.10`) quoted as written.
 */
export function typeMismatchFixes(text: string, problem: Problem): QuickFix[] {
  if (problem.type !== 'Type mismatch') return [];
  const m = TYPE_ERR.exec(problem.detail);
  if (!m) return [];
  const [, jsonKind, goType] = m;
  const written = text.slice(problem.offset, problem.endOffset);
  if (written.includes('\n')) return [];
  const replace = (title: string, newText: string): QuickFix[] => [{ title, isPreferred: true, edits: [{ offset: problem.offset, endOffset: problem.endOffset, newText }] }];
  const inner = unquote(written).trim();
  if (jsonKind === 'string' && INT_TYPES.test(goType!) && /^[+-]?\d+$/.test(inner)) {
    const n = inner.replace(/^\+/, '').replace(/^(-?)0+(?=\d)/, '$1');
    return replace(`Use the number ${n} (without quotes)`, n);
  }
  if (jsonKind === 'string' && /^float(32|64)$/.test(goType!) && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(inner)) {
    return replace(`Use the number ${inner} (without quotes)`, inner);
  }
  if (jsonKind === 'string' && goType === 'bool' && /^(true|false)$/i.test(inner)) {
    const b = inner.toLowerCase();
    return replace(`Use the boolean ${b} (without quotes)`, b);
  }
  if ((jsonKind === 'number' || jsonKind === 'bool') && goType === 'string' && !quoteOf(written) && written.trim() !== '') {
    const q = JSON.stringify(written.trim());
    return replace(`Quote the value: ${q}`, q);
  }
  return [];
}

// ---- quantities ----

const QUANTITY_ERRS = new Set([QUANTITY_FORMAT_ERR, QUANTITY_SUFFIX_ERR, QUANTITY_NUMERIC_ERR]);
const DECIMAL: Record<string, string> = { k: 'k', m: 'M', g: 'G', t: 'T', p: 'P', e: 'E' };
const BINARY: Record<string, string> = { k: 'Ki', m: 'Mi', g: 'Gi', t: 'Ti', p: 'Pi', e: 'Ei' };

type Unit = 'bytes' | 'cpu' | 'plain';

/** What a quantity at this field counts: bytes (memory, storage, hugepages, sizeLimit), CPUs, or a plain number. */
function unitOf(field: string): Unit {
  const key = /\[([^\]]+)\]$/.exec(field)?.[1] ?? field.slice(field.lastIndexOf('.') + 1);
  if (key === 'cpu') return 'cpu';
  if (key === 'memory' || key === 'storage' || key === 'ephemeral-storage' || key.startsWith('hugepages-') || key === 'sizeLimit') return 'bytes';
  return 'plain';
}

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** A quantity's value in plain numbers (`67,108,864`, `0.5`), exact. */
export function quantityValue(q: string): string | undefined {
  const p = parseQuantity(q);
  if (typeof p === 'string') return undefined;
  const neg = p.nano < 0n;
  const abs = neg ? -p.nano : p.nano;
  const int = abs / 1_000_000_000n;
  const frac = (abs % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${group(int.toString())}${frac ? `.${frac}` : ''}`;
}

function describeQuantity(q: string, unit: Unit): string {
  const v = quantityValue(q) ?? q;
  if (unit === 'bytes') return `${v} ${v === '1' ? 'byte' : 'bytes'}`;
  if (unit === 'cpu') return `${v} CPU`;
  return v;
}

interface QuantityGuess {
  /** the valid quantities the learner may have meant, the likelier first */
  candidates: string[];
  /** the suffix as written */
  suffix: string;
  number: string;
}

/** The valid quantities a mistyped one stands for: `64MB` → 64M, 64Mi; `128mi` → 128Mi, 128M; `512MiB` and `512 Mi` → 512Mi; `500mc` (cpu) → 500m. */
function guessQuantity(raw: string, unit: Unit): QuantityGuess | undefined {
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))\s*([A-Za-z]*)$/.exec(raw.trim());
  if (!m) return undefined;
  const [, number, suffix] = m as unknown as [string, string, string];
  const out: string[] = [];
  const lower = suffix.toLowerCase();
  if (unit === 'cpu' && /^(m|mc|milli|millis|millicores?|millicpus?)$/.test(lower)) out.push(`${number}m`);
  else if (unit === 'cpu' && /^(cores?|cpus?|vcpus?)$/.test(lower)) out.push(number);
  else if (unit !== 'cpu') {
    const base = suffix.replace(/(bytes?|B|b)$/, '');
    const l = base.toLowerCase();
    if (l === '') out.push(number);
    else if (/^[KMGTPE]i$/.test(base)) out.push(`${number}${base}`);
    else if (DECIMAL[l]) out.push(`${number}${DECIMAL[l]}`, `${number}${BINARY[l]}`);
    else if (/^[kmgtpe]i$/.test(l)) out.push(`${number}${BINARY[l[0]!]}`, `${number}${DECIMAL[l[0]!]}`);
  }
  const candidates = [...new Set(out)].filter((c) => c !== raw && typeof parseQuantity(c) !== 'string');
  return candidates.length ? { candidates, suffix, number } : undefined;
}

const isQuantityProblem = (p: Problem) => p.type === 'Type mismatch' && QUANTITY_ERRS.has(p.detail);

// the API server's warning for a byte count that is no whole number (pkg/api/pod/warnings.go), often `memory: 64m`
const FRACTIONAL_BYTES = /^fractional byte value "([^"]*)" is invalid, must be an integer$/;

/**
 * The fractional byte value a warning is about, when the warning's range holds it as written (a
 * requests value defaulted from limits points at `resources:`, whose value is not the quantity).
 */
function fractionalBytesAt(text: string, problem: Problem): string | undefined {
  if (problem.type !== 'Invalid value') return undefined;
  const m = FRACTIONAL_BYTES.exec(problem.detail);
  if (!m) return undefined;
  const written = unquote(text.slice(problem.offset, problem.endOffset)).trim();
  const a = parseQuantity(written);
  const b = parseQuantity(m[1]!);
  return typeof a !== 'string' && typeof b !== 'string' && a.nano === b.nano ? written : undefined;
}

/**
 * An invalid quantity (`memory: 64MB`), or a byte count with a fraction (`memory: 64m`, 0.064
 * bytes): the quantities it most likely means, with their values in the titles.
 */
export function quantityFixes(text: string, problem: Problem): QuickFix[] {
  if (!isQuantityProblem(problem) && fractionalBytesAt(text, problem) === undefined) return [];
  const written = text.slice(problem.offset, problem.endOffset);
  const unit = unitOf(problem.field);
  const g = guessQuantity(unquote(written), unit);
  if (!g) return [];
  const q = quoteOf(written);
  return g.candidates.map((c, i) => ({
    title: `Use ${c} (${describeQuantity(c, unit)})`,
    ...(i === 0 ? { isPreferred: true } : {}),
    edits: [{ offset: problem.offset, endOffset: problem.endOffset, newText: q ? `${q}${c}${q}` : c }],
  }));
}

/** The quantity syntax, for the diagnostic of an invalid quantity (the API server's message stays as it is). */
export const QUANTITY_SYNTAX =
  'A quantity is a number with an optional suffix: decimal k, M, G, T, P, E (powers of 1000; m is a thousandth) or binary Ki, Mi, Gi, Ti, Pi, Ei (powers of 1024). There is no B for bytes, and case matters (k is 1000, K is not a suffix).';

/**
 * More words for a problem whose upstream message is terse: for an invalid quantity or a fractional
 * byte count, the quantity syntax and what the value probably meant.
 */
export function explanationFor(text: string, problem: Problem | ReferenceProblem): string | undefined {
  if ('fixes' in problem) return undefined;
  const fraction = fractionalBytesAt(text, problem);
  if (fraction !== undefined) {
    const g = guessQuantity(fraction, 'bytes');
    const milli = /m$/.test(fraction) ? ' (m is a thousandth, as in cpu: 500m, not mega)' : '';
    const meant = g ? ` ${g.candidates.map((c) => `${c} is ${describeQuantity(c, 'bytes')}`).join(', ')}.` : '';
    return `${QUANTITY_SYNTAX} ${fraction} is ${describeQuantity(fraction, 'bytes')}${milli}, and a byte count must be a whole number.${meant}`;
  }
  if (!isQuantityProblem(problem)) return undefined;
  const written = unquote(text.slice(problem.offset, problem.endOffset));
  const unit = unitOf(problem.field);
  const g = guessQuantity(written, unit);
  const sfx = g && g.suffix !== '' && !/^[kMGTPE]i?$/.test(g.suffix) ? ` "${g.suffix}" is not a suffix.` : '';
  const meant = g ? ` ${g.candidates.map((c) => `${c} is ${describeQuantity(c, unit)}`).join(', ')}.` : '';
  return `${QUANTITY_SYNTAX}${sfx}${meant}`;
}

// ---- ConfigMaps and Secrets the pods reference ----

export type ConfigKind = 'ConfigMap' | 'Secret';

/** A ConfigMap or Secret some document defines (this file, another workspace file) or the lab holds. */
export interface KnownObject {
  kind: ConfigKind;
  namespace: string;
  name: string;
  /** Keys an env reference can read (a ConfigMap's data; a Secret's data and stringData); absent: unknown (not decoded). */
  envKeys?: string[];
  /** Keys a volume item can project (a ConfigMap's data and binaryData; a Secret's data and stringData); absent: unknown. */
  volumeKeys?: string[];
  origin: 'file' | 'workspace' | 'lab';
  /** where it is defined, for the message (a workspace file's path) */
  where?: string;
  /** the workspace file's URI, for a fix that edits it */
  file?: string;
}

const keysOf = (...maps: unknown[]) => maps.flatMap((m) => (m && typeof m === 'object' && !Array.isArray(m) ? Object.keys(m) : []));

/** A decoded ConfigMap or Secret as a KnownObject. */
export function knownObject(obj: ConfigMap | Secret, origin: KnownObject['origin'], where?: string): KnownObject | undefined {
  const kind = (obj as { kind?: unknown }).kind;
  const name = obj.metadata?.name;
  if ((kind !== 'ConfigMap' && kind !== 'Secret') || typeof name !== 'string' || !name) return undefined;
  const ns = typeof obj.metadata?.namespace === 'string' && obj.metadata.namespace ? obj.metadata.namespace : 'default';
  const o = obj as ConfigMap & Secret;
  const envKeys = kind === 'ConfigMap' ? keysOf(o.data) : keysOf(o.data, o.stringData);
  const volumeKeys = kind === 'ConfigMap' ? keysOf(o.data, o.binaryData) : envKeys;
  return { kind, namespace: ns, name, envKeys: [...new Set(envKeys)], volumeKeys: [...new Set(volumeKeys)], origin, ...(where !== undefined ? { where } : {}) };
}

const CONFIG_KIND_LINE = /^kind:[ \t]*["']?(ConfigMap|Secret)["']?[ \t]*(#.*)?$/m;

/** The ConfigMaps and Secrets a YAML text defines (another workspace file); cheap when it has none. */
export function configObjectsIn(text: string, origin: KnownObject['origin'] = 'workspace', where?: string): KnownObject[] {
  if (!CONFIG_KIND_LINE.test(text)) return [];
  const out: KnownObject[] = [];
  let docs: Document.Parsed[];
  try {
    const parsed = parseAllDocuments(text, PARSE_OPTIONS);
    docs = Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
  for (const d of docs) {
    let js: unknown;
    try {
      js = d.toJS();
    } catch {
      continue;
    }
    if (!js || typeof js !== 'object' || (js as { apiVersion?: unknown }).apiVersion !== 'v1') continue;
    const k = knownObject(js as ConfigMap, origin, where);
    if (k) out.push(k);
  }
  return out;
}

/** A reference finding: a Pod Lab warning (not the API server's) with the fixes that create what is missing. */
export interface ReferenceProblem extends Omit<Problem, 'severity'> {
  /** 'info': an editor hint (type `Lab hint`, imageFindings), never the validator's */
  severity: Problem['severity'] | 'info';
  fixes: QuickFix[];
}

interface Ref {
  kind: ConfigKind;
  name: string;
  key?: string;
  /** env: CreateContainerConfigError; volume: FailedMount */
  use: { env: string } | { volume: string };
  /** the field to point at: the key's field for a key, the name's for the object */
  nameField: string;
  keyField?: string;
}

function podRefs(pod: Pod): Ref[] {
  const out: Ref[] = [];
  const spec = pod.spec;
  if (!spec) return out;
  const lists: [string, Container[] | undefined][] = [
    ['initContainers', spec.initContainers],
    ['containers', spec.containers],
  ];
  for (const [list, cs] of lists) {
    (cs ?? []).forEach((c, ci) => {
      const cp = `spec.${list}[${ci}]`;
      (c.envFrom ?? []).forEach((f, i) => {
        const p = `${cp}.envFrom[${i}]`;
        if (f.configMapRef && !f.configMapRef.optional && f.configMapRef.name) out.push({ kind: 'ConfigMap', name: f.configMapRef.name, use: { env: c.name }, nameField: `${p}.configMapRef.name` });
        if (f.secretRef && !f.secretRef.optional && f.secretRef.name) out.push({ kind: 'Secret', name: f.secretRef.name, use: { env: c.name }, nameField: `${p}.secretRef.name` });
      });
      (c.env ?? []).forEach((e, i) => {
        const p = `${cp}.env[${i}].valueFrom`;
        const cm = e.valueFrom?.configMapKeyRef;
        const s = e.valueFrom?.secretKeyRef;
        if (cm && !cm.optional && cm.name) out.push({ kind: 'ConfigMap', name: cm.name, key: cm.key, use: { env: c.name }, nameField: `${p}.configMapKeyRef.name`, keyField: `${p}.configMapKeyRef.key` });
        if (s && !s.optional && s.name) out.push({ kind: 'Secret', name: s.name, key: s.key, use: { env: c.name }, nameField: `${p}.secretKeyRef.name`, keyField: `${p}.secretKeyRef.key` });
      });
    });
  }
  (spec.volumes ?? []).forEach((v: Volume, vi) => {
    const p = `spec.volumes[${vi}]`;
    const add = (kind: ConfigKind, name: string | undefined, optional: boolean | undefined, items: { key: string }[] | undefined, base: string, nameKey: string) => {
      if (optional || !name) return;
      out.push({ kind, name, use: { volume: v.name }, nameField: `${base}.${nameKey}` });
      (items ?? []).forEach((it, ii) => {
        if (it.key) out.push({ kind, name, key: it.key, use: { volume: v.name }, nameField: `${base}.${nameKey}`, keyField: `${base}.items[${ii}].key` });
      });
    };
    if (v.configMap) add('ConfigMap', v.configMap.name, v.configMap.optional, v.configMap.items, `${p}.configMap`, 'name');
    if (v.secret) add('Secret', v.secret.secretName, v.secret.optional, v.secret.items, `${p}.secret`, 'secretName');
    (v.projected?.sources ?? []).forEach((s, si) => {
      const sp = `${p}.projected.sources[${si}]`;
      if (s.configMap) add('ConfigMap', s.configMap.name, s.configMap.optional, s.configMap.items, `${sp}.configMap`, 'name');
      if (s.secret) add('Secret', s.secret.name, s.secret.optional, s.secret.items, `${sp}.secret`, 'name');
    });
  });
  return out;
}

const lowerKind = (k: ConfigKind) => (k === 'ConfigMap' ? 'configmap' : 'secret');

/** The kubelet's error for a missing object or key, as the lab's engine reproduces it (env.ts, volumes/payload.ts). */
export function kubeletReferenceError(kind: ConfigKind, namespace: string, name: string, key: string | undefined, use: 'env' | 'volume'): string {
  if (key === undefined) return `${lowerKind(kind)} "${name}" not found`;
  if (use === 'env') return `couldn't find key ${key} in ${kind} ${namespace}/${name}`;
  return kind === 'ConfigMap' ? `configmap references non-existent config key: ${key}` : `references non-existent secret key: ${key}`;
}

const WORKSPACE_CHECK = 'Pod Lab workspace check (the API server does not look)';

function consequence(r: Ref, err: string): string {
  if ('env' in r.use) return `the API server accepts the pod, then the kubelet leaves container "${r.use.env}" Waiting with reason CreateContainerConfigError: ${err}`;
  return `the API server accepts the pod, then the kubelet cannot mount volume "${r.use.volume}" (Warning FailedMount: MountVolume.SetUp failed for volume "${r.use.volume}" : ${err}) and the pod stays Pending, its containers in ContainerCreating`;
}

const whereText = (o: KnownObject) => (o.origin === 'file' ? 'this file' : o.origin === 'lab' ? 'the lab' : o.where ? o.where : 'the workspace');

const YAML11_SPECIAL = /^(y|yes|n|no|true|false|on|off|null|~|=|<<)$/i;
/** A map key or plain value as YAML 1.1 reads it back as the same string. */
export function yamlString(s: string): string {
  return /^[A-Za-z_/][A-Za-z0-9._/-]*$/.test(s) && !YAML11_SPECIAL.test(s) ? s : JSON.stringify(s);
}

/** Parsed documents of the file, lazily, by ValidatedDocument index. */
class FileView {
  private lines?: Lines;
  private parsed = new Map<number, Document.Parsed>();
  constructor(
    readonly text: string,
    readonly docs: readonly ValidatedDocument[],
  ) {}
  doc(d: ValidatedDocument): Document.Parsed {
    let p = this.parsed.get(d.index);
    if (!p) {
      p = parseDocument(this.text.slice(d.offset, d.endOffset), PARSE_OPTIONS);
      this.parsed.set(d.index, p);
    }
    return p;
  }
  /** [start, end) of a field's value (or key) in the whole text. */
  range(d: ValidatedDocument, field: string): [number, number] {
    const { found, depth } = walk(this.doc(d), splitField(field));
    const segments = splitField(field).length;
    const node = depth === segments && found.value && isScalar(found.value) ? found.value : found.key;
    const r = (node as Node | null)?.range ?? [0, 0];
    return [d.offset + r[0], d.offset + r[1]];
  }
  /** A field as the document writes it: absent, written empty (no value, null or ""), or written. */
  written(d: ValidatedDocument, field: string): 'absent' | 'empty' | 'set' {
    const segments = splitField(field);
    const { found, depth } = walk(this.doc(d), segments);
    if (depth !== segments.length) return 'absent';
    const v = found.value;
    return !v || (isScalar(v) && (v.value === null || v.value === '')) ? 'empty' : 'set';
  }
  /** Where a range of the text is, as a problem's line/column span. */
  span(start: number, end: number): ReturnType<Lines['span']> {
    this.lines ??= new Lines(this.text);
    return this.lines.span(start, end);
  }
}

function problemAt(view: FileView, d: ValidatedDocument, field: string, detail: string, fixes: QuickFix[]): ReferenceProblem {
  const [s, e] = view.range(d, field);
  return {
    document: d.index,
    ...view.span(s, e),
    severity: 'warning',
    field,
    type: 'Lab warning',
    detail,
    message: `${field}: ${detail}`,
    source: 'podlab',
    fixes,
  };
}

/** An edit appending a ConfigMap or Secret document to the end of the file. */
function appendObject(text: string, kind: ConfigKind, namespace: string | undefined, name: string, keys: string[]): QuickFix['edits'][number] {
  const dataKey = kind === 'ConfigMap' ? 'data' : 'stringData';
  const lines = ['---', 'apiVersion: v1', `kind: ${kind}`, 'metadata:', `  name: ${yamlString(name)}`];
  if (namespace) lines.push(`  namespace: ${yamlString(namespace)}`);
  if (keys.length) lines.push(`${dataKey}:`, ...keys.map((k) => `  ${yamlString(k)}: ""`));
  else lines.push(`${dataKey}: {}`);
  const sep = text.length === 0 || text.endsWith('\n') ? '' : '\n';
  return { offset: text.length, endOffset: text.length, newText: `${sep}${lines.join('\n')}\n` };
}

/**
 * The edit adding `key: ""` to the ConfigMap or Secret `namespace/name` among the documents of
 * another file's text (the fix of a reference in one file that edits the file defining the object).
 */
export function addKeyEditIn(text: string, docs: readonly ValidatedDocument[], kind: ConfigKind, namespace: string, name: string, key: string): QuickFix['edits'][number] | undefined {
  const d = docs.find((x) => x.kind === kind && x.name === name && (x.namespace || 'default') === namespace);
  return d ? addKeyEdit(new FileView(text, docs), d, kind, key) : undefined;
}

/** An edit adding `key: ""` to the data (a Secret: stringData when it has one) of an object of this file. */
function addKeyEdit(view: FileView, d: ValidatedDocument, kind: ConfigKind, key: string): QuickFix['edits'][number] | undefined {
  const doc = view.doc(d);
  const root = doc.contents as Node | null;
  if (!root || !isMap(root)) return undefined;
  const pairOf = (k: string) => root.items.find((p) => keyString(p.key) === k);
  const pair = (kind === 'Secret' ? pairOf('stringData') : undefined) ?? pairOf('data');
  const entry = `${yamlString(key)}: ""`;
  const text = view.text;
  const base = d.offset;
  if (!pair) {
    const at = d.endOffset;
    const sep = text[at - 1] === '\n' || at === 0 ? '' : '\n';
    return { offset: at, endOffset: at, newText: `${sep}${kind === 'Secret' ? 'stringData' : 'data'}:\n  ${entry}\n` };
  }
  const value = pair.value as Node | null;
  const keyNode = pair.key as Node | null;
  if (!value || (isScalar(value) && (value.value === null || value.value === ''))) {
    const kEnd = base + (keyNode?.range?.[1] ?? 0);
    const lineEnd = text.indexOf('\n', kEnd);
    const at = lineEnd < 0 ? text.length : lineEnd;
    return { offset: at, endOffset: at, newText: `\n  ${entry}` };
  }
  if (!isMap(value) || !value.range) return undefined;
  if (value.flow) {
    const close = base + value.range[1] - 1;
    if (text[close] !== '}') return undefined;
    const before = text.slice(base + value.range[0] + 1, close).trim();
    return { offset: close, endOffset: close, newText: `${before ? ', ' : ''}${entry}` };
  }
  const first = value.items[0]?.key as Node | null | undefined;
  const last = value.items[value.items.length - 1];
  if (!first?.range || !last) return undefined;
  const firstStart = base + first.range[0];
  const indent = firstStart - (text.lastIndexOf('\n', firstStart - 1) + 1);
  const lastEnd = base + ((last.value as Node | null)?.range?.[1] ?? (last.key as Node | null)?.range?.[1] ?? value.range[1]);
  if (text[lastEnd - 1] === '\n') return { offset: lastEnd, endOffset: lastEnd, newText: `${' '.repeat(indent)}${entry}\n` };
  const nl = text.indexOf('\n', lastEnd);
  const at = nl < 0 ? text.length : nl;
  return { offset: at, endOffset: at, newText: `\n${' '.repeat(indent)}${entry}` };
}

/**
 * Pod Lab's workspace check: every reference of the file's Pods to a ConfigMap or Secret (env
 * configMapKeyRef/secretKeyRef, envFrom, configMap/secret volumes and projected sources) or to a key
 * of one that no document defines — this file's own ConfigMaps and Secrets first (running the file
 * applies them), else `external` (other workspace files, the lab's objects). Optional references
 * are skipped. Each finding is a warning with the kubelet's error, and a fix that appends the
 * object to this file, or adds the key to this file's object.
 */
export function referenceFindings(text: string, docs: readonly ValidatedDocument[], external: readonly KnownObject[] = []): ReferenceProblem[] {
  const local: { obj: KnownObject; doc: ValidatedDocument }[] = [];
  for (const d of docs) {
    if (d.kind !== 'ConfigMap' && d.kind !== 'Secret') continue;
    const k = d.object ? knownObject(d.object as ConfigMap, 'file') : d.name ? { kind: d.kind as ConfigKind, namespace: d.namespace || 'default', name: d.name, origin: 'file' as const } : undefined;
    if (k) local.push({ obj: k, doc: d });
  }
  const pods = docs.filter((d) => d.kind === 'Pod' && d.pod);
  if (!pods.some((d) => d.pod!.spec)) return [];
  const view = new FileView(text, docs);
  const out: ReferenceProblem[] = [];
  // every key the file's pods want of each missing object, so one fix creates it whole
  const wanted = new Map<string, string[]>();
  const pending: { d: ValidatedDocument; r: Ref; ns: string; nsWritten?: string; known: KnownObject[] }[] = [];
  for (const d of pods) {
    const pod = d.pod!;
    const nsWritten = pod.metadata?.namespace || undefined;
    const ns = nsWritten ?? 'default';
    for (const r of podRefs(pod)) {
      const same = (o: KnownObject) => o.kind === r.kind && o.name === r.name && o.namespace === ns;
      const inFile = local.filter((l) => same(l.obj)).map((l) => l.obj);
      const known = inFile.length ? inFile : external.filter(same);
      pending.push({ d, r, ns, ...(nsWritten && nsWritten !== 'default' ? { nsWritten } : {}), known });
      if (!known.length) {
        const id = `${r.kind}/${ns}/${r.name}`;
        const keys = wanted.get(id) ?? [];
        if (r.key !== undefined && !keys.includes(r.key)) keys.push(r.key);
        wanted.set(id, keys);
      }
    }
  }
  for (const { d, r, ns, nsWritten, known } of pending) {
    const use = 'env' in r.use ? 'env' : 'volume';
    if (!known.length) {
      if (r.key !== undefined && out.some((p) => p.field === r.nameField)) continue;
      const keys = wanted.get(`${r.kind}/${ns}/${r.name}`) ?? [];
      const err = kubeletReferenceError(r.kind, ns, r.name, undefined, use);
      const detail = `${WORKSPACE_CHECK}: no ${r.kind} "${r.name}" in namespace "${ns}" is defined in this file, the other YAML files of the workspace or the lab; ${consequence(r, err)}`;
      const keyList = keys.map((k) => `"${k}"`).join(', ');
      const title = `Create ${r.kind} "${r.name}"${keys.length ? ` with ${keys.length === 1 ? 'key' : 'keys'} ${keyList}` : ''} at the end of this file`;
      out.push(problemAt(view, d, r.nameField, detail, [{ title, isPreferred: true, edits: [appendObject(text, r.kind, nsWritten, r.name, keys)] }]));
      continue;
    }
    if (r.key === undefined || !r.keyField) continue;
    const keysOk = (o: KnownObject) => {
      const ks = use === 'env' ? o.envKeys : o.volumeKeys;
      return ks === undefined || ks.includes(r.key!);
    };
    if (known.some(keysOk)) continue;
    const o = known[0]!;
    const err = kubeletReferenceError(r.kind, ns, r.name, r.key, use);
    // a ConfigMap key in binaryData only: env cannot read it, and data may not repeat it
    const binaryOnly = use === 'env' && r.kind === 'ConfigMap' && o.volumeKeys?.includes(r.key) === true;
    const has = binaryOnly ? ` has key "${r.key}" in binaryData only, which env cannot read` : ` has no key "${r.key}"${use === 'env' && r.kind === 'ConfigMap' ? ' in data' : ''}`;
    const detail = `${WORKSPACE_CHECK}: ${r.kind} "${r.name}" (in ${whereText(o)})${has}; ${consequence(r, err)}`;
    const fixes: QuickFix[] = [];
    const owner = o.origin === 'file' && !binaryOnly ? local.find((l) => l.obj === o)?.doc : undefined;
    const edit = owner ? addKeyEdit(view, owner, r.kind, r.key) : undefined;
    if (edit) fixes.push({ title: `Add key "${r.key}" to ${r.kind} "${r.name}" in this file`, isPreferred: true, edits: [edit] });
    else if (o.origin === 'workspace' && o.file && !binaryOnly) {
      fixes.push({ title: `Add key "${r.key}" to ${r.kind} "${r.name}" in ${o.where ?? 'its file'}`, isPreferred: true, edits: [], inFile: { file: o.file, kind: r.kind, namespace: ns, name: r.name, key: r.key } });
    }
    out.push(problemAt(view, d, r.keyField, detail, fixes));
  }
  return out;
}

// ---- Image hints ----

const IMAGE_HINT = 'Pod Lab hint';

/**
 * Editor hints (information, not warnings) for containers whose image names no tag or the tag
 * `latest` and that leave imagePullPolicy unset: the API server defaults the policy to Always
 * (SetDefaults_Container, by parsers.ParseImageName's tag), so the kubelet pulls before each start
 * and the start fails with ErrImagePull when the registry cannot be reached, the image on the
 * machine notwithstanding. The fix sets imagePullPolicy: IfNotPresent below the image.
 */
export function imageFindings(text: string, docs: readonly ValidatedDocument[]): ReferenceProblem[] {
  const out: ReferenceProblem[] = [];
  let view: FileView | undefined;
  for (const d of docs) {
    const spec = d.kind === 'Pod' ? d.pod?.spec : undefined;
    if (!spec) continue;
    for (const list of ['initContainers', 'containers'] as const) {
      (spec[list] ?? []).forEach((c, i) => {
        const image = c.image;
        const ref = typeof image === 'string' ? parseImageTag(image) : undefined;
        if (!ref || ref.tag !== 'latest') return;
        view ??= new FileView(text, docs);
        const base = `spec.${list}[${i}]`;
        // SetDefaults_Container tests for "": a key written empty is defaulted as an absent one
        const policy = view.written(d, `${base}.imagePullPolicy`);
        if (policy === 'set') return;
        const tagged = ref.written;
        const detail = `${IMAGE_HINT}: ${JSON.stringify(image)} ${tagged ? 'has the tag "latest"' : 'has no tag'}, so the API server sets imagePullPolicy: Always${tagged ? '' : ' (as for the tag "latest")'}: the kubelet pulls the image before every start of the container, and the start fails with ErrImagePull when it cannot be pulled (no registry within reach, or an image built on this machine that no registry has), even with the image on the machine. Pin a tag, or set imagePullPolicy: IfNotPresent`;
        const p = problemAt(view, d, `${base}.image`, detail, []);
        p.severity = 'info';
        p.type = 'Lab hint';
        const fix = policy === 'absent' ? pullPolicyEdit(text, p.offset, p.endOffset) : undefined;
        if (fix) p.fixes.push({ title: 'Set imagePullPolicy: IfNotPresent', edits: [fix] });
        out.push(p);
      });
    }
  }
  return out;
}

/**
 * Inserts `imagePullPolicy: IfNotPresent` on the line after a block-style `image:` key whose
 * one-line value is [valueAt, valueEnd), with the file's line ending (before a `\r\n`'s `\r`).
 * None for a value over several lines (a block scalar) or a flow-style container.
 */
function pullPolicyEdit(text: string, valueAt: number, valueEnd: number): QuickFix['edits'][number] | undefined {
  const lineStart = text.lastIndexOf('\n', valueAt - 1) + 1;
  const m = /^( *(?:- +)?)image *: */.exec(text.slice(lineStart, valueAt));
  if (!m || m[0].length !== valueAt - lineStart) return undefined;
  const lineEnd = text.indexOf('\n', valueAt);
  const at = lineEnd < 0 ? text.length : lineEnd;
  if (valueEnd > at || /[|>]/.test(text[valueAt] ?? '')) return undefined;
  const crlf = lineEnd > 0 && text[lineEnd - 1] === '\r';
  return { offset: crlf ? at - 1 : at, endOffset: crlf ? at - 1 : at, newText: `${crlf ? '\r\n' : '\n'}${' '.repeat(m[1]!.length)}imagePullPolicy: IfNotPresent` };
}

// ---- CodeLens placement ----

/**
 * Where a document's CodeLens goes: the start of its first content line, after the `---` marker,
 * directives, comments and blank lines (a lens on the `---` line looks like the previous
 * document's). `start`/`end` are the document's range; with no content line, `start`.
 */
export function lensOffset(text: string, start: number, end: number): number {
  let s = start;
  while (s < end) {
    const nl = text.indexOf('\n', s);
    const lineEnd = nl < 0 || nl > end ? end : nl;
    const line = text.slice(s, lineEnd).replace(/\r$/, '');
    const marker = /^(---|\.\.\.)(?=[ \t]|$)/.exec(line);
    const rest = (marker ? line.slice(marker[0].length) : line).trim();
    if (rest !== '' && !rest.startsWith('#') && !(line.startsWith('%') && !marker)) return s;
    if (nl < 0 || nl >= end) break;
    s = nl + 1;
  }
  return start;
}
