// The kubelet's internal view of a pod in the runtime (kubecontainer.PodStatus), built from the
// CRI-shaped runtime seam. Pure decision functions (computePodActions, status generation) take
// these values; nothing here performs I/O.
import type { ContainerStatus as CriContainerStatus, PodSandboxStatus } from '../../runtime/cri.js';

export type { PodSandboxStatus };

/** One container instance as the kubelet sees it (kubecontainer.Status). */
export interface KContainerStatus {
  id: string;
  name: string;
  /** running, exited, created, unknown (kubecontainer.State). */
  state: 'created' | 'running' | 'exited' | 'unknown';
  /** epoch ms; 0 when unset */
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  image: string;
  imageRef: string;
  /** Completed, Error, OOMKilled, ContainerCannotRun (runtime's terminated reason). */
  reason: string;
  message: string;
  /** From the io.kubernetes.container.hash annotation. */
  hash: string;
  /** From the io.kubernetes.container.restartCount annotation. */
  restartCount: number;
  sandboxId: string;
}

/** kubecontainer.PodStatus: every sandbox and every container instance of one pod. */
export interface RuntimePodStatus {
  uid: string;
  name: string;
  namespace: string;
  /** Newest first. */
  sandboxes: PodSandboxStatus[];
  /** All instances, newest first (by createdAt). */
  containers: KContainerStatus[];
}

/** The reason cache: why the last attempt to start a container failed (kubelet reason_cache.go). */
export interface StartFailure {
  /** CrashLoopBackOff, ErrImagePull, ImagePullBackOff, ErrImageNeverPull, CreateContainerError, RunContainerError, … */
  reason: string;
  message: string;
  /** CrashLoopBackOff: the back-off's delay and when it ends (epoch ms), for the lab's debug view. */
  backoff?: { delayMs: number; until: number };
}
export type ReasonCache = ReadonlyMap<string, StartFailure>;

/** Probe-derived flags per container name (prober manager). Without probes: started = ready = running. */
export interface ProbeState {
  started?: boolean;
  ready?: boolean;
}

export function toKContainerStatus(c: CriContainerStatus): KContainerStatus {
  const state =
    c.state === 'CONTAINER_RUNNING'
      ? 'running'
      : c.state === 'CONTAINER_EXITED'
        ? 'exited'
        : c.state === 'CONTAINER_CREATED'
          ? 'created'
          : 'unknown';
  const rc = Number.parseInt(c.annotations['io.kubernetes.container.restartCount'] ?? '0', 10);
  return {
    id: c.id,
    name: c.metadata.name,
    state,
    createdAt: c.createdAt,
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    exitCode: c.exitCode,
    image: c.image,
    imageRef: c.imageRef,
    reason: c.reason,
    message: c.message,
    hash: c.annotations['io.kubernetes.container.hash'] ?? '',
    restartCount: Number.isFinite(rc) ? rc : 0,
    sandboxId: c.podSandboxId,
  };
}

/** Newest instance of a container name, or undefined. */
export function findContainerStatus(s: RuntimePodStatus, name: string): KContainerStatus | undefined {
  return s.containers.find((c) => c.name === name);
}
