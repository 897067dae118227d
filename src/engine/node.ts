// The lab's default virtual node, sized like the Docker host (the counterpart of the kubelet's
// node status: pkg/kubelet/kubelet_node_status.go setNodeStatus — capacity, allocatable,
// conditions, addresses, nodeInfo). Pure: the runtime's version answer in, a v1 Node out.
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
        { type: 'InternalIP', address: NODE_IP },
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
