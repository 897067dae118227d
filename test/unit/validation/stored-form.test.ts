// The pod as the API server stores and returns it: the defaults, and what Go's encoding writes
// whatever was sent — a container's resources is a struct, not a pointer, so `resources: {}` is
// always there (kubectl get -o yaml shows it), for init, app and ephemeral containers alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { validateText } from '../../../src/validation/index.js';

const stored = (spec: string): Pod => validateText(`apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n${spec}`).documents[0]!.object as Pod;
const container = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  image: 'busybox:1.35',
  resources: {},
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  ...extra,
});

const cases: [string, () => unknown, unknown][] = [
  [
    'a container written without resources has resources: {}, in every list',
    () => {
      const p = stored('  initContainers:\n    - name: i\n      image: busybox:1.35\n  containers:\n    - name: a\n      image: busybox:1.35\n  ephemeralContainers:\n    - name: e\n      image: busybox:1.35\n');
      return [p.spec?.initContainers, p.spec?.containers, p.spec?.ephemeralContainers];
    },
    [[container('i')], [container('a')], [container('e')]],
  ],
  [
    'resources written are kept (limits give the requests they lack)',
    () => stored('  containers:\n    - name: a\n      image: busybox:1.35\n      resources:\n        limits:\n          memory: 64Mi\n').spec?.containers,
    [container('a', { resources: { limits: { memory: '64Mi' }, requests: { memory: '64Mi' } } })],
  ],
];
for (const [name, actual, expected] of cases) test(name, () => assert.deepEqual(actual(), expected));
