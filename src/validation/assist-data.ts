// Data behind hover and completion: the values the validator accepts for enum-like fields, the API
// server's defaults, and short lab notes of our own (no Kubernetes documentation is copied here; the
// field descriptions come from kubernetes-types at build time, see scripts/gen-schema.ts). The notes
// of the fields Pod Lab cannot honour come from the lab-warning table (lab.ts), so the hover and the
// warning say the same thing.
import { ENV_FIELD_PATHS, RESOURCE_FIELD_PATHS, VOLUME_FIELD_PATHS } from './rules/env.js';
import { UNSUPPORTED, unsupportedNote } from './lab.js';
import { SECRET_TYPES } from './objects.js';

/** Accepted values by `Owner.field` (the schema's type name and the JSON field). */
export const ENUMS: Record<string, string[]> = {
  'PodSpec.restartPolicy': ['Always', 'OnFailure', 'Never'],
  'PodSpec.dnsPolicy': ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'],
  'PodSpec.preemptionPolicy': ['PreemptLowerPriority', 'Never'],
  'Container.imagePullPolicy': ['Always', 'IfNotPresent', 'Never'],
  'Container.terminationMessagePolicy': ['File', 'FallbackToLogsOnError'],
  'Container.restartPolicy': ['Always', 'Never', 'OnFailure'],
  'ContainerPort.protocol': ['TCP', 'UDP', 'SCTP'],
  'Toleration.operator': ['Exists', 'Equal'],
  'Toleration.effect': ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
  'NodeSelectorRequirement.operator': ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'],
  'LabelSelectorRequirement.operator': ['In', 'NotIn', 'Exists', 'DoesNotExist'],
  'HTTPGetAction.scheme': ['HTTP', 'HTTPS'],
  'HostPathVolumeSource.type': ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'],
  'VolumeMount.mountPropagation': ['None', 'HostToContainer', 'Bidirectional'],
  'VolumeMount.recursiveReadOnly': ['Disabled', 'IfPossible', 'Enabled'],
  'SeccompProfile.type': ['RuntimeDefault', 'Unconfined', 'Localhost'],
  'AppArmorProfile.type': ['RuntimeDefault', 'Unconfined', 'Localhost'],
  'SecurityContext.procMount': ['Default', 'Unmasked'],
  'PodSecurityContext.fsGroupChangePolicy': ['OnRootMismatch', 'Always'],
  'TopologySpreadConstraint.whenUnsatisfiable': ['DoNotSchedule', 'ScheduleAnyway'],
  'TopologySpreadConstraint.nodeAffinityPolicy': ['Honor', 'Ignore'],
  'TopologySpreadConstraint.nodeTaintsPolicy': ['Honor', 'Ignore'],
  'PodOS.name': ['linux', 'windows'],
  'ContainerResizePolicy.resourceName': ['cpu', 'memory'],
  'ContainerResizePolicy.restartPolicy': ['NotRequired', 'RestartContainer'],
  'ContainerRestartRule.action': ['Restart'],
  'ContainerRestartRuleOnExitCodes.operator': ['In', 'NotIn'],
  'ResourceFieldSelector.resource': RESOURCE_FIELD_PATHS,
  'ObjectFieldSelector.fieldPath': [...new Set([...ENV_FIELD_PATHS, ...VOLUME_FIELD_PATHS])].sort(),
};

/** Values offered for free-form fields (any string is accepted; these are the well-known ones). */
export const SUGGESTED: Record<string, string[]> = {
  'Secret.type': SECRET_TYPES,
};

/** What the API server fills in when the field is left out (pod-validation-rules.md §3). */
export const DEFAULTS: Record<string, string> = {
  'PodSpec.restartPolicy': '`Always`',
  'PodSpec.dnsPolicy': '`ClusterFirst`',
  'PodSpec.terminationGracePeriodSeconds': '`30`',
  'PodSpec.schedulerName': '`default-scheduler`',
  'PodSpec.enableServiceLinks': '`true`',
  'PodSpec.securityContext': '`{}`',
  'Container.imagePullPolicy': '`Always` when the image tag is `latest` or missing, `IfNotPresent` otherwise',
  'Container.terminationMessagePath': '`/dev/termination-log`',
  'Container.terminationMessagePolicy': '`File`',
  'ContainerPort.protocol': '`TCP`',
  'ContainerPort.hostPort': 'with `hostNetwork: true`, the containerPort',
  'Probe.timeoutSeconds': '`1`',
  'Probe.periodSeconds': '`10`',
  'Probe.successThreshold': '`1`',
  'Probe.failureThreshold': '`3`',
  'Probe.initialDelaySeconds': '`0`',
  'HTTPGetAction.path': '`/`',
  'HTTPGetAction.scheme': '`HTTP`',
  'GRPCAction.service': '`""`',
  'ObjectFieldSelector.apiVersion': '`v1`',
  'ResourceRequirements.requests': 'each limit without a request is copied into requests',
  'SecretVolumeSource.defaultMode': '`420` (0644)',
  'ConfigMapVolumeSource.defaultMode': '`420` (0644)',
  'DownwardAPIVolumeSource.defaultMode': '`420` (0644)',
  'ProjectedVolumeSource.defaultMode': '`420` (0644)',
  'ServiceAccountTokenProjection.expirationSeconds': '`3600`',
  'Toleration.operator': '`Equal`',
  'Volume.emptyDir': 'a volume with no source at all becomes `emptyDir: {}`',
  'Secret.type': '`Opaque`',
};

/**
 * Short lab notes of our own: what the kubelet (and so the lab's kubelet) does with the fields
 * learners meet first. Fields Pod Lab cannot honour are not here: their note is the lab-warning
 * table's (see LAB_NOTES below).
 */
export const HAND_NOTES: Record<string, string> = {
  'PodSpec.readinessGates':
    "The pod is Ready only when its containers are and every gate's condition (its conditionType) is True in the pod's status. The kubelet never sets these conditions: a controller does, or, where none runs (as in the lab), you do, through the status subresource: kubectl patch pod NAME --subresource=status -p '{\"status\":{\"conditions\":[{\"type\":\"example.com/ready\",\"status\":\"True\"}]}}' (a strategic merge: the condition of that type is added or replaced). The kubelet then updates Ready at once.",
  'PodSpec.initContainers': 'The kubelet runs init containers one at a time, in order; each must exit 0 before the next starts, and app containers start only after the last one. A failing one is restarted with back-off unless restartPolicy is Never (then the pod fails).',
  'PodSpec.containers': "App containers start in spec order once every init container has succeeded. They share the pod sandbox's network and IPC namespaces: they reach each other on localhost.",
  'PodSpec.restartPolicy': "Applies to every container of the pod except sidecars (init containers with restartPolicy Always), which always restart. Always (default): restart whatever exits (an init container only when it fails). OnFailure: restart on a non-zero exit. Never: the pod ends Succeeded or Failed. The first restart is immediate, the next ones wait 10s, 20s, 40s… up to 5m (CrashLoopBackOff; the lab's back-off settings change these times).",
  'PodSpec.activeDeadlineSeconds': 'Counted from the pod\'s start (image pulls and init containers included): past it the kubelet kills the containers and the pod ends Failed with reason DeadlineExceeded.',
  'PodSpec.nodeName': 'Binds the pod to that node directly: the scheduler skips it.',
  'PodSpec.hostAliases': 'The kubelet adds these lines to the /etc/hosts file it manages in every container.',
  'PodSpec.hostname': "The pod's hostname (default: the pod's name, cut to 63 characters).",
  'PodSpec.subdomain': 'With it, the hostname is also written as <hostname>.<subdomain>.<namespace>.svc.cluster.local in the managed /etc/hosts.',
  'PodSpec.terminationGracePeriodSeconds': "On deletion the kubelet runs each container's preStop hook, then sends the stop signal; the containers are killed when this many seconds have passed in all (the signal always gets at least 2 s).",
  'PodSpec.shareProcessNamespace': "With true, every container joins the sandbox's PID namespace: PID 1 is the pause process and containers see each other's processes.",
  'PodSpec.hostNetwork': "The pod uses the node's network namespace: its ports are the node's ports, so every hostPort must equal its containerPort.",
  'Container.image': 'Pulled according to imagePullPolicy: a missing image shows ErrImagePull, then ImagePullBackOff while the kubelet waits to retry.',
  'Container.imagePullPolicy': 'Never only uses an image already on the node (ErrImageNeverPull otherwise). Pod Lab works offline: prefer images built locally.',
  'Container.command': "Replaces the image's ENTRYPOINT; $(VAR) references to the container's env are expanded by the kubelet.",
  'Container.args': "Replaces the image's CMD; $(VAR) references are expanded.",
  'Container.env': "Later entries may use earlier ones with $(VAR). Values from a ConfigMap or Secret of the pod's namespace are read when the container is created: a missing object or key leaves it Waiting in CreateContainerConfigError (unless optional).",
  'Container.envFrom': "Every key of the ConfigMap or Secret becomes a variable (with the prefix); env entries override them. A missing object leaves the container in CreateContainerConfigError unless optional.",
  'Container.terminationMessagePath': "After the container exits, the kubelet reads the last 4096 bytes of this file into the terminated state's message.",
  'Container.ports': 'Informational, except hostPort: the kubelet publishes that port on the node (here: the Docker host).',
  'Container.resources': "limits.memory becomes the container's memory limit (exceeding it: OOMKilled); requests are what the scheduler counts against the node.",
  'Container.livenessProbe': 'When it fails failureThreshold times in a row, the kubelet kills the container and restarts it according to restartPolicy.',
  'Container.readinessProbe': 'Decides the Ready condition only; a failing readiness probe never restarts the container.',
  'Container.startupProbe': 'Liveness and readiness probes wait until it has succeeded once; it gives slow starters failureThreshold × periodSeconds.',
  'Container.lifecycle': 'postStart runs right after the container starts (it is not Running until it returns); preStop runs before the stop signal on deletion.',
  'Probe.successThreshold': 'Must be 1 for liveness and startup probes.',
  'Volume.configMap': "The kubelet writes each key of the ConfigMap (or the listed items) as a file; the volume is read-only. A missing ConfigMap keeps the pod from starting (FailedMount) unless optional.",
  'Volume.secret': 'The kubelet writes each key of the Secret (or the listed items) as a file, decoded from base64; the volume is read-only. A missing Secret keeps the pod from starting (FailedMount) unless optional.',
  'ConfigMap.data': "Keys: letters, digits, '-', '_' and '.'. data and binaryData together hold at most 1 MiB.",
  'ConfigMap.binaryData': 'Values are base64 text, stored as bytes; a key may not also be in data.',
  'Secret.data': 'Values are base64 text: one that is not valid base64 is refused when the Secret is decoded (illegal base64 data at input byte N). Write plain text in stringData instead.',
  'Secret.stringData': 'Write-only plain text: the API server merges it into data as base64 (a key in both takes the stringData value) and drops it; Pod Lab creates the Secret the same way.',
};

/** Every lab note: the hand-written ones and, for the fields Pod Lab cannot honour, the lab-warning table's. */
export const LAB_NOTES: Record<string, string> = {
  ...HAND_NOTES,
  ...Object.fromEntries(Object.keys(UNSUPPORTED).map((k) => [k, unsupportedNote(k)!])),
};
