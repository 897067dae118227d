// resource.Quantity: parsing (with the decode-time error texts), comparison and canonical String().
// A parsed quantity is held as an exact integer number of nano-units (value * 1e9), rounded up like
// ParseQuantity does, plus the format its suffix implies.

export type QFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
export interface Quantity {
  nano: bigint;
  format: QFormat;
}

export const QUANTITY_FORMAT_ERR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_SUFFIX_ERR = "unable to parse quantity's suffix";
export const QUANTITY_NUMERIC_ERR = 'unable to parse numeric part of quantity';

const splitRe = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const BIN: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DEC: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

const pow10 = (n: number) => 10n ** BigInt(n);

/** Parse; returns the quantity or the upstream error text. */
export function parseQuantity(str: string): Quantity | string {
  if (str.length === 0) return QUANTITY_FORMAT_ERR;
  const m = splitRe.exec(str);
  if (!m) return QUANTITY_FORMAT_ERR;
  const num = m[1]!;
  const suffix = m[2]!;
  // numeric part: sign, digits, at most one dot, at least one digit
  const nm = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(num);
  if (!nm || (nm[2]!.length === 0 && (nm[3] ?? '').length === 0)) return QUANTITY_NUMERIC_ERR;
  let format: QFormat;
  let base10exp = 0;
  let base2exp = 0;
  if (suffix in BIN) {
    format = 'BinarySI';
    base2exp = BIN[suffix]!;
  } else if (suffix in DEC) {
    format = 'DecimalSI';
    base10exp = DEC[suffix]!;
  } else if (/^[eE][-+]?\d+$/.test(suffix)) {
    format = 'DecimalExponent';
    base10exp = Number(suffix.slice(1));
    if (!Number.isFinite(base10exp) || Math.abs(base10exp) > 1000) return QUANTITY_SUFFIX_ERR;
  } else return QUANTITY_SUFFIX_ERR;
  const neg = nm[1] === '-';
  const intPart = nm[2] || '0';
  const frac = nm[3] ?? '';
  // value = (int.frac) * 10^base10exp * 2^base2exp ; nano = value * 1e9, rounded up (away from zero)
  let numer = BigInt(intPart + frac) * 2n ** BigInt(base2exp);
  let exp10 = base10exp + 9 - frac.length;
  let nano: bigint;
  if (exp10 >= 0) nano = numer * pow10(exp10);
  else {
    const d = pow10(-exp10);
    nano = numer / d;
    if (numer % d !== 0n) nano += 1n;
  }
  numer = 0n;
  return { nano: neg ? -nano : nano, format };
}

export function cmpQ(a: Quantity, b: Quantity): number {
  return a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0;
}

/** Quantity.RoundUp(-3): round up to milli precision (away from zero). */
export function roundUpMilli(q: Quantity): Quantity {
  const r = q.nano % 1000000n;
  if (r === 0n) return q;
  return { nano: q.nano - r + (q.nano > 0n ? 1000000n : -1000000n), format: q.format };
}

const DEC_SUFFIX: [number, string][] = [
  [18, 'E'], [15, 'P'], [12, 'T'], [9, 'G'], [6, 'M'], [3, 'k'], [0, ''], [-3, 'm'], [-6, 'u'], [-9, 'n'],
];
const BIN_SUFFIX: [bigint, string][] = [
  [1n << 60n, 'Ei'], [1n << 50n, 'Pi'], [1n << 40n, 'Ti'], [1n << 30n, 'Gi'], [1n << 20n, 'Mi'], [1n << 10n, 'Ki'],
];

/** Canonical String() of a quantity. */
export function formatQuantity(q: Quantity): string {
  if (q.nano === 0n) return '0';
  const neg = q.nano < 0n;
  const abs = neg ? -q.nano : q.nano;
  const sign = neg ? '-' : '';
  let format = q.format;
  if (format === 'BinarySI') {
    const one = 1000000000n;
    if (abs < 1024n * one || abs % one !== 0n) format = 'DecimalSI';
    else {
      const v = abs / one;
      for (const [mult, suf] of BIN_SUFFIX) if (v % mult === 0n) return `${sign}${v / mult}${suf}`;
      return `${sign}${v}`;
    }
  }
  // largest exponent (multiple of 3) with an integer mantissa
  if (format === 'DecimalExponent') {
    let e = -9;
    let m = abs;
    while (m % 1000n === 0n) {
      m /= 1000n;
      e += 3;
    }
    return `${sign}${m}${e === 0 ? '' : 'e' + e}`;
  }
  for (const [e, suf] of DEC_SUFFIX) {
    const d = pow10(e + 9);
    if (abs % d === 0n) return `${sign}${abs / d}${suf}`;
  }
  return `${sign}${abs}n`;
}

export const isInteger = (q: Quantity) => q.nano % 1000000000n === 0n;
export const isMilliInteger = (q: Quantity) => q.nano % 1000000n === 0n;
