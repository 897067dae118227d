// generateContainerConfig: from a pod's container spec to the CRI ContainerConfig, as the kubelet
// builds it: resolved env (downward API fieldRefs, $(VAR) references), command/args expansion,
// resources, mounts for emptyDir/hostPath volumes and the termination-message file, and the
// kubelet's labels and annotations. Pure; the caller provides host paths.
import type { Container, EnvVar, Pod } from 'kubernetes-types/core/v1';
import type { ContainerConfig, KeyValue, Mount } from '../../runtime/cri.js';
import { parseQuantity } from '../../validation/quantity.js';
import * as L from '../../shared/labels.js';
import { hashContainer } from './hash.js';
import { isRestartableInit } from './actions.js';

/** A start failure before the container exists (the kubelet's CreateContainerConfigError). */
export class ContainerConfigError extends Error {}

/**
 * Kubernetes' $(VAR) expansion (third_party/forked/golang/expansion): `$(NAME)` becomes the
 * variable's value when it is defined and stays as written otherwise; `$$` escapes a `$`.
 */
export function expand(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (ch !== '$' || i + 1 >= input.length) {
      out += ch;
      continue;
    }
    const next = input[i + 1];
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '(') {
      const close = input.indexOf(')', i + 2);
      if (close < 0) {
        out += input.slice(i);
        break;
      }
      const name = input.slice(i + 2, close);
      const v = lookup(name);
      out += v ?? `$(${name})`;
      i = close;
    } else {
      out += ch;
    }
  }
  return out;
}

export interface PodRuntimeFacts {
  podIP: string;
  hostIP: string;
  nodeName: string;
}

function fieldRefValue(pod: Pod, path: string, facts: PodRuntimeFacts): string {
  const md = pod.metadata ?? {};
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? md.labels : md.annotations)?.[m[2]!] ?? '';
  switch (path) {
    case 'metadata.name':
      return md.name ?? '';
    case 'metadata.namespace':
      return md.namespace ?? 'default';
    case 'metadata.uid':
      return md.uid ?? '';
    case 'spec.nodeName':
      return facts.nodeName;
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? 'default';
    case 'status.hostIP':
    case 'status.hostIPs':
      return facts.hostIP;
    case 'status.podIP':
    case 'status.podIPs':
      return facts.podIP;
    default:
      throw new ContainerConfigError(`unsupported fieldPath: ${path}`);
  }
}

function resourceFieldValue(c: Container, resource: string, divisor?: string | number): string {
  const [kind, name] = resource.split('.') as ['limits' | 'requests', string];
  const raw = c.resources?.[kind]?.[name];
  const q = raw === undefined ? undefined : parseQuantity(String(raw));
  const div = parseQuantity(String(divisor ?? '1'));
  const nano = q === undefined || typeof q === 'string' ? 0n : q.nano;
  const d = typeof div === 'string' || div.nano === 0n ? 1_000_000_000n : div.nano;
  return String((nano + d - 1n) / d);
}

/** makeEnvironmentVariables: each value may refer to the ones before it with $(VAR). */
export function resolveEnv(pod: Pod, c: Container, facts: PodRuntimeFacts): KeyValue[] {
  const out: KeyValue[] = [];
  const seen = new Map<string, string>();
  if (c.envFrom?.length) {
    const ref = c.envFrom.find((e) => !(e.configMapRef?.optional || e.secretRef?.optional));
    if (ref) {
      const what = ref.configMapRef ? `configmap "${ref.configMapRef.name}"` : `secret "${ref.secretRef?.name}"`;
      throw new ContainerConfigError(`${what} not found`);
    }
  }
  for (const e of c.env ?? []) {
    const value = envValue(pod, c, e, facts, (n) => seen.get(n));
    if (value === undefined) continue;
    seen.set(e.name, value);
    const i = out.findIndex((kv) => kv.key === e.name);
    if (i >= 0) out.splice(i, 1);
    out.push({ key: e.name, value });
  }
  return out;
}

function envValue(pod: Pod, c: Container, e: EnvVar, facts: PodRuntimeFacts, lookup: (n: string) => string | undefined): string | undefined {
  if (!e.valueFrom) return expand(e.value ?? '', lookup);
  const f = e.valueFrom;
  if (f.fieldRef) return fieldRefValue(pod, f.fieldRef.fieldPath, facts);
  if (f.resourceFieldRef) {
    const target = f.resourceFieldRef.containerName
      ? [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((x) => x.name === f.resourceFieldRef!.containerName) ?? c
      : c;
    return resourceFieldValue(target, f.resourceFieldRef.resource, f.resourceFieldRef.divisor as string | undefined);
  }
  const ref = f.configMapKeyRef ?? f.secretKeyRef;
  if (ref) {
    if (ref.optional) return undefined;
    throw new ContainerConfigError(`${f.configMapKeyRef ? 'configmap' : 'secret'} "${ref.name}" not found`);
  }
  return '';
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
  /** Host directory of an emptyDir volume. */
  emptyDir(volumeName: string): string;
  /** Fresh host file for the container's termination message. */
  terminationMessageFile: string;
}

export function containerMounts(pod: Pod, c: Container, paths: HostPaths): Mount[] {
  const vols = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  const mounts: Mount[] = [];
  for (const m of c.volumeMounts ?? []) {
    const v = vols.get(m.name);
    if (!v) throw new ContainerConfigError(`cannot find volume "${m.name}" to mount into container "${c.name}"`);
    let host: string;
    if (v.hostPath) host = v.hostPath.path;
    else if (v.emptyDir || (!v.configMap && !v.secret && !v.projected && !v.downwardAPI && !v.persistentVolumeClaim)) host = paths.emptyDir(v.name);
    else throw new ContainerConfigError(`volume "${v.name}": only emptyDir and hostPath volumes are supported by Pod Lab so far`);
    if (m.subPath) host = `${host}/${m.subPath}`;
    mounts.push({ hostPath: host, containerPath: m.mountPath, readonly: !!m.readOnly });
  }
  return mounts;
}

export type ContainerKind = 'init' | 'sidecar' | 'app';

export function containerKind(pod: Pod, name: string): ContainerKind {
  const init = (pod.spec?.initContainers ?? []).find((c) => c.name === name);
  if (!init) return 'app';
  return isRestartableInit(init) ? 'sidecar' : 'init';
}

export function generateContainerConfig(
  pod: Pod,
  c: Container,
  restartCount: number,
  facts: PodRuntimeFacts,
  paths: HostPaths,
): ContainerConfig {
  const env = resolveEnv(pod, c, facts);
  const lookup = (n: string) => env.find((kv) => kv.key === n)?.value;
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
    command: (c.command ?? []).map((s) => expand(s, lookup)),
    args: (c.args ?? []).map((s) => expand(s, lookup)),
    workingDir: c.workingDir,
    envs: env,
    // The runtime bind-mounts terminationMessageHostPath at the termination-message path.
    mounts: containerMounts(pod, c, paths),
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
    privileged: !!sc.privileged,
    runAsUser: sc.runAsUser ?? psc.runAsUser,
    runAsGroup: sc.runAsGroup ?? psc.runAsGroup,
    terminationMessageHostPath: paths.terminationMessageFile,
  };
}
