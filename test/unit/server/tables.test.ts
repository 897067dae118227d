import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigMap, Event as KEvent, Namespace, Node, Pod, Secret } from 'kubernetes-types/core/v1';
import {
  COLUMNS,
  acceptsTable,
  eventCells,
  namespaceCells,
  nodeCells,
  objectTable,
  parseIncludeObject,
  rowCells,
  tableWatchEvent,
  toTable,
  type Table,
  type TableColumnDefinition,
} from '../../../src/server/tables.js';

const T0 = Date.UTC(2024, 0, 1, 10, 0, 0);
const iso = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z');
const NOW = T0 + 3600 * 1000; // one hour after T0

const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const AGE_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const meta = (name: string, extra: object = {}) => ({ name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: iso(0), labels: { app: name }, ...extra });

const running: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: meta('web'),
  spec: { nodeName: 'podlab', containers: [{ name: 'c', image: 'busybox:1.35' }] },
  status: {
    phase: 'Running',
    podIPs: [{ ip: '10.88.0.5' }],
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [{ name: 'c', image: 'busybox:1.35', imageID: '', ready: true, restartCount: 2, lastState: { terminated: { exitCode: 1, finishedAt: iso(3540) } }, state: { running: { startedAt: iso(3540) } } }],
  },
};
const succeeded: Pod = {
  metadata: meta('job'),
  spec: { containers: [{ name: 'c', image: 'busybox:1.35' }] },
  status: { phase: 'Succeeded', containerStatuses: [{ name: 'c', image: 'busybox:1.35', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }] },
};
const failed: Pod = { metadata: meta('bad'), spec: { containers: [{ name: 'c', image: 'busybox:1.35' }] }, status: { phase: 'Failed', reason: 'DeadlineExceeded' } };

describe('column definitions are printers.go AddHandlers', () => {
  const names = (cols: readonly TableColumnDefinition[]) => cols.map((c) => [c.name, c.type, c.format, c.priority]);
  const cases: [string, readonly TableColumnDefinition[], [string, string, string, number][]][] = [
    [
      'pods: NAME READY STATUS RESTARTS AGE, wide IP NODE NOMINATED NODE READINESS GATES',
      COLUMNS.Pod,
      [
        ['Name', 'string', 'name', 0],
        ['Ready', 'string', '', 0],
        ['Status', 'string', '', 0],
        ['Restarts', 'string', '', 0],
        ['Age', 'string', '', 0],
        ['IP', 'string', '', 1],
        ['Node', 'string', '', 1],
        ['Nominated Node', 'string', '', 1],
        ['Readiness Gates', 'string', '', 1],
      ],
    ],
    [
      'events: LAST SEEN TYPE REASON OBJECT MESSAGE, wide SUBOBJECT SOURCE (before MESSAGE) FIRST SEEN COUNT NAME',
      COLUMNS.Event,
      [
        ['Last Seen', 'string', '', 0],
        ['Type', 'string', '', 0],
        ['Reason', 'string', '', 0],
        ['Object', 'string', '', 0],
        ['Subobject', 'string', '', 1],
        ['Source', 'string', '', 1],
        ['Message', 'string', '', 0],
        ['First Seen', 'string', '', 1],
        ['Count', 'string', '', 1],
        ['Name', 'string', 'name', 1],
      ],
    ],
    [
      'namespaces: NAME STATUS AGE',
      COLUMNS.Namespace,
      [
        ['Name', 'string', 'name', 0],
        ['Status', 'string', '', 0],
        ['Age', 'string', '', 0],
      ],
    ],
    [
      'nodes: NAME STATUS ROLES AGE VERSION, wide INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME',
      COLUMNS.Node,
      [
        ['Name', 'string', 'name', 0],
        ['Status', 'string', '', 0],
        ['Roles', 'string', '', 0],
        ['Age', 'string', '', 0],
        ['Version', 'string', '', 0],
        ['Internal-IP', 'string', '', 1],
        ['External-IP', 'string', '', 1],
        ['OS-Image', 'string', '', 1],
        ['Kernel-Version', 'string', '', 1],
        ['Container-Runtime', 'string', '', 1],
      ],
    ],
    [
      'configmaps: NAME DATA AGE',
      COLUMNS.ConfigMap,
      [
        ['Name', 'string', 'name', 0],
        ['Data', 'string', '', 0],
        ['Age', 'string', '', 0],
      ],
    ],
    [
      'secrets: NAME TYPE DATA AGE',
      COLUMNS.Secret,
      [
        ['Name', 'string', 'name', 0],
        ['Type', 'string', '', 0],
        ['Data', 'string', '', 0],
        ['Age', 'string', '', 0],
      ],
    ],
  ];
  for (const [name, cols, want] of cases) test(name, () => assert.deepEqual(names(cols), want));
});

describe('toTable builds the Table the API server answers a LIST with', () => {
  test('a running pod, object as PartialObjectMetadata (the default), every column and the list metadata', () => {
    const want: Table = {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '42' },
      columnDefinitions: [...COLUMNS.Pod],
      rows: [
        {
          cells: ['web', '1/1', 'Running', '2 (60s ago)', '60m', '10.88.0.5', 'podlab', '<none>', '<none>'],
          object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: meta('web') },
        },
      ],
    };
    assert.deepEqual(toTable('Pod', [running], NOW, { listMeta: { resourceVersion: '42' } }), want);
    assert.equal(want.columnDefinitions[0]!.description, NAME_DOC);
    assert.equal(want.columnDefinitions[4]!.description, AGE_DOC);
  });

  test('terminal pods carry the Completed row condition', () => {
    const t = toTable('Pod', [succeeded, failed], NOW, { includeObject: 'None' });
    assert.deepEqual(t.rows, [
      {
        cells: ['job', '0/1', 'Completed', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
        conditions: [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }],
        object: null,
      },
      {
        cells: ['bad', '0/1', 'DeadlineExceeded', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
        conditions: [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }],
        object: null,
      },
    ]);
  });

  test('includeObject=Object embeds the whole v1 object with kind and apiVersion first', () => {
    const cm: ConfigMap = { metadata: meta('cfg'), data: { a: '1' } };
    const t = toTable('ConfigMap', [cm], NOW, { includeObject: 'Object' });
    assert.deepEqual(t.rows, [{ cells: ['cfg', 1, '60m'], object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: meta('cfg'), data: { a: '1' } } }]);
    assert.deepEqual(Object.keys(t.rows[0]!.object!), ['kind', 'apiVersion', 'metadata', 'data']);
  });

  test('an empty list has every column and no rows; continue and remainingItemCount are kept', () => {
    assert.deepEqual(toTable('Secret', [], NOW, { listMeta: { resourceVersion: '9', continue: 'abc', remainingItemCount: 3 } }), {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '9', continue: 'abc', remainingItemCount: 3 },
      columnDefinitions: [...COLUMNS.Secret],
      rows: [],
    });
  });

  test('a v1beta1 Table embeds v1beta1 PartialObjectMetadata', () => {
    const ns: Namespace = { metadata: { name: 'default', creationTimestamp: iso(0) }, status: { phase: 'Active' } };
    assert.deepEqual(toTable('Namespace', [ns], NOW, { version: 'v1beta1' }), {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1beta1',
      metadata: {},
      columnDefinitions: [...COLUMNS.Namespace],
      rows: [{ cells: ['default', 'Active', '60m'], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: { name: 'default', creationTimestamp: iso(0) } } }],
    });
  });

  test('the row objects are copies, not the stored objects', () => {
    const t = toTable('Pod', [running], NOW);
    (t.rows[0]!.object as { metadata: { name: string } }).metadata.name = 'changed';
    assert.equal(running.metadata?.name, 'web');
  });
});

describe('objectTable and watch events carry one row and the object resourceVersion', () => {
  test('a GET of one pod', () => {
    assert.deepEqual(objectTable('Pod', running, NOW, { includeObject: 'None' }), {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '7' },
      columnDefinitions: [...COLUMNS.Pod],
      rows: [{ cells: ['web', '1/1', 'Running', '2 (60s ago)', '60m', '10.88.0.5', 'podlab', '<none>', '<none>'], object: null }],
    });
  });

  test('a watch event of a terminating pod', () => {
    const deleting: Pod = { ...running, metadata: { ...running.metadata, resourceVersion: '8', deletionTimestamp: iso(3600) } };
    assert.deepEqual(tableWatchEvent('MODIFIED', 'Pod', deleting, NOW, { includeObject: 'None' }), {
      type: 'MODIFIED',
      object: {
        kind: 'Table',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { resourceVersion: '8' },
        columnDefinitions: [...COLUMNS.Pod],
        rows: [{ cells: ['web', '1/1', 'Terminating', '2 (60s ago)', '60m', '10.88.0.5', 'podlab', '<none>', '<none>'], object: null }],
      },
    });
  });
});

describe('printEvent cells (wide: LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME)', () => {
  const base: KEvent = {
    metadata: { name: 'web.1', namespace: 'default' },
    involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', fieldPath: 'spec.containers{c}' },
    reason: 'BackOff',
    message: '  Back-off restarting failed container c\n',
    source: { component: 'kubelet', host: 'podlab' },
    firstTimestamp: iso(0),
    lastTimestamp: iso(3590),
    count: 7,
    type: 'Warning',
  };
  const cases: [string, KEvent, (string | number)[]][] = [
    ['a kubelet event: kind/name, component and host, message trimmed', base, ['10s', 'Warning', 'BackOff', 'pod/web', 'spec.containers{c}', 'kubelet, podlab', 'Back-off restarting failed container c', '60m', 7, 'web.1']],
    [
      'a new-API event: eventTime for both times, count 1, reporting controller and instance',
      { ...base, firstTimestamp: undefined, lastTimestamp: undefined, count: undefined, source: undefined, eventTime: iso(3595), reportingComponent: 'default-scheduler', reportingInstance: 'sched-1' },
      ['5s', 'Warning', 'BackOff', 'pod/web', 'spec.containers{c}', 'default-scheduler, sched-1', 'Back-off restarting failed container c', '5s', 1, 'web.1'],
    ],
    [
      'a series: last observed time and the series count',
      { ...base, series: { count: 12, lastObservedTime: iso(3599) } },
      ['1s', 'Warning', 'BackOff', 'pod/web', 'spec.containers{c}', 'kubelet, podlab', 'Back-off restarting failed container c', '60m', 12, 'web.1'],
    ],
    [
      'no last timestamp: last seen is first seen; no host: the component alone',
      { ...base, lastTimestamp: undefined, source: { component: 'kubelet' } },
      ['60m', 'Warning', 'BackOff', 'pod/web', 'spec.containers{c}', 'kubelet', 'Back-off restarting failed container c', '60m', 7, 'web.1'],
    ],
    [
      'an object without a name: the lowercased kind alone; no times at all: <unknown>',
      { metadata: { name: 'n.1' }, involvedObject: { kind: 'Node' }, reason: 'Starting', type: 'Normal' },
      ['<unknown>', 'Normal', 'Starting', 'node', '', '', '', '<unknown>', 1, 'n.1'],
    ],
  ];
  for (const [name, e, want] of cases) test(name, () => assert.deepEqual(eventCells(e, NOW), want));
});

describe('printNode cells (wide)', () => {
  const base: Node = {
    metadata: { name: 'podlab', creationTimestamp: iso(0), labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'lab', 'node-role.kubernetes.io/': '' } },
    spec: {},
    status: {
      conditions: [{ type: 'Ready', status: 'True' }],
      addresses: [
        { type: 'Hostname', address: 'podlab' },
        { type: 'InternalIP', address: '10.0.0.2' },
        { type: 'ExternalIP', address: '1.2.3.4' },
      ],
      nodeInfo: { kubeletVersion: 'v1.33.1', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0', containerRuntimeVersion: 'docker://20.10.24', architecture: 'amd64', bootID: '', machineID: '', kubeProxyVersion: '', operatingSystem: 'linux', systemUUID: '' },
    },
  };
  const cases: [string, Node, string[]][] = [
    ['a ready node with roles from both label forms, sorted', base, ['podlab', 'Ready', 'control-plane,lab', '60m', 'v1.33.1', '10.0.0.2', '1.2.3.4', 'Debian GNU/Linux 12 (bookworm)', '6.1.0', 'docker://20.10.24']],
    [
      'a not-ready cordoned node',
      { ...base, spec: { unschedulable: true }, status: { ...base.status, conditions: [{ type: 'Ready', status: 'False' }] } },
      ['podlab', 'NotReady,SchedulingDisabled', 'control-plane,lab', '60m', 'v1.33.1', '10.0.0.2', '1.2.3.4', 'Debian GNU/Linux 12 (bookworm)', '6.1.0', 'docker://20.10.24'],
    ],
    ['a node with no status: Unknown, <none> and <unknown>', { metadata: { name: 'n' } }, ['n', 'Unknown', '<none>', '<unknown>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']],
  ];
  for (const [name, n, want] of cases) test(name, () => assert.deepEqual(nodeCells(n, NOW), want));
});

describe('the other printers', () => {
  const cases: [string, () => unknown, unknown][] = [
    ['a namespace: name, phase, age', () => namespaceCells({ metadata: { name: 'old', creationTimestamp: iso(3570) }, status: { phase: 'Terminating' } }, NOW), ['old', 'Terminating', '30s']],
    ['a configmap: DATA counts data and binaryData, as a number', () => rowCells('ConfigMap', { metadata: { name: 'c', creationTimestamp: iso(0) }, data: { a: '' }, binaryData: { b: 'AA==' } } as ConfigMap, NOW), { cells: ['c', 2, '60m'] }],
    ['a secret: TYPE as stored, DATA as a number', () => rowCells('Secret', { metadata: { name: 's', creationTimestamp: iso(0) }, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } } as Secret, NOW), { cells: ['s', 'kubernetes.io/tls', 2, '60m'] }],
    ['a running pod has no row conditions', () => rowCells('Pod', running, NOW), { cells: ['web', '1/1', 'Running', '2 (60s ago)', '60m', '10.88.0.5', 'podlab', '<none>', '<none>'] }],
  ];
  for (const [name, got, want] of cases) test(name, () => assert.deepEqual(got(), want));
});

describe('request parsing', () => {
  const accepts: [string, string | undefined, string | undefined][] = [
    ["kubectl get's Accept asks for a v1 Table", 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', 'v1'],
    ['an old kubectl asks for v1beta1', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io, application/json', 'v1beta1'],
    ['an unknown Table version falls through to the next choice', 'application/json;as=Table;v=v2;g=meta.k8s.io,application/json', undefined],
    ['plain JSON is not a Table', 'application/json, */*', undefined],
    ['no Accept is not a Table', undefined, undefined],
  ];
  for (const [name, accept, want] of accepts) test(name, () => assert.equal(acceptsTable(accept), want));

  const includes: [string, string | null, unknown][] = [
    ['no includeObject is Metadata', null, 'Metadata'],
    ['Object is kept', 'Object', 'Object'],
    ['None is kept', 'None', 'None'],
    ['anything else is the BadRequest message', 'all', { error: 'unrecognized includeObject value: "all"' }],
  ];
  for (const [name, value, want] of includes) test(name, () => assert.deepEqual(parseIncludeObject(value), want));
});
