// The validator's public face: validate a whole text (every YAML document: Pods, ConfigMaps, Secrets),
// incrementally for the editor, render kubectl's refusal message, Pod Lab's own warnings, and answer
// hover / completion / quick-fix queries.
import { collect, rebase, splitChunks, validateChunk, validateJsonValue, type Problem, type RelDoc, type ValidatedDocument, type ValidationResult } from './documents.js';
import type { LabOptions } from './lab.js';
import { isLabKind, typeSpec } from './schema.js';

export type { LabObject, Problem, ValidatedDocument, ValidationResult } from './documents.js';
export type { ProblemSource, ProblemType } from './errors.js';
export { isDuplicateField } from './errors.js';
import { goQuote, isDuplicateField, isStrictOnly } from './errors.js';
export type { LabFamily, LabOptions, LabWarning, Unsupported } from './lab.js';
export type { PathAt } from './paths.js';
export { applyPodDefaults } from './defaults.js';
export { writtenObject } from './documents.js';
export { applySecretDefaults, MAX_SECRET_SIZE, SECRET_TYPES } from './objects.js';
export { labWarnings, unsupportedNote, UNSUPPORTED, SUPPORTED_VOLUME_SOURCES } from './lab.js';
export { pathAt, typeAtPath } from './paths.js';
export { hoverAt, completionsAt, quickFixesFor } from './assist.js';
export { LAB_KINDS, type LabKind } from './schema.js';

/** Options of a validation: `nodeNames` adds the lab's warning for a `spec.nodeName` that names no lab node. */
export type ValidateOptions = LabOptions;

export function validateText(text: string, opts: ValidateOptions = {}): ValidationResult {
  const docs: ValidatedDocument[] = [];
  for (const chunk of splitChunks(text)) docs.push(...rebase(validateChunk(text.slice(chunk.start, chunk.end), opts), chunk, docs.length));
  return collect(docs);
}

/** How many object keys a JSON text writes: each string followed by a colon. */
function keysInJsonText(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) {
    // to the string's closing quote (one not escaped by an odd run of backslashes)
    let end = text.indexOf('"', i + 1);
    for (;;) {
      let b = 0;
      while (text.charCodeAt(end - 1 - b) === 92) b++;
      if (end < 0 || b % 2 === 0) break;
      end = text.indexOf('"', end + 1);
    }
    if (end < 0) return -1;
    let j = end + 1;
    while (j < text.length && (text[j] === ' ' || text[j] === '\n' || text[j] === '\r' || text[j] === '\t')) j++;
    if (text[j] === ':') n++;
    i = end;
  }
  return n;
}

function keysInValue(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + keysInValue(x), 0);
  if (v === null || typeof v !== 'object') return 0;
  let n = 0;
  for (const k of Object.keys(v)) n += 1 + keysInValue((v as Record<string, unknown>)[k]);
  return n;
}

/** Whether a JSON text writes some key twice in an object: `value` is what JSON.parse made of it (the last of each kept). */
export function repeatsKeys(text: string, value: unknown): boolean {
  return keysInJsonText(text) !== keysInValue(value);
}

/**
 * Validates an API request body, or a value already parsed from one, as a single document. A JSON
 * object that writes no key twice skips the YAML parser (`validateJsonValue`); its problems have no
 * place in the text. Anything else (YAML, a JSON syntax error, a repeated key) goes through
 * `validateText`, which reports it as the editor does.
 */
export function validateBody(body: string | object, opts: ValidateOptions = {}): ValidationResult {
  let value: unknown = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return validateText(body, opts);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value) || repeatsKeys(body, value)) return validateText(body, opts);
  }
  return collect(rebase([validateJsonValue(value, opts)], { start: 0, end: 0, line: 0 }, 0));
}

/**
 * Re-validates only the documents whose text changed: results are cached per document chunk
 * (by its exact text), then moved to their new place in the file.
 */
export class IncrementalValidator {
  private cache = new Map<string, RelDoc[]>();

  constructor(private readonly opts: ValidateOptions = {}) {}

  update(text: string): ValidationResult {
    const next = new Map<string, RelDoc[]>();
    const docs: ValidatedDocument[] = [];
    for (const chunk of splitChunks(text)) {
      const slice = text.slice(chunk.start, chunk.end);
      const rels = next.get(slice) ?? this.cache.get(slice) ?? validateChunk(slice, this.opts);
      next.set(slice, rels);
      docs.push(...rebase(rels, chunk, docs.length));
    }
    this.cache = next;
    return collect(docs);
  }
}

/** A validation error as kubectl prints a cause: `<field>: <body>` (so an empty field shows as `: <body>`). */
const causeLine = (p: Problem) => (p.field ? p.message : `: ${p.message}`);

/**
 * What kubectl prints when the API server refuses an object of `kind` (Pod, ConfigMap or Secret).
 * Decoding comes first (section 1 of the rules): a type mismatch, a bad quantity or bad base64 is a
 * 400 naming the first one; unknown or duplicate fields are a 400 `strict decoding error` listing
 * them all; YAML syntax errors fail in kubectl before any request. Only an object that decodes
 * reaches validation: a 422 listing every field error (identical lines once), inline when there is
 * one. `file` is the manifest's name as kubectl shows it; `firstLine`, the file's line that is the
 * document's first (kubectl parses each document apart, after its `---`). Warnings (the API
 * server's and the lab's) never refuse anything.
 */
export function invalidObjectMessage(kind: string, name: string, problems: Problem[], file?: string, firstLine = 1, generateName?: string): string {
  const errors = problems.filter((p) => p.severity === 'error');
  const creating = file === undefined ? '' : `error when creating ${JSON.stringify(file)}: `;
  const syntax = errors.find((p) => p.type === 'YAML syntax' && !isDuplicateField(p));
  if (syntax) return `error: error parsing ${file ?? 'the manifest'}: error converting YAML to JSON: yaml: line ${syntax.line - firstLine + 1}: ${syntax.detail}`;
  // The first mismatch in the order of the JSON kubectl sends (keys sorted at every level), which is
  // the order the API server decodes it in; one in the metadata kubectl itself cannot decode.
  const typeErr = errors.filter((p) => p.type === 'Type mismatch').sort((a, b) => jsonPathOrder(a.field, b.field))[0];
  if (typeErr && /^metadata(\.|\[|$)/.test(typeErr.field)) return `error: unable to decode ${JSON.stringify(file ?? 'the manifest')}: ${typeErr.detail}`;
  const head = `Error from server (BadRequest): ${creating}${kind} in version "v1" cannot be handled as a ${kind}: `;
  if (typeErr) return head + typeErr.detail;
  const strict = errors.filter(isStrictOnly);
  if (strict.length) return `${head}strict decoding error: ${strict.map((p) => p.detail).join(', ')}`;
  // then admission (a Pod's only refusal: the Priority plugin's 403), before validation
  const refused = errors.find((p) => p.source === 'admission');
  // (admission.NewForbidden names the object by extractResourceName: its name, its generateName, or Unknown)
  if (refused) return `Error from server (Forbidden): ${creating}pods ${goQuote(name || generateName || 'Unknown')} is forbidden: ${refused.detail}`;
  const errs = [...new Set(errors.map(causeLine))];
  if (errs.length === 1) return `The ${kind} "${name}" is invalid: ${errs[0]}`;
  return `The ${kind} "${name}" is invalid: \n${errs.map((e) => `* ${e}`).join('\n')}`;
}

/** A field path's steps: names and map keys as strings, list indexes as numbers (`spec.containers[0].ports` is spec, containers, 0, ports). */
function pathSteps(field: string): (string | number)[] {
  const steps: (string | number)[] = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) steps.push(m[1] !== undefined ? m[1] : /^\d+$/.test(m[2]!) ? Number(m[2]) : m[2]!);
  return steps;
}

/** Two field paths in the order of a JSON document whose keys are sorted (Go's json.Marshal of a map): step by step, keys by bytes, indexes by number. */
function jsonPathOrder(a: string, b: string): number {
  const x = pathSteps(a);
  const y = pathSteps(b);
  for (let i = 0; i < x.length && i < y.length; i++) {
    if (x[i] === y[i]) continue;
    if (typeof x[i] === 'number' && typeof y[i] === 'number') return (x[i] as number) - (y[i] as number);
    return String(x[i]) < String(y[i]) ? -1 : 1;
  }
  return x.length - y.length;
}

/** The file's line (1-based) that is line 1 of the document starting at `offset`: kubectl parses each document apart, without its `---` line. */
export function documentFirstLine(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return text.startsWith('---', offset) ? line + 1 : line;
}

/** kubectl's refusal of a Pod: `invalidObjectMessage('Pod', ...)`. */
export function invalidPodMessage(name: string, problems: Problem[], file?: string, firstLine = 1): string {
  return invalidObjectMessage('Pod', name, problems, file, firstLine);
}

/**
 * kubectl's refusal of a validated document, with its kind (a Pod when it is not a ConfigMap or
 * Secret); undefined when the document has no error.
 */
/** The generateName a document's object asks for, if any (the admission refusal's name when it has no name). */
export function generateNameOf(doc: ValidatedDocument): string | undefined {
  const g = (doc.object as { metadata?: { generateName?: unknown } } | undefined)?.metadata?.generateName;
  return typeof g === 'string' ? g : undefined;
}

export function documentRefusal(doc: ValidatedDocument, file?: string): string | undefined {
  if (!doc.problems.some((p) => p.severity === 'error')) return undefined;
  return invalidObjectMessage(isLabKind(doc.kind) ? doc.kind : 'Pod', doc.name ?? '', doc.problems, file, 1, generateNameOf(doc));
}

export { typeSpec };
