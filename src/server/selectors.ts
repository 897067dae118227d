// Label and field selectors as the API server parses and applies them
// (k8s.io/apimachinery/pkg/labels/selector.go, pkg/fields/selector.go, and the per-resource
// selectable fields of pkg/registry/core/*/strategy.go with their conversion funcs).
import type { Kind } from '../engine/store.js';

export class SelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }
}

export type Requirement =
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: '=' | '==' | '!='; values: [string] }
  | { key: string; op: 'exists' | '!' ; values: [] };

export type LabelSelector = Requirement[];

const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Splits at top-level commas (not inside parentheses). */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function checkKey(key: string): void {
  if (!key || key.length > 317 || !LABEL_KEY.test(key)) {
    throw new SelectorError(`unable to parse requirement: values[0][${key}]: Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`);
  }
}

function checkValue(v: string): void {
  if (v.length > 63 || !LABEL_VALUE.test(v)) {
    throw new SelectorError(`unable to parse requirement: values[0][${v}]: Invalid value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`);
  }
}

/** Parses `a=b,c!=d,e in (x,y),f notin (z),g,!h`. */
export function parseLabelSelector(s: string): LabelSelector {
  const out: Requirement[] = [];
  if (!s.trim()) return out;
  for (const raw of splitTop(s)) {
    const part = raw.trim();
    if (!part) throw new SelectorError(`found '', expected: identifier`);
    let m = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(part);
    if (m) {
      checkKey(m[1]!);
      const values = m[3]!.split(',').map((v) => v.trim());
      values.forEach(checkValue);
      out.push({ key: m[1]!, op: m[2] as 'in' | 'notin', values });
      continue;
    }
    m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (m) {
      checkKey(m[1]!);
      checkValue(m[3]!.trim());
      out.push({ key: m[1]!, op: m[2] as '=' | '==' | '!=', values: [m[3]!.trim()] });
      continue;
    }
    m = /^!\s*(\S+)$/.exec(part);
    if (m) {
      checkKey(m[1]!);
      out.push({ key: m[1]!, op: '!', values: [] });
      continue;
    }
    if (/^\S+$/.test(part) && !/[<>]/.test(part)) {
      checkKey(part);
      out.push({ key: part, op: 'exists', values: [] });
      continue;
    }
    throw new SelectorError(`unable to parse requirement: found '${part}', expected: in, notin, =, ==, !=, gt, lt`);
  }
  return out;
}

export function matchesLabels(sel: LabelSelector, labels: Record<string, string>): boolean {
  return sel.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    const v = labels[r.key];
    switch (r.op) {
      case '=':
      case '==':
        return has && v === r.values[0];
      case '!=':
        return !has || v !== r.values[0];
      case 'in':
        return has && r.values.includes(v!);
      case 'notin':
        return !has || !r.values.includes(v!);
      case 'exists':
        return has;
      case '!':
        return !has;
    }
  });
}

export type FieldSelector = { field: string; op: '=' | '!='; value: string }[];

type FieldGetter = (o: Record<string, any>) => string; // eslint-disable-line @typescript-eslint/no-explicit-any

const meta: Record<string, FieldGetter> = {
  'metadata.name': (o) => o.metadata?.name ?? '',
  'metadata.namespace': (o) => o.metadata?.namespace ?? '',
};

/** The selectable fields of each kind (the strategies' ToSelectableFields). */
const FIELDS: Partial<Record<Kind, Record<string, FieldGetter>>> = {
  Pod: {
    ...meta,
    'spec.nodeName': (o) => o.spec?.nodeName ?? '',
    'spec.restartPolicy': (o) => o.spec?.restartPolicy ?? '',
    'spec.schedulerName': (o) => o.spec?.schedulerName ?? '',
    'spec.serviceAccountName': (o) => o.spec?.serviceAccountName ?? '',
    'spec.hostNetwork': (o) => String(!!o.spec?.hostNetwork),
    'status.phase': (o) => o.status?.phase ?? '',
    'status.podIP': (o) => o.status?.podIP ?? '',
    'status.podIPs': (o) => o.status?.podIPs?.[0]?.ip ?? '',
    'status.nominatedNodeName': (o) => o.status?.nominatedNodeName ?? '',
  },
  Event: {
    ...meta,
    'involvedObject.kind': (o) => o.involvedObject?.kind ?? '',
    'involvedObject.namespace': (o) => o.involvedObject?.namespace ?? '',
    'involvedObject.name': (o) => o.involvedObject?.name ?? '',
    'involvedObject.uid': (o) => o.involvedObject?.uid ?? '',
    'involvedObject.apiVersion': (o) => o.involvedObject?.apiVersion ?? '',
    'involvedObject.resourceVersion': (o) => o.involvedObject?.resourceVersion ?? '',
    'involvedObject.fieldPath': (o) => o.involvedObject?.fieldPath ?? '',
    reason: (o) => o.reason ?? '',
    reportingComponent: (o) => o.reportingComponent ?? '',
    source: (o) => o.source?.component || o.reportingComponent || '',
    type: (o) => o.type ?? '',
  },
  ConfigMap: { ...meta },
  Secret: { ...meta, type: (o) => o.type ?? '' },
  Namespace: { 'metadata.name': meta['metadata.name']!, 'status.phase': (o) => o.status?.phase ?? '' },
  Node: { 'metadata.name': meta['metadata.name']!, 'spec.unschedulable': (o) => String(!!o.spec?.unschedulable) },
};

/** Parses `a=b,c!=d` (with `\,` `\=` escapes) and checks every field is selectable for the kind. */
export function parseFieldSelector(kind: Kind, s: string): FieldSelector {
  const out: FieldSelector = [];
  if (!s.trim()) return out;
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '\\' && i + 1 < s.length) {
      cur += ch + s[++i];
      continue;
    }
    if (ch === ',') {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  for (const p of parts) {
    const m = /^((?:[^=!\\]|\\.)+?)\s*(==|=|!=)\s*(.*)$/.exec(p.trim());
    if (!m) throw new SelectorError(`invalid selector: '${s}'; can't understand '${p}'`);
    const field = m[1]!;
    const getters = FIELDS[kind] ?? meta;
    if (!getters[field]) throw new SelectorError(`field label not supported: ${field}`);
    out.push({ field, op: m[2] === '!=' ? '!=' : '=', value: m[3]!.replace(/\\(.)/g, '$1') });
  }
  return out;
}

export function matchesFields(kind: Kind, sel: FieldSelector, obj: object): boolean {
  const getters = FIELDS[kind] ?? meta;
  return sel.every((r) => {
    const v = getters[r.field]!(obj as Record<string, unknown>);
    return r.op === '=' ? v === r.value : v !== r.value;
  });
}
