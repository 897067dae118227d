// The API server's fast way through a JSON request body (validateBody): a JSON object without a
// repeated key is decoded from JSON.parse's value, not through the YAML parser, and must give
// exactly what the YAML path gives for the same text, apart from the problems' places (which a
// request body does not need). Checked on the examples, the corpus and a thousand mutations of
// them (each document that is a mapping, as JSON), and on bodies that must take the YAML path.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { PARSE_OPTIONS } from '../../../src/validation/documents.js';
import { validateBody, validateText, type ValidationResult } from '../../../src/validation/index.js';
import { mutate, Rng, seeds } from './fuzz-cases.js';

/** A result without the problems' places in the text (nor the name's). */
function placeless(r: ValidationResult) {
  return r.documents.map(({ nameAt: _nameAt, ...d }) => ({
    ...d,
    offset: 0,
    endOffset: 0,
    problems: d.problems.map((p) => ({ severity: p.severity, field: p.field, type: p.type, detail: p.detail, message: p.message, source: p.source })),
  }));
}

/** Every document of a YAML text that is a mapping, as a JSON text. */
function jsonBodies(text: string): string[] {
  const out: string[] = [];
  for (const d of parseAllDocuments(text, PARSE_OPTIONS) as ReturnType<typeof parseAllDocuments> & unknown[]) {
    if (d.errors.length) continue;
    let v: unknown;
    try {
      v = d.toJS({ maxAliasCount: 100 });
    } catch {
      continue;
    }
    if (v && typeof v === 'object' && !Array.isArray(v)) out.push(JSON.stringify(v));
  }
  return out;
}

const bodies: string[] = [];
for (const s of seeds()) bodies.push(...jsonBodies(s));
const rng = new Rng(20261123);
const base = seeds();
for (let i = 0; i < 1000; i++) bodies.push(...jsonBodies(mutate(rng.pick(base), rng)));

describe('a JSON body gives what the YAML path gives for the same text', () => {
  test(`${bodies.length} bodies from the examples, the corpus and their mutations`, () => {
    let differing = 0;
    let first: { body: string; fast: unknown; yaml: unknown } | undefined;
    for (const body of bodies) {
      const fast = placeless(validateBody(body));
      const yaml = placeless(validateText(body));
      try {
        assert.deepEqual(fast, yaml);
      } catch {
        differing++;
        first ??= { body, fast, yaml };
      }
    }
    assert.deepEqual({ differing, first }, { differing: 0, first: undefined });
  });

  test('the same holds for a parsed value', () => {
    const body = bodies[0]!;
    assert.deepEqual(placeless(validateBody(JSON.parse(body) as object)), placeless(validateText(body)));
  });
});

test('a JSON body whose strings hold escaped quotes, colons and backslashes takes the fast way: its problems have no place', () => {
  const body = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","annotations":{"a":"\\\\\\":\\"b\\\\"}},"spec":{"containers":[{"name":"a","image":"busybox","imagePullPolcy":"Never"}]}}';
  const place = (r: ValidationResult) => r.problems.map((p) => `${p.field} ${p.line}:${p.column} ${p.offset}`);
  assert.equal((JSON.parse(body) as { metadata: { annotations: { a: string } } }).metadata.annotations.a, '\\":"b\\');
  assert.deepEqual({ fast: place(validateBody(body)), yaml: place(validateText(body)) }, { fast: ['spec.containers[0].imagePullPolcy 1:1 0'], yaml: ['spec.containers[0].imagePullPolcy 1:142 141'] });
});

describe('bodies the fast way cannot take go through the YAML path', () => {
  const cases: [string, string, string[]][] = [
    [
      'a repeated key (with an escaped quote before it) is reported as the duplicate field it is',
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","annotations":{"a":"say \\"hi\\" \\\\"}},"spec":{"containers":[{"name":"a","image":"busybox","image":"nginx"}]}}',
      ['error YAML syntax spec.containers[0].image: duplicate field "spec.containers[0].image"'],
    ],
    ['a YAML body', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: why\nspec:\n  containers:\n  - {name: a, image: busybox, imagePullPolcy: Never}\n', ['error Unknown field spec.containers[0].imagePullPolcy: unknown field "spec.containers[0].imagePullPolcy"']],
    ['a JSON syntax error', '{"apiVersion":"v1","kind":"Pod",', ['error YAML syntax : Flow map must end with a }']],
    ['a JSON array', '[1]', ['error Type mismatch : json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }']],
  ];
  for (const [name, body, expected] of cases) {
    test(name, () => {
      const r = validateBody(body);
      assert.deepEqual(
        r.problems.map((p) => `${p.severity} ${p.type} ${p.field}: ${p.detail}`),
        expected,
      );
      // the YAML path placed them in the text
      assert.deepEqual(placeless(r), placeless(validateText(body)));
    });
  }
});
