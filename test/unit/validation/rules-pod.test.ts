import { describe } from 'node:test';
import { DNS_LABEL, DNS_SUBDOMAIN, LABEL_VALUE, QUALIFIED_NAME, runCases, type Obj } from './helpers.js';

const spec = (fields: Obj) => (p: Obj) => Object.assign(p.spec, fields);
const IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

describe('metadata', () => {
  runCases([
    { name: 'a pod without a name needs a name or generateName', mutate: (p) => delete p.metadata.name, errors: [['metadata.name', 'Required value', 'name or generateName is required']] },
    { name: 'an uppercase pod name is not a DNS subdomain', mutate: (p) => (p.metadata.name = 'MyPod'), errors: [['metadata.name', 'Invalid value', `"MyPod": ${DNS_SUBDOMAIN}`]] },
    {
      name: 'a dotted pod name is valid but warned about',
      mutate: (p) => (p.metadata.name = 'my.pod'),
      errors: [],
      warnings: [['metadata.name', 'Invalid value', "this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"]],
    },
    { name: 'a namespace with dots is not a DNS label', mutate: (p) => (p.metadata.namespace = 'a.b'), errors: [['metadata.namespace', 'Invalid value', '"a.b": must not contain dots']] },
    { name: 'a label value with a space is reported on the unkeyed labels path', mutate: (p) => (p.metadata.labels = { app: 'my app' }), errors: [['metadata.labels', 'Invalid value', `"my app": ${LABEL_VALUE}`]] },
    { name: 'a label key starting with a dash is not a qualified name', mutate: (p) => (p.metadata.labels = { '-app': 'x' }), errors: [['metadata.labels', 'Invalid value', `"-app": ${QUALIFIED_NAME}`]] },
    {
      name: 'a pod-deletion-cost that is not a 32-bit integer is invalid',
      mutate: (p) => (p.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '+10' }),
      errors: [['metadata.annotations[controller.kubernetes.io/pod-deletion-cost]', 'Invalid value', '"+10": must be a 32bit integer']],
    },
    {
      name: 'a plain finalizer name that is not standard is rejected',
      mutate: (p) => (p.metadata.finalizers = ['cleanup']),
      errors: [['metadata.finalizers[0]', 'Invalid value', '"cleanup": name is neither a standard finalizer name nor is it fully qualified']],
    },
  ]);
});

describe('pod-level spec fields', () => {
  runCases([
    {
      name: 'an unknown restartPolicy lists the supported values in the upstream order',
      mutate: spec({ restartPolicy: 'Sometimes' }),
      errors: [['spec.restartPolicy', 'Unsupported value', '"Sometimes": supported values: "Always", "OnFailure", "Never"']],
    },
    {
      name: 'an unknown dnsPolicy lists the supported values in the upstream order',
      mutate: spec({ dnsPolicy: 'Cluster' }),
      errors: [['spec.dnsPolicy', 'Unsupported value', '"Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"']],
    },
    { name: 'dnsPolicy None without dnsConfig needs one', mutate: spec({ dnsPolicy: 'None' }), errors: [['spec.dnsConfig', 'Required value', 'must provide `dnsConfig` when `dnsPolicy` is None']] },
    {
      name: 'dnsPolicy None without nameservers needs one',
      mutate: spec({ dnsPolicy: 'None', dnsConfig: { searches: ['a.b'] } }),
      errors: [['spec.dnsConfig.nameservers', 'Required value', 'must provide at least one DNS nameserver when `dnsPolicy` is None']],
    },
    {
      name: 'a nameserver that is not an IP is invalid, and more than three are too many',
      mutate: spec({ dnsConfig: { nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9', 'dns.local'] } }),
      errors: [
        ['spec.dnsConfig.nameservers', 'Invalid value', '["1.1.1.1","8.8.8.8","9.9.9.9","dns.local"]: must not have more than 3 nameservers'],
        ['spec.dnsConfig.nameservers[3]', 'Invalid value', `"dns.local": ${IP}`],
      ],
    },
    { name: 'a dnsConfig option without a name must not be empty', mutate: spec({ dnsConfig: { options: [{ value: '1' }] } }), errors: [['spec.dnsConfig.options[0]', 'Required value', 'must not be empty']] },
    { name: 'a negative activeDeadlineSeconds is out of range', mutate: spec({ activeDeadlineSeconds: -5 }), errors: [['spec.activeDeadlineSeconds', 'Invalid value', '-5: must be between 1 and 2147483647, inclusive']] },
    {
      name: 'a negative terminationGracePeriodSeconds is accepted with a warning',
      mutate: spec({ terminationGracePeriodSeconds: -1 }),
      errors: [],
      warnings: [['spec.terminationGracePeriodSeconds', 'Invalid value', 'must be >= 0; negative values are invalid and will be treated as 1']],
    },
    { name: 'a hostname with an underscore is not a DNS label', mutate: spec({ hostname: 'my_host' }), errors: [['spec.hostname', 'Invalid value', `"my_host": ${DNS_LABEL}`]] },
    { name: 'a subdomain with dots is not a DNS label', mutate: spec({ subdomain: 'a.b' }), errors: [['spec.subdomain', 'Invalid value', '"a.b": must not contain dots']] },
    { name: 'an uppercase serviceAccountName is not a subdomain', mutate: spec({ serviceAccountName: 'Builder' }), errors: [['spec.serviceAccountName', 'Invalid value', `"Builder": ${DNS_SUBDOMAIN}`]] },
    { name: 'an uppercase priorityClassName is not a subdomain', mutate: spec({ priorityClassName: 'High' }), errors: [['spec.priorityClassName', 'Invalid value', `"High": ${DNS_SUBDOMAIN}`]] },
    { name: 'an empty runtimeClassName is not a subdomain', mutate: spec({ runtimeClassName: '' }), errors: [['spec.runtimeClassName', 'Invalid value', `"": ${DNS_SUBDOMAIN}`]] },
    { name: 'a hostAlias with a bad IP is invalid', mutate: spec({ hostAliases: [{ ip: '300.1.1.1', hostnames: ['db'] }] }), errors: [['spec.hostAliases[0].ip', 'Invalid value', `"300.1.1.1": ${IP}`]] },
    { name: 'ephemeral containers cannot be set on create', mutate: spec({ ephemeralContainers: [{ name: 'dbg', image: 'busybox:1.35' }] }), errors: [['spec.ephemeralContainers', 'Forbidden', 'cannot be set on create']] },
    { name: 'an unsupported os name is reported on spec.os', mutate: spec({ os: { name: 'darwin' } }), errors: [['spec.os', 'Unsupported value', '"darwin": supported values: "linux", "windows"']] },
  ]);
});

describe('security context and host namespaces', () => {
  runCases([
    { name: 'a negative pod runAsUser is out of range', mutate: spec({ securityContext: { runAsUser: -1 } }), errors: [['spec.securityContext.runAsUser', 'Invalid value', '-1: must be between 0 and 2147483647, inclusive']] },
    {
      name: 'a container runAsGroup above 2^31-1 is out of range',
      mutate: (p) => (p.spec.containers[0].securityContext = { runAsGroup: 2147483648 }),
      errors: [['spec.containers[0].securityContext.runAsGroup', 'Invalid value', '2147483648: must be between 0 and 2147483647, inclusive']],
    },
    {
      name: 'shareProcessNamespace with hostPID is reported on the internal securityContext path',
      mutate: spec({ shareProcessNamespace: true, hostPID: true }),
      errors: [['spec.securityContext.shareProcessNamespace', 'Invalid value', 'true: ShareProcessNamespace and HostPID cannot both be enabled']],
    },
    {
      name: 'allowPrivilegeEscalation false with privileged true is invalid',
      mutate: (p) => (p.spec.containers[0].securityContext = { privileged: true, allowPrivilegeEscalation: false }),
      errors: [['spec.containers[0].securityContext', 'Invalid value', '{"privileged":true,"allowPrivilegeEscalation":false}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true']],
    },
    { name: 'privileged true alone is accepted (clusters run with --allow-privileged)', mutate: (p) => (p.spec.containers[0].securityContext = { privileged: true }), errors: [] },
    {
      name: 'a net sysctl with hostNetwork is invalid',
      mutate: spec({ hostNetwork: true, securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] } }),
      errors: [['spec.securityContext.sysctls[0].name', 'Invalid value', `"net.core.somaxconn": may not be specified when 'hostNetwork' is true`]],
    },
    {
      name: 'a seccompProfile without type is required to have one',
      mutate: spec({ securityContext: { seccompProfile: {} } }),
      errors: [['spec.securityContext.seccompProfile.type', 'Required value', 'type is required when seccompProfile is set']],
    },
    {
      name: 'a Localhost seccompProfile without a profile needs one',
      mutate: (p) => (p.spec.containers[0].securityContext = { seccompProfile: { type: 'Localhost' } }),
      errors: [['spec.containers[0].securityContext.seccompProfile.localhostProfile', 'Required value', 'must be set when seccomp type is Localhost']],
    },
    {
      name: 'hostUsers false with hostPID is forbidden on the capitalised path',
      mutate: spec({ hostUsers: false, hostPID: true }),
      errors: [['spec.HostPID', 'Forbidden', 'when `pod.Spec.HostUsers` is false']],
    },
    { name: 'an unknown procMount is not supported', mutate: (p) => (p.spec.containers[0].securityContext = { procMount: 'Masked' }), errors: [['spec.containers[0].securityContext.procMount', 'Unsupported value', '"Masked": supported values: "Default", "Unmasked"']] },
  ]);
});

describe('nodeSelector, affinity and tolerations', () => {
  runCases([
    { name: 'a nodeSelector value with a space is invalid on the unkeyed path', mutate: spec({ nodeSelector: { disk: 'fast ssd' } }), errors: [['spec.nodeSelector', 'Invalid value', `"fast ssd": ${LABEL_VALUE}`]] },
    {
      name: 'required node affinity without terms needs at least one',
      mutate: spec({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } } }),
      errors: [['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms', 'Required value', 'must have at least one node selector term']],
    },
    {
      name: 'an unknown node selector operator is not valid',
      mutate: spec({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Equals', values: ['a'] }] }] } } } }),
      errors: [['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator', 'Invalid value', '"Equals": not a valid selector operator']],
    },
    {
      name: 'In without values needs values',
      mutate: spec({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In' }] }] } } } }),
      errors: [['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values', 'Required value', "must be specified when `operator` is 'In' or 'NotIn'"]],
    },
    {
      name: 'a preferred term weight of 0 is out of range',
      mutate: spec({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }] } } }),
      errors: [['spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight', 'Invalid value', '0: must be in the range 1-100']],
    },
    {
      name: 'a pod affinity term without topologyKey cannot be empty and is no qualified name',
      mutate: spec({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } } }] } } }),
      errors: [
        ['spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey', 'Required value', 'can not be empty'],
        ['spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey', 'Invalid value', '"": name part must be non-empty'],
        ['spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey', 'Invalid value', `"": ${QUALIFIED_NAME}`],
      ],
    },
    {
      name: 'a toleration without key must use Exists',
      mutate: spec({ tolerations: [{ operator: 'Equal', value: 'x' }] }),
      errors: [['spec.tolerations[0].operator', 'Invalid value', '"Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"']],
    },
    {
      name: 'tolerationSeconds needs the NoExecute effect',
      mutate: spec({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30 }] }),
      errors: [['spec.tolerations[0].effect', 'Invalid value', "\"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"]],
    },
    {
      name: 'Exists with a value is invalid, reported on operator',
      mutate: spec({ tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] }),
      errors: [['spec.tolerations[0].operator', 'Invalid value', "\"v\": value must be empty when `operator` is 'Exists'"]],
    },
    {
      name: 'an unknown taint effect is not supported',
      mutate: spec({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoRun' }] }),
      errors: [['spec.tolerations[0].effect', 'Unsupported value', '"NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"']],
    },
    {
      name: 'a spread constraint with maxSkew 0 and no whenUnsatisfiable is reported twice',
      mutate: spec({ topologySpreadConstraints: [{ maxSkew: 0, topologyKey: 'zone' }] }),
      errors: [
        ['spec.topologySpreadConstraints[0].maxSkew', 'Invalid value', '0: must be greater than zero'],
        ['spec.topologySpreadConstraints[0].whenUnsatisfiable', 'Unsupported value', '"": supported values: "DoNotSchedule", "ScheduleAnyway"'],
      ],
    },
  ]);
});
