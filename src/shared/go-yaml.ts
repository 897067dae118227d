// The YAML text kubectl prints (`-o yaml`): sigs.k8s.io/yaml's JSONToYAML, that is go-yaml v2
// marshalling the object as JSON decoding gives it. Its upstream counterparts are go-yaml v2's
// encode.go (which style a string asks for), resolve.go (which plain scalars would read back as
// something else), sorter.go (the key order) and emitterc.go (libyaml's emitter: indentation,
// the style a scalar can have, folding past column 80). A leaf module, pure.
//
// What this reproduces, as a learner sees it in kubectl's output:
// - keys in go-yaml's "natural" order (digit runs compared as numbers: `a9` before `a10`);
// - a sequence in a mapping is not indented (`- ` under its key), empty ones are `{}` and `[]`;
// - a string that would read back as another type is double-quoted (`"true"`, `"8080"`, a
//   timestamp, `"1:20"`); one with indicators is single-quoted (`'a: b'`); one with a line break is
//   a literal block (`|`, `|-`, `|+`, `|2`) unless tabs, control characters or spaces at a line's
//   end force double quotes with escapes; emoji and other characters beyond U+FFFF are escaped;
// - a long plain or quoted string is folded at the first space past column 80;
// - a key longer than 128 bytes is written as `? key` then `: value`.
// Keys whose natural order is a cycle (a9x < a10 < a90 < a9x) have no one order: kubectl's own
// changes from run to run (Go's sort starts from the map's random order), and this one's may be another.

import { goFormatFloat } from './go.js';

const BEST_WIDTH = 80;
const BEST_INDENT = 2;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The object as kubectl prints it with `-o yaml`, ending in a newline. */
export function kubectlYaml(value: unknown): string {
  // Go's json.Marshal of the object, then go-yaml's Unmarshal of that JSON: undefined fields drop out.
  const json = readBack(JSON.parse(JSON.stringify(value) ?? 'null') as Json);
  const e = new Emitter();
  e.node(json, { root: true, sequence: false, mapping: false, simpleKey: false });
  e.documentEnd();
  return e.out;
}

/** Characters go-yaml's reader refuses, which Go's JSON writes unescaped: DEL, the C1 controls but NEL, U+FFFE and U+FFFF. */
const REFUSED = /[\u007f-\u0084\u0086-\u009f\ufffe\uffff]/;

/**
 * What go-yaml's parser reads from the JSON Go wrote: a string as Go's JSON has it (U+FFFD for a
 * lone surrogate), a run of spaces and NELs (which Go leaves unescaped and YAML reads as line
 * breaks, folded) as one space for one NEL and n-1 line feeds for n; a refused character is
 * kubectl's error.
 */
function readBack(v: Json): Json {
  if (typeof v === 'string') {
    if (REFUSED.test(v)) throw new Error('yaml: control characters are not allowed');
    return v
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
      .replace(/ *(?:\u0085 *)+/g, (run) => {
        const n = run.split('\u0085').length - 1;
        return n === 1 ? ' ' : '\n'.repeat(n - 1);
      });
  }
  if (Array.isArray(v)) return v.map(readBack);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [readBack(k) as string, readBack(x)]));
  return v;
}

interface Context {
  root: boolean;
  sequence: boolean;
  mapping: boolean;
  simpleKey: boolean;
}

type Style = 'plain' | 'single' | 'double' | 'literal';

/** What libyaml's emitter learns of a scalar before choosing its style. */
interface Analysis {
  multiline: boolean;
  flowPlain: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

class Emitter {
  out = '';
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;
  private flowLevel = 0;

  node(v: Json, ctx: Context): void {
    if (Array.isArray(v)) return v.length ? this.blockSequence(v, ctx) : this.emptyFlow('[', ']');
    if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v).sort(keyCompare);
      return keys.length ? this.blockMapping(keys, v) : this.emptyFlow('{', '}');
    }
    this.scalar(scalarOf(v), ctx);
  }

  /** The implicit document end (go-yaml's encoder ends the stream without `...`). */
  documentEnd(): void {
    this.writeIndent();
  }

  private pushIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  private popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  private blockSequence(items: Json[], ctx: Context): void {
    // Under a mapping's key the dashes stay at the key's column.
    this.pushIndent(false, ctx.mapping && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.indicator('-', true, false, true);
      this.node(item, { root: false, sequence: true, mapping: false, simpleKey: false });
    }
    this.popIndent();
  }

  private blockMapping(keys: string[], o: { [k: string]: Json }): void {
    this.pushIndent(false, false);
    for (const k of keys) {
      this.writeIndent();
      const key = scalarOf(k);
      const a = analyze(key.value);
      if (!a.multiline && utf8Length(key.value) <= 128) {
        this.scalar(key, { root: false, sequence: false, mapping: true, simpleKey: true }, a);
        this.indicator(':', false, false, false);
      } else {
        this.indicator('?', true, false, true);
        this.scalar(key, { root: false, sequence: false, mapping: true, simpleKey: false }, a);
        this.writeIndent();
        this.indicator(':', true, false, true);
      }
      this.node(o[k]!, { root: false, sequence: false, mapping: true, simpleKey: false });
    }
    this.popIndent();
  }

  private emptyFlow(open: string, close: string): void {
    this.indicator(open, true, true, false);
    this.pushIndent(true, false);
    this.popIndent();
    this.indicator(close, false, false, false);
  }

  /** `a`: the text's analysis, when the caller already made it (a key's, for the simple-key check). */
  private scalar(s: { value: string; style: Style }, ctx: Context, a: Analysis = analyze(s.value)): void {
    let style = s.style;
    if (ctx.simpleKey && a.multiline) style = 'double';
    if (style === 'plain') {
      if ((this.flowLevel > 0 && !a.flowPlain) || (this.flowLevel === 0 && !a.blockPlain)) style = 'single';
      if (s.value === '' && (this.flowLevel > 0 || ctx.simpleKey)) style = 'single';
    }
    if (style === 'single' && !a.singleQuoted) style = 'double';
    if (style === 'literal' && (!a.block || this.flowLevel > 0 || ctx.simpleKey)) style = 'double';
    this.pushIndent(true, false);
    const breaks = !ctx.simpleKey;
    if (style === 'plain') this.plain(s.value, breaks);
    else if (style === 'single') this.singleQuoted(s.value, breaks);
    else if (style === 'double') this.doubleQuoted(s.value, breaks);
    else this.literal(s.value);
    this.popIndent();
  }

  // ---- writing ----

  private put(text: string): void {
    this.out += text;
    this.column += [...text].length;
  }

  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }

  /** A line break inside a scalar: `\n` as such, the other breaks (NEL, LS, PS) as their own character. */
  private writeBreak(ch: string): void {
    this.out += ch;
    this.column = 0;
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private indicator(text: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(text);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private plain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    this.foldable(value, allowBreaks, false);
    this.whitespace = false;
    this.indention = false;
  }

  private singleQuoted(value: string, allowBreaks: boolean): void {
    this.indicator("'", true, false, false);
    this.foldable(value, allowBreaks, true);
    this.indicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /**
   * A plain or single-quoted scalar's text: past column 80 the first space of a run (not the
   * text's first or last character) becomes a line break; a line break is written twice (YAML
   * folds one); within quotes, a quote is doubled.
   */
  private foldable(value: string, allowBreaks: boolean, quoted: boolean): void {
    const cs = [...value];
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      if (c === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cs.length - 1 && cs[i + 1] !== ' ') this.writeIndent();
        else this.put(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === '\n') this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(quoted && c === "'" ? "''" : c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
  }

  private doubleQuoted(value: string, allowBreaks: boolean): void {
    this.indicator('"', true, false, false);
    const cs = [...value];
    // libyaml's BOM check looks at the string's first character whichever character it is at.
    const startsWithBom = cs[0] === '\ufeff';
    let spaces = false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      if (!isPrintable(c) || startsWithBom || isBreak(c) || c === '"' || c === '\\') {
        this.put(`\\${escapeOf(c.codePointAt(0)!)}`);
        spaces = false;
      } else if (c === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cs.length - 1) {
          this.writeIndent();
          if (cs[i + 1] === ' ') this.put('\\');
        } else this.put(c);
        spaces = true;
      } else {
        this.put(c);
        spaces = false;
      }
    }
    this.indicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private literal(value: string): void {
    this.indicator('|', true, false, false);
    const cs = [...value];
    if (cs[0] === ' ' || (cs[0] !== undefined && isBreak(cs[0]))) this.indicator(String(BEST_INDENT), false, false, false);
    // chomping: `-` without a final line break, `+` with more than one, none (clip) with one
    const last = cs.at(-1);
    let chomp = '';
    if (last === undefined || !isBreak(last)) chomp = '-';
    else if (cs.length === 1 || isBreak(cs.at(-2)!)) chomp = '+';
    if (chomp) this.indicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of cs) {
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(c);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

// ---- scalars ----

/** The text and the style go-yaml's encoder asks for (the emitter may still choose another). */
function scalarOf(v: null | boolean | number | string): { value: string; style: Style } {
  if (v === null) return { value: 'null', style: 'plain' };
  if (typeof v === 'boolean') return { value: String(v), style: 'plain' };
  // An integer in int64 or uint64 range is an int to go-yaml (Go's JSON wrote its digits); beyond, a float.
  if (typeof v === 'number') return { value: Number.isInteger(v) && v >= -(2 ** 63) && v < 2 ** 64 ? BigInt(v).toString() : goFormatFloat(v), style: 'plain' };
  if (v.includes('\n')) return { value: v, style: 'literal' };
  return { value: v, style: resolvesToString(v) && !isBase60Float(v) ? 'plain' : 'double' };
}

const BOOL_OR_NULL = new Set(
  ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']
    .concat(['', '~', 'null', 'Null', 'NULL', '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '<<']),
);
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** go-yaml's resolve: whether the text, unquoted, reads back as a string (not a bool, null, number or timestamp). */
function resolvesToString(s: string): boolean {
  const hint = s === '' ? 'N' : hintOf(s[0]!);
  if (!hint) return true;
  if (BOOL_OR_NULL.has(s)) return false;
  if (hint === 'M') return true;
  if (hint === '.') return !goParseFloatOk(s);
  if (isGoTimestamp(s)) return false;
  const plain = s.replaceAll('_', '');
  if (goParseIntOk(plain)) return false;
  if (YAML_STYLE_FLOAT.test(plain) && goParseFloatOk(plain)) return false;
  if (plain.startsWith('0b') && /^[01]+$/.test(plain.slice(2))) return false;
  if (plain.startsWith('-0b') && /^[01]+$/.test(plain.slice(3))) return false;
  return true;
}

function hintOf(c: string): string | undefined {
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return undefined;
}

/** strconv.ParseInt(s, 0, 64) or ParseUint(s, 0, 64) succeeds (underscores already removed): a sign, then 0x, 0o, 0b, a leading 0 (octal) or decimal digits, in range. */
function goParseIntOk(s: string): boolean {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return false;
  const body = m[2]!;
  const n = /^0[xXoObB]/.test(body) ? BigInt(body.toLowerCase()) : body.length > 1 && body.startsWith('0') ? BigInt(`0o${body.slice(1)}`) : BigInt(body);
  const v = m[1] === '-' ? -n : n;
  return v >= -(2n ** 63n) && v <= 2n ** 64n - 1n;
}

/** strconv.ParseFloat(s, 64) succeeds: Go's float syntax (decimal or hex mantissa, inf, nan, underscores only after a base prefix). Out of range is an error. */
function goParseFloatOk(s: string): boolean {
  if (/^[+-]?(inf|infinity|nan)$/i.test(s)) return true;
  if (/^[+-]?0[xX]/.test(s)) return /^[+-]?0[xX](_?[0-9a-fA-F])*(\.[0-9a-fA-F_]*)?[pP][+-]?[0-9_]+$/.test(s);
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(s)) return false;
  return Number.isFinite(Number(s));
}

const TIMESTAMP_LAYOUTS = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})([.,]\d+)?(Z|[+-]\d{2}:\d{2})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})([.,]\d+)?()$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2})()()()()()$/,
];

/** go-yaml's parseTimestamp: four digits, a dash, then one of its layouts, as time.Parse checks them (ranges included). */
function isGoTimestamp(s: string): boolean {
  for (const layout of TIMESTAMP_LAYOUTS) {
    const m = layout.exec(s);
    if (!m) continue;
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) continue;
    if (m[4] !== '' && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59)) continue;
    const zone = m[8] ?? '';
    if (zone.length === 6 && (Number(zone.slice(1, 3)) > 24 || Number(zone.slice(4)) > 60)) continue;
    return true;
  }
  return false;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isBase60Float(s: string): boolean {
  return /^[-+0-9]/.test(s) && s.includes(':') && BASE60_FLOAT.test(s);
}

// ---- characters, as libyaml classifies them ----

function isBreak(c: string): boolean {
  return c === '\r' || c === '\n' || c === '\u0085' || c === '\u2028' || c === '\u2029';
}

/** libyaml's printable set: LF, ASCII graphics and space, U+00A0–U+D7FF, U+E000–U+FFFD but the BOM; nothing beyond U+FFFF. */
function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0)!;
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
}

const NAMED_ESCAPES: Readonly<Record<number, string>> = { 0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', 0x1b: 'e', 0x22: '"', 0x5c: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P' };

function escapeOf(cp: number): string {
  const named = NAMED_ESCAPES[cp];
  if (named !== undefined) return named;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return `x${hex.padStart(2, '0')}`;
  if (cp <= 0xffff) return `u${hex.padStart(4, '0')}`;
  return `U${hex.padStart(8, '0')}`;
}

const utf8 = new TextEncoder();
function utf8Length(s: string): number {
  return utf8.encode(s).length;
}

/** libyaml's yaml_emitter_analyze_scalar: which styles can carry the text. */
function analyze(value: string): Analysis {
  if (value === '') return { multiline: false, flowPlain: false, blockPlain: true, singleQuoted: true, block: false };
  const cs = [...value];
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let precededByWhitespace = true;
  if (value.startsWith('---') || value.startsWith('...')) {
    blockIndicators = true;
    flowIndicators = true;
  }
  const blank = (c: string | undefined) => c === ' ' || c === '\t';
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i]!;
    const followedByWhitespace = i + 1 >= cs.length || blank(cs[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) {
        flowIndicators = true;
        blockIndicators = true;
      } else if (c === '?' || c === ':') {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      } else if (c === '-' && followedByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else if (',?[]{}'.includes(c)) {
      flowIndicators = true;
    } else if (c === ':') {
      flowIndicators = true;
      if (followedByWhitespace) blockIndicators = true;
    } else if (c === '#' && precededByWhitespace) {
      flowIndicators = true;
      blockIndicators = true;
    }
    if (!isPrintable(c)) special = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === cs.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cs.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = blank(c) || isBreak(c) || c === '\0';
  }
  const a: Analysis = { multiline: lineBreaks, flowPlain: true, blockPlain: true, singleQuoted: true, block: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.flowPlain = a.blockPlain = false;
  if (trailingSpace) a.block = false;
  if (breakSpace) a.flowPlain = a.blockPlain = a.singleQuoted = false;
  if (spaceBreak || special) a.flowPlain = a.blockPlain = a.singleQuoted = a.block = false;
  if (lineBreaks) a.flowPlain = a.blockPlain = false;
  if (flowIndicators) a.flowPlain = false;
  if (blockIndicators) a.blockPlain = false;
  return a;
}

// ---- key order ----

const isLetter = (c: string) => /\p{L}/u.test(c);
const isDigit = (c: string) => /\p{Nd}/u.test(c);

/** go-yaml's sorter for string keys: letters by code point, a letter after anything else, digit runs as numbers. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    // int64 arithmetic, wrapping as Go's does
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = BigInt.asIntN(64, an * 10n + BigInt(ar[ai]!.codePointAt(0)! - 48));
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = BigInt.asIntN(64, bn * 10n + BigInt(br[bi]!.codePointAt(0)! - 48));
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
  }
  return ar.length < br.length;
}

function keyCompare(a: string, b: string): number {
  return goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0;
}
