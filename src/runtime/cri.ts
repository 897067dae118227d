// The runtime seam. Shaped like the Kubernetes CRI (RuntimeService + ImageService): the kubelet
// engine talks only to this interface, and the Docker implementation (src/runtime/docker) sits
// behind it the way dockershim sat behind the CRI. Nothing here knows about Docker.

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

export interface LogOptions {
  tail?: number;
  timestamps?: boolean;
}

export interface FollowOptions extends LogOptions {
  onLine(line: string): void;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
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

  /** Logs of one container instance (stdout and stderr interleaved), as lines. */
  containerLogs(id: string, opts?: LogOptions): Promise<string[]>;
  followContainerLogs(id: string, opts: FollowOptions): Promise<Disposable>;
  execSync(id: string, cmd: string[], timeoutSeconds?: number): Promise<ExecResult>;
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
