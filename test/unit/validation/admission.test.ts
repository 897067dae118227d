// The default admission chain's mutations of a created pod that the lab makes (ServiceAccount,
// DefaultTolerationSeconds, Priority): what `kubectl get pod -o yaml` shows on a cluster, and what
// validation then sees (a projected serviceAccountToken is valid once serviceAccountName is set).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodSpec, Toleration } from 'kubernetes-types/core/v1';
import { admitPod, priorityRefusal } from '../../../src/validation/admission.js';
import { documentRefusal, validateText } from '../../../src/validation/index.js';

const notReady: Toleration = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable: Toleration = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const pod = (spec: Partial<PodSpec> = {}): Pod => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'busybox:1.35' }], ...spec } });
const admitted = (spec: Partial<PodSpec>): PodSpec => ({ ...pod().spec!, ...spec });

const cases: [string, Pod, PodSpec][] = [
  [
    'a pod without them gets the default service account, priority 0 with PreemptLowerPriority, and the two NoExecute tolerations for 300 s',
    pod(),
    admitted({ serviceAccountName: 'default', serviceAccount: 'default', priority: 0, preemptionPolicy: 'PreemptLowerPriority', tolerations: [notReady, unreachable] }),
  ],
  [
    'a named service account is kept (and mirrored in the deprecated serviceAccount)',
    pod({ serviceAccountName: 'builder' }),
    admitted({ serviceAccountName: 'builder', serviceAccount: 'builder', priority: 0, preemptionPolicy: 'PreemptLowerPriority', tolerations: [notReady, unreachable] }),
  ],
  [
    'the deprecated serviceAccount alone names it',
    pod({ serviceAccount: 'old' }),
    admitted({ serviceAccountName: 'old', serviceAccount: 'old', priority: 0, preemptionPolicy: 'PreemptLowerPriority', tolerations: [notReady, unreachable] }),
  ],
  [
    "the user's tolerations come first; one that already tolerates not-ready for NoExecute keeps that one from being added",
    pod({ tolerations: [{ key: 'gpu', operator: 'Exists' }, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }] }),
    admitted({
      serviceAccountName: 'default',
      serviceAccount: 'default',
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      tolerations: [{ key: 'gpu', operator: 'Exists' }, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }, unreachable],
    }),
  ],
  [
    'a toleration of every taint (empty key, Exists) adds neither',
    pod({ tolerations: [{ operator: 'Exists' }] }),
    admitted({ serviceAccountName: 'default', serviceAccount: 'default', priority: 0, preemptionPolicy: 'PreemptLowerPriority', tolerations: [{ operator: 'Exists' }] }),
  ],
  [
    'a priority class name leaves priority unset (the lab has no PriorityClasses, and warns); a given preemption policy is kept',
    pod({ priorityClassName: 'high', preemptionPolicy: 'Never' }),
    admitted({ priorityClassName: 'high', preemptionPolicy: 'Never', serviceAccountName: 'default', serviceAccount: 'default', tolerations: [notReady, unreachable] }),
  ],
];
for (const [name, input, want] of cases) test(name, () => assert.deepEqual(admitPod(structuredClone(input)).spec, want));

test('a projected serviceAccountToken without serviceAccountName is valid, as on a cluster (validated as admitted); the object stays as written, for a real cluster to admit', () => {
  const text = `apiVersion: v1
kind: Pod
metadata:
  name: t
spec:
  containers:
    - name: a
      image: busybox:1.35
  volumes:
    - name: token
      projected:
        sources:
          - serviceAccountToken:
              path: token
`;
  const doc = validateText(text).documents[0]!;
  assert.deepEqual(
    { errors: doc.problems.filter((p) => p.severity === 'error').map((p) => p.message), admitted: ['serviceAccountName', 'priority', 'preemptionPolicy', 'tolerations'].filter((k) => k in (doc.object as Pod).spec!) },
    { errors: [], admitted: [] },
  );
});

// The Priority plugin (plugin/pkg/admission/priority): with no PriorityClass named and no default
// class it computes priority 0 and PreemptLowerPriority, and refuses (403) a pod that gives others.
const PRIORITY = (n: number) => `the integer value of priority (${n}) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name`;
const POLICY = 'the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name';
const refusals: [string, Pod, ReturnType<typeof priorityRefusal>][] = [
  ['no priority and no policy: admitted', pod(), undefined],
  ['priority 0 and PreemptLowerPriority, as computed: admitted', pod({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' }), undefined],
  ['priority 10 without a class: refused', pod({ priority: 10 }), { field: 'spec.priority', detail: PRIORITY(10) }],
  ['a negative priority: refused the same way', pod({ priority: -5 }), { field: 'spec.priority', detail: PRIORITY(-5) }],
  ['preemptionPolicy Never without a class: refused', pod({ preemptionPolicy: 'Never' }), { field: 'spec.preemptionPolicy', detail: POLICY }],
  ['both: the priority is checked first', pod({ priority: 7, preemptionPolicy: 'Never' }), { field: 'spec.priority', detail: PRIORITY(7) }],
  ['a class named: not checked here (the lab has no PriorityClasses, and warns)', pod({ priorityClassName: 'high', priority: 10, preemptionPolicy: 'Never' }), undefined],
];
for (const [name, input, want] of refusals) test(`Priority admission: ${name}`, () => assert.deepEqual(priorityRefusal(input), want));

test("a manifest that sets priority without a class is refused as kubectl shows the API server's 403, before its validation errors", () => {
  const text = `apiVersion: v1
kind: Pod
metadata:
  name: urgent
spec:
  priority: 1000
  restartPolicy: Sometimes
  containers:
    - name: a
      image: busybox:1.35
`;
  const doc = validateText(text).documents[0]!;
  assert.deepEqual(
    {
      problem: doc.problems.filter((p) => p.source === 'admission').map((p) => [p.severity, p.type, p.field, p.message, text.slice(p.offset, p.endOffset)]),
      refusal: documentRefusal(doc, 'urgent.yaml'),
    },
    {
      problem: [['error', 'Forbidden', 'spec.priority', `spec.priority: Forbidden: ${PRIORITY(1000)}`, '1000']],
      refusal: `Error from server (Forbidden): error when creating "urgent.yaml": pods "urgent" is forbidden: ${PRIORITY(1000)}`,
    },
  );
});

test("the 403 names the pod as admission sees it: its name, else its generateName, else Unknown (extractResourceName)", () => {
  const refusal = (meta: string) =>
    documentRefusal(validateText(`apiVersion: v1\nkind: Pod\nmetadata:\n${meta}spec:\n  priority: 3\n  containers:\n    - name: a\n      image: busybox:1.35\n`).documents[0]!, 'p.yaml');
  const tail = `is forbidden: ${PRIORITY(3)}`;
  assert.deepEqual(
    [refusal('  name: web\n'), refusal('  generateName: web-\n'), refusal('  labels: {a: b}\n')],
    [`Error from server (Forbidden): error when creating "p.yaml": pods "web" ${tail}`, `Error from server (Forbidden): error when creating "p.yaml": pods "web-" ${tail}`, `Error from server (Forbidden): error when creating "p.yaml": pods "Unknown" ${tail}`],
  );
});

test('a document that is no v1 Pod is not refused by admission (kubectl stops at its kind first)', () => {
  const doc = validateText('apiVersion: v2\nkind: Pod\nmetadata:\n  name: x\nspec:\n  priority: 3\n  containers:\n    - name: a\n      image: busybox:1.35\n').documents[0]!;
  assert.deepEqual(doc.problems.filter((p) => p.source === 'admission'), []);
});

test('the lab warning of priority is for a pod with a PriorityClass only (without one, admission refuses it)', () => {
  const warned = (spec: string) =>
    validateText(`apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n${spec}  containers:\n    - name: a\n      image: busybox:1.35\n`).documents[0]!.problems.filter((p) => p.source === 'podlab' && /priority|preempt/.test(p.field)).map((p) => p.field);
  assert.deepEqual([warned('  priority: 3\n  preemptionPolicy: Never\n'), warned('  priorityClassName: high\n  priority: 3\n  preemptionPolicy: Never\n')], [[], ['spec.priorityClassName', 'spec.priority', 'spec.preemptionPolicy']]);
});
