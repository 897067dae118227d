// dockershim's naming and labelling of Docker containers (pkg/kubelet/dockershim/naming.go,
// helpers.go): pure functions, no Docker access.
import type { ContainerMetadata, PodSandboxMetadata } from '../cri.js';
import { ContainerNameLabel, ManagedLabel, PodNameLabel, PodNamespaceLabel, PodUIDLabel } from '../../shared/labels.js';

export const kubePrefix = 'k8s';
/** The container name dockershim gives the sandbox ("infra") container. */
export const PodInfraContainerName = 'POD';
const nameDelimiter = '_';

export const ContainerTypeLabelKey = 'io.kubernetes.docker.type';
export const ContainerTypeLabelSandbox = 'podsandbox';
export const ContainerTypeLabelContainer = 'container';
export const SandboxIDLabelKey = 'io.kubernetes.sandbox.id';
export const ContainerLogPathLabelKey = 'io.kubernetes.container.logpath';
export const AnnotationPrefix = 'annotation.';
/** Lab label on the sandbox: the pod manifest (JSON), the lab's equivalent of dockershim's checkpoint. */
export const PodManifestLabel = 'io.podlab.pod-manifest';

/** Labels the shim adds for itself and never hands back as CRI labels (dockershim internalLabelKeys). */
const internalLabelKeys = new Set([ContainerTypeLabelKey, ContainerLogPathLabelKey, SandboxIDLabelKey, PodManifestLabel]);

/** `k8s_POD_<pod>_<ns>_<uid>_<attempt>` */
export function makeSandboxName(m: PodSandboxMetadata): string {
  return [kubePrefix, PodInfraContainerName, m.name, m.namespace, m.uid, String(m.attempt)].join(nameDelimiter);
}

/** `k8s_<container>_<pod>_<ns>_<uid>_<attempt>` */
export function makeContainerName(s: PodSandboxMetadata, c: ContainerMetadata): string {
  return [kubePrefix, c.name, s.name, s.namespace, s.uid, String(c.attempt)].join(nameDelimiter);
}

export interface ParsedName {
  /** `POD` for a sandbox. */
  containerName: string;
  podName: string;
  podNamespace: string;
  podUid: string;
  attempt: number;
}

/**
 * Parses a dockershim name (with or without Docker's leading `/`). Like dockershim, the name must
 * have exactly 6 parts, start with `k8s` and end with a numeric attempt; otherwise null.
 */
export function parseName(name: string): ParsedName | null {
  const parts = name.replace(/^\//, '').split(nameDelimiter);
  if (parts.length !== 6 || parts[0] !== kubePrefix) return null;
  if (!/^\d+$/.test(parts[5])) return null;
  return {
    containerName: parts[1],
    podName: parts[2],
    podNamespace: parts[3],
    podUid: parts[4],
    attempt: Number.parseInt(parts[5], 10),
  };
}

/** CRI annotations become Docker labels with the `annotation.` prefix. */
export function annotationsToLabels(annotations: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(annotations)) out[AnnotationPrefix + k] = v;
  return out;
}

/**
 * Splits Docker labels back into CRI labels and annotations (dockershim extractLabels): internal
 * shim labels are dropped, `annotation.`-prefixed ones become annotations, the sandbox's
 * `io.kubernetes.container.name=POD` is hidden.
 */
export function extractLabels(input: Record<string, string> | null | undefined): {
  labels: Record<string, string>;
  annotations: Record<string, string>;
} {
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  const src = input ?? {};
  const isSandbox = src[ContainerTypeLabelKey] === ContainerTypeLabelSandbox;
  for (const [k, v] of Object.entries(src)) {
    if (internalLabelKeys.has(k)) continue;
    if (isSandbox && k === ContainerNameLabel) continue;
    if (k.startsWith(AnnotationPrefix)) {
      annotations[k.slice(AnnotationPrefix.length)] = v;
      continue;
    }
    labels[k] = v;
  }
  return { labels, annotations };
}

/** Docker labels of a sandbox container. */
export function sandboxLabels(
  m: PodSandboxMetadata,
  podLabels: Record<string, string>,
  podAnnotations: Record<string, string>,
  podManifest: string,
): Record<string, string> {
  return {
    ...podLabels,
    ...annotationsToLabels(podAnnotations),
    [PodNameLabel]: m.name,
    [PodNamespaceLabel]: m.namespace,
    [PodUIDLabel]: m.uid,
    [ContainerNameLabel]: PodInfraContainerName,
    [ContainerTypeLabelKey]: ContainerTypeLabelSandbox,
    [ManagedLabel]: 'true',
    ...(podManifest ? { [PodManifestLabel]: podManifest } : {}),
  };
}

/** Docker labels of an app/init container. */
export function containerLabels(
  sandboxId: string,
  s: PodSandboxMetadata,
  c: ContainerMetadata,
  criLabels: Record<string, string>,
  criAnnotations: Record<string, string>,
  logPath = '',
): Record<string, string> {
  return {
    ...criLabels,
    ...annotationsToLabels(criAnnotations),
    [PodNameLabel]: s.name,
    [PodNamespaceLabel]: s.namespace,
    [PodUIDLabel]: s.uid,
    [ContainerNameLabel]: c.name,
    [ContainerTypeLabelKey]: ContainerTypeLabelContainer,
    [SandboxIDLabelKey]: sandboxId,
    [ContainerLogPathLabelKey]: logPath,
    [ManagedLabel]: 'true',
  };
}
