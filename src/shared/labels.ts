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

// ---- simulated nodes (the lab API's annotations; read by the engine, the CLI and the extension) ----

/** On a v1 Node: "true" makes it a simulated node — pods bound there get statuses, never containers. */
export const SimulatedNodeAnnotation = 'lab.podlab.dev/simulated';
/** On a simulated Node: how long its pods stay ContainerCreating (a Go duration, default 1s). */
export const SimulatedStartDelayAnnotation = 'lab.podlab.dev/simulated-start-delay';
/** On a Pod bound to a simulated node: its containers exit with this code (default: they run on). */
export const SimulatedExitCodeAnnotation = 'lab.podlab.dev/simulated-exit-code';
/** On a Pod bound to a simulated node: how long each container instance runs before that exit (default 10s). */
export const SimulatedExitAfterAnnotation = 'lab.podlab.dev/simulated-exit-after';

/** The names of the simulated nodes among `nodes`. */
export function simulatedNodeNames(nodes: readonly { metadata?: { name?: string; annotations?: Record<string, string> } }[]): Set<string> {
  return new Set(nodes.filter(isSimulatedNode).map((n) => n.metadata?.name ?? ''));
}

/** Whether a Node is a simulated node of the lab. */
export function isSimulatedNode(node: { metadata?: { annotations?: Record<string, string> } } | undefined): boolean {
  return node?.metadata?.annotations?.[SimulatedNodeAnnotation] === 'true';
}

/** What the lab answers for a pod on a simulated node when asked for what only containers have (logs, exec, attach, port-forward). */
export function simulatedPodRefusal(pod: string, node: string, what: 'have no logs' | 'cannot run commands' | 'cannot be attached to' | 'listen on no port'): string {
  return `pod "${pod}" runs on the simulated node "${node}": its containers are simulated and ${what}`;
}

/** The container id behind a `docker://<id>` (or any `<runtime>://<id>`) status field. */
export function runtimeId(containerID: string | undefined): string | undefined {
  if (!containerID) return undefined;
  const i = containerID.indexOf('://');
  const id = i >= 0 ? containerID.slice(i + 3) : containerID;
  return id === '' ? undefined : id;
}
