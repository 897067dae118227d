// The container lifecycle (upstream pkg/kubelet/kuberuntime/kuberuntime_container.go):
// startContainer — pull, create, start, postStart — and killContainer — Killing, preStop within
// the grace period, stop — plus killContainersWithSyncResult's termination order for a whole pod
// (kuberuntime_termination_order.go: sidecars after the app containers, in reverse order).
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Container, EphemeralContainer, Pod } from 'kubernetes-types/core/v1';
import type { PodSandboxConfig } from '../../runtime/cri.js';
import type { HookRun } from '../api.js';
import { formatPod } from '../events.js';
import { goDuration } from './backoff.js';
import { isRestartableInit, type KillReason } from './actions.js';
import { ContainerConfigError, generateContainerConfig, type PodRuntimeFacts } from './container-config.js';
import { targetContainerId } from './ephemeral.js';
import { ensureImageExists } from './images.js';
import { hashContainer } from './hash.js';
import { runLifecycleHandler } from './lifecycle-handlers.js';
import { podDir } from './sandbox.js';
import type { PodSyncContext } from './context.js';
import type { KContainerStatus, RuntimePodStatus } from './types.js';
import type { MountedVolume } from './volumes/index.js';

const MAX_HOOK_RUNS = 100;

/** Records a hook run for the lab's timeline; returns a function that closes it. */
function recordHook(ctx: PodSyncContext, run: HookRun): (error?: string, timedOut?: boolean) => void {
  const uid = ctx.pod.metadata?.uid ?? '';
  const list = ctx.k.hookRuns.get(uid) ?? [];
  list.push(run);
  if (list.length > MAX_HOOK_RUNS) list.splice(0, list.length - MAX_HOOK_RUNS);
  ctx.k.hookRuns.set(uid, list);
  ctx.k.deps.onDebugChanged?.(uid);
  return (error, timedOut) => {
    run.finishedAt = ctx.k.deps.clock.now();
    if (error !== undefined) run.error = error;
    if (timedOut) run.timedOut = true;
    ctx.k.deps.onDebugChanged?.(uid);
  };
}

/** minimumGracePeriodInSeconds */
export const MIN_GRACE_SECONDS = 2;
/** backOffPeriod: how soon a sync that failed for another reason is retried. */
export const SYNC_ERROR_RETRY_MS = 10_000;
const RETRY_LATER = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError']);

/** GetStableKey: the crash-loop back-off key; a spec change (new hash) starts afresh. */
export function backoffKey(pod: Pod, c: Container): string {
  return `${pod.metadata?.name}_${pod.metadata?.namespace}_${pod.metadata?.uid}_${c.name}_${hashContainer(c)}`;
}

/** Per-pod state the lifecycle keeps between syncs (owned by the pod worker). */
export interface LifecycleState {
  /** A create/start error is retried by a later sync, not at once: when it last failed. */
  failedAt: Map<string, number>;
  /** Lab feature (Restart now): skip the crash-loop back-off once. */
  skipBackoff: Set<string>;
}

/** doBackOff: is this container still in its crash-loop back-off? Records the BackOff event and reason. */
function inBackOff(ctx: PodSyncContext, st: LifecycleState, c: Container, rs: RuntimePodStatus): boolean {
  const last = rs.containers.find((x) => x.name === c.name && x.state === 'exited');
  if (!last) return false;
  const { pod } = ctx;
  const key = backoffKey(pod, c);
  const now = ctx.k.deps.clock.now();
  const bo = ctx.k.crashBackoff;
  if (st.skipBackoff.delete(c.name)) {
    bo.next(key, last.finishedAt);
    return false;
  }
  if (bo.isInBackOffSince(key, last.finishedAt, now)) {
    const delay = bo.get(key);
    ctx.event('Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${formatPod(pod)}`, c.name);
    ctx.reasons.set(c.name, {
      reason: 'CrashLoopBackOff',
      message: `back-off ${goDuration(delay)} restarting failed container=${c.name} pod=${formatPod(pod)}`,
      backoff: { delayMs: delay, until: last.finishedAt + delay },
    });
    ctx.wakeIn(last.finishedAt + delay - now + 5);
    return true;
  }
  bo.next(key, last.finishedAt);
  return false;
}

export interface StartInputs {
  rs: RuntimePodStatus;
  sandboxId: string;
  sbConfig: PodSandboxConfig;
  facts: PodRuntimeFacts;
  /** The pod's volumes as the volume manager set them up. */
  volumes: ReadonlyMap<string, MountedVolume>;
  /** The kubelet-managed hosts file, once the pod has an IP. */
  etcHostsFile?: string;
}

/**
 * startContainer. Returns true when the container runs (and its postStart hook succeeded).
 * Failures go to the reason cache (the status's Waiting reason) with the kubelet's events.
 */
export async function startContainer(
  ctx: PodSyncContext,
  st: LifecycleState,
  c: Container,
  inp: StartInputs,
  ephemeral?: Pick<EphemeralContainer, 'targetContainerName'>,
): Promise<boolean> {
  const { pod } = ctx;
  const deps = ctx.k.deps;
  const rt = deps.runtime;
  const fail = (reason: string, message: string, event?: string) => {
    ctx.reasons.set(c.name, { reason, message });
    if (event !== undefined) ctx.event('Warning', 'Failed', `Error: ${event}`, c.name);
    if (RETRY_LATER.has(reason)) {
      st.failedAt.set(c.name, deps.clock.now());
      ctx.wakeIn(SYNC_ERROR_RETRY_MS);
    }
    return false;
  };
  const failedAt = st.failedAt.get(c.name);
  if (failedAt !== undefined && deps.clock.now() - failedAt < SYNC_ERROR_RETRY_MS) return false;
  st.failedAt.delete(c.name);
  if (inBackOff(ctx, st, c, inp.rs)) return false;

  // Step 1: pull the image.
  const img = await ensureImageExists(
    rt,
    pod,
    c,
    ctx.k.pulls,
    () => deps.clock.now(),
    { normal: (r, m) => ctx.event('Normal', r, m, c.name), warning: (r, m) => ctx.event('Warning', r, m, c.name) },
    (p) => deps.onPullProgress({ ...p, pod: ctx.key }),
  );
  if ('failure' in img) {
    const entry = ctx.k.pulls.backoff.entry(`${pod.metadata?.uid}_${c.image}`);
    if (entry) ctx.wakeIn(Math.max(0, entry.lastUpdate + entry.backoffMs - deps.clock.now()) + 5);
    return fail(img.failure.reason, img.failure.message, img.failure.reason);
  }

  // Step 2: create the container.
  const prev = inp.rs.containers.find((x) => x.name === c.name);
  const restartCount = prev ? prev.restartCount + 1 : 0;
  // An ephemeral container's target: the PID namespace it joins (getTargetID).
  const target = targetContainerId(ephemeral, inp.rs);
  if (target && 'error' in target) return fail('CreateContainerConfigError', target.error, target.error);
  let id: string;
  try {
    const dir = join(podDir(deps.settings.stateDir, pod.metadata?.uid ?? ''), 'containers', c.name);
    mkdirSync(dir, { recursive: true });
    const msgFile = join(dir, randomBytes(4).toString('hex'));
    writeFileSync(msgFile, '', { mode: 0o666 });
    const config = generateContainerConfig(pod, c, restartCount, inp.facts, {
      volumes: inp.volumes,
      terminationMessageFile: msgFile,
      etcHostsFile: inp.etcHostsFile,
      lookup: ctx.k.lookup,
    }, target?.id);
    id = await rt.createContainer(inp.sandboxId, config, inp.sbConfig);
  } catch (e) {
    const msg = (e as Error).message;
    if (e instanceof ContainerConfigError) return fail('CreateContainerConfigError', msg, msg);
    return fail('CreateContainerError', msg, msg);
  }
  ctx.event('Normal', 'Created', `Created container: ${c.name}`, c.name);

  // Step 3: start the container.
  try {
    await rt.startContainer(id);
  } catch (e) {
    const msg = (e as Error).message;
    // recordContainerEvent: the event names the container where the message has its ID (the status keeps the ID)
    return fail('RunContainerError', msg, msg.split(id).join(c.name));
  }
  ctx.event('Normal', 'Started', `Started container ${c.name}`, c.name);

  // Step 4: the postStart hook, synchronously: the next container waits for it.
  const postStart = c.lifecycle?.postStart;
  if (postStart) {
    const done = recordHook(ctx, { containerName: c.name, containerId: id, hook: 'postStart', startedAt: deps.clock.now() });
    const msg = await runLifecycleHandler(postStart, { runtime: rt, clock: deps.clock, pod, container: c, containerId: id, podIP: inp.facts.podIP });
    done(msg);
    if (msg !== undefined) {
      ctx.event('Warning', 'FailedPostStartHook', 'PostStartHook failed', c.name);
      await killContainer(ctx, { id, name: c.name }, 'FailedPostStartHook', 'FailedPostStartHook');
      return fail('PostStartHookError', msg);
    }
  }
  ctx.reasons.delete(c.name);
  return true;
}

/**
 * setTerminationGracePeriod: deletionGracePeriodSeconds, else the probe's own
 * terminationGracePeriodSeconds for a liveness/startup kill, else the pod's, else 2.
 */
export function killGracePeriod(pod: Pod, c: Container | undefined, reason: KillReason): number {
  const deletion = pod.metadata?.deletionGracePeriodSeconds;
  if (deletion !== undefined && deletion !== null) return deletion;
  const probe = reason === 'LivenessProbe' ? c?.livenessProbe : reason === 'StartupProbe' ? c?.startupProbe : undefined;
  if (probe?.terminationGracePeriodSeconds !== undefined && probe.terminationGracePeriodSeconds !== null) return probe.terminationGracePeriodSeconds;
  return pod.spec?.terminationGracePeriodSeconds ?? MIN_GRACE_SECONDS;
}

function specContainer(pod: Pod, name: string): Container | undefined {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find((c) => c.name === name);
}

/** Waits for another container's turn in the termination order (see killContainersInPod). */
export type WaitForTurn = (remainingMs: number) => Promise<void>;

/**
 * killContainer: Killing event, preStop (only with grace > 0, bounded by the grace), the
 * termination order's turn, then stop with max(grace, 2) s.
 */
export async function killContainer(
  ctx: PodSyncContext,
  inst: Pick<KContainerStatus, 'id' | 'name'>,
  message: string | undefined,
  reason: KillReason,
  /** `signal`: the kill was cancelled (a shorter grace started another): it ends where it is, stopping nothing more. */
  opts: { gracePeriodOverride?: number; waitForTurn?: WaitForTurn; podIP?: string; signal?: AbortSignal } = {},
): Promise<void> {
  const { pod } = ctx;
  const deps = ctx.k.deps;
  const c = specContainer(pod, inst.name);
  let grace = opts.gracePeriodOverride ?? killGracePeriod(pod, c, reason);
  const cancelled = opts.signal;
  ctx.event('Normal', 'Killing', message || `Stopping container ${inst.name}`, inst.name);
  const started = deps.clock.now();
  const preStop = c?.lifecycle?.preStop;
  if (preStop && grace > 0) {
    const abort = new AbortController();
    let timer: { cancel(): void } | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = deps.clock.setTimeout(() => {
        abort.abort();
        resolve('timeout');
      }, grace * 1000);
      // (a cancelled kill ends its hook as the deadline would)
      cancelled?.addEventListener('abort', () => {
        abort.abort();
        resolve('timeout');
      });
    });
    const run = runLifecycleHandler(preStop, {
      runtime: deps.runtime,
      clock: deps.clock,
      pod,
      container: c!,
      containerId: inst.id,
      podIP: opts.podIP ?? pod.status?.podIP ?? '',
      signal: abort.signal,
    });
    // A hook still running at the deadline is abandoned, not killed: it dies with the container.
    const done = recordHook(ctx, { containerName: inst.name, containerId: inst.id, hook: 'preStop', startedAt: started });
    const outcome = await Promise.race([run, deadline]);
    timer?.cancel();
    done(outcome === 'timeout' ? undefined : outcome, outcome === 'timeout');
    if (outcome !== 'timeout' && outcome !== undefined) {
      ctx.event('Warning', 'FailedPreStopHook', 'PreStopHook failed', inst.name);
      deps.log(`${ctx.key}: ${outcome}`);
    }
    grace -= Math.floor((deps.clock.now() - started) / 1000);
  }
  if (cancelled?.aborted) return;
  if (opts.waitForTurn && grace > 0) {
    const before = deps.clock.now();
    await Promise.race([opts.waitForTurn(grace * 1000), new Promise<void>((r) => cancelled?.addEventListener('abort', () => r()))]);
    grace -= Math.floor((deps.clock.now() - before) / 1000);
  }
  if (cancelled?.aborted) return;
  grace = Math.max(grace, MIN_GRACE_SECONDS);
  await deps.runtime.stopContainer(inst.id, grace).catch((e) => deps.log(`stop ${inst.name}: ${(e as Error).message}`));
}

/**
 * killContainersWithSyncResult: every running container killed in parallel with the pod's grace;
 * each sidecar waits for all regular containers and every later-declared sidecar to stop
 * (terminationOrdering), so sidecars stop in reverse order after the app. Each stop is written
 * to the status as it happens.
 */
export async function killContainersInPod(ctx: PodSyncContext, rs: RuntimePodStatus, grace: number, podIP?: string, signal?: AbortSignal): Promise<void> {
  const { pod } = ctx;
  const running = rs.containers.filter((c) => c.state === 'running' || c.state === 'created');
  const inits = pod.spec?.initContainers ?? [];
  const sidecars = inits.filter(isRestartableInit).map((c) => c.name);
  const regular = new Set((pod.spec?.containers ?? []).map((c) => c.name));
  const done = new Map<string, Promise<void>>();
  const resolvers = new Map<string, () => void>();
  for (const c of running) done.set(c.name, new Promise<void>((r) => resolvers.set(c.name, r)));
  const clock = ctx.k.deps.clock;

  const turnOf = (name: string): WaitForTurn | undefined => {
    const i = sidecars.indexOf(name);
    if (i < 0) return undefined;
    const before = [...running.filter((c) => regular.has(c.name)).map((c) => c.name), ...sidecars.slice(i + 1)];
    const waits = before.map((n) => done.get(n)).filter((p): p is Promise<void> => !!p);
    if (waits.length === 0) return undefined;
    return (remainingMs) =>
      new Promise<void>((resolve) => {
        const t = clock.setTimeout(resolve, remainingMs);
        void Promise.all(waits).then(() => {
          t.cancel();
          resolve();
        });
      });
  };

  await Promise.all(
    running.map(async (c) => {
      try {
        await killContainer(ctx, c, undefined, '', { gracePeriodOverride: grace, waitForTurn: turnOf(c.name), podIP, ...(signal ? { signal } : {}) });
        await ctx.refreshStatus().catch(() => undefined);
      } finally {
        resolvers.get(c.name)?.();
      }
    }),
  );
}
