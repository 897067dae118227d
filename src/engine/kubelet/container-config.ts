// generateContainerConfig (upstream kuberuntime_container.go generateContainerConfig): from a
// pod's container spec to the CRI ContainerConfig — the environment and mounts from env.ts and
// the volume manager, command/args expansion, resources, the termination-message file, and the
// kubelet's labels and annotations. Pure; the caller provides host paths and the object lookup.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { expandCommand, makeEnvironmentVariables, makeMounts, type ObjectLookup, type PodRuntimeFacts } from './env.js';
import type { MountedVolume } from './volumes/index.js';
import type { ContainerConfig, KeyValue, Mount } from '../../runtime/cri.js';
import { parseQuantity } from '../../validation/quantity.js';
import * as L from '../../shared/labels.js';
import { hashContainer } from './hash.js';
import { isRestartableInit } from './actions.js';

/** A start failure before the container exists (the kubelet's CreateContainerConfigError). */
export class ContainerConfigError extends Error {}

export { expand, expandCommandOnlyStatic } from './env.js';
export type { PodRuntimeFacts } from './env.js';

/** The container's environment as CRI key/values, or a ContainerConfigError with the kubelet's message. */
export function resolveEnv(pod: Pod, c: Container, facts: PodRuntimeFacts, lookup: ObjectLookup): KeyValue[] {
  const r = makeEnvironmentVariables(pod, c, facts, lookup);
  if ('error' in r) throw new ContainerConfigError(r.error);
  return r.env.map((v) => ({ key: v.name, value: v.value }));
}

function milli(v: string | number | undefined): number {
  if (v === undefined) return 0;
  const q = parseQuantity(String(v));
  return typeof q === 'string' ? 0 : Number(q.nano / 1_000_000n);
}
function bytes(v: string | number | undefined): number {
  if (v === undefined) return 0;
  const q = parseQuantity(String(v));
  return typeof q === 'string' ? 0 : Number(q.nano / 1_000_000_000n);
}

/** dockershim's resource mapping: shares from requests (min 2), CFS quota from the CPU limit. */
export function containerResources(c: Container): ContainerConfig['resources'] {
  const req = c.resources?.requests ?? {};
  const lim = c.resources?.limits ?? {};
  const cpuReq = milli(req.cpu ?? lim.cpu);
  const cpuLim = milli(lim.cpu);
  const r: NonNullable<ContainerConfig['resources']> = {
    cpuShares: Math.max(2, Math.floor((cpuReq * 1024) / 1000)),
  };
  const mem = bytes(lim.memory);
  if (mem > 0) r.memoryLimitInBytes = mem;
  if (cpuLim > 0) {
    r.cpuPeriod = 100_000;
    r.cpuQuota = Math.max(1000, Math.floor((cpuLim * 100_000) / 1000));
  }
  return r;
}

export interface HostPaths {
  /** The pod's volumes as the volume manager set them up, by name. */
  volumes: ReadonlyMap<string, MountedVolume>;
  /** Fresh host file for the container's termination message. */
  terminationMessageFile: string;
  /** The kubelet-managed hosts file, once the pod has an IP. */
  etcHostsFile?: string;
  /** ConfigMaps and Secrets for env references. */
  lookup: ObjectLookup;
}

/**
 * makeMounts (env.ts) as CRI mounts: each volumeMount onto its volume's host path, the managed
 * /etc/hosts; a tmpfs-backed volume mounted whole is the runtime's tmpfs volume. Throws a
 * ContainerConfigError with the kubelet's message (missing volume, subPathExpr without a value).
 */
export function containerMounts(pod: Pod, c: Container, paths: Pick<HostPaths, 'volumes' | 'etcHostsFile'>, env: readonly KeyValue[] = []): Mount[] {
  const r = makeMounts(pod, c, (n) => paths.volumes.get(n), {
    etcHostsPath: paths.etcHostsFile,
    env: env.map((kv) => ({ name: kv.key, value: kv.value })),
  });
  if ('error' in r) throw new ContainerConfigError(r.error);
  return r.mounts.map((m) =>
    m.tmpfsVolume && !m.subPath
      ? { hostPath: m.hostPath, tmpfsVolume: m.tmpfsVolume, containerPath: m.containerPath, readonly: m.readOnly }
      : { hostPath: m.hostPath, containerPath: m.containerPath, readonly: m.readOnly },
  );
}

export type ContainerKind = 'init' | 'sidecar' | 'app' | 'ephemeral';

export function containerKind(pod: Pod, name: string): ContainerKind {
  const init = (pod.spec?.initContainers ?? []).find((c) => c.name === name);
  if (!init) return (pod.spec?.ephemeralContainers ?? []).some((c) => c.name === name) ? 'ephemeral' : 'app';
  return isRestartableInit(init) ? 'sidecar' : 'init';
}

export function generateContainerConfig(
  pod: Pod,
  c: Container,
  restartCount: number,
  facts: PodRuntimeFacts,
  paths: HostPaths,
  /** An ephemeral container's target (the runtime ID of the targetContainerName's newest instance). */
  pidTargetId?: string,
): ContainerConfig {
  const env = resolveEnv(pod, c, facts, paths.lookup);
  const { command, args } = expandCommand(c, env.map((kv) => ({ name: kv.key, value: kv.value })));
  const md = pod.metadata ?? {};
  const annotations: Record<string, string> = {
    [L.ContainerHashAnnotation]: hashContainer(c),
    [L.ContainerRestartCountAnnotation]: String(restartCount),
    [L.ContainerTerminationMessagePathAnnotation]: c.terminationMessagePath ?? '/dev/termination-log',
    [L.ContainerTerminationMessagePolicyAnnotation]: c.terminationMessagePolicy ?? 'File',
    [L.PodTerminationGracePeriodAnnotation]: String(pod.spec?.terminationGracePeriodSeconds ?? 30),
    [L.TerminationMessageHostPathAnnotation]: paths.terminationMessageFile,
  };
  if (md.deletionGracePeriodSeconds !== undefined) annotations[L.PodDeletionGracePeriodAnnotation] = String(md.deletionGracePeriodSeconds);
  if (c.ports?.length) annotations[L.ContainerPortsAnnotation] = JSON.stringify(c.ports.map((p) => ({ ...p, protocol: p.protocol ?? 'TCP' })));
  if (c.lifecycle?.preStop) annotations[L.ContainerPreStopHandlerAnnotation] = JSON.stringify(c.lifecycle.preStop);
  const sc = c.securityContext ?? {};
  const psc = pod.spec?.securityContext ?? {};
  return {
    metadata: { name: c.name, attempt: restartCount },
    image: c.image ?? '',
    command,
    args,
    workingDir: c.workingDir,
    envs: env,
    // The termination-message file is not among these: the runtime bind-mounts
    // terminationMessageHostPath at the container's terminationMessagePath (kuberuntime's makeMounts).
    mounts: containerMounts(pod, c, paths, env),
    labels: {
      [L.PodNameLabel]: md.name ?? '',
      [L.PodNamespaceLabel]: md.namespace ?? 'default',
      [L.PodUIDLabel]: md.uid ?? '',
      [L.ContainerNameLabel]: c.name,
      [L.ManagedLabel]: 'true',
      [L.ContainerTypeLabel]: containerKind(pod, c.name),
    },
    annotations,
    resources: containerResources(c),
    tty: !!c.tty,
    stdin: !!c.stdin,
    stdinOnce: !!c.stdinOnce,
    sharePid: !!pod.spec?.shareProcessNamespace,
    // NamespaceMode TARGET replaces only the container's own PID namespace (not the pod's or the host's).
    ...(pidTargetId && !pod.spec?.shareProcessNamespace && !pod.spec?.hostPID ? { pidTargetId } : {}),
    privileged: !!sc.privileged,
    runAsUser: sc.runAsUser ?? psc.runAsUser,
    runAsGroup: sc.runAsGroup ?? psc.runAsGroup,
    terminationMessageHostPath: paths.terminationMessageFile,
  };
}
