import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyJsonPatch,
  applyMergePatch,
  applyPatch,
  applyStrategicMergePatch,
  PatchError,
  patchTypeOf,
  type PatchType,
} from '../../../src/server/patch.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

/** The stored pod every case starts from. */
const pod = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web',
    namespace: 'default',
    uid: 'u-1',
    labels: { app: 'web', tier: 'fe' },
    annotations: { note: 'x' },
    finalizers: ['a.example.com/one', 'b.example.com/two'],
    ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'rc', uid: 'o-1' }],
  },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'busybox:1.35',
        command: ['sh', '-c', 'sleep 3600'],
        args: ['--a'],
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        ports: [
          { containerPort: 80, protocol: 'TCP' },
          { containerPort: 443, protocol: 'TCP' },
        ],
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
        resizePolicy: [
          { resourceName: 'cpu', restartPolicy: 'NotRequired' },
          { resourceName: 'memory', restartPolicy: 'RestartContainer' },
        ],
      },
      { name: 'sidecar', image: 'nginx:1.27' },
    ],
    volumes: [{ name: 'data', emptyDir: {} }],
    tolerations: [{ key: 'k', operator: 'Exists' }],
  },
  status: {
    phase: 'Running',
    conditions: [
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False' },
    ],
    containerStatuses: [
      { name: 'app', ready: false, restartCount: 0 },
      { name: 'sidecar', ready: true, restartCount: 1 },
    ],
  },
});

/** The stored pod with `f`'s edits: the expected result, written by hand. */
const edited = (f: (p: Obj) => void): Obj => {
  const p = pod();
  f(p);
  return p;
};

const app = (p: Obj): Obj => p.spec.containers[0];

const node = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'lab', labels: { 'kubernetes.io/hostname': 'lab' } },
  spec: { podCIDRs: ['10.0.0.0/24'], taints: [{ key: 'a', effect: 'NoSchedule' }] },
  status: {
    addresses: [
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'Hostname', address: 'lab' },
    ],
    conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
  },
});

const lastApplied = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"}}\n';

interface Case {
  name: string;
  run: () => unknown;
  want: unknown;
}

const smp = (patch: unknown, obj: Obj = pod(), kind = 'Pod') => () => applyStrategicMergePatch(obj, patch, kind);

const strategicCases: Case[] = [
  {
    name: 'kubectl set image: a container patched by name gets the new image, everything else stays',
    run: smp({ spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } }),
    want: edited((p) => (app(p).image = 'busybox:1.36')),
  },
  {
    name: "kubectl set image's real two-way patch (with $setElementOrder/containers) changes only the image",
    run: smp({ spec: { '$setElementOrder/containers': [{ name: 'app' }, { name: 'sidecar' }], containers: [{ image: 'busybox:1.36', name: 'app' }] } }),
    want: edited((p) => (app(p).image = 'busybox:1.36')),
  },
  {
    name: 'a new container without $setElementOrder is merged in front of the live ones (upstream mergeSortedSlice)',
    run: smp({ spec: { containers: [{ name: 'debug', image: 'alpine' }] } }),
    want: edited((p) => p.spec.containers.unshift({ name: 'debug', image: 'alpine' })),
  },
  {
    name: 'a new container listed last in $setElementOrder is appended',
    run: smp({ spec: { '$setElementOrder/containers': [{ name: 'app' }, { name: 'sidecar' }, { name: 'debug' }], containers: [{ name: 'debug', image: 'alpine' }] } }),
    want: edited((p) => p.spec.containers.push({ name: 'debug', image: 'alpine' })),
  },
  {
    name: '$patch: delete removes the container with that name',
    run: smp({ spec: { containers: [{ $patch: 'delete', name: 'sidecar' }] } }),
    want: edited((p) => p.spec.containers.splice(1, 1)),
  },
  {
    name: 'env merges by name: B changes, C is added after the patch items, A stays first',
    run: smp({ spec: { containers: [{ name: 'app', env: [{ name: 'B', value: '22' }, { name: 'C', value: '3' }] }] } }),
    want: edited((p) => (app(p).env = [{ name: 'A', value: '1' }, { name: 'B', value: '22' }, { name: 'C', value: '3' }])),
  },
  {
    name: 'ports merge by containerPort',
    run: smp({ spec: { containers: [{ name: 'app', ports: [{ containerPort: 443, name: 'https' }] }] } }),
    want: edited((p) => (app(p).ports[1] = { containerPort: 443, protocol: 'TCP', name: 'https' })),
  },
  {
    name: 'volumeMounts merge by mountPath',
    run: smp({ spec: { containers: [{ name: 'app', volumeMounts: [{ mountPath: '/data', readOnly: true }] }] } }),
    want: edited((p) => (app(p).volumeMounts = [{ name: 'data', mountPath: '/data', readOnly: true }])),
  },
  {
    name: 'a volume switched from emptyDir to configMap with $retainKeys loses its emptyDir',
    run: smp({ spec: { volumes: [{ $retainKeys: ['configMap', 'name'], name: 'data', configMap: { name: 'settings' } }] } }),
    want: edited((p) => (p.spec.volumes = [{ name: 'data', configMap: { name: 'settings' } }])),
  },
  {
    name: 'without $retainKeys the same volume patch keeps both sources (validation rejects that later)',
    run: smp({ spec: { volumes: [{ name: 'data', configMap: { name: 'settings' } }] } }),
    want: edited((p) => (p.spec.volumes = [{ name: 'data', emptyDir: {}, configMap: { name: 'settings' } }])),
  },
  {
    name: '$patch: replace in a list replaces the whole list with the other items',
    run: smp({ spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'alpine' }] } }),
    want: edited((p) => (p.spec.containers = [{ name: 'only', image: 'alpine' }])),
  },
  {
    name: '$patch: replace in a map replaces the map',
    run: smp({ metadata: { labels: { $patch: 'replace', fresh: 'yes' } } }),
    want: edited((p) => (p.metadata.labels = { fresh: 'yes' })),
  },
  {
    name: '$patch: delete in a map empties it',
    run: smp({ metadata: { labels: { $patch: 'delete' } } }),
    want: edited((p) => (p.metadata.labels = {})),
  },
  {
    name: '$setElementOrder alone reorders the live list',
    run: smp({ spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }] } }),
    want: edited((p) => p.spec.containers.reverse()),
  },
  {
    name: '$setElementOrder/env inside a container orders its env',
    run: smp({ spec: { containers: [{ name: 'app', '$setElementOrder/env': [{ name: 'B' }, { name: 'A' }] }] } }),
    want: edited((p) => app(p).env.reverse()),
  },
  {
    name: '$deleteFromPrimitiveList/finalizers removes that finalizer',
    run: smp({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a.example.com/one'] } }),
    want: edited((p) => (p.metadata.finalizers = ['b.example.com/two'])),
  },
  {
    name: 'finalizers merge as a set: a new one goes first, a known one is not repeated',
    run: smp({ metadata: { finalizers: ['c.example.com/three', 'a.example.com/one'] } }),
    want: edited((p) => (p.metadata.finalizers = ['c.example.com/three', 'a.example.com/one', 'b.example.com/two'])),
  },
  {
    name: 'null removes a label',
    run: smp({ metadata: { labels: { tier: null } } }),
    want: edited((p) => delete p.metadata.labels.tier),
  },
  {
    name: 'null removes the whole labels map',
    run: smp({ metadata: { labels: null } }),
    want: edited((p) => delete p.metadata.labels),
  },
  {
    name: 'nulls inside a new subtree are dropped',
    run: smp({ spec: { nodeSelector: { disk: 'ssd', gone: null } } }),
    want: edited((p) => (p.spec.nodeSelector = { disk: 'ssd' })),
  },
  {
    name: 'status.conditions merge by type',
    run: smp({ status: { conditions: [{ type: 'Ready', status: 'True' }] } }),
    want: edited((p) => (p.status.conditions[1] = { type: 'Ready', status: 'True' })),
  },
  {
    name: 'status.containerStatuses has no strategy: the patch list replaces it',
    run: smp({ status: { containerStatuses: [{ name: 'app', ready: true, restartCount: 0 }] } }),
    want: edited((p) => (p.status.containerStatuses = [{ name: 'app', ready: true, restartCount: 0 }])),
  },
  {
    name: 'container command and args have no strategy: replaced whole',
    run: smp({ spec: { containers: [{ name: 'app', command: ['sleep'], args: ['1'] }] } }),
    want: edited((p) => {
      app(p).command = ['sleep'];
      app(p).args = ['1'];
    }),
  },
  {
    name: 'resizePolicy has no strategy (listType=atomic): replaced whole',
    run: smp({ spec: { containers: [{ name: 'app', resizePolicy: [{ resourceName: 'memory', restartPolicy: 'NotRequired' }] }] } }),
    want: edited((p) => (app(p).resizePolicy = [{ resourceName: 'memory', restartPolicy: 'NotRequired' }])),
  },
  {
    name: 'tolerations have no strategy: replaced whole',
    run: smp({ spec: { tolerations: [{ key: 'other', operator: 'Exists' }] } }),
    want: edited((p) => (p.spec.tolerations = [{ key: 'other', operator: 'Exists' }])),
  },
  {
    name: 'ownerReferences merge by uid',
    run: smp({ metadata: { ownerReferences: [{ uid: 'o-1', controller: true }] } }),
    want: edited((p) => (p.metadata.ownerReferences[0].controller = true)),
  },
  {
    name: 'an empty merging list patches nothing',
    run: smp({ spec: { containers: [] } }),
    want: pod(),
  },
  {
    name: 'a null patch patches nothing',
    run: smp(null),
    want: pod(),
  },
  {
    name: 'the patch order of merged items wins over the live order (upstream "preserve the order from the patch")',
    run: smp({ spec: { containers: [{ name: 'sidecar', image: 'nginx:1.28' }, { name: 'app', image: 'busybox:1.36' }] } }),
    want: edited((p) => {
      app(p).image = 'busybox:1.36';
      p.spec.containers[1].image = 'nginx:1.28';
      p.spec.containers.reverse();
    }),
  },
  {
    name: 'kubectl apply: last-applied annotation, $setElementOrder/containers, an image change and an env var removed',
    run: smp({
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } },
      spec: {
        '$setElementOrder/containers': [{ name: 'app' }, { name: 'sidecar' }],
        containers: [{ '$setElementOrder/env': [{ name: 'A' }], env: [{ $patch: 'delete', name: 'B' }], image: 'busybox:1.36', name: 'app' }],
      },
    }),
    want: edited((p) => {
      p.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] = lastApplied;
      app(p).image = 'busybox:1.36';
      app(p).env = [{ name: 'A', value: '1' }];
    }),
  },
  {
    name: 'kubectl apply replacing the sidecar by a new container puts a server-only container before it, as Go slice aliasing makes upstream do',
    run: smp(
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'app' }, { name: 'logger' }],
          containers: [{ name: 'logger', image: 'fluent-bit' }, { $patch: 'delete', name: 'sidecar' }],
        },
      },
      edited((p) => p.spec.containers.push({ name: 'metrics', image: 'prom' })),
    ),
    want: edited((p) => (p.spec.containers = [app(p), { name: 'metrics', image: 'prom' }, { name: 'logger', image: 'fluent-bit' }])),
  },
  {
    name: 'Node: status.addresses merge by type, spec.taints (no strategy) is replaced, podCIDRs merge as a set',
    run: smp(
      {
        spec: { taints: [{ key: 'b', effect: 'NoExecute' }], podCIDRs: ['10.0.0.0/24'] },
        status: { addresses: [{ type: 'Hostname', address: 'lab.local' }] },
      },
      node(),
      'Node',
    ),
    want: (() => {
      const n = node();
      n.spec.taints = [{ key: 'b', effect: 'NoExecute' }];
      n.status.addresses[1].address = 'lab.local';
      return n;
    })(),
  },
  {
    name: 'ConfigMap: data keys merge and null deletes one',
    run: smp({ data: { b: '2', a: null } }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1', c: '3' } }, 'ConfigMap'),
    want: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { c: '3', b: '2' } },
  },
];

const mergeCases: Case[] = [
  {
    name: 'kubectl label: a merge patch adds a label',
    run: () => applyMergePatch(pod(), { metadata: { labels: { env: 'prod' } } }),
    want: edited((p) => (p.metadata.labels.env = 'prod')),
  },
  {
    name: 'kubectl label tier-: null removes the label',
    run: () => applyMergePatch(pod(), { metadata: { labels: { tier: null } } }),
    want: edited((p) => delete p.metadata.labels.tier),
  },
  {
    name: 'kubectl annotate --overwrite: a merge patch sets an annotation',
    run: () => applyMergePatch(pod(), { metadata: { annotations: { note: 'y', owner: 'me' } } }),
    want: edited((p) => (p.metadata.annotations = { note: 'y', owner: 'me' })),
  },
  {
    name: 'a merge patch replaces a list whole (no merging by name)',
    run: () => applyMergePatch(pod(), { spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } }),
    want: edited((p) => (p.spec.containers = [{ name: 'app', image: 'busybox:1.36' }])),
  },
  {
    name: "a merge patch drops null members of maps inside a new list (evanphx's pruneNulls)",
    run: () => applyMergePatch(pod(), { spec: { tolerations: [{ key: 'x', operator: 'Exists', value: null }] } }),
    want: edited((p) => (p.spec.tolerations = [{ key: 'x', operator: 'Exists' }])),
  },
];

const jsonCases: Case[] = [
  {
    name: 'JSON patch: replace, add, remove, test, copy and move in sequence',
    run: () =>
      applyJsonPatch(pod(), [
        { op: 'test', path: '/spec/containers/0/name', value: 'app' },
        { op: 'replace', path: '/spec/containers/0/image', value: 'busybox:1.36' },
        { op: 'add', path: '/metadata/labels/env', value: 'prod' },
        { op: 'remove', path: '/metadata/annotations/note' },
        { op: 'copy', from: '/metadata/labels/app', path: '/metadata/annotations/app' },
        { op: 'move', from: '/metadata/labels/tier', path: '/metadata/labels/layer' },
        { op: 'add', path: '/spec/tolerations/-', value: { key: 'new', operator: 'Exists' } },
      ]),
    want: edited((p) => {
      app(p).image = 'busybox:1.36';
      p.metadata.labels = { app: 'web', env: 'prod', layer: 'fe' };
      p.metadata.annotations = { app: 'web' };
      p.spec.tolerations.push({ key: 'new', operator: 'Exists' });
    }),
  },
  {
    name: 'JSON patch: a key with / is addressed with ~1',
    run: () => applyJsonPatch(pod(), [{ op: 'add', path: '/metadata/annotations/example.com~1x', value: 'v' }]),
    want: edited((p) => (p.metadata.annotations['example.com/x'] = 'v')),
  },
  {
    name: 'JSON patch: replace of a missing map key adds it (evanphx v4)',
    run: () => applyJsonPatch(pod(), [{ op: 'replace', path: '/spec/nodeName', value: 'lab' }]),
    want: edited((p) => (p.spec.nodeName = 'lab')),
  },
  {
    name: 'JSON patch: a negative index counts from the end (evanphx SupportNegativeIndices)',
    run: () => applyJsonPatch(pod(), [{ op: 'remove', path: '/spec/containers/-1' }]),
    want: edited((p) => p.spec.containers.pop()),
  },
  {
    name: 'JSON patch: a test for null passes on a missing key',
    run: () => applyJsonPatch(pod(), [{ op: 'test', path: '/metadata/labels/none', value: null }]),
    want: pod(),
  },
];

for (const c of [...strategicCases, ...mergeCases, ...jsonCases]) {
  test(c.name, () => assert.deepEqual(c.run(), c.want));
}

interface ErrCase {
  name: string;
  run: () => unknown;
  want: { status: number; reason: string; message: string; detail?: string };
}

const GENERIC = 'the server rejected our request due to an error in our request';

const errCases: ErrCase[] = [
  // JSON patch
  {
    name: 'JSON patch: a failing test is 422 with the generic message; evanphx says which value',
    run: () => applyJsonPatch(pod(), [{ op: 'test', path: '/metadata/name', value: 'other' }]),
    want: { status: 422, reason: 'Invalid', message: GENERIC, detail: 'testing value /metadata/name failed: test failed' },
  },
  {
    name: 'JSON patch: removing a missing key is 422',
    run: () => applyJsonPatch(pod(), [{ op: 'remove', path: '/metadata/labels/none' }]),
    want: { status: 422, reason: 'Invalid', message: GENERIC, detail: "error in remove for path: '/metadata/labels/none': Unable to remove nonexistent key: none: missing value" },
  },
  {
    name: 'JSON patch: adding under a missing parent is 422',
    run: () => applyJsonPatch(pod(), [{ op: 'add', path: '/spec/nothing/x', value: 1 }]),
    want: { status: 422, reason: 'Invalid', message: GENERIC, detail: 'add operation does not apply: doc is missing path: "/spec/nothing/x": missing value' },
  },
  {
    name: 'JSON patch: replacing under a missing parent is 422',
    run: () => applyJsonPatch(pod(), [{ op: 'replace', path: '/spec/x/y', value: 1 }]),
    want: { status: 422, reason: 'Invalid', message: GENERIC, detail: 'replace operation does not apply: doc is missing path: /spec/x/y: missing value' },
  },
  {
    name: 'JSON patch: replacing a list index out of range is 422 (doc is missing key)',
    run: () => applyJsonPatch(pod(), [{ op: 'replace', path: '/spec/containers/5', value: {} }]),
    want: { status: 422, reason: 'Invalid', message: GENERIC, detail: 'replace operation does not apply: doc is missing key: /spec/containers/5: missing value' },
  },
  {
    name: 'JSON patch: a list index that is not a number is 422 with strconv.Atoi text',
    run: () => applyJsonPatch(pod(), [{ op: 'add', path: '/spec/containers/x', value: {} }]),
    want: { status: 422, reason: 'Invalid', message: GENERIC, detail: `error in add for path: '/spec/containers/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax` },
  },
  {
    name: 'JSON patch: moving from a missing path is 422',
    run: () => applyJsonPatch(pod(), [{ op: 'move', from: '/spec/none/a', path: '/spec/b' }]),
    want: { status: 422, reason: 'Invalid', message: GENERIC, detail: 'move operation does not apply: doc is missing from path: /spec/none/a: missing value' },
  },
  {
    name: 'JSON patch: an unknown op is 422',
    run: () => applyJsonPatch(pod(), [{ op: 'frobnicate', path: '/a' }]),
    want: { status: 422, reason: 'Invalid', message: GENERIC, detail: 'Unexpected kind: frobnicate' },
  },
  {
    name: 'JSON patch: a body that is not a list is 400',
    run: () => applyJsonPatch(pod(), { op: 'add' }),
    want: { status: 400, reason: 'BadRequest', message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp' },
  },
  {
    name: 'JSON patch: an operation that is not an object is 400',
    run: () => applyJsonPatch(pod(), ['add']),
    want: { status: 400, reason: 'BadRequest', message: 'error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp' },
  },
  {
    name: 'JSON patch: a path that is not a string is 400',
    run: () => applyJsonPatch(pod(), [{ op: 'add', path: 5 }]),
    want: { status: 400, reason: 'BadRequest', message: 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string' },
  },
  {
    name: 'JSON patch: copies adding up to more than 3 MiB are 422 (kube-apiserver JSONPatchMaxCopyBytes)',
    run: () => applyJsonPatch(edited((p) => (p.metadata.annotations.big = 'x'.repeat(3 * 1024 * 1024 - 1))), [{ op: 'copy', from: '/metadata/annotations/big', path: '/metadata/annotations/big2' }]),
    want: { status: 422, reason: 'Invalid', message: GENERIC, detail: 'Unable to complete the copy, the accumulated size increase of copy is 3145729, exceeding the limit 3145728' },
  },
  {
    name: 'JSON patch: more than 10000 operations is 413',
    run: () => applyJsonPatch(pod(), Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'Pod' }))),
    want: { status: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001' },
  },
  // merge patch
  {
    name: 'merge patch: null is 400 Invalid JSON Patch',
    run: () => applyMergePatch(pod(), null),
    want: { status: 400, reason: 'BadRequest', message: 'Invalid JSON Patch' },
  },
  {
    name: 'merge patch: a list is 400',
    run: () => applyMergePatch(pod(), [{ op: 'add' }]),
    want: { status: 400, reason: 'BadRequest', message: 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}' },
  },
  // strategic merge patch
  {
    name: 'SMP: a container without its merge key is 500 with mergepatch ErrNoMergeKey text',
    run: smp({ spec: { containers: [{ image: 'busybox', imagePullPolicy: 'Always' }] } }),
    want: { status: 500, reason: '', message: 'map: map[image:busybox imagePullPolicy:Always] does not contain declared merge key: name' },
  },
  {
    name: 'SMP: $patch: delete without the merge key is 500',
    run: smp({ spec: { containers: [{ $patch: 'delete' }] } }),
    want: { status: 500, reason: '', message: 'map: map[$patch:delete] does not contain declared merge key: name' },
  },
  {
    name: 'SMP: $patch: merge in a list is 500',
    run: smp({ spec: { containers: [{ $patch: 'merge', name: 'app' }] } }),
    want: { status: 500, reason: '', message: 'merging lists cannot yet be specified in the patch' },
  },
  {
    name: 'SMP: $patch: merge in a map is 500 (only replace and delete are directives for maps)',
    run: smp({ metadata: { labels: { $patch: 'merge', a: 'b' } } }),
    want: { status: 500, reason: '', message: 'unknown patch type: merge in map: map[$patch:merge a:b]' },
  },
  {
    name: 'SMP: an unknown $patch in a list item is 500',
    run: smp({ spec: { containers: [{ $patch: 'frob', name: 'app', ports: [{ containerPort: 80 }] }] } }),
    want: { status: 500, reason: '', message: 'unknown patch type: frob in map: map[$patch:frob name:app ports:[map[containerPort:80]]]' },
  },
  {
    name: 'SMP: a patch key missing from $retainKeys is 400',
    run: smp({ spec: { volumes: [{ $retainKeys: ['name'], name: 'data', configMap: { name: 'x' } }] } }),
    want: { status: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
  },
  {
    name: 'SMP: $deleteFromPrimitiveList without /field is 400',
    run: smp({ metadata: { $deleteFromPrimitiveList: ['a'] } }),
    want: { status: 400, reason: 'BadRequest', message: 'invalid patch format of primitive list' },
  },
  {
    name: 'SMP: a patch list out of $setElementOrder order is 500',
    run: smp({ spec: { '$setElementOrder/containers': [{ name: 'app' }, { name: 'sidecar' }], containers: [{ name: 'sidecar', image: 'x' }, { name: 'app', image: 'y' }] } }),
    want: {
      status: 500,
      reason: '',
      message: "The order in patch list:\n[map[image:x name:sidecar] map[image:y name:app]]\n doesn't match $setElementOrder list:\n[map[name:app] map[name:sidecar]]\n",
    },
  },
  {
    name: 'SMP: mixing maps into a list of strings is 500',
    run: smp({ metadata: { finalizers: [{ x: 1.5 }] } }),
    want: { status: 500, reason: '', message: 'list element types are not identical: [[a.example.com/one b.example.com/two] [map[x:1.5]]]' },
  },
  {
    name: 'SMP: a list of lists is 422 with the generic message',
    run: smp({ metadata: { finalizers: [['a']] } }, edited((p) => (p.metadata.finalizers = []))),
    want: { status: 422, reason: 'Invalid', message: GENERIC, detail: 'lists of lists are not supported' },
  },
  {
    name: 'SMP: a body that is not an object is 400',
    run: smp([1]),
    want: { status: 400, reason: 'BadRequest', message: 'json: cannot unmarshal array into Go value of type map[string]interface {}' },
  },
  {
    name: 'SMP: a kind without patch metadata is 415, as for custom resources',
    run: smp({}, { kind: 'Widget' }, 'Widget'),
    want: {
      status: 415,
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json',
    },
  },
];

for (const c of errCases) {
  test(c.name, () => {
    let caught: unknown;
    try {
      c.run();
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof PatchError, `expected a PatchError, got ${String(caught)}`);
    const e = caught as PatchError;
    assert.deepEqual({ status: e.status, reason: e.reason, message: e.message, ...(e.detail !== undefined ? { detail: e.detail } : {}) }, c.want);
  });
}

test('patchTypeOf maps the three patch content types, cuts parameters, and refuses server-side apply', () => {
  const got = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/strategic-merge-patch+json; charset=utf-8',
    'application/apply-patch+yaml',
    'application/json',
    '',
  ].map((ct) => [ct, patchTypeOf(ct) ?? null]);
  assert.deepEqual(got, [
    ['application/json-patch+json', 'json'],
    ['application/merge-patch+json', 'merge'],
    ['application/strategic-merge-patch+json', 'strategic'],
    ['application/strategic-merge-patch+json; charset=utf-8', 'strategic'],
    ['application/apply-patch+yaml', null],
    ['application/json', null],
    ['', null],
  ]);
});

test('applyPatch dispatches on the patch type', () => {
  const body: Record<PatchType, unknown> = {
    json: [{ op: 'replace', path: '/spec/containers/0/image', value: 'busybox:1.36' }],
    merge: { metadata: { labels: { env: 'prod' } } },
    strategic: { spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } },
  };
  const got = (['json', 'merge', 'strategic'] as const).map((t) => applyPatch(pod(), body[t], t, 'Pod'));
  assert.deepEqual(got, [
    edited((p) => (app(p).image = 'busybox:1.36')),
    edited((p) => (p.metadata.labels.env = 'prod')),
    edited((p) => (app(p).image = 'busybox:1.36')),
  ]);
});

test('no patch mutates the stored object or the patch body', () => {
  const stored = pod();
  const smpBody = { metadata: { labels: { tier: null } }, spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }], containers: [{ name: 'app', env: [{ name: 'A', $patch: 'delete' }] }] } };
  const mergeBody = { metadata: { labels: { tier: null } } };
  const jsonBody = [{ op: 'remove', path: '/metadata/labels/tier' }];
  const bodies = JSON.parse(JSON.stringify([smpBody, mergeBody, jsonBody]));
  applyStrategicMergePatch(stored, smpBody, 'Pod');
  applyMergePatch(stored, mergeBody);
  applyJsonPatch(stored, jsonBody);
  assert.deepEqual({ stored, bodies: [smpBody, mergeBody, jsonBody] }, { stored: pod(), bodies });
});
