// Ephemeral containers in ValidatePodSpec (validateEphemeralContainers) and the update rules of the
// pods/ephemeralcontainers subresource (ValidatePodEphemeralContainersUpdate's Part 2).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EphemeralContainer, Pod } from 'kubernetes-types/core/v1';
import { runCases, type Obj } from './helpers.js';
import { EPHEMERAL_FORBIDDEN, ephemeralContainerDiff, semanticallyEqual, validateEphemeralContainersUpdate } from '../../../src/validation/ephemeral.js';

const CREATE = ['spec.ephemeralContainers', 'Forbidden', 'cannot be set on create'] as [string, string, string];
const withEphemeral = (...list: Obj[]) => (p: Obj) => {
  p.spec.ephemeralContainers = list;
};
const dbg = (extra: Obj = {}) => ({ name: 'dbg', image: 'busybox:1.35', ...extra });

describe('validateEphemeralContainers (run by ValidatePodSpec; a create is refused anyway)', () => {
  runCases([
    { name: 'a plain debug container only meets the create-only refusal', mutate: withEphemeral(dbg({ targetContainerName: 'app', stdin: true, tty: true })), errors: [CREATE] },
    {
      name: 'kubectl debug sends resources {}: an empty resources struct is its zero value and allowed',
      mutate: withEphemeral(dbg({ resources: {} })),
      errors: [CREATE],
    },
    {
      name: 'ports, resources, resizePolicy, restartPolicy, probes and lifecycle are forbidden, in the order of the Go struct',
      mutate: withEphemeral(
        dbg({
          lifecycle: { preStop: { exec: { command: ['true'] } } },
          startupProbe: { exec: { command: ['true'] } },
          readinessProbe: { exec: { command: ['true'] } },
          livenessProbe: { exec: { command: ['true'] } },
          restartPolicy: 'Always',
          resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
          resources: { limits: { cpu: '1' } },
          ports: [{ containerPort: 80 }],
        }),
      ),
      errors: [
        ['spec.ephemeralContainers[0].ports', 'Forbidden', EPHEMERAL_FORBIDDEN],
        ['spec.ephemeralContainers[0].resources', 'Forbidden', EPHEMERAL_FORBIDDEN],
        ['spec.ephemeralContainers[0].resizePolicy', 'Forbidden', EPHEMERAL_FORBIDDEN],
        ['spec.ephemeralContainers[0].restartPolicy', 'Forbidden', EPHEMERAL_FORBIDDEN],
        ['spec.ephemeralContainers[0].livenessProbe', 'Forbidden', EPHEMERAL_FORBIDDEN],
        ['spec.ephemeralContainers[0].readinessProbe', 'Forbidden', EPHEMERAL_FORBIDDEN],
        ['spec.ephemeralContainers[0].startupProbe', 'Forbidden', EPHEMERAL_FORBIDDEN],
        ['spec.ephemeralContainers[0].lifecycle', 'Forbidden', EPHEMERAL_FORBIDDEN],
        CREATE,
      ],
    },
    {
      name: 'an empty ports list is a set (non-nil) slice and forbidden too',
      mutate: withEphemeral(dbg({ ports: [] })),
      errors: [['spec.ephemeralContainers[0].ports', 'Forbidden', EPHEMERAL_FORBIDDEN], CREATE],
    },
    {
      name: 'a name already used by a container, an init container or an earlier ephemeral container is a duplicate',
      mutate: (p) => {
        p.spec.initContainers = [{ name: 'init', image: 'busybox:1.35' }];
        p.spec.ephemeralContainers = [dbg({ name: 'app' }), dbg({ name: 'init' }), dbg(), dbg()];
      },
      errors: [
        ['spec.ephemeralContainers[0].name', 'Duplicate value', '"app"'],
        ['spec.ephemeralContainers[1].name', 'Duplicate value', '"init"'],
        ['spec.ephemeralContainers[3].name', 'Duplicate value', '"dbg"'],
        CREATE,
      ],
    },
    {
      name: 'the target must be a container or init container, not an ephemeral one',
      mutate: withEphemeral(dbg({ name: 'one' }), dbg({ name: 'two', targetContainerName: 'one' })),
      errors: [['spec.ephemeralContainers[1].targetContainerName', 'Not found', '"one"'], CREATE],
    },
    {
      name: 'subPath and subPathExpr mounts are forbidden after the common mount checks',
      mutate: (p) => {
        p.spec.volumes = [{ name: 'data', emptyDir: {} }];
        p.spec.ephemeralContainers = [dbg({ volumeMounts: [{ name: 'data', mountPath: '/a', subPath: 'x' }, { name: 'data', mountPath: '/b', subPathExpr: '$(POD)' }] })];
      },
      errors: [
        ['spec.ephemeralContainers[0].volumeMounts[0].subPath', 'Forbidden', EPHEMERAL_FORBIDDEN],
        ['spec.ephemeralContainers[0].volumeMounts[1].subPathExpr', 'Forbidden', EPHEMERAL_FORBIDDEN],
        CREATE,
      ],
    },
    {
      name: 'the common container checks apply: name, image, whitespace in the image',
      mutate: withEphemeral({ name: 'Bad_Name', image: ' busybox ' }, { name: 'noimage' }),
      errors: [
        [
          'spec.ephemeralContainers[0].name',
          'Invalid value',
          `"Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
        ],
        ['spec.ephemeralContainers[0].image', 'Invalid value', '" busybox ": must not have leading or trailing whitespace'],
        ['spec.ephemeralContainers[1].image', 'Required value', ''],
        CREATE,
      ],
    },
  ]);
});

const pod = (list: EphemeralContainer[], annotations?: Record<string, string>): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'app', image: 'busybox:1.35' }], ephemeralContainers: list },
});
const ec = (name: string, extra: Partial<EphemeralContainer> = {}): EphemeralContainer => ({ name, image: 'busybox:1.35', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent', ...extra });

describe('ValidatePodEphemeralContainersUpdate: existing ephemeral containers may be neither removed nor changed', () => {
  const cases: { name: string; old: Pod; next: Pod; want: ReturnType<typeof validateEphemeralContainersUpdate> }[] = [
    { name: 'adding one to none is allowed', old: pod([]), next: pod([ec('dbg')]), want: { errors: [], replaceAll: false } },
    { name: 'adding one keeps the existing ones (in any order)', old: pod([ec('a'), ec('b')]), next: pod([ec('b'), ec('c'), ec('a')]), want: { errors: [], replaceAll: false } },
    {
      name: 'an absent list and an empty one are the same for an existing container',
      old: pod([ec('a', { command: [] })]),
      next: pod([ec('a', { resources: {} })]),
      want: { errors: [], replaceAll: false },
    },
    {
      name: 'removing one is forbidden, its message ends with a newline',
      old: pod([ec('a'), ec('b')]),
      next: pod([ec('b')]),
      want: { errors: [{ type: 'Forbidden', field: 'spec.ephemeralContainers', detail: 'existing ephemeral containers "a" may not be removed\n', severity: 'error' }], replaceAll: false },
    },
    {
      name: 'changing one is forbidden, with the diff of the two',
      old: pod([ec('a', { targetContainerName: 'app' })]),
      next: pod([ec('a', { image: 'busybox:1.36', targetContainerName: 'app' })]),
      want: {
        errors: [
          {
            type: 'Forbidden',
            field: 'spec.ephemeralContainers',
            detail: [
              'existing ephemeral containers "a" may not be changed',
              '  core.EphemeralContainer{',
              '  \tEphemeralContainerCommon: core.EphemeralContainerCommon{',
              '  \t\t... // 1 identical field',
              '- \t\tImage: "busybox:1.35",',
              '+ \t\tImage: "busybox:1.36",',
              '  \t\t... // 22 identical fields',
              '  \t},',
              '  \tTargetContainerName: "app",',
              '  }',
              '',
            ].join('\n'),
            severity: 'error',
          },
        ],
        replaceAll: false,
      },
    },
    {
      name: 'a static (mirror) pod supports no ephemeral containers: that is the only error',
      old: pod([ec('a')], { 'kubernetes.io/config.mirror': 'abc' }),
      next: pod([ec('b')], { 'kubernetes.io/config.mirror': 'abc' }),
      want: { errors: [{ type: 'Forbidden', field: '', detail: 'static pods do not support ephemeral containers', severity: 'error' }], replaceAll: true },
    },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(validateEphemeralContainersUpdate(c.next, c.old), c.want));

  test('the diff shows a changed target and elides runs of identical fields', () => {
    assert.equal(semanticallyEqual(ec('a', { stdin: true }), ec('a', { stdin: true, tty: false, workingDir: '' })), true);
    assert.equal(semanticallyEqual(ec('a', { stdin: true }), ec('a', { stdin: true, tty: true })), false);
    assert.equal(
      ephemeralContainerDiff(ec('a', { stdin: true }), ec('a', { stdin: false, targetContainerName: 'app' })),
      [
        '  core.EphemeralContainer{',
        '  \tEphemeralContainerCommon: core.EphemeralContainerCommon{',
        '  \t\t... // 21 identical fields',
        '- \t\tStdin: true,',
        '+ \t\tStdin: false,',
        '  \t\t... // 2 identical fields',
        '  \t},',
        '- \tTargetContainerName: "",',
        '+ \tTargetContainerName: "app",',
        '  }',
        '',
      ].join('\n'),
    );
  });
});
