// Go's decoders where their exact error text reaches the user: encoding/base64 StdEncoding (how the
// API server's JSON decoder reads a []byte field such as Secret.data or ConfigMap.binaryData),
// encoding/json's scanner plus Unmarshal into map[string]interface{} (how ValidateSecret checks a
// .dockercfg / .dockerconfigjson payload), and encoding/pem (the first step of crypto/tls
// X509KeyPair, behind the API server's warning for a kubernetes.io/tls Secret). Upstream:
// src/encoding/base64/base64.go (decodeQuantum), src/encoding/json/scanner.go, decode.go,
// src/encoding/pem/pem.go (Decode). Pure.

const PAD = 0x3d; // '='
const isNewline = (c: number) => c === 0x0a || c === 0x0d;

const DECODE_MAP = new Uint8Array(256).fill(0xff);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((ch, i) => (DECODE_MAP[ch.charCodeAt(0)] = i));

export type Base64Result = { bytes: Uint8Array } | { error: string };

/**
 * base64.StdEncoding.Decode: padded alphabet, `\r` and `\n` skipped anywhere; the first problem is
 * `illegal base64 data at input byte N` (N counts bytes of the UTF-8 input, as Go does).
 */
export function goBase64Decode(text: string): Base64Result {
  const src = Buffer.from(text, 'utf8');
  const n = src.length;
  const out: number[] = [];
  const fail = (at: number): Base64Result => ({ error: `illegal base64 data at input byte ${at}` });
  let si = 0;
  while (si < n) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let trailing: number | undefined;
    for (let j = 0; j < 4; j++) {
      if (si === n) {
        if (j === 0) return { bytes: Uint8Array.from(out) };
        return fail(si - j);
      }
      const c = src[si]!;
      si++;
      const v = DECODE_MAP[c]!;
      if (v !== 0xff) {
        dbuf[j] = v;
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== PAD) return fail(si - 1);
      // padding: only after two or three data characters
      if (j === 0 || j === 1) return fail(si - 1);
      if (j === 2) {
        while (si < n && isNewline(src[si]!)) si++;
        if (si === n) return fail(n);
        if (src[si] !== PAD) return fail(si - 1);
        si++;
      }
      while (si < n && isNewline(src[si]!)) si++;
      if (si < n) trailing = si;
      dlen = j;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailing !== undefined) return fail(trailing);
  }
  return { bytes: Uint8Array.from(out) };
}

// ---- encoding/json ----------------------------------------------------------------------------

/** json's quoteChar: the offending byte as Go prints it in a SyntaxError. */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return '\'"\'';
  // strconv.Quote(string(rune(c))) without its double quotes
  switch (c) {
    case 0x07: return "'\\a'";
    case 0x08: return "'\\b'";
    case 0x0c: return "'\\f'";
    case 0x0a: return "'\\n'";
    case 0x0d: return "'\\r'";
    case 0x09: return "'\\t'";
    case 0x0b: return "'\\v'";
    case 0x5c: return "'\\\\'";
  }
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // U+0080–U+00A0 and the soft hyphen are not printable for strconv.IsPrint
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

const enum PS {
  ObjectKey,
  ObjectValue,
  ArrayValue,
}
const MAX_NESTING = 10000;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

class SyntaxErr {
  constructor(readonly msg: string) {}
}

/** json.checkValid: the first syntax error of the input as Go words it, or undefined. */
export function goJSONSyntaxError(data: Uint8Array): string | undefined {
  const stack: PS[] = [];
  let endTop = false;
  type State = (c: number) => void;
  let step: State;
  const error = (c: number, context: string): never => {
    throw new SyntaxErr(`invalid character ${quoteChar(c)} ${context}`);
  };
  const push = (c: number, ps: PS) => {
    stack.push(ps);
    if (stack.length > MAX_NESTING) error(c, 'exceeded max depth');
  };
  const pop = () => {
    stack.pop();
    if (stack.length === 0) {
      step = endTopState;
      endTop = true;
    } else step = endValue;
  };
  const endTopState: State = (c) => {
    if (!isSpace(c)) error(c, 'after top-level value');
  };
  const endValue: State = (c) => {
    const n = stack.length;
    if (n === 0) {
      step = endTopState;
      endTop = true;
      endTopState(c);
      return;
    }
    if (isSpace(c)) {
      step = endValue;
      return;
    }
    switch (stack[n - 1]) {
      case PS.ObjectKey:
        if (c === 0x3a) {
          stack[n - 1] = PS.ObjectValue;
          step = beginValue;
          return;
        }
        return error(c, 'after object key');
      case PS.ObjectValue:
        if (c === 0x2c) {
          stack[n - 1] = PS.ObjectKey;
          step = beginString;
          return;
        }
        if (c === 0x7d) return pop();
        return error(c, 'after object key:value pair');
      default:
        if (c === 0x2c) {
          step = beginValue;
          return;
        }
        if (c === 0x5d) return pop();
        return error(c, 'after array element');
    }
  };
  const beginValueOrEmpty: State = (c) => {
    if (isSpace(c)) return;
    if (c === 0x5d) return endValue(c);
    beginValue(c);
  };
  const beginStringOrEmpty: State = (c) => {
    if (isSpace(c)) return;
    if (c === 0x7d) {
      stack[stack.length - 1] = PS.ObjectValue;
      return endValue(c);
    }
    beginString(c);
  };
  const beginString: State = (c) => {
    if (isSpace(c)) return;
    if (c === 0x22) {
      step = inString;
      return;
    }
    error(c, 'looking for beginning of object key string');
  };
  const inString: State = (c) => {
    if (c === 0x22) step = endValue;
    else if (c === 0x5c) step = inStringEsc;
    else if (c < 0x20) error(c, 'in string literal');
  };
  const inStringEsc: State = (c) => {
    if ([0x62, 0x66, 0x6e, 0x72, 0x74, 0x5c, 0x2f, 0x22].includes(c)) step = inString;
    else if (c === 0x75) step = hexEsc(4);
    else error(c, 'in string escape code');
  };
  const hexEsc = (left: number): State => (c) => {
    if (!isHex(c)) error(c, 'in \\u hexadecimal character escape');
    step = left === 1 ? inString : hexEsc(left - 1);
  };
  const neg: State = (c) => {
    if (c === 0x30) step = zero;
    else if (c >= 0x31 && c <= 0x39) step = one;
    else error(c, 'in numeric literal');
  };
  const one: State = (c) => {
    if (isDigit(c)) return;
    zero(c);
  };
  const zero: State = (c) => {
    if (c === 0x2e) step = dot;
    else if (c === 0x65 || c === 0x45) step = expo;
    else endValue(c);
  };
  const dot: State = (c) => {
    if (isDigit(c)) step = dot0;
    else error(c, 'after decimal point in numeric literal');
  };
  const dot0: State = (c) => {
    if (isDigit(c)) return;
    if (c === 0x65 || c === 0x45) step = expo;
    else endValue(c);
  };
  const expo: State = (c) => {
    if (c === 0x2b || c === 0x2d) step = expoSign;
    else expoSign(c);
  };
  const expoSign: State = (c) => {
    if (isDigit(c)) step = expo0;
    else error(c, 'in exponent of numeric literal');
  };
  const expo0: State = (c) => {
    if (isDigit(c)) return;
    endValue(c);
  };
  const literal = (word: string, at: number): State => (c) => {
    const want = word.charCodeAt(at);
    if (c !== want) error(c, `in literal ${word} (expecting '${word[at]}')`);
    step = at === word.length - 1 ? endValue : literal(word, at + 1);
  };
  const beginValue: State = (c) => {
    if (isSpace(c)) return;
    switch (c) {
      case 0x7b:
        step = beginStringOrEmpty;
        return push(c, PS.ObjectKey);
      case 0x5b:
        step = beginValueOrEmpty;
        return push(c, PS.ArrayValue);
      case 0x22:
        step = inString;
        return;
      case 0x2d:
        step = neg;
        return;
      case 0x30:
        step = zero;
        return;
      case 0x74:
        step = literal('true', 1);
        return;
      case 0x66:
        step = literal('false', 1);
        return;
      case 0x6e:
        step = literal('null', 1);
        return;
    }
    if (c >= 0x31 && c <= 0x39) {
      step = one;
      return;
    }
    error(c, 'looking for beginning of value');
  };
  step = beginValue;
  try {
    for (const c of data) step(c);
    // eof
    if (endTop) return undefined;
    step(0x20);
    if (endTop) return undefined;
    return 'unexpected end of JSON input';
  } catch (e) {
    if (e instanceof SyntaxErr) return e.msg;
    throw e;
  }
}

/** json.Unmarshal(data, &map[string]interface{}{}): its error text, or undefined when it succeeds. */
export function goJSONUnmarshalMapError(data: Uint8Array): string | undefined {
  const syntax = goJSONSyntaxError(data);
  if (syntax) return syntax;
  let i = 0;
  while (i < data.length && isSpace(data[i]!)) i++;
  const c = data[i];
  if (c === 0x7b || c === 0x6e) return undefined; // an object, or null (leaves the map nil)
  const kind = c === 0x5b ? 'array' : c === 0x22 ? 'string' : c === 0x74 || c === 0x66 ? 'bool' : 'number';
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

// ---- encoding/pem ------------------------------------------------------------------------------

export interface PemBlock {
  type: string;
  bytes: Uint8Array;
}

const PEM_START = '\n-----BEGIN ';
const PEM_END = '\n-----END ';
const PEM_EOL = '-----';

/** getLine: up to the first \n (its \r and trailing spaces/tabs trimmed), and the rest after it. */
function getLine(data: string): [string, string] {
  const i = data.indexOf('\n');
  if (i < 0) return [data.replace(/[ \t]+$/, ''), ''];
  const line = data.slice(0, i > 0 && data[i - 1] === '\r' ? i - 1 : i);
  return [line.replace(/[ \t]+$/, ''), data.slice(i + 1)];
}

/**
 * pem.Decode over a latin1 view of the bytes: the next PEM block and the rest, or undefined when
 * there is none (blocks with a broken end line or body are skipped, as Go does).
 */
export function goPemDecode(data: string): { block: PemBlock; rest: string } | undefined {
  let rest = data;
  for (;;) {
    if (rest.startsWith(PEM_START.slice(1))) rest = rest.slice(PEM_START.length - 1);
    else {
      const i = rest.indexOf(PEM_START);
      if (i < 0) return undefined;
      rest = rest.slice(i + PEM_START.length);
    }
    let typeLine: string;
    [typeLine, rest] = getLine(rest);
    if (!typeLine.endsWith(PEM_EOL)) continue;
    typeLine = typeLine.slice(0, -PEM_EOL.length);
    let headers = 0;
    let truncated = false;
    for (;;) {
      if (rest.length === 0) {
        truncated = true;
        break;
      }
      const [line, next] = getLine(rest);
      if (!line.includes(':')) break;
      headers++;
      rest = next;
    }
    if (truncated) return undefined;
    let endIndex: number;
    let endTrailerIndex: number;
    if (headers === 0 && rest.startsWith(PEM_END.slice(1))) {
      endIndex = 0;
      endTrailerIndex = PEM_END.length - 1;
    } else {
      endIndex = rest.indexOf(PEM_END);
      endTrailerIndex = endIndex + PEM_END.length;
    }
    if (endIndex < 0) continue;
    let endTrailer = rest.slice(endTrailerIndex);
    const trailerLen = typeLine.length + PEM_EOL.length;
    if (endTrailer.length < trailerLen) continue;
    const restOfEndLine = endTrailer.slice(trailerLen);
    endTrailer = endTrailer.slice(0, trailerLen);
    if (!endTrailer.startsWith(typeLine) || !endTrailer.endsWith(PEM_EOL)) continue;
    if (getLine(restOfEndLine)[0].length !== 0) continue;
    const body = goBase64Decode(rest.slice(0, endIndex).replace(/[ \t]/g, ''));
    if ('error' in body) continue;
    return { block: { type: typeLine, bytes: body.bytes }, rest: getLine(rest.slice(endIndex + PEM_END.length - 1))[1] };
  }
}
