// Shared helpers for the validator's table tests: build a Pod as an object, serialise it as YAML the
// way a learner would write it, validate the text and compare findings as [field, type, detail].
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { validateText, type Problem } from '../../../src/validation/index.js';
import type { QuickFix } from '../../../src/validation/quickfixes.js';
import { Lines } from '../../../src/validation/documents.js';

export type Obj = Record<string, any>;
export type Finding = [field: string, type: string, detail: string];

export const basePod = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'lab' },
  spec: { containers: [{ name: 'app', image: 'busybox:1.35' }] },
});

/** The base pod with `mutate` applied (mutate edits in place). */
export function podWith(mutate: (p: Obj) => void): Obj {
  const p = basePod();
  mutate(p);
  return p;
}

export const yamlOf = (pod: Obj): string => stringify(pod, { version: '1.1' });

export function problemsOf(pod: Obj | string): Problem[] {
  return validateText(typeof pod === 'string' ? pod : yamlOf(pod)).problems;
}

export const findings = (ps: Problem[], severity: 'error' | 'warning' = 'error'): Finding[] =>
  ps.filter((p) => p.severity === severity).map((p) => [p.field, p.type, p.detail]);

export interface Case {
  name: string;
  mutate: (p: Obj) => void;
  errors: Finding[];
  warnings?: Finding[];
}

/** Runs a table of cases: the errors (and, when given, the warnings) must be exactly these, in order. */
export function runCases(cases: Case[]): void {
  for (const c of cases) {
    test(c.name, () => {
      const ps = problemsOf(podWith(c.mutate));
      assert.deepEqual(findings(ps), c.errors);
      if (c.warnings) assert.deepEqual(findings(ps, 'warning'), c.warnings);
      for (const p of ps) assert.equal(p.message, p.severity === 'warning' ? `${p.field}: ${p.detail}` : p.detail ? `${p.field}: ${p.type}: ${p.detail}` : `${p.field}: ${p.type}`);
    });
  }
}

export const DNS_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const DNS_SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const QUALIFIED_NAME = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
export const LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
export const PORT_RANGE = 'must be between 1 and 65535, inclusive';

// ---- quick fixes ------------------------------------------------------------------------------

/** A fix as the tests compare it: each edit as the line:column it starts at, the text it replaces and the new text. */
export type Fix = { title: string; preferred: boolean; edits: { at: string; old: string; newText: string }[]; inFile?: QuickFix['inFile'] };

export function readable(text: string, f: QuickFix): Fix {
  const lines = new Lines(text);
  const { title, isPreferred, edits, inFile, ...rest } = f;
  assert.deepEqual(rest, {}, 'a fix has only title, isPreferred, edits and inFile');
  return {
    title,
    preferred: isPreferred === true,
    ...(inFile ? { inFile } : {}),
    edits: edits.map((e) => {
      const p = lines.linePos(e.offset);
      return { at: `${p.line}:${p.col}`, old: text.slice(e.offset, e.endOffset), newText: e.newText };
    }),
  };
}

/** The text with the edits applied (last first, so earlier offsets stay valid). */
export const applyEdits = (text: string, edits: readonly { offset: number; endOffset: number; newText: string }[]): string =>
  [...edits].sort((a, b) => b.offset - a.offset).reduce((t, e) => t.slice(0, e.offset) + e.newText + t.slice(e.endOffset), text);
