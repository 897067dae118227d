// The Docker implementation of the CRI-shaped runtime seam, following dockershim
// (pkg/kubelet/dockershim). The imperative shell: every decision about names, labels, create
// options and status mapping lives in the pure modules next to this one.
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix as posixPath } from 'node:path';
import { PassThrough, Writable, type Duplex, type Readable } from 'node:stream';
import Dockerode from 'dockerode';
import {
  RuntimeError,
  type ContainerConfig,
  type ContainerFilter,
  type ContainerStatus,
  type Disposable,
  type ExecResult,
  type FollowOptions,
  type ImageStatus,
  type LogLines,
  type LogOptions,
  type PodSandboxConfig,
  type PodSandboxStatus,
  type PullProgress,
  type RuntimeEvent,
  type RuntimeService,
  type RuntimeVersion,
  type RuntimeVolume,
  type SandboxFilter,
  type StreamOptions,
  type StreamSession,
  type TmpfsVolumeConfig,
} from '../cri.js';
import { ManagedLabel } from '../../shared/labels.js';
import { containerCreateOptions, DefaultSandboxGracePeriod, sandboxCreateOptions, tmpfsVolumeCreateOptions } from './config.js';
import { resolveConnection, type DockerConnectionOptions } from './connection.js';
import { dockerMessage, isConnectionError, statusCode, toRuntimeError, unavailableMessage } from './errors.js';
import {
  ContainerTypeLabelContainer,
  ContainerTypeLabelKey,
  ContainerTypeLabelSandbox,
  SandboxIDLabelKey,
} from './naming.js';
import {
  toContainerStatus,
  toPullProgress,
  toRuntimeEvent,
  toSandboxStatus,
  type DockerEventLike,
  type InspectLike,
  trimInspect,
  type PullMessageLike,
} from './status.js';
import { Demuxer, LineSplitter } from './streams.js';
import { FirstEntryReader } from './tar.js';

export type DockerRuntimeOptions = DockerConnectionOptions;

/**
 * A sandbox image that cannot be pulled says how to build one (a lab matter). A container's image
 * does not: its pull error is the kubelet's event and waiting message, word for word, and the
 * lifecycle panel explains it beside them (panel/notices.ts).
 */
const buildImagesHint = (image: string) => `run "bash scripts/build-images.sh" to build ${image} locally`;

/** Docker container events after which what an inspection reads is as it was. */
function inspectionUnchangedBy(action: string): boolean {
  return /^(exec_(create|start|die|detach)|archive-path|extract-to-dir|attach|detach|resize|top|export|commit)\b/.test(action);
}

/** How many inspects a list runs at once. */
const inspectConcurrency = 8;
/** Containers whose inspection is kept (the oldest go first past this many). */
const inspectionsKept = 2048;
/**
 * Docker's states in which nothing the mapping reads changes until an event says something happened
 * to the container (created and restarting are on their way to another state).
 */
const keptStates = new Set(['running', 'exited', 'dead']);

async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function labelFilters(selector: Record<string, string> | undefined, extra: Record<string, string>): string[] {
  return Object.entries({ ...(selector ?? {}), ...extra }).map(([k, v]) => `${k}=${v}`);
}

/** Splits `repo[:tag]` (a `:` after the last `/`). */
function splitRepoTag(ref: string): { repo: string; tag?: string } {
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  if (colon > slash) return { repo: ref.slice(0, colon), tag: ref.slice(colon + 1) };
  return { repo: ref };
}

function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer | string) => chunks.push(typeof c === 'string' ? Buffer.from(c) : c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

interface StreamWants {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** The streams to attach: stdout by default, stderr only without a TTY (kubelet's NewOptions). */
function streamWants(o: StreamOptions): StreamWants {
  return { stdin: o.stdin, stdout: o.stdout !== false, stderr: !o.tty && o.stderr !== false, tty: o.tty };
}

/**
 * A StreamSession over a hijacked Docker connection (libdocker's holdHijackedConnection): output
 * demultiplexed (raw with a TTY) into stdout/stderr with back-pressure on the connection, stdin
 * copied to it and the connection closed for writing at stdin's end (at once without stdin).
 */
function hijackedSession(
  sock: Duplex,
  want: StreamWants,
  ops: { resize?: (w: number, h: number) => Promise<unknown>; exitCode: () => Promise<number> },
): StreamSession {
  const stdout = new PassThrough();
  const stderr = want.stderr ? new PassThrough() : undefined;
  const demux = new Demuxer(
    (kind, chunk) => {
      const target = kind === 'stderr' && stderr ? stderr : stdout;
      if (!target.write(chunk)) {
        sock.pause();
        target.once('drain', () => sock.resume());
      }
    },
    want.tty ? 'raw' : 'multiplexed',
  );
  let resolveEnded!: () => void;
  const ended = new Promise<void>((r) => (resolveEnded = r));
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    demux.end();
    stdout.end();
    stderr?.end();
    resolveEnded();
  };
  sock.on('data', (c: Buffer) => demux.push(c));
  sock.on('end', finish);
  sock.on('close', finish);
  sock.on('error', finish);
  const closeWrite = () => {
    if (!sock.destroyed && !sock.writableEnded) sock.end();
  };
  let stdin: Writable | undefined;
  if (want.stdin) {
    stdin = new Writable({
      write(chunk: Buffer, _enc, cb) {
        if (sock.destroyed || sock.writableEnded) return cb();
        sock.write(chunk, () => cb());
      },
      final(cb) {
        closeWrite();
        cb();
      },
    });
    stdin.on('error', () => undefined);
  } else {
    closeWrite();
  }
  const exitCode = ended.then(() => ops.exitCode());
  exitCode.catch(() => undefined);
  return {
    stdin,
    stdout,
    stderr,
    resize: async (w, h) => {
      if (!ops.resize || w < 1 || h < 1) return;
      try {
        await ops.resize(w, h);
      } catch {
        /* as dockershim: a failed resize is not the session's failure */
      }
    },
    exitCode,
    close: () => {
      sock.destroy();
      finish();
    },
  };
}

export class DockerRuntime implements RuntimeService {
  readonly docker: Dockerode;
  /** Where Docker is, for messages (socket path or URL). */
  readonly target: string;

  private readonly listeners = new Set<(e: RuntimeEvent) => void>();
  private eventStream: Readable | null = null;
  private eventTimer: NodeJS.Timeout | null = null;
  private eventConnecting = false;
  /** Docker `since` for the next (re)connection, seconds with fraction. */
  private eventSince = 0;
  private lastEventNano = 0;
  private lastEventKeys = new Set<string>();
  private reconnectDelay = 250;
  private eventsConnected: Promise<void> | null = null;
  private resolveEventsConnected: (() => void) | null = null;
  private closed = false;
  private oomScoreRefused: boolean | undefined;
  /**
   * Inspections of running and finished containers, by id: every sync lists its pod's containers,
   * and each instance (the sandbox, the running containers, each exited init container and earlier
   * attempt) would be inspected again every time. Reused while Docker's list still gives the state
   * the inspection read and the event stream, which reports whatever happens to a container (a
   * start, a stop or kill by hand, an exit), is connected; dropped at any event of the container.
   * Not heard: a network disconnected by hand (a network event) leaves a sandbox's kept IP.
   */
  private readonly kept = new Map<string, InspectLike>();
  /** Counts the event stream's gaps: an inspection read across one is not kept. */
  private keptEpoch = 0;
  /** The containers being inspected for a listing, and whether an event of theirs came meanwhile. */
  private readonly inspecting = new Map<string, { n: number; touched: boolean }>();
  /** The list calls of this tick, by their filters without the container type (see listShared). */
  private readonly listsThisTick = new Map<string, Promise<Dockerode.ContainerInfo[]>>();

  constructor(opts: DockerRuntimeOptions = {}) {
    const r = resolveConnection(opts, process.env);
    this.docker = new Dockerode(r.dockerOptions);
    this.target = r.target;
  }

  private fail(err: unknown, code: RuntimeError['code'] = 'Other', what?: string): never {
    throw toRuntimeError(err, this.target, code, what);
  }

  // ---- version -------------------------------------------------------------------------------

  async version(): Promise<RuntimeVersion> {
    try {
      const [v, info, nodeIP] = await Promise.all([this.docker.version(), this.docker.info(), this.bridgeGateway()]);
      return {
        runtimeName: 'docker',
        runtimeVersion: v.Version,
        cpus: Number(info.NCPU) || 1,
        memoryBytes: Number(info.MemTotal) || 0,
        hostname: String(info.Name ?? ''),
        osImage: String(info.OperatingSystem ?? ''),
        kernelVersion: String(info.KernelVersion ?? ''),
        nodeIP,
      };
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * The host's address on the default bridge, where the sandboxes are (its gateway; IPv4 first): the
   * address pods reach the host and its published host ports at. '' without such a network.
   */
  private async bridgeGateway(): Promise<string> {
    try {
      const net = (await this.docker.getNetwork('bridge').inspect()) as { IPAM?: { Config?: { Gateway?: string }[] } };
      const gateways = (net.IPAM?.Config ?? []).map((c) => c.Gateway ?? '').filter((g) => g !== '');
      return gateways.find((g) => !g.includes(':')) ?? gateways[0] ?? '';
    } catch {
      return '';
    }
  }

  // ---- sandboxes -----------------------------------------------------------------------------

  async runPodSandbox(config: PodSandboxConfig, sandboxImage: string): Promise<string> {
    const opts = sandboxCreateOptions(config, sandboxImage);
    const oomFallback = this.sandboxOomScoreAdj();
    if (oomFallback !== undefined) opts.HostConfig = { ...opts.HostConfig, OomScoreAdj: oomFallback };
    const id = await this.createSandboxContainer(opts, sandboxImage);
    try {
      await this.docker.getContainer(id).start();
    } catch (e) {
      if (isConnectionError(e) || !((opts.HostConfig?.OomScoreAdj ?? 0) < 0)) {
        // As dockershim: the failed sandbox stays for the kubelet to kill and collect.
        this.fail(e, 'StartFailed', `failed to start sandbox container for pod "${config.metadata.name}"`);
      }
      // A Docker without CAP_SYS_RESOURCE (some VMs and nested containers) cannot give the pause
      // container a negative OOM score: runc fails. Retry once with 0 and remember the answer.
      await this.removeIgnoringGone(id).catch(() => undefined);
      const retry = { ...opts, HostConfig: { ...opts.HostConfig, OomScoreAdj: 0 } };
      const id2 = await this.createSandboxContainer(retry, sandboxImage);
      try {
        await this.docker.getContainer(id2).start();
      } catch {
        // The OOM score was not the reason: report the first failure with -998 restored.
        await this.removeIgnoringGone(id2).catch(() => undefined);
        const id3 = await this.createSandboxContainer(opts, sandboxImage);
        try {
          await this.docker.getContainer(id3).start();
        } catch (e3) {
          this.fail(e3, 'StartFailed', `failed to start sandbox container for pod "${config.metadata.name}"`);
        }
        return id3;
      }
      this.rememberOomScoreRefused();
      return id2;
    }
    return id;
  }

  private async createSandboxContainer(opts: Dockerode.ContainerCreateOptions, sandboxImage: string): Promise<string> {
    try {
      return await this.create(opts);
    } catch (e) {
      if (statusCode(e) !== 404 || !/no such image/i.test(dockerMessage(e))) {
        this.fail(e, 'CreateFailed', 'Failed to create the sandbox container');
      }
    }
    // The pause image is pulled only when absent (dockershim ensureSandboxImageExists).
    await this.pullSandboxImage(sandboxImage);
    try {
      return await this.create(opts);
    } catch (e2) {
      this.fail(e2, 'CreateFailed', 'Failed to create the sandbox container');
    }
  }

  /** The OOM score to use instead of dockershim's -998 when this Docker is known to refuse it. */
  private sandboxOomScoreAdj(): number | undefined {
    if (this.oomScoreRefused === undefined) {
      this.oomScoreRefused = existsSync(this.oomMarkerPath());
    }
    return this.oomScoreRefused ? 0 : undefined;
  }

  private rememberOomScoreRefused(): void {
    this.oomScoreRefused = true;
    try {
      writeFileSync(this.oomMarkerPath(), `${this.target}\n`);
    } catch {
      /* only an optimisation for the next process */
    }
  }

  /** A marker in the temp directory, per Docker address, so the next process skips the failing attempt. */
  private oomMarkerPath(): string {
    const key = createHash('sha256').update(this.target).digest('hex').slice(0, 12);
    return join(tmpdir(), `podlab-docker-${key}-no-negative-oom-score`);
  }

  private async pullSandboxImage(image: string): Promise<void> {
    try {
      await this.pullImage(image);
    } catch (e) {
      if (e instanceof RuntimeError && e.code === 'Unavailable') throw e;
      const msg = e instanceof Error ? e.message : String(e);
      throw new RuntimeError(
        `Failed to pull the sandbox image "${image}": ${msg}. No registry is reachable? ${buildImagesHint(image)}, or pass --sandbox-image with an image that is present.`,
        'PullFailed',
      );
    }
  }

  /** One create call; on a name conflict with a non-running leftover, removes it and retries once (dockershim recoverFromCreationConflictIfNeeded). */
  private async create(opts: Dockerode.ContainerCreateOptions): Promise<string> {
    try {
      return (await this.docker.createContainer(opts)).id;
    } catch (e) {
      if (statusCode(e) !== 409 || !opts.name) throw e;
      const existing = await this.docker
        .getContainer(opts.name)
        .inspect()
        .catch(() => null);
      if (!existing || existing.State?.Running) throw e;
      this.kept.delete(existing.Id);
      await this.docker
        .getContainer(existing.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined);
      return (await this.docker.createContainer(opts)).id;
    }
  }

  async stopPodSandbox(id: string, graceSeconds: number = DefaultSandboxGracePeriod): Promise<void> {
    try {
      // CRI: containers still running in the sandbox are forcibly terminated.
      const running = await this.docker.listContainers({
        all: false,
        filters: { label: [`${SandboxIDLabelKey}=${id}`, `${ManagedLabel}=true`] },
      });
      await Promise.all(running.map((c) => this.stopIgnoringGone(c.Id, 0)));
      await this.stopIgnoringGone(id, graceSeconds);
    } catch (e) {
      this.fail(e);
    }
  }

  private async stopIgnoringGone(id: string, t: number): Promise<void> {
    try {
      await this.docker.getContainer(id).stop({ t });
    } catch (e) {
      const sc = statusCode(e);
      if (sc === 304 || sc === 404) return;
      throw e;
    }
  }

  async removePodSandbox(id: string): Promise<void> {
    try {
      // CRI: the sandbox's containers go with it.
      const members = await this.docker.listContainers({
        all: true,
        filters: { label: [`${SandboxIDLabelKey}=${id}`, `${ManagedLabel}=true`] },
      });
      await Promise.all(members.map((c) => this.removeIgnoringGone(c.Id)));
      await this.removeIgnoringGone(id);
    } catch (e) {
      this.fail(e);
    }
  }

  private async removeIgnoringGone(id: string): Promise<void> {
    this.kept.delete(id);
    try {
      await this.docker.getContainer(id).remove({ force: true, v: true });
    } catch (e) {
      const sc = statusCode(e);
      if (sc === 404) return;
      if (sc === 409 && /already in progress/i.test(dockerMessage(e))) return;
      throw e;
    }
  }

  async podSandboxStatus(id: string): Promise<PodSandboxStatus | null> {
    const info = await this.inspect(id);
    if (!info) return null;
    if (info.Config?.Labels?.[ContainerTypeLabelKey] !== ContainerTypeLabelSandbox) return null;
    return toSandboxStatus(info);
  }

  async listPodSandbox(filter: SandboxFilter = {}): Promise<PodSandboxStatus[]> {
    const infos = await this.listInspect(
      labelFilters(filter.labelSelector, { [ManagedLabel]: 'true', [ContainerTypeLabelKey]: ContainerTypeLabelSandbox }),
      filter.state === 'SANDBOX_READY',
    );
    const out = infos.map(toSandboxStatus);
    return filter.state ? out.filter((s) => s.state === filter.state) : out;
  }

  // ---- containers ----------------------------------------------------------------------------

  async createContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig): Promise<string> {
    const opts = containerCreateOptions(podSandboxId, config, sandboxConfig);
    try {
      return await this.create(opts);
    } catch (e) {
      this.fail(e, 'CreateFailed');
    }
  }

  async startContainer(id: string): Promise<void> {
    try {
      await this.docker.getContainer(id).start();
    } catch (e) {
      if (statusCode(e) === 304) return; // already started
      this.fail(e, 'StartFailed', `failed to start container "${id}"`);
    }
  }

  async stopContainer(id: string, timeoutSeconds: number): Promise<void> {
    try {
      await this.docker.getContainer(id).stop({ t: Math.max(0, Math.floor(timeoutSeconds)) });
    } catch (e) {
      if (statusCode(e) === 304) return; // already stopped
      this.fail(e);
    }
  }

  async removeContainer(id: string): Promise<void> {
    try {
      await this.removeIgnoringGone(id);
    } catch (e) {
      this.fail(e);
    }
  }

  async containerStatus(id: string): Promise<ContainerStatus | null> {
    const info = await this.inspect(id);
    if (!info) return null;
    if (info.Config?.Labels?.[ContainerTypeLabelKey] !== ContainerTypeLabelContainer) return null;
    return toContainerStatus(info);
  }

  async listContainers(filter: ContainerFilter = {}): Promise<ContainerStatus[]> {
    const extra: Record<string, string> = {
      [ManagedLabel]: 'true',
      [ContainerTypeLabelKey]: ContainerTypeLabelContainer,
    };
    if (filter.podSandboxId) extra[SandboxIDLabelKey] = filter.podSandboxId;
    const infos = await this.listInspect(labelFilters(filter.labelSelector, extra), filter.state === 'CONTAINER_RUNNING');
    const out = infos.map(toContainerStatus);
    return filter.state ? out.filter((s) => s.state === filter.state) : out;
  }

  private async inspect(id: string): Promise<InspectLike | null> {
    try {
      return (await this.docker.getContainer(id).inspect()) as unknown as InspectLike;
    } catch (e) {
      if (statusCode(e) === 404) return null;
      this.fail(e);
    }
  }

  /** One list call, then the inspects in parallel (containers removed meanwhile are skipped). */
  private async listInspect(labels: string[], runningOnly: boolean): Promise<InspectLike[]> {
    let items: Dockerode.ContainerInfo[];
    try {
      items = await this.listShared(labels, runningOnly);
    } catch (e) {
      this.fail(e);
    }
    const infos = await mapLimit(items, inspectConcurrency, async (c) => {
      const keepable = keptStates.has(c.State);
      const kept = this.kept.get(c.Id);
      if (kept && keepable && kept.State?.Status === c.State) return kept;
      if (kept) this.kept.delete(c.Id);
      const epoch = this.keptEpoch;
      const mark = this.inspecting.get(c.Id) ?? { n: 0, touched: false };
      mark.n++;
      this.inspecting.set(c.Id, mark);
      let info: InspectLike | null;
      try {
        info = await this.inspect(c.Id);
      } finally {
        if (--mark.n === 0 && this.inspecting.get(c.Id) === mark) this.inspecting.delete(c.Id);
      }
      // Kept only when the inspection agrees with the list, nothing happened to the container (nor
      // a gap in the events) meanwhile, and what happens next would be heard.
      if (info && keepable && info.State?.Status === c.State && !mark.touched && epoch === this.keptEpoch && this.eventStream) this.keep(trimInspect(info));
      return info;
    });
    return infos.filter((i): i is InspectLike => i !== null);
  }

  /**
   * Docker's list for these label filters. Calls in the same tick whose filters differ only in the
   * container type (a pod's read asks for its sandboxes and its containers together) share one
   * list call, each getting its own kind.
   */
  private listShared(labels: string[], runningOnly: boolean): Promise<Dockerode.ContainerInfo[]> {
    const typeFilter = labels.find((l) => l.startsWith(`${ContainerTypeLabelKey}=`));
    const rest = labels.filter((l) => l !== typeFilter);
    const key = `${runningOnly}\n${[...rest].sort().join('\n')}`;
    let all = this.listsThisTick.get(key);
    if (!all) {
      const filters: Record<string, string[]> = { label: rest };
      if (runningOnly) filters.status = ['running'];
      all = this.docker.listContainers({ all: !runningOnly, filters });
      this.listsThisTick.set(key, all);
      // Only calls made together share: a later one must see what happened since.
      queueMicrotask(() => this.listsThisTick.delete(key));
    }
    if (!typeFilter) return all;
    const type = typeFilter.slice(ContainerTypeLabelKey.length + 1);
    return all.then((items) => items.filter((c) => c.Labels?.[ContainerTypeLabelKey] === type));
  }

  /** Without the event stream a change by hand would go unheard: nothing kept is trusted. */
  private forgetKept(): void {
    this.kept.clear();
    this.keptEpoch++;
  }

  private keep(info: InspectLike): void {
    this.kept.delete(info.Id);
    this.kept.set(info.Id, info);
    if (this.kept.size > inspectionsKept) this.kept.delete(this.kept.keys().next().value!);
  }

  // ---- logs, exec, files ---------------------------------------------------------------------

  /** `since`: Unix seconds (Docker's `since`: entries at or after it). */
  private logsStream(id: string, opts: LogOptions & { follow: boolean; since?: number }): Promise<NodeJS.ReadableStream> {
    const options: Record<string, unknown> = {
      stdout: true,
      stderr: true,
      follow: opts.follow,
      timestamps: opts.timestamps ?? false,
      tail: opts.tail === undefined || opts.tail < 0 ? 'all' : String(opts.tail),
      ...(opts.since !== undefined ? { since: String(opts.since) } : {}),
    };
    // Always as a stream: dockerode would otherwise try to JSON-parse the log text.
    return new Promise((resolve, reject) => {
      this.docker.modem.dial(
        {
          path: `/containers/${id}/logs?`,
          method: 'GET',
          options,
          isStream: true,
          statusCodes: { 200: true, 404: 'no such container', 500: 'server error' },
        },
        (err: unknown, data: unknown) => (err ? reject(err) : resolve(data as NodeJS.ReadableStream)),
      );
    });
  }

  async containerLogs(id: string, opts: LogOptions = {}): Promise<LogLines> {
    let buf: Buffer;
    try {
      buf = await collect(await this.logsStream(id, { ...opts, follow: false }));
    } catch (e) {
      this.fail(e);
    }
    const lines: LogLines = [];
    const splitter = new LineSplitter((line) => lines.push(line));
    const demux = new Demuxer((kind, chunk) => splitter.push(kind, chunk));
    demux.push(buf);
    demux.end();
    splitter.end();
    if (splitter.endedUnterminated) lines.unterminated = true;
    return lines;
  }

  /**
   * Follows a container's log. Docker's follow reader can stop at the container's exit before the
   * last line, when it has no newline, reaches it (`docker logs -f` drops it too), so the stream is
   * read with timestamps, and when it ends the log is read once more for the entries after the
   * last one delivered. The timestamps are taken off again unless asked for.
   */
  async followContainerLogs(id: string, opts: FollowOptions): Promise<Disposable> {
    let stream: NodeJS.ReadableStream;
    try {
      stream = await this.logsStream(id, { tail: opts.tail, timestamps: true, follow: true });
    } catch (e) {
      this.fail(e);
    }
    let last: bigint | undefined;
    let disposed = false;
    /** The second read delivers only what came after the last entry the stream delivered. */
    let after: bigint | undefined;
    const deliver = (line: string, _kind?: unknown, unterminated?: boolean) => {
      const at = entryNanos(line);
      if (at !== undefined) {
        if (after !== undefined && at <= after) return;
        if (last === undefined || at > last) last = at;
      }
      try {
        opts.onLine(opts.timestamps || at === undefined ? line : line.slice(line.indexOf(' ') + 1), unterminated === true);
      } catch {
        /* a listener's failure is not the stream's */
      }
    };
    const splitter = new LineSplitter(deliver);
    const demux = new Demuxer((kind, chunk) => splitter.push(kind, chunk));
    let ended = false;
    const finish = async () => {
      if (ended) return;
      ended = true;
      demux.end();
      splitter.end();
      if (!disposed) {
        const since = last === undefined ? undefined : Number(last / 1_000_000_000n);
        const rest = await this.logsStream(id, { tail: last === undefined ? opts.tail : undefined, timestamps: true, follow: false, since })
          .then(collect)
          .catch(() => undefined);
        if (rest && !disposed) {
          after = last ?? -1n;
          const again = new LineSplitter(deliver);
          const d = new Demuxer((kind, chunk) => again.push(kind, chunk));
          d.push(rest);
          d.end();
          again.end();
        }
      }
      if (disposed) return;
      try {
        opts.onEnd?.();
      } catch {
        /* a listener's failure is not the stream's */
      }
    };
    stream.on('data', (c: Buffer) => demux.push(c));
    stream.on('end', () => void finish());
    stream.on('close', () => void finish());
    stream.on('error', () => void finish());
    return {
      dispose: () => {
        disposed = true;
        ended = true;
        (stream as Readable).destroy();
      },
    };
  }

  async execSync(id: string, cmd: string[], timeoutSeconds?: number): Promise<ExecResult> {
    let exec: Dockerode.Exec;
    let stream: NodeJS.ReadWriteStream;
    try {
      exec = await this.docker.getContainer(id).exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true, Tty: false });
      stream = (await exec.start({ hijack: true, stdin: false })) as NodeJS.ReadWriteStream;
    } catch (e) {
      this.fail(e);
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const demux = new Demuxer((kind, chunk) => (kind === 'stderr' ? err : out).push(Buffer.from(chunk)), 'multiplexed');
    await new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (e?: Error) => {
        if (timer) clearTimeout(timer);
        if (e) reject(e);
        else resolve();
      };
      if (timeoutSeconds && timeoutSeconds > 0) {
        timer = setTimeout(() => {
          (stream as unknown as Readable).destroy();
          done(new RuntimeError(`command ${JSON.stringify(cmd)} timed out after ${timeoutSeconds}s`, 'Other'));
        }, timeoutSeconds * 1000);
      }
      stream.on('data', (c: Buffer) => demux.push(c));
      stream.on('end', () => done());
      stream.on('close', () => done());
      stream.on('error', (e: Error) => done(toRuntimeError(e, this.target)));
    });
    demux.end();
    let exitCode: number;
    try {
      const info = await exec.inspect();
      exitCode = info.ExitCode ?? -1;
    } catch (e) {
      this.fail(e);
    }
    return { exitCode, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
  }

  // ---- interactive exec and attach (dockershim exec.go NativeExecHandler, docker_streaming.go attachContainer)

  /**
   * dockershim's ExecInContainer: exec create with the asked streams and Tty, exec start hijacked
   * (stdin written to the connection, closed for writing at stdin's end), the output demultiplexed
   * unless Tty, resizes after the start, and the exit code from exec inspect once the output ends.
   */
  async execStream(id: string, cmd: string[], opts: StreamOptions): Promise<StreamSession> {
    const want = streamWants(opts);
    await this.checkContainerRunning(id);
    let exec: Dockerode.Exec;
    try {
      exec = await this.docker.getContainer(id).exec({
        Cmd: cmd,
        AttachStdin: want.stdin,
        AttachStdout: want.stdout,
        AttachStderr: want.stderr,
        Tty: want.tty,
      });
    } catch (e) {
      const err = toRuntimeError(e, this.target);
      if (err.code === 'Unavailable') throw err;
      throw new RuntimeError(`failed to exec in container - Exec setup failed - ${err.message}`, err.code);
    }
    let sock: Duplex;
    try {
      sock = (await exec.start({ hijack: true, stdin: want.stdin, Detach: false, Tty: want.tty })) as unknown as Duplex;
    } catch (e) {
      this.fail(e);
    }
    return hijackedSession(sock, want, {
      resize: want.tty ? (w, h) => exec.resize({ w, h }) : undefined,
      // "InspectExec may not always return latest state of exec": a few tries, 2 s apart, as dockershim.
      exitCode: async () => {
        for (let attempt = 1; ; attempt++) {
          let info: Dockerode.ExecInspectInfo;
          try {
            info = await exec.inspect();
          } catch (e) {
            this.fail(e);
          }
          if (!info.Running) return info.ExitCode ?? 0;
          if (attempt === 5) return 0;
          await new Promise((r) => setTimeout(r, 2000));
        }
      },
    });
  }

  /** dockershim's checkContainerStatus: exec and attach need a running container. */
  private async checkContainerRunning(id: string): Promise<Dockerode.ContainerInspectInfo> {
    let info: Dockerode.ContainerInspectInfo;
    try {
      info = await this.docker.getContainer(id).inspect();
    } catch (e) {
      this.fail(e);
    }
    if (!info.State?.Running) throw new RuntimeError(`container not running (${info.Id})`, 'Other');
    return info;
  }

  /** dockershim's attachContainer: container attach (stream, stdin/stdout/stderr) hijacked, resizes of the container's TTY. */
  async attachStream(id: string, opts: StreamOptions): Promise<StreamSession> {
    const container = this.docker.getContainer(id);
    let tty: boolean;
    let sock: Duplex;
    const info = await this.checkContainerRunning(id);
    try {
      // The output is raw when the CONTAINER has a TTY, whatever the request says.
      tty = Boolean(info.Config?.Tty);
      const want = streamWants({ ...opts, tty });
      sock = (await container.attach({ stream: true, stdin: want.stdin, stdout: want.stdout, stderr: want.stderr, hijack: true })) as unknown as Duplex;
    } catch (e) {
      this.fail(e);
    }
    return hijackedSession(sock, streamWants({ ...opts, tty }), {
      resize: tty ? (w, h) => container.resize({ w, h }) : undefined,
      exitCode: async () => {
        try {
          const info = await container.inspect();
          return info.State?.Running ? -1 : (info.State?.ExitCode ?? -1);
        } catch (e) {
          this.fail(e);
        }
      },
    });
  }

  /**
   * Reads a file of a running or exited container through Docker's archive API. Returns at most
   * the LAST `maxBytes` bytes (like the kubelet's tail.ReadAtMost); null when the file (or the
   * container) does not exist or is not a regular file. Symbolic links are followed.
   */
  async readFile(id: string, path: string, maxBytes: number): Promise<string | null> {
    let current = path;
    for (let hop = 0; hop < 8; hop++) {
      const entry = await this.readArchiveEntry(id, current, maxBytes);
      if (!entry) return null;
      if (entry.type === '2') {
        current = posixPath.resolve(posixPath.dirname(current), entry.linkname);
        continue;
      }
      if (entry.type !== '0' && entry.type !== '\0') return null;
      return entry.content.toString('utf8');
    }
    return null;
  }

  private async readArchiveEntry(id: string, path: string, maxBytes: number) {
    let stream: NodeJS.ReadableStream;
    try {
      stream = await this.docker.getContainer(id).getArchive({ path });
    } catch (e) {
      if (statusCode(e) === 404) return null;
      this.fail(e);
    }
    const reader = new FirstEntryReader(Math.max(0, maxBytes));
    await new Promise<void>((resolve, reject) => {
      const s = stream as Readable;
      s.on('data', (c: Buffer) => {
        reader.push(c);
        if (reader.done) {
          s.destroy();
          resolve();
        }
      });
      s.on('end', () => resolve());
      s.on('close', () => resolve());
      s.on('error', (e) => (reader.done ? resolve() : reject(toRuntimeError(e, this.target))));
    });
    return reader.entry;
  }

  async commitContainer(id: string, repo: string): Promise<string> {
    const { repo: repository, tag } = splitRepoTag(repo);
    try {
      const res = (await this.docker.getContainer(id).commit({ repo: repository, tag, pause: false })) as { Id?: string };
      return res.Id ?? '';
    } catch (e) {
      this.fail(e);
    }
  }

  // ---- images --------------------------------------------------------------------------------

  async imageStatus(image: string): Promise<ImageStatus | null> {
    try {
      const i = await this.docker.getImage(image).inspect();
      return { id: i.Id, size: i.Size, repoTags: i.RepoTags ?? [] };
    } catch (e) {
      if (statusCode(e) === 404) return null;
      this.fail(e);
    }
  }

  async pullImage(image: string, onProgress?: (p: PullProgress) => void): Promise<string> {
    const pullFailed = (msg: string) => new RuntimeError(msg, 'PullFailed');
    let stream: NodeJS.ReadableStream;
    try {
      stream = await this.docker.pull(image);
    } catch (e) {
      const re = toRuntimeError(e, this.target, 'PullFailed');
      throw re.code === 'Unavailable' ? re : pullFailed(re.message);
    }
    const streamError = await new Promise<string | null>((resolve) => {
      let buf = '';
      let error: string | null = null;
      const line = (l: string) => {
        if (!l.trim()) return;
        let obj: PullMessageLike;
        try {
          obj = JSON.parse(l);
        } catch {
          return;
        }
        const r = toPullProgress(image, obj);
        if (!r) return;
        if ('error' in r) {
          error = r.error;
          return;
        }
        try {
          onProgress?.(r.progress);
        } catch {
          /* ignore listener failures */
        }
      };
      stream.on('data', (c: Buffer) => {
        buf += c.toString('utf8');
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          line(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
        }
      });
      const end = () => {
        line(buf);
        buf = '';
        resolve(error);
      };
      stream.on('end', end);
      stream.on('close', end);
      stream.on('error', (e: Error) => {
        error ??= e.message;
        end();
      });
    });
    if (streamError) throw pullFailed(`Error response from daemon: ${streamError}`);
    const st = await this.imageStatus(image);
    if (!st) throw pullFailed(`image "${image}" is not present after the pull`);
    return st.id;
  }

  async removeImage(image: string): Promise<void> {
    try {
      await this.docker.getImage(image).remove({ force: false });
    } catch (e) {
      if (statusCode(e) === 404) return;
      this.fail(e);
    }
  }

  // ---- volumes (lab extension: tmpfs volumes for medium: Memory emptyDirs) -------------------

  async ensureTmpfsVolume(config: TmpfsVolumeConfig): Promise<string> {
    try {
      const existing = await this.docker
        .getVolume(config.name)
        .inspect()
        .catch((e: unknown) => {
          if (statusCode(e) === 404) return null;
          throw e;
        });
      if (!existing) await this.docker.createVolume(tmpfsVolumeCreateOptions(config));
      return config.name;
    } catch (e) {
      this.fail(e, 'CreateFailed', `failed to create volume "${config.name}"`);
    }
  }

  async removeVolume(name: string): Promise<void> {
    try {
      await this.docker.getVolume(name).remove();
    } catch (e) {
      if (statusCode(e) === 404) return;
      this.fail(e, 'Other', `failed to remove volume "${name}"`);
    }
  }

  async listVolumes(labelSelector: Record<string, string>): Promise<RuntimeVolume[]> {
    try {
      const res = await this.docker.listVolumes({ filters: { label: labelFilters(labelSelector, { [ManagedLabel]: 'true' }) } });
      return (res.Volumes ?? []).map((v) => ({ name: v.Name, labels: v.Labels ?? {} }));
    } catch (e) {
      this.fail(e);
    }
  }

  // ---- events --------------------------------------------------------------------------------

  /**
   * Lifecycle events of the lab's containers. One Docker event subscription is shared by all
   * listeners; it starts with the first listener, reconnects (from the last event's time) when
   * the stream drops and ends with the last listener.
   */
  onEvent(listener: (e: RuntimeEvent) => void): Disposable {
    this.listeners.add(listener);
    if (!this.eventStream && !this.eventConnecting && !this.eventTimer && !this.closed) {
      this.eventSince = Date.now() / 1000;
      this.eventsConnected = new Promise((r) => (this.resolveEventsConnected = r));
      void this.connectEvents();
    }
    return {
      dispose: () => {
        this.listeners.delete(listener);
        if (this.listeners.size === 0) this.stopEvents();
      },
    };
  }

  /** Resolves once the event subscription is established (for callers that must not miss the first event). */
  whenEventsConnected(): Promise<void> {
    return this.eventsConnected ?? Promise.resolve();
  }

  private async connectEvents(): Promise<void> {
    this.eventConnecting = true;
    let stream: Readable;
    try {
      stream = (await this.docker.getEvents({
        since: Number(this.eventSince.toFixed(3)),
        filters: { type: ['container'], label: [`${ManagedLabel}=true`] },
      })) as unknown as Readable;
    } catch {
      this.eventConnecting = false;
      this.scheduleReconnect();
      return;
    }
    this.eventConnecting = false;
    if (this.closed || this.listeners.size === 0) {
      stream.destroy();
      return;
    }
    this.eventStream = stream;
    this.forgetKept();
    this.reconnectDelay = 250;
    this.resolveEventsConnected?.();
    let buf = '';
    stream.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const l = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (l) this.dispatchRaw(l);
      }
    });
    const dropped = () => {
      if (this.eventStream !== stream) return;
      this.eventStream = null;
      this.forgetKept();
      this.scheduleReconnect();
    };
    stream.on('end', dropped);
    stream.on('close', dropped);
    stream.on('error', dropped);
  }

  private scheduleReconnect(): void {
    if (this.closed || this.listeners.size === 0 || this.eventTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, 5000);
    this.eventTimer = setTimeout(() => {
      this.eventTimer = null;
      if (this.closed || this.listeners.size === 0) return;
      void this.connectEvents();
    }, delay);
  }

  private dispatchRaw(line: string): void {
    let raw: DockerEventLike;
    try {
      raw = JSON.parse(line);
    } catch {
      return;
    }
    // After a reconnection Docker replays from `since`: drop what was already delivered.
    const nano = raw.timeNano ?? (raw.time ?? 0) * 1e9;
    const id = raw.Actor?.ID ?? raw.id;
    const action = raw.Action ?? raw.status;
    const key = `${id}/${action}`;
    if (nano < this.lastEventNano) return;
    if (nano === this.lastEventNano) {
      if (this.lastEventKeys.has(key)) return;
    } else {
      this.lastEventNano = nano;
      this.lastEventKeys.clear();
    }
    this.lastEventKeys.add(key);
    this.eventSince = nano / 1e9;
    // Whatever happened to a container (an exit, a kill or start by hand, a removal) makes its kept
    // inspection stale; its exec sessions (probes, hooks), file copies (a termination message read)
    // and attaches do not change it.
    if (id && !inspectionUnchangedBy(String(action ?? ''))) {
      this.kept.delete(id);
      const mark = this.inspecting.get(id);
      if (mark) mark.touched = true;
    }
    const ev = toRuntimeEvent(raw);
    if (!ev) return;
    for (const l of [...this.listeners]) {
      try {
        l(ev);
      } catch {
        /* one listener's failure must not starve the others */
      }
    }
  }

  private stopEvents(): void {
    if (this.eventTimer) clearTimeout(this.eventTimer);
    this.eventTimer = null;
    const s = this.eventStream;
    this.eventStream = null;
    this.forgetKept();
    s?.destroy();
    this.eventsConnected = null;
  }

  close(): void {
    this.closed = true;
    this.listeners.clear();
    this.stopEvents();
  }
}

/**
 * Creates the runtime and checks that Docker answers. When it does not, throws a RuntimeError
 * 'Unavailable' with one line saying what to do (never a stack trace).
 */
export async function connectDocker(opts: DockerRuntimeOptions = {}): Promise<DockerRuntime> {
  const rt = new DockerRuntime(opts);
  try {
    // dockerode accepts an abort signal here; its typings do not say so.
    const docker = rt.docker as unknown as { ping(o: { abortSignal: AbortSignal }): Promise<unknown> };
    await docker.ping({ abortSignal: AbortSignal.timeout(5000) });
  } catch (e) {
    rt.close();
    throw new RuntimeError(unavailableMessage(rt.target, e), 'Unavailable');
  }
  return rt;
}

/** The time of a log entry read with timestamps (`2026-11-24T12:08:06.996286403Z text`), in nanoseconds; undefined for a line without one. */
function entryNanos(line: string): bigint | undefined {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z /.exec(line);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(ms)) return undefined;
  return BigInt(ms) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}
