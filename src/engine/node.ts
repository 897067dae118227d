// The lab's default virtual node, sized like the Docker host (the counterpart of the kubelet's
// node status: pkg/kubelet/kubelet_node_status.go setNodeStatus — capacity, allocatable,
// conditions, addresses, nodeInfo), and a node's IPs as a kubelet reads them from its Node object
// (component-helpers' GetNodeHostIPs). Pure: the runtime's version answer in, a v1 Node out.
import { isIP } from 'node:net';
import type { Node } from 'kubernetes-types/core/v1';
import type { RuntimeVersion } from '../runtime/cri.js';
import { NODE_IP } from './kubelet/sandbox.js';

export const DEFAULT_NODE_NAME = 'podlab-node';

export function defaultNode(v: RuntimeVersion): Node {
  const memory = `${Math.floor(v.memoryBytes / 1024)}Ki`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: DEFAULT_NODE_NAME,
      labels: { 'kubernetes.io/hostname': DEFAULT_NODE_NAME, 'kubernetes.io/os': 'linux', 'node.kubernetes.io/instance-type': 'podlab' },
    },
    spec: {},
    status: {
      capacity: { cpu: String(v.cpus), memory, pods: '110' },
      allocatable: { cpu: String(v.cpus), memory, pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
      addresses: [
        { type: 'InternalIP', address: v.nodeIP || NODE_IP },
        { type: 'Hostname', address: DEFAULT_NODE_NAME },
      ],
      nodeInfo: {
        containerRuntimeVersion: `${v.runtimeName}://${v.runtimeVersion}`,
        kubeletVersion: 'podlab',
        kubeProxyVersion: '',
        architecture: process.arch === 'x64' ? 'amd64' : process.arch,
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
