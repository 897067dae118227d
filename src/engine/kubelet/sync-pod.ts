// The SyncPod executor (upstream pkg/kubelet/kuberuntime/kuberuntime_manager.go SyncPod): carries
// out the decision of computePodActions in SyncPod's numbered steps, through the runtime seam.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pod } from 'kubernetes-types/core/v1';
import { managedHostsFileContent } from './hosts.js';
import type { Container } from 'kubernetes-types/core/v1';
import type { Mount, PodSandboxConfig } from '../../runtime/cri.js';
import type { MountedVolume } from './volumes/index.js';
import { isRestartableInit, type PodActions } from './actions.js';
import { evictContainers } from './container-gc.js';
import { ephemeralContainerSpec } from './ephemeral.js';
import { killContainer, killContainersInPod, startContainer, SYNC_ERROR_RETRY_MS, type LifecycleState } from './container-lifecycle.js';
import type { PodRuntimeFacts } from './container-config.js';
import type { PodSyncContext } from './context.js';
import { podDir, sandboxConfigFor } from './sandbox.js';
import { missingClusterDNS } from './dns.js';
import { nodeRef } from '../events.js';
import type { RuntimePodStatus } from './types.js';

/** Per-pod state SyncPod keeps between syncs (owned by the pod worker). */
export interface SyncPodState extends LifecycleState {
  /** When a failed sandbox creation may be retried (the pod worker's back-off). */
  sandboxRetryAt: number;
  /** Step mode: holds an init container until approved; returns true to hold. */
  stepHold(c: Container): boolean;
  /** The worker was disposed (the engine is closing): start nothing more. */
  halted(): boolean;
  /** This sync was brought by the relist alone (no runtime, store, probe or timer event). */
  periodicSync: boolean;
  /** When GetPodDNS last recorded its Warning for this pod (clock ms). */
  dnsRecordedAt: number;
}

/**
 * The kubelet's syncFrequency: an idle pod's worker resyncs it this long after its last sync
 * (settings.resyncIntervalMs; upstream's default, 1 m).
 */
export function resyncIntervalMs(settings: { resyncIntervalMs?: number }): number {
  return settings.resyncIntervalMs ?? 60_000;
}

export type SyncPodOutcome = 'synced' | 'podKilled' | 'waiting';

export interface SyncPodDeps {
  /** The pod's volumes as the volume manager set them up, by volume name. */
  volumes: ReadonlyMap<string, MountedVolume>;
  /** Runtime volumes the sandbox holds for the pod's lifetime (Memory emptyDir). */
  sandboxMounts: Mount[];
}

export async function syncPod(ctx: PodSyncContext, st: SyncPodState, rs: RuntimePodStatus, a: PodActions, d: SyncPodDeps): Promise<SyncPodOutcome> {
  const { pod } = ctx;
  const deps = ctx.k.deps;
  const rt = deps.runtime;
  const grace = pod.spec?.terminationGracePeriodSeconds ?? 30;

  // Step 1 (computePodActions) is the caller's. Step 2: kill the pod if its sandbox changed.
  if (a.killPod) {
    // A failed sandbox creation waits out the pod worker's back-off; the syncs in between do
    // nothing (upstream's worker does not run SyncPod then), so they announce nothing either.
    if (a.createSandbox && deps.clock.now() < st.sandboxRetryAt) {
      ctx.wakeIn(st.sandboxRetryAt - deps.clock.now());
      return 'waiting';
    }
    if (a.createSandbox && a.sandboxId) ctx.event('Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');
    await killContainersInPod(ctx, rs, grace);
    for (const sb of rs.sandboxes) if (sb.state === 'SANDBOX_READY') await rt.stopPodSandbox(sb.id, 10);
    // SyncPod goes on to "Get podSandboxConfig for containers to start" (none start): GetPodDNS once more
    if (!a.createSandbox) {
      getPodDNS(ctx, st, a);
      return 'podKilled';
    }
    // Init containers run again in a new sandbox: remove their old instances.
    const inits = new Set((pod.spec?.initContainers ?? []).map((c) => c.name));
    for (const c of rs.containers) if (inits.has(c.name)) await rt.removeContainer(c.id).catch(() => undefined);
    // Sandbox GC: dead sandboxes that hold no container are removed.
    for (const sb of rs.sandboxes) {
      if (!rs.containers.some((c) => c.sandboxId === sb.id)) await rt.removePodSandbox(sb.id).catch(() => undefined);
    }
  } else {
    // Step 3: kill the containers the decision named (probe failures, definition changes, postStart).
    await Promise.all(
      [...a.containersToKill].map(([id, info]) => killContainer(ctx, { id, name: info.name }, info.message, info.reason)),
    );
  }

  // Container GC: keep the current and the previous instance of each container.
  for (const id of await evictContainers(rt, deps.settings.stateDir, rs)) ctx.k.messageCache.delete(id);

  // A closing engine starts nothing new; what a step already began is finished first.
  if (st.halted()) return 'waiting';
  // Step 4: create the sandbox.
  let sandboxId = a.sandboxId;
  let podIP = rs.sandboxes[0]?.ip ?? '';
  const sbConfig: PodSandboxConfig = { ...sandboxConfigFor(pod, a.attempt, deps.settings.stateDir), mounts: d.sandboxMounts };
  if (a.createSandbox) {
    // createPodSandbox generates the sandbox's config first, its DNS (GetPodDNS) with it.
    getPodDNS(ctx, st, a);
    try {
      mkdirSync(podDir(deps.settings.stateDir, pod.metadata?.uid ?? ''), { recursive: true });
      sandboxId = await rt.runPodSandbox(sbConfig, deps.settings.sandboxImage);
      podIP = (await rt.podSandboxStatus(sandboxId))?.ip ?? '';
      st.sandboxRetryAt = 0;
    } catch (e) {
      const msg = `Failed to create pod sandbox: ${(e as Error).message}`;
      ctx.event('Warning', 'FailedCreatePodSandBox', msg);
      deps.log(`${ctx.key}: ${msg}`);
      // The pod worker retries after its back-off; the failed sandbox is collected then.
      st.sandboxRetryAt = deps.clock.now() + SYNC_ERROR_RETRY_MS;
      ctx.wakeIn(SYNC_ERROR_RETRY_MS);
      return 'waiting';
    }
  }
  // "Get podSandboxConfig for containers to start": every sync that gets here generates it again.
  getPodDNS(ctx, st, a);
  const hostIPs = ctx.k.hostIPs(pod);
  const facts: PodRuntimeFacts = { podIP, hostIP: hostIPs[0] ?? '', hostIPs, nodeName: pod.spec?.nodeName ?? '', nodeAllocatable: ctx.k.nodeFacts(pod).nodeAllocatable };
  // The kubelet-managed /etc/hosts, once the pod has an IP (or uses the host's network).
  const etcHostsFile = writeHostsFile(deps.settings.stateDir, pod, podIP);
  const inits = pod.spec?.initContainers ?? [];
  const current = a.createSandbox ? { ...rs, containers: rs.containers.filter((c) => !inits.some((i) => i.name === c.name)) } : rs;
  const inputs = { rs: current, sandboxId, sbConfig, facts, volumes: d.volumes, etcHostsFile };

  // Step 5: ephemeral containers, before the init containers so that a debug container starts even
  // while an init container fails (in practice the pod has started: they cannot be set at
  // create). Each is started once and never restarted; a failure does not end the sync.
  for (const i of a.ephemeralContainersToStart) {
    if (st.halted()) return 'waiting';
    const ec = pod.spec?.ephemeralContainers?.[i];
    if (ec) await startContainer(ctx, st, ephemeralContainerSpec(ec), inputs, ec);
  }
  // Step 6: init containers, strictly in order; a regular init container's failure ends the sync,
  // a sidecar's does not.
  for (const i of a.initContainersToStart) {
    const c = inits[i]!;
    if (st.halted() || (!isRestartableInit(c) && st.stepHold(c))) return 'waiting';
    const ok = await startContainer(ctx, st, c, inputs);
    if (!ok && !isRestartableInit(c)) return 'synced';
  }
  // Step 7: app containers in spec order, each after the previous one's postStart.
  for (const i of a.containersToStart) {
    if (st.halted()) return 'waiting';
    await startContainer(ctx, st, pod.spec!.containers[i]!, inputs);
  }
  return 'synced';
}

/**
 * GetPodDNS of a kubelet without cluster DNS: a pod that asks for the cluster's DNS falls back to
 * the node's resolver (the sandbox's resolv.conf is Docker's), and each call says so on the node
 * and on the pod.
 */
function getPodDNS(ctx: PodSyncContext, st: SyncPodState, a: PodActions): void {
  const missing = missingClusterDNS(ctx.pod);
  if (!missing) return;
  // The lab's relist syncs every pod each 10 s; upstream's pod worker resyncs a pod with nothing to
  // do only after its resync interval (syncFrequency, 1 min, plus jitter). Such a sync, brought by
  // the relist alone, stands for that resync only once the interval has passed, so the Warning's
  // count grows as a kubelet's does. (A pod with work, a back-off to wait out above all, is synced
  // again about every 10 s upstream too: its worker's back-off period after a sync error.)
  const now = ctx.k.deps.clock.now();
  const nothingToDo =
    !a.killPod && !a.createSandbox && a.containersToKill.size === 0 && a.initContainersToStart.length === 0 && a.containersToStart.length === 0 && a.ephemeralContainersToStart.length === 0;
  if (st.periodicSync && nothingToDo && now - st.dnsRecordedAt < resyncIntervalMs(ctx.k.deps.settings)) return;
  st.dnsRecordedAt = now;
  const node = ctx.pod.spec?.nodeName ?? '';
  ctx.k.deps.recorder.record(nodeRef(node), 'Warning', 'MissingClusterDNS', missing.node, { component: 'kubelet', host: node });
  ctx.event('Warning', 'MissingClusterDNS', missing.pod);
}

/** Writes `<podDir>/etc-hosts` (0644) and returns its path; undefined while the pod has no IP. */
function writeHostsFile(stateDir: string, pod: Pod, podIP: string): string | undefined {
  const hostNetwork = !!pod.spec?.hostNetwork;
  if (!podIP && !hostNetwork) return undefined;
  let nodeHosts = '';
  if (hostNetwork) {
    try {
      nodeHosts = readFileSync('/etc/hosts', 'utf8');
    } catch {
      nodeHosts = '';
    }
  }
  const file = join(podDir(stateDir, pod.metadata?.uid ?? ''), 'etc-hosts');
  writeFileSync(file, managedHostsFileContent(pod, podIP ? [podIP] : [], nodeHosts), { mode: 0o644 });
  return file;
}
