// The simulated kubelet: the kubelet of every simulated node (a v1 Node annotated
// `lab.podlab.dev/simulated: "true"`), the counterpart of KWOK's controller (kwok's
// pkg/kwok/controllers: node_controller posts a node's status, pod_controller plays the pod
// stages). It posts each simulated node's status (Ready, addresses, a default size when none is
// given) and moves the pods bound there along the timeline of stages.ts with the real kubelet's
// generatePodStatus, on the injected clock; a pod being deleted is removed at once (nothing runs
// that would need its grace period). It starts no container and records no kubelet event.
import type { Pod } from 'kubernetes-types/core/v1';
import type { Disposable } from '../../runtime/cri.js';
import { rfc3339, type Clock, type Timer } from '../clock.js';
import type { Store } from '../store.js';
import { generatePodStatus } from '../kubelet/status.js';
import { isSimulatedNode } from '../../shared/labels.js';
import { nodeHostIPs } from '../node.js';
import { planSettings, simulatedRuntime, type SimulationPlan } from './stages.js';

/** What a simulated node reports when its manifest gives no size (status.capacity). */
export const DEFAULT_SIMULATED_CAPACITY = { cpu: '4', memory: '16Gi', pods: '110' } as const;
/** kubeletVersion of a simulated node: `kubectl get nodes` shows it in the VERSION column. */
export const SIMULATED_KUBELET_VERSION = 'podlab-simulated';

/** Sequential IPv4 addresses from a /N range, never handing out one in use. */
class Ipam {
  private nextIndex = 1;
  private readonly used = new Set<string>();
  constructor(
    private readonly base: number,
    private readonly size: number,
  ) {}
  private text(i: number): string {
    const n = this.base + i;
    return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  }
  reserve(ip: string | undefined): void {
    if (ip) this.used.add(ip);
  }
  allocate(): string {
    for (let tries = 0; tries < this.size; tries++) {
      const i = this.nextIndex;
      this.nextIndex = (this.nextIndex % (this.size - 2)) + 1;
      const ip = this.text(i);
      if ((i & 255) === 0 || (i & 255) === 255 || this.used.has(ip)) continue;
      this.used.add(ip);
      return ip;
    }
    throw new Error('the simulated pod network is full');
  }
  release(ip: string | undefined): void {
    if (ip) this.used.delete(ip);
  }
}

const ipv4 = (a: number, b: number) => ((a << 24) | (b << 16)) >>> 0;

export interface SimulatedKubeletDeps {
  store: Store;
  clock: Clock;
  backoffInitialMs: number;
  backoffMaxMs: number;
  log: (line: string) => void;
}

interface Tracked {
  plan: SimulationPlan;
  timer?: Timer;
}

export class SimulatedKubelet implements Disposable {
  private readonly pods = new Map<string, Tracked>();
  /** Pod IPs: 10.244.0.0/14 (kind's and flannel's familiar 10.244 prefix, room for 250,000 pods). */
  private readonly podIps = new Ipam(ipv4(10, 244), 1 << 18);
  /** Node InternalIPs: 10.240.0.0/16. */
  private readonly nodeIps = new Ipam(ipv4(10, 240), 1 << 16);
  private readonly sub: Disposable;
  private readonly pending = new Set<string>();
  private flushQueued = false;
  private closed = false;

  constructor(private readonly deps: SimulatedKubeletDeps) {
    for (const n of deps.store.list('Node')) for (const a of n.status?.addresses ?? []) if (a.type === 'InternalIP') this.nodeIps.reserve(a.address);
    for (const p of deps.store.list('Pod')) if (this.onSimulatedNode(p)) this.podIps.reserve(p.status?.podIP);
    // Writes wait for a microtask: a listener must not write while the store is still delivering.
    this.sub = deps.store.watch((e) => {
      if (e.kind === 'Node' && e.type !== 'DELETED' && isSimulatedNode(e.object)) this.later(`node/${e.object.metadata?.name ?? ''}`);
      if (e.kind !== 'Pod') return;
      const uid = e.object.metadata?.uid ?? '';
      if (e.type === 'DELETED') return this.forget(uid, e.object);
      // Its own status writes come back here: a known pod needs a sync only when it is being deleted.
      if (e.type === 'MODIFIED' && this.pods.has(uid) && !e.object.metadata?.deletionTimestamp) return;
      if (this.onSimulatedNode(e.object)) this.later(`pod/${e.object.metadata?.namespace ?? 'default'}/${e.object.metadata?.name ?? ''}`);
    });
    for (const n of deps.store.list('Node')) if (isSimulatedNode(n)) this.later(`node/${n.metadata?.name ?? ''}`);
    for (const p of deps.store.list('Pod')) if (this.onSimulatedNode(p)) this.later(`pod/${p.metadata?.namespace ?? 'default'}/${p.metadata?.name ?? ''}`);
  }

  /** Whether the pod is bound to a simulated node (and so this kubelet's). */
  onSimulatedNode(pod: Pod): boolean {
    const n = pod.spec?.nodeName;
    return !!n && isSimulatedNode(this.deps.store.get('Node', undefined, n));
  }

  private later(key: string): void {
    this.pending.add(key);
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      const keys = [...this.pending];
      this.pending.clear();
      for (const k of keys) {
        if (this.closed) return;
        try {
          if (k.startsWith('node/')) this.syncNode(k.slice(5));
          else {
            const [, ns, name] = k.split('/');
            this.syncPod(ns!, name!);
          }
        } catch (err) {
          this.deps.log(`simulated kubelet: ${k}: ${(err as Error).message}`);
        }
      }
    });
  }

  /** The node's status as its kubelet posts it (kubelet_node_status.go's setters, simulated). */
  private syncNode(name: string): void {
    const node = this.deps.store.get('Node', undefined, name);
    if (!node || !isSimulatedNode(node)) return;
    if (node.status?.nodeInfo?.kubeletVersion === SIMULATED_KUBELET_VERSION && node.status.conditions?.some((c) => c.type === 'Ready')) return;
    const now = rfc3339(this.deps.clock.now());
    const capacity = { ...DEFAULT_SIMULATED_CAPACITY, ...node.status?.capacity };
    const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? this.nodeIps.allocate();
    this.deps.store.update('Node', undefined, name, (n) => {
      n.status = {
        ...n.status,
        capacity,
        allocatable: { ...capacity, ...n.status?.allocatable },
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now }],
        addresses: [
          { type: 'InternalIP', address: ip },
          { type: 'Hostname', address: name },
        ],
        nodeInfo: {
          machineID: '',
          systemUUID: '',
          bootID: '',
          kernelVersion: '',
          osImage: 'simulated',
          containerRuntimeVersion: 'simulated://',
          kubeletVersion: SIMULATED_KUBELET_VERSION,
          kubeProxyVersion: '',
          operatingSystem: 'linux',
          architecture: 'amd64',
        },
      };
    });
  }

  private syncPod(ns: string, name: string): void {
    const pod = this.deps.store.get('Pod', ns, name);
    if (!pod || !this.onSimulatedNode(pod)) return;
    const uid = pod.metadata?.uid ?? '';
    if (pod.metadata?.deletionTimestamp) {
      this.deps.store.delete('Pod', ns, name);
      return;
    }
    const node = this.deps.store.get('Node', undefined, pod.spec!.nodeName!);
    let t = this.pods.get(uid);
    if (!t) {
      const settings = planSettings(pod, node);
      for (const p of settings.problems) this.deps.log(`simulated kubelet: ${ns}/${name}: ${p}`);
      // A pod taken before a restart of the lab keeps its timeline: it started when it was bound.
      const scheduled = Date.parse(pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'True')?.lastTransitionTime ?? '');
      const boundAt = pod.status?.startTime && Number.isFinite(scheduled) ? scheduled : this.deps.clock.now();
      const ip = pod.status?.podIP ?? this.podIps.allocate();
      t = {
        plan: { boundAt, startAt: boundAt + settings.startDelayMs, ...(settings.exit ? { exit: settings.exit } : {}), ip, backoffInitialMs: this.deps.backoffInitialMs, backoffMaxMs: this.deps.backoffMaxMs },
      };
      this.pods.set(uid, t);
    }
    const now = this.deps.clock.now();
    const sim = simulatedRuntime(pod, t.plan, now);
    const status = generatePodStatus({ pod, runtime: sim.runtime, reasonCache: sim.reasons, podIsTerminal: false, now, hostIPs: nodeHostIPs(node) });
    if (JSON.stringify(status) !== JSON.stringify(pod.status)) this.deps.store.update('Pod', ns, name, (p) => void (p.status = status as typeof p.status));
    t.timer?.cancel();
    t.timer = undefined;
    if (sim.next !== undefined) t.timer = this.deps.clock.setTimeout(() => this.later(`pod/${ns}/${name}`), Math.max(0, sim.next - now));
  }

  private forget(uid: string, pod: Pod): void {
    const t = this.pods.get(uid);
    if (!t) return;
    t.timer?.cancel();
    this.pods.delete(uid);
    this.podIps.release(pod.status?.podIP ?? t.plan.ip);
  }

  /** How many pods this kubelet plays. */
  podCount(): number {
    return this.pods.size;
  }

  dispose(): void {
    this.closed = true;
    this.sub.dispose();
    for (const t of this.pods.values()) t.timer?.cancel();
    this.pods.clear();
  }
}

export { isSimulatedNode };
