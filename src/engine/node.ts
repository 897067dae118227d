// The lab's default virtual node, sized like the Docker host (the counterpart of the kubelet's
// node status: pkg/kubelet/kubelet_node_status.go setNodeStatus — capacity, allocatable,
// conditions, addresses, nodeInfo), and a node's IPs as a kubelet reads them from its Node object
// (component-helpers' GetNodeHostIPs). Pure: the runtime's version answer in, a v1 Node out.
import { isIP } from 'node:net';
import type { Node, Taint } from 'kubernetes-types/core/v1';
import type { RuntimeVersion } from '../runtime/cri.js';
import { rfc3339 } from './clock.js';
import { formatQuantity } from '../validation/quantity.js';
import { NODE_IP } from './kubelet/sandbox.js';

export const DEFAULT_NODE_NAME = 'podlab-node';

/** GOARCH of this machine (the Docker host the lab runs beside). */
const ARCH = process.arch === 'x64' ? 'amd64' : process.arch;
/** The kubelet's default hard eviction threshold for memory (memory.available<100Mi), which allocatable leaves out. */
const EVICTION_HARD_MEMORY = 100 * 1024 * 1024;

/** A byte count as the kubelet's BinarySI quantities print it (canonical: 4Gi, 24684084Ki, or plain bytes). */
const bytes = (n: number) => formatQuantity({ nano: BigInt(Math.max(0, Math.floor(n))) * 1_000_000_000n, format: 'BinarySI' });

/**
 * `now`: the registration's time (the conditions' heartbeat and transition); `rootFsBytes`: the size
 * of the filesystem under the kubelet's root (the lab's state directory), its ephemeral-storage.
 */
export function defaultNode(v: RuntimeVersion, now: number, machine: { rootFsBytes?: number } = {}): Node {
  const disk = machine.rootFsBytes;
  // nodefs.available<10%: the threshold is int64(capacity × 0.1)
  const storage = (reserved: boolean): Record<string, string> => (disk === undefined ? {} : { 'ephemeral-storage': bytes(reserved ? disk - Math.trunc(disk * 0.1) : disk) });
  const time = rfc3339(now);
  const condition = (type: string, status: 'True' | 'False', reason: string, message: string) => ({ type, status, lastHeartbeatTime: time, lastTransitionTime: time, reason, message });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: DEFAULT_NODE_NAME,
      // initialNode's labels (the stable and the beta os and arch), and the lab's instance type
      labels: {
        'beta.kubernetes.io/arch': ARCH,
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': ARCH,
        'kubernetes.io/hostname': DEFAULT_NODE_NAME,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': 'podlab',
      },
    },
    spec: {},
    status: {
      capacity: { cpu: String(v.cpus), ...storage(false), memory: bytes(v.memoryBytes), pods: '110' },
      allocatable: { cpu: String(v.cpus), ...storage(true), memory: bytes(v.memoryBytes - EVICTION_HARD_MEMORY), pods: '110' },
      conditions: [
        condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [
        { type: 'InternalIP', address: v.nodeIP || NODE_IP },
        { type: 'Hostname', address: DEFAULT_NODE_NAME },
      ],
      nodeInfo: {
        containerRuntimeVersion: `${v.runtimeName}://${v.runtimeVersion}`,
        kubeletVersion: 'podlab',
        kubeProxyVersion: '',
        architecture: ARCH,
        operatingSystem: 'linux',
        osImage: v.osImage,
        kernelVersion: v.kernelVersion,
        bootID: '',
        machineID: '',
        systemUUID: '',
      },
    },
  };
}

/**
 * A configured node as its kubelet registers it: one that lists no IP address gets the machine's
 * (`ip`) as its InternalIP, and its name as its Hostname address when it has none.
 */
export function withNodeAddresses(node: Node, ip: string): Node {
  const addresses = node.status?.addresses ?? [];
  if (addresses.some((a) => (a.type === 'InternalIP' || a.type === 'ExternalIP') && isIP(a.address) !== 0)) return node;
  const name = node.metadata?.name ?? '';
  const hostname = addresses.some((a) => a.type === 'Hostname') ? [] : [{ type: 'Hostname', address: name }];
  return { ...node, status: { ...node.status, addresses: [{ type: 'InternalIP', address: ip }, ...addresses, ...hostname] } };
}

/**
 * `next` with the transition times `prev` has for the conditions whose status did not change (the
 * kubelet moves lastTransitionTime only when a condition's status changes; the heartbeat always).
 */
export function withTransitionTimesOf(prev: Node | undefined, next: Node): Node {
  const before = new Map((prev?.status?.conditions ?? []).map((c) => [c.type, c]));
  const conditions = next.status?.conditions?.map((c) => {
    const old = before.get(c.type);
    return old?.status === c.status && old.lastTransitionTime ? { ...c, lastTransitionTime: old.lastTransitionTime } : c;
  });
  return conditions ? { ...next, status: { ...next.status, conditions } } : next;
}

/**
 * The node's IPs for its pods' status.hostIP(s) (GetNodeHostIPs): of its InternalIPs, then its
 * ExternalIPs, the first, and after it the first of the other IP family (a dual-stack node). None
 * when the node lists no IP address (upstream: "host IP unknown", and the pod has no hostIP).
 */
export function nodeHostIPs(node: Node | undefined): string[] {
  const addresses = node?.status?.addresses ?? [];
  const all = [...addresses.filter((a) => a.type === 'InternalIP'), ...addresses.filter((a) => a.type === 'ExternalIP')].map((a) => a.address).filter((ip) => isIP(ip) !== 0);
  const first = all[0];
  if (first === undefined) return [];
  const other = all.find((ip) => isIP(ip) !== isIP(first));
  return other === undefined ? [first] : [first, other];
}

const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';

/**
 * The node lifecycle controller's NoSchedule tainting (doNoScheduleTaintingPass): a cordoned node
 * (spec.unschedulable) carries node.kubernetes.io/unschedulable:NoSchedule, stamped with the time it
 * was added (SwapNodeControllerTaint); an uncordoned one loses it. The taints to write, or
 * undefined when they stay as they are.
 */
export function unschedulableTaints(node: Node, now: number): Taint[] | undefined {
  const taints = node.spec?.taints ?? [];
  const tainted = taints.some((t) => t.key === UNSCHEDULABLE_TAINT && t.effect === 'NoSchedule');
  if (!!node.spec?.unschedulable === tainted) return undefined;
  if (tainted) return taints.filter((t) => !(t.key === UNSCHEDULABLE_TAINT && t.effect === 'NoSchedule'));
  return [...taints, { key: UNSCHEDULABLE_TAINT, effect: 'NoSchedule', timeAdded: rfc3339(now) }];
}
