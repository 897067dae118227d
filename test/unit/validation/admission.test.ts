// The default admission chain's mutations of a created pod that the lab makes (ServiceAccount,
// DefaultTolerationSeconds, Priority): what `kubectl get pod -o yaml` shows on a cluster, and what
// validation then sees (a projected serviceAccountToken is valid once serviceAccountName is set).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodSpec, Toleration } from 'kubernetes-types/core/v1';
import { admitPod } from '../../../src/validation/admission.js';
import { validateText } from '../../../src/validation/index.js';

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
