// kubectl's JSONPath templates (src/shared/jsonpath.ts): what `kubectl get -o jsonpath=...` prints
// for a template over an object, or its error. The expectations follow client-go's jsonpath as
// kubectl 1.33 printed the same templates over a lab's pods; test/integration/cli.test.ts compares
// podlab with kubectl itself on a live lab.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { customColumnCells, executeJsonPath, goFloat, goSharpV, jsonPathError, parseCustomColumns, parseJsonPath, relaxedJsonPath } from '../../src/shared/jsonpath.js';

const list = {
  apiVersion: 'v1',
  kind: 'List',
  metadata: { resourceVersion: '' },
  items: [
    {
      kind: 'Pod',
      metadata: { name: 'web', labels: { app: 'web', tier: 'front' }, deletionTimestamp: null },
      spec: { terminationGracePeriodSeconds: 30, containers: [{ name: 'app', image: 'busybox:1.35', command: ['sh', '-c', 'sleep 1'], ports: [{ containerPort: 8080 }] }, { name: 'log', image: 'busybox:1.36' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'app', ready: true, restartCount: 2 }] },
    },
    { kind: 'Pod', metadata: { name: 'db' }, spec: { terminationGracePeriodSeconds: 5, containers: [{ name: 'db', image: 'busybox:1.35' }] }, status: { phase: 'Pending' } },
  ],
};

/** The template's output over `list`, or its error (parse errors prefixed `parse: `). */
function run(template: string, data: unknown = list): string {
  const t = parseJsonPath(template);
  if ('error' in t) return `parse: ${t.error}`;
  const r = executeJsonPath(t, data);
  return 'error' in r ? `error: ${r.error}` : r.text;
}

describe("kubectl's JSONPath templates over a List of pods (the whole output compared)", () => {
  const cases: [string, string, string][] = [
    ['a field of the first item', '{.items[0].metadata.name}', 'web'],
    ['a wildcard over the items: the values space-separated', '{.items[*].metadata.name}', 'web db'],
    ['text around an action, and $ and @ for the root', 'x{$.kind}y{@.apiVersion}', 'xListyv1'],
    ['range … end: the body once per item', '{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}', 'web\tRunning\ndb\tPending\n'],
    ['nested ranges', '{range .items[*]}{range .spec.containers[*]}{.name}{" "}{end}{"|"}{end}', 'app log |db |'],
    ['after a range, the template goes on', '{range .items[*]}{.metadata.name}{end}{.kind}', 'webdbList'],
    ['a range over nothing prints nothing of its body', '{range .items[9:9]}{.x}{end}done', 'done'],
    ['an object prints as compact JSON, keys sorted', '{.items[0].metadata.labels}', '{"app":"web","tier":"front"}'],
    ['an array prints as compact JSON', '{.items[0].spec.containers[0].command}', '["sh","-c","sleep 1"]'],
    ['an integer as Go prints an int64', '{.items[*].spec.terminationGracePeriodSeconds}', '30 5'],
    ['a null prints as null', '{.items[0].metadata.deletionTimestamp}', 'null'],
    ['a missing key prints nothing (missing keys are allowed)', '{.items[0].metadata.nope}{.items[1].status.conditions[0].type}', ''],
    ['a negative slice from the end', '{.items[-1:].metadata.name}', 'db'],
    ['a slice with a step', '{.items[::2].metadata.name}', 'web'],
    ['an index past the end', '{.items[5]}', 'error: array index out of bounds: index 5, length 2'],
    ['a slice past the end', '{.items[0:5].metadata.name}', 'error: array index out of bounds: index 4, length 2'],
    ['a start after the end', '{.items[1:0]}', 'error: starting index 1 is greater than ending index 0'],
    ['a step of 0', '{.items[0::0]}', 'error: step must be > 0'],
    ['an index on an object', '{.items[0].metadata[0]}', 'error: map[string]interface {} is not array or slice'],
    ['a filter by a string', '{.items[?(@.status.phase=="Pending")].metadata.name}', 'db'],
    ['a filter by an integer', '{.items[?(@.spec.terminationGracePeriodSeconds>10)].metadata.name}', 'web'],
    ['a float in the template does not compare with an int64', '{.items[?(@.spec.terminationGracePeriodSeconds==30.0)].metadata.name}', 'error: incompatible types for comparison'],
    ['a string does not compare with an int64', '{.items[?(@.spec.terminationGracePeriodSeconds=="30")].metadata.name}', 'error: incompatible types for comparison'],
    ['a filter that only asks for a key', '{.items[?(@.metadata.labels)].metadata.name}', 'web'],
    ['an exists filter whose path fails keeps the item, as Go\'s does (the failing step hands on its input)', '{.items[?(@.spec.containers[1])].metadata.name}', 'web db'],
    ['a filter on an object is refused', '{.items[0].metadata[?(@.x)]}', 'error: map[deletionTimestamp:<nil> labels:map[app:web tier:front] name:web] is not array or slice and cannot be filtered'],
    ['a filter inside a list of conditions', '{.items[0].status.conditions[?(@.type=="Ready")].status}', 'True'],
    ['a union of fields', "{.items[0]['metadata.name', 'kind']}", 'web Pod'],
    ['a quoted key', "{.items[0].metadata['name']}", 'web'],
    ['recursive descent: every value below, a map\'s keys taken sorted (Go takes them in its random map order)', '{..name}', 'web app log app db db'],
    ['quoted text with escapes', '{"a"}{\'b\'}{"\\u00e9\\x41"}', 'abéA'],
    ['literals', '{true} {3} {1.5}', 'true 3 1.5'],
    ['an object\'s values by wildcard, by key', '{.items[0].metadata.labels.*}', 'web front'],
    ['a string\'s wildcard is its bytes', '{.items[1].metadata.name.*}', '100 98'],
    ['end outside a range', '{end}', 'error: not in range, nothing to end'],
    ['an unknown identifier', '{bogus}', 'error: unrecognized identifier bogus'],
    ['an unclosed action', '{.x', 'parse: unclosed action'],
    ['a character that cannot start anything', '{#}', "parse: unrecognized character in action: U+0023 '#'"],
    ['an index that is not a number', '{.items[a]}', 'parse: invalid array index a'],
    ['an index beyond int64 is no number to Go', '{.items[99999999999999999999]}', 'parse: array index 99999999999999999999 is not a number'],
    ['a character that cannot start anything and is not printable: its code alone', '{\t.a}', 'parse: unrecognized character in action: U+0009'],
    ['an unterminated array', '{.items[0}', 'parse: unterminated array'],
    ['an unterminated filter', '{.items[?(@.a=="x"}', 'parse: unterminated filter'],
    ['an unterminated string', '{"abc}', 'parse: unterminated quoted string'],
    ['two recursive descents', '{.....a}', 'parse: invalid multiple recursive descent'],
    ['a number that is no number', '{1.2.3}', 'parse: cannot parse number 1.2.3'],
    ['a right brace after the action is text', '{.kind}}', 'List}'],
    ['a range never ended: the body once per item', '{range .items[*]}{.metadata.name}', 'webdb'],
  ];
  for (const [name, template, want] of cases) test(name, () => assert.equal(run(template), want));
});

describe("Go's printing of numbers and values, as kubectl's template errors show them", () => {
  const floats: [number, string][] = [
    [30.5, '30.5'],
    [1e6 + 0.5, '1.0000005e+06'],
    [123456.7, '123456.7'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1e21, '1e+21'],
    [-2.5, '-2.5'],
    [100, '100'],
    [1e6, '1e+06'],
  ];
  for (const [v, want] of floats) test(`float64 ${v} prints as ${want}`, () => assert.equal(goFloat(v), want));
  test('%#v of decoded JSON: maps by key, slices, nil, int64 and strings quoted', () =>
    assert.equal(goSharpV({ b: [1, 'x', null], a: { c: true } }), 'map[string]interface {}{"a":map[string]interface {}{"c":true}, "b":[]interface {}{1, "x", interface {}(nil)}}'));
  test("kubectl's message for a template that fails: the template, then the object it was given", () =>
    assert.equal(
      jsonPathError('{.items[5]}', 'array index out of bounds: index 5, length 0', { items: [], kind: 'List' }),
      'error executing jsonpath "{.items[5]}": Error executing template: array index out of bounds: index 5, length 0. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{.items[5]}\n\tobject given to jsonpath engine was:\n\t\tmap[string]interface {}{"items":[]interface {}{}, "kind":"List"}\n\n\n',
    ));
});

describe("kubectl's custom columns: the spec, and an object's cells", () => {
  const cells = (spec: string, o: unknown) => {
    const c = parseCustomColumns(spec);
    return 'error' in c ? c : customColumnCells(c.columns, o);
  };
  const pod = list.items[0];
  const cases: [string, () => unknown, unknown][] = [
    ['a relaxed path gets its braces and its leading dot', () => ['metadata.name', '.metadata.name', '{metadata.name}', '{.metadata.name}', ''].map(relaxedJsonPath), ['{.metadata.name}', '{.metadata.name}', '{.metadata.name}', '{.metadata.name}', '']],
    ['a path with braces inside is refused', () => relaxedJsonPath('{{x}}'), { error: "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'" }],
    ['a column without a colon is refused', () => parseCustomColumns('NAME:.metadata.name,A'), { error: 'unexpected custom-columns spec: A, expected <header>:<json-path-expr>' }],
    ['no spec', () => parseCustomColumns(''), { error: 'custom-columns format specified but no custom columns given' }],
    ['a template that does not parse: its error, after the headers', () => parseCustomColumns('A:.x,B:.y['), { error: 'unterminated array', headersFirst: ['A', 'B'] }],
    ['cells: values joined by commas, Go\'s %v for arrays and maps, <none> for nothing', () => cells('N:.metadata.name,I:.spec.containers[*].image,L:.metadata.labels,C:.spec.containers[0].command,X:.nope', pod), ['web', 'busybox:1.35,busybox:1.36', 'map[app:web tier:front]', '[sh -c sleep 1]', '<none>']],
    ['a null is <nil>, an integer its digits', () => cells('D:.metadata.deletionTimestamp,G:.spec.terminationGracePeriodSeconds', pod), ['<nil>', '30']],
    ['ESC and CR are escaped for the terminal', () => cells('N:.metadata.name', { metadata: { name: 'a\x1b[31mb\rc' } }), ['a^[[31mb\\rc']],
    ['a column that fails: its error', () => cells('N:.spec.containers[5]', pod), { error: 'array index out of bounds: index 5, length 2' }],
  ];
  for (const [name, fn, want] of cases) test(name, () => assert.deepEqual(fn(), want));
});
