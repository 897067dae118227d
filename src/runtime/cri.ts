// The runtime seam. Shaped like the Kubernetes CRI (RuntimeService + ImageService): the kubelet
// engine talks only to this interface, and the Docker implementation (src/runtime/docker) sits
// behind it the way dockershim sat behind the CRI. Nothing here knows about Docker.
import type { Readable, Writable } from 'node:stream';

export type SandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';

export interface PodSandboxMetadata {
  name: string;
  namespace: string;
  uid: string;
  attempt: number;
}

export interface PortMapping {
  protocol: 'TCP' | 'UDP' | 'SCTP';
  containerPort: number;
  hostPort: number;
  hostIp?: string;
}

export interface PodSandboxConfig {
  metadata: PodSandboxMetadata;
  hostname: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  portMappings: PortMapping[];
  hostNetwork: boolean;
  hostIPC: boolean;
  hostPID: boolean;
  /** The whole pod manifest (JSON). Kept with the sandbox, as dockershim kept a checkpoint, so a restarted engine can adopt the pod from the runtime alone. */
  podManifest: string;
  /**
   * Lab extension: runtime-managed volumes (`tmpfsVolume` mounts) the sandbox holds for the pod's
   * lifetime, so that their content outlives every container, as the kubelet's host tmpfs mount does.
   */
  mounts?: Mount[];
}

export interface PodSandboxStatus {
  id: string;
  metadata: PodSandboxMetadata;
  state: SandboxState;
  /** epoch milliseconds */
  createdAt: number;
  /** Pod IP; empty with host networking or when the sandbox is not running. */
  ip: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** The manifest stored by runPodSandbox (see PodSandboxConfig.podManifest). */
  podManifest?: string;
}

export interface KeyValue {
  key: string;
  value: string;
}

export interface Mount {
  hostPath: string;
  containerPath: string;
  readonly?: boolean;
  /**
   * Lab extension: mount this runtime-managed tmpfs volume (see RuntimeService.ensureTmpfsVolume)
   * instead of `hostPath`: every container of the pod then shares one tmpfs, as they share the
   * kubelet's host tmpfs mount of a `medium: Memory` emptyDir.
   */
  tmpfsVolume?: string;
}

/** Lab extension: a runtime-managed tmpfs volume shared by the containers of a pod. */
export interface TmpfsVolumeConfig {
  name: string;
  /** The tmpfs `size=` in bytes; 0 or absent = the kernel's default (half of RAM). */
  sizeBytes?: number;
  labels: Record<string, string>;
}

export interface RuntimeVolume {
  name: string;
  labels: Record<string, string>;
}

export interface LinuxContainerResources {
  /** bytes; 0 = unlimited */
  memoryLimitInBytes?: number;
  cpuShares?: number;
  cpuPeriod?: number;
  cpuQuota?: number;
}

export interface ContainerMetadata {
  name: string;
  attempt: number;
}

export interface ContainerConfig {
  metadata: ContainerMetadata;
  image: string;
  /** Already expanded ($(VAR)); empty keeps the image's ENTRYPOINT. */
  command: string[];
  /** Already expanded; empty keeps the image's CMD. */
  args: string[];
  workingDir?: string;
  envs: KeyValue[];
  mounts: Mount[];
  labels: Record<string, string>;
  annotations: Record<string, string>;
  resources?: LinuxContainerResources;
  tty?: boolean;
  stdin?: boolean;
  stdinOnce?: boolean;
  /** Join the sandbox's PID namespace (shareProcessNamespace). */
  sharePid?: boolean;
  /**
   * NamespaceMode TARGET: join the PID namespace of this container (by runtime ID), as an
   * ephemeral container with a targetContainerName does. Wins over `sharePid`; ignored with hostPID.
   */
  pidTargetId?: string;
  privileged?: boolean;
  runAsUser?: number;
  runAsGroup?: number;
  /** Host path of the termination-message file, bind-mounted at the container's terminationMessagePath. */
  terminationMessageHostPath?: string;
}

export interface ContainerStatus {
  id: string;
  /** The sandbox this container belongs to. */
  podSandboxId: string;
  metadata: ContainerMetadata;
  state: ContainerState;
  /** epoch ms; 0 when unset */
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  image: string;
  imageRef: string;
  /** For exited containers: Completed, Error, OOMKilled, ContainerCannotRun. */
  reason: string;
  message: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface ContainerFilter {
  podSandboxId?: string;
  labelSelector?: Record<string, string>;
  state?: ContainerState;
}

export interface SandboxFilter {
  labelSelector?: Record<string, string>;
  state?: SandboxState;
}

/** A log's lines; `unterminated`: the container wrote no newline after the last (kubectl prints its bytes as written). */
export type LogLines = string[] & { unterminated?: boolean };

export interface LogOptions {
  tail?: number;
  timestamps?: boolean;
}

export interface FollowOptions extends LogOptions {
  /** `unterminated`: the container wrote no newline after this line (the last, as the stream ends). */
  onLine(line: string, unterminated?: boolean): void;
  /** The stream ended (the container stopped), not by dispose(). */
  onEnd?(): void;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * What an interactive exec or attach connects (CRI ExecRequest / AttachRequest: stdin, stdout,
 * stderr, tty). With `tty` there is no separate stderr: the terminal merges it into stdout.
 */
export interface StreamOptions {
  stdin: boolean;
  tty: boolean;
  /** default true */
  stdout?: boolean;
  /** default true; ignored with `tty` */
  stderr?: boolean;
}

/**
 * A running interactive exec or attach session, the runtime half of the CRI streaming server
 * (the shape of dockershim's ExecInContainer / AttachContainer: stdin reader, stdout and stderr
 * writers, a resize channel, and the exit status).
 */
export interface StreamSession {
  /** The process's (exec) or container's (attach) stdin; present when `stdin` was asked for. End it to close stdin. */
  stdin?: Writable;
  /** The output (with `tty`: the terminal's). Ends when the process exits or the session closes. */
  stdout: Readable;
  /** Absent with `tty` or when not asked for. */
  stderr?: Readable;
  /** Resizes the session's terminal (columns, rows); a no-op without `tty`. Never rejects. */
  resize(width: number, height: number): Promise<void>;
  /**
   * exec: the process's exit code, after its output has ended. attach: resolves when the output
   * ends (the container stopped, or close()) with the container's exit code, or -1 when it is still running.
   * Rejects when the runtime cannot tell (e.g. Docker went away).
   */
  exitCode: Promise<number>;
  /** Detaches: closes the streams. The exec'd process or the container is not killed (as with dockershim). */
  close(): void;
}

export interface ImageStatus {
  id: string;
  size: number;
  repoTags: string[];
}

/** Per-layer progress, as Docker reports it while pulling (the CRI has no such thing). */
export interface PullProgress {
  image: string;
  layer?: string;
  status: string;
  current?: number;
  total?: number;
}

export interface RuntimeEvent {
  /** 'sandbox' for pause containers, 'container' for the rest. */
  kind: 'sandbox' | 'container';
  /** created, started, died, oom, stopped, destroyed (removed), … */
  action: 'created' | 'started' | 'died' | 'oom' | 'stopped' | 'destroyed' | 'other';
  id: string;
  /** io.kubernetes.pod.uid of the container, when labelled. */
  podUid?: string;
  containerName?: string;
  /** epoch ms */
  time: number;
}

export interface Disposable {
  dispose(): void;
}

export interface RuntimeVersion {
  runtimeName: string;
  runtimeVersion: string;
  /** Host resources, for the default virtual node. */
  cpus: number;
  memoryBytes: number;
  hostname: string;
  /** The host's OS image (its /etc/os-release PRETTY_NAME) and kernel release (uname -r), for the node's nodeInfo. */
  osImage: string;
  kernelVersion: string;
  /** The host's address on the pods' network (Docker's default bridge gateway): the node IP its pods reach it at; '' when unknown. */
  nodeIP?: string;
}

export interface RuntimeService {
  version(): Promise<RuntimeVersion>;

  runPodSandbox(config: PodSandboxConfig, sandboxImage: string): Promise<string>;
  stopPodSandbox(id: string, graceSeconds?: number): Promise<void>;
  removePodSandbox(id: string): Promise<void>;
  podSandboxStatus(id: string): Promise<PodSandboxStatus | null>;
  listPodSandbox(filter?: SandboxFilter): Promise<PodSandboxStatus[]>;

  createContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig): Promise<string>;
  startContainer(id: string): Promise<void>;
  stopContainer(id: string, timeoutSeconds: number): Promise<void>;
  removeContainer(id: string): Promise<void>;
  containerStatus(id: string): Promise<ContainerStatus | null>;
  listContainers(filter?: ContainerFilter): Promise<ContainerStatus[]>;

  /** Logs of one container instance (stdout and stderr interleaved), as lines (`unterminated`: the last has no newline). */
  containerLogs(id: string, opts?: LogOptions): Promise<LogLines>;
  followContainerLogs(id: string, opts: FollowOptions): Promise<Disposable>;
  execSync(id: string, cmd: string[], timeoutSeconds?: number): Promise<ExecResult>;
  /**
   * Interactive exec (CRI Exec, served by the streaming server): starts `cmd` in a running
   * container with the asked streams attached. Resolves once the process has started.
   */
  execStream?(id: string, cmd: string[], opts: StreamOptions): Promise<StreamSession>;
  /** Attach (CRI Attach) to a running container's main process: its stdin (when the container has one) and output. */
  attachStream?(id: string, opts: StreamOptions): Promise<StreamSession>;
  /** Reads a file from a (running or exited) container; null when absent. */
  readFile(id: string, path: string, maxBytes: number): Promise<string | null>;

  /** Lab extension: copy an exited container's filesystem into a temporary image (like kubectl debug --copy-to). */
  commitContainer?(id: string, repo: string): Promise<string>;

  imageStatus(image: string): Promise<ImageStatus | null>;
  pullImage(image: string, onProgress?: (p: PullProgress) => void): Promise<string>;
  removeImage?(image: string): Promise<void>;

  /** Lab extension: creates (or finds) a tmpfs volume containers can mount with Mount.tmpfsVolume; returns its name. */
  ensureTmpfsVolume?(config: TmpfsVolumeConfig): Promise<string>;
  /** Lab extension: removes a volume made by ensureTmpfsVolume; an absent one is not an error. */
  removeVolume?(name: string): Promise<void>;
  /** Lab extension: the lab's volumes whose labels include `labelSelector`. */
  listVolumes?(labelSelector: Record<string, string>): Promise<RuntimeVolume[]>;

  /** Lifecycle events of the lab's containers. Drives status updates; the engine also relists slowly. */
  onEvent(listener: (e: RuntimeEvent) => void): Disposable;
  close(): void;
}

/** Thrown by runtime operations; `reason` maps to the kubelet's waiting reasons where it applies. */
export class RuntimeError extends Error {
  constructor(
    message: string,
    readonly code: 'NotFound' | 'PullFailed' | 'CreateFailed' | 'StartFailed' | 'Unavailable' | 'Other',
  ) {
    super(message);
    this.name = 'RuntimeError';
  }
}
