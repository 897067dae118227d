// Go's text for values the kubelet and the API server print: strconv.Quote (`%q`),
// time.Duration.String, a float64 as `%v` prints it and a URL path as net/url escapes it. A leaf module: the validator, the engine and its rooms share it. Pure.

const lowerHex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/**
 * Go's strconv.Quote (what `%q` prints for a string): `"` and `\` escaped, \a \b \f \n \r \t \v,
 * other control characters as \xNN, non-printable runes as \uNNNN or \UNNNNNNNN, printable
 * Unicode kept as is. A lone surrogate (which JSON decoding in Go turns into U+FFFD) is U+FFFD.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let r = ch.codePointAt(0)!;
    if (r >= 0xd800 && r <= 0xdfff) r = 0xfffd;
    if (r === 0x22 || r === 0x5c) {
      out += `\\${String.fromCodePoint(r)}`;
      continue;
    }
    if (printable.test(String.fromCodePoint(r))) {
      out += String.fromCodePoint(r);
      continue;
    }
    switch (r) {
      case 0x07:
        out += '\\a';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x0b:
        out += '\\v';
        break;
      default:
        if (r < 0x20 || r === 0x7f) out += `\\x${lowerHex(r, 2)}`;
        else if (r < 0x10000) out += `\\u${lowerHex(r, 4)}`;
        else out += `\\U${lowerHex(r, 8)}`;
    }
  }
  return `${out}"`;
}

/** time.Duration.String for a whole number of milliseconds: `1s`, `200ms`, `1.5s`, `2m0s`, `1h0m0s`. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  if (rest < 1000) return `${neg ? '-' : ''}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const whole = Math.floor(rest / 1000);
  const frac = rest % 1000;
  const s = frac ? `${whole}.${String(frac).padStart(3, '0').replace(/0+$/, '')}` : String(whole);
  const out = h ? `${h}h${m}m${s}s` : m ? `${m}m${s}s` : `${s}s`;
  return neg ? `-${out}` : out;
}

const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * time.ParseDuration, in milliseconds: a sequence of decimal numbers each with a unit (`1.5s`,
 * `2m30s`, `300ms`); "0" alone is allowed. Returns an error text in Go's wording when invalid.
 */
export function parseGoDuration(text: string): number | { error: string } {
  const bad = { error: `time: invalid duration ${goQuote(text)}` };
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return bad;
  let total = 0;
  while (s !== '') {
    const m = /^([0-9]*(?:\.[0-9]*)?)([a-zµ]*)/.exec(s);
    if (!m || m[1] === '' || m[1] === '.') return bad;
    if (m[2] === '') return { error: `time: missing unit in duration ${goQuote(text)}` };
    const unit = DURATION_UNITS[m[2]!];
    if (unit === undefined) return { error: `time: unknown unit ${goQuote(m[2]!)} in duration ${goQuote(text)}` };
    total += Number(m[1]) * unit;
    s = s.slice(m[0].length);
  }
  return sign * total;
}

/** The time package's own quote (its parse errors): ASCII kept (with `"` and `\` escaped), other bytes as \xNN. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of Buffer.from(ch)) out += `\\x${lowerHex(b, 2)}`;
    } else out += c === 0x22 || c === 0x5c ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

const RFC3339 = '2006-01-02T15:04:05Z07:00';
const isDigitAt = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;
const daysIn = (month: number, year: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * time.Parse(time.RFC3339, text), in milliseconds since the epoch, or Go's error text (`parsing
 * time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`, `...: month out of range`,
 * `...: extra text: "..."`). Walks the layout's elements as Go's parser does: a four-digit year,
 * two-digit month, day, minute and second, a one- or two-digit hour, an optional fraction after the
 * seconds, then `Z` or `±hh:mm`.
 */
export function parseGoRfc3339(text: string): number | { error: string } {
  const cannot = (rest: string, elem: string) => ({ error: `parsing time ${timeQuote(text)} as ${timeQuote(RFC3339)}: cannot parse ${timeQuote(rest)} as ${timeQuote(elem)}` });
  const message = (msg: string) => ({ error: `parsing time ${timeQuote(text)}${msg}` });
  let v = text;
  const literal = (lit: string) => {
    if (!v.startsWith(lit)) return false;
    v = v.slice(lit.length);
    return true;
  };
  /** Go's getnum: one digit, or two; `fixed` wants two. */
  const num = (fixed: boolean): number | undefined => {
    if (!isDigitAt(v, 0)) return undefined;
    if (!isDigitAt(v, 1)) {
      if (fixed) return undefined;
      const n = Number(v[0]);
      v = v.slice(1);
      return n;
    }
    const n = Number(v.slice(0, 2));
    v = v.slice(2);
    return n;
  };
  if (v.length < 4 || !/^\d{4}/.test(v)) return cannot(v, '2006');
  const year = Number(v.slice(0, 4));
  v = v.slice(4);
  const fields: [string, string, boolean, number, string | undefined][] = [
    ['-', '01', true, 13, 'month'],
    ['-', '02', true, Infinity, undefined],
    ['T', '15', false, 24, 'hour'],
    [':', '04', true, 60, 'minute'],
    [':', '05', true, 60, 'second'],
  ];
  const got: number[] = [];
  for (const [lit, elem, fixed, limit, range] of fields) {
    if (!literal(lit)) return cannot(v, lit);
    const hold = v;
    const n = num(fixed);
    if (n === undefined) return cannot(hold, elem);
    if (range && (n >= limit || (range === 'month' && n === 0))) return { error: `parsing time ${timeQuote(text)}: ${range} out of range` };
    got.push(n);
  }
  const [month, day, hour, minute, second] = got as [number, number, number, number, number];
  let fracMs = 0;
  if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigitAt(v, 1)) {
    let n = 2;
    while (isDigitAt(v, n)) n++;
    fracMs = Number(`0.${v.slice(1, n)}`) * 1000;
    v = v.slice(n);
  }
  let offsetMin = 0;
  if (v.startsWith('Z')) v = v.slice(1);
  else {
    const hold = v;
    if (v.length < 6 || v[3] !== ':' || !/^[+-]\d\d:\d\d/.test(v)) return cannot(hold, 'Z07:00');
    const hh = Number(v.slice(1, 3));
    const mm = Number(v.slice(4, 6));
    if (hh > 24) return message(': time zone offset hour out of range');
    if (mm > 60) return message(': time zone offset minute out of range');
    offsetMin = (v[0] === '-' ? -1 : 1) * (hh * 60 + mm);
    v = v.slice(6);
  }
  if (v !== '') return message(`: extra text: ${timeQuote(v)}`);
  if (day < 1 || day > daysIn(month, year)) return message(': day out of range');
  return Date.UTC(year, month - 1, day, hour, minute, second) + Math.floor(fracMs) - offsetMin * 60_000;
}

/**
 * strconv.ParseInt(text, base, 64) for base 10 (the API server's query parameters) or 0 (pflag's
 * int64 flags: `0x`, `0o`, `0b` and a leading `0` pick the base, `_` may separate digits), or Go's
 * error text (`strconv.ParseInt: parsing "x": invalid syntax`, `...: value out of range`).
 */
export function goParseInt(text: string, base: 0 | 10): number | { error: string } {
  const fail = (why: string) => ({ error: `strconv.ParseInt: parsing ${goQuote(text)}: ${why}` });
  const m = /^([+-]?)(.*)$/s.exec(text)!;
  let digits = m[2]!;
  let radix = 10;
  let prefixed = false;
  if (base === 0) {
    const p = /^0([xXoObB])/.exec(digits);
    if (p) {
      radix = { x: 16, o: 8, b: 2 }[p[1]!.toLowerCase() as 'x' | 'o' | 'b'];
      digits = digits.slice(2);
      prefixed = true;
    } else if (/^0./.test(digits)) {
      radix = 8;
      digits = digits.slice(1);
      prefixed = true;
    }
    // underscores only between digits (or after the base prefix), and only when base is 0
    if (digits.includes('_')) {
      if (/__|_$/.test(digits) || (digits.startsWith('_') && !prefixed)) return fail('invalid syntax');
      digits = digits.replace(/_/g, '');
    }
  }
  const valid = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ }[radix as 2 | 8 | 10 | 16];
  if (!valid.test(digits) && !(prefixed && radix === 8 && digits === '')) return fail('invalid syntax');
  const big = digits === '' ? 0n : BigInt(radix === 10 ? digits : `0${{ 2: 'b', 8: 'o', 16: 'x' }[radix as 2 | 8 | 16]}${digits}`);
  const value = m[1] === '-' ? -big : big;
  if (value > 9223372036854775807n || value < -9223372036854775808n) return fail('value out of range');
  return Number(value);
}

/** A value with every object's keys sorted at every depth (undefined values left out), as Go's encoding/json writes maps. */
export function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .filter((k) => o[k] !== undefined)
        .map((k) => [k, sortKeysDeep(o[k])]),
    );
  }
  return v;
}

/**
 * Go's json.Marshal (json.MarshalIndent with `indent`) of a map-shaped value: keys sorted, and <, >,
 * &, U+2028, U+2029 escaped as \u003c and so on (its HTML escaping).
 */
export function goJsonMarshal(v: unknown, indent?: number): string {
  return JSON.stringify(sortKeysDeep(v), null, indent).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A URL path as Go's net/url escapes it (URL.EscapedPath): letters, digits, `-_.~` and
 * `$&+,/:;=@` as they are, every other byte of the UTF-8 text as %XX (upper-case hex); `?` too.
 */
export function goEscapePath(path: string): string {
  // net/url's Issue 11202: a path of exactly `*` stays as it is
  if (path === '*') return '*';
  let out = '';
  for (const byte of new TextEncoder().encode(path)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~$&+,/:;=@]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Go's strconv.FormatFloat(f, 'g', -1, 64), which `%v` prints for a float64: the shortest digits
 * that read back to f, in %e form when the exponent is below -4 or at least 6 (`1e+06`,
 * `1.234567e+06`, `1e-05`), else plainly (`30.5`, `123456.7`, `0.0001`).
 */
export function goFormatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, exp] = f.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  const neg = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  let text: string;
  if (e < 0) text = `0.${'0'.repeat(-e - 1)}${digits}`;
  else if (digits.length <= e + 1) text = digits + '0'.repeat(e + 1 - digits.length);
  else text = `${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
  return neg ? `-${text}` : text;
}
