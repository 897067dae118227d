// The kubelet's volume manager for the volumes Pod Lab supports (upstream
// pkg/kubelet/volumemanager: the desired state populator, the reconciler's mount/remount loop and
// WaitForAttachAndMount's view; pkg/volume/util/operationexecutor/operation_generator.go
// GenerateMountVolumeFunc for the FailedMount event; the plugins pkg/volume/{configmap,secret,
// downwardapi,projected,emptydir,hostpath}). The imperative shell: what goes into a volume is
// decided by payload.ts (pure), written by atomic-writer.ts; retries follow backoff.ts.
//
// Per pod: each volume gets a host path under `<stateDir>/pods/<uid>/volumes/kubernetes.io~<plugin>/<name>`
// (hostPath: the path as given). A failing SetUp emits Warning `FailedMount` on the pod
// (`MountVolume.SetUp failed for volume "<vol>" : <error>`) and is retried with a per-volume
// exponential back-off (500 ms doubling to 2m2s); the pod is ready once every volume is set up.
// Lab simplifications: secret, downwardAPI and projected volumes (tmpfs upstream) are written to
// the state directory on disk (the root directory gets tmpfs's mode 1777); a `medium: Memory`
// emptyDir is a runtime-managed tmpfs volume when the runtime offers one (else a disk directory).
import { chmodSync, mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigMap, Pod, Secret, Volume } from 'kubernetes-types/core/v1';
import type { Mount, RuntimeService } from '../../../runtime/cri.js';
import { LabLabel, ManagedLabel, PodNameLabel, PodNamespaceLabel, PodUIDLabel } from '../../../shared/labels.js';
import type { Clock, Timer } from '../../clock.js';
import type { EventType } from '../../events.js';
import { podDir } from '../sandbox.js';
import { writePayload } from './atomic-writer.js';
import { retryAt, safeToRetry, updateBackoff, type ExponentialBackoff } from './backoff.js';
import { setUpHostPath } from './host-path.js';
import {
  configMapPayload,
  DefaultMode,
  downwardAPIPayload,
  projectedPayload,
  secretPayload,
  type ObjectLookup,
  type PayloadResult,
  type VolumeFacts,
} from './payload.js';
import { emptyDirMemorySizeBytes } from './resource.js';

export type VolumeKind = 'emptyDir' | 'hostPath' | 'configMap' | 'secret' | 'downwardAPI' | 'projected';

/** What the mount resolver needs of a set-up volume. */
export interface MountedVolume {
  hostPath: string;
  kind: VolumeKind;
  /** A `medium: Memory` emptyDir: the runtime-managed tmpfs volume to mount (Mount.tmpfsVolume). */
  tmpfsVolume?: string;
}

export type PodVolumesStatus =
  | { ready: true; volumes: Map<string, MountedVolume> }
  | { ready: false; unmounted: string[]; nextRetryAt?: number };

export const FailedMountReason = 'FailedMount';
/** Label of a tmpfs volume: the pod volume it backs. */
export const VolumeNameLabel = 'io.podlab.volume.name';
/** Where the sandbox holds a tmpfs volume (Mount.containerPath inside the pause container). */
export const SandboxVolumeDir = '/.podlab/volumes';

/** Volumes a resync re-writes (RequiresRemount). */
const refreshable = new Set<VolumeKind>(['configMap', 'secret', 'downwardAPI', 'projected']);

/** utilstrings.EscapeQualifiedName of each plugin name: the directory under `volumes/`. */
export const PluginDirs: Record<Exclude<VolumeKind, 'hostPath'>, string> = {
  emptyDir: 'kubernetes.io~empty-dir',
  configMap: 'kubernetes.io~configmap',
  secret: 'kubernetes.io~secret',
  downwardAPI: 'kubernetes.io~downward-api',
  projected: 'kubernetes.io~projected',
};

/** GetPodVolumeDir */
export function volumeDir(stateDir: string, uid: string, kind: Exclude<VolumeKind, 'hostPath'>, name: string): string {
  return join(podDir(stateDir, uid), 'volumes', PluginDirs[kind], name);
}

/** The runtime volume backing a pod's `medium: Memory` emptyDir. */
export function tmpfsVolumeName(uid: string, volumeName: string): string {
  return `podlab_${uid}_${volumeName}`;
}

const sourceKeys: VolumeKind[] = ['emptyDir', 'hostPath', 'configMap', 'secret', 'downwardAPI', 'projected'];

/** The plugin of a volume; a volume without a source is an emptyDir (SetDefaults_Volume). */
export function volumeKind(v: Volume): VolumeKind | { unsupported: string } {
  for (const k of sourceKeys) if ((v as unknown as Record<string, unknown>)[k]) return k;
  const other = Object.keys(v).find((k) => k !== 'name' && (v as unknown as Record<string, unknown>)[k] !== undefined);
  return other ? { unsupported: other } : 'emptyDir';
}

export interface VolumeManagerDeps {
  stateDir: string;
  clock: Clock;
  /** Records an event on the pod itself (no fieldPath), from the kubelet. */
  recordEvent(pod: Pod, type: EventType, reason: string, message: string): void;
  /** A pod whose volumes were not all set up became ready through a retry or a refresh: sync it. */
  onVolumesReady?(uid: string): void;
  /** For `medium: Memory` emptyDirs; without ensureTmpfsVolume they are disk directories. */
  runtime?: Pick<RuntimeService, 'ensureTmpfsVolume' | 'removeVolume' | 'listVolumes'>;
  /** The LabLabel value of tmpfs volumes (default: stateDir, as sandboxes have). */
  lab?: string;
  /** The atomic writer's random suffix (tests). */
  random?: () => number;
}

interface VolState {
  name: string;
  volume: Volume;
  kind: VolumeKind | { unsupported: string };
  hostPath: string;
  tmpfsVolume?: string;
  mounted: boolean;
  remountRequired: boolean;
  backoff?: ExponentialBackoff;
  timer?: Timer;
}

interface PodState {
  uid: string;
  pod: Pod;
  lookup: ObjectLookup;
  facts: VolumeFacts;
  vols: VolState[];
  /** Immutable objects, as the watch-based manager keeps them once it stops watching. */
  immutables: Map<string, ConfigMap | Secret>;
  chain: Promise<unknown>;
  disposed: boolean;
}

class SetUpError extends Error {}

export class VolumeManager {
  private readonly pods = new Map<string, PodState>();

  constructor(private readonly deps: VolumeManagerDeps) {}

  /**
   * Registers the pod (or updates its pod object, lookup and facts) and sets up every volume not
   * set up yet whose back-off allows it now. Resolves with the pod's volumes when all are set up,
   * else with the ones that are not and when the next retry is due (retries run by themselves).
   */
  async setUpPod(pod: Pod, lookup: ObjectLookup, facts: VolumeFacts): Promise<PodVolumesStatus> {
    const ps = this.register(pod, lookup, facts);
    await this.run(ps, () => this.reconcile(ps, false));
    return this.status(ps.uid) ?? { ready: false, unmounted: ps.vols.map((v) => v.name) };
  }

  /**
   * Re-writes the configMap, secret, downwardAPI and projected volumes of a registered pod (the
   * kubelet's resync, a changed ConfigMap/Secret, changed labels or annotations). A failure emits
   * FailedMount and is retried with back-off; the old content stays. Resolves with the names of
   * the volumes whose content changed.
   */
  async refresh(pod: Pod, lookup: ObjectLookup, facts: VolumeFacts): Promise<string[]> {
    const ps = this.pods.get(pod.metadata?.uid ?? '');
    if (!ps) return [];
    ps.pod = pod;
    ps.lookup = lookup;
    ps.facts = facts;
    return this.run(ps, () => {
      for (const v of ps.vols) if (v.mounted && typeof v.kind === 'string' && refreshable.has(v.kind)) v.remountRequired = true;
      return this.reconcile(ps, true);
    });
  }

  /** The pod's volumes as WaitForAttachAndMount sees them; undefined for an unknown pod. */
  status(uid: string): PodVolumesStatus | undefined {
    const ps = this.pods.get(uid);
    if (!ps) return undefined;
    const unmounted = ps.vols.filter((v) => !v.mounted).map((v) => v.name);
    if (unmounted.length) {
      const next = this.nextRetryAt(uid);
      return next === undefined ? { ready: false, unmounted } : { ready: false, unmounted, nextRetryAt: next };
    }
    const volumes = new Map<string, MountedVolume>();
    for (const v of ps.vols) {
      const m: MountedVolume = { hostPath: v.hostPath, kind: v.kind as VolumeKind };
      if (v.tmpfsVolume) m.tmpfsVolume = v.tmpfsVolume;
      volumes.set(v.name, m);
    }
    return { ready: true, volumes };
  }

  /** When the earliest pending retry of the pod is due (epoch ms), if any. */
  nextRetryAt(uid: string): number | undefined {
    const ps = this.pods.get(uid);
    let next: number | undefined;
    for (const v of ps?.vols ?? []) {
      if (!v.backoff || (v.mounted && !v.remountRequired)) continue;
      const at = retryAt(v.backoff);
      if (next === undefined || at < next) next = at;
    }
    return next;
  }

  /** The tmpfs volumes the pod's sandbox must hold (PodSandboxConfig.mounts). */
  sandboxMounts(uid: string): Mount[] {
    const ps = this.pods.get(uid);
    return (ps?.vols ?? [])
      .filter((v) => v.tmpfsVolume)
      .map((v) => ({ hostPath: v.hostPath, containerPath: `${SandboxVolumeDir}/${v.name}`, readonly: true, tmpfsVolume: v.tmpfsVolume }));
  }

  /**
   * Forgets the pod and removes its volume directories and tmpfs volumes (call it once the pod's
   * containers and sandbox are removed: a volume still in use cannot be removed). Works for a pod
   * this process never set up too (found by directory and by label). Rejects when a tmpfs volume
   * could not be removed, after removing everything else.
   */
  async tearDown(uid: string): Promise<void> {
    const ps = this.pods.get(uid);
    const names = new Set<string>();
    if (ps) {
      ps.disposed = true;
      this.pods.delete(uid);
      for (const v of ps.vols) v.timer?.cancel();
      await ps.chain.catch(() => undefined);
      for (const v of ps.vols) if (v.tmpfsVolume) names.add(v.tmpfsVolume);
    }
    const root = join(podDir(this.deps.stateDir, uid), 'volumes');
    for (const d of Object.values(PluginDirs)) rmSync(join(root, d), { recursive: true, force: true });
    try {
      rmdirSync(root);
    } catch {
      /* other plugins' directories, or none */
    }
    const rt = this.deps.runtime;
    if (rt?.listVolumes) for (const v of await rt.listVolumes({ [PodUIDLabel]: uid })) names.add(v.name);
    const errs: string[] = [];
    for (const n of names) {
      try {
        await rt?.removeVolume?.(n);
      } catch (e) {
        errs.push(e instanceof Error ? e.message : String(e));
      }
    }
    if (errs.length) throw new Error(errs.join('; '));
  }

  /** Cancels every retry timer (engine shutdown); volumes stay on disk. */
  dispose(): void {
    for (const ps of this.pods.values()) {
      ps.disposed = true;
      for (const v of ps.vols) v.timer?.cancel();
    }
    this.pods.clear();
  }

  // ---- reconciler --------------------------------------------------------------------------------

  private register(pod: Pod, lookup: ObjectLookup, facts: VolumeFacts): PodState {
    const uid = pod.metadata?.uid ?? '';
    let ps = this.pods.get(uid);
    if (ps) {
      ps.pod = pod;
      ps.lookup = lookup;
      ps.facts = facts;
      return ps;
    }
    const vols: VolState[] = (pod.spec?.volumes ?? []).map((v) => {
      const kind = volumeKind(v);
      const hostPath = kind === 'hostPath' ? (v.hostPath?.path ?? '') : typeof kind === 'string' ? volumeDir(this.deps.stateDir, uid, kind, v.name) : '';
      return { name: v.name, volume: v, kind, hostPath, mounted: false, remountRequired: false };
    });
    ps = { uid, pod, lookup, facts, vols, immutables: new Map(), chain: Promise.resolve(), disposed: false };
    this.pods.set(uid, ps);
    return ps;
  }

  /** One operation at a time per pod (the operation executor runs one per volume; the lab serialises the pod). */
  private run<T>(ps: PodState, fn: () => Promise<T>): Promise<T> {
    const p = ps.chain.then(fn, fn);
    ps.chain = p.catch(() => undefined);
    return p;
  }

  /** One reconciler pass: (re)mount what needs it and is out of back-off. Returns the volumes whose content changed. */
  private async reconcile(ps: PodState, notify: boolean): Promise<string[]> {
    const wasReady = ps.vols.every((v) => v.mounted);
    const changed: string[] = [];
    for (const v of ps.vols) {
      if (ps.disposed) return changed;
      if (v.mounted && !v.remountRequired) continue;
      if (!safeToRetry(v.backoff, this.deps.clock.now())) continue; // its timer comes
      if (await this.mountVolume(ps, v)) changed.push(v.name);
    }
    if (notify && !wasReady && !ps.disposed && ps.vols.every((v) => v.mounted)) this.deps.onVolumesReady?.(ps.uid);
    return changed;
  }

  private async mountVolume(ps: PodState, v: VolState): Promise<boolean> {
    try {
      const changed = await this.setUp(ps, v);
      v.mounted = true;
      v.remountRequired = false;
      v.backoff = undefined;
      v.timer?.cancel();
      v.timer = undefined;
      return changed;
    } catch (e) {
      if (ps.disposed) return false;
      const msg = e instanceof Error ? e.message : String(e);
      this.deps.recordEvent(ps.pod, 'Warning', FailedMountReason, `MountVolume.SetUp failed for volume "${v.name}" : ${msg}`);
      v.backoff = updateBackoff(v.backoff, msg, this.deps.clock.now());
      v.timer?.cancel();
      v.timer = this.deps.clock.setTimeout(() => {
        v.timer = undefined;
        if (!ps.disposed) void this.run(ps, () => this.reconcile(ps, true)).catch(() => undefined);
      }, v.backoff.durationMs);
      return false;
    }
  }

  /** The pod's lookup, with immutable objects served from what was seen first. */
  private cachedLookup(ps: PodState): ObjectLookup {
    const get = <T extends ConfigMap | Secret>(kind: string, ns: string, name: string, fetch: () => T | undefined): T | undefined => {
      const key = `${kind}/${ns}/${name}`;
      const cached = ps.immutables.get(key) as T | undefined;
      if (cached) return cached;
      const obj = fetch();
      if (obj?.immutable) ps.immutables.set(key, obj);
      return obj;
    };
    return {
      configMap: (ns, name) => get('configmap', ns, name, () => ps.lookup.configMap(ns, name)),
      secret: (ns, name) => get('secret', ns, name, () => ps.lookup.secret(ns, name)),
    };
  }

  /** The plugin's SetUp. Throws SetUpError with the text the event carries; returns whether content changed. */
  private async setUp(ps: PodState, v: VolState): Promise<boolean> {
    const kind = v.kind;
    if (typeof kind !== 'string') throw new SetUpError(`Pod Lab does not support ${kind.unsupported} volumes`);
    const pod = ps.pod;
    const ns = pod.metadata?.namespace ?? 'default';
    const lookup = this.cachedLookup(ps);
    const vol = v.volume;
    switch (kind) {
      case 'hostPath': {
        const err = setUpHostPath(vol.hostPath!);
        if (err) throw new SetUpError(err);
        return !v.mounted;
      }
      case 'emptyDir':
        return this.setUpEmptyDir(ps, v);
      case 'configMap':
        return this.writeVolume(v, configMapPayload(vol.configMap!, lookup.configMap(ns, vol.configMap!.name ?? '')), 0o777);
      case 'secret':
        return this.writeVolume(v, secretPayload(vol.secret!, lookup.secret(ns, vol.secret!.secretName ?? '')), 0o1777);
      case 'downwardAPI':
        return this.writeVolume(v, downwardAPIPayload(vol.downwardAPI!.items, pod, ps.facts, vol.downwardAPI!.defaultMode ?? DefaultMode), 0o1777);
      case 'projected':
        return this.writeVolume(v, projectedPayload(vol.projected!, pod, lookup, ps.facts), 0o1777);
    }
  }

  /** The payload first (a failure leaves the volume as it was), then the wrapped emptyDir, then the atomic writer. */
  private writeVolume(v: VolState, payload: PayloadResult, dirMode: number): boolean {
    if ('error' in payload) throw new SetUpError(payload.error);
    makeDir(v.hostPath, dirMode);
    return writePayload(v.hostPath, payload.files, this.deps.clock.now(), this.deps.random);
  }

  private async setUpEmptyDir(ps: PodState, v: VolState): Promise<boolean> {
    const medium = v.volume.emptyDir?.medium ?? '';
    if (medium !== '' && medium !== 'Memory') throw new SetUpError(`Pod Lab does not support emptyDir medium "${medium}"`);
    makeDir(v.hostPath, 0o777);
    const rt = this.deps.runtime;
    if (medium === 'Memory' && rt?.ensureTmpfsVolume) {
      const md = ps.pod.metadata ?? {};
      const sizeBytes = emptyDirMemorySizeBytes(ps.pod, v.volume.emptyDir?.sizeLimit, ps.facts.nodeAllocatable.memory);
      v.tmpfsVolume = await rt.ensureTmpfsVolume({
        name: tmpfsVolumeName(ps.uid, v.name),
        ...(sizeBytes > 0 ? { sizeBytes } : {}),
        labels: {
          [ManagedLabel]: 'true',
          [LabLabel]: this.deps.lab ?? this.deps.stateDir,
          [PodUIDLabel]: ps.uid,
          [PodNameLabel]: md.name ?? '',
          [PodNamespaceLabel]: md.namespace ?? 'default',
          [VolumeNameLabel]: v.name,
        },
      });
    }
    return !v.mounted;
  }
}

/** MkdirAll, then the mode whatever the umask (emptyDir's setupDir). */
function makeDir(dir: string, mode: number): void {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, mode);
}
