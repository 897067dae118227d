// Label and field selectors as a v1.33 API server parses and applies them on list and watch:
// - labels: k8s.io/apimachinery/pkg/labels/selector.go (the Lexer and Parser, NewRequirement,
//   Requirement.Matches) with the key and value checks of pkg/util/validation/validation.go
//   (IsQualifiedName, IsValidLabelValue) and the field.Error / aggregate texts they produce;
// - fields: k8s.io/apimachinery/pkg/fields/selector.go (splitTerms, splitTerm, UnescapeValue), the
//   field label conversion funcs the handler applies (pkg/apis/core/v1/conversion.go
//   AddFieldLabelConversionFunc, and runtime.DefaultMetaV1FieldSelectorConversion for kinds without
//   one: ConfigMap), and the per-kind selectable field sets (pkg/registry/core/*/strategy.go
//   ToSelectableFields / GetAttrs, generic.ObjectMetaFieldsSet).
// Every parse error is what the API server answers with 400 BadRequest (handlers/get.go
// ListResource: errors.NewBadRequest(err.Error())); the label selector is decoded before the field
// selector, and a field selector's syntax is checked for every term before any field label is
// converted. Pure.
import type { Kind } from '../engine/store.js';
import { goQuote } from '../shared/go.js';
import * as S from './status.js';

/** A selector the API server rejects: 400 BadRequest with this message. */
export class SelectorError extends Error {
  readonly code = 400;
  readonly reason = 'BadRequest';
  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }
  /** The Status the API server answers with (errors.NewBadRequest). */
  get response(): S.StatusResponse {
    return S.badRequest(this.message);
  }
}

// ---- label selectors -------------------------------------------------------------------------

/** selection.Operator values: `exists` for `key`, `!` for `!key`, `gt`/`lt` for `key>1`/`key<1`. */
export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/** One requirement; `values` sorted and without duplicates (sets.String.List()), empty for exists/!. */
export interface Requirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

/** The requirements, ANDed, sorted by key as labels.Parse sorts them. Empty: everything. */
export type LabelSelector = Requirement[];

const enum Tok {
  Error,
  EndOfString,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const STRING_TO_TOKEN: Record<string, Tok> = {
  ')': Tok.ClosedPar,
  ',': Tok.Comma,
  '!': Tok.DoesNotExist,
  '==': Tok.DoubleEquals,
  '=': Tok.Equals,
  '>': Tok.GreaterThan,
  in: Tok.In,
  '<': Tok.LessThan,
  '!=': Tok.NotEquals,
  notin: Tok.NotIn,
  '(': Tok.OpenPar,
};
const tokenOf = (s: string): Tok | undefined => (Object.prototype.hasOwnProperty.call(STRING_TO_TOKEN, s) ? STRING_TO_TOKEN[s] : undefined);

/** The binary operators in the order `parseOperator`'s error lists them. */
const BINARY_OPERATORS = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string) => ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';

/** The Lexer: Go's read() yields 0 at the end and for a NUL byte, so the input ends at its first NUL. */
function lex(input: string): { tok: Tok; lit: string }[] {
  const nul = input.indexOf('\0');
  const s = nul >= 0 ? input.slice(0, nul) : input;
  let pos = 0;
  const out: { tok: Tok; lit: string }[] = [];
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos]!)) pos++;
    if (pos >= s.length) {
      out.push({ tok: Tok.EndOfString, lit: '' });
      return out;
    }
    if (isSpecialSymbol(s[pos]!)) {
      // scanSpecialSymbol: the longest run of special symbols that is a token.
      let buffer = '';
      let last: { tok: Tok; lit: string } | undefined;
      while (pos < s.length && isSpecialSymbol(s[pos]!)) {
        buffer += s[pos];
        const t = tokenOf(buffer);
        if (t !== undefined) {
          last = { tok: t, lit: buffer };
          pos++;
        } else if (last) break;
        else pos++;
      }
      out.push(last ?? { tok: Tok.Error, lit: `error expected: keyword found '${buffer}'` });
      continue;
    }
    // scanIDOrKeyword
    const start = pos;
    while (pos < s.length && !isSpecialSymbol(s[pos]!) && !isWhitespace(s[pos]!)) pos++;
    const word = s.slice(start, pos);
    const t = tokenOf(word);
    out.push({ tok: t ?? Tok.Identifier, lit: word });
  }
}

// pkg/util/validation/validation.go, as of v1.33 (MaxLenError says "characters").
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_ERR = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

const byteLen = (s: string) => Buffer.byteLength(s, 'utf8');
const maxLenError = (n: number) => `must be no more than ${n} characters`;

/** validation.RegexError: note the two spaces Go's concatenation leaves before each ` or `. */
function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((e, i) => {
    if (i > 0) out += ' or ';
    out += `'${e}', `;
  });
  return `${out}regex used for validation is '${re}')`;
}

function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** validation.IsQualifiedName (what labels' validateLabelKey calls in v1.33). */
function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [`a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLen(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!QUALIFIED_NAME_RE.test(name)) errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** field.Invalid(path, value, detail).Error() for a string value. */
const invalidText = (path: string, value: string, detail: string) => `${path}: Invalid value: ${goQuote(value)}${detail ? `: ${detail}` : ''}`;

/** utilerrors aggregate text of a field.ErrorList (duplicates dropped; several in brackets). */
function aggregate(msgs: string[]): string | undefined {
  const seen = [...new Set(msgs)];
  if (seen.length === 0) return undefined;
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}

/** strconv.ParseInt(s, 10, 64) succeeds. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n <= 2n ** 63n - 1n ? n : undefined;
}

/** labels.NewRequirement's checks (the key was checked already, so only the values can fail here). */
function newRequirement(key: string, operator: LabelOperator, values: string[]): Requirement {
  const errs: string[] = [];
  if (operator === 'gt' || operator === 'lt') {
    values.forEach((v, i) => {
      if (parseInt64(v) === undefined) errs.push(invalidText(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
    });
  }
  values.forEach((v, i) => {
    const e = isValidLabelValue(v);
    if (e.length) errs.push(invalidText(`values[${i}][${key}]`, v, e.join('; ')));
  });
  const msg = aggregate(errs);
  if (msg !== undefined) throw new ParseError(msg);
  return { key, operator, values };
}

class ParseError extends Error {}

/** sets.String.List(): sorted, no duplicates. */
const setList = (vs: Iterable<string>) => [...new Set(vs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * labels.Parse: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, joined by
 * commas. Throws a SelectorError with the parser's message (`unable to parse requirement: …` for
 * an error inside a requirement, `found 'x', expected: …` between requirements).
 */
export function parseLabelSelector(selector: string): LabelSelector {
  const items = lex(selector);
  let position = 0;
  const at = (i: number) => items[Math.min(i, items.length - 1)]!;
  // lookahead/consume: in the Values context `in` and `notin` are identifiers.
  const lookahead = (values: boolean) => {
    const { tok, lit } = at(position);
    return { tok: values && (tok === Tok.In || tok === Tok.NotIn) ? Tok.Identifier : tok, lit };
  };
  const consume = (values: boolean) => {
    const r = lookahead(values);
    position++;
    return r;
  };

  const parseKeyAndInferOperator = (): { key: string; operator?: LabelOperator } => {
    let operator: LabelOperator | undefined;
    let { tok, lit } = consume(true);
    if (tok === Tok.DoesNotExist) {
      operator = '!';
      ({ tok, lit } = consume(true));
    }
    if (tok !== Tok.Identifier) throw new ParseError(`found '${lit}', expected: identifier`);
    const errs = isQualifiedName(lit);
    // validateLabelKey with the parser's nil path: field.Path(nil).String() is "<nil>".
    if (errs.length) throw new ParseError(invalidText('<nil>', lit, errs.join('; ')));
    const next = lookahead(true).tok;
    if ((next === Tok.EndOfString || next === Tok.Comma) && operator !== '!') operator = 'exists';
    return { key: lit, operator };
  };

  const parseOperator = (): LabelOperator => {
    const { tok, lit } = consume(false);
    switch (tok) {
      case Tok.In:
        return 'in';
      case Tok.Equals:
        return '=';
      case Tok.DoubleEquals:
        return '==';
      case Tok.GreaterThan:
        return 'gt';
      case Tok.LessThan:
        return 'lt';
      case Tok.NotIn:
        return 'notin';
      case Tok.NotEquals:
        return '!=';
      default:
        throw new ParseError(`found '${lit}', expected: ${BINARY_OPERATORS.join(', ')}`);
    }
  };

  const parseIdentifiersList = (): string[] => {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = consume(true);
      if (tok === Tok.Identifier) {
        s.add(lit);
        const next = lookahead(true);
        if (next.tok === Tok.Comma) continue;
        if (next.tok === Tok.ClosedPar) return [...s];
        throw new ParseError(`found '${next.lit}', expected: ',' or ')'`);
      }
      if (tok === Tok.Comma) {
        if (s.size === 0) s.add(''); // "(,"
        const next = lookahead(true).tok;
        if (next === Tok.ClosedPar) {
          s.add(''); // ",)"
          return [...s];
        }
        if (next === Tok.Comma) {
          consume(true);
          s.add(''); // ",,"
        }
        continue;
      }
      throw new ParseError(`found '${lit}', expected: ',', or identifier`);
    }
  };

  const parseValues = (): string[] => {
    const open = consume(true);
    if (open.tok !== Tok.OpenPar) throw new ParseError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = lookahead(true);
    if (tok === Tok.Identifier || tok === Tok.Comma) {
      const s = parseIdentifiersList();
      if (consume(true).tok !== Tok.ClosedPar) throw new ParseError(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === Tok.ClosedPar) {
      consume(true);
      return [''];
    }
    throw new ParseError(`found '${lit}', expected: ',', ')' or identifier`);
  };

  const parseExactValue = (): string[] => {
    const next = lookahead(true).tok;
    if (next === Tok.EndOfString || next === Tok.Comma) return [''];
    const { tok, lit } = consume(true);
    if (tok === Tok.Identifier) return [lit];
    throw new ParseError(`found '${lit}', expected: identifier`);
  };

  const parseRequirement = (): Requirement => {
    const { key, operator: inferred } = parseKeyAndInferOperator();
    if (inferred === 'exists' || inferred === '!') return newRequirement(key, inferred, []);
    const operator = parseOperator();
    const values = operator === 'in' || operator === 'notin' ? parseValues() : parseExactValue();
    return newRequirement(key, operator, setList(values));
  };

  const requirements: Requirement[] = [];
  for (;;) {
    const { tok, lit } = lookahead(true);
    if (tok === Tok.Identifier || tok === Tok.DoesNotExist) {
      try {
        requirements.push(parseRequirement());
      } catch (e) {
        if (e instanceof ParseError) throw new SelectorError(`unable to parse requirement: ${e.message}`);
        throw e;
      }
      const after = consume(true);
      if (after.tok === Tok.EndOfString) break;
      if (after.tok === Tok.Comma) {
        const next = lookahead(true);
        if (next.tok !== Tok.Identifier && next.tok !== Tok.DoesNotExist) throw new SelectorError(`found '${next.lit}', expected: identifier after ','`);
        continue;
      }
      throw new SelectorError(`found '${after.lit}', expected: ',' or 'end of string'`);
    }
    if (tok === Tok.EndOfString) break;
    throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
  }
  // sort.Sort(ByKey): the order of equal keys does not change what matches.
  return requirements.map((r, i) => ({ r, i })).sort((a, b) => (a.r.key < b.r.key ? -1 : a.r.key > b.r.key ? 1 : a.i - b.i)).map((x) => x.r);
}

/** Requirement.Matches for every requirement. */
export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  const ls = labels ?? {};
  return selector.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(ls, r.key);
    const v = has ? ls[r.key]! : '';
    switch (r.operator) {
      case 'in':
      case '=':
      case '==':
        return has && r.values.includes(v);
      case 'notin':
      case '!=':
        return !has || !r.values.includes(v);
      case 'exists':
        return has;
      case '!':
        return !has;
      case 'gt':
      case 'lt': {
        if (!has || r.values.length !== 1) return false;
        const lv = parseInt64(v);
        const rv = parseInt64(r.values[0]!);
        if (lv === undefined || rv === undefined) return false;
        return r.operator === 'gt' ? lv > rv : lv < rv;
      }
    }
  });
}

// ---- field selectors -------------------------------------------------------------------------

/** One term; `==` is stored as `=` (both are fields' hasTerm). */
export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

/** The terms, ANDed, in the sorted order fields.ParseSelector keeps. Empty: everything. */
export type FieldSelector = FieldRequirement[];

/** The field labels each kind's conversion func accepts (what a selector may name). */
export const FIELD_LABELS: Readonly<Record<Kind, readonly string[]>> = {
  Pod: [
    'metadata.name',
    'metadata.namespace',
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
  ],
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
    'metadata.namespace',
    'metadata.name',
  ],
  Node: ['metadata.name', 'spec.unschedulable'],
  Namespace: ['status.phase', 'metadata.name'],
  Secret: ['type', 'metadata.namespace', 'metadata.name'],
  ConfigMap: ['metadata.name', 'metadata.namespace'],
};

/** scheme.ConvertFieldLabel for the kind: the label to match on, or the conversion func's error. */
function convertFieldLabel(kind: Kind, label: string): string {
  if (kind === 'Pod' && label === 'spec.host') return 'spec.nodeName'; // old v1 clients
  if (FIELD_LABELS[kind].includes(label)) return label;
  // ConfigMap registers no conversion func: runtime.DefaultMetaV1FieldSelectorConversion answers.
  if (kind === 'ConfigMap') throw new SelectorError(`${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`);
  throw new SelectorError(`field label not supported: ${label}`);
}

/** fields.splitTerms: commas not escaped by a backslash split; the backslashes stay. */
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

/** fields.splitTerm: the first position where `!=`, `==` or `=` starts. */
function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '=']) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.UnescapeValue: `\\`, `\,` and `\=` are the only escapes; a bare `,` or `=` is an error. */
function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new SelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    // UnescapedRune prints the rune with %v: its number.
    else if (c === ',' || c === '=') throw new SelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/**
 * fields.ParseSelector, then the handler's Transform through the kind's field label conversion:
 * `a=b`, `a==b`, `a!=b` joined by commas, values escaped with `\`. No whitespace is trimmed (so
 * `a = b` names the field `a `). Throws a SelectorError.
 */
export function parseFieldSelector(kind: Kind, selector: string): FieldSelector {
  const parts = splitTerms(selector).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const parsed: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new SelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    parsed.push({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value: unescapeValue(t.rhs) });
  }
  return parsed.map((r) => ({ ...r, field: convertFieldLabel(kind, r.field) }));
}

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The kind's selectable fields of a v1 object, as its strategy computes them from the internal
 * object: a Pod's `spec.hostNetwork` is "true"/"false", `status.podIP` is the first of
 * `status.podIPs` (or `status.podIP` when the list is empty), and `status.podIPs` is not in the
 * set (it is accepted but matches as ""); an Event's `source` falls back to `reportingComponent`.
 */
export function selectableFields(kind: Kind, object: object): Record<string, string> {
  const o = object as Obj;
  const md = (o.metadata ?? {}) as Obj;
  const name = str(md.name);
  const namespace = str(md.namespace);
  switch (kind) {
    case 'Pod': {
      const spec = (o.spec ?? {}) as Obj;
      const status = (o.status ?? {}) as Obj;
      const podIPs = Array.isArray(status.podIPs) ? status.podIPs : [];
      return {
        'spec.nodeName': str(spec.nodeName),
        'spec.restartPolicy': str(spec.restartPolicy),
        'spec.schedulerName': str(spec.schedulerName),
        'spec.serviceAccountName': str(spec.serviceAccountName) || str(spec.serviceAccount),
        'spec.hostNetwork': String(spec.hostNetwork === true),
        'status.phase': str(status.phase),
        'status.podIP': podIPs.length > 0 ? str(podIPs[0]?.ip) : str(status.podIP),
        'status.nominatedNodeName': str(status.nominatedNodeName),
        'metadata.name': name,
        'metadata.namespace': namespace,
      };
    }
    case 'Event': {
      const io = (o.involvedObject ?? {}) as Obj;
      return {
        'involvedObject.kind': str(io.kind),
        'involvedObject.namespace': str(io.namespace),
        'involvedObject.name': str(io.name),
        'involvedObject.uid': str(io.uid),
        'involvedObject.apiVersion': str(io.apiVersion),
        'involvedObject.resourceVersion': str(io.resourceVersion),
        'involvedObject.fieldPath': str(io.fieldPath),
        reason: str(o.reason),
        reportingComponent: str(o.reportingComponent),
        source: str((o.source as Obj | undefined)?.component) || str(o.reportingComponent),
        type: str(o.type),
        'metadata.name': name,
        'metadata.namespace': namespace,
      };
    }
    case 'Node':
      return { 'metadata.name': name, 'spec.unschedulable': String((o.spec as Obj | undefined)?.unschedulable === true) };
    case 'Namespace':
      return { 'metadata.name': name, 'status.phase': str((o.status as Obj | undefined)?.phase), name };
    case 'Secret':
      return { 'metadata.name': name, 'metadata.namespace': namespace, type: str(o.type) };
    case 'ConfigMap':
      return { 'metadata.name': name, 'metadata.namespace': namespace };
  }
}

/** Selector.Matches on the kind's selectable fields (a field not in the set reads as ""). */
export function matchesFields(kind: Kind, selector: FieldSelector, object: object): boolean {
  if (selector.length === 0) return true;
  const set = selectableFields(kind, object);
  return selector.every((r) => {
    const v = Object.prototype.hasOwnProperty.call(set, r.field) ? set[r.field]! : '';
    return r.operator === '=' ? v === r.value : v !== r.value;
  });
}
