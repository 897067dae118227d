// Docker inspect data -> CRI statuses, as dockershim mapped them (docker_container.go
// ContainerStatus, docker_sandbox.go PodSandboxStatus). Pure.
import type { ContainerState, ContainerStatus, PodSandboxMetadata, PodSandboxStatus, PullProgress, RuntimeEvent } from '../cri.js';
import { ContainerNameLabel, PodNameLabel, PodNamespaceLabel, PodUIDLabel } from '../../shared/labels.js';
import {
  ContainerTypeLabelKey,
  ContainerTypeLabelSandbox,
  PodManifestLabel,
  SandboxIDLabelKey,
  extractLabels,
  parseName,
} from './naming.js';

/** The part of `docker inspect` the mapping reads. */
export interface InspectLike {
  Id: string;
  Name?: string;
  Created?: string;
  Image?: string;
  State?: {
    Status?: string;
    Running?: boolean;
    OOMKilled?: boolean;
    ExitCode?: number;
    Error?: string;
    StartedAt?: string;
    FinishedAt?: string;
  };
  Config?: { Image?: string; Labels?: Record<string, string> | null };
  HostConfig?: { NetworkMode?: string };
  NetworkSettings?: {
    IPAddress?: string;
    Networks?: Record<string, { IPAddress?: string } | undefined> | null;
  };
}

/** Only the fields of an inspection the mapping reads (to keep one: the rest is large and unused). */
export function trimInspect(info: InspectLike): InspectLike {
  const st = info.State;
  const nets = info.NetworkSettings;
  return {
    Id: info.Id,
    Name: info.Name,
    Created: info.Created,
    Image: info.Image,
    State: st && { Status: st.Status, Running: st.Running, OOMKilled: st.OOMKilled, ExitCode: st.ExitCode, Error: st.Error, StartedAt: st.StartedAt, FinishedAt: st.FinishedAt },
    Config: info.Config && { Image: info.Config.Image, Labels: info.Config.Labels },
    HostConfig: info.HostConfig && { NetworkMode: info.HostConfig.NetworkMode },
    NetworkSettings: nets && {
      IPAddress: nets.IPAddress,
      Networks: nets.Networks && Object.fromEntries(Object.entries(nets.Networks).map(([k, v]) => [k, v && { IPAddress: v.IPAddress }])),
    },
  };
}

/** RFC 3339 (nanoseconds allowed) -> epoch ms; 0 for Docker's zero time `0001-01-01T00:00:00Z` or garbage. */
export function dockerTime(s: string | undefined | null): number {
  if (!s) return 0;
  const t = Date.parse(s);
  return Number.isFinite(t) && t > 0 ? t : 0;
}

export interface ContainerStateMapping {
  state: ContainerState;
  reason: string;
  message: string;
  startedAt: number;
  finishedAt: number;
}

/** dockershim ContainerStatus: running / exited (OOMKilled, Completed, Error) / cannot run / created. */
export function mapContainerState(info: InspectLike): ContainerStateMapping {
  const st = info.State ?? {};
  const createdAt = dockerTime(info.Created);
  let startedAt = dockerTime(st.StartedAt);
  let finishedAt = dockerTime(st.FinishedAt);
  if (st.Running) return { state: 'CONTAINER_RUNNING', reason: '', message: '', startedAt, finishedAt };
  const exitCode = st.ExitCode ?? 0;
  const message = st.Error ?? '';
  if (finishedAt !== 0) {
    const reason = st.OOMKilled ? 'OOMKilled' : exitCode === 0 ? 'Completed' : 'Error';
    return { state: 'CONTAINER_EXITED', reason, message, startedAt, finishedAt };
  }
  if (exitCode !== 0) {
    // Failed to start: dockershim moves both timestamps to the creation time to avoid confusion.
    startedAt = finishedAt = createdAt;
    return { state: 'CONTAINER_EXITED', reason: 'ContainerCannotRun', message, startedAt, finishedAt };
  }
  return { state: 'CONTAINER_CREATED', reason: '', message, startedAt, finishedAt };
}

function metadataFrom(info: InspectLike, labels: Record<string, string>): { containerName: string; pod: PodSandboxMetadata } {
  const parsed = info.Name ? parseName(info.Name) : null;
  if (parsed) {
    return {
      containerName: parsed.containerName,
      pod: { name: parsed.podName, namespace: parsed.podNamespace, uid: parsed.podUid, attempt: parsed.attempt },
    };
  }
  // Not a dockershim name: fall back on the labels (attempt unknown -> 0).
  return {
    containerName: labels[ContainerNameLabel] ?? '',
    pod: {
      name: labels[PodNameLabel] ?? '',
      namespace: labels[PodNamespaceLabel] ?? '',
      uid: labels[PodUIDLabel] ?? '',
      attempt: 0,
    },
  };
}

export function toContainerStatus(info: InspectLike): ContainerStatus {
  const raw = info.Config?.Labels ?? {};
  const { labels, annotations } = extractLabels(raw);
  const meta = metadataFrom(info, raw);
  const s = mapContainerState(info);
  return {
    id: info.Id,
    podSandboxId: raw[SandboxIDLabelKey] ?? '',
    metadata: { name: meta.containerName, attempt: meta.pod.attempt },
    state: s.state,
    createdAt: dockerTime(info.Created),
    startedAt: s.startedAt,
    finishedAt: s.finishedAt,
    exitCode: info.State?.Running ? 0 : (info.State?.ExitCode ?? 0),
    image: info.Config?.Image ?? '',
    imageRef: info.Image ? `docker://${info.Image}` : '',
    reason: s.reason,
    message: s.message,
    labels,
    annotations,
  };
}

/** Pod IP of a sandbox: empty with host networking or when it is not running. */
export function sandboxIp(info: InspectLike): string {
  if (!info.State?.Running) return '';
  if (info.HostConfig?.NetworkMode === 'host') return '';
  const ns = info.NetworkSettings;
  if (!ns) return '';
  if (ns.IPAddress) return ns.IPAddress;
  for (const n of Object.values(ns.Networks ?? {})) if (n?.IPAddress) return n.IPAddress;
  return '';
}

export function toSandboxStatus(info: InspectLike): PodSandboxStatus {
  const raw = info.Config?.Labels ?? {};
  const { labels, annotations } = extractLabels(raw);
  const meta = metadataFrom(info, raw);
  const status: PodSandboxStatus = {
    id: info.Id,
    metadata: meta.pod,
    state: info.State?.Running ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY',
    createdAt: dockerTime(info.Created),
    ip: sandboxIp(info),
    labels,
    annotations,
  };
  const manifest = raw[PodManifestLabel];
  if (manifest) status.podManifest = manifest;
  return status;
}

/** One message of Docker's event stream (the fields read). */
export interface DockerEventLike {
  Type?: string;
  Action?: string;
  status?: string;
  id?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
  time?: number;
  timeNano?: number;
}

const actionMap: Record<string, RuntimeEvent['action']> = {
  create: 'created',
  start: 'started',
  die: 'died',
  oom: 'oom',
  stop: 'stopped',
  destroy: 'destroyed',
};

/** A Docker container event -> RuntimeEvent; null for non-container events. */
export function toRuntimeEvent(e: DockerEventLike): RuntimeEvent | null {
  if (e.Type && e.Type !== 'container') return null;
  const id = e.Actor?.ID ?? e.id;
  if (!id) return null;
  const attrs = e.Actor?.Attributes ?? {};
  const action = actionMap[e.Action ?? e.status ?? ''] ?? 'other';
  const time = e.timeNano ? Math.floor(e.timeNano / 1e6) : (e.time ?? 0) * 1000;
  const ev: RuntimeEvent = {
    kind: attrs[ContainerTypeLabelKey] === ContainerTypeLabelSandbox ? 'sandbox' : 'container',
    action,
    id,
    time,
  };
  if (attrs[PodUIDLabel]) ev.podUid = attrs[PodUIDLabel];
  if (attrs[ContainerNameLabel]) ev.containerName = attrs[ContainerNameLabel];
  return ev;
}

/** One line of Docker's pull progress stream (JSON). */
export interface PullMessageLike {
  status?: string;
  id?: string;
  progressDetail?: { current?: number; total?: number };
  error?: string;
  errorDetail?: { message?: string };
}

/** A pull progress message -> per-layer progress, or the error Docker reported in-stream. */
export function toPullProgress(image: string, m: PullMessageLike): { error: string } | { progress: PullProgress } | null {
  if (m.error || m.errorDetail?.message) return { error: m.errorDetail?.message || m.error || 'unknown error' };
  if (!m.status) return null;
  const p: PullProgress = { image, status: m.status };
  if (m.id) p.layer = m.id;
  if (typeof m.progressDetail?.current === 'number') p.current = m.progressDetail.current;
  if (typeof m.progressDetail?.total === 'number') p.total = m.progressDetail.total;
  return { progress: p };
}
