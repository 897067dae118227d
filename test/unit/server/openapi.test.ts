// The lab server's OpenAPI documents (src/server/openapi.ts): schemas, paths, the v3 index and hashes, the v2
// protobuf encoding, and the HTTP answers (negotiation, ETag, 304, 301, immutable caching).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  openapiHash,
  openapiHeaders,
  openapiResponse,
  openapiTypeName,
  openapiV2Document,
  openapiV3Bytes,
  openapiV3Document,
  openapiV3Index,
  parseAccept,
  swaggerToProtobuf,
  typeSchema,
  OPENAPI_V3_PATHS,
  CONTENT_TYPE_V2_PROTOBUF,
} from '../../../src/server/openapi.js';
import { typeSpec } from '../../../src/validation/schema.js';

type J = Record<string, any>;
const v1 = openapiV3Document('api/v1') as J;
const v2 = openapiV2Document() as J;
const doc = (type: string, field: string) => typeSpec(type)!.fields.get(field)!.doc;
const C = '#/components/schemas/';

const EXEC_DOC = typeSpec('ExecAction')!.doc;
const COMMAND_DOC = doc('ExecAction', 'command');

describe('component schemas', () => {
  const cases: [string, () => unknown, unknown][] = [
    [
      'ExecAction (v3): the doc comments, an atomic list of strings whose items default to ""',
      () => v1.components.schemas['io.k8s.api.core.v1.ExecAction'],
      { description: EXEC_DOC, type: 'object', properties: { command: { description: COMMAND_DOC, type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic' } } },
    ],
    [
      'ExecAction (v2): no defaults',
      () => v2.definitions['io.k8s.api.core.v1.ExecAction'],
      { description: EXEC_DOC, type: 'object', properties: { command: { description: COMMAND_DOC, type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' } } },
    ],
    [
      'HTTPGetAction: required port, IntOrString by allOf $ref with its zero default, scheme enum',
      () => typeSchema('HTTPGetAction'),
      {
        description: typeSpec('HTTPGetAction')!.doc,
        type: 'object',
        required: ['port'],
        properties: {
          host: { description: doc('HTTPGetAction', 'host'), type: 'string' },
          httpHeaders: { description: doc('HTTPGetAction', 'httpHeaders'), type: 'array', items: { default: {}, allOf: [{ $ref: C + 'io.k8s.api.core.v1.HTTPHeader' }] }, 'x-kubernetes-list-type': 'atomic' },
          path: { description: doc('HTTPGetAction', 'path'), type: 'string' },
          port: { description: doc('HTTPGetAction', 'port'), default: {}, allOf: [{ $ref: C + 'io.k8s.apimachinery.pkg.util.intstr.IntOrString' }] },
          scheme: { description: doc('HTTPGetAction', 'scheme'), type: 'string', enum: ['HTTP', 'HTTPS'] },
        },
      },
    ],
    [
      'ContainerPort: int32 with zero default when required, protocol default TCP and its enum',
      () => typeSchema('ContainerPort'),
      {
        description: typeSpec('ContainerPort')!.doc,
        type: 'object',
        required: ['containerPort'],
        properties: {
          containerPort: { description: doc('ContainerPort', 'containerPort'), type: 'integer', format: 'int32', default: 0 },
          hostIP: { description: doc('ContainerPort', 'hostIP'), type: 'string' },
          hostPort: { description: doc('ContainerPort', 'hostPort'), type: 'integer', format: 'int32' },
          name: { description: doc('ContainerPort', 'name'), type: 'string' },
          protocol: { description: doc('ContainerPort', 'protocol'), type: 'string', default: 'TCP', enum: ['SCTP', 'TCP', 'UDP'] },
        },
      },
    ],
    [
      'Quantity (v3) is a string or a number',
      () => { const s = typeSchema('Quantity') as J; return { ...s, description: s.description.slice(0, 40) }; },
      { description: 'Quantity is a fixed-point representation', oneOf: [{ type: 'string' }, { type: 'number' }] },
    ],
    [
      'Quantity (v2) is a string',
      () => { const s = typeSchema('Quantity', 'v2') as J; return { ...s, description: s.description.slice(0, 40) }; },
      { description: 'Quantity is a fixed-point representation', type: 'string' },
    ],
    [
      'IntOrString (v3) is int-or-string, an integer or a string',
      () => typeSchema('IntOrString'),
      {
        description: 'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.',
        format: 'int-or-string',
        oneOf: [{ type: 'integer' }, { type: 'string' }],
      },
    ],
    [
      'Time is a date-time string',
      () => typeSchema('Time'),
      { description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.', type: 'string', format: 'date-time' },
    ],
    [
      'MicroTime (Event.eventTime) is a date-time string of its own',
      () => typeSchema('MicroTime'),
      { description: 'MicroTime is version of Time with microsecond level precision.', type: 'string', format: 'date-time' },
    ],
    [
      'Secret.data is a map of base64 strings (format byte, no default)',
      () => (typeSchema('Secret') as J).properties.data,
      { description: doc('Secret', 'data'), type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
    ],
    [
      'ResourceRequirements.limits is a map of Quantity',
      () => (typeSchema('ResourceRequirements') as J).properties.limits,
      { description: doc('ResourceRequirements', 'limits'), type: 'object', additionalProperties: { default: {}, allOf: [{ $ref: C + 'io.k8s.apimachinery.pkg.api.resource.Quantity' }] } },
    ],
    [
      'Pod: apiVersion and kind are strings, metadata/spec/status default to {}, the GVK is listed',
      () => { const s = typeSchema('Pod') as J; return { ...s, properties: Object.fromEntries(Object.entries(s.properties as J).map(([k, v]) => [k, { ...v, description: typeof v.description }])) }; },
      {
        description: typeSpec('Pod')!.doc,
        type: 'object',
        properties: {
          apiVersion: { description: 'string', type: 'string' },
          kind: { description: 'string', type: 'string' },
          metadata: { description: 'string', default: {}, allOf: [{ $ref: C + 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] },
          spec: { description: 'string', default: {}, allOf: [{ $ref: C + 'io.k8s.api.core.v1.PodSpec' }] },
          status: { description: 'string', default: {}, allOf: [{ $ref: C + 'io.k8s.api.core.v1.PodStatus' }] },
        },
        'x-kubernetes-group-version-kind': [{ group: '', kind: 'Pod', version: 'v1' }],
      },
    ],
    [
      'an atomic struct (ConfigMapKeySelector) carries x-kubernetes-map-type',
      () => (typeSchema('ConfigMapKeySelector') as J)['x-kubernetes-map-type'],
      'atomic',
    ],
    [
      'Event lists its required fields in Go struct order',
      () => (typeSchema('Event') as J).required,
      ['metadata', 'involvedObject'],
    ],
    [
      'an unknown type has no schema',
      () => typeSchema('NoSuchType'),
      undefined,
    ],
  ];
  for (const [name, got, want] of cases) test(name, () => assert.deepEqual(got(), want));
});

describe('list and patch markers kubectl apply and explain read', () => {
  const list = (type: string, field: string, item: string, ext: J) => ({ description: doc(type, field), type: 'array', items: { default: {}, allOf: [{ $ref: C + item }] }, ...ext });
  const byName = { 'x-kubernetes-list-map-keys': ['name'], 'x-kubernetes-list-type': 'map', 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' };
  const cases: [string, string, string, unknown][] = [
    ['containers merge by name', 'PodSpec', 'containers', list('PodSpec', 'containers', 'io.k8s.api.core.v1.Container', byName)],
    ['initContainers merge by name', 'PodSpec', 'initContainers', list('PodSpec', 'initContainers', 'io.k8s.api.core.v1.Container', byName)],
    ['ephemeralContainers merge by name', 'PodSpec', 'ephemeralContainers', list('PodSpec', 'ephemeralContainers', 'io.k8s.api.core.v1.EphemeralContainer', byName)],
    ['volumes merge by name and retain keys', 'PodSpec', 'volumes', list('PodSpec', 'volumes', 'io.k8s.api.core.v1.Volume', { ...byName, 'x-kubernetes-patch-strategy': 'merge,retainKeys' })],
    ['env merges by name', 'Container', 'env', list('Container', 'env', 'io.k8s.api.core.v1.EnvVar', byName)],
    ['ports merge by containerPort, keyed by containerPort and protocol', 'Container', 'ports', list('Container', 'ports', 'io.k8s.api.core.v1.ContainerPort', { 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'], 'x-kubernetes-list-type': 'map', 'x-kubernetes-patch-merge-key': 'containerPort', 'x-kubernetes-patch-strategy': 'merge' })],
    ['volumeMounts merge by mountPath', 'Container', 'volumeMounts', list('Container', 'volumeMounts', 'io.k8s.api.core.v1.VolumeMount', { 'x-kubernetes-list-map-keys': ['mountPath'], 'x-kubernetes-list-type': 'map', 'x-kubernetes-patch-merge-key': 'mountPath', 'x-kubernetes-patch-strategy': 'merge' })],
    ['pod conditions merge by type', 'PodStatus', 'conditions', list('PodStatus', 'conditions', 'io.k8s.api.core.v1.PodCondition', { 'x-kubernetes-list-map-keys': ['type'], 'x-kubernetes-list-type': 'map', 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge' })],
  ];
  for (const [name, type, field, want] of cases) test(name, () => assert.deepEqual((typeSchema(type) as J).properties[field], want));
});

const PRETTY = { name: 'pretty', in: 'query', description: "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).", schema: { type: 'string', uniqueItems: true } };
const NS = { name: 'namespace', in: 'path', description: 'object name and auth scope, such as for teams and projects', required: true, schema: { type: 'string', uniqueItems: true } };
const qp = (name: string, type = 'string') => ({ name, in: 'query', type });
const summary = (ps: J[]) => ps.map((p) => ({ name: p.name, in: p.in, type: p.schema.type }));

describe('paths', () => {
  const pods = v1.paths['/api/v1/namespaces/{namespace}/pods'];
  const pod = v1.paths['/api/v1/namespaces/{namespace}/pods/{name}'];
  const pj = (t: string) => ({ 'application/json': { schema: { $ref: C + t } }, 'application/vnd.kubernetes.protobuf': { schema: { $ref: C + t } }, 'application/yaml': { schema: { $ref: C + t } } });
  const cases: [string, () => unknown, unknown][] = [
    ['the pods collection shares namespace and pretty at path level', () => pods.parameters, [NS, PRETTY]],
    [
      'POST pods (create) takes dryRun, fieldManager and fieldValidation',
      () => summary(pods.post.parameters),
      [qp('dryRun'), qp('fieldManager'), qp('fieldValidation')],
    ],
    [
      'POST pods is createCoreV1NamespacedPod with a Pod body and 200/201/202/401',
      () => ({ ...pods.post, parameters: undefined }),
      {
        tags: ['core_v1'], description: 'create a Pod', operationId: 'createCoreV1NamespacedPod', parameters: undefined,
        requestBody: { content: { '*/*': { schema: { $ref: C + 'io.k8s.api.core.v1.Pod' } } } },
        responses: { 200: { description: 'OK', content: pj('io.k8s.api.core.v1.Pod') }, 201: { description: 'Created', content: pj('io.k8s.api.core.v1.Pod') }, 202: { description: 'Accepted', content: pj('io.k8s.api.core.v1.Pod') }, 401: { description: 'Unauthorized' } },
        'x-kubernetes-action': 'post',
        'x-kubernetes-group-version-kind': { group: '', version: 'v1', kind: 'Pod' },
      },
    ],
    [
      'PATCH pods/{name} carries fieldValidation and force, and the Pod GVK kubectl matches on',
      () => ({ params: summary(pod.patch.parameters), gvk: pod.patch['x-kubernetes-group-version-kind'], body: Object.keys(pod.patch.requestBody.content) }),
      {
        params: [qp('dryRun'), qp('fieldManager'), qp('fieldValidation'), qp('force', 'boolean')],
        gvk: { group: '', version: 'v1', kind: 'Pod' },
        body: ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'],
      },
    ],
    [
      'DELETE a pod returns the Pod (graceful deletion), a ConfigMap returns Status',
      () => [pod.delete.responses[200].content['application/json'].schema, v1.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].delete.responses[200].content['application/json'].schema],
      [{ $ref: C + 'io.k8s.api.core.v1.Pod' }, { $ref: C + 'io.k8s.apimachinery.pkg.apis.meta.v1.Status' }],
    ],
    [
      'the log subresource has every parameter at path level and returns a string',
      () => ({ params: summary(v1.paths['/api/v1/namespaces/{namespace}/pods/{name}/log'].parameters).map((p) => p.name), op: v1.paths['/api/v1/namespaces/{namespace}/pods/{name}/log'].get.operationId, schema: v1.paths['/api/v1/namespaces/{namespace}/pods/{name}/log'].get.responses[200].content['text/plain'].schema }),
      { params: ['container', 'follow', 'insecureSkipTLSVerifyBackend', 'limitBytes', 'name', 'namespace', 'pretty', 'previous', 'sinceSeconds', 'stream', 'tailLines', 'timestamps'], op: 'readCoreV1NamespacedPodLog', schema: { type: 'string' } },
    ],
    [
      'api/v1 serves pods, configmaps, secrets, events (namespaced and all-namespaces), namespaces and nodes',
      () => Object.keys(v1.paths),
      [
        '/api/v1/', '/api/v1/configmaps', '/api/v1/events', '/api/v1/namespaces', '/api/v1/namespaces/{namespace}/configmaps', '/api/v1/namespaces/{namespace}/configmaps/{name}',
        '/api/v1/namespaces/{namespace}/events', '/api/v1/namespaces/{namespace}/events/{name}', '/api/v1/namespaces/{namespace}/pods', '/api/v1/namespaces/{namespace}/pods/{name}',
        '/api/v1/namespaces/{namespace}/pods/{name}/log', '/api/v1/namespaces/{namespace}/pods/{name}/status', '/api/v1/namespaces/{namespace}/secrets', '/api/v1/namespaces/{namespace}/secrets/{name}',
        '/api/v1/namespaces/{name}', '/api/v1/namespaces/{name}/status', '/api/v1/nodes', '/api/v1/nodes/{name}', '/api/v1/nodes/{name}/status', '/api/v1/pods', '/api/v1/secrets',
      ],
    ],
    [
      'namespaces have no deletecollection (as upstream)',
      () => Object.keys(v1.paths['/api/v1/namespaces']),
      ['get', 'post', 'parameters'],
    ],
    [
      'the v2 POST pods has the body parameter first, then the query parameters',
      () => v2.paths['/api/v1/namespaces/{namespace}/pods'].post.parameters.map((p: J) => [p.name, p.in, p.required ?? false]),
      [['body', 'body', true], ['dryRun', 'query', false], ['fieldManager', 'query', false], ['fieldValidation', 'query', false]],
    ],
  ];
  for (const [name, got, want] of cases) test(name, () => assert.deepEqual(got(), want));
});

/** cli-runtime query_param_verifier_v3.go supportsQueryParamV3, over our document. */
function supportsFieldValidation(d: J, gvk: { group: string; version: string; kind: string }): string {
  for (const item of Object.values(d.paths as J)) {
    const op = item.patch;
    if (!op) continue;
    const g = op['x-kubernetes-group-version-kind'];
    if (!g || g.group !== gvk.group || g.version !== gvk.version || g.kind !== gvk.kind) continue;
    return (op.parameters ?? []).some((p: J) => p.name === 'fieldValidation' && p.in === 'query') ? 'supported' : 'unsupported';
  }
  return 'path not found';
}
/** kubectl explain (plaintext.tmpl): the GVK of a resource's path operation, then the schema carrying it. */
function explainKind(d: J, resource: string): string | undefined {
  for (const p of [`/api/v1/${resource}`, `/api/v1/${resource}/{name}`, `/api/v1/namespaces/{namespace}/${resource}`, `/api/v1/namespaces/{namespace}/${resource}/{name}`]) {
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) {
      const g = d.paths[p]?.[m]?.['x-kubernetes-group-version-kind'];
      if (!g) continue;
      const hit = Object.entries(d.components.schemas as J).find(([, s]) => (s['x-kubernetes-group-version-kind'] ?? []).some((x: J) => x.group === g.group && x.kind === g.kind && x.version === g.version));
      return hit?.[0];
    }
  }
  return undefined;
}

describe('what kubectl looks for', () => {
  const kinds: [string, string, string][] = [
    ['Pod', 'pods', 'io.k8s.api.core.v1.Pod'],
    ['ConfigMap', 'configmaps', 'io.k8s.api.core.v1.ConfigMap'],
    ['Secret', 'secrets', 'io.k8s.api.core.v1.Secret'],
    ['Event', 'events', 'io.k8s.api.core.v1.Event'],
    ['Namespace', 'namespaces', 'io.k8s.api.core.v1.Namespace'],
    ['Node', 'nodes', 'io.k8s.api.core.v1.Node'],
  ];
  for (const [kind, resource, schema] of kinds) {
    test(`${kind}: server-side field validation is advertised on its PATCH operation`, () => assert.equal(supportsFieldValidation(v1, { group: '', version: 'v1', kind }), 'supported'));
    test(`${kind}: explain ${resource} finds ${schema}`, () => assert.equal(explainKind(v1, resource), schema));
  }
  test('a kind the lab does not serve has no PATCH path', () => assert.equal(supportsFieldValidation(v1, { group: '', version: 'v1', kind: 'Service' }), 'path not found'));
  test('every $ref of every document resolves within it', () => {
    const dangling: string[] = [];
    for (const key of OPENAPI_V3_PATHS) {
      const d = openapiV3Document(key) as J;
      JSON.stringify(d, (k, v) => {
        if (k === '$ref' && !d.components.schemas[String(v).slice(C.length)]) dangling.push(`${key}: ${v}`);
        return v;
      });
    }
    JSON.stringify(v2, (k, v) => {
      if (k === '$ref' && !v2.definitions[String(v).slice('#/definitions/'.length)]) dangling.push(`v2: ${v}`);
      return v;
    });
    assert.deepEqual(dangling, []);
  });
});

describe('index and hashes', () => {
  test('the index lists every document with /openapi/v3/<key>?hash=<upper-case SHA-512 of its JSON>, keys sorted', () => {
    const url = (k: string) => ({ serverRelativeURL: `/openapi/v3/${k}?hash=${openapiHash(JSON.stringify(openapiV3Document(k)))}` });
    assert.deepEqual(openapiV3Index(), {
      paths: { api: url('api'), 'api/v1': url('api/v1'), apis: url('apis'), 'apis/authorization.k8s.io': url('apis/authorization.k8s.io'), 'apis/authorization.k8s.io/v1': url('apis/authorization.k8s.io/v1'), version: url('version') },
    });
  });
  const cases: [string, () => unknown, unknown][] = [
    ['the hash is kube-openapi computeETag: %X of sha512', () => openapiHash('{}'), '27C74670ADB75075FAD058D5CEAF7B20C4E7786C83BAE8A32F626F9782AF34C9A33C2046EF60FD2A7878D378E29FEC851806BBD9A67878F3A9F1CDA4830763FD'],
    ['the same content gives the same hash', () => openapiV3Bytes('api/v1').hash === openapiV3Bytes('api/v1').hash, true],
    ['another server version gives another hash', () => openapiV3Bytes('api/v1', 'v1.34.0').hash === openapiV3Bytes('api/v1').hash, false],
    ['unversioned documents name no server version', () => [(openapiV3Document('api') as J).info, (openapiV3Document('api/v1', 'v1.34.0') as J).info], [{ title: 'Kubernetes', version: 'unversioned' }, { title: 'Kubernetes', version: 'v1.34.0' }]],
    ['an unknown group version has no document', () => openapiV3Document('apis/apps/v1'), undefined],
    ['type names follow upstream packages', () => ['Pod', 'ObjectMeta', 'Quantity', 'IntOrString', 'Time', 'RawExtension', 'SelfSubjectAccessReview', 'Info'].map(openapiTypeName), [
      'io.k8s.api.core.v1.Pod', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'io.k8s.apimachinery.pkg.api.resource.Quantity', 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      'io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'io.k8s.apimachinery.pkg.runtime.RawExtension', 'io.k8s.api.authorization.v1.SelfSubjectAccessReview', 'io.k8s.apimachinery.pkg.version.Info',
    ]],
  ];
  for (const [name, got, want] of cases) test(name, () => assert.deepEqual(got(), want));
});

describe('v2 protobuf (gnostic openapi_v2.Document)', () => {
  test('a small document encodes field by field', () => {
    const small = {
      swagger: '2.0',
      info: { title: 'K', version: 'v' },
      definitions: { E: { description: 'd', type: 'object', required: ['c'], properties: { c: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' } } } },
    };
    const hex = [
      '0a03322e30', // 1 swagger "2.0"
      '1206' + '0a014b' + '120176', // 2 info {title "K", version "v"}
      '4a65', // 9 definitions (101 bytes)
      '0a63', // additional_properties: NamedSchema (99 bytes)
      '0a0145', // name "E"
      '125e', // value: Schema (94 bytes)
      '220164', // 4 description "d"
      '9a010163', // 19 required "c"
      'b201080a066f626a656374', // 22 type {value "object"}
      'ca0149', // 25 properties (73 bytes)
      '0a47', // NamedSchema (71 bytes)
      '0a0163', // name "c"
      '1242', // Schema (66 bytes)
      'b201070a056172726179', // 22 type "array"
      'ba010d0a0bb201080a06737472696e67', // 23 items {schema {type "string"}}
      'fa0125' + '0a16' + Buffer.from('x-kubernetes-list-type').toString('hex') + '120b' + '1209' + Buffer.from('"atomic"\n').toString('hex'), // 31 vendor_extension
    ].join('');
    assert.deepEqual(swaggerToProtobuf(small), Buffer.from(hex, 'hex'));
  });
  test('path items: operations, a body parameter, a query parameter, responses and a vendor extension', () => {
    const d = { paths: { '/p': { post: { operationId: 'o', parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/X' } }, { uniqueItems: true, type: 'string', name: 'q', in: 'query' }], responses: { 200: { description: 'OK' } }, 'x-kubernetes-action': 'post' } } } };
    const varint = (n: number) => (n < 128 ? Buffer.from([n]) : Buffer.from([(n & 127) | 128, n >> 7]));
    const ld = (tag: number, ...parts: Buffer[]) => { const b = Buffer.concat(parts); return Buffer.concat([Buffer.from([tag]), varint(b.length), b]); };
    const str = (tag: number, s: string) => ld(tag, Buffer.from(s));
    const body = ld(0x0a, ld(0x0a, str(0x12, 'body'), str(0x1a, 'body'), Buffer.from('2001', 'hex'), ld(0x2a, str(0x0a, '#/definitions/X')))); // Parameter.body_parameter{name, in, required, schema{_ref}}
    const query = ld(0x0a, ld(0x12, ld(0x1a, str(0x12, 'query'), str(0x22, 'q'), str(0x32, 'string'), Buffer.from('a00101', 'hex')))); // Parameter.non_body_parameter{query{in 2, name 4, type 6, unique_items 20}}
    const responses = ld(0x0a, str(0x0a, '200'), ld(0x12, ld(0x0a, str(0x0a, 'OK')))); // NamedResponseValue{"200", {response{description}}}
    const ext = ld(0x6a, str(0x0a, 'x-kubernetes-action'), ld(0x12, str(0x12, '"post"\n'))); // vendor_extension 13: NamedAny{name, Any{yaml}}
    const operation = Buffer.concat([str(0x2a, 'o'), ld(0x42, body), ld(0x42, query), ld(0x4a, responses), ext]); // operation_id 5, parameters 8, responses 9
    const want = ld(0x42, ld(0x12, str(0x0a, '/p'), ld(0x12, ld(0x22, operation)))); // Document.paths{path{name, PathItem{post}}}
    assert.deepEqual(swaggerToProtobuf(d), want);
  });
});

describe('HTTP answers', () => {
  const now = new Date('2025-03-04T05:06:07Z');
  const lastModified = new Date('2025-03-01T00:00:00Z');
  const opts = { now, lastModified };
  const idxBody = JSON.stringify(openapiV3Index());
  const idxTag = openapiHash(idxBody);
  const { body: v1Body, hash: v1Hash } = openapiV3Bytes('api/v1');
  const v2Json = JSON.stringify(openapiV2Document());
  const v2Tag = openapiHash(v2Json);
  const LM = 'Sat, 01 Mar 2025 00:00:00 GMT';
  const cases: [string, Parameters<typeof openapiResponse>[0], unknown][] = [
    ['GET /openapi/v3 answers the index with its ETag', { method: 'GET', path: '/openapi/v3' }, { status: 200, headers: { 'Content-Type': 'application/json', Etag: `"${idxTag}"`, 'Last-Modified': LM }, body: idxBody }],
    ['a revalidation of the index with its ETag is 304 Not Modified', { method: 'GET', path: '/openapi/v3', ifNoneMatch: `"${idxTag}"` }, { status: 304, headers: { Etag: `"${idxTag}"` }, body: '' }],
    [
      'a document fetched with its hash is immutable for a year',
      { method: 'GET', path: '/openapi/v3/api/v1', query: `hash=${v1Hash}&timeout=32s`, accept: 'application/json' },
      { status: 200, headers: { Vary: 'Accept', 'Content-Type': 'application/json', Etag: `"${v1Hash}"`, 'Cache-Control': 'public, immutable', Expires: 'Wed, 04 Mar 2026 05:06:07 UTC', 'Last-Modified': LM }, body: v1Body },
    ],
    ['a document fetched without a hash is not marked immutable', { method: 'GET', path: '/openapi/v3/api/v1', accept: 'application/json' }, { status: 200, headers: { Vary: 'Accept', 'Content-Type': 'application/json', Etag: `"${v1Hash}"`, 'Last-Modified': LM }, body: v1Body }],
    ['a stale hash is redirected (301) to the current one', { method: 'GET', path: '/openapi/v3/api/v1', query: 'hash=ABC' }, { status: 301, headers: { Vary: 'Accept', 'Content-Type': 'application/json', Etag: `"${v1Hash}"`, Location: `/openapi/v3/api/v1?hash=${v1Hash}` }, body: '' }],
    ['HEAD answers the headers without the body', { method: 'HEAD', path: '/openapi/v3/api/v1' }, { status: 200, headers: { Vary: 'Accept', 'Content-Type': 'application/json', Etag: `"${v1Hash}"`, 'Last-Modified': LM }, body: '' }],
    ['a v3 document asked for as protobuf only is 406', { method: 'GET', path: '/openapi/v3/api/v1', accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' }, { status: 406, headers: { Vary: 'Accept' }, body: '' }],
    ['an unknown group version is 404', { method: 'GET', path: '/openapi/v3/apis/apps/v1' }, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }, body: '404 page not found\n' }],
    [
      'GET /openapi/v2 as client-go asks for it answers gnostic protobuf, with the JSON document\'s ETag',
      { method: 'GET', path: '/openapi/v2', accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
      { status: 200, headers: { Vary: 'Accept', 'Content-Type': CONTENT_TYPE_V2_PROTOBUF, Etag: `"${v2Tag}"`, 'Last-Modified': LM }, body: swaggerToProtobuf(openapiV2Document()) },
    ],
    ['GET /openapi/v2 with Accept: application/json answers JSON', { method: 'GET', path: '/openapi/v2', accept: 'application/json' }, { status: 200, headers: { Vary: 'Accept', 'Content-Type': 'application/json', Etag: `"${v2Tag}"`, 'Last-Modified': LM }, body: v2Json }],
    ['GET /openapi/v2 with an If-Modified-Since after the build is 304', { method: 'GET', path: '/openapi/v2', accept: 'application/json', ifModifiedSince: 'Sun, 02 Mar 2025 00:00:00 GMT' }, { status: 304, headers: { Vary: 'Accept', Etag: `"${v2Tag}"` }, body: '' }],
    ['GET /openapi/v2 asking for XML is 406', { method: 'GET', path: '/openapi/v2', accept: 'application/xml' }, { status: 406, headers: { Vary: 'Accept' }, body: '' }],
    ['another path is not an OpenAPI request', { method: 'GET', path: '/api/v1' }, undefined],
  ];
  for (const [name, req, want] of cases) test(name, () => assert.deepEqual(openapiResponse(req, opts), want));

  const headerCases: [string, () => unknown, unknown][] = [
    ['openapiHeaders of a body: Vary, Content-Type and the quoted hash', () => openapiHeaders('{}'), { Vary: 'Accept', 'Content-Type': 'application/json', Etag: `"${openapiHash('{}')}"` }],
    [
      'openapiHeaders for a hashed fetch adds Cache-Control and Expires',
      () => openapiHeaders('{}', { etag: 'H', immutableAt: now }),
      { Vary: 'Accept', 'Content-Type': 'application/json', Etag: '"H"', 'Cache-Control': 'public, immutable', Expires: 'Wed, 04 Mar 2026 05:06:07 UTC' },
    ],
    [
      'Accept clauses sort by q, then specificity (goautoneg)',
      () => parseAccept('*/*;q=0.5, application/*, application/json;q=0.9, text/plain'),
      [{ type: 'text', subType: 'plain', q: 1 }, { type: 'application', subType: '*', q: 1 }, { type: 'application', subType: 'json', q: 0.9 }, { type: '*', subType: '*', q: 0.5 }],
    ],
  ];
  for (const [name, got, want] of headerCases) test(name, () => assert.deepEqual(got(), want));
});
