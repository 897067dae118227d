// The lab API server's OpenAPI documents: /openapi/v3 (index), /openapi/v3/<group-version> (OpenAPI 3.0) and
// /openapi/v2 (Swagger 2.0, JSON or gnostic protobuf), generated from the validator's field schema
// (src/validation/schema.ts) plus ./openapi-data.json (kinds outside the Pod closure, markers, enums, defaults).
// Upstream: k8s.io/kube-openapi pkg/handler3/handler.go (index, hash, ETag/Cache-Control, 301 on a stale hash),
// pkg/handler/handler.go (v2 negotiation), pkg/builder3 + pkg/builder (schema and path shapes),
// k8s.io/apiserver pkg/endpoints/installer.go (operations, their ids, descriptions and parameters),
// github.com/google/gnostic-models openapiv2/OpenAPIv2.proto (the v2 protobuf kubectl decodes).
// kubectl (1.27+) reads: `kubectl explain` -> /openapi/v3 + the group-version document (GVK from a path operation's
// x-kubernetes-group-version-kind, then the components.schemas entry carrying that GVK, following allOf/$ref);
// --validate=strict -> the fieldValidation query parameter of the kind's PATCH operation (cli-runtime
// query_param_verifier_v3.go); client-go's OpenAPISchema() asks /openapi/v2 for protobuf only and proto-decodes it.
import { createHash } from 'node:crypto';
import { typeSpec } from '../validation/schema.js';
import dataJson from './openapi-data.json';

// ---------------------------------------------------------------------------------------------------------------
// Field schema: the validator's generated types first, then the supplement.

type RawField = [string, number, string?];
interface RawType { d?: string; f: Record<string, RawField> }
interface FieldMarker { d?: unknown; e?: string[]; lk?: string[]; lt?: string; mt?: string; pk?: string; ps?: string }
interface OpenAPIData { aliases: Record<string, string>; atomic: string[]; fields: Record<string, FieldMarker>; requiredOrder: Record<string, string[]>; types: Record<string, RawType> }
const data = dataJson as unknown as OpenAPIData;
const ATOMIC = new Set(data.atomic);

interface Field { name: string; type: string; required: boolean; doc?: string }
interface TypeDef { doc?: string; fields: Field[] }

function typeDef(name: string): TypeDef | undefined {
  const g = typeSpec(name);
  if (g) {
    const fields = [...g.fields].map(([n, f]): Field => ({ name: n, type: f.type, required: f.required, ...(f.doc !== undefined ? { doc: f.doc } : {}) }));
    return { ...(g.doc !== undefined ? { doc: g.doc } : {}), fields };
  }
  const s = data.types[name];
  if (!s) return undefined;
  const fields = Object.entries(s.f).map(([n, [type, req, doc]]): Field => ({ name: n, type, required: req === 1, ...(doc !== undefined ? { doc } : {}) }));
  return { ...(s.d !== undefined ? { doc: s.d } : {}), fields };
}

const META = new Set([
  'ObjectMeta', 'ManagedFieldsEntry', 'FieldsV1', 'OwnerReference', 'LabelSelector', 'LabelSelectorRequirement', 'ListMeta',
  'Status', 'StatusDetails', 'StatusCause', 'DeleteOptions', 'Preconditions', 'WatchEvent', 'Patch', 'Time', 'MicroTime',
  'APIResourceList', 'APIResource', 'APIVersions', 'APIGroupList', 'APIGroup', 'GroupVersionForDiscovery', 'ServerAddressByClientCIDR',
]);
const AUTHORIZATION = new Set([
  'SelfSubjectAccessReview', 'SelfSubjectAccessReviewSpec', 'ResourceAttributes', 'NonResourceAttributes', 'SubjectAccessReviewStatus',
  'SelfSubjectRulesReview', 'SelfSubjectRulesReviewSpec', 'SubjectRulesReviewStatus', 'ResourceRule', 'NonResourceRule',
]);

/** The upstream (Go package path) name of a schema type, as in components.schemas / definitions. */
export function openapiTypeName(name: string): string {
  switch (name) {
    case 'Quantity':
      return 'io.k8s.apimachinery.pkg.api.resource.Quantity';
    case 'IntOrString':
      return 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
    case 'RawExtension':
      return 'io.k8s.apimachinery.pkg.runtime.RawExtension';
    case 'Info':
      return 'io.k8s.apimachinery.pkg.version.Info';
  }
  if (META.has(name)) return 'io.k8s.apimachinery.pkg.apis.meta.v1.' + name;
  if (AUTHORIZATION.has(name)) return 'io.k8s.api.authorization.v1.' + name;
  return 'io.k8s.api.core.v1.' + name;
}

const CORE = '';
const AUTHZ = 'authorization.k8s.io';
/** Group versions whose DeleteOptions/WatchEvent the documents list (upstream lists every served group). */
const SERVED_GROUP_VERSIONS: [string, string][] = [[CORE, 'v1'], [AUTHZ, 'v1']];
const gvk = (group: string, kind: string, version = 'v1') => ({ group, kind, version });
const KIND_GVKS: Record<string, { group: string; kind: string; version: string }[]> = {};
for (const k of ['Pod', 'PodList', 'ConfigMap', 'ConfigMapList', 'Secret', 'SecretList', 'Event', 'EventList', 'Node', 'NodeList', 'Namespace', 'NamespaceList', 'Status', 'APIResourceList', 'APIVersions', 'APIGroupList', 'APIGroup'])
  KIND_GVKS[k] = [gvk(CORE, k)];
for (const k of ['SelfSubjectAccessReview', 'SelfSubjectRulesReview']) KIND_GVKS[k] = [gvk(AUTHZ, k)];
for (const k of ['DeleteOptions', 'WatchEvent']) KIND_GVKS[k] = SERVED_GROUP_VERSIONS.map(([g, v]) => gvk(g, k, v));

const INT_OR_STRING_DOC =
  'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.';

/** version.Info (k8s.io/apimachinery pkg/version/types.go), not in kubernetes-types with docs. */
const INFO: TypeDef = {
  doc: "Info contains versioning information. how we'll want to distribute that information.",
  fields: [
    { name: 'major', type: 'string', required: true, doc: 'Major is the major version of the binary version' },
    { name: 'minor', type: 'string', required: true, doc: 'Minor is the minor version of the binary version' },
    { name: 'emulationMajor', type: 'string', required: false, doc: 'EmulationMajor is the major version of the emulation version' },
    { name: 'emulationMinor', type: 'string', required: false, doc: 'EmulationMinor is the minor version of the emulation version' },
    { name: 'minCompatibilityMajor', type: 'string', required: false, doc: 'MinCompatibilityMajor is the major version of the minimum compatibility version' },
    { name: 'minCompatibilityMinor', type: 'string', required: false, doc: 'MinCompatibilityMinor is the minor version of the minimum compatibility version' },
    { name: 'gitVersion', type: 'string', required: true },
    { name: 'gitCommit', type: 'string', required: true },
    { name: 'gitTreeState', type: 'string', required: true },
    { name: 'buildDate', type: 'string', required: true },
    { name: 'goVersion', type: 'string', required: true },
    { name: 'compiler', type: 'string', required: true },
    { name: 'platform', type: 'string', required: true },
  ],
};
const INFO_DEFAULTS: Record<string, unknown> = { major: '', minor: '', gitVersion: '', gitCommit: '', gitTreeState: '', buildDate: '', goVersion: '', compiler: '', platform: '' };

const SCALARS: Record<string, { type: string; format?: string; zero?: unknown }> = {
  string: { type: 'string', zero: '' },
  bytes: { type: 'string', format: 'byte' },
  int32: { type: 'integer', format: 'int32', zero: 0 },
  int64: { type: 'integer', format: 'int64', zero: 0 },
  bool: { type: 'boolean', zero: false },
};
const NAMED_SPECIAL = new Set(['Quantity', 'IntOrString', 'Time', 'MicroTime', 'RawExtension']);

type Schema = Record<string, unknown>;
type Dialect = 'v3' | 'v2';
const refPrefix = (d: Dialect) => (d === 'v3' ? '#/components/schemas/' : '#/definitions/');

function marker(owner: string, field: string): FieldMarker {
  if (owner === 'Info') return INFO_DEFAULTS[field] !== undefined ? { d: INFO_DEFAULTS[field] } : {};
  return data.fields[`${owner}.${field}`] ?? {};
}

/** Element schema of an array or map (its default is the Go zero value of a non-pointer element, v3 only). */
function elementSchema(ref: string, d: Dialect, enumValues: string[] | undefined, refs: Set<string>): Schema {
  if (ref.startsWith('[]')) return { type: 'array', items: elementSchema(ref.slice(2), d, enumValues, refs) };
  if (ref.startsWith('{}')) return { type: 'object', additionalProperties: elementSchema(ref.slice(2), d, enumValues, refs) };
  const sc = SCALARS[ref];
  if (sc) {
    const s: Schema = { type: sc.type };
    if (sc.format) s.format = sc.format;
    if (d === 'v3' && sc.zero !== undefined) s.default = sc.zero;
    if (enumValues) s.enum = enumValues;
    return s;
  }
  if (ref === 'any') return {};
  refs.add(ref);
  const target = refPrefix(d) + openapiTypeName(ref);
  return d === 'v3' ? { default: {}, allOf: [{ $ref: target }] } : { $ref: target };
}

function propertySchema(owner: string, f: Field, d: Dialect, refs: Set<string>): Schema {
  const m = marker(owner, f.name);
  const s: Schema = {};
  if (f.doc) s.description = f.doc;
  let ref = f.type;
  if (ref === 'any' && (f.name === 'apiVersion' || f.name === 'kind')) ref = 'string';
  if (ref.startsWith('[]') || ref.startsWith('{}')) {
    Object.assign(s, elementSchema(ref, d, m.e, refs));
  } else if (SCALARS[ref]) {
    const sc = SCALARS[ref]!;
    s.type = sc.type;
    if (sc.format) s.format = sc.format;
    if (d === 'v3' && m.d !== undefined) s.default = m.d;
    if (m.e) s.enum = m.e;
  } else if (ref !== 'any') {
    refs.add(ref);
    const target = refPrefix(d) + openapiTypeName(ref);
    if (d === 'v3') {
      if (m.d !== undefined) s.default = m.d;
      s.allOf = [{ $ref: target }];
    } else s.$ref = target;
  }
  if (m.lk) s['x-kubernetes-list-map-keys'] = m.lk;
  if (m.lt) s['x-kubernetes-list-type'] = m.lt;
  if (m.mt) s['x-kubernetes-map-type'] = m.mt;
  if (m.pk) s['x-kubernetes-patch-merge-key'] = m.pk;
  if (m.ps) s['x-kubernetes-patch-strategy'] = m.ps;
  return s;
}

/**
 * The schema of one named type (`Pod`, `ExecAction`, `Quantity`, ...) in the v3 (components.schemas) or v2
 * (definitions) dialect; `refs` collects the named types it refers to. Undefined for an unknown type.
 */
export function typeSchema(name: string, dialect: Dialect = 'v3', refs: Set<string> = new Set()): Schema | undefined {
  const aliasDoc = data.aliases[name];
  switch (name) {
    case 'Quantity':
      return dialect === 'v3'
        ? { description: aliasDoc, oneOf: [{ type: 'string' }, { type: 'number' }] }
        : { description: aliasDoc, type: 'string' };
    case 'IntOrString':
      return dialect === 'v3'
        ? { description: INT_OR_STRING_DOC, format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] }
        : { description: INT_OR_STRING_DOC, type: 'string', format: 'int-or-string' };
    case 'Time':
    case 'MicroTime':
      return { description: aliasDoc, type: 'string', format: 'date-time' };
  }
  const t = name === 'Info' ? INFO : typeDef(name);
  if (!t) return undefined;
  const s: Schema = {};
  if (t.doc) s.description = t.doc;
  s.type = 'object';
  const required = t.fields.filter((f) => f.required).map((f) => f.name);
  const order = data.requiredOrder[name];
  if (order) required.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  if (required.length) s.required = required;
  if (t.fields.length) {
    const props: Record<string, Schema> = {};
    for (const f of [...t.fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) props[f.name] = propertySchema(name, f, dialect, refs);
    s.properties = props;
  }
  if (KIND_GVKS[name]) s['x-kubernetes-group-version-kind'] = KIND_GVKS[name];
  if (ATOMIC.has(name)) s['x-kubernetes-map-type'] = 'atomic';
  return s;
}

/** Every schema reachable from the roots, keyed and sorted by upstream name. */
function schemaClosure(roots: Iterable<string>, dialect: Dialect): Record<string, Schema> {
  const out = new Map<string, Schema>();
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const n = queue.shift()!;
    if (seen.has(n)) continue;
    seen.add(n);
    const refs = new Set<string>();
    const s = typeSchema(n, dialect, refs);
    if (!s) throw new Error(`openapi: no schema for type ${n}`);
    out.set(openapiTypeName(n), s);
    for (const r of refs) if (!seen.has(r)) queue.push(r);
  }
  return Object.fromEntries([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

// ---------------------------------------------------------------------------------------------------------------
// Paths (k8s.io/apiserver pkg/endpoints/installer.go registerResourceHandlers, as the openapi builders render them).

interface ParamDef { name: string; in: 'query' | 'path'; description: string; type: 'string' | 'integer' | 'boolean'; required?: boolean }
const q = (name: string, type: ParamDef['type'], description: string): ParamDef => ({ name, in: 'query', description, type });

const PRETTY = q('pretty', 'string', "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).");
const NAMESPACE: ParamDef = { name: 'namespace', in: 'path', description: 'object name and auth scope, such as for teams and projects', type: 'string', required: true };
const nameParam = (kind: string): ParamDef => ({ name: 'name', in: 'path', description: `name of the ${kind}`, type: 'string', required: true });

// Descriptions: k8s.io/apimachinery pkg/apis/meta/v1 types_swagger_doc_generated.go (ListOptions, CreateOptions,
// UpdateOptions, PatchOptions, DeleteOptions) and k8s.io/api core/v1 (PodLogOptions).
const DRY_RUN = q('dryRun', 'string', 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed');
const FIELD_MANAGER = q('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.');
const FIELD_MANAGER_PATCH = q('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint. This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).');
const FIELD_VALIDATION = q('fieldValidation', 'string', 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.');
const FORCE = q('force', 'boolean', 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.');
const GRACE = q('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.');
const IGNORE_STORE = q('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean', "if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it");
const ORPHAN = q('orphanDependents', 'boolean', 'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.');
const PROPAGATION = q('propagationPolicy', 'string', "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.");
const LIST_PARAMS: ParamDef[] = [
  q('allowWatchBookmarks', 'boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.'),
  q('continue', 'string', 'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize. If the specified continue value is no longer valid whether due to expiration (generally five to fifteen minutes) or a configuration change on the server, the server will respond with a 410 ResourceExpired error together with a continue token. If the client needs a consistent list, it must restart their list without the continue field. Otherwise, the client may send another list request with the token received with the 410 error, the server will respond with a list starting from the next key, but from the latest snapshot, which is inconsistent from the previous list results - objects that are created, modified, or deleted after the first list request will be included in the response, as long as their keys are after the "next key".\n\nThis field is not supported when watch is true. Clients may start a watch from the last resourceVersion value returned by the server and not miss any modifications.'),
  q('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  q('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  q('limit', 'integer', 'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results. Setting a limit may return fewer than the requested amount of items (up to zero items) in the event all requested objects are filtered out and clients should only use the presence of the continue field to determine whether more results are available. Servers may choose not to support the limit argument and will return all of the available results. If limit is specified and the continue field is empty, clients may assume that no more results are available. This field is not supported if watch is true.\n\nThe server guarantees that the objects returned when using continue will be identical to issuing a single list call without a limit - that is, no objects created, modified, or deleted after the first request is issued will be included in any subsequent continued requests. This is sometimes referred to as a consistent snapshot, and ensures that a client that is using limit to receive smaller chunks of a very large result can ensure they see all possible objects. If objects are updated during a chunked list the version of the object that was present at the time the first list result was calculated is returned.'),
  q('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset'),
  q('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset'),
  q('sendInitialEvents', 'boolean', '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic "Bookmark" event  will be sent. The bookmark will report the ResourceVersion (RV) corresponding to the set of objects, and be marked with `"k8s.io/initial-events-end": "true"` annotation. Afterwards, the watch stream will proceed as usual, sending watch events corresponding to changes (subsequent to the RV) to objects watched.\n\nWhen `sendInitialEvents` option is set, we require `resourceVersionMatch` option to also be set. The semantic of the watch request is as following: - `resourceVersionMatch` = NotOlderThan\n  is interpreted as "data at least as new as the provided `resourceVersion`"\n  and the bookmark event is send when the state is synced\n  to a `resourceVersion` at least as fresh as the one provided by the ListOptions.\n  If `resourceVersion` is unset, this is interpreted as "consistent read" and the\n  bookmark event is send when the state is synced at least to the moment\n  when request started being processed.\n- `resourceVersionMatch` set to any other value or unset\n  Invalid error is returned.\n\nDefaults to true if `resourceVersion=""` or `resourceVersion="0"` (for backward compatibility reasons) and to false otherwise.'),
  q('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'),
  q('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.'),
];
const LOG_PARAMS: ParamDef[] = [
  q('container', 'string', 'The container for which to stream logs. Defaults to only container if there is one container in the pod.'),
  q('follow', 'boolean', 'Follow the log stream of the pod. Defaults to false.'),
  q('insecureSkipTLSVerifyBackend', 'boolean', "insecureSkipTLSVerifyBackend indicates that the apiserver should not confirm the validity of the serving certificate of the backend it is connecting to.  This will make the HTTPS connection between the apiserver and the backend insecure. This means the apiserver cannot verify the log data it is receiving came from the real kubelet.  If the kubelet is configured to verify the apiserver's TLS credentials, it does not mean the connection to the real kubelet is vulnerable to a man in the middle attack (e.g. an attacker could not intercept the actual log data coming from the real kubelet)."),
  q('limitBytes', 'integer', 'If set, the number of bytes to read from the server before terminating the log output. This may not display a complete final line of logging, and may return slightly more or slightly less than the specified limit.'),
  q('previous', 'boolean', 'Return previous terminated container logs. Defaults to false.'),
  q('sinceSeconds', 'integer', 'A relative time in seconds before the current time from which to show logs. If this value precedes the time a pod was started, only logs since the pod start will be returned. If this value is in the future, no logs will be returned. Only one of sinceSeconds or sinceTime may be specified.'),
  q('stream', 'string', 'Specify which container log stream to return to the client. Acceptable values are "All", "Stdout" and "Stderr". If not specified, "All" is used, and both stdout and stderr are returned interleaved. Note that when "TailLines" is specified, "Stream" can only be set to nil or "All".'),
  q('tailLines', 'integer', 'If set, the number of lines from the end of the logs to show. If not specified, logs are shown from the creation of the container or sinceSeconds or sinceTime. Note that when "TailLines" is specified, "Stream" can only be set to nil or "All".'),
  q('timestamps', 'boolean', 'If true, add an RFC3339 or RFC3339Nano timestamp at the beginning of every line of log output. Defaults to false.'),
];

const JSON_YAML_PB = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
const WATCH_TYPES = ['application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

interface Op {
  method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  tag: string;
  description: string;
  operationId: string;
  params: ParamDef[];
  body?: { type: string; required: boolean; consumes: string[] };
  /** status -> type name, or 'string' (log) */
  responses: [number, string, string][];
  produces: string[];
  /** v2 `consumes` of a body-less operation (default: any) */
  consumes?: string[];
  action?: string;
  gvk?: { group: string; version: string; kind: string };
}
interface PathDef { path: string; ops: Op[] }

interface Resource { group: string; kind: string; plural: string; namespaced: boolean; verbs: 'crud' | 'create'; status?: boolean; log?: boolean; deleteReturnsObject?: boolean; deletecollection?: boolean }
const RESOURCES: Resource[] = [
  { group: CORE, kind: 'ConfigMap', plural: 'configmaps', namespaced: true, verbs: 'crud' },
  { group: CORE, kind: 'Event', plural: 'events', namespaced: true, verbs: 'crud' },
  { group: CORE, kind: 'Namespace', plural: 'namespaces', namespaced: false, verbs: 'crud', status: true, deletecollection: false },
  { group: CORE, kind: 'Node', plural: 'nodes', namespaced: false, verbs: 'crud', status: true },
  { group: CORE, kind: 'Pod', plural: 'pods', namespaced: true, verbs: 'crud', status: true, log: true, deleteReturnsObject: true },
  { group: CORE, kind: 'Secret', plural: 'secrets', namespaced: true, verbs: 'crud' },
  { group: AUTHZ, kind: 'SelfSubjectAccessReview', plural: 'selfsubjectaccessreviews', namespaced: false, verbs: 'create' },
  { group: AUTHZ, kind: 'SelfSubjectRulesReview', plural: 'selfsubjectrulesreviews', namespaced: false, verbs: 'create' },
];

const article = (kind: string) => (/^[AEIOU]/.test(kind) ? 'an' : 'a');
const GROUP_ID: Record<string, string> = { [CORE]: 'CoreV1', [AUTHZ]: 'AuthorizationV1' };
const GROUP_TAG: Record<string, string> = { [CORE]: 'core_v1', [AUTHZ]: 'authorization_v1' };
const ok = (t: string): [number, string, string] => [200, 'OK', t];
const created = (t: string): [number, string, string] => [201, 'Created', t];
const accepted = (t: string): [number, string, string] => [202, 'Accepted', t];

function resourcePaths(r: Resource): PathDef[] {
  const prefix = r.group === CORE ? '/api/v1' : `/apis/${r.group}/v1`;
  const id = GROUP_ID[r.group]!;
  const tag = GROUP_TAG[r.group]!;
  const ns = r.namespaced ? 'Namespaced' : '';
  const kind = r.kind;
  const g = { group: r.group, version: 'v1', kind };
  const list = `${kind}List`;
  const collection = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.plural}` : `${prefix}/${r.plural}`;
  const scope = r.namespaced ? [NAMESPACE] : [];
  const base = (o: Omit<Op, 'tag' | 'gvk'>): Op => ({ ...o, tag, gvk: g });
  const create = base({
    method: 'post', description: `create ${article(kind)} ${kind}`, operationId: `create${id}${ns}${kind}`,
    params: [...scope, PRETTY, DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION], body: { type: kind, required: true, consumes: ['*/*'] },
    responses: [ok(kind), created(kind), accepted(kind)], produces: JSON_YAML_PB, action: 'post',
  });
  if (r.verbs === 'create') return [{ path: `${prefix}/${r.plural}`, ops: [create] }];
  const name = nameParam(kind);
  const deleted = r.deleteReturnsObject ? kind : 'Status';
  const out: PathDef[] = [];
  const colOps: Op[] = [
    base({
      method: 'get', description: `list or watch objects of kind ${kind}`, operationId: `list${id}${ns}${kind}`,
      params: [...scope, PRETTY, ...LIST_PARAMS], responses: [ok(list)], produces: [...JSON_YAML_PB, ...WATCH_TYPES], action: 'list',
    }),
    create,
  ];
  if (r.deletecollection !== false)
    colOps.push(base({
      method: 'delete', description: `delete collection of ${kind}`, operationId: `delete${id}Collection${ns}${kind}`,
      params: [...scope, PRETTY, ...sortParams([...LIST_PARAMS.filter((p) => p.name !== 'watch' && p.name !== 'allowWatchBookmarks'), DRY_RUN, GRACE, IGNORE_STORE, ORPHAN, PROPAGATION])],
      body: { type: 'DeleteOptions', required: false, consumes: ['*/*'] }, responses: [ok('Status')], produces: JSON_YAML_PB, action: 'deletecollection',
    }));
  out.push({ path: collection, ops: colOps });
  const item = `${collection}/{name}`;
  const itemScope = [name, ...scope, PRETTY];
  const read = (sub: string): Op => base({
    method: 'get', description: sub ? `read ${sub} of the specified ${kind}` : `read the specified ${kind}`, operationId: `read${id}${ns}${kind}${cap(sub)}`,
    params: itemScope, responses: [ok(kind)], produces: JSON_YAML_PB, action: 'get',
  });
  const replace = (sub: string): Op => base({
    method: 'put', description: sub ? `replace ${sub} of the specified ${kind}` : `replace the specified ${kind}`, operationId: `replace${id}${ns}${kind}${cap(sub)}`,
    params: [...itemScope, DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION], body: { type: kind, required: true, consumes: ['*/*'] },
    responses: [ok(kind), created(kind)], produces: JSON_YAML_PB, action: 'put',
  });
  const patch = (sub: string): Op => base({
    method: 'patch', description: sub ? `partially update ${sub} of the specified ${kind}` : `partially update the specified ${kind}`, operationId: `patch${id}${ns}${kind}${cap(sub)}`,
    params: [...itemScope, DRY_RUN, FIELD_MANAGER_PATCH, FIELD_VALIDATION, FORCE], body: { type: 'Patch', required: true, consumes: PATCH_TYPES },
    responses: [ok(kind), created(kind)], produces: JSON_YAML_PB, action: 'patch',
  });
  const del = base({
    method: 'delete', description: `delete ${article(kind)} ${kind}`, operationId: `delete${id}${ns}${kind}`,
    params: [...itemScope, DRY_RUN, GRACE, IGNORE_STORE, ORPHAN, PROPAGATION], body: { type: 'DeleteOptions', required: false, consumes: ['*/*'] },
    responses: [ok(deleted), accepted(deleted)], produces: JSON_YAML_PB, action: 'delete',
  });
  out.push({ path: item, ops: [read(''), replace(''), del, patch('')] });
  if (r.log)
    out.push({ path: `${item}/log`, ops: [base({
      method: 'get', description: `read log of the specified ${kind}`, operationId: `read${id}${ns}${kind}Log`,
      params: [...itemScope, ...LOG_PARAMS], responses: [ok('string')], produces: ['text/plain', 'application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'], action: 'get',
    })] });
  if (r.status) out.push({ path: `${item}/status`, ops: [read('status'), replace('status'), patch('status')] });
  if (r.namespaced)
    out.push({ path: `${prefix}/${r.plural}`, ops: [base({
      method: 'get', description: `list or watch objects of kind ${kind}`, operationId: `list${id}${kind}ForAllNamespaces`,
      params: [PRETTY, ...LIST_PARAMS], responses: [ok(list)], produces: [...JSON_YAML_PB, ...WATCH_TYPES], action: 'list',
    })] });
  return out;
}
const cap = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : '');
const sortParams = (ps: ParamDef[]) => [...ps].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

const discoveryOp = (description: string, operationId: string, tag: string, type: string, produces = JSON_YAML_PB): Op => ({
  method: 'get', tag, description, operationId, params: [], responses: [ok(type)], produces, consumes: produces,
});

/** The OpenAPI v3 group-version documents served under /openapi/v3/<key> (the keys of the index). */
export const OPENAPI_V3_PATHS = ['api', 'api/v1', 'apis', 'apis/authorization.k8s.io', 'apis/authorization.k8s.io/v1', 'version'] as const;
export type OpenAPIV3Path = (typeof OPENAPI_V3_PATHS)[number];
export const isOpenAPIV3Path = (p: string): p is OpenAPIV3Path => (OPENAPI_V3_PATHS as readonly string[]).includes(p);

interface DocDef { versioned: boolean; paths: PathDef[]; unauthorized: boolean; extraRoots?: string[] }
function docDef(key: OpenAPIV3Path): DocDef {
  switch (key) {
    case 'api':
      // upstream's /api/ operation lists no 401
      return { versioned: false, unauthorized: false, paths: [{ path: '/api/', ops: [discoveryOp('get available API versions', 'getCoreAPIVersions', 'core', 'APIVersions')] }] };
    case 'apis':
      return { versioned: false, unauthorized: true, paths: [{ path: '/apis/', ops: [discoveryOp('get available API versions', 'getAPIVersions', 'apis', 'APIGroupList')] }] };
    case 'apis/authorization.k8s.io':
      return { versioned: false, unauthorized: true, paths: [{ path: '/apis/authorization.k8s.io/', ops: [discoveryOp('get information of a group', 'getAuthorizationAPIGroup', 'authorization', 'APIGroup')] }] };
    case 'version':
      return { versioned: false, unauthorized: true, paths: [{ path: '/version/', ops: [discoveryOp('get the version information for this server', 'getCodeVersion', 'version', 'Info', ['application/json'])] }] };
    case 'api/v1':
      return {
        versioned: true, unauthorized: true,
        paths: [{ path: '/api/v1/', ops: [discoveryOp('get available resources', 'getCoreV1APIResources', 'core_v1', 'APIResourceList')] }, ...RESOURCES.filter((r) => r.group === CORE).flatMap(resourcePaths)],
      };
    case 'apis/authorization.k8s.io/v1':
      return {
        versioned: true, unauthorized: true,
        paths: [{ path: '/apis/authorization.k8s.io/v1/', ops: [discoveryOp('get available resources', 'getAuthorizationV1APIResources', 'authorization_v1', 'APIResourceList')] }, ...RESOURCES.filter((r) => r.group === AUTHZ).flatMap(resourcePaths)],
      };
  }
}

/** Parameters shared by every operation of a path move to the path (as kube-openapi's builders do); both lists sorted by name. */
function splitParams(ops: Op[]): { shared: ParamDef[]; own: Map<Op, ParamDef[]> } {
  const key = (p: ParamDef) => `${p.in}:${p.name}:${p.description}`;
  const sharedKeys = new Set(ops[0]!.params.map(key).filter((k) => ops.every((o) => o.params.some((p) => key(p) === k))));
  const shared = sortParams(ops[0]!.params.filter((p) => sharedKeys.has(key(p))));
  const own = new Map(ops.map((o) => [o, sortParams(o.params.filter((p) => !sharedKeys.has(key(p))))]));
  return { shared, own };
}

const METHOD_ORDER: Op['method'][] = ['get', 'put', 'post', 'delete', 'patch'];

function paramV3(p: ParamDef): Schema {
  const s: Schema = { name: p.name, in: p.in, description: p.description };
  if (p.required) s.required = true;
  s.schema = { type: p.type, uniqueItems: true };
  return s;
}
function paramV2(p: ParamDef): Schema {
  const s: Schema = { uniqueItems: true, type: p.type, description: p.description, name: p.name, in: p.in };
  if (p.required) s.required = true;
  return s;
}
const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted' };

function responseSchema(type: string, d: Dialect, refs: Set<string>): Schema {
  if (type === 'string') return { type: 'string' };
  refs.add(type);
  return { $ref: refPrefix(d) + openapiTypeName(type) };
}

function pathsV3(def: DocDef, refs: Set<string>): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const pd of [...def.paths].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const { shared, own } = splitParams(pd.ops);
    const item: Schema = {};
    for (const m of METHOD_ORDER) {
      const op = pd.ops.find((o) => o.method === m);
      if (!op) continue;
      const o: Schema = { tags: [op.tag], description: op.description, operationId: op.operationId };
      const ps = own.get(op)!;
      if (ps.length) o.parameters = ps.map(paramV3);
      if (op.body) {
        o.requestBody = { content: Object.fromEntries([...op.body.consumes].sort().map((ct) => [ct, { schema: responseSchema(op.body!.type, 'v3', refs) }])) };
      }
      const responses: Schema = {};
      for (const [code, text, type] of op.responses) {
        const content = Object.fromEntries([...op.produces].sort().map((ct) => [ct, { schema: responseSchema(type, 'v3', refs) }]));
        responses[String(code)] = { description: text, content };
      }
      if (def.unauthorized) responses['401'] = { description: 'Unauthorized' };
      o.responses = responses;
      if (op.action) o['x-kubernetes-action'] = op.action;
      if (op.gvk) o['x-kubernetes-group-version-kind'] = op.gvk;
      item[m] = o;
    }
    if (shared.length) item.parameters = shared.map(paramV3);
    out[pd.path] = item;
  }
  return out;
}

const SECURITY_SCHEME = { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' };
/** The server version the versioned documents name in info.version (upstream: the apiserver's gitVersion). */
export const DEFAULT_OPENAPI_VERSION = 'v1.33.0';

const v3Cache = new Map<string, { doc: object; body: string; hash: string }>();

/** The OpenAPI 3.0 document of one index entry (`api/v1`, ...), as kube-apiserver serves it at /openapi/v3/<key>; undefined for another key. */
export function openapiV3Document(key: string, gitVersion = DEFAULT_OPENAPI_VERSION): object | undefined {
  return isOpenAPIV3Path(key) ? v3Entry(key, gitVersion).doc : undefined;
}

function v3Entry(key: OpenAPIV3Path, gitVersion: string): { doc: object; body: string; hash: string } {
  const ck = `${key}\0${gitVersion}`;
  const hit = v3Cache.get(ck);
  if (hit) return hit;
  const def = docDef(key);
  const refs = new Set<string>();
  const paths = pathsV3(def, refs);
  const doc = {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: def.versioned ? gitVersion : 'unversioned' },
    paths,
    components: { schemas: schemaClosure(refs, 'v3'), securitySchemes: { BearerToken: SECURITY_SCHEME } },
  };
  const body = JSON.stringify(doc);
  const entry = { doc, body, hash: openapiHash(body) };
  v3Cache.set(ck, entry);
  return entry;
}

/** kube-openapi's computeETag: the upper-case hex SHA-512 of the served bytes. */
export function openapiHash(body: string | Uint8Array): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

/** The exact JSON bytes served for a v3 document and their hash (the `hash` query parameter and the ETag). */
export function openapiV3Bytes(key: OpenAPIV3Path, gitVersion = DEFAULT_OPENAPI_VERSION): { body: string; hash: string } {
  const { body, hash } = v3Entry(key, gitVersion);
  return { body, hash };
}

/** GET /openapi/v3: `{"paths": {"<key>": {"serverRelativeURL": "/openapi/v3/<key>?hash=<HASH>"}}}` (keys sorted, as Go marshals a map). */
export function openapiV3Index(gitVersion = DEFAULT_OPENAPI_VERSION): { paths: Record<string, { serverRelativeURL: string }> } {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const key of [...OPENAPI_V3_PATHS].sort()) paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${v3Entry(key, gitVersion).hash}` };
  return { paths };
}

// ---------------------------------------------------------------------------------------------------------------
// Swagger 2.0 (/openapi/v2): every path of every document, definitions with $ref: #/definitions/...

function pathsV2(def: DocDef, refs: Set<string>): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const pd of def.paths) {
    const { shared, own } = splitParams(pd.ops);
    const item: Schema = {};
    for (const m of METHOD_ORDER) {
      const op = pd.ops.find((o) => o.method === m);
      if (!op) continue;
      const o: Schema = {
        description: op.description,
        consumes: op.body?.consumes ?? op.consumes ?? ['*/*'],
        produces: op.produces,
        schemes: ['https'],
        tags: [op.tag],
        operationId: op.operationId,
      };
      const ps: Schema[] = [];
      if (op.body) {
        const b: Schema = { name: 'body', in: 'body' };
        if (op.body.required) b.required = true;
        b.schema = responseSchema(op.body.type, 'v2', refs);
        ps.push(b);
      }
      ps.push(...own.get(op)!.map(paramV2));
      if (ps.length) o.parameters = ps;
      const responses: Schema = {};
      for (const [code, , type] of op.responses) responses[String(code)] = { description: STATUS_TEXT[code], schema: responseSchema(type, 'v2', refs) };
      // the v2 builder lists 401 on every operation (the v3 document of /api/ does not)
      responses['401'] = { description: 'Unauthorized' };
      o.responses = responses;
      if (op.action) o['x-kubernetes-action'] = op.action;
      if (op.gvk) o['x-kubernetes-group-version-kind'] = { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version };
      item[m] = o;
    }
    if (shared.length) item.parameters = shared.map(paramV2);
    out[pd.path] = item;
  }
  return out;
}

const v2Cache = new Map<string, { doc: object; json: string; protobuf: Buffer; etag: string }>();
function v2Entry(gitVersion: string) {
  const hit = v2Cache.get(gitVersion);
  if (hit) return hit;
  const refs = new Set<string>();
  const all: Record<string, Schema> = {};
  for (const key of OPENAPI_V3_PATHS) Object.assign(all, pathsV2(docDef(key), refs));
  const paths = Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : 1)));
  const doc = {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: gitVersion },
    paths,
    definitions: schemaClosure(refs, 'v2'),
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  };
  const json = JSON.stringify(doc);
  const entry = { doc, json, protobuf: swaggerToProtobuf(doc), etag: openapiHash(json) };
  v2Cache.set(gitVersion, entry);
  return entry;
}

/** The Swagger 2.0 document kube-apiserver serves at /openapi/v2. */
export function openapiV2Document(gitVersion = DEFAULT_OPENAPI_VERSION): object {
  return v2Entry(gitVersion).doc;
}

// ---------------------------------------------------------------------------------------------------------------
// gnostic openapi_v2 protobuf (the subset the documents use). Field numbers: gnostic-models openapiv2/OpenAPIv2.proto.

class Pb {
  private parts: Buffer[] = [];
  private key(field: number, wire: number) {
    this.varint(field * 8 + wire);
  }
  private varint(n: number) {
    const b: number[] = [];
    while (n > 127) {
      b.push((n & 127) | 128);
      n = Math.floor(n / 128);
    }
    b.push(n);
    this.parts.push(Buffer.from(b));
  }
  str(field: number, s: unknown): this {
    if (typeof s === 'string' && s !== '') {
      const buf = Buffer.from(s, 'utf8');
      this.key(field, 2);
      this.varint(buf.length);
      this.parts.push(buf);
    }
    return this;
  }
  strs(field: number, ss: unknown): this {
    if (Array.isArray(ss)) for (const s of ss) this.str(field, s);
    return this;
  }
  bool(field: number, b: unknown): this {
    if (b === true) {
      this.key(field, 0);
      this.varint(1);
    }
    return this;
  }
  msg(field: number, m: Pb | undefined): this {
    if (m) {
      const buf = m.finish();
      this.key(field, 2);
      this.varint(buf.length);
      this.parts.push(buf);
    }
    return this;
  }
  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** gnostic Any: the value as YAML text (JSON is YAML; kubectl reads it with a YAML decoder). */
const anyPb = (v: unknown) => new Pb().str(2, JSON.stringify(v) + '\n');
const vendorExtensions = (o: Json, field: number, pb: Pb) => {
  for (const [k, v] of Object.entries(o)) if (k.startsWith('x-')) pb.msg(field, new Pb().str(1, k).msg(2, anyPb(v)));
};

function schemaPb(s: Json): Pb {
  const pb = new Pb().str(1, s.$ref).str(2, s.format).str(4, s.description);
  if ('default' in s) pb.msg(5, anyPb(s.default));
  pb.strs(19, s.required);
  if (Array.isArray(s.enum)) for (const e of s.enum) pb.msg(20, anyPb(e));
  if (isObj(s.additionalProperties)) pb.msg(21, new Pb().msg(1, schemaPb(s.additionalProperties)));
  if (typeof s.type === 'string') pb.msg(22, new Pb().str(1, s.type));
  if (isObj(s.items)) pb.msg(23, new Pb().msg(1, schemaPb(s.items)));
  if (Array.isArray(s.allOf)) for (const a of s.allOf) pb.msg(24, schemaPb(a as Json));
  if (isObj(s.properties)) {
    const props = new Pb();
    for (const [k, v] of Object.entries(s.properties)) props.msg(1, new Pb().str(1, k).msg(2, schemaPb(v as Json)));
    pb.msg(25, props);
  }
  vendorExtensions(s, 31, pb);
  return pb;
}

function parameterPb(p: Json): Pb {
  if (p.in === 'body') {
    const body = new Pb().str(1, p.description).str(2, p.name).str(3, p.in).bool(4, p.required);
    if (isObj(p.schema)) body.msg(5, schemaPb(p.schema));
    return new Pb().msg(1, new Pb().msg(1, body));
  }
  // QueryParameterSubSchema (3) / PathParameterSubSchema (4): required 1, in 2, description 3, name 4, then type/format, unique_items
  const sub = new Pb().bool(1, p.required).str(2, p.in).str(3, p.description).str(4, p.name);
  if (p.in === 'path') sub.str(5, p.type).str(6, p.format).bool(19, p.uniqueItems);
  else sub.str(6, p.type).str(7, p.format).bool(20, p.uniqueItems);
  return new Pb().msg(1, new Pb().msg(2, new Pb().msg(p.in === 'path' ? 4 : 3, sub)));
}

function operationPb(o: Json): Pb {
  const pb = new Pb().strs(1, o.tags).str(3, o.description).str(5, o.operationId).strs(6, o.produces).strs(7, o.consumes);
  if (Array.isArray(o.parameters)) for (const p of o.parameters) pb.msg(8, parameterPb(p as Json));
  if (isObj(o.responses)) {
    const rs = new Pb();
    for (const [code, r] of Object.entries(o.responses)) {
      const resp = new Pb().str(1, (r as Json).description);
      const sc = (r as Json).schema;
      if (isObj(sc)) resp.msg(2, new Pb().msg(1, schemaPb(sc)));
      rs.msg(1, new Pb().str(1, code).msg(2, new Pb().msg(1, resp)));
    }
    pb.msg(9, rs);
  }
  pb.strs(10, o.schemes);
  vendorExtensions(o, 13, pb);
  return pb;
}

const PATH_ITEM_FIELDS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

/** A Swagger 2.0 document (as openapiV2Document returns it) in gnostic's openapi_v2.Document protobuf encoding. */
export function swaggerToProtobuf(doc: object): Buffer {
  const d = doc as Json;
  const pb = new Pb().str(1, d.swagger);
  if (isObj(d.info)) pb.msg(2, new Pb().str(1, d.info.title).str(2, d.info.version));
  if (isObj(d.paths)) {
    const paths = new Pb();
    for (const [path, item] of Object.entries(d.paths)) {
      const it = new Pb();
      for (const [m, f] of Object.entries(PATH_ITEM_FIELDS)) if (isObj((item as Json)[m])) it.msg(f, operationPb((item as Json)[m] as Json));
      const ps = (item as Json).parameters;
      if (Array.isArray(ps)) for (const p of ps) it.msg(9, parameterPb(p as Json));
      paths.msg(2, new Pb().str(1, path).msg(2, it));
    }
    pb.msg(8, paths);
  }
  if (isObj(d.definitions)) {
    const defs = new Pb();
    for (const [k, v] of Object.entries(d.definitions)) defs.msg(1, new Pb().str(1, k).msg(2, schemaPb(v as Json)));
    pb.msg(9, defs);
  }
  if (Array.isArray(d.security))
    for (const req of d.security as Json[]) {
      const r = new Pb();
      for (const [k, v] of Object.entries(req)) r.msg(1, new Pb().str(1, k).msg(2, new Pb().strs(1, v)));
      pb.msg(12, r);
    }
  if (isObj(d.securityDefinitions)) {
    const sd = new Pb();
    for (const [k, v] of Object.entries(d.securityDefinitions)) {
      const s = v as Json;
      const api = new Pb().str(1, s.type).str(2, s.name).str(3, s.in).str(4, s.description);
      sd.msg(1, new Pb().str(1, k).msg(2, new Pb().msg(2, api)));
    }
    pb.msg(13, sd);
  }
  return pb.finish();
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP: negotiation, ETag / Cache-Control, 304 and 301, as kube-openapi's handlers and net/http ServeContent answer.

export interface OpenAPIRequest {
  /** GET or HEAD (anything else is answered like GET, as upstream's handlers do). */
  method: string;
  /** Path without the query, e.g. `/openapi/v3/api/v1`. */
  path: string;
  /** The raw query string (without `?`) or parsed parameters. */
  query?: string | URLSearchParams;
  accept?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}
export interface OpenAPIResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}
export interface OpenAPIServeOptions {
  /** When the documents were built (Last-Modified), normally the server's start. */
  lastModified: Date;
  /** The request time (a hashed v3 document Expires one year later). */
  now: Date;
  gitVersion?: string;
}

export const CONTENT_TYPE_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

interface AcceptClause { type: string; subType: string; q: number }
/** github.com/munnerz/goautoneg ParseAccept: clauses sorted by q, then specificity. */
export function parseAccept(header: string): AcceptClause[] {
  const out: AcceptClause[] = [];
  for (const part of header.split(',')) {
    const [mt, ...params] = part.split(';').map((s) => s.trim());
    if (!mt) continue;
    let qv = 1;
    for (const p of params) {
      const [k, v] = p.split('=').map((s) => s.trim());
      if (k === 'q' && v !== undefined) qv = Number(v);
    }
    const slash = mt.indexOf('/');
    const [type, subType] = slash < 0 ? (mt === '*' ? ['*', '*'] : [mt, '']) : [mt.slice(0, slash), mt.slice(slash + 1)];
    out.push({ type: type!, subType: subType!, q: Number.isNaN(qv) ? 0 : qv });
  }
  const rank = (c: AcceptClause) => (c.type === '*' ? 2 : c.subType === '*' ? 1 : 0);
  return out.sort((a, b) => b.q - a.q || rank(a) - rank(b));
}

function negotiate(accept: string | undefined, offers: { subType: string; contentType: string }[]): { subType: string; contentType: string } | undefined {
  for (const c of parseAccept(accept || '*/*')) {
    if (c.q <= 0) continue;
    for (const o of offers) {
      if (c.type !== 'application' && c.type !== '*') continue;
      if (c.subType !== o.subType && c.subType !== '*') continue;
      return o;
    }
  }
  return undefined;
}

/** Go's time.RFC1123 of a UTC time ("Mon, 02 Jan 2006 15:04:05 UTC"), as kube-openapi formats Expires. */
const rfc1123 = (d: Date) => d.toUTCString().replace(/GMT$/, 'UTC');
/** net/http's TimeFormat ("Mon, 02 Jan 2006 15:04:05 GMT"), for Last-Modified. */
const httpDate = (d: Date) => d.toUTCString();

function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const s = t.trim().replace(/^W\//, '');
    return s === '*' || s === `"${etag}"`;
  });
}

/** ServeContent's conditional GET: 304 with the validators and no body (If-None-Match first, else If-Modified-Since). */
function serveContent(req: OpenAPIRequest, headers: Record<string, string>, etag: string, lastModified: Date, body: string | Buffer): OpenAPIResponse {
  headers['Last-Modified'] = httpDate(lastModified);
  const notModified = req.ifNoneMatch !== undefined
    ? etagMatches(req.ifNoneMatch, etag)
    : req.ifModifiedSince !== undefined && Math.floor(lastModified.getTime() / 1000) * 1000 <= Date.parse(req.ifModifiedSince);
  if (notModified) {
    // net/http writeNotModified
    delete headers['Content-Type'];
    delete headers['Last-Modified'];
    return { status: 304, headers, body: '' };
  }
  return { status: 200, headers, body: req.method.toUpperCase() === 'HEAD' ? '' : body };
}

export interface OpenAPIHeaderOptions {
  /** Default application/json. */
  contentType?: string;
  /** Default: openapiHash(body). The v2 protobuf answer reuses the JSON document's hash, as upstream does. */
  etag?: string;
  /** `Vary: Accept` (the negotiated documents, not the /openapi/v3 index). Default true. */
  vary?: boolean;
  /** Set (to the request time) when a v3 document is fetched with its `?hash=`: adds `Cache-Control: public, immutable` and `Expires` one year later. */
  immutableAt?: Date;
}

/**
 * The headers upstream sends with an OpenAPI answer: `Vary: Accept` (documents), `Content-Type`, `Etag` (the quoted
 * hash), and for a v3 document fetched with its `?hash=`, `Cache-Control: public, immutable` and `Expires` a year
 * ahead (what lets kubectl's HTTP disk cache keep it without asking again). Header names as Go writes them.
 */
export function openapiHeaders(body: string | Uint8Array, opts: OpenAPIHeaderOptions = {}): Record<string, string> {
  const h: Record<string, string> = {};
  if (opts.vary ?? true) h['Vary'] = 'Accept';
  h['Content-Type'] = opts.contentType ?? 'application/json';
  h['Etag'] = `"${opts.etag ?? openapiHash(body)}"`;
  if (opts.immutableAt) {
    h['Cache-Control'] = 'public, immutable';
    const exp = new Date(opts.immutableAt.getTime());
    exp.setUTCFullYear(exp.getUTCFullYear() + 1);
    h['Expires'] = rfc1123(exp);
  }
  return h;
}

/**
 * Answers `/openapi/v2`, `/openapi/v3` and `/openapi/v3/<key>`; undefined for any other path. Pure: the caller writes
 * status, headers and body (and may gzip /openapi/v2 as upstream does when the client accepts it).
 */
export function openapiResponse(req: OpenAPIRequest, opts: OpenAPIServeOptions): OpenAPIResponse | undefined {
  const gitVersion = opts.gitVersion ?? DEFAULT_OPENAPI_VERSION;
  const query = typeof req.query === 'string' || req.query === undefined ? new URLSearchParams(req.query ?? '') : req.query;
  if (req.path === '/openapi/v3' || req.path === '/openapi/v3/') {
    if (req.path === '/openapi/v3/') return notFound();
    const body = JSON.stringify(openapiV3Index(gitVersion));
    const etag = openapiHash(body);
    return serveContent(req, openapiHeaders(body, { etag, vary: false }), etag, opts.lastModified, body);
  }
  if (req.path.startsWith('/openapi/v3/')) {
    const key = req.path.slice('/openapi/v3/'.length);
    const offer = negotiate(req.accept, [
      { subType: 'json', contentType: 'application/json' },
    ]);
    if (!isOpenAPIV3Path(key)) return notFound();
    if (!offer) return { status: 406, headers: { Vary: 'Accept' }, body: '' };
    const { body, hash } = v3Entry(key, gitVersion);
    const given = query.get('hash');
    if (given && given !== hash) {
      // http.Redirect after Content-Type was set: no HTML body
      return { status: 301, headers: { Vary: 'Accept', 'Content-Type': offer.contentType, Etag: `"${hash}"`, Location: `/openapi/v3/${key}?hash=${hash}` }, body: '' };
    }
    const headers = openapiHeaders(body, { contentType: offer.contentType, etag: hash, ...(given ? { immutableAt: opts.now } : {}) });
    return serveContent(req, headers, hash, opts.lastModified, body);
  }
  if (req.path === '/openapi/v2') {
    const offer = negotiate(req.accept, [
      { subType: 'json', contentType: 'application/json' },
      { subType: 'com.github.proto-openapi.spec.v2@v1.0+protobuf', contentType: CONTENT_TYPE_V2_PROTOBUF },
      { subType: 'com.github.proto-openapi.spec.v2.v1.0+protobuf', contentType: CONTENT_TYPE_V2_PROTOBUF },
    ]);
    if (!offer) return { status: 406, headers: { Vary: 'Accept' }, body: '' };
    const e = v2Entry(gitVersion);
    const body = offer.subType === 'json' ? e.json : e.protobuf;
    return serveContent(req, openapiHeaders(body, { contentType: offer.contentType, etag: e.etag }), e.etag, opts.lastModified, body);
  }
  return undefined;
}

const notFound = (): OpenAPIResponse => ({ status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }, body: '404 page not found\n' });
