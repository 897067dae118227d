// Where the Run Pod CodeLens of each document goes (src/validation/quickfixes.ts lensOffset, used
// by PodCodeLenses in src/extension/language.ts): the document's first content line, never its
// `---` line, so a Pod after another document does not look like the previous one's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateText } from '../../../src/validation/index.js';
import { lensOffset } from '../../../src/validation/quickfixes.js';
import { Lines } from '../../../src/validation/documents.js';

const POD = (name: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers: [{name: app, image: busybox:1.35}]\n`;
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n';

/** Each document's kind and the 1-based line (and column) its lens goes on, with that line's text. */
function lenses(text: string): { kind: string | undefined; line: number; column: number; text: string }[] {
  const lines = new Lines(text);
  return validateText(text).documents.map((d) => {
    const at = lensOffset(text, d.offset, d.endOffset);
    const p = lines.linePos(at);
    return { kind: d.kind, line: p.line, column: p.col, text: text.split('\n')[p.line - 1]!.replace(/\r$/, '') };
  });
}

const cases: [string, string, ReturnType<typeof lenses>][] = [
  ['a single Pod without a marker: its first line', POD('a'), [{ kind: 'Pod', line: 1, column: 1, text: 'apiVersion: v1' }]],
  [
    'a Pod after a ConfigMap: the line after its ---, not the --- line',
    `${CM}---\n${POD('a')}`,
    [
      { kind: 'ConfigMap', line: 1, column: 1, text: 'apiVersion: v1' },
      { kind: 'Pod', line: 6, column: 1, text: 'apiVersion: v1' },
    ],
  ],
  [
    'comments, blank lines and a comment on the marker line are skipped',
    `${POD('a')}--- # the second pod\n\n# it runs busybox\n   \nkind: Pod\n${POD('b').replace('kind: Pod\n', '')}`,
    [
      { kind: 'Pod', line: 1, column: 1, text: 'apiVersion: v1' },
      { kind: 'Pod', line: 11, column: 1, text: 'kind: Pod' },
    ],
  ],
  [
    'a file that starts with --- and a comment: the first content line',
    `---\n# first\n${POD('a')}`,
    [{ kind: 'Pod', line: 3, column: 1, text: 'apiVersion: v1' }],
  ],
  [
    'Windows line endings',
    `${CM}---\r\n# c\r\n${POD('a')}`.replace(/(?<!\r)\n/g, '\r\n'),
    [
      { kind: 'ConfigMap', line: 1, column: 1, text: 'apiVersion: v1' },
      { kind: 'Pod', line: 7, column: 1, text: 'apiVersion: v1' },
    ],
  ],
  [
    'a flow mapping on the marker line stays on that line (it is the content)',
    `${CM}--- {apiVersion: v1, kind: Pod, metadata: {name: f}, spec: {containers: [{name: a, image: b}]}}\n`,
    [
      { kind: 'ConfigMap', line: 1, column: 1, text: 'apiVersion: v1' },
      { kind: 'Pod', line: 5, column: 1, text: '--- {apiVersion: v1, kind: Pod, metadata: {name: f}, spec: {containers: [{name: a, image: b}]}}' },
    ],
  ],
];

for (const [name, text, want] of cases) test(name, () => assert.deepEqual(lenses(text), want));

test('a document of only comments keeps its start', () => {
  const text = '---\n# nothing here\n\n';
  assert.equal(lensOffset(text, 0, text.length), 0);
});

test('the lens never goes past the document end', () => {
  const text = `${CM}---\n# c\n---\n${POD('a')}`;
  const end = text.indexOf('---\n', CM.length + 4);
  assert.equal(lensOffset(text, CM.length, end), CM.length);
});
