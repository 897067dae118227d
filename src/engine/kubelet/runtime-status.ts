// The kubelet's read of one pod from the runtime (upstream kuberuntime_manager.go GetPodStatus):
// every sandbox and container instance, newest first; and the final removal of a deleted pod's
// runtime objects (the kubelet's pod clean-up after termination).
import type { Pod } from 'kubernetes-types/core/v1';
import type { ContainerStatus as CriContainerStatus, RuntimeService } from '../../runtime/cri.js';
import * as L from '../../shared/labels.js';
import { toKContainerStatus, type KContainerStatus, type RuntimePodStatus } from './types.js';

/** Reads the runtime's view of one pod; `message` gives an exited instance's full termination message. */
export async function readRuntimePod(rt: RuntimeService, pod: Pod, message: (c: CriContainerStatus) => Promise<string>): Promise<RuntimePodStatus> {
  const uid = pod.metadata?.uid ?? '';
  const [sandboxes, containers] = await Promise.all([
    rt.listPodSandbox({ labelSelector: { [L.PodUIDLabel]: uid } }),
    rt.listContainers({ labelSelector: { [L.PodUIDLabel]: uid } }),
  ]);
  sandboxes.sort((a, b) => b.metadata.attempt - a.metadata.attempt || b.createdAt - a.createdAt);
  const ks: KContainerStatus[] = [];
  for (const c of containers) {
    const k = toKContainerStatus(c);
    if (k.state === 'exited') k.message = await message(c);
    ks.push(k);
  }
  ks.sort((a, b) => b.createdAt - a.createdAt || b.restartCount - a.restartCount);
  return { uid, name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? 'default', sandboxes, containers: ks };
}

export async function removePodFromRuntime(rt: RuntimeService, rs: RuntimePodStatus): Promise<void> {
  for (const c of rs.containers) await rt.removeContainer(c.id).catch(() => undefined);
  for (const sb of rs.sandboxes) await rt.removePodSandbox(sb.id).catch(() => undefined);
}
