import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  SERVED_KUBERNETES_VERSION,
  apiGroup,
  apiGroupList,
  apiVersions,
  authorizationV1Resources,
  coreV1Resources,
  discoveryDocument,
  labV1alpha1Resources,
  versionInfo,
} from '../../../src/server/discovery.js';
import { labResources } from '../../../src/server/lab-api.js';

const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS = ['get', 'patch', 'update'];

describe('discovery documents are a v1.33 API server’s', () => {
  test('/version is v1.33.1 on linux/amd64 with its emulation and minimum compatibility versions', () => {
    assert.deepEqual(versionInfo(), {
      major: '1',
      minor: '33',
      emulationMajor: '1',
      emulationMinor: '33',
      minCompatibilityMajor: '1',
      minCompatibilityMinor: '32',
      gitVersion: 'v1.33.1',
      gitCommit: '8adc0f041b8e7ad1d30e29cc59c6ae7a15e19828',
      gitTreeState: 'clean',
      buildDate: '2025-05-15T08:27:33Z',
      goVersion: 'go1.24.2',
      compiler: 'gc',
      platform: 'linux/amd64',
    });
    assert.equal(SERVED_KUBERNETES_VERSION.minor, '33');
  });

  test('/api lists v1 and where clients reach the server, without apiVersion', () => {
    assert.deepEqual(apiVersions('127.0.0.1:6443'), { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] });
  });

  test('/api/v1 lists the served core resources sorted by name, without apiVersion', () => {
    assert.deepEqual(coreV1Resources(), {
      kind: 'APIResourceList',
      groupVersion: 'v1',
      resources: [
        { name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] },
        { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ALL, shortNames: ['cm'], storageVersionHash: 'qFsyl6wFWjQ=' },
        { name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ALL, shortNames: ['ev'], storageVersionHash: 'r2yiGXH7wu8=' },
        { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ns'], storageVersionHash: 'Q3oi5N2YM8M=' },
        { name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: STATUS },
        { name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: ALL, shortNames: ['no'], storageVersionHash: 'XwShjMxG9Fs=' },
        { name: 'nodes/status', singularName: '', namespaced: false, kind: 'Node', verbs: STATUS },
        { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ALL, shortNames: ['po'], categories: ['all'], storageVersionHash: 'xPOwRZ+Yhw8=' },
        { name: 'pods/attach', singularName: '', namespaced: true, kind: 'PodAttachOptions', verbs: ['create', 'get'] },
        { name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] },
        { name: 'pods/ephemeralcontainers', singularName: '', namespaced: true, kind: 'Pod', verbs: STATUS },
        { name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
        { name: 'pods/exec', singularName: '', namespaced: true, kind: 'PodExecOptions', verbs: ['create', 'get'] },
        { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
        { name: 'pods/portforward', singularName: '', namespaced: true, kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
        { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: STATUS },
        { name: 'secrets', singularName: 'secret', namespaced: true, kind: 'Secret', verbs: ALL, storageVersionHash: 'S6u1pOWzb84=' },
      ],
    });
  });

  test('/apis lists authorization.k8s.io then lab.podlab.dev', () => {
    assert.deepEqual(apiGroupList(), {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [
        { name: 'authorization.k8s.io', versions: [{ groupVersion: 'authorization.k8s.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'authorization.k8s.io/v1', version: 'v1' } },
        { name: 'lab.podlab.dev', versions: [{ groupVersion: 'lab.podlab.dev/v1alpha1', version: 'v1alpha1' }], preferredVersion: { groupVersion: 'lab.podlab.dev/v1alpha1', version: 'v1alpha1' } },
      ],
    });
  });

  test('/apis/authorization.k8s.io/v1 lists the two self reviews', () => {
    assert.deepEqual(authorizationV1Resources(), {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'authorization.k8s.io/v1',
      resources: [
        { name: 'selfsubjectaccessreviews', singularName: 'selfsubjectaccessreview', namespaced: false, kind: 'SelfSubjectAccessReview', verbs: ['create'] },
        { name: 'selfsubjectrulesreviews', singularName: 'selfsubjectrulesreview', namespaced: false, kind: 'SelfSubjectRulesReview', verbs: ['create'] },
      ],
    });
  });

  test('/apis/lab.podlab.dev/v1alpha1 lists the lab API table', () => {
    assert.deepEqual(labV1alpha1Resources(), { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'lab.podlab.dev/v1alpha1', resources: (labResources() as { resources: unknown[] }).resources });
  });
});

describe('discoveryDocument routes discovery paths', () => {
  const cases: [string, string, unknown][] = [
    ['/api', '/api', apiVersions('h:1')],
    ['/api/ with a trailing slash', '/api/', apiVersions('h:1')],
    ['/api/v1', '/api/v1', coreV1Resources()],
    ['/apis', '/apis', apiGroupList()],
    [
      '/apis/<group> is the APIGroup with kind and apiVersion',
      '/apis/authorization.k8s.io',
      { kind: 'APIGroup', apiVersion: 'v1', name: 'authorization.k8s.io', versions: [{ groupVersion: 'authorization.k8s.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'authorization.k8s.io/v1', version: 'v1' } },
    ],
    ['/apis/<group>/<version>', '/apis/lab.podlab.dev/v1alpha1', labV1alpha1Resources()],
    ['an unserved group is not discovery', '/apis/apps', undefined],
    ['an unserved version is not discovery', '/apis/authorization.k8s.io/v1beta1', undefined],
    ['a resource path is not discovery', '/api/v1/pods', undefined],
    ['/version is not discovery', '/version', undefined],
  ];
  for (const [name, path, want] of cases) test(name, () => assert.deepEqual(discoveryDocument(path, 'h:1'), want));

  test('an unknown group has no APIGroup', () => assert.equal(apiGroup('apps'), undefined));
});
