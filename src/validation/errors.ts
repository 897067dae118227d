// field.Error rendering as k8s.io/apimachinery/pkg/util/validation/field renders it.
export type ProblemType =
  | 'Invalid value'
  | 'Required value'
  | 'Duplicate value'
  | 'Unsupported value'
  | 'Forbidden'
  | 'Too long'
  | 'Too many'
  | 'Not found'
  | 'Unknown field'
  | 'Type mismatch'
  | 'YAML syntax'
  | 'Internal error'
  /** Pod Lab's own warning: a field the lab cannot honour (never an API server finding) */
  | 'Lab warning'
  /** Pod Lab's editor hint: information on a valid field that often surprises (never an API server finding) */
  | 'Lab hint';

/** A key the YAML writes twice (found while decoding: a strict-decoding problem, as an unknown field is). */
export const isDuplicateField = (p: { type: ProblemType; detail: string }): boolean => p.type === 'YAML syntax' && p.detail.startsWith('duplicate field ');

/** What strict decoding refuses and lenient decoding drops: an unknown field, a key written twice. */
export const isStrictOnly = (p: { type: ProblemType; detail: string }): boolean => p.type === 'Unknown field' || isDuplicateField(p);

/**
 * Who reports a finding: absent for the API server's validation (and decoding) findings;
 * `admission` for the admission chain's refusal (a 403 before validation); `podlab` for the lab's own.
 */
export type ProblemSource = 'podlab' | 'admission';

/** A validation finding before it is placed in the text. `loc` is the path used to find the node when `field` is not indexed. */
export interface FieldErr {
  type: ProblemType;
  field: string;
  detail: string;
  severity: 'error' | 'warning';
  loc?: string;
  /** which part of the located node to point at */
  at?: 'key' | 'value';
  /** for quick fixes: the offending value, when there is one */
  value?: unknown;
  /** for Unsupported value: the valid values */
  valid?: string[];
  /** absolute [start, end) when the finding already knows its node (decode-time errors) */
  range?: [number, number];
  /** 'podlab' for the lab's own warnings */
  source?: ProblemSource;
}

import { goQuote } from '../shared/go.js';
export { goQuote };

/** How field.Error shows a bad value: numbers/bools bare, strings quoted, the rest as JSON. */
export function renderValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  try {
    return JSON.stringify(v) ?? 'null';
  } catch {
    return 'null';
  }
}

type Opt = { loc?: string; at?: 'key' | 'value'; warning?: boolean };
function mk(type: ProblemType, field: string, detail: string, o?: Opt, value?: unknown): FieldErr {
  const e: FieldErr = { type, field, detail, severity: o?.warning ? 'warning' : 'error' };
  if (o?.loc !== undefined) e.loc = o.loc;
  if (o?.at !== undefined) e.at = o.at;
  if (value !== undefined) e.value = value;
  return e;
}

export const F = {
  required: (field: string, detail = '', o?: Opt) => mk('Required value', field, detail, o),
  invalid: (field: string, value: unknown, detail: string, o?: Opt) =>
    mk('Invalid value', field, detail ? `${renderValue(value)}: ${detail}` : renderValue(value), o, value),
  duplicate: (field: string, value: unknown, o?: Opt) => mk('Duplicate value', field, renderValue(value), o, value),
  notSupported: (field: string, value: unknown, valid: string[], o?: Opt) => {
    const e = mk(
      'Unsupported value',
      field,
      valid.length ? `${renderValue(value)}: supported values: ${valid.map(goQuote).join(', ')}` : renderValue(value),
      o,
      value,
    );
    e.valid = valid;
    return e;
  },
  forbidden: (field: string, detail: string, o?: Opt) => mk('Forbidden', field, detail, o),
  tooLong: (field: string, max: number, o?: Opt) =>
    mk('Too long', field, max < 0 ? 'value is too long' : `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`, o),
  tooMany: (field: string, n: number, max: number, o?: Opt) => mk('Too many', field, `${n}: must have at most ${max} items`, o),
  notFound: (field: string, value: unknown, detail = '', o?: Opt) =>
    mk('Not found', field, detail ? `${renderValue(value)}: ${detail}` : renderValue(value), o, value),
  /** an API server warning (plain text); rendered `<field>: <detail>` */
  warning: (field: string, detail: string, o?: Opt) => mk('Invalid value', field, detail, { ...o, warning: true }),
  /** a Pod Lab warning (plain text, `Pod Lab does not …`); rendered like an API server warning */
  lab: (field: string, detail: string, o?: Opt): FieldErr => ({ ...mk('Lab warning', field, detail, { ...o, warning: true }), source: 'podlab' }),
};

export function renderMessage(field: string, type: ProblemType, detail: string): string {
  const head = field ? `${field}: ${type}` : type;
  return detail ? `${head}: ${detail}` : head;
}

/** An API server warning as kubectl shows it after `Warning: `: `<field>: <detail>`. */
export function renderWarning(field: string, detail: string): string {
  return field ? `${field}: ${detail}` : detail;
}
