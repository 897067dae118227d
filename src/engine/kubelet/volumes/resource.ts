// Container resource values for downwardAPI volume items (upstream pkg/api/v1/resource/helpers.go:
// ExtractResourceValueByContainerNameAndNodeAllocatable, MergeContainerResourceLimits,
// ExtractContainerResourceValue, convertQuantityToString) and the memory-backed emptyDir size
// (pkg/volume/emptydir/empty_dir.go calculateEmptyDirMemorySize, with cm.ResourceConfigForPod's
// pod memory limit from component-helpers resource.PodLimits). Pure.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { parseQuantity } from '../../../validation/quantity.js';

/** A v1.ResourceList: resource name → quantity. */
export type ResourceList = Record<string, string>;

const NANO = 1_000_000_000n;
const MAX_INT64 = (1n << 63n) - 1n;

/** A quantity in nano-units; 0 when absent or unparsable. */
export function nanoOf(v: string | number | undefined): bigint {
  if (v === undefined || v === null) return 0n;
  const q = parseQuantity(String(v));
  return typeof q === 'string' ? 0n : q.nano;
}

/** convertQuantityToString: ceil(q / divisor) as an integer; 0 for a missing, zero or negative quantity or divisor; saturates at MaxInt64. */
export function convertQuantityToString(q: string | number | undefined, divisorNano: bigint): string {
  const n = nanoOf(q);
  if (n <= 0n || divisorNano <= 0n) return '0';
  const res = (n + divisorNano - 1n) / divisorNano;
  return String(res > MAX_INT64 ? MAX_INT64 : res);
}

/** findContainerInPod: regular containers first, then init containers. */
function findContainerInPod(pod: Pod, name: string): Container | undefined {
  return pod.spec?.containers?.find((c) => c.name === name) ?? pod.spec?.initContainers?.find((c) => c.name === name);
}

/** MergeContainerResourceLimits: a missing or zero cpu/memory/ephemeral-storage limit becomes the node's allocatable. */
export function mergeContainerResourceLimits(c: Container, allocatable: ResourceList): Container {
  const limits: ResourceList = { ...(c.resources?.limits ?? {}) };
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    if ((limits[r] === undefined || nanoOf(limits[r]) === 0n) && allocatable[r] !== undefined) limits[r] = allocatable[r]!;
  }
  return { ...c, resources: { ...(c.resources ?? {}), limits } };
}

/** ExtractContainerResourceValue with a ResourceFieldSelector's resource and divisor. */
export function extractContainerResourceValue(resource: string, divisor: string | number | undefined, c: Container): { value: string } | { error: string } {
  let d = nanoOf(divisor);
  if (d === 0n) d = NANO; // an unset or zero divisor is 1
  const dot = resource.indexOf('.');
  const kind = dot < 0 ? '' : resource.slice(0, dot);
  const name = resource.slice(dot + 1);
  const known = ['cpu', 'memory', 'ephemeral-storage'];
  if ((kind === 'limits' || kind === 'requests') && (known.includes(name) || name.startsWith('hugepages-'))) {
    const list = (kind === 'limits' ? c.resources?.limits : c.resources?.requests) ?? {};
    return { value: convertQuantityToString(list[name], d) };
  }
  return { error: `unsupported container resource : ${resource}` };
}

/** ExtractResourceValueByContainerNameAndNodeAllocatable. */
export function extractResourceValue(
  pod: Pod,
  ref: { containerName?: string; resource: string; divisor?: string | number },
  nodeAllocatable: ResourceList,
): { value: string } | { error: string } {
  const name = ref.containerName ?? '';
  const c = findContainerInPod(pod, name);
  if (!c) return { error: `container ${name} not found` };
  return extractContainerResourceValue(ref.resource, ref.divisor, mergeContainerResourceLimits(c, nodeAllocatable));
}

const isSidecar = (c: Container) => c.restartPolicy === 'Always';

/**
 * The pod's memory limit as the pod cgroup gets it (cm.ResourceConfigForPod): pod-level
 * `resources.limits.memory` when set; otherwise, only when every container declares a memory
 * limit, resource.PodLimits (regular containers and sidecars summed, or the largest init container
 * plus the sidecars before it) plus the pod overhead. Nano-units; undefined = unlimited.
 */
export function podMemoryLimitNano(pod: Pod): bigint | undefined {
  const spec = pod.spec;
  if (!spec) return undefined;
  const podLevel = nanoOf((spec as { resources?: { limits?: ResourceList } }).resources?.limits?.memory);
  if (podLevel > 0n) return podLevel;
  const all = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
  if (all.some((c) => nanoOf(c.resources?.limits?.memory) === 0n)) return undefined;
  const mem = (c: Container) => nanoOf(c.resources?.limits?.memory);
  let sum = (spec.containers ?? []).reduce((a, c) => a + mem(c), 0n);
  let sidecars = 0n;
  let initMax = 0n;
  for (const c of spec.initContainers ?? []) {
    let l: bigint;
    if (isSidecar(c)) {
      sum += mem(c);
      sidecars += mem(c);
      l = sidecars;
    } else l = mem(c) + sidecars;
    if (l > initMax) initMax = l;
  }
  let limit = sum > initMax ? sum : initMax;
  const overhead = nanoOf(spec.overhead?.memory);
  if (overhead > 0n && limit > 0n) limit += overhead;
  return limit;
}

/**
 * calculateEmptyDirMemorySize (SizeMemoryBackedVolumes, GA): the node's allocatable memory, lowered
 * to the pod's memory limit and then to the volume's sizeLimit when those are positive and not larger.
 * Bytes, rounded up; 0 = no size option (the kernel's default, half of RAM).
 */
export function emptyDirMemorySizeBytes(pod: Pod, sizeLimit: string | number | undefined, nodeAllocatableMemory: string | number | undefined): number {
  let size: bigint | undefined = nodeAllocatableMemory === undefined ? undefined : nanoOf(nodeAllocatableMemory);
  const podLimit = podMemoryLimitNano(pod);
  if (podLimit !== undefined && podLimit > 0n && (size === undefined || podLimit <= size)) size = podLimit;
  const vol = nanoOf(sizeLimit);
  if (vol > 0n && (size === undefined || vol <= size)) size = vol;
  if (size === undefined || size <= 0n) return 0;
  return Number((size + NANO - 1n) / NANO);
}
