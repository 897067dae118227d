// Pod workers (upstream pkg/kubelet/pod_workers.go, with kubelet.go SyncPod /
// SyncTerminatingPod / SyncTerminatedPod): one worker per pod, syncs serialised and coalesced.
// A sync reads the runtime, decides (computePodActions), executes (SyncPod) and writes the
// generated status. A pod that is deleted, past its active deadline or finished is terminated:
// its containers killed with the pod's grace period, its sandbox stopped.
import { existsSync, rmSync } from 'node:fs';
import type { Container, Pod, PodStatus } from 'kubernetes-types/core/v1';
import type { ContainerStatus as CriContainerStatus, Disposable } from '../../runtime/cri.js';
import type { PodDebugInfo, StepWait } from '../api.js';
import { podRef } from '../events.js';
import { EarliestTimer } from '../clock.js';
import * as L from '../../shared/labels.js';
import { computePodActions, isRestartableInit } from './actions.js';
import { DeadlineExceededMessage, DeadlineExceededReason, pastActiveDeadline, untilActiveDeadline } from './active-deadline.js';
import { backoffKey, killContainersInPod } from './container-lifecycle.js';
import { kubeletFieldPath } from './ephemeral.js';
import type { KubeletShared, PodSyncContext } from './context.js';
import { readRuntimePod, removePodFromRuntime } from './runtime-status.js';
import { podDir } from './sandbox.js';
import { generatePodStatus } from './status.js';
import { resyncIntervalMs, syncPod, type SyncPodState } from './sync-pod.js';
import { capTerminationMessages, MaxContainerTerminationMessageLength, readAtMost, terminationMessage } from './termination-message.js';
import type { RuntimePodStatus, StartFailure } from './types.js';

const SYNC_ERROR_RETRY_MS = 10_000;
/** How many of step mode's waits a pod keeps (a pod re-run in a new sandbox is held again). */
const MAX_STEP_WAITS = 50;
const isTerminalPhase = (p?: PodStatus) => p?.phase === 'Succeeded' || p?.phase === 'Failed';

export class PodWorker implements Disposable, SyncPodState {
  private running?: Promise<void>;
  private again = false;
  private disposed = false;
  private readonly wake: EarliestTimer;
  private readonly reasons = new Map<string, StartFailure>();
  /** Step mode: init container name → approved to start (per attempt). */
  private readonly approved = new Set<string>();
  private stepWaiting?: string;
  /** Step mode's waits, oldest first (bounded): the panel draws them after the pod went on. */
  private readonly stepWaits: StepWait[] = [];
  /** debugState() after the last sync, as JSON. */
  private lastDebugState = '';
  readonly skipBackoff = new Set<string>();
  readonly failedAt = new Map<string, number>();
  sandboxRetryAt = 0;
  periodicSync = false;
  dnsRecordedAt = Number.NEGATIVE_INFINITY;
  /** When the mounted ConfigMap, Secret and downward API payloads were last refreshed. */
  private volumesRefreshedAt = Number.NEGATIVE_INFINITY;
  /** What asked for a sync since the last one began: the relist, and anything else. */
  private asked = { relist: false, other: false };
  /** The kubelet decided the pod is done (killPod without a new sandbox, or a terminal phase). */
  private finished = false;
  /** A status the kubelet forces over getPhase (activeDeadlineSeconds). */
  private override?: { phase: 'Failed'; reason: string; message: string };
  stepMode?: boolean;
  /** Set when the worker removed the pod from the store itself (graceful deletion done). */
  terminated = false;
  /** The pod's last object, when it left the store before the kubelet finished it (HandlePodRemoves). */
  private removed?: Pod;
  /** While terminate() kills the containers: the grace it kills with, the kill under way and its cancellation (see shortenGrace). */
  private killing?: { grace: number; abort: AbortController; pass?: Promise<void> };

  constructor(
    private readonly k: KubeletShared,
    readonly key: string,
    readonly uid: string,
  ) {
    this.wake = new EarliestTimer(this.d.clock, () => this.trigger());
  }

  private get d() {
    return this.k.deps;
  }

  private pod(): Pod | undefined {
    const [ns, name] = this.key.split('/') as [string, string];
    const pod = this.d.store.get('Pod', ns, name);
    // A pod of the same name created after this one was removed is another worker's.
    return pod && pod.metadata?.uid !== this.uid ? undefined : pod;
  }

  /** `relist`: the kubelet's periodic relist asks (see SyncPodState.periodicSync). */
  trigger(by: 'relist' | 'event' = 'event'): void {
    if (this.disposed) return;
    if (by === 'relist') this.asked.relist = true;
    else this.asked.other = true;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        this.periodicSync = this.asked.relist && !this.asked.other;
        this.asked = { relist: false, other: false };
        try {
          await this.sync();
        } catch (e) {
          this.d.log(`sync of ${this.key} failed: ${(e as Error).message}`);
          this.wakeIn(SYNC_ERROR_RETRY_MS);
        }
        this.noteDebugState();
      } while (this.again && !this.disposed);
      this.running = undefined;
    })();
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  wakeIn(ms: number): void {
    this.wake.arm(this.d.clock.now() + ms);
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

  halted(): boolean {
    return this.disposed;
  }

  /** Step mode (a Pod Lab feature): hold each init container until the user says Continue. */
  stepHold(c: Container): boolean {
    const on = this.stepMode ?? this.d.settings.stepMode;
    if (!on || isRestartableInit(c)) return false;
    if (this.approved.has(c.name)) {
      this.approved.delete(c.name);
      this.stepWaiting = undefined;
      const open = [...this.stepWaits].reverse().find((w) => w.container === c.name && w.until === undefined);
      if (open) open.until = this.d.clock.now();
      return false;
    }
    if (this.stepWaiting !== c.name) {
      this.stepWaiting = c.name;
      this.stepWaits.push({ container: c.name, from: this.d.clock.now() });
      if (this.stepWaits.length > MAX_STEP_WAITS) this.stepWaits.shift();
      this.d.log(`${this.key}: step mode: waiting for Continue before starting init container ${c.name}`);
      this.d.onStepWaiting?.(this.key, c.name);
    }
    return true;
  }

  private context(pod: Pod): PodSyncContext {
    return {
      k: this.k,
      pod,
      key: this.key,
      reasons: this.reasons,
      event: (type, reason, message, container) => {
        const ref = podRef(pod, container ? kubeletFieldPath(pod, container) : undefined);
        this.d.recorder.record(ref, type, reason, message, { component: 'kubelet', host: pod.spec?.nodeName });
      },
      wakeIn: (ms) => this.wakeIn(ms),
      refreshStatus: async () => {
        const fresh = this.pod();
        if (fresh) await this.writeStatus(await this.runtimeStatus(fresh), false);
      },
    };
  }

  /** Termination message of an exited instance: the file's last 4096 bytes, or the log fallback. Read once. */
  private async terminationMessage(c: CriContainerStatus): Promise<string> {
    const cached = this.k.messageCache.get(c.id);
    if (cached !== undefined) return cached;
    const hostFile = c.annotations[L.TerminationMessageHostPathAnnotation];
    let file: { text: string } | { error: string } | undefined;
    if (hostFile && existsSync(hostFile)) {
      try {
        file = { text: readAtMost(hostFile, MaxContainerTerminationMessageLength).toString('utf8') };
      } catch (e) {
        file = { error: (e as Error).message };
      }
    }
    const msg = await terminationMessage(
      {
        policy: c.annotations[L.ContainerTerminationMessagePolicyAnnotation] ?? 'File',
        exitCode: c.exitCode,
        reason: c.reason,
        runtimeMessage: c.message,
        file,
        logs: () =>
          this.d.runtime.containerLogs(c.id, { tail: 80 }).then(
            (lines) => ({ lines }),
            (e: Error) => ({ error: e.message }),
          ),
      },
      c.annotations[L.ContainerTerminationMessagePathAnnotation] ?? '',
    );
    this.k.messageCache.set(c.id, msg);
    return msg;
  }

  async runtimeStatus(pod: Pod): Promise<RuntimePodStatus> {
    return readRuntimePod(this.d.runtime, pod, (c) => this.terminationMessage(c));
  }

  /**
   * HandlePodRemoves: the pod left the API before the kubelet finished it (a forced deletion):
   * kill its containers with the pod's grace and remove them. Resolves when done.
   */
  async killRemoved(pod: Pod): Promise<void> {
    this.removed = pod;
    this.trigger();
    await this.idle();
  }

  private async sync(): Promise<void> {
    if (this.removed && !this.pod()) {
      if (!this.terminated) await this.terminate(this.removed);
      return;
    }
    const pod = this.pod();
    if (!pod || this.disposed || !this.d.owns(this.uid)) return;
    if (pod.metadata?.deletionTimestamp) return this.terminate(pod);
    const ctx = this.context(pod);
    const rs = await this.runtimeStatus(pod);
    const now = this.d.clock.now();
    const { prober, volumes } = this.k;
    if (!this.finished && !isTerminalPhase(pod.status)) prober.addPod(pod);
    prober.updateRuntime(pod, rs);

    // activeDeadlineSeconds: checked whenever status is generated; past it, the pod fails.
    if (!this.finished && !isTerminalPhase(pod.status) && pastActiveDeadline(pod, now)) {
      ctx.event('Normal', DeadlineExceededReason, DeadlineExceededMessage);
      this.override = { phase: 'Failed', reason: DeadlineExceededReason, message: DeadlineExceededMessage };
      await this.writeStatus(rs, false);
    }
    if (this.finished || isTerminalPhase(this.pod()?.status)) {
      // A terminal pod: every container killed with the pod's grace, no restarts, sandbox stopped.
      this.finished = true;
      await killContainersInPod(ctx, rs, this.effectiveGrace(pod), rs.sandboxes[0]?.ip);
      await this.stopSandboxes(rs);
      await this.writeStatus(await this.runtimeStatus(pod), true);
      return;
    }
    // As SyncPod does: the status is generated and written at the start of each sync.
    await this.writeStatus(rs, false);
    // WaitForAttachAndMount: no sandbox and no container before every volume is set up.
    const facts = this.k.nodeFacts(pod);
    const vs = await volumes.setUpPod(pod, this.k.lookup, facts);
    if (!vs.ready) {
      if (vs.nextRetryAt !== undefined) this.wakeIn(Math.max(0, vs.nextRetryAt - this.d.clock.now()));
      return;
    }
    // Each sync refreshes mounted ConfigMap, Secret and downward API payloads (syncPod's
    // WaitForAttachAndMount reprocesses the pod). One brought by the relist alone stands for
    // upstream's periodic resync only once its interval (syncFrequency) has passed.
    const at = this.d.clock.now();
    if (!this.periodicSync || at - this.volumesRefreshedAt >= resyncIntervalMs(this.k.deps.settings)) {
      this.volumesRefreshedAt = at;
      await volumes.refresh(pod, this.k.lookup, facts);
    }
    const actions = computePodActions(pod, rs, prober.results(this.uid));
    const outcome = await syncPod(ctx, this, rs, actions, { volumes: vs.volumes, sandboxMounts: volumes.sandboxMounts(this.uid) });
    if (outcome === 'podKilled') this.finished = true;
    await this.writeStatus(await this.runtimeStatus(pod), false, true);
    const left = untilActiveDeadline(this.pod() ?? pod, this.d.clock.now());
    if (left !== undefined && !this.finished) this.wakeIn(left);
  }

  private async stopSandboxes(rs: RuntimePodStatus): Promise<void> {
    for (const sb of rs.sandboxes) if (sb.state === 'SANDBOX_READY') await this.d.runtime.stopPodSandbox(sb.id, 10);
  }

  /** calculateEffectiveGracePeriod: the deletion's grace, else the pod's, at least 1. */
  private effectiveGrace(pod: Pod): number {
    const g = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    return Math.max(g, 1);
  }

  /**
   * A shorter deletion grace came while the pod terminates (a second DELETE): as the pod worker
   * cancels the termination under way and runs it again with that grace (UpdatePod,
   * calculateEffectiveGracePeriod), the kill under way is cancelled (its preStop hooks cut) and the
   * containers still running are killed again with the shorter grace. Before the first kill has
   * begun, it simply begins with the shorter grace.
   */
  shortenGrace(pod: Pod): void {
    const k = this.killing;
    if (!k || pod.metadata?.uid !== this.uid) return;
    const grace = this.effectiveGrace(pod);
    if (grace >= k.grace) return;
    k.grace = grace;
    if (!k.pass) return;
    k.abort.abort();
    k.abort = new AbortController();
    const signal = k.abort.signal;
    k.pass = (async () => {
      const rs = await this.runtimeStatus(pod);
      await killContainersInPod(this.context(pod), rs, grace, rs.sandboxes[0]?.ip, signal);
    })().catch((e: Error) => this.d.log(`${this.key}: kill with a shorter grace: ${e.message}`));
  }

  /** Graceful deletion: kill containers, stop the sandbox, report the final phase, remove everything, drop the pod. */
  private async terminate(pod: Pod): Promise<void> {
    const ctx = this.context(pod);
    this.k.prober.setTerminating(this.uid);
    // (from here a shorter grace is taken: see shortenGrace)
    const k: NonNullable<PodWorker['killing']> = { grace: this.effectiveGrace(pod), abort: new AbortController() };
    this.killing = k;
    const rs = await this.runtimeStatus(pod);
    this.k.prober.updateRuntime(pod, rs);
    k.pass = killContainersInPod(ctx, rs, k.grace, rs.sandboxes[0]?.ip, k.abort.signal).catch((e: Error) => this.d.log(`${this.key}: kill: ${e.message}`));
    try {
      // the newest kill is waited for (a shorter grace replaces the one under way)
      for (let seen: Promise<void> | undefined; k.pass !== seen; ) {
        seen = k.pass;
        await seen;
      }
    } finally {
      this.killing = undefined;
    }
    await this.stopSandboxes(rs);
    const after = await this.runtimeStatus(pod);
    await this.writeStatus(after, true);
    await removePodFromRuntime(this.d.runtime, after);
    await this.k.volumes.tearDown(this.uid).catch((e) => this.d.log(`${this.key}: volume tear-down: ${(e as Error).message}`));
    this.k.prober.removePod(this.uid);
    for (const c of after.containers) this.k.messageCache.delete(c.id);
    rmSync(podDir(this.d.settings.stateDir, pod.metadata?.uid ?? ''), { recursive: true, force: true });
    const [ns, name] = this.key.split('/') as [string, string];
    this.terminated = true;
    if (this.d.store.get('Pod', ns, name)?.metadata?.uid === this.uid) this.d.store.delete('Pod', ns, name);
  }

  /** `probeTrigger`: as UpdatePodStatus does once per sync, run readiness now for a started-but-unready container. */
  private async writeStatus(rs: RuntimePodStatus, podIsTerminal: boolean, probeTrigger = false): Promise<void> {
    const fresh = this.pod();
    if (!fresh) return;
    // The prober sees the instances this status is generated from (a container just started).
    this.k.prober.updateRuntime(fresh, rs);
    let status = generatePodStatus({
      pod: fresh,
      runtime: rs,
      reasonCache: this.reasons,
      podIsTerminal,
      now: this.d.clock.now(),
      hostIPs: this.k.hostIPs(fresh),
      phaseOverride: this.override,
      probes: this.k.prober.containerFlags(this.uid, { trigger: probeTrigger }),
    });
    const count = (fresh.spec?.containers.length ?? 0) + (fresh.spec?.initContainers?.length ?? 0);
    status = capTerminationMessages(status, count);
    if (JSON.stringify(status) === JSON.stringify(fresh.status)) return;
    const [ns, name] = this.key.split('/') as [string, string];
    this.d.store.update('Pod', ns, name, (p) => {
      p.status = status;
    });
  }

  /** Tells the debug watches when a sync changed the back-off timers or the step wait. */
  private noteDebugState(): void {
    const now = JSON.stringify(this.debugState());
    if (now === this.lastDebugState) return;
    this.lastDebugState = now;
    this.d.onDebugChanged?.(this.uid);
  }

  debugState(): Pick<PodDebugInfo, 'backoff' | 'stepWaitingFor' | 'stepWaits'> {
    const pod = this.pod();
    const backoff: PodDebugInfo['backoff'] = {};
    if (pod) {
      for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
        const r = this.reasons.get(c.name);
        if (r?.reason === 'CrashLoopBackOff' && r.backoff) backoff[c.name] = { until: r.backoff.until, delayMs: r.backoff.delayMs };
      }
    }
    return { backoff, stepWaitingFor: this.stepWaiting, stepWaits: this.stepWaits.map((w) => ({ ...w })) };
  }

  dispose(): void {
    this.disposed = true;
    this.wake.cancel();
  }
}
