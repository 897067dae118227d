// Pod Lab's own warnings: the fields a real cluster honours but the lab cannot (its scheduler, its
// kubelet and the Docker mapping of src/runtime/docker/config.ts). ONE table, keyed by the schema's
// `Owner.field` like the hover data, so the validator warns at the exact field path and the hover
// says the same thing. These are not API server findings: each carries `source: 'podlab'` and type
// `Lab warning`. No upstream counterpart (the lab's counterpart of the kubelet's own admission checks).
import type { ConfigMap, Pod, Secret } from 'kubernetes-types/core/v1';
import { F, goQuote, renderWarning, type FieldErr, type ProblemSource } from './errors.js';
import { isLabKind, typeSpec, type LabKind } from './schema.js';
import { SECRET_TYPE } from './objects.js';

export type LabFamily =
  | 'volume source'
  | 'projected source'
  | 'env'
  | 'containers'
  | 'volume mounts'
  | 'security context'
  | 'DNS'
  | 'scheduling'
  | 'pod'
  | 'secret';

export interface Unsupported {
  family: LabFamily;
  /** The warning (and the hover's note): starts `Pod Lab does not`. */
  detail: string;
  /** Only these values are not honoured (default: any value that is set). `path` is the field path. */
  when?: (value: unknown, path: string, owner: Record<string, unknown>) => boolean;
  /** A sentence for the hover before the warning text (what the field does where it is honoured). */
  note?: string;
}

/** The volume sources the lab's kubelet sets up; every other source is in the table below. */
export const SUPPORTED_VOLUME_SOURCES = ['emptyDir', 'hostPath', 'configMap', 'secret', 'downwardAPI', 'projected'];

type Obj = Record<string, unknown>;
const notEmpty = (v: unknown) => !(Array.isArray(v) && v.length === 0);
const nonEmptyList = (v: unknown) => Array.isArray(v) && v.length > 0;
const typeOf = (v: unknown) => (v && typeof v === 'object' ? (v as Obj).type : undefined);
const NOT_RUNTIME_DEFAULT = (v: unknown) => typeOf(v) !== 'RuntimeDefault';
const DOCKER_RESOLV = "the lab does not rewrite resolv.conf, containers use Docker's";
const SCHEDULER_IGNORES = "the lab's scheduler ignores it";
const NO_VOLUME = 'so the volume cannot be set up and the pod cannot start';
const SA_MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

function volumeSources(): Record<string, Unsupported> {
  const out: Record<string, Unsupported> = {};
  for (const f of typeSpec('Volume')?.fields.keys() ?? []) {
    if (f === 'name' || SUPPORTED_VOLUME_SOURCES.includes(f)) continue;
    out[`Volume.${f}`] = { family: 'volume source', detail: `Pod Lab does not support ${f} volumes: the pod cannot start on the lab` };
  }
  return out;
}

const security = (owner: 'SecurityContext' | 'PodSecurityContext'): Record<string, Unsupported> => ({
  [`${owner}.seccompProfile`]: {
    family: 'security context',
    detail: "Pod Lab does not apply seccompProfile Unconfined or Localhost: Docker's default seccomp profile (RuntimeDefault) applies",
    when: NOT_RUNTIME_DEFAULT,
  },
  [`${owner}.appArmorProfile`]: {
    family: 'security context',
    detail: "Pod Lab does not apply appArmorProfile Unconfined or Localhost: Docker's default AppArmor profile (RuntimeDefault) applies where AppArmor is enabled",
    when: NOT_RUNTIME_DEFAULT,
  },
  [`${owner}.seLinuxOptions`]: { family: 'security context', detail: 'Pod Lab does not apply seLinuxOptions: no SELinux labels are set' },
  [`${owner}.runAsNonRoot`]: {
    family: 'security context',
    detail: 'Pod Lab does not check runAsNonRoot: a container that would run as root starts anyway (a kubelet refuses it with CreateContainerConfigError)',
    when: (v) => v === true,
  },
  [`${owner}.windowsOptions`]: { family: 'security context', detail: 'Pod Lab does not run Windows containers: windowsOptions are ignored' },
});

/** Every field Pod Lab cannot honour, by `Owner.field`. */
export const UNSUPPORTED: Readonly<Record<string, Unsupported>> = {
  ...volumeSources(),
  'VolumeProjection.serviceAccountToken': {
    family: 'projected source',
    detail: `Pod Lab does not project serviceAccountToken sources: the lab server issues no service account tokens (it serves no TokenRequest), ${NO_VOLUME}`,
  },
  'VolumeProjection.clusterTrustBundle': { family: 'projected source', detail: `Pod Lab does not project clusterTrustBundle sources: the lab has no ClusterTrustBundle objects, ${NO_VOLUME}` },
  'VolumeProjection.podCertificate': { family: 'projected source', detail: `Pod Lab does not project podCertificate sources: the lab has no certificate signer, ${NO_VOLUME}` },
  'EmptyDirVolumeSource.medium': {
    family: 'volume source',
    detail: 'Pod Lab does not support emptyDir media other than the node\'s disk ("") and Memory: the pod cannot start on the lab',
    when: (v) => v !== '' && v !== 'Memory',
  },

  'EnvVarSource.fileKeyRef': { family: 'env', detail: 'Pod Lab does not read environment variables from files (fileKeyRef): the container cannot start on the lab (CreateContainerConfigError)' },

  'Container.restartPolicy': {
    family: 'containers',
    note: 'On an init container, Always makes it a sidecar: started in order, kept running beside the app containers, restarted when it exits.',
    detail: "Pod Lab does not apply a container's own restartPolicy other than Always on an init container: the pod's restartPolicy decides restarts",
    when: (v, path) => !(path.startsWith('spec.initContainers[') && v === 'Always'),
  },
  'Container.resizePolicy': {
    family: 'containers',
    detail: "Pod Lab does not resize containers in place: the lab server has no resize subresource, so resizePolicy never applies (a container's resources stay as created)",
  },
  'Container.restartPolicyRules': { family: 'containers', detail: "Pod Lab does not apply restartPolicyRules: the pod's restartPolicy decides restarts" },

  'VolumeMount.mountPropagation': {
    family: 'volume mounts',
    detail: 'Pod Lab does not apply mountPropagation HostToContainer or Bidirectional: the mount is private',
    when: (v) => v !== 'None',
  },
  'VolumeMount.recursiveReadOnly': {
    family: 'volume mounts',
    detail: 'Pod Lab does not apply recursiveReadOnly: Docker decides whether the submounts of a read-only mount are read-only',
    when: (v) => v === 'Enabled' || v === 'IfPossible',
  },

  ...security('SecurityContext'),
  'SecurityContext.capabilities': {
    family: 'security context',
    detail: "Pod Lab does not apply capabilities: the container gets Docker's default capabilities",
    when: (v) => nonEmptyList((v as Obj)?.add) || nonEmptyList((v as Obj)?.drop),
  },
  'SecurityContext.readOnlyRootFilesystem': {
    family: 'security context',
    detail: "Pod Lab does not apply readOnlyRootFilesystem: the container's root filesystem stays writable",
    when: (v) => v === true,
  },
  'SecurityContext.allowPrivilegeEscalation': {
    family: 'security context',
    detail: 'Pod Lab does not apply allowPrivilegeEscalation false: processes can still gain privileges (no_new_privs is not set)',
    when: (v) => v === false,
  },
  'SecurityContext.procMount': { family: 'security context', detail: 'Pod Lab does not apply procMount Unmasked: /proc stays masked', when: (v) => v === 'Unmasked' },
  ...security('PodSecurityContext'),
  'PodSecurityContext.fsGroup': {
    family: 'security context',
    detail: 'Pod Lab does not apply fsGroup: volumes are not given to the group and the processes do not get it as a supplementary group',
  },
  'PodSecurityContext.fsGroupChangePolicy': { family: 'security context', detail: 'Pod Lab does not apply fsGroupChangePolicy: the ownership of volumes is never changed' },
  'PodSecurityContext.supplementalGroups': { family: 'security context', detail: 'Pod Lab does not apply supplementalGroups: the processes do not get these groups' },
  'PodSecurityContext.supplementalGroupsPolicy': {
    family: 'security context',
    detail: "Pod Lab does not apply supplementalGroupsPolicy Strict: the groups the image's /etc/group gives the user are still added",
    when: (v) => v === 'Strict',
  },
  'PodSecurityContext.sysctls': { family: 'security context', detail: "Pod Lab does not set sysctls: the pod's namespaces keep Docker's values" },
  'PodSecurityContext.seLinuxChangePolicy': { family: 'security context', detail: 'Pod Lab does not apply seLinuxChangePolicy: no SELinux labels are set' },

  'PodSpec.dnsPolicy': {
    family: 'DNS',
    note: 'The lab has no cluster DNS: with ClusterFirst (the default) or Default, containers use the resolv.conf Docker gives them, and for ClusterFirst or ClusterFirstWithHostNet the kubelet says so at its syncs in a MissingClusterDNS Warning on the pod and on its node, as a kubelet without clusterDNS does.',
    detail: `Pod Lab does not apply dnsPolicy None or ClusterFirstWithHostNet: ${DOCKER_RESOLV}`,
    when: (v) => v === 'None' || v === 'ClusterFirstWithHostNet',
  },
  'PodSpec.dnsConfig': { family: 'DNS', detail: `Pod Lab does not apply dnsConfig: ${DOCKER_RESOLV}` },

  'PodSpec.priorityClassName': { family: 'scheduling', detail: 'Pod Lab does not use PriorityClasses: every lab pod has the same priority and none is preempted' },
  // Admission gives every pod without a PriorityClass priority 0 and PreemptLowerPriority, and refuses
  // other values there (admission.ts priorityRefusal): the warnings are for a pod that names a class.
  'PodSpec.priority': { family: 'scheduling', detail: 'Pod Lab does not use pod priority: every lab pod has the same priority and none is preempted', when: (v, _p, spec) => !!spec.priorityClassName && v !== 0 },
  'PodSpec.preemptionPolicy': {
    family: 'scheduling',
    detail: 'Pod Lab does not preempt pods: preemptionPolicy has no effect',
    when: (v, _p, spec) => !!spec.priorityClassName && v !== 'PreemptLowerPriority',
  },
  'PodSpec.runtimeClassName': { family: 'scheduling', detail: "Pod Lab does not use RuntimeClasses: containers run with Docker's default runtime" },
  'PodSpec.schedulingGates': {
    family: 'scheduling',
    detail: "Pod Lab does not hold pods at scheduling gates: the lab's scheduler binds the pod at once (a cluster keeps it SchedulingGated until every gate is removed)",
  },
  'PodSpec.resourceClaims': { family: 'scheduling', detail: 'Pod Lab does not allocate dynamic resources (DRA): the claims are ignored (a cluster waits until they are allocated)' },
  'PodSpec.schedulerName': {
    family: 'scheduling',
    detail: "Pod Lab does not have other schedulers: the lab's scheduler binds the pod anyway (a cluster leaves it Pending until that scheduler does)",
    when: (v) => v !== 'default-scheduler',
  },
  'PodSpec.overhead': { family: 'scheduling', detail: "Pod Lab does not account pod overhead: the lab's scheduler counts container requests only" },
  'PodSpec.resources': {
    family: 'scheduling',
    detail: "Pod Lab does not apply pod-level resources: the lab's scheduler counts container requests and only container limits are enforced",
  },
  // Preferred node and pod (anti-)affinity, PreferNoSchedule taints and ScheduleAnyway spread
  // constraints are scored (src/engine/scheduler filters.ts totalScores, interpod.ts); required pod
  // affinity and anti-affinity, and DoNotSchedule constraints, are filters (interpod.ts).
  'PodOS.name': { family: 'scheduling', detail: "Pod Lab does not run Windows pods: the lab's node runs Linux containers", when: (v) => v !== 'linux' },

  'PodSpec.hostUsers': {
    family: 'pod',
    detail: "Pod Lab does not create user namespaces (hostUsers false): the containers run in the host's user namespace",
    when: (v) => v === false,
  },
  'PodSpec.hostnameOverride': { family: 'pod', detail: "Pod Lab does not apply hostnameOverride: the hostname is spec.hostname or the pod's name" },
  'PodSpec.imagePullSecrets': { family: 'pod', detail: 'Pod Lab does not use imagePullSecrets: the Docker daemon pulls images without credentials' },
  // Admission names the default account when none is named (admission.ts); the lab has no
  // ServiceAccount objects and adds no kube-api-access volume to any pod (README, lab decisions).
  'PodSpec.serviceAccountName': {
    family: 'pod',
    detail: `Pod Lab does not look up ServiceAccounts or mount their tokens: the pod runs as if the account existed, without ${SA_MOUNT} (a cluster refuses the pod when the account does not exist in its namespace)`,
    when: (v) => v !== 'default',
  },
  'PodSpec.serviceAccount': {
    family: 'pod',
    detail: `Pod Lab does not look up ServiceAccounts or mount their tokens: the pod runs as if the account existed, without ${SA_MOUNT} (a cluster refuses the pod when the account does not exist in its namespace)`,
    // the deprecated alias: warned only where serviceAccountName does not say the same
    when: (v, _p, spec) => v !== 'default' && !spec.serviceAccountName,
  },
  'PodSpec.automountServiceAccountToken': {
    family: 'pod',
    detail: `Pod Lab does not mount service account tokens: no kube-api-access volume is added, so the containers have no ${SA_MOUNT}`,
    when: (v) => v === true,
  },

  'Secret.type': {
    family: 'secret',
    note: 'Opaque by default. The built-in types require keys: kubernetes.io/tls tls.crt and tls.key, kubernetes.io/basic-auth username or password, kubernetes.io/dockerconfigjson a .dockerconfigjson holding JSON.',
    detail: 'Pod Lab does not fill service-account-token Secrets: the lab has no token controller to add a token',
    when: (v) => v === SECRET_TYPE.serviceAccountToken,
  },
};

/** What the hover says about an unsupported field (its warning, and that Pod Lab warns). */
export function unsupportedNote(key: string): string | undefined {
  const u = UNSUPPORTED[key];
  if (!u) return undefined;
  return `${u.note ? `${u.note} ` : ''}${u.detail}. Pod Lab shows this as a warning where the manifest sets it.`;
}

/** The warning for a `spec.nodeName` that names no lab node (the lab's kubelet runs every bound pod). */
export function unknownNodeDetail(name: string, nodeNames: readonly string[]): string {
  return `Pod Lab has no node ${goQuote(name)} (its nodes: ${nodeNames.map(goQuote).join(', ') || 'none'}): no kubelet will run this pod, so it stays Pending, as on a cluster`;
}

export interface LabOptions {
  /** The lab's node names; when given, a spec.nodeName naming none of them is warned about. */
  nodeNames?: readonly string[];
  /** The body of an update (PUT or PATCH), not a create: ValidatePodCreate's own checks do not apply. */
  update?: boolean;
}

const isSet = (v: unknown) => v !== undefined && v !== null && notEmpty(v);

function walk(value: unknown, ref: string, path: string, out: FieldErr[], depth: number): void {
  if (depth > 60 || value === null || value === undefined || typeof value !== 'object') return;
  if (ref.startsWith('[]')) {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, ref.slice(2), `${path}[${i}]`, out, depth + 1));
    return;
  }
  if (ref.startsWith('{}')) {
    for (const [k, v] of Object.entries(value)) walk(v, ref.slice(2), `${path}[${k}]`, out, depth + 1);
    return;
  }
  const t = typeSpec(ref);
  if (!t || Array.isArray(value)) return;
  for (const [k, v] of Object.entries(value as Obj)) {
    const spec = t.fields.get(k);
    if (!spec || (t.name === 'Pod' && k === 'status')) continue;
    const p = path ? `${path}.${k}` : k;
    const u = UNSUPPORTED[`${t.name}.${k}`];
    if (u && isSet(v) && (!u.when || u.when(v, p, value as Obj))) {
      out.push(F.lab(p, u.detail, { at: 'key' }));
      continue;
    }
    walk(v, spec.type, p, out, depth + 1);
  }
}

/** The lab's warnings as findings (documents.ts places them); the object is a decoded, defaulted v1 object of kind `root` (default: its `kind`, else Pod). */
export function labFindings(obj: Pod | ConfigMap | Secret, opts: LabOptions = {}, root?: LabKind): FieldErr[] {
  const kind = (obj as { kind?: unknown })?.kind;
  const type: LabKind = root ?? (isLabKind(kind) ? kind : 'Pod');
  const out: FieldErr[] = [];
  walk(obj, type, '', out, 0);
  const nodeName = (obj as Pod).spec?.nodeName;
  if (opts.nodeNames && type === 'Pod' && nodeName && !opts.nodeNames.includes(nodeName)) {
    out.push(F.lab('spec.nodeName', unknownNodeDetail(nodeName, opts.nodeNames), { at: 'value' }));
  }
  return out;
}

export interface LabWarning {
  severity: 'warning';
  source: ProblemSource;
  type: 'Lab warning';
  field: string;
  detail: string;
  /** `<field>: <detail>`, as kubectl shows a warning after `Warning: ` */
  message: string;
}

/**
 * Pod Lab's warnings for an object (a Pod, ConfigMap or Secret as `ValidatedDocument.object` holds it),
 * without positions. With `nodeNames` (the lab's nodes, known to the CLI at run time), also the
 * warning for a `spec.nodeName` that names none of them.
 */
export function labWarnings(obj: Pod | ConfigMap | Secret, opts: LabOptions = {}): LabWarning[] {
  return labFindings(obj, opts).map((e) => ({ severity: 'warning', source: 'podlab', type: 'Lab warning', field: e.field, detail: e.detail, message: renderWarning(e.field, e.detail) }));
}
