// computePodActions: the kubelet's decision of what should happen next for one pod, as a plain
// value. Pure: spec + observed runtime state (+ probe results) in, actions out. The executor
// (worker.ts) carries the actions out through the runtime seam.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { KContainerStatus, RuntimePodStatus } from './types.js';
import { findContainerStatus } from './types.js';
import { hashContainer } from './hash.js';

export type KillReason = 'StartupProbe' | 'LivenessProbe' | 'FailedPostStartHook' | 'Unknown' | '';

export interface ContainerToKill {
  name: string;
  /** Becomes the Killing event's message, e.g. `Container app definition changed, will be restarted`. */
  message: string;
  reason: KillReason;
}

export interface PodActions {
  /** Stop every container and the sandbox. */
  killPod: boolean;
  /** Create a new sandbox (after killing the old one, if any). */
  createSandbox: boolean;
  /** The newest sandbox's id, or '' when there is none. */
  sandboxId: string;
  /** Attempt number for a new sandbox. */
  attempt: number;
  /** Indices into spec.initContainers, in spec order. */
  initContainersToStart: number[];
  /** Indices into spec.containers, in spec order. */
  containersToStart: number[];
  /** Indices into spec.ephemeralContainers, in spec order: those never started (they are never restarted). */
  ephemeralContainersToStart: number[];
  /** Container instances to kill, by id. */
  containersToKill: Map<string, ContainerToKill>;
}

/** Probe verdicts per container id (only failures matter for the decision). */
export interface ProbeResults {
  liveness?: ReadonlyMap<string, 'Success' | 'Failure'>;
  startup?: ReadonlyMap<string, 'Success' | 'Failure'>;
}

export const isRestartableInit = (c: Container): boolean => c.restartPolicy === 'Always';
const restartPolicy = (pod: Pod) => pod.spec?.restartPolicy ?? 'Always';
export const shouldRestartOnFailure = (pod: Pod): boolean => restartPolicy(pod) !== 'Never';

function containerSucceeded(c: Container, s: RuntimePodStatus): boolean {
  const cs = findContainerStatus(s, c.name);
  return !!cs && cs.state === 'exited' && cs.exitCode === 0;
}

export function isInitContainerFailed(s: KContainerStatus): boolean {
  if (s.reason === 'OOMKilled') return true;
  if (s.state === 'exited' && s.exitCode !== 0) return true;
  return s.state === 'unknown';
}

/** Whether the sandbox must be (re)created, with the attempt to use and the current sandbox id. */
export function podSandboxChanged(pod: Pod, s: RuntimePodStatus): { changed: boolean; attempt: number; sandboxId: string } {
  if (s.sandboxes.length === 0) return { changed: true, attempt: 0, sandboxId: '' };
  const newest = s.sandboxes[0]!;
  const next = { attempt: newest.metadata.attempt + 1, sandboxId: newest.id };
  const ready = s.sandboxes.filter((x) => x.state === 'SANDBOX_READY').length;
  if (ready > 1) return { changed: true, ...next };
  if (newest.state !== 'SANDBOX_READY') return { changed: true, ...next };
  if (!pod.spec?.hostNetwork && !newest.ip) return { changed: true, ...next };
  return { changed: false, attempt: newest.metadata.attempt, sandboxId: newest.id };
}

/** kubecontainer.ShouldContainerBeRestarted for regular containers. */
export function shouldContainerBeRestarted(c: Container, pod: Pod, s: RuntimePodStatus): boolean {
  if (pod.metadata?.deletionTimestamp) return false;
  const cs = findContainerStatus(s, c.name);
  if (!cs) return true;
  if (cs.state === 'running') return false;
  if (cs.state === 'unknown' || cs.state === 'created') return true;
  if (restartPolicy(pod) === 'Never') return false;
  if (restartPolicy(pod) === 'OnFailure' && cs.exitCode === 0) return false;
  return true;
}

function hasAnyRegularContainerCreated(pod: Pod, s: RuntimePodStatus): boolean {
  return (pod.spec?.containers ?? []).some((c) => {
    const cs = findContainerStatus(s, c.name);
    return !!cs && (cs.state === 'created' || cs.state === 'running');
  });
}

/**
 * computeInitContainerActions: walks init containers from last to first, so that the newest
 * evidence decides; returns whether the pod has initialized.
 */
function computeInitContainerActions(pod: Pod, s: RuntimePodStatus, probes: ProbeResults, a: PodActions): boolean {
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return true;
  let podHasInitialized = hasAnyRegularContainerCreated(pod, s);
  let previouslyInitialized = podHasInitialized;
  const restartOnFailure = shouldRestartOnFailure(pod);
  const toStart: number[] = [];

  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i]!;
    const cs = findContainerStatus(s, c.name);
    if (!cs) {
      if (previouslyInitialized && isRestartableInit(c)) toStart.push(i);
      continue;
    }
    if (previouslyInitialized && !isRestartableInit(c)) continue;

    switch (cs.state) {
      case 'created':
        // Created but never started: the runtime probably failed to start it; start it again.
        toStart.push(i);
        break;
      case 'running': {
        if (!isRestartableInit(c)) break;
        const startup = probes.startup?.get(cs.id);
        if (c.startupProbe && startup !== 'Success') {
          if (startup === 'Failure') {
            a.containersToKill.set(cs.id, { name: c.name, message: `Init container ${c.name} failed startup probe`, reason: 'StartupProbe' });
            toStart.push(i);
          }
          break;
        }
        if (i === inits.length - 1) podHasInitialized = true;
        else if (!previouslyInitialized) toStart.push(i + 1);
        if (cs.hash && cs.hash !== hashContainer(c)) {
          a.containersToKill.set(cs.id, { name: c.name, message: `Init container ${c.name} definition changed`, reason: '' });
          toStart.push(i);
        } else if (probes.liveness?.get(cs.id) === 'Failure') {
          a.containersToKill.set(cs.id, { name: c.name, message: `Init container ${c.name} failed liveness probe`, reason: 'LivenessProbe' });
          toStart.push(i);
        }
        break;
      }
      case 'exited':
        if (isRestartableInit(c)) {
          toStart.push(i);
        } else if (isInitContainerFailed(cs)) {
          if (!restartOnFailure) {
            a.killPod = true;
            a.initContainersToStart = [];
            return false;
          }
          toStart.push(i);
        } else if (i === inits.length - 1) {
          podHasInitialized = true;
        } else if (!previouslyInitialized) {
          toStart.push(i + 1);
        }
        break;
      default:
        if (!isRestartableInit(c) && !restartOnFailure) {
          a.killPod = true;
          a.initContainersToStart = [];
          return false;
        }
        a.containersToKill.set(cs.id, {
          name: c.name,
          message: `Init container is in "${cs.state}" state, try killing it before restart`,
          reason: 'Unknown',
        });
        toStart.push(i);
    }
    previouslyInitialized = true;
  }
  if (!previouslyInitialized) toStart.push(0);
  a.initContainersToStart = [...new Set(toStart)].sort((x, y) => x - y);
  return podHasInitialized;
}

export function computePodActions(pod: Pod, s: RuntimePodStatus, probes: ProbeResults = {}): PodActions {
  const sb = podSandboxChanged(pod, s);
  const a: PodActions = {
    killPod: sb.changed,
    createSandbox: sb.changed,
    sandboxId: sb.sandboxId,
    attempt: sb.attempt,
    initContainersToStart: [],
    containersToStart: [],
    ephemeralContainersToStart: [],
    containersToKill: new Map(),
  };
  const containers = pod.spec?.containers ?? [];
  const inits = pod.spec?.initContainers ?? [];

  if (sb.changed) {
    // A pod that must not restart is not given a new sandbox once it has run.
    if (!shouldRestartOnFailure(pod) && sb.attempt !== 0 && s.containers.length !== 0) {
      a.createSandbox = false;
      return a;
    }
    const toStart = containers
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => !(restartPolicy(pod) === 'OnFailure' && containerSucceeded(c, s)))
      .map(({ i }) => i);
    if (toStart.length === 0) {
      const initialized = inits.some(isRestartableInit)
        ? hasAnyRegularContainerCreated(pod, s)
        : computeInitContainerActions(pod, s, probes, { ...a, containersToKill: new Map() });
      if (initialized) {
        a.createSandbox = false;
        return a;
      }
    }
    if (inits.length > 0) {
      a.initContainersToStart = [0];
      return a;
    }
    a.containersToStart = toStart;
    return a;
  }

  // Ephemeral containers may be started even if initialization is not yet complete; one that
  // has an instance (running or exited) is never started again.
  (pod.spec?.ephemeralContainers ?? []).forEach((c, i) => {
    if (!findContainerStatus(s, c.name)) a.ephemeralContainersToStart.push(i);
  });

  const initialized = computeInitContainerActions(pod, s, probes, a);
  if (a.killPod || !initialized) return a;

  let keep = 0;
  containers.forEach((c, i) => {
    const cs = findContainerStatus(s, c.name);
    if (!cs || cs.state !== 'running') {
      if (shouldContainerBeRestarted(c, pod, s)) {
        a.containersToStart.push(i);
        if (cs && cs.state === 'unknown') {
          a.containersToKill.set(cs.id, { name: c.name, message: `Container is in "${cs.state}" state, try killing it before restart`, reason: 'Unknown' });
        }
      }
      return;
    }
    let message: string;
    let reason: KillReason = '';
    let restart = shouldRestartOnFailure(pod);
    if (cs.hash && cs.hash !== hashContainer(c)) {
      message = `Container ${c.name} definition changed`;
      restart = true;
    } else if (probes.liveness?.get(cs.id) === 'Failure') {
      message = `Container ${c.name} failed liveness probe`;
      reason = 'LivenessProbe';
    } else if (probes.startup?.get(cs.id) === 'Failure') {
      message = `Container ${c.name} failed startup probe`;
      reason = 'StartupProbe';
    } else {
      keep++;
      return;
    }
    if (restart) {
      message = `${message}, will be restarted`;
      a.containersToStart.push(i);
    }
    a.containersToKill.set(cs.id, { name: c.name, message, reason });
  });

  if (keep === 0 && a.containersToStart.length === 0) a.killPod = true;
  return a;
}
