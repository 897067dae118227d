// Labels and annotations the kubelet puts on CRI objects (kuberuntime/labels.go). The runtime
// stores them; the Docker implementation turns annotations into `annotation.`-prefixed labels.

export const PodNameLabel = 'io.kubernetes.pod.name';
export const PodNamespaceLabel = 'io.kubernetes.pod.namespace';
export const PodUIDLabel = 'io.kubernetes.pod.uid';
export const ContainerNameLabel = 'io.kubernetes.container.name';

export const ContainerHashAnnotation = 'io.kubernetes.container.hash';
export const ContainerRestartCountAnnotation = 'io.kubernetes.container.restartCount';
export const ContainerTerminationMessagePathAnnotation = 'io.kubernetes.container.terminationMessagePath';
export const ContainerTerminationMessagePolicyAnnotation = 'io.kubernetes.container.terminationMessagePolicy';
export const PodTerminationGracePeriodAnnotation = 'io.kubernetes.pod.terminationGracePeriod';
export const PodDeletionGracePeriodAnnotation = 'io.kubernetes.pod.deletionGracePeriod';
export const ContainerPreStopHandlerAnnotation = 'io.kubernetes.container.preStopHandler';
export const ContainerPortsAnnotation = 'io.kubernetes.container.ports';

/** Every container Pod Lab creates carries this label, so the lab can find (and clean up) its own. */
export const ManagedLabel = 'io.podlab.managed';
/** Which kind of container this is in the pod spec: init, sidecar or app (lab label, for views). */
export const ContainerTypeLabel = 'io.podlab.container.type';
