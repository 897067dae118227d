// Quick fixes and the explanation for a byte count with a fraction (src/validation/quickfixes.ts
// quantityFixes / explanationFor, through quickFixesFor): `memory: 64m` is a valid quantity of
// 0.064 bytes, which the API server accepts with the warning `fractional byte value "64m" is
// invalid, must be an integer` (pkg/api/pod/warnings.go); the learner meant 64M or 64Mi.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { quickFixesFor, validateText, type Problem } from '../../../src/validation/index.js';
import { explanationFor, QUANTITY_SYNTAX, type QuickFix } from '../../../src/validation/quickfixes.js';
import { applyEdits, readable, type Fix } from './helpers.js';

const apply = applyEdits;

const pod = (resources: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: demo\nspec:\n  containers:\n    - name: app\n      image: busybox:1.35\n      resources:\n${resources}`;

function problemAt(text: string, field: string): Problem {
  const p = validateText(text).problems.find((q) => q.field === field);
  assert.ok(p, `a problem at ${field}: ${validateText(text).problems.map((q) => q.message).join(' | ')}`);
  return p;
}

const LIMIT = 'spec.containers[0].resources.limits[memory]';

const cases: { name: string; text: string; field: string; fixes: Fix[]; explanation: string | undefined }[] = [
  {
    name: 'memory 64m (0.064 bytes) offers 64M first and 64Mi, with their byte counts',
    text: pod('        limits:\n          memory: 64m\n'),
    field: LIMIT,
    fixes: [
      { title: 'Use 64M (64,000,000 bytes)', preferred: true, edits: [{ at: '11:19', old: '64m', newText: '64M' }] },
      { title: 'Use 64Mi (67,108,864 bytes)', preferred: false, edits: [{ at: '11:19', old: '64m', newText: '64Mi' }] },
    ],
    explanation: `${QUANTITY_SYNTAX} 64m is 0.064 bytes (m is a thousandth, as in cpu: 500m, not mega), and a byte count must be a whole number. 64M is 64,000,000 bytes, 64Mi is 67,108,864 bytes.`,
  },
  {
    name: 'a quoted ephemeral-storage request keeps its quotes',
    text: pod('        requests:\n          ephemeral-storage: "500m"\n'),
    field: 'spec.containers[0].resources.requests[ephemeral-storage]',
    fixes: [
      { title: 'Use 500M (500,000,000 bytes)', preferred: true, edits: [{ at: '11:30', old: '"500m"', newText: '"500M"' }] },
      { title: 'Use 500Mi (524,288,000 bytes)', preferred: false, edits: [{ at: '11:30', old: '"500m"', newText: '"500Mi"' }] },
    ],
    explanation: `${QUANTITY_SYNTAX} 500m is 0.5 bytes (m is a thousandth, as in cpu: 500m, not mega), and a byte count must be a whole number. 500M is 500,000,000 bytes, 500Mi is 524,288,000 bytes.`,
  },
  {
    name: 'the request defaulted from the limit points at resources: no fix there, no explanation (the limit carries them)',
    text: pod('        limits:\n          memory: 64m\n'),
    field: 'spec.containers[0].resources.requests[memory]',
    fixes: [],
    explanation: undefined,
  },
  {
    name: 'a plain fraction of bytes has no guess: no fix, the syntax and the value explained',
    text: pod('        limits:\n          memory: 1.5\n'),
    field: LIMIT,
    fixes: [],
    explanation: `${QUANTITY_SYNTAX} 1.5 is 1.5 bytes, and a byte count must be a whole number.`,
  },
];

describe('a fractional byte count (memory: 64m)', () => {
  for (const c of cases) {
    test(c.name, () => {
      const p = problemAt(c.text, c.field);
      assert.deepEqual(
        { fixes: quickFixesFor(c.text, p).map((f) => readable(c.text, f)), explanation: explanationFor(c.text, p) },
        { fixes: c.fixes, explanation: c.explanation },
      );
    });
  }
  test('each preferred fix leaves no fractional byte warning and no error', () => {
    for (const c of cases) {
      const preferred = quickFixesFor(c.text, problemAt(c.text, c.field)).find((f) => f.isPreferred);
      if (!preferred) continue;
      const left = validateText(apply(c.text, preferred.edits)).problems.filter((p) => p.severity === 'error' || /fractional byte value/.test(p.detail));
      assert.deepEqual(
        left.map((p) => p.message),
        [],
        c.name,
      );
    }
  });
  test('an integer byte count has no warning to fix', () => {
    const text = pod('        limits:\n          memory: 64Mi\n');
    assert.deepEqual(
      validateText(text).problems.map((p) => p.message),
      [],
    );
  });
});
