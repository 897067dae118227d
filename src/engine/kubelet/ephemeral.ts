// The kubelet's view of ephemeral containers (`kubectl debug`): the container part of an
// EphemeralContainer, the object reference of its events, and the PID namespace it targets.
// Upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go (ephemeralContainerStartSpec,
// startSpec.getTargetID), pkg/kubelet/container/ref.go (GenerateContainerRef's field path).
import type { Container, EphemeralContainer, Pod } from 'kubernetes-types/core/v1';
import { containerFieldPath } from '../events.js';
import type { RuntimePodStatus } from './types.js';
import { findContainerStatus } from './types.js';

/** The v1.Container an ephemeral container is started as (EphemeralContainerCommon, without targetContainerName). */
export function ephemeralContainerSpec(ec: EphemeralContainer): Container {
  const { targetContainerName: _target, ...common } = ec;
  return common as Container;
}

export function isEphemeralContainer(pod: Pod, name: string): boolean {
  return (pod.spec?.ephemeralContainers ?? []).some((c) => c.name === name);
}

/** The fieldPath of a container's events: `spec.ephemeralContainers{dbg}` for an ephemeral one. */
export function kubeletFieldPath(pod: Pod, name: string): string {
  return isEphemeralContainer(pod, name) ? `spec.ephemeralContainers{${name}}` : containerFieldPath(pod, name);
}

/**
 * startSpec.getTargetID: the runtime ID of the newest instance of the target container, whose PID
 * namespace the ephemeral container joins; undefined without a target; an error (the start fails
 * with CreateContainerConfigError) when the target has no instance.
 */
export function targetContainerId(ec: Pick<EphemeralContainer, 'targetContainerName'> | undefined, rs: RuntimePodStatus): { id: string } | { error: string } | undefined {
  const target = ec?.targetContainerName;
  if (!target) return undefined;
  const s = findContainerStatus(rs, target);
  if (!s) return { error: `unable to find target container ${target}` };
  return { id: s.id };
}
