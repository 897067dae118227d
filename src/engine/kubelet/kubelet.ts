// The embedded kubelet: one worker per pod bound to a lab node. Each sync reads the pod's
// runtime state, asks the pure computePodActions what to do, and carries the actions out in the
// numbered steps of SyncPod through the runtime seam; then it writes the generated status.
// Syncs are triggered by the runtime's event stream (PLEG), by timers (back-off expiry) and by a
// slow relist; never by tight polling.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Container, Pod, PodStatus } from 'kubernetes-types/core/v1';
import type { ContainerStatus as CriContainerStatus, Disposable, PodSandboxConfig, PullProgress, RuntimeService } from '../../runtime/cri.js';
import type { EngineSettings, PodDebugInfo } from '../api.js';
import type { Store } from '../store.js';
import type { EventRecorder } from '../events.js';
import { containerFieldPath, formatPod, podRef } from '../events.js';
import type { Clock, Timer } from '../clock.js';
import { Backoff, goDuration } from './backoff.js';
import { computePodActions, isRestartableInit, type PodActions } from './actions.js';
import { ContainerConfigError, generateContainerConfig } from './container-config.js';
import { ensureImageExists } from './images.js';
import { generatePodStatus } from './status.js';
import { hashContainer } from './hash.js';
import * as L from '../../shared/labels.js';
import { toKContainerStatus, type KContainerStatus, type RuntimePodStatus, type StartFailure } from './types.js';

const MIN_GRACE_SECONDS = 2;
/** The virtual node's address: host ports are published on the Docker host, reachable at loopback. */
export const NODE_IP = '127.0.0.1';
/** backOffPeriod: how soon a sync that failed for another reason (e.g. sandbox creation) is retried. */
const SYNC_ERROR_RETRY_MS = 10_000;
const MAX_TERMINATION_MESSAGE = 4096;
const RETRY_LATER = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError']);

export interface KubeletDeps {
  runtime: RuntimeService;
  store: Store;
  recorder: EventRecorder;
  clock: Clock;
  settings: EngineSettings;
  log: (line: string) => void;
  onPullProgress: (p: PullProgress & { pod: string }) => void;
  /** Whether this engine may act on the pod (another live process may own it). */
  owns: (uid: string) => boolean;
  /** Step mode: the worker holds `container` of pod `key` (namespace/name) until continueStep. */
  onStepWaiting?: (key: string, container: string) => void;
}

const podKey = (p: Pod) => `${p.metadata?.namespace ?? 'default'}/${p.metadata?.name}`;
const isTerminalPhase = (p?: PodStatus) => p?.phase === 'Succeeded' || p?.phase === 'Failed';

export function podDir(stateDir: string, uid: string): string {
  return join(stateDir, 'pods', uid);
}


export function sandboxConfigFor(pod: Pod, attempt: number, lab: string): PodSandboxConfig {
  const md = pod.metadata ?? {};
  const spec = pod.spec!;
  const ports = [...(spec.initContainers ?? []), ...spec.containers].flatMap((c) =>
    (c.ports ?? [])
      .filter((p) => p.hostPort)
      .map((p) => ({ protocol: (p.protocol ?? 'TCP') as 'TCP' | 'UDP' | 'SCTP', containerPort: p.containerPort, hostPort: p.hostPort!, hostIp: p.hostIP })),
  );
  const { status: _status, ...manifest } = pod;
  return {
    metadata: { name: md.name ?? '', namespace: md.namespace ?? 'default', uid: md.uid ?? '', attempt },
    hostname: (spec.hostname ?? md.name ?? '').slice(0, 63),
    labels: { ...(md.labels ?? {}), [L.PodNameLabel]: md.name ?? '', [L.PodNamespaceLabel]: md.namespace ?? 'default', [L.PodUIDLabel]: md.uid ?? '', [L.ManagedLabel]: 'true', [L.LabLabel]: lab },
    annotations: { ...(md.annotations ?? {}) },
    portMappings: ports,
    hostNetwork: !!spec.hostNetwork,
    hostIPC: !!spec.hostIPC,
    hostPID: !!spec.hostPID,
    podManifest: JSON.stringify(manifest),
  };
}

/** Reads the runtime's view of one pod: sandboxes and every container instance, newest first. */
export async function readRuntimePod(rt: RuntimeService, pod: Pod, extra: (c: CriContainerStatus) => Promise<string>): Promise<RuntimePodStatus> {
  const uid = pod.metadata?.uid ?? '';
  const [sandboxes, containers] = await Promise.all([
    rt.listPodSandbox({ labelSelector: { [L.PodUIDLabel]: uid } }),
    rt.listContainers({ labelSelector: { [L.PodUIDLabel]: uid } }),
  ]);
  sandboxes.sort((a, b) => b.metadata.attempt - a.metadata.attempt || b.createdAt - a.createdAt);
  const ks: KContainerStatus[] = [];
  for (const c of containers) {
    const k = toKContainerStatus(c);
    if (k.state === 'exited') k.message = await extra(c);
    ks.push(k);
  }
  ks.sort((a, b) => b.createdAt - a.createdAt || b.restartCount - a.restartCount);
  return { uid, name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? 'default', sandboxes, containers: ks };
}

export class Kubelet implements Disposable {
  readonly crashBackoff: Backoff;
  /** imageBackOffPeriod 10 s, MaxImageBackOff 300 s; the last error is appended to ImagePullBackOff (v1.32+). */
  readonly pulls = { backoff: new Backoff(10_000, 300_000), lastError: new Map<string, string>() };
  private readonly workers = new Map<string, PodWorker>();
  private readonly subs: Disposable[] = [];
  private relistTimer?: Timer;
  private closed = false;
  /** Termination messages of exited instances never change: read once. */
  readonly messageCache = new Map<string, string>();

  constructor(readonly deps: KubeletDeps) {
    this.crashBackoff = new Backoff(deps.settings.backoffInitialMs, deps.settings.backoffMaxMs);
    this.subs.push(
      deps.store.watch((e) => {
        if (e.kind !== 'Pod') return;
        const uid = e.object.metadata?.uid ?? '';
        if (e.type === 'DELETED') {
          this.workers.get(uid)?.dispose();
          this.workers.delete(uid);
          return;
        }
        if (!e.object.spec?.nodeName || !deps.owns(uid)) return;
        // Our own status writes come back here: only new pods and deletions need a sync.
        const known = this.workers.has(uid);
        if (!known || e.object.metadata?.deletionTimestamp) this.worker(e.object).trigger();
      }),
      deps.runtime.onEvent((e) => {
        if (e.podUid) this.workers.get(e.podUid)?.trigger();
      }),
    );
    for (const p of deps.store.list('Pod')) if (p.spec?.nodeName && deps.owns(p.metadata?.uid ?? '')) this.worker(p).trigger();
    this.scheduleRelist();
  }

  private worker(pod: Pod): PodWorker {
    const uid = pod.metadata?.uid ?? '';
    let w = this.workers.get(uid);
    if (!w) {
      w = new PodWorker(this, podKey(pod), uid);
      this.workers.set(uid, w);
    }
    return w;
  }

  workerFor(uid: string): PodWorker | undefined {
    return this.workers.get(uid);
  }

  private scheduleRelist(): void {
    if (this.closed) return;
    this.relistTimer = this.deps.clock.setTimeout(() => {
      for (const w of this.workers.values()) w.trigger();
      this.scheduleRelist();
    }, this.deps.settings.relistIntervalMs);
  }

  /** Resolves when every worker is idle (tests and the CLI's clean exit). */
  async idle(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.idle()));
  }

  dispose(): void {
    this.closed = true;
    this.relistTimer?.cancel();
    for (const s of this.subs) s.dispose();
    for (const w of this.workers.values()) w.dispose();
    this.workers.clear();
  }
}

/** A pod's worker: serialised syncs, one at a time, with coalesced triggers. */
export class PodWorker implements Disposable {
  private running?: Promise<void>;
  private again = false;
  private disposed = false;
  private wake?: Timer;
  private wakeAt = Infinity;
  private readonly reasons = new Map<string, StartFailure>();
  /** Step mode: init container name → approved to start (per attempt). */
  private readonly approved = new Set<string>();
  private stepWaiting?: string;
  private readonly skipBackoff = new Set<string>();
  private readonly failedAt = new Map<string, number>();
  private finished = false;
  stepMode?: boolean;

  constructor(
    private readonly k: Kubelet,
    readonly key: string,
    readonly uid: string,
  ) {}

  private get d(): KubeletDeps {
    return this.k.deps;
  }

  private pod(): Pod | undefined {
    const [ns, name] = this.key.split('/') as [string, string];
    return this.d.store.get('Pod', ns, name);
  }

  trigger(): void {
    if (this.disposed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.sync();
        } catch (e) {
          this.d.log(`sync of ${this.key} failed: ${(e as Error).message}`);
          this.wakeIn(SYNC_ERROR_RETRY_MS);
        }
      } while (this.again && !this.disposed);
      this.running = undefined;
    })();
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private wakeIn(ms: number): void {
    const at = this.d.clock.now() + ms;
    if (this.wake && at >= this.wakeAt) return;
    this.wake?.cancel();
    this.wakeAt = at;
    this.wake = this.d.clock.setTimeout(() => {
      this.wake = undefined;
      this.wakeAt = Infinity;
      this.trigger();
    }, ms);
  }

  continueStep(): void {
    if (this.stepWaiting) this.approved.add(this.stepWaiting);
    this.trigger();
  }

  restartNow(container: string): void {
    this.skipBackoff.add(container);
    this.failedAt.delete(container);
    this.trigger();
  }

  private event(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string, container?: string): void {
    const ref = podRef(pod, container ? containerFieldPath(pod, container) : undefined);
    this.d.recorder.record(ref, type, reason, message, { component: 'kubelet', host: pod.spec?.nodeName });
  }

  private paths(pod: Pod) {
    return podDir(this.d.settings.stateDir, pod.metadata?.uid ?? '');
  }

  /** Termination message: the file (≤4096 B), or with FallbackToLogsOnError the log tail. */
  private async terminationMessage(c: CriContainerStatus): Promise<string> {
    const cached = this.k.messageCache.get(c.id);
    if (cached !== undefined) return cached;
    let msg = '';
    const hostFile = c.annotations[L.TerminationMessageHostPathAnnotation];
    if (hostFile && existsSync(hostFile)) {
      try {
        msg = readFileSync(hostFile).subarray(0, MAX_TERMINATION_MESSAGE).toString('utf8');
      } catch {
        msg = '';
      }
    }
    const policy = c.annotations[L.ContainerTerminationMessagePolicyAnnotation];
    if (!msg && policy === 'FallbackToLogsOnError' && c.exitCode !== 0 && c.reason !== 'ContainerCannotRun') {
      const lines = await this.d.runtime.containerLogs(c.id, { tail: 80 }).catch(() => [] as string[]);
      msg = lines.join('\n');
      if (msg.length > 2048) msg = msg.slice(msg.length - 2048);
    }
    const full = c.message ? (msg ? `${c.message}: ${msg}` : c.message) : msg;
    this.k.messageCache.set(c.id, full);
    return full;
  }

  async runtimeStatus(pod: Pod): Promise<RuntimePodStatus> {
    return readRuntimePod(this.d.runtime, pod, (c) => this.terminationMessage(c));
  }

  private async sync(): Promise<void> {
    const pod = this.pod();
    if (!pod || this.disposed || !this.d.owns(this.uid)) return;
    if (pod.metadata?.deletionTimestamp) return this.terminate(pod);
    const rs = await this.runtimeStatus(pod);
    if (this.finished || isTerminalPhase(pod.status)) {
      // A finished pod: make sure its sandbox is stopped, keep the status current, do nothing else.
      await this.stopSandboxes(rs);
      this.finished = true;
      await this.writeStatus(pod, await this.runtimeStatus(pod), true);
      return;
    }
    const actions = computePodActions(pod, rs);
    await this.execute(pod, rs, actions);
    const after = await this.runtimeStatus(pod);
    await this.writeStatus(pod, after, false);
  }

  private async stopSandboxes(rs: RuntimePodStatus): Promise<void> {
    for (const sb of rs.sandboxes) if (sb.state === 'SANDBOX_READY') await this.d.runtime.stopPodSandbox(sb.id, 10);
  }

  /** SyncPod: carry the decided actions out, step by step. */
  private async execute(pod: Pod, rs: RuntimePodStatus, a: PodActions): Promise<void> {
    const rt = this.d.runtime;
    // Step 2: a sandbox that changed is announced.
    if (a.createSandbox && a.sandboxId) this.event(pod, 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');

    // Step 3: kill the pod, or the containers the decision named.
    if (a.killPod) {
      await this.killRunning(pod, rs, pod.spec?.terminationGracePeriodSeconds ?? 30);
      await this.stopSandboxes(rs);
      if (a.createSandbox) {
        // Init containers run again in a new sandbox: remove the old instances.
        const inits = new Set((pod.spec?.initContainers ?? []).map((c) => c.name));
        for (const c of rs.containers) if (inits.has(c.name)) await rt.removeContainer(c.id).catch(() => undefined);
      } else {
        // killPod without a new sandbox: the pod is done (Never, or OnFailure with every container succeeded).
        this.finished = true;
        return;
      }
    } else {
      await Promise.all(
        [...a.containersToKill].map(async ([id, info]) => {
          this.event(pod, 'Normal', 'Killing', info.message, info.name);
          await rt.stopContainer(id, Math.max(pod.spec?.terminationGracePeriodSeconds ?? 30, MIN_GRACE_SECONDS));
        }),
      );
    }

    // Step 4: keep at most the current and the previous instance of each container.
    await this.pruneOldInstances(rs);

    // Step 5: the sandbox.
    let sandboxId = a.sandboxId;
    let podIP = rs.sandboxes[0]?.ip ?? '';
    const sbConfig = sandboxConfigFor(pod, a.attempt, this.d.settings.stateDir);
    if (a.createSandbox) {
      try {
        mkdirSync(this.paths(pod), { recursive: true });
        sandboxId = await rt.runPodSandbox(sbConfig, this.d.settings.sandboxImage);
        podIP = (await rt.podSandboxStatus(sandboxId))?.ip ?? '';
        this.reasons.delete('');
      } catch (e) {
        const msg = `Failed to create pod sandbox: ${(e as Error).message}`;
        this.event(pod, 'Warning', 'FailedCreatePodSandBox', msg);
        this.d.log(`${this.key}: ${msg}`);
        this.wakeIn(SYNC_ERROR_RETRY_MS);
        return;
      }
    }
    const facts = { podIP, hostIP: NODE_IP, nodeName: pod.spec?.nodeName ?? '' };
    const inits = pod.spec?.initContainers ?? [];
    const current = a.createSandbox ? { ...rs, containers: rs.containers.filter((c) => !inits.some((i) => i.name === c.name)) } : rs;

    // Step 6: init containers, strictly in order; a regular init container's failure ends the sync.
    for (const i of a.initContainersToStart) {
      const c = inits[i]!;
      if (this.stepHold(pod, c)) return;
      const ok = await this.startContainer(pod, c, current, sandboxId, sbConfig, facts);
      if (!ok && !isRestartableInit(c)) return;
    }
    // Step 7: app containers in spec order.
    for (const i of a.containersToStart) {
      await this.startContainer(pod, pod.spec!.containers[i]!, current, sandboxId, sbConfig, facts);
    }
  }

  /** Step mode (a Pod Lab feature): hold each init container until the user says Continue. */
  private stepHold(pod: Pod, c: Container): boolean {
    const on = this.stepMode ?? this.d.settings.stepMode;
    if (!on || isRestartableInit(c)) return false;
    if (this.approved.has(c.name)) {
      this.approved.delete(c.name);
      this.stepWaiting = undefined;
      return false;
    }
    if (this.stepWaiting !== c.name) {
      this.stepWaiting = c.name;
      this.d.log(`${this.key}: step mode: waiting for Continue before starting init container ${c.name}`);
      this.d.onStepWaiting?.(this.key, c.name);
    }
    return true;
  }

  /**
   * Container GC: the runtime keeps the current and the previous instance of each container
   * (lastState, `logs --previous`). Older attempts are archived first — their exit and their log
   * tail — so the lab can still show every attempt of a failing init container.
   */
  private async pruneOldInstances(rs: RuntimePodStatus): Promise<void> {
    const seen = new Map<string, number>();
    for (const c of rs.containers) {
      const n = (seen.get(c.name) ?? 0) + 1;
      seen.set(c.name, n);
      if (n <= 2 || c.state !== 'exited') continue;
      const logs = await this.d.runtime.containerLogs(c.id, { tail: ARCHIVED_LOG_LINES }).catch(() => [] as string[]);
      archiveAttempt(this.d.settings.stateDir, rs.uid, c, logs);
      await this.d.runtime.removeContainer(c.id).catch(() => undefined);
      this.k.messageCache.delete(c.id);
    }
  }

  /** doBackOff: is this container still in its crash-loop back-off? */
  private inBackOff(pod: Pod, c: Container, rs: RuntimePodStatus): boolean {
    const last = rs.containers.find((x) => x.name === c.name && x.state === 'exited');
    if (!last) return false;
    const key = `${pod.metadata?.name}_${pod.metadata?.namespace}_${pod.metadata?.uid}_${c.name}_${hashContainer(c)}`;
    const now = this.d.clock.now();
    const bo = this.k.crashBackoff;
    if (this.skipBackoff.delete(c.name)) {
      bo.next(key, last.finishedAt);
      return false;
    }
    if (bo.isInBackOffSince(key, last.finishedAt, now)) {
      const delay = bo.get(key);
      this.event(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${formatPod(pod)}`, c.name);
      this.reasons.set(c.name, {
        reason: 'CrashLoopBackOff',
        message: `back-off ${goDuration(delay)} restarting failed container=${c.name} pod=${formatPod(pod)}`,
      });
      this.wakeIn(last.finishedAt + delay - now + 5);
      return true;
    }
    bo.next(key, last.finishedAt);
    return false;
  }

  /** startContainer: back-off, image, config, create, start — with the kubelet's events and reasons. */
  private async startContainer(
    pod: Pod,
    c: Container,
    rs: RuntimePodStatus,
    sandboxId: string,
    sbConfig: PodSandboxConfig,
    facts: { podIP: string; hostIP: string; nodeName: string },
  ): Promise<boolean> {
    const rt = this.d.runtime;
    const fail = (reason: string, message: string, event?: string) => {
      this.reasons.set(c.name, { reason, message });
      if (event !== undefined) this.event(pod, 'Warning', 'Failed', `Error: ${event}`, c.name);
      if (RETRY_LATER.has(reason)) {
        this.failedAt.set(c.name, this.d.clock.now());
        this.wakeIn(SYNC_ERROR_RETRY_MS);
      }
      return false;
    };
    // A create/start error is retried by a later sync (the pod worker's error back-off), not at once.
    const failedAt = this.failedAt.get(c.name);
    if (failedAt !== undefined && this.d.clock.now() - failedAt < SYNC_ERROR_RETRY_MS) return false;
    this.failedAt.delete(c.name);
    if (this.inBackOff(pod, c, rs)) return false;

    const img = await ensureImageExists(
      rt,
      pod,
      c,
      this.k.pulls,
      () => this.d.clock.now(),
      {
        normal: (r, m) => this.event(pod, 'Normal', r, m, c.name),
        warning: (r, m) => this.event(pod, 'Warning', r, m, c.name),
      },
      (p) => this.d.onPullProgress({ ...p, pod: this.key }),
    );
    if ('failure' in img) {
      const entry = this.k.pulls.backoff.entry(`${pod.metadata?.uid}_${c.image}`);
      if (entry) this.wakeIn(Math.max(0, entry.lastUpdate + entry.backoffMs - this.d.clock.now()) + 5);
      return fail(img.failure.reason, img.failure.message, img.failure.reason);
    }

    const prev = rs.containers.find((x) => x.name === c.name);
    const restartCount = prev ? prev.restartCount + 1 : 0;
    let id: string;
    try {
      const dir = join(this.paths(pod), 'containers', c.name);
      mkdirSync(dir, { recursive: true });
      const msgFile = join(dir, randomBytes(4).toString('hex'));
      writeFileSync(msgFile, '', { mode: 0o666 });
      const config = generateContainerConfig(pod, c, restartCount, facts, {
        emptyDir: (v) => {
          const p = join(this.paths(pod), 'volumes', 'kubernetes.io~empty-dir', v);
          mkdirSync(p, { recursive: true, mode: 0o777 });
          return p;
        },
        terminationMessageFile: msgFile,
      });
      id = await rt.createContainer(sandboxId, config, sbConfig);
    } catch (e) {
      const msg = (e as Error).message;
      if (e instanceof ContainerConfigError) return fail('CreateContainerConfigError', msg, msg);
      return fail('CreateContainerError', msg, msg);
    }
    this.event(pod, 'Normal', 'Created', `Created container: ${c.name}`, c.name);
    try {
      await rt.startContainer(id);
    } catch (e) {
      const msg = (e as Error).message;
      return fail('RunContainerError', msg, msg);
    }
    this.event(pod, 'Normal', 'Started', `Started container ${c.name}`, c.name);
    this.reasons.delete(c.name);
    return true;
  }

  /** Kills every running container in parallel: Killing, then stop with max(grace, 2) s. Sidecars go last, in reverse order. */
  private async killRunning(pod: Pod, rs: RuntimePodStatus, grace: number): Promise<void> {
    const seconds = Math.max(grace, MIN_GRACE_SECONDS);
    const running = rs.containers.filter((c) => c.state === 'running' || c.state === 'created');
    const sidecars = (pod.spec?.initContainers ?? []).filter(isRestartableInit).map((c) => c.name);
    const stop = async (c: KContainerStatus) => {
      this.event(pod, 'Normal', 'Killing', `Stopping container ${c.name}`, c.name);
      await this.d.runtime.stopContainer(c.id, seconds).catch((e) => this.d.log(`stop ${c.name}: ${(e as Error).message}`));
    };
    await Promise.all(running.filter((c) => !sidecars.includes(c.name)).map(stop));
    for (const name of [...sidecars].reverse()) {
      const c = running.find((x) => x.name === name);
      if (c) await stop(c);
    }
  }

  /** Graceful deletion: kill containers, stop the sandbox, report the final phase, remove everything, drop the pod. */
  private async terminate(pod: Pod): Promise<void> {
    const grace = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    const rs = await this.runtimeStatus(pod);
    await this.killRunning(pod, rs, grace);
    await this.stopSandboxes(rs);
    const after = await this.runtimeStatus(pod);
    await this.writeStatus(pod, after, true);
    await removePodFromRuntime(this.d.runtime, after);
    for (const c of after.containers) this.k.messageCache.delete(c.id);
    rmSync(this.paths(pod), { recursive: true, force: true });
    const [ns, name] = this.key.split('/') as [string, string];
    this.d.store.delete('Pod', ns, name);
  }

  private async writeStatus(pod: Pod, rs: RuntimePodStatus, podIsTerminal: boolean): Promise<void> {
    const fresh = this.pod();
    if (!fresh) return;
    const status = generatePodStatus({ pod: fresh, runtime: rs, reasonCache: this.reasons, podIsTerminal, now: this.d.clock.now(), hostIP: NODE_IP });
    if (JSON.stringify(status) === JSON.stringify(fresh.status)) return;
    const [ns, name] = this.key.split('/') as [string, string];
    this.d.store.update('Pod', ns, name, (p) => {
      p.status = status;
    });
  }

  debugState(): Pick<PodDebugInfo, 'backoff' | 'stepWaitingFor'> {
    const pod = this.pod();
    const backoff: PodDebugInfo['backoff'] = {};
    if (pod) {
      for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
        const key = `${pod.metadata?.name}_${pod.metadata?.namespace}_${pod.metadata?.uid}_${c.name}_${hashContainer(c)}`;
        const e = this.k.crashBackoff.entry(key);
        if (e && this.reasons.get(c.name)?.reason === 'CrashLoopBackOff') backoff[c.name] = { until: this.wakeAt, delayMs: e.backoffMs };
      }
    }
    return { backoff, stepWaitingFor: this.stepWaiting };
  }

  dispose(): void {
    this.disposed = true;
    this.wake?.cancel();
  }
}

const ARCHIVED_LOG_LINES = 200;

export interface ArchivedAttempt {
  id: string;
  name: string;
  restartCount: number;
  exitCode: number;
  reason: string;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  logs: string[];
}

function archiveAttempt(stateDir: string, uid: string, c: KContainerStatus, logs: string[]): void {
  const dir = join(podDir(stateDir, uid), 'attempts');
  mkdirSync(dir, { recursive: true });
  const a: ArchivedAttempt = { id: c.id, name: c.name, restartCount: c.restartCount, exitCode: c.exitCode, reason: c.reason, createdAt: c.createdAt, startedAt: c.startedAt, finishedAt: c.finishedAt, logs };
  writeFileSync(join(dir, `${c.id}.json`), JSON.stringify(a));
}

/** Attempts removed from the runtime by the container GC, oldest first. */
export function readArchivedAttempts(stateDir: string, uid: string): ArchivedAttempt[] {
  const dir = join(podDir(stateDir, uid), 'attempts');
  if (!existsSync(dir)) return [];
  const out: ArchivedAttempt[] = [];
  for (const f of readdirSync(dir)) {
    try {
      out.push(JSON.parse(readFileSync(join(dir, f), 'utf8')) as ArchivedAttempt);
    } catch {
      // a half-written archive: skip it
    }
  }
  return out.sort((a, b) => a.createdAt - b.createdAt);
}

export async function removePodFromRuntime(rt: RuntimeService, rs: RuntimePodStatus): Promise<void> {
  for (const c of rs.containers) await rt.removeContainer(c.id).catch(() => undefined);
  for (const sb of rs.sandboxes) await rt.removePodSandbox(sb.id).catch(() => undefined);
}
