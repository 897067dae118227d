import { describe } from 'node:test';
import { PORT_RANGE, runCases, type Obj } from './helpers.js';

const c0 = 'spec.containers[0]';
const set = (fields: Obj) => (p: Obj) => Object.assign(p.spec.containers[0], fields);
const res = (r: Obj) => set({ resources: r });

describe('probes and lifecycle hooks', () => {
  runCases([
    { name: 'a probe without a handler must specify one', mutate: set({ livenessProbe: { periodSeconds: 5 } }), errors: [[`${c0}.livenessProbe`, 'Required value', 'must specify a handler type']] },
    {
      name: 'a second and third handler are each forbidden, in exec, httpGet, tcpSocket, grpc order',
      mutate: set({ readinessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 80 }, grpc: { port: 9090 } } }),
      errors: [
        [`${c0}.readinessProbe.tcpSocket`, 'Forbidden', 'may not specify more than 1 handler type'],
        [`${c0}.readinessProbe.grpc`, 'Forbidden', 'may not specify more than 1 handler type'],
      ],
    },
    { name: 'an exec handler without a command is required to have one', mutate: set({ startupProbe: { exec: {} } }), errors: [[`${c0}.startupProbe.exec.command`, 'Required value', '']] },
    {
      name: 'a quoted numeric httpGet port is a port name and needs a letter',
      mutate: set({ livenessProbe: { httpGet: { port: '8080' } } }),
      errors: [[`${c0}.livenessProbe.httpGet.port`, 'Invalid value', '"8080": must contain at least one letter (a-z)']],
    },
    { name: 'a tcpSocket probe without a port is out of range', mutate: set({ readinessProbe: { tcpSocket: {} } }), errors: [[`${c0}.readinessProbe.tcpSocket.port`, 'Invalid value', `0: ${PORT_RANGE}`]] },
    {
      name: 'a lowercase httpGet scheme is not supported',
      mutate: set({ readinessProbe: { httpGet: { port: 80, scheme: 'https' } } }),
      errors: [[`${c0}.readinessProbe.httpGet.scheme`, 'Unsupported value', '"https": supported values: "HTTP", "HTTPS"']],
    },
    {
      name: 'a bad header name is reported on the unindexed httpHeaders path',
      mutate: set({ readinessProbe: { httpGet: { port: 80, httpHeaders: [{ name: 'X Bad', value: 'v' }] } } }),
      errors: [[`${c0}.readinessProbe.httpGet.httpHeaders`, 'Invalid value', `"X Bad": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`]],
    },
    {
      name: 'a negative successThreshold on a liveness probe gives two errors on the same field',
      mutate: set({ livenessProbe: { exec: { command: ['true'] }, successThreshold: -1 } }),
      errors: [
        [`${c0}.livenessProbe.successThreshold`, 'Invalid value', '-1: must be greater than or equal to 0'],
        [`${c0}.livenessProbe.successThreshold`, 'Invalid value', '-1: must be 1'],
      ],
    },
    { name: 'a startup probe with successThreshold 3 must have 1', mutate: set({ startupProbe: { exec: { command: ['true'] }, successThreshold: 3 } }), errors: [[`${c0}.startupProbe.successThreshold`, 'Invalid value', '3: must be 1']] },
    { name: 'a readiness probe may have successThreshold 3', mutate: set({ readinessProbe: { exec: { command: ['true'] }, successThreshold: 3 } }), errors: [] },
    { name: 'a zero periodSeconds is defaulted, not rejected', mutate: set({ readinessProbe: { exec: { command: ['true'] }, periodSeconds: 0 } }), errors: [] },
    {
      name: 'a negative failureThreshold is invalid',
      mutate: set({ readinessProbe: { exec: { command: ['true'] }, failureThreshold: -2 } }),
      errors: [[`${c0}.readinessProbe.failureThreshold`, 'Invalid value', '-2: must be greater than or equal to 0']],
    },
    {
      name: 'a readiness probe may not set terminationGracePeriodSeconds',
      mutate: set({ readinessProbe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 10 } }),
      errors: [[`${c0}.readinessProbe.terminationGracePeriodSeconds`, 'Invalid value', '10: must not be set for readinessProbes']],
    },
    {
      name: 'a liveness probe terminationGracePeriodSeconds of 0 must be greater than 0',
      mutate: set({ livenessProbe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 0 } }),
      errors: [[`${c0}.livenessProbe.terminationGracePeriodSeconds`, 'Invalid value', '0: must be greater than 0']],
    },
    { name: 'a preStop hook without a handler must specify one', mutate: set({ lifecycle: { preStop: {} } }), errors: [[`${c0}.lifecycle.preStop`, 'Required value', 'must specify a handler type']] },
    {
      name: 'a preStop sleep longer than the grace period is invalid',
      mutate: set({ lifecycle: { preStop: { sleep: { seconds: 45 } } } }),
      errors: [[`${c0}.lifecycle.preStop.sleep`, 'Invalid value', '45: must be non-negative and less than terminationGracePeriodSeconds (30)']],
    },
    { name: 'a zero-second sleep hook is allowed since 1.33', mutate: set({ lifecycle: { postStart: { sleep: { seconds: 0 } } } }), errors: [] },
    {
      name: 'a hook with exec and sleep forbids the second',
      mutate: set({ lifecycle: { postStart: { exec: { command: ['x'] }, sleep: { seconds: 1 } } } }),
      errors: [[`${c0}.lifecycle.postStart.sleep`, 'Forbidden', 'may not specify more than 1 handler type']],
    },
  ]);
});

describe('resources', () => {
  runCases([
    {
      name: 'a cpu request above its limit must be less than or equal to the limit',
      mutate: res({ requests: { cpu: '2' }, limits: { cpu: '500m' } }),
      errors: [[`${c0}.resources.requests`, 'Invalid value', '"2": must be less than or equal to cpu limit of 500m']],
    },
    {
      name: 'a memory request above its limit names the limit in canonical form',
      mutate: res({ requests: { memory: '1Gi' }, limits: { memory: '512Mi' } }),
      errors: [[`${c0}.resources.requests`, 'Invalid value', '"1Gi": must be less than or equal to memory limit of 512Mi']],
    },
    { name: 'a limit without a request is copied into requests and passes', mutate: res({ limits: { cpu: '1', memory: '64Mi' } }), errors: [] },
    {
      name: 'an unknown resource name without a prefix gets both standard-resource errors',
      mutate: res({ limits: { gpu: '1' } }),
      errors: [
        [`${c0}.resources.limits[gpu]`, 'Invalid value', '"gpu": must be a standard resource type or fully qualified'],
        [`${c0}.resources.limits[gpu]`, 'Invalid value', '"gpu": must be a standard resource for containers'],
        [`${c0}.resources.requests[gpu]`, 'Invalid value', '"gpu": must be a standard resource type or fully qualified'],
        [`${c0}.resources.requests[gpu]`, 'Invalid value', '"gpu": must be a standard resource for containers'],
      ],
    },
    {
      name: 'an extended resource request must equal its limit',
      mutate: res({ requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } }),
      errors: [[`${c0}.resources.requests`, 'Invalid value', '"1": must be equal to example.com/gpu limit of 2']],
    },
    {
      name: 'an extended resource requested without a limit needs one',
      mutate: res({ requests: { 'example.com/gpu': '1' } }),
      errors: [[`${c0}.resources.limits`, 'Required value', 'Limit must be set for non overcommitable resources']],
    },
    {
      name: 'a fractional extended resource must be an integer',
      mutate: res({ limits: { 'example.com/gpu': '500m' } }),
      errors: [
        [`${c0}.resources.limits[example.com/gpu]`, 'Invalid value', '"500m": must be an integer'],
        [`${c0}.resources.requests[example.com/gpu]`, 'Invalid value', '"500m": must be an integer'],
      ],
    },
    {
      name: 'a negative cpu limit must be non-negative, also on the copied request',
      mutate: res({ limits: { cpu: '-1' } }),
      errors: [
        [`${c0}.resources.limits[cpu]`, 'Invalid value', '"-1": must be greater than or equal to 0'],
        [`${c0}.resources.requests[cpu]`, 'Invalid value', '"-1": must be greater than or equal to 0'],
      ],
    },
    {
      name: 'hugepages without cpu or memory are forbidden',
      mutate: res({ limits: { 'hugepages-2Mi': '4Mi' } }),
      errors: [[`${c0}.resources`, 'Forbidden', 'HugePages require cpu or memory']],
    },
    {
      name: 'a fractional memory value is only a warning',
      mutate: res({ requests: { memory: '500m' } }),
      errors: [],
      warnings: [[`${c0}.resources.requests[memory]`, 'Invalid value', 'fractional byte value "500m" is invalid, must be an integer']],
    },
    {
      name: 'a resize policy for an unsupported resource is reported without an index',
      mutate: set({ resizePolicy: [{ resourceName: 'disk', restartPolicy: 'NotRequired' }] }),
      errors: [[`${c0}.resizePolicy`, 'Unsupported value', '"disk": supported values: "cpu", "memory"']],
    },
    {
      name: 'a claim not declared in spec.resourceClaims is not found',
      mutate: res({ claims: [{ name: 'gpu' }] }),
      errors: [[`${c0}.resources.claims[0]`, 'Not found', '"gpu": must be one of the names in pod.spec.resourceClaims which is empty']],
    },
  ]);
});
