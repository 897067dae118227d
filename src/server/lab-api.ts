// Pod Lab's own API on the lab server, beside the Kubernetes API (no upstream counterpart): the
// lab's tools that a cluster does not have, reachable from any shell through the same
// credentials. Group `lab.podlab.dev`, version `v1alpha1`:
//
//   GET  /apis/lab.podlab.dev/v1alpha1/namespaces/{ns}/poddebugs/{pod}        the PodDebug of a pod:
//        every attempt of every container (with the archive of removed ones), the sandboxes, the
//        kubelet's back-off timers, step mode's waiting init container, probe runs, hook runs
//   GET  /apis/lab.podlab.dev/v1alpha1/namespaces/{ns}/poddebugs?watch=true&fieldSelector=metadata.name={pod}
//        a watch of it (JSON lines as any watch): ADDED, MODIFIED on each change, DELETED when the
//        pod goes; not resumable (no history: a reconnecting client gets the current state first)
//   POST /apis/lab.podlab.dev/v1alpha1/namespaces/{ns}/poddebugs/{pod}/continue   step mode: start
//        the init container the kubelet holds
//   POST /apis/lab.podlab.dev/v1alpha1/namespaces/{ns}/poddebugs/{pod}/restart?container=C
//        skip the crash-loop back-off of container C once ("Restart now")
//   GET  /apis/lab.podlab.dev/v1alpha1/attemptlogs/{containerId}?tailLines=N   the log of one
//        attempt, also after the runtime removed its container (the attempt archive)
//   GET  /apis/lab.podlab.dev/v1alpha1/pullprogress                       image pull progress as
//        a stream of JSON lines
//
// From kubectl: `kubectl get --raw /apis/lab.podlab.dev/v1alpha1/namespaces/default/poddebugs/x`,
// `kubectl create --raw /apis/lab.podlab.dev/v1alpha1/namespaces/default/poddebugs/x/continue -f /dev/null`.
//
// The annotation `lab.podlab.dev/step-mode: "true"` on a pod at creation turns step mode on for it.

export const LAB_GROUP = 'lab.podlab.dev';
export const LAB_VERSION = 'v1alpha1';
export const LAB_GROUP_VERSION = `${LAB_GROUP}/${LAB_VERSION}`;

export const LAB_ANNOTATIONS = {
  /** "true": the kubelet holds each init container of this pod until `continue`. */
  stepMode: 'lab.podlab.dev/step-mode',
} as const;

/** The lab group's resources, as discovery lists them. */
export function labResources(): object {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: LAB_GROUP_VERSION,
    resources: [
      { name: 'poddebugs', singularName: 'poddebug', namespaced: true, kind: 'PodDebug', verbs: ['get', 'watch'] },
      { name: 'poddebugs/continue', singularName: '', namespaced: true, kind: 'PodDebug', verbs: ['create'] },
      { name: 'poddebugs/restart', singularName: '', namespaced: true, kind: 'PodDebug', verbs: ['create'] },
    ],
  };
}
