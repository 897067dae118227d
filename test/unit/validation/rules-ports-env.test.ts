import { describe } from 'node:test';
import { DNS_SUBDOMAIN, PORT_RANGE, QUALIFIED_NAME, runCases, type Obj } from './helpers.js';

const c0 = 'spec.containers[0]';
const ports = (...ps: Obj[]) => (p: Obj) => (p.spec.containers[0].ports = ps);
const env = (...es: Obj[]) => (p: Obj) => (p.spec.containers[0].env = es);

describe('ports, hostPort and hostNetwork', () => {
  runCases([
    { name: 'a containerPort of 0 is required', mutate: ports({ containerPort: 0 }), errors: [[`${c0}.ports[0].containerPort`, 'Required value', '']] },
    { name: 'a containerPort of 70000 is out of range', mutate: ports({ containerPort: 70000 }), errors: [[`${c0}.ports[0].containerPort`, 'Invalid value', `70000: ${PORT_RANGE}`]] },
    { name: 'a negative hostPort is out of range', mutate: ports({ containerPort: 80, hostPort: -1 }), errors: [[`${c0}.ports[0].hostPort`, 'Invalid value', `-1: ${PORT_RANGE}`]] },
    {
      name: 'a lowercase protocol is not supported',
      mutate: ports({ containerPort: 80, protocol: 'tcp' }),
      errors: [[`${c0}.ports[0].protocol`, 'Unsupported value', '"tcp": supported values: "SCTP", "TCP", "UDP"']],
    },
    {
      name: 'a port name breaking several IANA rules gets one error per rule',
      mutate: ports({ containerPort: 80, name: '-Very--Long_Name-X' }),
      errors: [
        [`${c0}.ports[0].name`, 'Invalid value', '"-Very--Long_Name-X": must be no more than 15 characters'],
        [`${c0}.ports[0].name`, 'Invalid value', '"-Very--Long_Name-X": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'],
        [`${c0}.ports[0].name`, 'Invalid value', '"-Very--Long_Name-X": must not contain consecutive hyphens'],
        [`${c0}.ports[0].name`, 'Invalid value', '"-Very--Long_Name-X": must not begin or end with a hyphen'],
      ],
    },
    { name: 'a numeric port name needs a letter', mutate: ports({ containerPort: 80, name: '8080' }), errors: [[`${c0}.ports[0].name`, 'Invalid value', '"8080": must contain at least one letter (a-z)']] },
    {
      name: 'a port name repeated in one container is a duplicate',
      mutate: ports({ containerPort: 80, name: 'http' }, { containerPort: 81, name: 'http' }),
      errors: [[`${c0}.ports[1].name`, 'Duplicate value', '"http"']],
    },
    {
      name: 'the same hostPort in two regular containers is a duplicate on the later one',
      mutate: (p) => {
        p.spec.containers[0].ports = [{ containerPort: 80, hostPort: 8080 }];
        p.spec.containers.push({ name: 'b', image: 'x', ports: [{ containerPort: 81, hostPort: 8080 }] });
      },
      errors: [['spec.containers[1].ports[0].hostPort', 'Duplicate value', '"TCP//8080"']],
    },
    {
      name: 'the same hostPort over TCP and UDP is no conflict',
      mutate: ports({ containerPort: 53, hostPort: 53 }, { containerPort: 53, hostPort: 53, protocol: 'UDP' }),
      errors: [],
    },
    {
      name: 'with hostNetwork a hostPort different from containerPort is invalid',
      mutate: (p) => {
        p.spec.hostNetwork = true;
        p.spec.containers[0].ports = [{ containerPort: 80, hostPort: 8080 }];
      },
      errors: [[`${c0}.ports[0].hostPort`, 'Invalid value', '8080: must match `containerPort` when `hostNetwork` is true']],
    },
    {
      name: 'with hostNetwork a missing hostPort is defaulted to containerPort',
      mutate: (p) => {
        p.spec.hostNetwork = true;
        p.spec.containers[0].ports = [{ containerPort: 80 }];
      },
      errors: [],
    },
    {
      name: 'the same containerPort twice is only a warning',
      mutate: ports({ containerPort: 80 }, { containerPort: 80 }),
      errors: [],
      warnings: [[`${c0}.ports[1]`, 'Invalid value', `duplicate port definition with ${c0}.ports[0]`]],
    },
    {
      name: 'hostIP without hostPort is only a warning',
      mutate: ports({ containerPort: 80, hostIP: '127.0.0.1' }),
      errors: [],
      warnings: [[`${c0}.ports[0]`, 'Invalid value', 'hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:TCP HostIP:127.0.0.1}']],
    },
  ]);
});

describe('env and envFrom', () => {
  const from = (src: Obj) => env({ name: 'X', valueFrom: src });
  runCases([
    { name: 'an env name starting with a digit is fine under the relaxed rule', mutate: env({ name: '1ABC', value: 'v' }), errors: [] },
    { name: 'an env var without a name is required to have one', mutate: env({ value: 'v' }), errors: [[`${c0}.env[0].name`, 'Required value', '']] },
    {
      name: 'an env name with "=" is invalid',
      mutate: env({ name: 'A=B', value: 'v' }),
      errors: [[`${c0}.env[0].name`, 'Invalid value', `"A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`]],
    },
    {
      name: 'valueFrom without any source must specify one of five sources',
      mutate: from({}),
      errors: [[`${c0}.env[0].valueFrom`, 'Invalid value', '"": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`']],
    },
    {
      name: 'valueFrom together with a value is rejected',
      mutate: env({ name: 'X', value: 'v', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }),
      errors: [[`${c0}.env[0].valueFrom`, 'Invalid value', '"": may not be specified when `value` is not empty']],
    },
    {
      name: 'two valueFrom sources at once are rejected',
      mutate: from({ fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } }),
      errors: [[`${c0}.env[0].valueFrom`, 'Invalid value', '"": may not have more than one field specified at a time']],
    },
    {
      name: 'status.phase converts but is not allowed in env',
      mutate: from({ fieldRef: { fieldPath: 'status.phase' } }),
      errors: [[
        `${c0}.env[0].valueFrom.fieldRef.fieldPath`,
        'Unsupported value',
        '"status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
      ]],
    },
    {
      name: 'an unknown field label fails conversion',
      mutate: from({ fieldRef: { fieldPath: 'spec.foo' } }),
      errors: [[`${c0}.env[0].valueFrom.fieldRef.fieldPath`, 'Invalid value', '"spec.foo": error converting fieldPath: field label not supported: spec.foo']],
    },
    {
      name: 'an apiVersion other than v1 fails conversion',
      mutate: from({ fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } }),
      errors: [[`${c0}.env[0].valueFrom.fieldRef.fieldPath`, 'Invalid value', '"metadata.name": error converting fieldPath: unsupported pod version: v2']],
    },
    {
      name: 'a subscripted label with a bad key is checked as a qualified name on fieldRef',
      mutate: from({ fieldRef: { fieldPath: "metadata.labels['-bad']" } }),
      errors: [[`${c0}.env[0].valueFrom.fieldRef`, 'Invalid value', `"-bad": ${QUALIFIED_NAME}`]],
    },
    { name: 'a fieldRef without fieldPath is required to have one', mutate: from({ fieldRef: {} }), errors: [[`${c0}.env[0].valueFrom.fieldRef.fieldPath`, 'Required value', '']] },
    {
      name: 'an unknown resourceFieldRef resource is not supported',
      mutate: from({ resourceFieldRef: { resource: 'limits.gpu' } }),
      errors: [[
        `${c0}.env[0].valueFrom.resourceFieldRef.resource`,
        'Unsupported value',
        '"limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
      ]],
    },
    {
      name: 'a cpu divisor other than 1m or 1 is invalid',
      mutate: from({ resourceFieldRef: { resource: 'limits.cpu', divisor: '10m' } }),
      errors: [[`${c0}.env[0].valueFrom.resourceFieldRef.divisor`, 'Invalid value', '"limits.cpu": only divisor\'s values 1m and 1 are supported with the cpu resource']],
    },
    {
      name: 'a configMapKeyRef with an empty name is invalid (not required) and its key is required',
      mutate: from({ configMapKeyRef: { name: '' } }),
      errors: [
        [`${c0}.env[0].valueFrom.configMapKeyRef.name`, 'Invalid value', `"": ${DNS_SUBDOMAIN}`],
        [`${c0}.env[0].valueFrom.configMapKeyRef.key`, 'Required value', ''],
      ],
    },
    {
      name: 'a secretKeyRef key with a slash is not a config key',
      mutate: from({ secretKeyRef: { name: 'db', key: 'a/b' } }),
      errors: [[`${c0}.env[0].valueFrom.secretKeyRef.key`, 'Invalid value', `"a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`]],
    },
    {
      name: 'an envFrom entry without a source is reported on the unindexed envFrom path',
      mutate: (p) => (p.spec.containers[0].envFrom = [{ prefix: 'P_' }]),
      errors: [[`${c0}.envFrom`, 'Invalid value', '"": must specify one of: `configMapRef` or `secretRef`']],
    },
    {
      name: 'an envFrom entry with both sources is reported on the unindexed envFrom path',
      mutate: (p) => (p.spec.containers[0].envFrom = [{ configMapRef: { name: 'a' }, secretRef: { name: 'b' } }]),
      errors: [[`${c0}.envFrom`, 'Invalid value', '"": may not have more than one field specified at a time']],
    },
    {
      name: 'an envFrom configMapRef without a name is required to have one',
      mutate: (p) => (p.spec.containers[0].envFrom = [{ configMapRef: {} }]),
      errors: [[`${c0}.envFrom[0].configMapRef.name`, 'Required value', '']],
    },
    {
      name: 'a redefined env var that drops the earlier value is a warning',
      mutate: env({ name: 'A', value: '1' }, { name: 'A', value: '2' }),
      errors: [],
      warnings: [[`${c0}.env[1]`, 'Invalid value', 'hides previous definition of "A", which may be dropped when using apply']],
    },
  ]);
});
