// Tests of src/server/protobuf.ts (runtime/serializer/protobuf + encoding/json over the Go types).
//
// The recorded cases are request bodies kubectl 1.32/1.33 sent as protobuf to a throwaway server
// (test/fixtures/protobuf/*.pb), each with the JSON the same command sends as JSON (kubectl 1.31, the
// last release whose typed clients send JSON, or the same kubectl's `--dry-run=client -o json`): see
// test/fixtures/protobuf/README.md. The constructed cases encode kinds kubectl never sends (Event,
// Binding, Node) and edge values with protobufjs from the same descriptor.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as protobuf from 'protobufjs/light.js';
import descriptor from '../../../src/server/proto/k8s.json';
import { PROTOBUF_KINDS, decodeProtobufBody, isProtobuf } from '../../../src/server/protobuf.js';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'protobuf');

const fixture = (name: string): { body: Buffer; json: Record<string, unknown> } => ({
  body: readFileSync(join(FIXTURES, `${name}.pb`)),
  json: JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>,
});

describe('decodeProtobufBody of bodies recorded from kubectl', () => {
  const cases: [string, string][] = [
    ['kubectl 1.33 create configmap --from-file (text and binary files) and --from-literal: data and base64 binaryData', 'configmap-from-file.kubectl-1.33'],
    ['kubectl 1.33 create configmap --append-hash with an empty value: the empty string stays', 'configmap-empty-value-append-hash.kubectl-1.33'],
    ['kubectl 1.32 create configmap sends protobuf too', 'configmap.kubectl-1.32'],
    ['kubectl 1.33 create secret generic from a binary file and an empty literal: base64 data', 'secret-generic-binary-and-empty.kubectl-1.33'],
    ['kubectl 1.33 create secret docker-registry: its type and .dockerconfigjson', 'secret-docker-registry.kubectl-1.33'],
    ['kubectl 1.33 create namespace: empty spec and status structs, a null creationTimestamp', 'namespace.kubectl-1.33'],
    [
      'kubectl 1.33 debug node/… --profile=sysadmin: a Pod with host namespaces, a hostPath volume, a privileged pointer and a toleration',
      'pod-debug-node-sysadmin.kubectl-1.33',
    ],
    [
      'kubectl 1.33 debug --copy-to of a rich pod: pointer fields kept at false/0, omitempty zeros dropped, inline probe handlers and volume sources, IntOrString ports, quantities',
      'pod-debug-copy-to.kubectl-1.33',
    ],
    ['kubectl 1.33 auth can-i with a subresource: a SelfSubjectAccessReview with status.allowed false', 'selfsubjectaccessreview-subresource.kubectl-1.33'],
    ['kubectl 1.33 auth can-i on a named object', 'selfsubjectaccessreview-name.kubectl-1.33'],
    ['kubectl 1.33 auth can-i on a non-resource URL', 'selfsubjectaccessreview-nonresource.kubectl-1.33'],
    ['kubectl 1.33 auth can-i --list: a SelfSubjectRulesReview with null rule lists', 'selfsubjectrulesreview.kubectl-1.33'],
    ['kubectl 1.33 drain --grace-period=5 deleting a pod: DeleteOptions v1', 'deleteoptions-drain.kubectl-1.33'],
  ];
  for (const [behaviour, name] of cases) {
    test(behaviour, () => {
      const { body, json } = fixture(name);
      assert.deepEqual(decodeProtobufBody(body), { apiVersion: json.apiVersion, kind: json.kind, object: json });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Constructed bodies

const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
const CORE = 'k8s.io.api.core.v1';
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** `k8s\0` + runtime.Unknown{typeMeta, raw: message}. */
function envelope(apiVersion: string, kind: string, type: string | undefined, message: Record<string, unknown>): Buffer {
  const raw = type === undefined ? undefined : root.lookupType(type).encode(root.lookupType(type).fromObject(message)).finish();
  const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const typeMeta: Record<string, string> = {};
  if (apiVersion) typeMeta.apiVersion = apiVersion;
  if (kind) typeMeta.kind = kind;
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), unknown.encode(unknown.fromObject({ typeMeta, ...(raw ? { raw } : {}) })).finish()]);
}

const t2024 = 1709528767; // 2024-03-04T05:06:07Z

describe('decodeProtobufBody of constructed bodies', () => {
  const cases: [string, Buffer, Record<string, unknown>][] = [
    [
      'an Event: Time in seconds (nanoseconds dropped), MicroTime with six digits (truncated), a zero Time as null, the non-omitempty reporting fields as empty strings',
      envelope('v1', 'Event', `${CORE}.Event`, {
        metadata: { name: 'p.17b', namespace: 'default', creationTimestamp: {} },
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'p', uid: 'u1', apiVersion: 'v1', fieldPath: 'spec.containers{c}' },
        reason: 'Started',
        message: 'Started container c',
        source: { component: 'kubelet', host: 'lab' },
        firstTimestamp: { seconds: t2024, nanos: 999999999 },
        lastTimestamp: {},
        count: 0,
        type: 'Normal',
        eventTime: { seconds: t2024, nanos: 123456789 },
        series: { count: 2, lastObservedTime: { seconds: t2024 + 1 } },
        reportingComponent: '',
        reportingInstance: '',
      }),
      {
        kind: 'Event',
        apiVersion: 'v1',
        metadata: { name: 'p.17b', namespace: 'default', creationTimestamp: null },
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'p', uid: 'u1', apiVersion: 'v1', fieldPath: 'spec.containers{c}' },
        reason: 'Started',
        message: 'Started container c',
        source: { component: 'kubelet', host: 'lab' },
        firstTimestamp: '2024-03-04T05:06:07Z',
        lastTimestamp: null,
        type: 'Normal',
        eventTime: '2024-03-04T05:06:07.123456Z',
        series: { count: 2, lastObservedTime: '2024-03-04T05:06:08.000000Z' },
        reportingComponent: '',
        reportingInstance: '',
      },
    ],
    [
      'an Event whose fields are all absent: the Go zero values as encoding/json writes them',
      envelope('v1', 'Event', `${CORE}.Event`, {}),
      {
        kind: 'Event',
        apiVersion: 'v1',
        metadata: { creationTimestamp: null },
        involvedObject: {},
        source: {},
        firstTimestamp: null,
        lastTimestamp: null,
        eventTime: null,
        reportingComponent: '',
        reportingInstance: '',
      },
    ],
    [
      'a Binding: metadata and its target ObjectReference',
      envelope('v1', 'Binding', `${CORE}.Binding`, { metadata: { name: 'p', namespace: 'default', uid: 'u1' }, target: { kind: 'Node', name: 'lab', apiVersion: 'v1' } }),
      { kind: 'Binding', apiVersion: 'v1', metadata: { name: 'p', namespace: 'default', uid: 'u1', creationTimestamp: null }, target: { kind: 'Node', name: 'lab', apiVersion: 'v1' } },
    ],
    [
      'a Node: quantity maps with sorted keys, conditions with times, the DaemonEndpoint "Port" field, a false pointer (unschedulable is not one: dropped)',
      envelope('v1', 'Node', `${CORE}.Node`, {
        metadata: {
          name: 'lab',
          labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/hostname': 'lab' },
          creationTimestamp: { seconds: 0 },
          deletionTimestamp: {},
          deletionGracePeriodSeconds: 0,
        },
        spec: { podCIDR: '10.1.0.0/24', unschedulable: false, taints: [{ key: 'k', effect: 'NoSchedule', timeAdded: { seconds: t2024 } }] },
        status: {
          capacity: { pods: { string: '110' }, memory: { string: '8Gi' }, cpu: { string: '4' } },
          conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: { seconds: t2024 }, lastTransitionTime: {}, reason: 'KubeletReady', message: '' }],
          addresses: [{ type: 'InternalIP', address: '10.0.0.2' }],
          daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
          nodeInfo: { machineID: 'm', kubeletVersion: 'v1.33.1', operatingSystem: 'linux', architecture: 'amd64' },
          config: { active: { configMap: { namespace: 'kube-system', name: 'c', kubeletConfigKey: 'k' } } },
        },
      }),
      {
        kind: 'Node',
        apiVersion: 'v1',
        metadata: {
          name: 'lab',
          creationTimestamp: '1970-01-01T00:00:00Z',
          deletionTimestamp: null,
          deletionGracePeriodSeconds: 0,
          labels: { 'kubernetes.io/hostname': 'lab', 'kubernetes.io/os': 'linux' },
        },
        spec: { podCIDR: '10.1.0.0/24', taints: [{ key: 'k', effect: 'NoSchedule', timeAdded: '2024-03-04T05:06:07Z' }] },
        status: {
          capacity: { cpu: '4', memory: '8Gi', pods: '110' },
          conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2024-03-04T05:06:07Z', lastTransitionTime: null, reason: 'KubeletReady' }],
          addresses: [{ type: 'InternalIP', address: '10.0.0.2' }],
          daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
          nodeInfo: {
            machineID: 'm',
            systemUUID: '',
            bootID: '',
            kernelVersion: '',
            osImage: '',
            containerRuntimeVersion: '',
            kubeletVersion: 'v1.33.1',
            kubeProxyVersion: '',
            operatingSystem: 'linux',
            architecture: 'amd64',
          },
          config: { active: { configMap: { namespace: 'kube-system', name: 'c', kubeletConfigKey: 'k' } } },
        },
      },
    ],
    [
      'a Pod: Go zero time (0001-01-01) as null, IntOrString by its type, a FieldsV1 as its embedded JSON, an absent non-omitempty slice as null',
      envelope('v1', 'Pod', `${CORE}.Pod`, {
        metadata: {
          name: 'p',
          creationTimestamp: { seconds: -62135596800 },
          managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: { seconds: t2024 }, fieldsType: 'FieldsV1', fieldsV1: { Raw: Buffer.from('{"f:spec":{}}') } }],
        },
        spec: {
          initContainers: [
            {
              name: 'i',
              image: 'busybox',
              startupProbe: { handler: { httpGet: { port: { type: 1, strVal: 'http' } } } },
              readinessProbe: { handler: { tcpSocket: { port: { type: 0, intVal: 8080 } } } },
              livenessProbe: { handler: { tcpSocket: { port: {} } } },
            },
          ],
        },
      }),
      {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: {
          name: 'p',
          creationTimestamp: null,
          managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2024-03-04T05:06:07Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
        },
        spec: {
          initContainers: [
            {
              name: 'i',
              image: 'busybox',
              resources: {},
              startupProbe: { httpGet: { port: 'http' } },
              readinessProbe: { tcpSocket: { port: 8080 } },
              livenessProbe: { tcpSocket: { port: 0 } },
            },
          ],
          containers: null,
        },
        status: {},
      },
    ],
    [
      'DeleteOptions sent as meta.k8s.io/v1 with zero-valued pointers and preconditions',
      envelope('meta.k8s.io/v1', 'DeleteOptions', `${META}.DeleteOptions`, {
        gracePeriodSeconds: 0,
        preconditions: { uid: 'u1', resourceVersion: '' },
        orphanDependents: false,
        propagationPolicy: 'Foreground',
        dryRun: ['All'],
      }),
      {
        kind: 'DeleteOptions',
        apiVersion: 'meta.k8s.io/v1',
        gracePeriodSeconds: 0,
        preconditions: { uid: 'u1', resourceVersion: '' },
        orphanDependents: false,
        propagationPolicy: 'Foreground',
        dryRun: ['All'],
      },
    ],
    [
      'an envelope without raw bytes: the zero ConfigMap',
      envelope('v1', 'ConfigMap', undefined, {}),
      { kind: 'ConfigMap', apiVersion: 'v1', metadata: { creationTimestamp: null } },
    ],
  ];
  for (const [behaviour, body, want] of cases) {
    test(behaviour, () => {
      assert.deepEqual(decodeProtobufBody(body), { apiVersion: want.apiVersion, kind: want.kind, object: want });
    });
  }
});

describe('decodeProtobufBody errors', () => {
  const valid = envelope('v1', 'Pod', `${CORE}.Pod`, { metadata: { name: 'p' } });
  const cases: [string, Buffer, string][] = [
    ['an empty body is empty data', Buffer.alloc(0), 'empty data'],
    [
      'a JSON body lacks the k8s prefix',
      Buffer.from('{"kind":"Pod"}'),
      'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    ],
    ['the prefix alone is an empty body', Buffer.from('k8s\0', 'latin1'), 'empty body'],
    ['an envelope without a kind', envelope('v1', '', `${CORE}.Pod`, {}), `Object 'Kind' is missing in the protobuf envelope (apiVersion "v1")`],
    ['an envelope without an apiVersion', envelope('', 'Pod', `${CORE}.Pod`, {}), `Object 'apiVersion' is missing in the protobuf envelope (kind "Pod")`],
    [
      'a kind the lab does not decode',
      envelope('v1', 'Service', undefined, {}),
      `no kind "Service" is registered for version "v1" in the lab server's protobuf decoder`,
    ],
    [
      'a served kind under another version',
      envelope('apps/v1', 'Pod', undefined, {}),
      `no kind "Pod" is registered for version "apps/v1" in the lab server's protobuf decoder`,
    ],
    ['a truncated envelope', valid.subarray(0, valid.length - 3), 'malformed protobuf runtime.Unknown: index out of range: 13 + 5 > 15'],
    [
      'an inner message cut short',
      Buffer.concat([
        Buffer.from('k8s\0', 'latin1'),
        root
          .lookupType('k8s.io.apimachinery.pkg.runtime.Unknown')
          .encode({ typeMeta: { apiVersion: 'v1', kind: 'Pod' }, raw: Buffer.from([0x0a, 0x05, 0x0a, 0x01]) })
          .finish(),
      ]),
      'malformed protobuf Pod: index out of range',
    ],
    [
      'an IntOrString of an impossible type',
      envelope('v1', 'Pod', `${CORE}.Pod`, { spec: { containers: [{ name: 'c', readinessProbe: { handler: { tcpSocket: { port: { type: 2 } } } } }] } }),
      'impossible IntOrString.Type',
    ],
  ];
  for (const [behaviour, body, message] of cases) {
    test(behaviour, () => {
      assert.throws(() => decodeProtobufBody(body), (e: unknown) => {
        assert.ok(e instanceof Error);
        assert.equal(e.message, message);
        return true;
      });
    });
  }
});

describe('isProtobuf', () => {
  const cases: [string, string, boolean][] = [
    ['the protobuf media type', 'application/vnd.kubernetes.protobuf', true],
    ['with parameters and in another case', 'Application/VND.Kubernetes.Protobuf; charset=binary', true],
    ['JSON is not protobuf', 'application/json', false],
    ['a patch type is not protobuf', 'application/strategic-merge-patch+json', false],
    ['an empty Content-Type', '', false],
  ];
  for (const [behaviour, contentType, want] of cases) test(behaviour, () => assert.equal(isProtobuf(contentType), want));
});

test('PROTOBUF_KINDS lists the kinds the lab serves and kubectl writes', () => {
  assert.deepEqual(PROTOBUF_KINDS, [
    { apiVersion: 'v1', kind: 'Pod' },
    { apiVersion: 'v1', kind: 'ConfigMap' },
    { apiVersion: 'v1', kind: 'Secret' },
    { apiVersion: 'v1', kind: 'Namespace' },
    { apiVersion: 'v1', kind: 'Event' },
    { apiVersion: 'v1', kind: 'Binding' },
    { apiVersion: 'v1', kind: 'Node' },
    { apiVersion: 'v1', kind: 'DeleteOptions' },
    { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview' },
    { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview' },
  ]);
});
