// The Clusters view's pure model: context rows per connection state, how failures read (an RBAC
// refusal in the API server's words), the namespace shown, and the question before Run Pod sends
// a pod to a real cluster.
import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import type { ConfigMap, Pod } from 'kubernetes-types/core/v1';
import { classify, contextRow, createInContext, kubeconfigFiles, namespaceOf, runInContextQuestion, type ContextInfo, type ClusterState, type ContextRow, type Problem } from '../../../src/extension/clusterModel.js';

const kind: ContextInfo = { name: 'kind-dev', cluster: 'kind-dev', user: 'kind-dev', server: 'https://127.0.0.1:41234', current: true };
const prod: ContextInfo = { name: 'prod', cluster: 'gke_prod', user: 'alice', namespace: 'shop', server: 'https://34.1.2.3', current: false };

describe('the namespace a context shows', () => {
  const cases: [string, ContextInfo, string | undefined, string][] = [
    ['the user’s choice wins', prod, 'payments', 'payments'],
    ['else the context’s own namespace', prod, undefined, 'shop'],
    ['else default, as kubectl', kind, undefined, 'default'],
    ['an empty choice counts as none', kind, '', 'default'],
  ];
  for (const [name, info, chosen, want] of cases) test(name, () => assert.equal(namespaceOf(info, chosen), want));
});

describe('context rows', () => {
  const forbidden: Problem = { kind: 'forbidden', text: 'RBAC refused: pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "shop"' };
  const cases: [string, ContextInfo, ClusterState, ContextRow][] = [
    [
      'a context not opened yet says it connects when expanded',
      kind,
      { kind: 'closed' },
      { id: 'ctx:kind-dev', label: 'kind-dev', description: 'current context · namespace default', tooltip: 'context kind-dev\ncluster kind-dev (https://127.0.0.1:41234)\nuser kind-dev\nnamespace default\nExpand to connect.', icon: 'cloud', tone: 'idle', contextValue: 'context.closed' },
    ],
    [
      'a connected context counts its pods in English',
      prod,
      { kind: 'connected', pods: 1 },
      { id: 'ctx:prod', label: 'prod', description: 'namespace shop · 1 pod', tooltip: 'context prod\ncluster gke_prod (https://34.1.2.3)\nuser alice\nnamespace shop', icon: 'cloud', tone: 'ok', contextValue: 'context.connected' },
    ],
    [
      'an RBAC refusal is labelled as one, with a lock and the server’s words in the tooltip',
      prod,
      { kind: 'failed', problem: forbidden },
      { id: 'ctx:prod', label: 'prod', description: 'namespace shop · forbidden by RBAC', tooltip: `context prod\ncluster gke_prod (https://34.1.2.3)\nuser alice\nnamespace shop\n${forbidden.text}`, icon: 'lock', tone: 'error', contextValue: 'context.failed' },
    ],
    [
      'a context whose server stopped answering says the connection is lost and that it retries, not its last pods',
      kind,
      { kind: 'lost', problem: { kind: 'unreachable', text: 'connect ECONNREFUSED 127.0.0.1:41234' } },
      {
        id: 'ctx:kind-dev',
        label: 'kind-dev',
        description: 'current context · namespace default · connection lost (unreachable), retrying',
        tooltip: 'context kind-dev\ncluster kind-dev (https://127.0.0.1:41234)\nuser kind-dev\nnamespace default\nconnect ECONNREFUSED 127.0.0.1:41234\nRetrying with a growing pause; the pods are listed again when the server answers.',
        icon: 'debug-disconnect',
        tone: 'error',
        contextValue: 'context.lost',
      },
    ],
  ];
  for (const [name, info, state, want] of cases) test(name, () => assert.deepEqual(contextRow(info, namespaceOf(info, undefined), state), want));
});

describe('classifying client errors', () => {
  const status = (code: number, reason: string, message: string) => Object.assign(new Error(message), { code, reason });
  const cases: [string, unknown, Problem][] = [
    [
      'a 403 Status is an RBAC refusal, in the server’s words',
      status(403, 'Forbidden', 'pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "default"'),
      { kind: 'forbidden', text: 'RBAC refused: pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "default"' },
    ],
    ['a 401 Status means the credentials were refused', status(401, 'Unauthorized', 'Unauthorized'), { kind: 'unauthorized', text: 'The server refused the credentials (401 Unauthorized): Unauthorized' }],
    ['a refused connection is unreachable', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' }), { kind: 'unreachable', text: 'connect ECONNREFUSED 127.0.0.1:6443' }],
    ['an unknown CA is a TLS problem', new Error('self-signed certificate in certificate chain'), { kind: 'tls', text: 'self-signed certificate in certificate chain' }],
    ['anything else keeps its message', new Error('exec plugin: gke-gcloud-auth-plugin not found'), { kind: 'other', text: 'exec plugin: gke-gcloud-auth-plugin not found' }],
  ];
  for (const [name, err, want] of cases) test(name, () => assert.deepEqual(classify(err), want));
});

describe('the question before running on a real cluster', () => {
  test('it names the context, the cluster, the namespace and the user, and says what is not available there', () =>
    assert.deepEqual(runInContextQuestion(['web'], prod, 'shop'), {
      message: 'Create pod "web" in context "prod"?',
      detail: "Cluster gke_prod at https://34.1.2.3, namespace shop, as user alice.\n\nThis is a real cluster, not the lab: its scheduler and kubelet run the pod, and the lab's step mode and Restart now are not available there.",
      confirm: 'Create in prod',
    }));
  test('several pods are counted', () => assert.equal(runInContextQuestion(['a', 'b'], kind, 'default').message, 'Create 2 pods in context "kind-dev"?'));
});

describe('Run Pod in a context: what is created, and how each refusal reads', () => {
  const forbidden = (verb: string, resource: string) =>
    Object.assign(new Error(`${resource} is forbidden: User "viewer" cannot ${verb} resource "${resource}" in API group "" in the namespace "shop"`), { code: 403, reason: 'Forbidden' });
  const cm: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } };
  const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'busybox' }] } };
  const other: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db', namespace: 'data' }, spec: { containers: [{ name: 'app', image: 'busybox' }] } };
  /** A cluster that refuses what `refuse` names (kind/name), recording what it was sent. */
  const cluster = (refuse: Record<string, Error>) => {
    const sent: string[] = [];
    const take = async (o: { kind?: string; metadata?: { name?: string; namespace?: string } }) => {
      const key = `${o.kind}/${o.metadata?.name}`;
      if (refuse[key]) throw refuse[key];
      sent.push(`${key} in ${o.metadata?.namespace}`);
      return o;
    };
    return { sent, engine: { applyObject: take, createPod: take } };
  };
  const cases: [string, Record<string, Error>, { created: string[]; sent: string[]; problems: string[] }][] = [
    ['everything is created, in the chosen namespace unless the document names one', {}, { created: ['shop/web', 'data/db'], sent: ['ConfigMap/settings in shop', 'Pod/web in shop', 'Pod/db in data'], problems: [] }],
    [
      'a refused ConfigMap is reported in RBAC words and the pods are still created (as kubectl apply goes on)',
      { 'ConfigMap/settings': forbidden('create', 'configmaps') },
      {
        created: ['shop/web', 'data/db'],
        sent: ['Pod/web in shop', 'Pod/db in data'],
        problems: ['cannot create ConfigMap "settings" in context "prod": RBAC refused: configmaps is forbidden: User "viewer" cannot create resource "configmaps" in API group "" in the namespace "shop"'],
      },
    ],
    [
      'a refused pod is reported and the next one is still created',
      { 'Pod/web': forbidden('create', 'pods') },
      {
        created: ['data/db'],
        sent: ['ConfigMap/settings in shop', 'Pod/db in data'],
        problems: ['cannot create pod "web" in context "prod": RBAC refused: pods is forbidden: User "viewer" cannot create resource "pods" in API group "" in the namespace "shop"'],
      },
    ],
  ];
  for (const [name, refuse, want] of cases)
    test(name, async () => {
      const c = cluster(refuse);
      const r = await createInContext(c.engine, [cm], [pod, other], 'prod', 'shop');
      assert.deepEqual({ created: r.created.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`), sent: c.sent, problems: r.problems }, want);
    });
  test('the documents given are not changed', async () => {
    const before = structuredClone([cm, pod]);
    await createInContext(cluster({}).engine, [cm], [pod], 'prod', 'shop');
    assert.deepEqual([cm, pod], before);
  });
});

describe('the kubeconfig files the Clusters view watches', () => {
  const cases: [string, string | undefined, string | undefined, string[]][] = [
    ['the setting names the one file', '/work/kc.yaml', '/a:/b', ['/work/kc.yaml']],
    ["KUBECONFIG's files in order, then ~/.kube/config (read when none of them exists)", undefined, '/a/config::/b/config:/a/config', ['/a/config', '/b/config', '/home/u/.kube/config']],
    ['without either, ~/.kube/config (where kind and minikube write)', undefined, undefined, ['/home/u/.kube/config']],
  ];
  for (const [name, setting, env, want] of cases) test(name, () => assert.deepEqual(kubeconfigFiles(setting, env, '/home/u/'), want));
});
