// A recording fake runtime behind the CRI seam (the counterpart of cri-api's FakeRuntimeService):
// sandboxes and containers in memory, every call recorded with the fake clock's time, errors
// injectable per method, and container "programs" that decide when a container exits and how it
// answers TERM — so the kubelet's timing is tested deterministically without Docker.
import type {
  ContainerConfig,
  ContainerFilter,
  ContainerStatus,
  Disposable,
  ExecResult,
  ImageStatus,
  PodSandboxConfig,
  PodSandboxStatus,
  RuntimeEvent,
  RuntimeService,
  RuntimeVersion,
  SandboxFilter,
} from '../../src/runtime/cri.js';
import { RuntimeError } from '../../src/runtime/cri.js';
import { withoutTimestamp } from '../../src/engine/kubelet/container-gc.js';
import type { FakeClock } from '../../src/engine/clock.js';
import { PodUIDLabel } from '../../src/shared/labels.js';

export interface Program {
  /** Exit this long after start (never when undefined). */
  exitAfterMs?: number;
  exitCode?: number;
  /** What TERM does: exit at once (with `termExitCode`, default 143) or nothing (SIGKILL at the timeout: 137). */
  onTerm?: 'exit' | 'ignore';
  termExitCode?: number;
  /** Reported by the runtime as OOMKilled when it exits on its own. */
  oomKilled?: boolean;
  logs?: string[];
}

export interface Call {
  method: string;
  /** Container or sandbox name (k8s container name, or `POD`), where it applies. */
  name?: string;
  args: unknown[];
  at: number;
}

interface FakeContainer {
  status: ContainerStatus;
  config: ContainerConfig;
  program: Program;
  exitTimer?: { cancel(): void };
  exited?: Promise<void>;
  resolveExit?: () => void;
}

export class FakeRuntime implements RuntimeService {
  readonly calls: Call[] = [];
  readonly sandboxes = new Map<string, { status: PodSandboxStatus; config: PodSandboxConfig }>();
  readonly containers = new Map<string, FakeContainer>();
  private readonly failures = new Map<string, (Error | ((args: unknown[]) => Error))[]>();
  private readonly listeners = new Set<(e: RuntimeEvent) => void>();
  private seq = 0;
  /** Container name → program for its next instances. */
  readonly programs = new Map<string, Program>();
  /** Answers ExecSync (probes, hooks). Default: exit 0, no output. */
  execHandler: (containerName: string, cmd: string[], timeoutSeconds?: number) => ExecResult | Promise<ExecResult> = () => ({ exitCode: 0, stdout: '', stderr: '' });
  /** Images the "node" has. */
  readonly images = new Set<string>(['busybox:1.35', 'registry.k8s.io/pause:3.10']);

  constructor(readonly clock: FakeClock) {}

  /** The next call of `method` fails with `error` (or the error made of the call's arguments, such as the container ID). */
  failNext(method: keyof RuntimeService, error: Error | ((args: unknown[]) => Error) = new RuntimeError(`injected ${method} failure`, 'Other')): void {
    const list = this.failures.get(method) ?? [];
    list.push(error);
    this.failures.set(method, list);
  }

  private record(method: string, name: string | undefined, ...args: unknown[]): void {
    this.calls.push({ method, name, args, at: this.clock.now() });
    const f = this.failures.get(method);
    const err = f?.shift();
    if (err) throw typeof err === 'function' ? err(args) : err;
  }

  /** Calls of the given methods, as `method name @ms-since-start` strings (readable whole-value assertions). */
  trace(methods: string[], since = 0): string[] {
    return this.calls.filter((c) => methods.includes(c.method) && c.at >= since).map((c) => `${c.method}${c.name ? ` ${c.name}` : ''} @${c.at - since}`);
  }

  private emit(e: Omit<RuntimeEvent, 'time'>): void {
    const ev = { ...e, time: this.clock.now() };
    queueMicrotask(() => this.listeners.forEach((l) => l(ev)));
  }

  async version(): Promise<RuntimeVersion> {
    return { runtimeName: 'fake', runtimeVersion: '1', cpus: 4, memoryBytes: 8 * 1024 ** 3, hostname: 'fake-host', osImage: 'Fake OS 1', kernelVersion: '6.0.0-fake', nodeIP: '172.18.0.1' };
  }

  async runPodSandbox(config: PodSandboxConfig): Promise<string> {
    this.record('runPodSandbox', 'POD', config);
    const id = `sb${++this.seq}`;
    this.sandboxes.set(id, {
      config,
      status: {
        id,
        metadata: config.metadata,
        state: 'SANDBOX_READY',
        createdAt: this.clock.now(),
        ip: config.hostNetwork ? '' : `10.88.0.${this.seq}`,
        labels: config.labels,
        annotations: config.annotations,
        podManifest: config.podManifest,
      },
    });
    this.emit({ kind: 'sandbox', action: 'started', id, podUid: config.metadata.uid });
    return id;
  }

  async stopPodSandbox(id: string): Promise<void> {
    this.record('stopPodSandbox', 'POD', id);
    const sb = this.sandboxes.get(id);
    if (sb) sb.status = { ...sb.status, state: 'SANDBOX_NOTREADY', ip: '' };
  }

  async removePodSandbox(id: string): Promise<void> {
    this.record('removePodSandbox', 'POD', id);
    this.sandboxes.delete(id);
  }

  async podSandboxStatus(id: string): Promise<PodSandboxStatus | null> {
    return this.sandboxes.get(id)?.status ?? null;
  }

  async listPodSandbox(filter: SandboxFilter = {}): Promise<PodSandboxStatus[]> {
    return [...this.sandboxes.values()].map((s) => s.status).filter((s) => matches(s.labels, filter.labelSelector) && (!filter.state || s.state === filter.state));
  }

  async createContainer(sandboxId: string, config: ContainerConfig): Promise<string> {
    this.record('createContainer', config.metadata.name, config);
    const id = `c${++this.seq}`;
    const sb = this.sandboxes.get(sandboxId);
    if (!sb) throw new RuntimeError(`sandbox ${sandboxId} not found`, 'NotFound');
    this.containers.set(id, {
      config,
      program: { ...(this.programs.get(config.metadata.name) ?? {}) },
      status: {
        id,
        podSandboxId: sandboxId,
        metadata: config.metadata,
        state: 'CONTAINER_CREATED',
        createdAt: this.clock.now() + this.seq / 1000,
        startedAt: 0,
        finishedAt: 0,
        exitCode: 0,
        image: config.image,
        imageRef: `sha256:${config.image}`,
        reason: '',
        message: '',
        labels: { ...config.labels, [PodUIDLabel]: config.labels[PodUIDLabel] ?? sb.config.metadata.uid },
        annotations: config.annotations,
      },
    });
    this.emit({ kind: 'container', action: 'created', id, podUid: sb.config.metadata.uid, containerName: config.metadata.name });
    return id;
  }

  async startContainer(id: string): Promise<void> {
    const c = this.mustGet(id);
    this.record('startContainer', c.config.metadata.name, id);
    c.status = { ...c.status, state: 'CONTAINER_RUNNING', startedAt: this.clock.now() };
    c.exited = new Promise<void>((r) => (c.resolveExit = r));
    if (c.program.exitAfterMs !== undefined) {
      c.exitTimer = this.clock.setTimeout(() => this.exit(id, c.program.exitCode ?? 0, c.program.oomKilled ? 'OOMKilled' : undefined), c.program.exitAfterMs);
    }
    this.emit({ kind: 'container', action: 'started', id, podUid: c.status.labels[PodUIDLabel], containerName: c.config.metadata.name });
  }

  /** Makes a running container exit now (a test's "the process ended"). */
  exit(id: string, exitCode: number, reason?: string): void {
    const c = this.containers.get(id);
    if (!c || c.status.state !== 'CONTAINER_RUNNING') return;
    c.exitTimer?.cancel();
    c.status = { ...c.status, state: 'CONTAINER_EXITED', exitCode, finishedAt: this.clock.now(), reason: reason ?? (exitCode === 0 ? 'Completed' : 'Error') };
    c.resolveExit?.();
    this.emit({ kind: 'container', action: 'died', id, podUid: c.status.labels[PodUIDLabel], containerName: c.config.metadata.name });
  }

  /** The newest instance of a container name. */
  newest(name: string): FakeContainer | undefined {
    return [...this.containers.values()].filter((c) => c.config.metadata.name === name).sort((a, b) => b.status.createdAt - a.status.createdAt)[0];
  }

  async stopContainer(id: string, timeoutSeconds: number): Promise<void> {
    const c = this.mustGet(id);
    this.record('stopContainer', c.config.metadata.name, id, timeoutSeconds);
    if (c.status.state === 'CONTAINER_CREATED') {
      c.status = { ...c.status, state: 'CONTAINER_EXITED', finishedAt: this.clock.now(), exitCode: 0, reason: 'Completed' };
      return;
    }
    if (c.status.state !== 'CONTAINER_RUNNING') return;
    if ((c.program.onTerm ?? 'exit') === 'exit') {
      this.exit(id, c.program.termExitCode ?? 143);
      return;
    }
    const t = this.clock.setTimeout(() => this.exit(id, 137), timeoutSeconds * 1000);
    await c.exited;
    t.cancel();
  }

  async removeContainer(id: string): Promise<void> {
    const c = this.containers.get(id);
    this.record('removeContainer', c?.config.metadata.name, id);
    this.containers.delete(id);
  }

  async containerStatus(id: string): Promise<ContainerStatus | null> {
    return this.containers.get(id)?.status ?? null;
  }

  async listContainers(filter: ContainerFilter = {}): Promise<ContainerStatus[]> {
    return [...this.containers.values()]
      .map((c) => c.status)
      .filter((s) => matches(s.labels, filter.labelSelector) && (!filter.state || s.state === filter.state) && (!filter.podSandboxId || s.podSandboxId === filter.podSandboxId));
  }

  /** A program's log lines may carry Docker's timestamps: like Docker, they are given only when asked. */
  async containerLogs(id: string, opts: { tail?: number; timestamps?: boolean } = {}): Promise<string[]> {
    const logs = (this.mustGet(id).program.logs ?? []).map((l) => (opts.timestamps ? l : withoutTimestamp(l)));
    return opts.tail ? logs.slice(-opts.tail) : logs;
  }

  async followContainerLogs(): Promise<Disposable> {
    return { dispose: () => undefined };
  }

  async execSync(id: string, cmd: string[], timeoutSeconds?: number): Promise<ExecResult> {
    const c = this.mustGet(id);
    this.record('execSync', c.config.metadata.name, cmd, timeoutSeconds);
    if (c.status.state !== 'CONTAINER_RUNNING') throw new RuntimeError(`container ${id} is not running`, 'Other');
    return this.execHandler(c.config.metadata.name, cmd, timeoutSeconds);
  }

  async readFile(): Promise<string | null> {
    return null;
  }

  async imageStatus(image: string): Promise<ImageStatus | null> {
    return this.images.has(image) ? { id: `sha256:${image}`, size: 1, repoTags: [image] } : null;
  }

  async pullImage(image: string): Promise<string> {
    this.record('pullImage', undefined, image);
    throw new RuntimeError(`pull access denied for ${image}`, 'PullFailed');
  }

  onEvent(listener: (e: RuntimeEvent) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  close(): void {
    for (const c of this.containers.values()) c.exitTimer?.cancel();
  }

  private mustGet(id: string): FakeContainer {
    const c = this.containers.get(id);
    if (!c) throw new RuntimeError(`No such container: ${id}`, 'NotFound');
    return c;
  }
}

function matches(labels: Record<string, string>, sel?: Record<string, string>): boolean {
  return !sel || Object.entries(sel).every(([k, v]) => labels[k] === v);
}
