import { describe } from 'node:test';
import { DNS_LABEL, runCases } from './helpers.js';

const c0 = 'spec.containers[0]';
const probe = { exec: { command: ['true'] } };

describe('containers: names, images and policies', () => {
  runCases([
    { name: 'a manifest with one well-formed container is accepted', mutate: () => {}, errors: [] },
    { name: 'a pod without containers needs at least one', mutate: (p) => (p.spec.containers = []), errors: [['spec.containers', 'Required value', '']] },
    { name: 'an uppercase container name is not a DNS label', mutate: (p) => (p.spec.containers[0].name = 'Web'), errors: [[`${c0}.name`, 'Invalid value', `"Web": ${DNS_LABEL}`]] },
    { name: 'a dotted container name must not contain dots', mutate: (p) => (p.spec.containers[0].name = 'a.b'), errors: [[`${c0}.name`, 'Invalid value', '"a.b": must not contain dots']] },
    {
      name: 'a 64-character container name is too long',
      mutate: (p) => (p.spec.containers[0].name = 'a'.repeat(64)),
      errors: [[`${c0}.name`, 'Invalid value', `"${'a'.repeat(64)}": must be no more than 63 characters`]],
    },
    { name: 'a container without a name is required to have one', mutate: (p) => delete p.spec.containers[0].name, errors: [[`${c0}.name`, 'Required value', '']] },
    { name: 'a container without an image is required to have one', mutate: (p) => delete p.spec.containers[0].image, errors: [[`${c0}.image`, 'Required value', '']] },
    {
      name: 'an image with surrounding spaces is rejected',
      mutate: (p) => (p.spec.containers[0].image = ' busybox '),
      errors: [[`${c0}.image`, 'Invalid value', '" busybox ": must not have leading or trailing whitespace']],
    },
    {
      name: 'an imagePullPolicy in the wrong case is not supported',
      mutate: (p) => (p.spec.containers[0].imagePullPolicy = 'always'),
      errors: [[`${c0}.imagePullPolicy`, 'Unsupported value', '"always": supported values: "Always", "IfNotPresent", "Never"']],
    },
    {
      name: 'an unknown terminationMessagePolicy is not supported',
      mutate: (p) => (p.spec.containers[0].terminationMessagePolicy = 'Logs'),
      errors: [[`${c0}.terminationMessagePolicy`, 'Unsupported value', '"Logs": supported values: "File", "FallbackToLogsOnError"']],
    },
    {
      name: 'two regular containers with one name are a duplicate on the later one',
      mutate: (p) => p.spec.containers.push({ name: 'app', image: 'busybox:1.35' }),
      errors: [['spec.containers[1].name', 'Duplicate value', '"app"']],
    },
    {
      name: 'an init container named like a regular container is a duplicate',
      mutate: (p) => (p.spec.initContainers = [{ name: 'app', image: 'busybox:1.35' }]),
      errors: [['spec.initContainers[0].name', 'Duplicate value', '"app"']],
    },
    {
      name: 'container errors come before init container errors, as the API server lists them',
      mutate: (p) => {
        p.spec.initContainers = [{ name: 'Init', image: 'busybox:1.35' }];
        p.spec.containers[0].name = 'App';
      },
      errors: [
        [`${c0}.name`, 'Invalid value', `"App": ${DNS_LABEL}`],
        ['spec.initContainers[0].name', 'Invalid value', `"Init": ${DNS_LABEL}`],
      ],
    },
    {
      name: 'a regular container may set restartPolicy Never (1.35 container restart rules)',
      mutate: (p) => (p.spec.containers[0].restartPolicy = 'Never'),
      errors: [],
    },
    {
      name: 'a container restartPolicy outside Always, Never and OnFailure is not supported',
      mutate: (p) => (p.spec.containers[0].restartPolicy = 'Sometimes'),
      errors: [[`${c0}.restartPolicy`, 'Unsupported value', '"Sometimes": supported values: "Always", "Never", "OnFailure"']],
    },
    {
      name: 'a restart rule with an unknown action and operator is reported on both',
      mutate: (p) => {
        p.spec.containers[0].restartPolicy = 'Never';
        p.spec.containers[0].restartPolicyRules = [{ action: 'Kill', exitCodes: { operator: 'Is', values: [42] } }];
      },
      errors: [
        [`${c0}.restartPolicyRules[0].action`, 'Unsupported value', '"Kill": supported values: "Restart"'],
        [`${c0}.restartPolicyRules[0].exitCodes.operator`, 'Unsupported value', '"Is": supported values: "In", "NotIn"'],
      ],
    },
  ]);
});

describe('init containers and sidecars', () => {
  runCases([
    {
      name: 'a plain init container may not have probes or lifecycle hooks, one error each, contents unchecked',
      mutate: (p) =>
        (p.spec.initContainers = [
          { name: 'init', image: 'busybox:1.35', livenessProbe: { periodSeconds: -1 }, readinessProbe: probe, lifecycle: { preStop: probe } },
        ]),
      errors: [
        ['spec.initContainers[0].lifecycle', 'Forbidden', 'may not be set for init containers without restartPolicy=Always'],
        ['spec.initContainers[0].livenessProbe', 'Forbidden', 'may not be set for init containers without restartPolicy=Always'],
        ['spec.initContainers[0].readinessProbe', 'Forbidden', 'may not be set for init containers without restartPolicy=Always'],
      ],
    },
    {
      name: 'a sidecar (restartPolicy Always) may have probes, validated like a regular container',
      mutate: (p) => (p.spec.initContainers = [{ name: 'side', image: 'busybox:1.35', restartPolicy: 'Always', livenessProbe: probe, startupProbe: probe }]),
      errors: [],
    },
    {
      name: "a sidecar's liveness probe must have successThreshold 1",
      mutate: (p) => (p.spec.initContainers = [{ name: 'side', image: 'busybox:1.35', restartPolicy: 'Always', livenessProbe: { ...probe, successThreshold: 2 } }]),
      errors: [['spec.initContainers[0].livenessProbe.successThreshold', 'Invalid value', '2: must be 1']],
    },
    {
      name: 'an init container restartPolicy outside the three values is not supported',
      mutate: (p) => (p.spec.initContainers = [{ name: 'init', image: 'busybox:1.35', restartPolicy: 'always' }]),
      errors: [['spec.initContainers[0].restartPolicy', 'Unsupported value', '"always": supported values: "Always", "Never", "OnFailure"']],
    },
    {
      name: 'an init container with restartPolicy Never is a plain init container, so its probe is forbidden',
      mutate: (p) => (p.spec.initContainers = [{ name: 'init', image: 'busybox:1.35', restartPolicy: 'Never', startupProbe: probe }]),
      errors: [['spec.initContainers[0].startupProbe', 'Forbidden', 'may not be set for init containers without restartPolicy=Always']],
    },
    {
      name: 'two init containers with one name are a duplicate on the later one',
      mutate: (p) => (p.spec.initContainers = [{ name: 'init', image: 'a' }, { name: 'init', image: 'b' }]),
      errors: [['spec.initContainers[1].name', 'Duplicate value', '"init"']],
    },
    {
      name: 'a hostPort repeated inside the fourth init container is reported at index 0 (upstream quirk)',
      mutate: (p) =>
        (p.spec.initContainers = [
          { name: 'i0', image: 'a' },
          { name: 'i1', image: 'a' },
          { name: 'i2', image: 'a' },
          { name: 'i3', image: 'a', ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81, hostPort: 8080 }] },
        ]),
      errors: [['spec.initContainers[0].ports[1].hostPort', 'Duplicate value', '"TCP//8080"']],
    },
    {
      name: 'an init container and a regular container may share a hostPort',
      mutate: (p) => {
        p.spec.initContainers = [{ name: 'init', image: 'a', ports: [{ containerPort: 80, hostPort: 8080 }] }];
        p.spec.containers[0].ports = [{ containerPort: 80, hostPort: 8080 }];
      },
      errors: [],
    },
  ]);
});
