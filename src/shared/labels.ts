// Labels and annotations the kubelet puts on CRI objects (kuberuntime/labels.go). A leaf module:
// the engine writes them, the runtime stores them (the Docker implementation turns annotations
// into `annotation.`-prefixed labels) and the lab's tools read them. It imports nothing.

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

/** Which lab (state directory) a sandbox belongs to: engines adopt only their own lab's pods. */
export const LabLabel = 'io.podlab.lab';
/** Host path of the termination-message file of a container instance (lab annotation). */
export const TerminationMessageHostPathAnnotation = 'io.podlab.terminationMessageHostPath';
