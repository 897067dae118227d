import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { hostAccessOf, engineOptionsFrom, parseNodesYaml, podRefOf, looksLikeKubernetes, runtimeId, dockerCliEnv } from '../../../src/extension/manifest.js';

const base = (spec: Partial<NonNullable<Pod['spec']>>): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox:1.35' }], ...spec } });

const hostAccessCases: { name: string; pod: Pod; want: string[] }[] = [
  { name: 'a plain pod reaches nothing on the host', pod: base({}), want: [] },
  { name: 'a hostPath volume is reported with its path', pod: base({ volumes: [{ name: 'root', hostPath: { path: '/etc' } }, { name: 'tmp', emptyDir: {} }] }), want: ['volume "root" mounts the host path /etc'] },
  {
    name: 'a privileged init container is reported like an app container',
    pod: base({ initContainers: [{ name: 'setup', image: 'busybox:1.35', securityContext: { privileged: true } }] }),
    want: ['container "setup" is privileged'],
  },
  { name: 'privileged: false is not reported', pod: base({ containers: [{ name: 'c', image: 'busybox:1.35', securityContext: { privileged: false } }] }), want: [] },
  {
    name: 'each host namespace is reported',
    pod: base({ hostNetwork: true, hostPID: true, hostIPC: true }),
    want: ['the pod uses the host network (hostNetwork: true)', 'the pod shares the host PID namespace (hostPID: true)', 'the pod shares the host IPC namespace (hostIPC: true)'],
  },
];
for (const c of hostAccessCases) test(c.name, () => assert.deepEqual(hostAccessOf(c.pod), c.want));

test('a pod without a namespace is named in the default namespace', () => {
  assert.deepEqual(podRefOf({ metadata: { name: 'web' } }), { namespace: 'default', name: 'web' });
  assert.deepEqual(podRefOf({ metadata: { name: 'web', namespace: 'lab' } }), { namespace: 'lab', name: 'web' });
  assert.equal(podRefOf({ metadata: {} }), undefined);
  assert.equal(podRefOf(null), undefined);
});

test('settings in seconds become engine milliseconds, and empty settings keep the engine defaults', () => {
  assert.deepEqual(engineOptionsFrom({}, undefined, undefined), { settings: {} });
  assert.deepEqual(engineOptionsFrom({ sandboxImage: '  ', backoffInitialSeconds: 2, backoffMaxSeconds: 16, stepMode: true }, undefined, '/state'), {
    settings: { backoffInitialMs: 2000, backoffMaxMs: 16000, stepMode: true, stateDir: '/state' },
  });
});

test('a back-off cap below the initial delay is raised to it', () => {
  assert.equal(engineOptionsFrom({ backoffInitialSeconds: 20, backoffMaxSeconds: 5 }, undefined, undefined).settings.backoffMaxMs, 20000);
});

test('a Docker host URL wins over a socket path, for the engine and the docker CLI alike', () => {
  assert.deepEqual(engineOptionsFrom({ dockerHost: 'tcp://127.0.0.1:2375', dockerSocketPath: '/x.sock' }, undefined, undefined).docker, { host: 'tcp://127.0.0.1:2375' });
  assert.deepEqual(engineOptionsFrom({ dockerSocketPath: '/x.sock' }, undefined, undefined).docker, { socketPath: '/x.sock' });
  assert.deepEqual(dockerCliEnv({ dockerSocketPath: '/x.sock' }), { DOCKER_HOST: 'unix:///x.sock' });
  assert.deepEqual(dockerCliEnv({}), {});
});

test('a nodes file yields its Node documents and names what it cannot use', () => {
  const { nodes, errors } = parseNodesYaml('kind: Node\nmetadata: {name: a}\n---\nkind: NodeList\nitems:\n- kind: Node\n  metadata: {name: b}\n---\nkind: Pod\nmetadata: {name: p}\n');
  assert.deepEqual(nodes.map((n) => n.metadata?.name), ['a', 'b']);
  assert.deepEqual(errors, ['a document of kind "Pod" (expected Node)']);
});

test('only YAML with apiVersion and kind is treated as Kubernetes manifests', () => {
  assert.equal(looksLikeKubernetes('apiVersion: v1\nkind: Pod\n'), true);
  assert.equal(looksLikeKubernetes('name: CI\non: push\njobs: {}\n'), false);
});

test('a runtime id is the part after the scheme of a containerID', () => {
  assert.equal(runtimeId('docker://abc123'), 'abc123');
  assert.equal(runtimeId('abc123'), 'abc123');
  assert.equal(runtimeId(''), undefined);
  assert.equal(runtimeId(undefined), undefined);
});
