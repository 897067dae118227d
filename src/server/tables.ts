// Server-side printing: the meta.k8s.io Table the API server answers when kubectl asks for
// `Accept: application/json;as=Table;v=v1;g=meta.k8s.io,application/json`. The columns and cells
// are pkg/printers/internalversion/printers.go (AddHandlers, printPod, printEvent, printNamespace,
// printNode, printConfigMap, printSecret) as generated with Wide: true (pkg/printers/storage: the
// server always prints every column; kubectl drops priority-1 columns unless `-o wide`); the
// Table's metadata is pkg/printers/tablegenerator.go GenerateTable; the row objects are
// k8s.io/apiserver/pkg/endpoints/handlers/response.go asTable (includeObject None, Metadata — a
// PartialObjectMetadata, the default — or Object). Pod cells come from src/engine/printer.ts.
// Pure: `now` is passed in; AGE and the other durations are computed here, as the server does.
import type { ConfigMap, Event as KEvent, Namespace, Node, Pod, Secret } from 'kubernetes-types/core/v1';
import { goQuote } from '../shared/go.js';
import { configMapCells, podCells, secretCells, timeMs, translateTimestampSince } from '../engine/printer.js';

export type TableKind = 'Pod' | 'Event' | 'ConfigMap' | 'Secret' | 'Namespace' | 'Node';
export type IncludeObject = 'None' | 'Metadata' | 'Object';
/** The Table's group version: kubectl asks for meta.k8s.io/v1 first, v1beta1 second. */
export type TableVersion = 'v1' | 'v1beta1';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface TableRow {
  cells: (string | number | boolean)[];
  conditions?: TableRowCondition[];
  /** null for includeObject=None (a nil RawExtension marshals as null). */
  object: object | null;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

export interface TableOptions {
  /** The includeObject query parameter; kubectl sends Object only with --sort-by. Default Metadata. */
  includeObject?: IncludeObject;
  /** A list's ListMeta (resourceVersion, continue, remainingItemCount). */
  listMeta?: ListMeta;
  version?: TableVersion;
}

// ---------------------------------------------------------------------------------------------
// Column definitions (descriptions are the v1.33 SwaggerDoc texts the printers quote)

const DOC = {
  name: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  creationTimestamp:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  podIP: 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
  nodeName:
    'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename',
  nominatedNodeName:
    'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
  readinessGates:
    'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
  kubeletVersion: 'Kubelet Version reported by the node.',
  addresses:
    "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
  osImage: 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
  kernelVersion: "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
  containerRuntimeVersion: 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
  eventLastTimestamp: 'The time at which the most recent occurrence of this event was recorded.',
  eventType: 'Type of this event (Normal, Warning), new types could be added in the future',
  eventReason: "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  eventInvolvedObject: 'The object that this event is about.',
  fieldPath:
    'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
  eventSource: 'The component reporting this event. Should be a short machine understandable string.',
  eventMessage: 'A human-readable description of the status of this operation.',
  eventFirstTimestamp: 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
  eventCount: 'The number of times this event has occurred.',
  secretType: 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types',
  secretData:
    "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
  configMapData:
    "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
} as const;

const col = (name: string, type: string, description: string, priority = 0, format = ''): TableColumnDefinition => ({ name, type, format, description, priority });
const nameCol = (priority = 0) => col('Name', 'string', DOC.name, priority, 'name');
const ageCol = () => col('Age', 'string', DOC.creationTimestamp);

export const COLUMNS: Readonly<Record<TableKind, readonly TableColumnDefinition[]>> = {
  Pod: [
    nameCol(),
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'string', 'The aggregate status of the containers in this pod.'),
    col('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageCol(),
    col('IP', 'string', DOC.podIP, 1),
    col('Node', 'string', DOC.nodeName, 1),
    col('Nominated Node', 'string', DOC.nominatedNodeName, 1),
    col('Readiness Gates', 'string', DOC.readinessGates, 1),
  ],
  Event: [
    col('Last Seen', 'string', DOC.eventLastTimestamp),
    col('Type', 'string', DOC.eventType),
    col('Reason', 'string', DOC.eventReason),
    col('Object', 'string', DOC.eventInvolvedObject),
    col('Subobject', 'string', DOC.fieldPath, 1),
    col('Source', 'string', DOC.eventSource, 1),
    col('Message', 'string', DOC.eventMessage),
    col('First Seen', 'string', DOC.eventFirstTimestamp, 1),
    col('Count', 'string', DOC.eventCount, 1),
    nameCol(1),
  ],
  Namespace: [nameCol(), col('Status', 'string', 'The status of the namespace'), ageCol()],
  Node: [
    nameCol(),
    col('Status', 'string', 'The status of the node'),
    col('Roles', 'string', 'The roles of the node'),
    ageCol(),
    col('Version', 'string', DOC.kubeletVersion),
    col('Internal-IP', 'string', DOC.addresses, 1),
    col('External-IP', 'string', DOC.addresses, 1),
    col('OS-Image', 'string', DOC.osImage, 1),
    col('Kernel-Version', 'string', DOC.kernelVersion, 1),
    col('Container-Runtime', 'string', DOC.containerRuntimeVersion, 1),
  ],
  ConfigMap: [nameCol(), col('Data', 'string', DOC.configMapData), ageCol()],
  Secret: [nameCol(), col('Type', 'string', DOC.secretType), col('Data', 'string', DOC.secretData), ageCol()],
};

// ---------------------------------------------------------------------------------------------
// Cells

/** printPod's row conditions for terminal pods. */
const POD_SUCCEEDED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const POD_FAILED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

/** formatEventSource: component (or reportingController) and `, host` (or reportingInstance) when there is one. */
export function formatEventSource(e: KEvent): string {
  const component = e.source?.component || e.reportingComponent || '';
  const host = e.source?.host || e.reportingInstance || '';
  return host ? `${component}, ${host}` : component;
}

/** printEvent's cells (wide): LAST SEEN, TYPE, REASON, OBJECT, SUBOBJECT, SOURCE, MESSAGE, FIRST SEEN, COUNT, NAME. */
export function eventCells(e: KEvent, now: number): (string | number)[] {
  let first = translateTimestampSince(e.firstTimestamp, now);
  if (timeMs(e.firstTimestamp) === 0) first = translateTimestampSince(e.eventTime, now);
  let last = translateTimestampSince(e.lastTimestamp, now);
  if (timeMs(e.lastTimestamp) === 0) last = first;
  let count = e.count ?? 0;
  if (e.series) {
    last = translateTimestampSince(e.series.lastObservedTime, now);
    count = e.series.count ?? 0;
  } else if (count === 0) count = 1;
  const kind = (e.involvedObject?.kind ?? '').toLowerCase();
  const target = e.involvedObject?.name ? `${kind}/${e.involvedObject.name}` : kind;
  return [last, e.type ?? '', e.reason ?? '', target, e.involvedObject?.fieldPath ?? '', formatEventSource(e), (e.message ?? '').trim(), first, count, e.metadata?.name ?? ''];
}

/** findNodeRoles: `node-role.kubernetes.io/<role>` keys and `kubernetes.io/role` values, sorted, deduplicated. */
function nodeRoles(n: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(n.metadata?.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return [...roles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** printNode's cells (wide). */
export function nodeCells(n: Node, now: number): string[] {
  const ready = (n.status?.conditions ?? []).filter((c) => c.type === 'Ready').pop();
  const status: string[] = [];
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (status.length === 0) status.push('Unknown');
  if (n.spec?.unschedulable) status.push('SchedulingDisabled');
  const roles = nodeRoles(n).join(',') || '<none>';
  const address = (type: string) => (n.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';
  const info = n.status?.nodeInfo;
  return [
    n.metadata?.name ?? '',
    status.join(','),
    roles,
    translateTimestampSince(n.metadata?.creationTimestamp, now),
    info?.kubeletVersion ?? '',
    address('InternalIP'),
    address('ExternalIP'),
    info?.osImage || '<unknown>',
    info?.kernelVersion || '<unknown>',
    info?.containerRuntimeVersion || '<unknown>',
  ];
}

/** printNamespace's cells. */
export function namespaceCells(ns: Namespace, now: number): string[] {
  return [ns.metadata?.name ?? '', ns.status?.phase ?? '', translateTimestampSince(ns.metadata?.creationTimestamp, now)];
}

/** The cells and row conditions of one object, as the printer registered for its kind makes them. */
export function rowCells(kind: TableKind, obj: object, now: number): { cells: (string | number)[]; conditions?: TableRowCondition[] } {
  switch (kind) {
    case 'Pod': {
      const pod = obj as Pod;
      const phase = pod.status?.phase;
      const conditions = phase === 'Succeeded' ? POD_SUCCEEDED : phase === 'Failed' ? POD_FAILED : undefined;
      const cells = podCells(pod, now, true);
      return conditions ? { cells, conditions: structuredClone(conditions) } : { cells };
    }
    case 'Event':
      return { cells: eventCells(obj as KEvent, now) };
    case 'Namespace':
      return { cells: namespaceCells(obj as Namespace, now) };
    case 'Node':
      return { cells: nodeCells(obj as Node, now) };
    case 'ConfigMap': {
      const [name, data, age] = configMapCells(obj as ConfigMap, now);
      return { cells: [name!, Number(data), age!] };
    }
    case 'Secret': {
      const [name, type, data, age] = secretCells(obj as Secret, now);
      return { cells: [name!, type!, Number(data), age!] };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rows and tables

const metaGroupVersion = (v: TableVersion = 'v1') => `meta.k8s.io/${v}`;

/** The object a row carries: nothing, the PartialObjectMetadata (metadata as stored), or the whole v1 object. */
export function rowObject(kind: TableKind, obj: object, includeObject: IncludeObject = 'Metadata', version: TableVersion = 'v1'): object | null {
  switch (includeObject) {
    case 'None':
      return null;
    case 'Metadata':
      return { kind: 'PartialObjectMetadata', apiVersion: metaGroupVersion(version), metadata: structuredClone((obj as { metadata?: object }).metadata ?? {}) };
    case 'Object': {
      const { kind: _k, apiVersion: _a, ...rest } = structuredClone(obj) as Record<string, unknown>;
      return { kind, apiVersion: 'v1', ...rest };
    }
  }
}

/** One row. */
export function tableRow(kind: TableKind, obj: object, now: number, includeObject: IncludeObject = 'Metadata', version: TableVersion = 'v1'): TableRow {
  const { cells, conditions } = rowCells(kind, obj, now);
  const row: TableRow = { cells, object: rowObject(kind, obj, includeObject, version) };
  if (conditions) return { cells, conditions, object: row.object };
  return row;
}

function listMeta(m: ListMeta | undefined): ListMeta {
  const out: ListMeta = {};
  if (m?.resourceVersion) out.resourceVersion = m.resourceVersion;
  if (m?.continue) out.continue = m.continue;
  if (m?.remainingItemCount !== undefined && m.remainingItemCount !== null) out.remainingItemCount = m.remainingItemCount;
  return out;
}

function table(kind: TableKind, rows: TableRow[], meta: ListMeta, version: TableVersion | undefined): Table {
  return { kind: 'Table', apiVersion: metaGroupVersion(version), metadata: meta, columnDefinitions: structuredClone([...COLUMNS[kind]]), rows };
}

/**
 * The Table for a LIST: one row per object in the order given (the API server keeps storage
 * order: sorted by namespace/name), metadata from the list's ListMeta. Every column is there
 * (priority 1 = wide); kubectl hides the wide ones itself.
 */
export function toTable(kind: TableKind, objects: readonly object[], now: number, opts: TableOptions = {}): Table {
  return table(
    kind,
    objects.map((o) => tableRow(kind, o, now, opts.includeObject, opts.version)),
    listMeta(opts.listMeta),
    opts.version,
  );
}

/**
 * The Table for one object: a GET of a named object, and the object of each watch event of a
 * watch asked as Table (`kubectl get -w`): one row, metadata.resourceVersion the object's.
 */
export function objectTable(kind: TableKind, obj: object, now: number, opts: Omit<TableOptions, 'listMeta'> = {}): Table {
  const rv = (obj as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
  return table(kind, [tableRow(kind, obj, now, opts.includeObject, opts.version)], rv ? { resourceVersion: rv } : {}, opts.version);
}

/** A watch event whose object is a one-row Table. */
export function tableWatchEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', kind: TableKind, obj: object, now: number, opts: Omit<TableOptions, 'listMeta'> = {}): { type: string; object: Table } {
  return { type, object: objectTable(kind, obj, now, opts) };
}

/** The parsed Accept header: whether it asks for a Table, and which version (first listed wins). */
export function acceptsTable(accept: string | undefined): TableVersion | undefined {
  for (const part of (accept ?? '').split(',')) {
    const params = part.split(';').map((s) => s.trim());
    const media = params.shift();
    if (media !== 'application/json' && media !== '*/*') continue;
    const p = Object.fromEntries(params.map((kv) => kv.split('=').map((s) => s.trim()) as [string, string]));
    if (p.as === 'Table' && p.g === 'meta.k8s.io' && (p.v === 'v1' || p.v === 'v1beta1')) return p.v;
    if (!p.as) return undefined;
  }
  return undefined;
}

/** The includeObject query parameter, or the BadRequest message the API server answers for a bad one. */
export function parseIncludeObject(value: string | null | undefined): IncludeObject | { error: string } {
  if (value === null || value === undefined || value === '') return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  return { error: `unrecognized includeObject value: ${goQuote(value)}` };
}

