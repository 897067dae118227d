// The real-cluster client (src/client/cluster.ts) against a second lab server started in its own
// state directory (its own CA and token), through a kubeconfig with one context per way of
// authenticating that the lab server accepts: its bearer token, a client certificate of
// system:masters, an exec credential plugin handing out the token, the token through an HTTP
// CONNECT proxy (proxy-url), and a client certificate of a read-only user whose writes are refused
// with kube-apiserver's 403 wording. Plus a context whose CA is wrong. The lab server runs on the
// fake engine: no Docker.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { issueClientCertificate, loadOrCreateCredentials, type LabCredentials } from '../../../src/server/credentials.js';
import { LabServer } from '../../../src/server/server.js';
import { listContexts, openCluster, LabOnlyError, type ClusterEngine } from '../../../src/client/cluster.js';
import { ApiStatusError } from '../../../src/client/connection.js';
import { fakeLab, podOf } from '../../support/fake-engine.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

let lab: Awaited<ReturnType<typeof fakeLab>>;
let server: LabServer;
let creds: LabCredentials;
let proxy: Server;
let proxied = 0;
let dir: string;
let kubeconfig: string;

before(async () => {
  lab = await fakeLab();
  creds = await loadOrCreateCredentials(lab.engine.settings.stateDir);
  server = new LabServer({ engine: lab.engine, credentials: creds, log: () => undefined });
  const port = await server.listen(0);
  const url = `https://127.0.0.1:${port}`;
  // A CONNECT proxy (what proxy-url points at in a corporate network), counting tunnels.
  proxy = createHttpServer();
  proxy.on('connect', (req, socket, head) => {
    proxied++;
    const [host, p] = (req.url ?? '').split(':');
    const up = connect(Number(p), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const proxyPort = (proxy.address() as { port: number }).port;

  dir = mkdtempSync(join(tmpdir(), 'podlab-kubeconfig-'));
  const admin = await issueClientCertificate(creds, { user: 'ada', groups: ['system:masters'] });
  const viewer = await issueClientCertificate(creds, { user: 'alice', groups: ['viewers'] });
  const plugin = join(dir, 'credential-plugin.js');
  writeFileSync(
    plugin,
    `#!/usr/bin/env node\nprocess.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: ${JSON.stringify(creds.token)} } }));\n`,
  );
  chmodSync(plugin, 0o755);
  const other = await loadOrCreateCredentials(mkdtempSync(join(tmpdir(), 'podlab-other-ca-')));
  const cluster = (name: string, extra: object = {}) => ({ name, cluster: { server: url, 'certificate-authority-data': b64(creds.caPem), ...extra } });
  const cfg = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'token',
    clusters: [cluster('lab'), cluster('lab-via-proxy', { 'proxy-url': `http://127.0.0.1:${proxyPort}` }), { name: 'wrong-ca', cluster: { server: url, 'certificate-authority-data': b64(other.caPem) } }],
    users: [
      { name: 'owner', user: { token: creds.token } },
      { name: 'ada', user: { 'client-certificate-data': b64(admin.certPem), 'client-key-data': b64(admin.keyPem) } },
      { name: 'alice', user: { 'client-certificate-data': b64(viewer.certPem), 'client-key-data': b64(viewer.keyPem) } },
      { name: 'plugin', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [plugin], interactiveMode: 'Never' } } },
    ],
    contexts: [
      { name: 'token', context: { cluster: 'lab', user: 'owner' } },
      { name: 'cert-admin', context: { cluster: 'lab', user: 'ada', namespace: 'default' } },
      { name: 'exec-plugin', context: { cluster: 'lab', user: 'plugin' } },
      { name: 'proxy', context: { cluster: 'lab-via-proxy', user: 'owner' } },
      { name: 'cert-viewer', context: { cluster: 'lab', user: 'alice' } },
      { name: 'wrong-ca', context: { cluster: 'wrong-ca', user: 'owner' } },
    ],
  };
  kubeconfig = join(dir, 'config');
  writeFileSync(kubeconfig, stringify(cfg));
  // The runtime's log lines carry their RFC 3339 timestamp (as Docker's with timestamps); the API strips it unless asked.
  lab.rt.programs.set('app', { logs: ['2024-05-01T10:00:00.000000001Z hello from app', '2024-05-01T10:00:01.000000001Z second line'] });
  await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(1000);
});

after(async () => {
  await server.close();
  await new Promise<void>((r) => proxy.close(() => r()));
  await lab.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Waits (real time) until `pred` holds, up to 5 s. */
async function until(pred: () => boolean, what: () => string): Promise<void> {
  for (let i = 0; i < 250 && !pred(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(pred(), what());
}

test('the contexts of the kubeconfig are listed with their cluster, user, namespace and server', () => {
  const srv = 'https://127.0.0.1:PORT';
  assert.deepEqual(
    listContexts(kubeconfig).map((c) => ({ ...c, server: c.server.replace(/:\d+$/, ':PORT') })),
    [
      { name: 'token', cluster: 'lab', user: 'owner', server: srv, current: true },
      { name: 'cert-admin', cluster: 'lab', user: 'ada', namespace: 'default', server: srv, current: false },
      { name: 'exec-plugin', cluster: 'lab', user: 'plugin', server: srv, current: false },
      { name: 'proxy', cluster: 'lab-via-proxy', user: 'owner', server: srv, current: false },
      { name: 'cert-viewer', cluster: 'lab', user: 'alice', server: srv, current: false },
      { name: 'wrong-ca', cluster: 'wrong-ca', user: 'owner', server: srv, current: false },
    ],
  );
});

test('without KUBECONFIG and ~/.kube/config there are no contexts (no made-up localhost:8080 context)', () => {
  const saved = { HOME: process.env.HOME, KUBECONFIG: process.env.KUBECONFIG };
  process.env.HOME = mkdtempSync(join(tmpdir(), 'podlab-home-'));
  delete process.env.KUBECONFIG;
  try {
    assert.deepEqual(listContexts(), []);
    process.env.KUBECONFIG = kubeconfig;
    assert.deepEqual(listContexts().map((c) => c.name), ['token', 'cert-admin', 'exec-plugin', 'proxy', 'cert-viewer', 'wrong-ca']);
  } finally {
    rmSync(process.env.HOME, { recursive: true, force: true });
    process.env.HOME = saved.HOME;
    if (saved.KUBECONFIG === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = saved.KUBECONFIG;
  }
});

test('KUBECONFIG lists are merged as kubectl merges them: missing files skipped, the first name and current-context win', () => {
  const saved = process.env.KUBECONFIG;
  const second = join(dir, 'second');
  writeFileSync(
    second,
    stringify({ apiVersion: 'v1', kind: 'Config', 'current-context': 'extra', clusters: [{ name: 'lab', cluster: { server: 'https://10.0.0.1' } }], users: [{ name: 'owner', user: { token: 'x' } }], contexts: [{ name: 'extra', context: { cluster: 'lab', user: 'owner' } }, { name: 'token', context: { cluster: 'lab', user: 'other' } }] }),
  );
  process.env.KUBECONFIG = [join(dir, 'missing'), kubeconfig, second].join(':');
  try {
    const got = listContexts();
    assert.deepEqual(got.map((c) => [c.name, c.current, c.user]), [['token', true, 'owner'], ['cert-admin', false, 'ada'], ['exec-plugin', false, 'plugin'], ['proxy', false, 'owner'], ['cert-viewer', false, 'alice'], ['wrong-ca', false, 'owner'], ['extra', false, 'owner']]);
    assert.match(got.find((c) => c.name === 'extra')!.server, /^https:\/\/127\.0\.0\.1:\d+$/, 'the first file’s cluster "lab" wins');
  } finally {
    if (saved === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = saved;
  }
});

test('a broken kubeconfig is a clear error', () => {
  const bad = join(dir, 'broken');
  writeFileSync(bad, 'clusters: [ {');
  assert.throws(() => listContexts(bad), /^Error: cannot read the kubeconfig .*broken: /);
});

for (const context of ['token', 'cert-admin', 'exec-plugin', 'proxy']) {
  test(`context ${context}: lists and watches the namespace's pods, reads logs, creates and deletes a pod`, async () => {
    const before = proxied;
    const c: ClusterEngine = await openCluster({ kubeconfig, context });
    try {
      assert.deepEqual(c.target.namespace, 'default');
      assert.deepEqual(c.listPods().map((p) => [p.metadata?.name, p.status?.phase]), [['p', 'Running']]);
      assert.deepEqual(await c.logs('default', 'p', 'app'), ['hello from app', 'second line']);
      const seen: string[] = [];
      const sub = c.watch((e) => e.kind === 'Pod' && seen.push(`${e.type} ${e.object.metadata?.name}`));
      await c.createPod(podOf({ containers: [{ name: 'app' }] }, `second-${context}`));
      await until(() => c.getPod('default', `second-${context}`) !== undefined, () => seen.join(', '));
      await lab.clock.advanceAsync(1000);
      const deleting = c.deletePod('default', `second-${context}`, 0);
      for (let i = 0; i < 20 && c.getPod('default', `second-${context}`); i++) await lab.clock.advanceAsync(1000);
      await deleting;
      sub.dispose();
      assert.deepEqual([seen[0], seen[seen.length - 1]], [`ADDED second-${context}`, `DELETED second-${context}`]);
      assert.equal(c.getPod('default', `second-${context}`), undefined);
      if (context === 'proxy') assert.ok(proxied > before, 'the requests went through the proxy');
      else assert.equal(proxied, before, 'no request went through the proxy');
    } finally {
      await c.close();
    }
  });
}

test('a read-only user: reading works, creating and exec are refused with kube-apiserver’s 403 Status, verbatim', async () => {
  const c = await openCluster({ kubeconfig, context: 'cert-viewer' });
  try {
    assert.deepEqual(c.listPods().map((p) => p.metadata?.name), ['p']);
    const created = await c.createPod(podOf({ containers: [{ name: 'app' }] }, 'nope')).catch((e: unknown) => e);
    assert.ok(created instanceof ApiStatusError);
    assert.deepEqual([created.code, created.reason, created.message], [403, 'Forbidden', 'pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "default"']);
    const deleted = await c.deletePod('default', 'p').catch((e: unknown) => e);
    assert.ok(deleted instanceof ApiStatusError);
    assert.equal(deleted.message, 'pods "p" is forbidden: User "alice" cannot delete resource "pods" in API group "" in the namespace "default"');
    const exec = await c.exec('default', 'p', 'app', ['true']).catch((e: unknown) => e);
    assert.ok(exec instanceof ApiStatusError, `exec is refused with the API's Status: ${String(exec)}`);
    assert.deepEqual([exec.code, exec.reason, exec.message], [403, 'Forbidden', 'pods "p" is forbidden: User "alice" cannot create resource "pods/exec" in API group "" in the namespace "default"']);
  } finally {
    await c.close();
  }
});

test('the lab’s serving certificate is no user: presented as a client certificate it is not authenticated', async () => {
  const bad = join(dir, 'serving-as-client');
  const cfg = { apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'lab', cluster: { server: listContexts(kubeconfig)[0]!.server, 'certificate-authority-data': b64(creds.caPem) } }], users: [{ name: 'srv', user: { 'client-certificate-data': b64(creds.certPem), 'client-key-data': b64(creds.keyPem) } }], contexts: [{ name: 'srv', context: { cluster: 'lab', user: 'srv' } }] };
  writeFileSync(bad, stringify(cfg));
  const r = await openCluster({ kubeconfig: bad, context: 'srv' }).catch((e: unknown) => e);
  assert.ok(r instanceof ApiStatusError);
  assert.deepEqual([r.code, r.reason], [401, 'Unauthorized']);
});

test('lab features are refused on a cluster, saying why', async () => {
  const c = await openCluster({ kubeconfig, context: 'token' });
  try {
    assert.throws(() => c.restartNow('default', 'p', 'app'), (e: unknown) => e instanceof LabOnlyError && /^Restart now is a Pod Lab feature/.test(e.message));
    assert.throws(() => c.continueStep('default', 'p'), LabOnlyError);
    assert.equal(await c.debugInfo('default', 'p'), undefined);
  } finally {
    await c.close();
  }
});

test('a context whose CA did not sign the server’s certificate fails with a TLS error', async () => {
  const r = await openCluster({ kubeconfig, context: 'wrong-ca' }).catch((e: unknown) => e);
  assert.ok(r instanceof Error);
  assert.match(r.message, /self[- ]signed certificate|unable to verify|certificate/i);
});

test('an unknown context is named', async () => {
  await assert.rejects(openCluster({ kubeconfig, context: 'nowhere' }), /^Error: context "nowhere" is not in the kubeconfig$/);
});

test('a server that goes away: the client says the connection is lost, keeps retrying, and lists the pods again when it answers', async () => {
  const first = new LabServer({ engine: lab.engine, credentials: creds, log: () => undefined });
  const port = await first.listen(0);
  const file = join(dir, 'restarting');
  const cfg = { apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'lab', cluster: { server: `https://127.0.0.1:${port}`, 'certificate-authority-data': b64(creds.caPem) } }], users: [{ name: 'owner', user: { token: creds.token } }], contexts: [{ name: 'restarting', context: { cluster: 'lab', user: 'owner' } }] };
  writeFileSync(file, stringify(cfg));
  const c = await openCluster({ kubeconfig: file, context: 'restarting' });
  const seen: string[] = [];
  const sub = c.onConnection((problem) => seen.push(problem ? `lost: ${(problem as { code?: string }).code} ${problem.message}` : 'back'));
  let second: LabServer | undefined;
  try {
    await first.close();
    await until(() => seen.length > 0, () => `no connection state after the server closed: ${seen.join(', ')}`);
    // It goes on trying while the server is away (more than one relist fails)...
    await until(() => c.connectionProblem !== undefined && c.retries >= 2, () => `retries: ${c.retries}`);
    // ...and recovers when a server answers on that address again.
    second = new LabServer({ engine: lab.engine, credentials: creds, log: () => undefined });
    await second.listen(port);
    await until(() => seen.at(-1) === 'back', () => seen.join(', '));
    assert.deepEqual({ seen, problem: c.connectionProblem, pods: c.listPods().map((p) => p.metadata?.name) }, { seen: [`lost: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:${port}`, 'back'], problem: undefined, pods: ['p'] });
  } finally {
    sub.dispose();
    await c.close();
    await second?.close();
  }
});
