// What the kubelet's rooms share: the kubelet's dependencies, its node-wide state, and the
// per-pod context a pod worker hands to the SyncPod executor and the container lifecycle.
import type { Pod } from 'kubernetes-types/core/v1';
import type { PullProgress, RuntimeService } from '../../runtime/cri.js';
import type { EngineSettings, HookRun } from '../api.js';
import type { Store } from '../store.js';
import type { EventRecorder } from '../events.js';
import type { Clock } from '../clock.js';
import type { Backoff } from './backoff.js';
import type { StartFailure } from './types.js';
import type { ProberManager } from './prober/index.js';
import type { ObjectLookup, VolumeFacts, VolumeManager } from './volumes/index.js';

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
  /**
   * The lab's debug state of the pod (PodDebugInfo: attempts, sandboxes, back-off timers, step
   * wait, probe and hook runs) may have changed; coalesced by the engine's debug watches.
   */
  onDebugChanged?: (uid: string) => void;
  /** Randomness (probe workers' initial sleep); tests inject a fixed one. */
  random?: () => number;
}

/** Node-wide kubelet state shared by every pod worker. */
export interface KubeletShared {
  readonly deps: KubeletDeps;
  /** The crash-loop back-off (keyed by GetStableKey). */
  readonly crashBackoff: Backoff;
  /** imageBackOffPeriod 10 s, MaxImageBackOff 300 s; the last error is appended to ImagePullBackOff (v1.32+). */
  readonly pulls: { backoff: Backoff; lastError: Map<string, string> };
  /** Termination messages of exited instances never change: read once, by container id. */
  readonly messageCache: Map<string, string>;
  /** The prober manager: probe workers per container and probe type. */
  readonly prober: ProberManager;
  /** The volume manager: sets up and refreshes the pods' volumes. */
  readonly volumes: VolumeManager;
  /** ConfigMaps and Secrets as the kubelet's watch-based manager sees them (the store). */
  readonly lookup: ObjectLookup;
  /** The node's facts for resource defaults (allocatable). */
  nodeFacts(pod: Pod): VolumeFacts;
  /** The IPs of the pod's node (status.hostIPs, the downward API's status.hostIP): from its Node object. */
  hostIPs(pod: Pod): string[];
  /** Lifecycle hook runs per pod uid (the lab's timeline; bounded). */
  readonly hookRuns: Map<string, HookRun[]>;
}

/** One pod's sync, as the SyncPod executor and the container lifecycle see it. */
export interface PodSyncContext {
  readonly k: KubeletShared;
  /** The pod as it was when the sync began (spec, metadata, previous status). */
  readonly pod: Pod;
  readonly key: string;
  /** The reason cache: why a container's last start failed. */
  readonly reasons: Map<string, StartFailure>;
  event(type: 'Normal' | 'Warning', reason: string, message: string, container?: string): void;
  /** Sync again in `ms` (a timer, coalesced with earlier ones). */
  wakeIn(ms: number): void;
  /** Regenerates and writes the pod's status from the runtime now, so each change reaches the store as it happens. */
  refreshStatus(): Promise<void>;
}
