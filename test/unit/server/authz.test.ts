// The lab server's request attributes (requestinfo.go), its small policy and kube-apiserver's 403
// wording (responsewriters/errors.go), as pure functions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OWNER, authorize, forbiddenFor, requestAttributes, upgradeAttributes, type RequestAttributes } from '../../../src/server/authz.js';

const u = (p: string) => new URL(p, 'https://127.0.0.1');
const alice = { name: 'alice', groups: ['viewers', 'system:authenticated'] };

describe('request attributes', () => {
  const cases: [string, string, string, RequestAttributes][] = [
    ['listing pods of a namespace is list', 'GET', '/api/v1/namespaces/default/pods', { resourceRequest: true, verb: 'list', apiGroup: '', resource: 'pods', subresource: '', namespace: 'default', name: '', path: '/api/v1/namespaces/default/pods' }],
    ['?watch=true makes it watch', 'GET', '/api/v1/namespaces/default/pods?watch=true', { resourceRequest: true, verb: 'watch', apiGroup: '', resource: 'pods', subresource: '', namespace: 'default', name: '', path: '/api/v1/namespaces/default/pods' }],
    ['reading a pod’s log is get on pods/log', 'GET', '/api/v1/namespaces/ns/pods/p/log', { resourceRequest: true, verb: 'get', apiGroup: '', resource: 'pods', subresource: 'log', namespace: 'ns', name: 'p', path: '/api/v1/namespaces/ns/pods/p/log' }],
    ['deleting without a name is deletecollection', 'DELETE', '/api/v1/namespaces/ns/pods', { resourceRequest: true, verb: 'deletecollection', apiGroup: '', resource: 'pods', subresource: '', namespace: 'ns', name: '', path: '/api/v1/namespaces/ns/pods' }],
    ['a cluster-scoped group resource', 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { resourceRequest: true, verb: 'create', apiGroup: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews', subresource: '', namespace: '', name: '', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews' }],
    ['discovery is a non-resource request', 'GET', '/apis', { resourceRequest: false, verb: 'get', apiGroup: '', resource: '', subresource: '', namespace: '', name: '', path: '/apis' }],
  ];
  for (const [name, method, path, want] of cases) test(name, () => assert.deepEqual(requestAttributes(method, u(path)), want));
  test('an exec upgrade (WebSocket GET or SPDY POST) is create on pods/exec', () =>
    assert.deepEqual(upgradeAttributes(u('/api/v1/namespaces/default/pods/p/exec?command=sh')), { resourceRequest: true, verb: 'create', apiGroup: '', resource: 'pods', subresource: 'exec', namespace: 'default', name: 'p', path: '/api/v1/namespaces/default/pods/p/exec' }));
});

test('a WebSocket watch is a watch, so readers may watch', () => {
  const a = upgradeAttributes(u('/api/v1/namespaces/default/pods?watch=true'));
  assert.deepEqual([a.verb, a.resource, a.subresource], ['watch', 'pods', '']);
  assert.equal(authorize(alice, a), true);
});

describe('the lab’s policy', () => {
  const cases: [string, typeof alice, string, string, boolean][] = [
    ['the owner may do anything', OWNER, 'DELETE', '/api/v1/namespaces/default/pods', true],
    ['another user may list', alice, 'GET', '/api/v1/namespaces/default/pods', true],
    ['another user may read logs', alice, 'GET', '/api/v1/namespaces/default/pods/p/log', true],
    ['another user may ask what it may do', alice, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', true],
    ['another user may not create', alice, 'POST', '/api/v1/namespaces/default/pods', false],
    ['nor patch', alice, 'PATCH', '/api/v1/namespaces/default/pods/p', false],
  ];
  for (const [name, user, method, path, want] of cases) test(name, () => assert.equal(authorize(user, requestAttributes(method, u(path))), want));
});

describe('the 403 Status', () => {
  test('a collection: `pods is forbidden: User … cannot create resource "pods" in API group "" in the namespace …`', () =>
    assert.deepEqual(forbiddenFor(alice, requestAttributes('POST', u('/api/v1/namespaces/default/pods'))), {
      code: 403,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "default"',
        reason: 'Forbidden',
        details: { kind: 'pods' },
        code: 403,
      },
    }));
  test('a named subresource keeps the name and says pods/exec', () =>
    assert.equal(forbiddenFor(alice, upgradeAttributes(u('/api/v1/namespaces/default/pods/p/exec'))).body.message, 'pods "p" is forbidden: User "alice" cannot create resource "pods/exec" in API group "" in the namespace "default"'));
  test('a non-resource path', () => assert.equal(forbiddenFor(alice, requestAttributes('POST', u('/version'))).body.message, 'forbidden: User "alice" cannot post path "/version"'));
});
