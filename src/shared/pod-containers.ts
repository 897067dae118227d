// A pod's containers of every kind — init, regular and ephemeral — in that order, as the API
// server's validateContainer and the kubelet's lookups by name see them. Shared by the engine, the
// lab server and the extension (a leaf: types only).
import type { Container, EphemeralContainer, Pod } from 'kubernetes-types/core/v1';

export function allContainers(pod: Pod): (Container | EphemeralContainer)[] {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? []), ...(pod.spec?.ephemeralContainers ?? [])];
}

export function podContainerNames(pod: Pod): string[] {
  return allContainers(pod).map((c) => c.name);
}
