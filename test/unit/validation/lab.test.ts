// Pod Lab's own warnings: one case per family of fields the lab cannot honour, the fields it does
// honour (no warning), the runtime-dependent node-name warning, and the table behind warnings and
// hovers checked entry by entry against the lab notes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hoverAt, labWarnings, UNSUPPORTED, unsupportedNote, validateText, type Problem } from '../../../src/validation/index.js';
import { HAND_NOTES, LAB_NOTES } from '../../../src/validation/assist-data.js';
import { typeSpec } from '../../../src/validation/schema.js';
import { podWith, yamlOf, type Obj } from './helpers.js';

const lab = (ps: Problem[]) => ps.filter((p) => p.source === 'podlab').map((p) => [p.field, p.detail]);
const labOf = (mutate: (p: Obj) => void) => lab(validateText(yamlOf(podWith(mutate))).problems);
const d = (key: string) => UNSUPPORTED[key]!.detail;
const c0 = (p: Obj) => p.spec.containers[0];

describe('lab warnings, one family at a time', () => {
  const cases: [string, (p: Obj) => void, [string, string][]][] = [
    [
      'a volume source the lab cannot set up (persistentVolumeClaim, nfs) is warned at the source',
      (p) => (p.spec.volumes = [{ name: 'a', persistentVolumeClaim: { claimName: 'c' } }, { name: 'b', nfs: { server: 's', path: '/x' } }]),
      [
        ['spec.volumes[0].persistentVolumeClaim', 'Pod Lab does not support persistentVolumeClaim volumes: the pod cannot start on the lab'],
        ['spec.volumes[1].nfs', 'Pod Lab does not support nfs volumes: the pod cannot start on the lab'],
      ],
    ],
    [
      'an emptyDir on huge pages is warned; on disk or in memory it is not',
      (p) => (p.spec.volumes = [{ name: 'a', emptyDir: { medium: 'HugePages' } }, { name: 'b', emptyDir: { medium: 'Memory' } }, { name: 'c', emptyDir: {} }]),
      [['spec.volumes[0].emptyDir.medium', d('EmptyDirVolumeSource.medium')]],
    ],
    [
      'a projected serviceAccountToken source is warned; configMap, secret and downwardAPI sources are not',
      (p) =>
        (p.spec.volumes = [
          {
            name: 'proj',
            projected: {
              sources: [
                { configMap: { name: 'c' } },
                { secret: { name: 's' } },
                { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
                { serviceAccountToken: { path: 'token' } },
              ],
            },
          },
        ]),
      [['spec.volumes[0].projected.sources[3].serviceAccountToken', d('VolumeProjection.serviceAccountToken')]],
    ],
    [
      'env from a file (fileKeyRef) is warned; fieldRef, resourceFieldRef and ConfigMap/Secret references are not',
      (p) =>
        (c0(p).env = [
          { name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'B', valueFrom: { resourceFieldRef: { resource: 'limits.memory' } } },
          { name: 'C', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } },
          { name: 'D', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
          { name: 'E', valueFrom: { fileKeyRef: { volumeName: 'v', path: 'f', key: 'k' } } },
        ]),
      [['spec.containers[0].env[4].valueFrom.fileKeyRef', d('EnvVarSource.fileKeyRef')]],
    ],
    [
      "a container's own restartPolicy and restart rules are warned; a sidecar's Always is not",
      (p) => {
        c0(p).restartPolicy = 'Never';
        c0(p).restartPolicyRules = [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }];
        p.spec.initContainers = [
          { name: 'side', image: 'busybox:1.35', restartPolicy: 'Always' },
          { name: 'once', image: 'busybox:1.35', restartPolicy: 'OnFailure' },
        ];
      },
      [
        ['spec.containers[0].restartPolicy', d('Container.restartPolicy')],
        ['spec.containers[0].restartPolicyRules', d('Container.restartPolicyRules')],
        ['spec.initContainers[1].restartPolicy', d('Container.restartPolicy')],
      ],
    ],
    [
      'mount propagation and recursive read-only are warned; None, Disabled, subPath and subPathExpr (the engine expands it) are not',
      (p) => {
        p.spec.volumes = [{ name: 'v', emptyDir: {} }];
        c0(p).volumeMounts = [
          { name: 'v', mountPath: '/a', mountPropagation: 'HostToContainer' },
          { name: 'v', mountPath: '/b', mountPropagation: 'None', readOnly: true, recursiveReadOnly: 'Enabled' },
          { name: 'v', mountPath: '/c', subPathExpr: '$(POD)', recursiveReadOnly: 'Disabled' },
          { name: 'v', mountPath: '/d', subPath: 'd' },
        ];
      },
      [
        ['spec.containers[0].volumeMounts[0].mountPropagation', d('VolumeMount.mountPropagation')],
        ['spec.containers[0].volumeMounts[1].recursiveReadOnly', d('VolumeMount.recursiveReadOnly')],
      ],
    ],
    [
      'container security settings Docker is not given are warned per field; privileged, runAsUser, runAsGroup and the defaults are not',
      (p) =>
        (c0(p).securityContext = {
          privileged: false,
          runAsUser: 1000,
          runAsGroup: 1000,
          runAsNonRoot: true,
          capabilities: { drop: ['ALL'] },
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          seccompProfile: { type: 'Unconfined' },
          appArmorProfile: { type: 'RuntimeDefault' },
          seLinuxOptions: { level: 's0:c1' },
          procMount: 'Default',
        }),
      [
        ['spec.containers[0].securityContext.runAsNonRoot', d('SecurityContext.runAsNonRoot')],
        ['spec.containers[0].securityContext.capabilities', d('SecurityContext.capabilities')],
        ['spec.containers[0].securityContext.readOnlyRootFilesystem', d('SecurityContext.readOnlyRootFilesystem')],
        ['spec.containers[0].securityContext.allowPrivilegeEscalation', d('SecurityContext.allowPrivilegeEscalation')],
        ['spec.containers[0].securityContext.seccompProfile', d('SecurityContext.seccompProfile')],
        ['spec.containers[0].securityContext.seLinuxOptions', d('SecurityContext.seLinuxOptions')],
      ],
    ],
    [
      'values that match what Docker does anyway are not warned',
      (p) => (c0(p).securityContext = { readOnlyRootFilesystem: false, allowPrivilegeEscalation: true, runAsNonRoot: false, capabilities: {}, seccompProfile: { type: 'RuntimeDefault' } }),
      [],
    ],
    [
      'pod security settings are warned per field; runAsUser and runAsGroup are not',
      (p) => (p.spec.securityContext = { runAsUser: 1000, runAsGroup: 1000, fsGroup: 2000, supplementalGroups: [3000], sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] }),
      [
        ['spec.securityContext.fsGroup', d('PodSecurityContext.fsGroup')],
        ['spec.securityContext.supplementalGroups', d('PodSecurityContext.supplementalGroups')],
        ['spec.securityContext.sysctls', d('PodSecurityContext.sysctls')],
      ],
    ],
    [
      'dnsPolicy None and dnsConfig are warned; the default ClusterFirst is not',
      (p) => {
        p.spec.dnsPolicy = 'None';
        p.spec.dnsConfig = { nameservers: ['1.1.1.1'] };
      },
      [
        ['spec.dnsPolicy', d('PodSpec.dnsPolicy')],
        ['spec.dnsConfig', d('PodSpec.dnsConfig')],
      ],
    ],
    [
      "scheduling fields the lab's scheduler ignores are warned; nodeSelector, node and pod (anti-)affinity (required and preferred), tolerations and spread constraints (DoNotSchedule and ScheduleAnyway) are not",
      (p) => {
        Object.assign(p.spec, {
          priorityClassName: 'high',
          preemptionPolicy: 'Never',
          runtimeClassName: 'gvisor',
          schedulerName: 'my-scheduler',
          schedulingGates: [{ name: 'example.com/wait' }],
          nodeSelector: { disk: 'ssd' },
          tolerations: [{ key: 'k', operator: 'Exists' }],
          topologySpreadConstraints: [
            { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { a: 'b' } } },
            { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { a: 'b' } } },
          ],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] }] },
              preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'z', operator: 'Exists' }] } }],
            },
            podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone', labelSelector: { matchLabels: { a: 'b' } } } }] },
            podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { a: 'b' } } }] },
          },
        });
      },
      [
        ['spec.priorityClassName', d('PodSpec.priorityClassName')],
        ['spec.preemptionPolicy', d('PodSpec.preemptionPolicy')],
        ['spec.runtimeClassName', d('PodSpec.runtimeClassName')],
        ['spec.schedulerName', d('PodSpec.schedulerName')],
        ['spec.schedulingGates', d('PodSpec.schedulingGates')],
      ],
    ],
    [
      'resource claims and a Windows pod are warned; os linux is not',
      (p) => {
        p.spec.resourceClaims = [{ name: 'gpu', resourceClaimName: 'gpu-claim' }];
        p.spec.os = { name: 'windows' };
      },
      [
        ['spec.resourceClaims', d('PodSpec.resourceClaims')],
        ['spec.os.name', d('PodOS.name')],
      ],
    ],
    [
      'image pull secrets, user namespaces and hostnameOverride are warned; readiness gates, hostAliases, hostname, subdomain and activeDeadlineSeconds are not',
      (p) =>
        Object.assign(p.spec, {
          readinessGates: [{ conditionType: 'example.com/ready' }],
          imagePullSecrets: [{ name: 'regcred' }],
          hostUsers: false,
          hostnameOverride: 'box',
          hostAliases: [{ ip: '10.0.0.1', hostnames: ['db'] }],
          hostname: 'web',
          subdomain: 'svc',
          activeDeadlineSeconds: 60,
        }),
      [
        ['spec.imagePullSecrets', d('PodSpec.imagePullSecrets')],
        ['spec.hostUsers', d('PodSpec.hostUsers')],
        ['spec.hostnameOverride', d('PodSpec.hostnameOverride')],
      ],
    ],
  ];
  for (const [name, mutate, want] of cases) test(name, () => assert.deepEqual(labOf(mutate), want));

  test('ephemeral containers are refused by the API server at create (they are added through the ephemeralcontainers subresource)', () => {
    const ps = validateText(yamlOf(podWith((p) => (p.spec.ephemeralContainers = [{ name: 'dbg', image: 'busybox:1.35' }])))).problems;
    assert.deepEqual(
      ps.map((p) => [p.severity, p.field, p.type, p.detail]),
      [
        ['error', 'spec.ephemeralContainers', 'Forbidden', 'cannot be set on create'],
      ],
    );
  });

  test('a pod using only what the lab supports gets no lab warning', () => {
    const probe = { httpGet: { path: '/', port: 8080 }, periodSeconds: 5 };
    const ps = validateText(
      yamlOf(
        podWith((p) => {
          Object.assign(p.spec, {
            hostname: 'web',
            subdomain: 'svc',
            activeDeadlineSeconds: 600,
            hostAliases: [{ ip: '10.0.0.1', hostnames: ['db'] }],
            shareProcessNamespace: true,
            securityContext: { runAsUser: 1000, runAsGroup: 1000 },
            volumes: [
              { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
              { name: 'host', hostPath: { path: '/tmp', type: 'Directory' } },
              { name: 'cfg', configMap: { name: 'c', items: [{ key: 'k', path: 'k' }] } },
              { name: 'sec', secret: { secretName: 's', optional: true } },
              { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
              { name: 'all', projected: { sources: [{ configMap: { name: 'c' } }, { secret: { name: 's' } }] } },
            ],
          });
          p.spec.initContainers = [{ name: 'side', image: 'busybox:1.35', restartPolicy: 'Always', startupProbe: { exec: { command: ['true'] } } }];
          Object.assign(c0(p), {
            command: ['sh', '-c', 'echo $(A)'],
            env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } }],
            envFrom: [{ secretRef: { name: 's' } }],
            ports: [{ containerPort: 8080, hostPort: 18080 }],
            livenessProbe: { tcpSocket: { port: 8080 } },
            readinessProbe: probe,
            startupProbe: { grpc: { port: 9000 } },
            lifecycle: { postStart: { exec: { command: ['true'] } }, preStop: { sleep: { seconds: 1 } } },
            terminationMessagePolicy: 'FallbackToLogsOnError',
            resources: { limits: { cpu: '500m', memory: '64Mi' } },
            securityContext: { privileged: true, runAsUser: 0 },
            volumeMounts: [
              { name: 'scratch', mountPath: '/scratch' },
              { name: 'cfg', mountPath: '/cfg', readOnly: true },
              { name: 'host', mountPath: '/host', subPath: 'x' },
            ],
          });
        }),
      ),
    ).problems;
    assert.deepEqual(ps, []);
  });

  test('every lab warning is a warning from podlab, rendered like an API server warning', () => {
    const ps = validateText(yamlOf(podWith((p) => (p.spec.dnsConfig = { nameservers: ['1.1.1.1'] })))).problems;
    assert.deepEqual(
      ps.map(({ severity, source, type, field, detail, message }) => ({ severity, source, type, field, detail, message })),
      [{ severity: 'warning', source: 'podlab', type: 'Lab warning', field: 'spec.dnsConfig', detail: d('PodSpec.dnsConfig'), message: `spec.dnsConfig: ${d('PodSpec.dnsConfig')}` }],
    );
  });

  test('a lab warning points at the key of its field', () => {
    const text = yamlOf(podWith((p) => (p.spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'c' } }])));
    const p = validateText(text).problems[0]!;
    assert.deepEqual([p.line, p.column, text.slice(p.offset, p.endOffset)], [11, 7, 'persistentVolumeClaim']);
  });

  test('warnings under a field the decoder dropped are not reported', () => {
    const text = yamlOf(podWith((p) => (p.spec.securityContext = { fsGroup: 'wheel' })));
    assert.deepEqual(
      validateText(text).problems.map((p) => [p.field, p.type]),
      [['spec.securityContext.fsGroup', 'Type mismatch']],
    );
  });
});

describe('the node-name warning (depends on the lab nodes)', () => {
  const pod = (nodeName: string) => yamlOf(podWith((p) => (p.spec.nodeName = nodeName)));
  const detail = 'Pod Lab has no node "worker-1" (its nodes: "podlab-node"): no kubelet will run this pod, so it stays Pending, as on a cluster';
  test('validateText with the lab nodes warns about a node the lab does not have, at the value', () => {
    const text = pod('worker-1');
    const ps = validateText(text, { nodeNames: ['podlab-node'] }).problems;
    assert.deepEqual(
      ps.map((p) => [p.severity, p.source, p.field, p.detail, text.slice(p.offset, p.endOffset)]),
      [['warning', 'podlab', 'spec.nodeName', detail, 'worker-1']],
    );
  });
  test('a node the lab has is not warned', () => assert.deepEqual(validateText(pod('podlab-node'), { nodeNames: ['podlab-node'] }).problems, []));
  test('without the lab nodes there is nothing to compare with', () => assert.deepEqual(validateText(pod('worker-1')).problems, []));
  test('labWarnings gives the same warnings for a validated object, without positions', () => {
    const obj = validateText(pod('worker-1')).documents[0]!.object!;
    assert.deepEqual(labWarnings(obj, { nodeNames: ['podlab-node'] }), [
      { severity: 'warning', source: 'podlab', type: 'Lab warning', field: 'spec.nodeName', detail, message: `spec.nodeName: ${detail}` },
    ]);
  });
  test('labWarnings of a Secret walks the Secret', () => {
    const obj = validateText('apiVersion: v1\nkind: Secret\nmetadata:\n  name: t\n  annotations:\n    kubernetes.io/service-account.name: default\ntype: kubernetes.io/service-account-token\n').documents[0]!.object!;
    assert.deepEqual(labWarnings(obj, { nodeNames: [] }).map((w) => [w.field, w.detail]), [['type', d('Secret.type')]]);
  });
});

// ---- the table, entry by entry ----

/** The shortest path from a root type to an object of type `owner`, not through unsupported fields. */
function pathTo(owner: string, root: string): (string | number)[] | undefined {
  const queue: [string, (string | number)[]][] = [[root, []]];
  const seen = new Set<string>([root]);
  while (queue.length) {
    const [ref, path] = queue.shift()!;
    if (ref === owner) return path;
    for (const [f, spec] of typeSpec(ref)?.fields ?? []) {
      if (UNSUPPORTED[`${ref}.${f}`] || (ref === 'Pod' && f === 'status')) continue;
      const list = spec.type.startsWith('[]');
      const next = spec.type.replace(/^(\[\]|\{\})/, '');
      if (!typeSpec(next) || seen.has(next) || spec.type.startsWith('{}')) continue;
      seen.add(next);
      queue.push([next, list ? [...path, f, 0] : [...path, f]]);
    }
  }
  return undefined;
}

/** A value that triggers the entry: the conditional ones need a particular value. */
const TRIGGER: Record<string, unknown> = {
  'EmptyDirVolumeSource.medium': 'HugePages-2Mi',
  'VolumeMount.mountPropagation': 'Bidirectional',
  'VolumeMount.recursiveReadOnly': 'IfPossible',
  'SecurityContext.capabilities': { add: ['NET_ADMIN'] },
  'SecurityContext.readOnlyRootFilesystem': true,
  'SecurityContext.allowPrivilegeEscalation': false,
  'SecurityContext.procMount': 'Unmasked',
  'SecurityContext.runAsNonRoot': true,
  'PodSecurityContext.runAsNonRoot': true,
  'SecurityContext.seccompProfile': { type: 'Localhost', localhostProfile: 'p.json' },
  'PodSecurityContext.seccompProfile': { type: 'Unconfined' },
  'SecurityContext.appArmorProfile': { type: 'Unconfined' },
  'PodSecurityContext.appArmorProfile': { type: 'Localhost', localhostProfile: 'p' },
  'PodSecurityContext.supplementalGroupsPolicy': 'Strict',
  'PodSpec.dnsPolicy': 'ClusterFirstWithHostNet',
  'PodSpec.schedulerName': 'other',
  'PodSpec.hostUsers': false,
  'PodOS.name': 'windows',
  'Secret.type': 'kubernetes.io/service-account-token',
  'Container.restartPolicy': 'OnFailure',
};
function sample(ref: string): unknown {
  if (ref.startsWith('[]')) return [sample(ref.slice(2))];
  if (ref.startsWith('{}')) return { k: sample(ref.slice(2)) };
  switch (ref) {
    case 'bool':
      return true;
    case 'int32':
    case 'int64':
      return 1;
    case 'string':
    case 'Quantity':
    case 'IntOrString':
    case 'bytes':
      return 'x';
  }
  return {};
}

describe('the unsupported-field table', () => {
  for (const [key, u] of Object.entries(UNSUPPORTED)) {
    test(`${key}: a real field, warned where it is set, and its hover note says so`, () => {
      const [owner, field] = key.split('.') as [string, string];
      const spec = typeSpec(owner)?.fields.get(field);
      assert.ok(spec, `${key} is not in the schema`);
      assert.match(u.detail, /^Pod Lab does not /);
      // an object of the root kind with the field set at the shortest path to its owner
      const root = owner === 'Secret' ? 'Secret' : 'Pod';
      const path = pathTo(owner, root);
      assert.ok(path, `no path from ${root} to ${owner}`);
      const obj: Obj = { apiVersion: 'v1', kind: root };
      let cur: any = obj;
      for (let i = 0; i < path.length; i++) {
        const seg = path[i]!;
        const nextIsIndex = typeof path[i + 1] === 'number';
        cur[seg] ??= nextIsIndex ? [] : {};
        cur = cur[seg];
      }
      // priority and preemptionPolicy are warned beside a PriorityClass (without one, admission refuses them)
      const withClass = key === 'PodSpec.priority' || key === 'PodSpec.preemptionPolicy';
      if (withClass) cur.priorityClassName = 'high';
      cur[field] = key in TRIGGER ? TRIGGER[key] : sample(spec.type);
      const fieldPath = [...path, field].reduce<string>((s, seg) => (typeof seg === 'number' ? `${s}[${seg}]` : s ? `${s}.${seg}` : seg), '');
      const classWarning = ['spec.priorityClassName', UNSUPPORTED['PodSpec.priorityClassName']!.detail];
      assert.deepEqual(labWarnings(obj as never).map((w) => [w.field, w.detail]), [...(withClass ? [classWarning] : []), [fieldPath, u.detail]]);
      // the hover note is the warning's text and mentions the warning
      assert.equal(LAB_NOTES[key], unsupportedNote(key));
      assert.ok(LAB_NOTES[key]!.includes(u.detail) && /warning/.test(LAB_NOTES[key]!), LAB_NOTES[key]);
    });
  }
  test('no hand-written note is about an unsupported field (the table is their only source)', () => {
    assert.deepEqual(Object.keys(HAND_NOTES).filter((k) => k in UNSUPPORTED), []);
  });
  test('every hand-written note names a real field and claims no lack of support the table does not list', () => {
    const bad = Object.entries(HAND_NOTES).filter(([k, note]) => {
      const [owner, field] = k.split('.') as [string, string];
      return !typeSpec(owner)?.fields.has(field) || /Pod Lab (does not|cannot)|not (run|supported) (yet|by Pod Lab)/.test(note);
    });
    assert.deepEqual(bad, []);
  });
  test('every lab note is a hand-written note or a table note', () => {
    assert.deepEqual(Object.keys(LAB_NOTES).sort(), [...new Set([...Object.keys(HAND_NOTES), ...Object.keys(UNSUPPORTED)])].sort());
  });
  test('the hover of an unsupported field shows the lab warning', () => {
    const text = yamlOf(podWith((p) => (p.spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'c' } }])));
    const h = hoverAt(text, text.indexOf('persistentVolumeClaim') + 2)!;
    assert.ok(h.markdown.includes(`*Pod Lab:* ${unsupportedNote('Volume.persistentVolumeClaim')}`), h.markdown);
  });
});
