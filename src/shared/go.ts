// Go's text for values the kubelet and the API server print: strconv.Quote (`%q`) and
// time.Duration.String. A leaf module: the validator, the engine and its rooms share it. Pure.

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
