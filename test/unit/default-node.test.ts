// The lab's default node as the kubelet's setNodeStatus describes its machine: the OS image and
// kernel the runtime reports (docker info's OperatingSystem and KernelVersion, from the host's
// /etc/os-release and uname -r as cadvisor reads them), not the host's name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultNode } from '../../src/engine/node.js';

const version = { runtimeName: 'docker', runtimeVersion: '26.1.5', cpus: 2, memoryBytes: 4 * 1024 ** 3, hostname: 'vm', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0-27-amd64' };

test('nodeInfo: the OS image and kernel as the runtime reports them', () => {
  assert.deepEqual(defaultNode(version).status?.nodeInfo, {
    containerRuntimeVersion: 'docker://26.1.5',
    kubeletVersion: 'podlab',
    kubeProxyVersion: '',
    architecture: process.arch === 'x64' ? 'amd64' : process.arch,
    operatingSystem: 'linux',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
    kernelVersion: '6.1.0-27-amd64',
    bootID: '',
    machineID: '',
    systemUUID: '',
  });
});
