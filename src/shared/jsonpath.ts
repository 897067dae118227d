// kubectl's JSONPath templates (`kubectl get -o jsonpath=...`): the parser and evaluator of
// k8s.io/client-go/util/jsonpath (parser.go, jsonpath.go, v0.33) as kubectl's JSONPath printer
// (k8s.io/cli-runtime/pkg/printers/jsonpath.go) runs them over an object's JSON, with missing
// keys allowed (kubectl's --allow-missing-template-keys default). Our own code, written from
// those sources' behaviour; no npm library implements this dialect ({range}/{end}, Go's value
// printing). A leaf module. Pure.
//
// Where Go's behaviour depends on its random map order (a wildcard or `..` over an object's keys),
// the keys are taken sorted.

import { goFormatFloat, goJsonMarshal, goQuote } from './go.js';

/** The 3 parameters of `[start:end:step]`, as the parser fills them. */
interface Param {
  value: number;
  known: boolean;
  /** The end was not written: start + 1 (a plain index). */
  derived: boolean;
}

export type JsonPathNode =
  | { type: 'list'; nodes: JsonPathNode[] }
  | { type: 'text'; text: string }
  | { type: 'field'; name: string }
  | { type: 'array'; params: [Param, Param, Param] }
  | { type: 'filter'; left: ListNode; right: ListNode; op: string }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'union'; nodes: ListNode[] }
  | { type: 'identifier'; name: string };

type ListNode = { type: 'list'; nodes: JsonPathNode[] };

class ParseError extends Error {}

const EOF = -1;

const isSpace = (r: number) => r === 0x20 || r === 0x09;
const isEndOfLine = (r: number) => r === 0x0d || r === 0x0a;
const isAlphaNumeric = (r: number) => r === 0x5f || (r !== EOF && /^[\p{L}\p{Nd}]$/u.test(String.fromCodePoint(r)));
const isDigit = (r: number) => r !== EOF && /^\p{Nd}$/u.test(String.fromCodePoint(r));
/** A character that ends an identifier or a field name. */
const isTerminator = (r: number) => isSpace(r) || isEndOfLine(r) || r === EOF || '.,[]$@{}'.includes(String.fromCodePoint(r));

/** Go's %#U: `U+0023 '#'`, the character itself only when it is printable (`U+0009` for a tab). */
const sharpU = (r: number) => {
  const code = `U+${r.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(String.fromCodePoint(r)) ? `${code} '${String.fromCodePoint(r)}'` : code;
};

/** strconv.Atoi: an optional sign and decimal digits, within int64. */
function atoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? Number(n) : undefined;
}

/** strconv.ParseFloat for what parseNumber can read: signs, digits and dots. */
function parseFloatGo(s: string): number | undefined {
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(s) ? Number(s) : undefined;
}

/** strconv.UnquoteChar's escapes, for a string quoted by `quote`; throws Go's ErrSyntax wording. */
function unquoteExtend(s: string): string {
  const bad = () => new ParseError('invalid syntax');
  if (s.length < 2) throw bad();
  const quote = s[0]!;
  if (quote !== s.at(-1) || (quote !== '"' && quote !== "'")) throw bad();
  const body = s.slice(1, -1);
  if (!body.includes('\\') && !body.includes(quote)) return body;
  let out = '';
  const cps = [...body];
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    if (c === quote) throw bad();
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = cps[++i];
    if (e === undefined) throw bad();
    const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
    if (e in simple) out += simple[e];
    else if (e === quote) out += e;
    else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = cps.slice(i + 1, i + 1 + n).join('');
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) throw bad();
      const v = parseInt(hex, 16);
      if (e !== 'x' && (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))) throw bad();
      // \x is a byte: above 0x7f it is not a character of its own; taken as Latin-1 here
      out += String.fromCodePoint(v);
      i += n;
    } else if (e >= '0' && e <= '7') {
      const oct = cps.slice(i, i + 3).join('');
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) throw bad();
      out += String.fromCodePoint(parseInt(oct, 8));
      i += 2;
    } else throw bad();
  }
  return out;
}

/** The parser of parser.go: a position in the input, the start of the text not yet consumed. */
class Parser {
  root: ListNode = { type: 'list', nodes: [] };
  private pos = 0;
  private start = 0;
  private width = 0;

  constructor(private readonly input: string) {}

  parse(): ListNode {
    this.parseText(this.root);
    return this.root;
  }

  private consumeText(): string {
    const v = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return v;
  }

  private next(): number {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos)!;
    this.width = r > 0xffff ? 2 : 1;
    this.pos += this.width;
    return r;
  }

  private peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private rest(): string {
    return this.input.slice(this.pos);
  }

  private parseText(cur: ListNode): void {
    for (;;) {
      if (this.rest().startsWith('{')) {
        if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
        return this.parseLeftDelim(cur);
      }
      if (this.next() === EOF) break;
    }
    if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
  }

  private parseLeftDelim(cur: ListNode): void {
    this.pos += 1;
    this.consumeText();
    const node: ListNode = { type: 'list', nodes: [] };
    cur.nodes.push(node);
    this.parseInsideAction(node);
  }

  private parseInsideAction(cur: ListNode): void {
    // (a loop where parser.go recurses after each item)
    for (;;) {
      const rest = this.rest();
      if (rest.startsWith('}')) return this.parseRightDelim();
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === EOF || isEndOfLine(r)) throw new ParseError('unclosed action');
      if (r === 0x20 || r === 0x40 || r === 0x24) this.consumeText(); // ' ', '@', '$'
      else if (r === 0x5b) this.parseArray(cur);
      else if (r === 0x22 || r === 0x27) this.parseQuote(cur, r);
      else if (r === 0x2e) this.parseField(cur);
      else if (r === 0x2b || r === 0x2d || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else throw new ParseError(`unrecognized character in action: ${sharpU(r)}`);
    }
  }

  private parseRightDelim(): void {
    this.pos += 1;
    this.consumeText();
    this.parseText(this.root);
  }

  private parseIdentifier(cur: ListNode): void {
    while (!isTerminator(this.next()));
    this.backup();
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes.at(-1)?.type === 'recursive') throw new ParseError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    const r = this.peek();
    if (r === 0x2b || r === 0x2d) this.next();
    for (;;) {
      const c = this.next();
      if (c !== 0x2e && !isDigit(c)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    const i = atoi(value);
    if (i !== undefined) return void cur.nodes.push({ type: 'int', value: i });
    const f = parseFloatGo(value);
    if (f !== undefined) return void cur.nodes.push({ type: 'float', value: f });
    throw new ParseError(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new ParseError('unterminated array');
      if (r === 0x5d) break;
    }
    let text = this.consumeText();
    text = text.slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      const nodes = parts.map((p) => parseAction(`[${p.replace(/^ +| +$/g, '')}]`));
      cur.nodes.push({ type: 'union', nodes });
      return;
    }
    const key = /^'([^']*)'$/.exec(text);
    if (key) {
      cur.nodes.push(...parseAction(`.${key[1]}`).nodes);
      return;
    }
    const m = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/.exec(text);
    if (!m) throw new ParseError(`invalid array index ${text}`);
    const raw = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
    const params: Param[] = [];
    for (let i = 0; i < 3; i++) {
      let v = raw[i]!;
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params.push({ value: 0, known: false, derived: false });
        else {
          const n = atoi(v);
          if (n === undefined) throw new ParseError(`array index ${v} is not a number`);
          params.push({ value: n, known: true, derived: false });
        }
      } else if (i === 1) params.push({ value: params[0]!.value + 1, known: true, derived: true });
      else params.push({ value: 0, known: false, derived: false });
    }
    cur.nodes.push({ type: 'array', params: params as [Param, Param, Param] });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = 0;
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new ParseError('unterminated filter');
      if (r === 0x22 || r === 0x27) {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === 0x29 && begin === end) break;
    }
    if (this.next() !== 0x5d) throw new ParseError('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const m = /^([^!<>=]+)([!<>=]+)(.+?)$/su.exec(text);
    if (!m) cur.nodes.push({ type: 'filter', left: parseAction(text), right: { type: 'list', nodes: [] }, op: 'exists' });
    else cur.nodes.push({ type: 'filter', left: parseAction(m[1]!), right: parseAction(m[3]!), op: m[2]! });
  }

  private parseQuote(cur: ListNode, end: number): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new ParseError('unterminated quoted string');
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    let s: string;
    try {
      s = unquoteExtend(value);
    } catch (e) {
      throw new ParseError(`unquote string ${value} error ${(e as Error).message}`);
    }
    cur.nodes.push({ type: 'text', text: s });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    for (;;) {
      const r = this.next();
      if (r === 0x5c) this.next();
      else if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    cur.nodes.push(value === '*' ? { type: 'wildcard' } : { type: 'field', name: value.replace(/\\/g, '') });
  }
}

/** parseAction: the text as one action, its list. */
function parseAction(text: string): ListNode {
  const root = new Parser(`{${text}}`).parse();
  return root.nodes[0] as ListNode;
}

/** A template's nodes, or the parser's error (kubectl prints `error parsing jsonpath TEMPLATE, ERROR`). */
export function parseJsonPath(template: string): ListNode | { error: string } {
  try {
    return new Parser(template).parse();
  } catch (e) {
    if (e instanceof ParseError) return { error: e.message };
    throw e;
  }
}

// ---- evaluation ----------------------------------------------------------------------------------

/**
 * A value as Go's reflection sees the decoded JSON: `null` is a nil inside an interface; a whole
 * number is an int64 (kubectl reads objects as unstructured JSON, which keeps integers as int64),
 * another number a float64. A number the template writes with a point is a float64 even when whole.
 */
type Json = null | boolean | number | string | TemplateFloat | Json[] | { [k: string]: Json };

/** A float64 the template wrote (`1.0`), which compares as a float even when it is whole. */
class TemplateFloat {
  constructor(readonly value: number) {}
}

/** int64 or float64, as the unstructured JSON decoding gives a number. */
const numberKind = (v: number) => (Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'int' : 'float');
const numberText = (v: number) => (numberKind(v) === 'int' ? BigInt(v).toString() : goFloat(v));

class ExecError extends Error {}

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof TemplateFloat);
const keysSorted = (o: Record<string, Json>) => Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Go's reflect type names of decoded JSON, as `%v is not array or slice` prints them. */
export function goTypeName(v: Json | undefined): string {
  if (v === undefined || v === null) return '<nil>';
  if (v instanceof TemplateFloat) return 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return numberKind(v) === 'int' ? 'int64' : 'float64';
}

/** Go's %v of a float64 (see goFormatFloat); exported for the tests. */
export const goFloat = goFormatFloat;

/** Go's %#v of decoded JSON: `map[string]interface {}{"a":"b", "n":1}`, `[]interface {}{...}`, `interface {}(nil)`. */
export function goSharpV(v: Json): string {
  if (v === null) return 'interface {}(nil)';
  if (v instanceof TemplateFloat) return goFloat(v.value);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (typeof v === 'object') return `map[string]interface {}{${keysSorted(v).map((k) => `${goQuote(k)}:${goSharpV(v[k]!)}`).join(', ')}}`;
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return numberText(v);
  return String(v);
}

/** Go's comparisons of the forked text/template (eq, ne, lt, ...) on the kinds decoded JSON has. */
function compare(op: string, left: Json, right: Json): boolean {
  const kind = (v: Json) => {
    if (v instanceof TemplateFloat) return 'float';
    if (typeof v === 'number') return numberKind(v);
    if (typeof v === 'string') return 'string';
    if (typeof v === 'boolean') return 'bool';
    // a nil, an object or an array: basicKind's refusal
    throw new ExecError('invalid type for comparison');
  };
  const kl = kind(left);
  const kr = kind(right);
  if (kl !== kr) throw new ExecError('incompatible types for comparison');
  const value = (v: Json) => (v instanceof TemplateFloat ? v.value : (v as number | string | boolean));
  const l = value(left);
  const r = value(right);
  if (op === '==') return l === r;
  if (op === '!=') return l !== r;
  if (kl === 'bool') throw new ExecError('invalid type for comparison');
  switch (op) {
    case '<':
      return l < r;
    case '>':
      return l > r;
    case '<=':
      return l <= r;
    case '>=':
      return l >= r;
  }
  throw new ExecError(`unrecognized filter operator ${op}`);
}

/** The evaluator of jsonpath.go, with its range state, for one execution. */
class Evaluator {
  private beginRange = 0;
  private inRange = 0;
  private endRange = 0;
  private lastEnd = -1;

  constructor(private readonly root: JsonPathNode[]) {}

  /** FindResults over the template's nodes from `from` on (a range's body starts after it). */
  find(data: Json | undefined, from = 0): Json[][] {
    const full: Json[][] = [];
    const cur: (Json | undefined)[] = [data];
    for (let i = from; i < this.root.length; i++) {
      const results = this.walk(cur, this.root[i]!);
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        this.endRange--;
        this.lastEnd = i;
        break;
      }
      if (this.beginRange > 0) {
        this.beginRange--;
        this.inRange++;
        if (results.length) for (const v of results) full.push(...this.find(v, i + 1));
        else this.find(undefined, i + 1);
        this.inRange--;
        for (let k = i + 1; k < this.root.length; k++) {
          if (k === this.lastEnd) {
            i = k;
            break;
          }
        }
        continue;
      }
      full.push(results as Json[]);
    }
    return full;
  }

  private walk(input: (Json | undefined)[], node: JsonPathNode): Json[] {
    switch (node.type) {
      case 'list': {
        let cur = input;
        for (const n of node.nodes) cur = this.walk(cur, n);
        return cur as Json[];
      }
      case 'text':
        return [node.text];
      case 'field':
        return this.field(input, node.name);
      case 'array':
        return this.array(input, node.params);
      case 'filter':
        return this.filter(input, node);
      case 'int':
      case 'bool':
        return input.map(() => node.value);
      case 'float':
        return input.map(() => new TemplateFloat(node.value));
      case 'wildcard':
        return input.flatMap((v) => children(v));
      case 'recursive':
        return this.recursive(input);
      case 'union':
        return node.nodes.flatMap((l) => this.walk(input, l));
      case 'identifier':
        if (node.name === 'range') {
          this.beginRange++;
          return input as Json[];
        }
        if (node.name === 'end') {
          if (this.inRange > 0) this.endRange++;
          else throw new ExecError('not in range, nothing to end');
          return [];
        }
        throw new ExecError(`unrecognized identifier ${node.name}`);
    }
  }

  private field(input: (Json | undefined)[], name: string): Json[] {
    const out: Json[] = [];
    for (const v of input) {
      // a nil (JSON null) is skipped; only an object has fields (missing keys allowed)
      if (isObject(v) && Object.prototype.hasOwnProperty.call(v, name)) out.push(v[name]!);
    }
    return out;
  }

  private array(input: (Json | undefined)[], params: readonly [Param, Param, Param]): Json[] {
    const out: Json[] = [];
    for (const v of input) {
      if (v === null || v === undefined) continue;
      if (!Array.isArray(v)) throw new ExecError(`${goTypeName(v)} is not array or slice`);
      // (a copy per value, as jsonpath.go copies the node's parameter array)
      const p = params.map((x) => ({ ...x })) as [Param, Param, Param];
      if (!p[0].known) p[0].value = 0;
      if (p[0].value < 0) p[0].value += v.length;
      if (!p[1].known) p[1].value = v.length;
      if (p[1].value < 0 || (p[1].value === 0 && p[1].derived)) p[1].value += v.length;
      const len = v.length;
      if (p[1].value === p[0].value) return out;
      if (p[0].value >= len || p[0].value < 0) throw new ExecError(`array index out of bounds: index ${p[0].value}, length ${len}`);
      if (p[1].value > len || p[1].value < 0) throw new ExecError(`array index out of bounds: index ${p[1].value - 1}, length ${len}`);
      if (p[0].value > p[1].value) throw new ExecError(`starting index ${p[0].value} is greater than ending index ${p[1].value}`);
      const slice = v.slice(p[0].value, p[1].value);
      let step = 1;
      if (p[2].known) {
        if (p[2].value <= 0) throw new ExecError('step must be > 0');
        step = p[2].value;
      }
      for (let i = 0; i < slice.length; i += step) out.push(slice[i]!);
    }
    return out;
  }

  private filter(input: (Json | undefined)[], node: Extract<JsonPathNode, { type: 'filter' }>): Json[] {
    const out: Json[] = [];
    for (const v of input) {
      if (!Array.isArray(v)) throw new ExecError(`${goValueText(v)} is not array or slice and cannot be filtered`);
      for (const item of v) {
        let lefts: Json[];
        try {
          lefts = this.walk([item], node.left);
        } catch (e) {
          // jsonpath.go's failing step returns its input with the error, and the exists test
          // ignores the error and sees that input: the item is kept
          if (node.op === 'exists' && e instanceof ExecError) {
            out.push(item);
            continue;
          }
          throw e;
        }
        if (node.op === 'exists') {
          if (lefts.length > 0) out.push(item);
          continue;
        }
        if (lefts.length === 0) continue;
        if (lefts.length > 1) throw new ExecError('can only compare one element at a time');
        const rights = this.walk([item], node.right);
        if (rights.length === 0) continue;
        if (rights.length > 1) throw new ExecError('can only compare one element at a time');
        if (!['<', '>', '==', '!=', '<=', '>='].includes(node.op)) throw new ExecError(`unrecognized filter operator ${node.op}`);
        if (compare(node.op, lefts[0]!, rights[0]!)) out.push(item);
      }
    }
    return out;
  }

  private recursive(input: (Json | undefined)[]): Json[] {
    const out: Json[] = [];
    for (const v of input) {
      if (v === null || v === undefined) continue;
      const kids = children(v);
      if (kids.length) {
        out.push(v);
        out.push(...this.recursive(kids));
      }
    }
    return out;
  }
}

/** A value's contents, as a wildcard takes them: an object's values (by key), an array's items, a string's bytes. */
function children(v: Json | undefined): Json[] {
  if (v === null || v === undefined || v instanceof TemplateFloat) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === 'object') return keysSorted(v).map((k) => v[k]!);
  // reflect indexes a string's bytes (uint8 values)
  if (typeof v === 'string') return [...new TextEncoder().encode(v)];
  return [];
}

/** Go's %v of a value (for messages). */
function goValueText(v: Json | undefined): string {
  if (v === undefined || v === null) return '<nil>';
  if (typeof v === 'number') return numberText(v);
  if (v instanceof TemplateFloat) return goFloat(v.value);
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goValueText).join(' ')}]`;
  return `map[${keysSorted(v).map((k) => `${k}:${goValueText(v[k]!)}`).join(' ')}]`;
}

/** PrintResults: each result (an object or array as compact JSON, else Go's %v; null as `null`), space-separated. */
function printResults(results: readonly Json[]): string {
  return results
    .map((r) => {
      if (r instanceof TemplateFloat) return goFloat(r.value);
      if (r !== null && typeof r === 'object') return goJsonMarshal(r);
      if (r === null) return 'null';
      return typeof r === 'number' ? numberText(r) : String(r);
    })
    .join(' ');
}

/** An object as the evaluator reads it: its JSON, decoded afresh. */
const decoded = (object: unknown) => JSON.parse(JSON.stringify(object)) as Json;

/** FindResults over decoded JSON: the values found, by top-level action; or the evaluator's error. */
function find(template: ListNode, data: Json): Json[][] | { error: string } {
  try {
    return new Evaluator(template.nodes).find(data);
  } catch (e) {
    if (e instanceof ExecError) return { error: e.message };
    throw e;
  }
}

/**
 * Runs a parsed template over an object's JSON as kubectl's JSONPath printer does: the text, or
 * the evaluator's error (kubectl prints it with the template and the object, see jsonPathError).
 */
export function executeJsonPath(template: ListNode, data: unknown, asJson = false): { text: string } | { error: string } {
  const r = find(template, decoded(data));
  if ('error' in r) return r;
  // `-o jsonpath-as-json` (EnableJSONOutput): each action's values as one JSON array, indented by four
  if (asJson) return { text: r.map((values) => `${goJsonMarshal(values.map((v) => (v instanceof TemplateFloat ? v.value : v)), 4)}\n`).join('') };
  return { text: r.map(printResults).join('') };
}

/** kubectl's words for a template that fails on an object (its template and the object, for debugging), as it prints them after `error: `. */
export function jsonPathError(template: string, error: string, data: unknown): string {
  return `error executing jsonpath ${goQuote(template)}: Error executing template: ${error}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t${template}\n\tobject given to jsonpath engine was:\n\t\t${goSharpV(decoded(data))}\n\n\n`;
}

// ---- custom columns ------------------------------------------------------------------------------

/**
 * kubectl's RelaxedJSONPathExpression: `name1.name2`, `.name1.name2`, `{name1.name2}` or
 * `{.name1.name2}` as the template `{.name1.name2}` (an empty one stays empty).
 */
export function relaxedJsonPath(expression: string): string | { error: string } {
  if (expression === '') return expression;
  const m = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/su.exec(expression);
  if (!m) return { error: "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'" };
  return `{.${m[1] || m[2]}}`;
}

/** One column of `-o custom-columns=HEADER:PATH,...`: its header and its template's nodes. */
export interface CustomColumn {
  header: string;
  nodes: ListNode;
}

/**
 * NewCustomColumnsPrinterFromSpec, then each column's template parsed (kubectl parses them when it
 * prints, after the header: `headersFirst` are the headers it prints before that error).
 */
export function parseCustomColumns(spec: string): { columns: CustomColumn[] } | { error: string; headersFirst?: string[] } {
  if (spec === '') return { error: 'custom-columns format specified but no custom columns given' };
  const specs: { header: string; template: string }[] = [];
  for (const part of spec.split(',')) {
    const colon = part.indexOf(':');
    if (colon < 0) return { error: `unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>` };
    const template = relaxedJsonPath(part.slice(colon + 1));
    if (typeof template !== 'string') return template;
    specs.push({ header: part.slice(0, colon), template });
  }
  return parsedColumns(specs);
}

const TEMPLATE_FORMAT = 'Expected format is one line of space separated headers, one line of space separated column specs.';

/**
 * NewCustomColumnsPrinterFromTemplate (`-o custom-columns-file=FILE`): the file's first line is the
 * headers, its second the columns' paths, each split on white space; then each template parsed as
 * parseCustomColumns does.
 */
export function parseCustomColumnsTemplate(text: string): { columns: CustomColumn[] } | { error: string; headersFirst?: string[] } {
  // bufio.Scanner's lines: split at newlines, a carriage return before one dropped, no empty last line
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.length < 1) return { error: `invalid template, missing header line. ${TEMPLATE_FORMAT}` };
  if (lines.length < 2) return { error: `invalid template, missing spec line. ${TEMPLATE_FORMAT}` };
  const words = (line: string) => line.split(/\s+/).filter((w) => w !== '');
  const headers = words(lines[0]!);
  const paths = words(lines[1]!);
  if (headers.length !== paths.length) return { error: `number of headers (${headers.length}) and field specifications (${paths.length}) don't match` };
  const specs: { header: string; template: string }[] = [];
  for (const [i, header] of headers.entries()) {
    const template = relaxedJsonPath(paths[i]!);
    if (typeof template !== 'string') return template;
    specs.push({ header, template });
  }
  return parsedColumns(specs);
}

/** Each column's template parsed (kubectl parses them when it prints, after the header). */
function parsedColumns(specs: readonly { header: string; template: string }[]): { columns: CustomColumn[] } | { error: string; headersFirst?: string[] } {
  const columns: CustomColumn[] = [];
  for (const s of specs) {
    const nodes = parseJsonPath(s.template);
    if ('error' in nodes) return { error: nodes.error, headersFirst: specs.map((x) => x.header) };
    columns.push({ header: s.header, nodes });
  }
  return { columns };
}

/**
 * One object's cells (printOneObject): every value the column's template finds, as Go's %v prints
 * it (`[sh -c]`, `map[app:web]`, `<nil>`), joined by commas, with ESC and CR escaped for the
 * terminal; `<none>` when it finds nothing. Or the template's error.
 */
export function customColumnCells(columns: readonly CustomColumn[], object: unknown): string[] | { error: string } {
  const data = decoded(object);
  const cells: string[] = [];
  for (const c of columns) {
    const groups = find(c.nodes, data);
    if ('error' in groups) return groups;
    const values = groups.flat().map((v) => goValueText(v).replace(/\x1b/g, '^[').replace(/\r/g, '\\r'));
    cells.push(groups.length === 0 || groups[0]!.length === 0 ? ['<none>', ...values].join(',') : values.join(','));
  }
  return cells;
}

/**
 * The custom columns' table of the objects (CustomColumnsPrinter.PrintObj): the headers, then each
 * object's cells, up to the first object a column fails on, with that error.
 */
export function customColumnRows(columns: readonly CustomColumn[], objects: readonly unknown[]): { rows: string[][]; error?: string } {
  const rows = [columns.map((c) => c.header)];
  for (const o of objects) {
    const cells = customColumnCells(columns, o);
    if ('error' in cells) return { rows, error: cells.error };
    rows.push(cells);
  }
  return { rows };
}

/** FindResults: the values a template finds in an object, by top-level action; or its error. */
export function jsonPathResults(template: ListNode, object: unknown): unknown[][] | { error: string } {
  return find(template, decoded(object));
}
