// `get --sort-by` (src/cli/sort-by.ts): the order kubectl's sorter gives, and its errors. Pure.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { klogFatal, sortByPath } from '../../src/cli/sort-by.js';

const pod = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name, ...extra } });
const names = (r: ReturnType<typeof sortByPath<{ metadata: { name: string } }>>) => ('error' in r ? r : r.map((p) => p.metadata.name));

describe("kubectl's --sort-by: the whole order, or its error", () => {
  const cases: [string, () => unknown, unknown][] = [
    ['by name, byte by byte', () => names(sortByPath([pod('b'), pod('a'), pod('B'), pod('é')], '.metadata.name', false)), ['B', 'a', 'b', 'é']],
    ['strings that are all quantities compare as quantities (100m < 9 < 10)', () => names(sortByPath([pod('x', { size: '10' }), pod('y', { size: '9' }), pod('z', { size: '100m' })], '{.metadata.size}', false)), ['z', 'y', 'x']],
    ['a string that is no quantity makes its pairs compare as text, the others as quantities (the order is what the insertion sort\'s comparisons give)', () => names(sortByPath([pod('x', { size: '10' }), pod('y', { size: 'nine' }), pod('z', { size: '9' })], 'metadata.size', false)), ['z', 'x', 'y']],
    ['integers as numbers', () => names(sortByPath([pod('x', { n: 10 }), pod('y', { n: 9 }), pod('z', { n: -1 })], '.metadata.n', false)), ['z', 'y', 'x']],
    ['an object without the value goes first', () => names(sortByPath([pod('x', { n: 2 }), pod('y'), pod('z', { n: 1 })], '.metadata.n', false)), ['y', 'z', 'x']],
    ['a null goes before a value', () => names(sortByPath([pod('x', { n: 2 }), pod('y', { n: null })], '.metadata.n', false)), ['y', 'x']],
    ['equal values keep their order', () => names(sortByPath([pod('x', { n: 1 }), pod('y', { n: 1 }), pod('z', { n: 0 })], '.metadata.n', false)), ['z', 'x', 'y']],
    ['the first value a path finds decides', () => names(sortByPath([pod('x', { l: [3, 1] }), pod('y', { l: [2, 9] })], '.metadata.l[*]', false)), ['y', 'x']],
    ['no object has the value', () => sortByPath([pod('x')], '.nope', false), { error: 'couldn\'t find any field with path "{.nope}" in the list of objects' }],
    ['an empty list has nothing to find', () => sortByPath([], '.nope', false), []],
    ['an object is unsortable: kubectl exits through klog', () => sortByPath([pod('x', { l: { a: 1 } }), pod('y', { l: { b: 1 } })], '.metadata.l', true), { error: 'Field {.metadata.l} in [][][]reflect.Value is an unsortable type: interface, err: unsortable type: map[string]interface {}', fatal: { line: 375 } }],
    ['a string beside a number is unsortable', () => sortByPath([pod('x', { n: 1 }), pod('y', { n: 'a' })], '.metadata.n', false), { error: 'Field {.metadata.n} in *unstructured.Unstructured is an unsortable type: interface, err: unsortable interface: interface', fatal: { line: 329 } }],
    ['a path that is no relaxed path: the list sorter refuses it', () => sortByPath([pod('x')], '{{x}', false), { error: "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'" }],
    ['the table sorter parses it as written', () => sortByPath([pod('x'), pod('y')], '{{x}', true), { error: "sorting error: unrecognized character in action: U+007B '{'" }],
    ['a path that finds nothing in any row', () => sortByPath([pod('x'), pod('y')], '.metadata.l[3]', true), { error: 'couldn\'t find any field with path "{.metadata.l[3]}" in the list of objects' }],
    ['a path that fails on a row, in the table sorter\'s words', () => sortByPath([pod('x', { l: [1, 2, 3, 4] }), pod('y', { l: [1] })], '.metadata.l[3]', true), { error: 'Failed to get values for [][]reflect.Value(nil) using {.metadata.l[3]} (&errors.errorString{s:"array index out of bounds: index 3, length 1"})' }],
    ['an index out of bounds, in the list sorter\'s words', () => sortByPath([pod('x', { l: [1] })], '.metadata.l[3]', false), { error: 'array index out of bounds: index 3, length 1' }],
  ];
  for (const [name, fn, want] of cases) test(name, () => assert.deepEqual(fn(), want));
  test("klog's fatal line: severity, date, time to the microsecond, the pid in 7 columns, file:line", () =>
    assert.equal(klogFatal('boom', 'sorter.go', 375, new Date(2026, 10, 24, 14, 5, 9, 829), 18144), 'F1124 14:05:09.829000   18144 sorter.go:375] boom\n'));
});
