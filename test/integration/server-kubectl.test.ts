// The lab server as users meet it: the real kubectl (the oldest and the newest minor version on
// this machine) against a server started by the test on the real Docker, through the kubeconfig
// the server writes. Every expectation is what kubectl prints against a cluster.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { request } from 'node:https';
import { connectDocker } from '../../src/runtime/docker/docker-runtime.js';
import { startLabServer, type RunningServer } from '../../src/server/serve.js';
import { podManifest, removeLabContainers, waitFor } from './engine-helpers.js';
import { runProcess } from '../support/lab-process.js';
import { LabConnection } from '../../src/client/connection.js';
import { documentRefusal, validateText } from '../../src/validation/index.js';
import { RemoteEngine } from '../../src/client/remote-engine.js';

const KUBECTL_DIR = '/usr/lib/google-cloud-sdk/bin';
const VERSIONS = ['1.27', '1.33'].filter((v) => existsSync(join(KUBECTL_DIR, `kubectl.${v}`)));

/** Runs kubectl asynchronously (the server lives in this process: a blocking spawn would starve it). */
function kubectlRunner(version: string, kubeconfig: string) {
  return (args: string[], input?: string, timeoutMs = 60_000) =>
    runProcess(join(KUBECTL_DIR, `kubectl.${version}`), args, { ...process.env, KUBECONFIG: kubeconfig, HOME: join(kubeconfig, '..', 'home') }, input, timeoutMs);
}

/** Runs the built `podlab` command line against the server of `stateDir`, asynchronously (as kubectlRunner). */
function podlabRunner(stateDir: string) {
  const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
  return (args: string[], timeoutMs = 60_000) => runProcess(process.execPath, [cli, ...args], { ...process.env, PODLAB_STATE_DIR: stateDir }, '', timeoutMs);
}

const POD = (name: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels:
    app: web
spec:
  terminationGracePeriodSeconds: 1
  containers:
    - name: app
      image: busybox:1.35
      command: ["sh", "-c", "echo hello from ${name}; echo second line; sleep 3600"]
`;

function rawRequest(port: number, path: string, headers: Record<string, string>, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, ca, checkServerIdentity: () => undefined }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the lab server with the real kubectl', { timeout: 10 * 60 * 1000 }, () => {
  let stateDir: string;
  let running: RunningServer;
  let kubeconfig: string;

  before(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'podlab-server-'));
    const runtime = await connectDocker({});
    running = await startLabServer({ stateDir, settings: { relistIntervalMs: 2000 }, runtime, version: 'test', log: () => undefined });
    kubeconfig = running.endpoint.kubeconfig;
  });

  after(async () => {
    await running?.stop();
    removeLabContainers(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  });

  test('the kubeconfig is private and its context reaches the server', async () => {
    assert.equal(statSync(kubeconfig).mode & 0o777, 0o600);
    assert.ok(VERSIONS.length >= 2, `kubectl 1.27 and 1.33 are on this machine (found ${VERSIONS.join(', ')})`);
  });

  test('a request without the token gets 401; a browser Origin or a foreign Host gets 403', async () => {
    const ca = readFileSync(join(stateDir, 'server', 'credentials', 'ca.crt'), 'utf8');
    const port = running.endpoint.port;
    const none = await rawRequest(port, '/api/v1/pods', {}, ca);
    assert.equal(none.status, 401);
    assert.equal(JSON.parse(none.body).message, 'Unauthorized');
    const token = readFileSync(join(stateDir, 'server', 'credentials', 'token'), 'utf8').trim();
    const auth = { Authorization: `Bearer ${token}` };
    assert.equal((await rawRequest(port, '/api/v1/pods', { ...auth, Authorization: `Bearer ${token}x` }, ca)).status, 401);
    assert.equal((await rawRequest(port, '/api/v1/pods', { ...auth, Origin: 'https://evil.example' }, ca)).status, 403);
    assert.equal((await rawRequest(port, '/api/v1/pods', { ...auth, Host: 'evil.example' }, ca)).status, 403);
    assert.equal((await rawRequest(port, '/api/v1/pods', auth, ca)).status, 200);
  });

  for (const version of VERSIONS) {
    describe(`kubectl ${version}`, () => {
      const name = `web-${version.replace('.', '-')}`;
      const k = (args: string[], input?: string, t?: number) => kubectlRunner(version, kubeconfig)(args, input, t);

      test('discovery: api-resources lists the served resources with their short names', async () => {
        const r = await k(['api-resources', '--api-group=']);
        assert.equal(r.code, 0, r.err);
        const rows = r.out.trim().split('\n').map((l) => l.split(/\s+/));
        const byName = Object.fromEntries(rows.slice(1).map((c) => [c[0], c]));
        assert.deepEqual(byName.pods, ['pods', 'po', 'v1', 'true', 'Pod']);
        assert.deepEqual(byName.configmaps, ['configmaps', 'cm', 'v1', 'true', 'ConfigMap']);
        assert.deepEqual(byName.nodes, ['nodes', 'no', 'v1', 'false', 'Node']);
      });

      test('apply creates the pod, get shows it Running 1/1, logs print its output (--tail, --limit-bytes, --since, and the refusal of sinceSeconds=0)', async () => {
        const file = join(stateDir, `${name}.yaml`);
        writeFileSync(file, POD(name));
        const r = await k(['apply', '-f', file]);
        assert.equal(r.code, 0, r.err);
        assert.equal(r.out, `pod/${name} created\n`);
        const w = await k(['wait', '--for=condition=Ready', `pod/${name}`, '--timeout=60s'], undefined, 90_000);
        assert.equal(w.code, 0, w.err);
        assert.equal(w.out, `pod/${name} condition met\n`);
        const g = await k(['get', 'pods', name]);
        assert.equal(g.code, 0, g.err);
        const [head, row] = g.out.trim().split('\n');
        assert.deepEqual(head!.split(/\s{2,}/), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
        assert.deepEqual(row!.split(/\s+/).slice(0, 4), [name, '1/1', 'Running', '0']);
        const l = await k(['logs', name]);
        assert.equal(l.code, 0, l.err);
        assert.equal(l.out, `hello from ${name}\nsecond line\n`);
        const t = await k(['logs', name, '--tail=1']);
        assert.equal(t.out, 'second line\n');
        assert.deepEqual(await k(['logs', name, '--limit-bytes=5']), { code: 0, out: 'hello', err: '' });
        assert.equal((await k(['logs', name, '--since=1h'])).out, `hello from ${name}\nsecond line\n`);
        // kubectl rounds 400ms to sinceSeconds=0 and sends it: the API server's validation refuses it.
        assert.deepEqual(await k(['logs', name, '--since=400ms']), { code: 1, out: '', err: `The PodLogOptions "${name}" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0\n` });
      });

      test('apply again with a new label configures the pod; get -l selects it', async () => {
        const file = join(stateDir, `${name}.yaml`);
        writeFileSync(file, POD(name).replace('app: web', `app: web\n    version: "${version}"`));
        const r = await k(['apply', '-f', file]);
        assert.equal(r.code, 0, r.err);
        assert.equal(r.out, `pod/${name} configured\n`);
        const g = await k(['get', 'pods', '-l', `version=${version}`, '-o', 'name']);
        assert.equal(g.out, `pod/${name}\n`);
      });

      test('errors read as a cluster prints them: NotFound, AlreadyExists, Invalid, a kind no API serves', async () => {
        const nf = await k(['get', 'pod', 'no-such-pod']);
        assert.equal(nf.code, 1);
        assert.equal(nf.err, 'Error from server (NotFound): pods "no-such-pod" not found\n');
        const file = join(stateDir, `${name}.yaml`);
        const ae = await k(['create', '-f', file]);
        assert.equal(ae.code, 1);
        assert.match(ae.err, new RegExp(`Error from server \\(AlreadyExists\\): error when creating "${file.replace(/[.]/g, '\\.')}": pods "${name}" already exists`));
        const bad = join(stateDir, 'bad.yaml');
        writeFileSync(bad, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: bad\nspec:\n  containers:\n    - name: app\n');
        const inv = await k(['create', '-f', bad]);
        assert.equal(inv.code, 1);
        assert.match(inv.err, /The Pod "bad" is invalid: spec\.containers\[0\]\.image: Required value/);
        // a kind no API serves (a typo): kubectl lists the CustomResourceDefinitions (there are none), then names the kind
        const typo = join(stateDir, 'typo.yaml');
        writeFileSync(typo, 'apiVersion: v1\nkind: Pdo\nmetadata:\n  name: typo\n');
        assert.deepEqual(await k(['apply', '-f', typo]), {
          code: 1,
          out: '',
          err: `error: resource mapping not found for name: "typo" namespace: "" from "${typo}": no matches for kind "Pdo" in version "v1"\nensure CRDs are installed first\n`,
        });
      });

      test('an unknown field: refused with --validate=strict (the default), a warning with --validate=warn', async () => {
        const file = join(stateDir, `typo-${version}.yaml`);
        writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: typo\nspec:\n  containers:\n    - name: app\n      image: busybox:1.35\n      imagePullPolcy: Never\n');
        const strict = await k(['create', '--dry-run=server', '-f', file]);
        assert.deepEqual(
          { code: strict.code, err: strict.err.trim() },
          { code: 1, err: `Error from server (BadRequest): error when creating "${file}": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolcy"` },
        );
        const warn = await k(['create', '--dry-run=server', '--validate=warn', '-f', file]);
        assert.deepEqual({ code: warn.code, out: warn.out.trim(), err: warn.err.trim() }, { code: 0, out: 'pod/typo created (server dry run)', err: 'Warning: unknown field "spec.containers[0].imagePullPolcy"' });
      });

      test('logs are the bytes the container wrote: a last line without a newline stays without one, followed or not', async () => {
        const pod = `tail-${version.replace('.', '-')}`;
        const file = join(stateDir, `${pod}.yaml`);
        writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${pod}\nspec:\n  restartPolicy: Never\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sh", "-c", "printf 'one\\\\ntwo'"]\n`);
        assert.equal((await k(['apply', '-f', file])).code, 0);
        const w = await k(['wait', '--for=jsonpath={.status.phase}=Succeeded', `pod/${pod}`, '--timeout=60s'], undefined, 90_000);
        assert.equal(w.code, 0, w.err);
        assert.deepEqual(await k(['logs', pod]), { code: 0, out: 'one\ntwo', err: '' });
        assert.deepEqual(await k(['logs', pod, '--tail=1']), { code: 0, out: 'two', err: '' });
        assert.deepEqual(await k(['logs', '-f', pod]), { code: 0, out: 'one\ntwo', err: '' });
        // podlab's logs, a client of the same server, print the same bytes
        const podlab = podlabRunner(stateDir);
        assert.deepEqual(await podlab(['logs', pod]), { code: 0, out: 'one\ntwo', err: '' });
        assert.deepEqual(await podlab(['logs', '-f', pod]), { code: 0, out: 'one\ntwo', err: '' });
        assert.deepEqual(await podlab(['logs', '-f', pod, '--prefix']), { code: 0, out: `[pod/${pod}/app] one\n[pod/${pod}/app] two`, err: '' });
        assert.equal((await k(['delete', 'pod', pod, '--wait=false'])).code, 0);
      });

      test('in a crash loop\'s back-off, logs and logs --previous both read the last terminated instance (the status\'s lastState), as the kubelet chooses', async () => {
        const pod = `loop-${version.replace('.', '-')}`;
        const file = join(stateDir, `${pod}.yaml`);
        // each run prints a line of its own
        writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${pod}\nspec:\n  terminationGracePeriodSeconds: 0\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sh", "-c", "cat /proc/sys/kernel/random/uuid; exit 3"]\n`);
        assert.equal((await k(['apply', '-f', file])).code, 0);
        // the first restart comes at once, the second after the back-off: restartCount 1, waiting
        const w = await k(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=CrashLoopBackOff', `pod/${pod}`, '--timeout=60s'], undefined, 90_000);
        assert.equal(w.code, 0, w.err);
        const last = (await k(['get', 'pod', pod, '-o', 'jsonpath={.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].lastState.terminated.containerID}'])).out.split(' ');
        assert.equal(last[0], '1');
        const lastRun = (await runProcess('docker', ['logs', last[1]!.replace('docker://', '')], process.env)).out;
        assert.match(lastRun, /^[0-9a-f-]{36}\n$/);
        assert.deepEqual(await k(['logs', pod, '--previous']), { code: 0, out: lastRun, err: '' });
        assert.deepEqual(await k(['logs', pod]), { code: 0, out: lastRun, err: '' });
        assert.equal((await k(['delete', 'pod', pod, '--wait=false'])).code, 0);
      });

      test('a pod no node fits: logs print nothing (the API server has no kubelet to ask) and exec says it has no host; a container that never ran: exec gets the kubelet\'s "container not found"', async () => {
        const v = version.replace('.', '-');
        const file = join(stateDir, `nohost-${v}.yaml`);
        writeFileSync(
          file,
          `apiVersion: v1\nkind: Pod\nmetadata:\n  name: nohost-${v}\nspec:\n  containers:\n    - name: app\n      image: busybox:1.35\n      resources:\n        requests:\n          cpu: "1000"\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: noimage-${v}\nspec:\n  containers:\n    - name: app\n      image: podlab.invalid/none:1\n`,
        );
        assert.equal((await k(['apply', '-f', file])).code, 0);
        const w = await k(['wait', '--for=jsonpath={.status.conditions[0].reason}=Unschedulable', `pod/nohost-${v}`, '--timeout=60s'], undefined, 90_000);
        assert.equal(w.code, 0, w.err);
        const pulled = await k(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=ErrImagePull', `pod/noimage-${v}`, '--timeout=60s'], undefined, 90_000);
        assert.equal(pulled.code, 0, pulled.err);
        assert.deepEqual(
          {
            logs: await k(['logs', `nohost-${v}`]),
            exec: await k(['exec', `nohost-${v}`, '--', 'true']),
            neverRan: await k(['exec', `noimage-${v}`, '--', 'true']),
          },
          {
            logs: { code: 0, out: '', err: '' },
            exec: { code: 1, out: '', err: `Error from server (BadRequest): pod nohost-${v} does not have a host assigned\n` },
            // kubectl ≥ 1.30 asks for WebSocket v5, which the API server's stream translator accepts
            // before it reaches the kubelet, so the kubelet's refusal comes as an InternalError status;
            // older ones use SPDY, which the API server proxies: the kubelet's 500 text.
            neverRan: { code: 1, out: '', err: `error: ${version === '1.27' ? '' : 'Internal error occurred: '}unable to upgrade connection: container not found ("app")\n` },
          },
        );
        // the raw API: no log location is 204 No Content; exec without a container of a pod of two is refused, naming them
        const ca = readFileSync(join(stateDir, 'server', 'credentials', 'ca.crt'), 'utf8');
        const auth = { Authorization: `Bearer ${readFileSync(join(stateDir, 'server', 'credentials', 'token'), 'utf8').trim()}` };
        const upgrade = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Protocol': 'v5.channel.k8s.io' };
        const two = join(stateDir, `two-${v}.yaml`);
        writeFileSync(two, `apiVersion: v1\nkind: Pod\nmetadata:\n  name: two-${v}\nspec:\n  initContainers:\n    - name: setup\n      image: busybox:1.35\n  containers:\n    - name: a\n      image: busybox:1.35\n    - name: b\n      image: busybox:1.35\n`);
        assert.equal((await k(['apply', '-f', two])).code, 0);
        const port = running.endpoint.port;
        const noLog = await rawRequest(port, `/api/v1/namespaces/default/pods/nohost-${v}/log`, auth, ca);
        const noName = await rawRequest(port, `/api/v1/namespaces/default/pods/two-${v}/exec?command=true&stdout=true`, { ...auth, ...upgrade }, ca);
        assert.deepEqual(
          { noLog, noName: { status: noName.status, message: JSON.parse(noName.body).message } },
          { noLog: { status: 204, body: '' }, noName: { status: 400, message: `a container name must be specified for pod two-${v}, choose one of: [a b] or one of the init containers: [setup]` } },
        );
        assert.equal((await k(['delete', '-f', two, '--wait=false'])).code, 0);
        // podlab's logs and exec, clients of the same API, print the same
        const pl = podlabRunner(stateDir);
        assert.deepEqual(
          { logs: await pl(['logs', `nohost-${v}`]), exec: await pl(['exec', `nohost-${v}`, '--', 'true']), neverRan: await pl(['exec', `noimage-${v}`, '--', 'true']) },
          {
            logs: { code: 0, out: '', err: '' },
            exec: { code: 1, out: '', err: `Error from server (BadRequest): pod nohost-${v} does not have a host assigned\n` },
            neverRan: { code: 1, out: '', err: 'error: Internal error occurred: unable to upgrade connection: container not found ("app")\n' },
          },
        );
        assert.equal((await k(['delete', '-f', file, '--wait=false'])).code, 0);
      });

      test("priority without a PriorityClass: the Priority plugin's 403, as podlab run words it too", async () => {
        const file = join(stateDir, `urgent-${version}.yaml`);
        const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: urgent\nspec:\n  priority: 1000\n  containers:\n    - name: app\n      image: busybox:1.35\n';
        writeFileSync(file, text);
        const r = await k(['create', '--dry-run=server', '-f', file]);
        const detail = 'the integer value of priority (1000) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name';
        assert.deepEqual(r, { code: 1, out: '', err: `Error from server (Forbidden): error when creating "${file}": pods "urgent" is forbidden: ${detail}\n` });
        assert.equal(r.err, `${documentRefusal(validateText(text).documents[0]!, file)}\n`);
        // admission names the pod by its generateName (it is resolved after admission), as podlab run does
        const gen = join(stateDir, `urgent-gen-${version}.yaml`);
        writeFileSync(gen, text.replace('  name: urgent', '  generateName: urgent-').replace('priority: 1000', 'preemptionPolicy: Never'));
        const g = await k(['create', '-f', gen]);
        assert.equal(g.err, `${documentRefusal(validateText(readFileSync(gen, 'utf8')).documents[0]!, gen)}\n`);
        assert.deepEqual(g, {
          code: 1,
          out: '',
          err: `Error from server (Forbidden): error when creating "${gen}": pods "urgent-" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name\n`,
        });
        // under --validate=warn the unknown field's warning comes with the refusal
        const typo = join(stateDir, `urgent-typo-${version}.yaml`);
        writeFileSync(typo, text.replace('      image: busybox:1.35\n', '      image: busybox:1.35\n      imagePullPolcy: Never\n'));
        assert.deepEqual(await k(['create', '--dry-run=server', '--validate=warn', '-f', typo]), {
          code: 1,
          out: '',
          err: `Warning: unknown field "spec.containers[0].imagePullPolcy"\nError from server (Forbidden): error when creating "${typo}": pods "urgent" is forbidden: ${detail}\n`,
        });
      });

      test('create configmap --from-file, then get and delete it', async () => {
        const conf = join(stateDir, 'nginx.conf');
        writeFileSync(conf, 'server { listen 8080; }\n');
        const cm = `conf-${version.replace('.', '-')}`;
        const c = await k(['create', 'configmap', cm, `--from-file=${conf}`]);
        assert.equal(c.code, 0, c.err);
        assert.equal(c.out, `configmap/${cm} created\n`);
        const g = await k(['get', 'configmap', cm, '-o', 'jsonpath={.data.nginx\\.conf}']);
        assert.equal(g.out, 'server { listen 8080; }\n');
        const d = await k(['delete', 'configmap', cm]);
        assert.equal(d.out, `configmap "${cm}" deleted\n`);
      });

      test('delete waits until the pod is gone and its containers removed', async () => {
        const d = await k(['delete', 'pod', name], undefined, 90_000);
        assert.equal(d.code, 0, d.err);
        assert.equal(d.out, `pod "${name}" deleted\n`);
        const g = await k(['get', 'pod', name]);
        assert.equal(g.err, `Error from server (NotFound): pods "${name}" not found\n`);
      });
    });
  }

  for (const version of VERSIONS) {
    test(`the walkthrough with kubectl ${version}: a ConfigMap from a file, a two-container pod 2/2 Running, exec with stdin and exit code, logs -f, port-forward with two connections moving over 1 MB, explain offline`, async () => {
      const k = (args: string[], input?: string, t?: number) => kubectlRunner(version, kubeconfig)(args, input, t);
      const v = version.replace('.', '-');
      const page = join(stateDir, 'index.html');
      writeFileSync(page, '<h1>walkthrough</h1>\n');
      const c = await k(['create', 'configmap', `page-${v}`, `--from-file=${page}`]);
      assert.equal(c.out, `configmap/page-${v} created\n`, c.err);
      const file = join(stateDir, `walk-${v}.yaml`);
      writeFileSync(
        file,
        `apiVersion: v1
kind: Pod
metadata:
  name: walk-${v}
spec:
  terminationGracePeriodSeconds: 1
  initContainers:
    - name: big
      image: busybox:1.35
      command: ["sh", "-c", "cp /page/index.html /www/ && dd if=/dev/urandom of=/www/big bs=1024 count=1536 2>/dev/null"]
      volumeMounts: [{ name: page, mountPath: /page }, { name: www, mountPath: /www }]
  containers:
    - name: web
      image: busybox:1.35
      command: ["httpd", "-f", "-p", "8080", "-h", "/www"]
      volumeMounts: [{ name: www, mountPath: /www }]
    - name: ticker
      image: busybox:1.35
      command: ["sh", "-c", "i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.5; done"]
  volumes:
    - name: page
      configMap: { name: page-${v} }
    - name: www
      emptyDir: {}
`,
      );
      assert.equal((await k(['apply', '-f', file])).out, `pod/walk-${v} created\n`);
      const w = await k(['wait', '--for=condition=Ready', `pod/walk-${v}`, '--timeout=60s'], undefined, 90_000);
      assert.equal(w.code, 0, w.err);
      const g = await k(['get', 'pods', `walk-${v}`, '--no-headers']);
      assert.deepEqual(g.out.trim().split(/\s+/).slice(0, 3), [`walk-${v}`, '2/2', 'Running']);

      const ex = await k(['exec', '-i', `walk-${v}`, '-c', 'web', '--', 'sh', '-c', 'cat /www/index.html; wc -c; exit 7'], 'four\n');
      assert.deepEqual([ex.code, ex.out.replace(/ +/g, ' ')], [7, '<h1>walkthrough</h1>\n5\n']);

      // logs -f follows the ticker; two lines are enough.
      const follow = spawn(join(KUBECTL_DIR, `kubectl.${version}`), ['logs', '-f', `walk-${v}`, '-c', 'ticker', '--tail=1'], { env: { ...process.env, KUBECONFIG: kubeconfig } });
      let followed = '';
      follow.stdout.on('data', (d: Buffer) => (followed += d.toString()));
      const t0 = Date.now();
      while (followed.split('\n').filter(Boolean).length < 3 && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 100));
      follow.kill();
      const ticks = followed.split('\n').filter(Boolean).map((l) => Number(l.split(' ')[1]));
      assert.ok(ticks.length >= 3 && ticks[1] === ticks[0]! + 1 && ticks[2] === ticks[1]! + 1, followed);

      const pf = spawn(join(KUBECTL_DIR, `kubectl.${version}`), ['port-forward', `pod/walk-${v}`, ':8080'], { env: { ...process.env, KUBECONFIG: kubeconfig } });
      try {
        let pfOut = '';
        pf.stdout.on('data', (d: Buffer) => (pfOut += d.toString()));
        const t1 = Date.now();
        while (!/Forwarding from 127\.0\.0\.1:(\d+)/.test(pfOut) && Date.now() - t1 < 20_000) await new Promise((r) => setTimeout(r, 100));
        const port = Number(/Forwarding from 127\.0\.0\.1:(\d+)/.exec(pfOut)?.[1]);
        const fetchAll = async (path: string) => Buffer.from(await (await fetch(`http://127.0.0.1:${port}${path}`)).arrayBuffer());
        const [a, b, idx] = await Promise.all([fetchAll('/big'), fetchAll('/big'), fetchAll('/index.html')]);
        assert.deepEqual([a.length, b.length, a.equals(b), idx.toString()], [1536 * 1024, 1536 * 1024, true, '<h1>walkthrough</h1>\n']);
      } finally {
        pf.kill();
      }

      const ex2 = await k(['explain', 'pod.spec.containers.livenessProbe.periodSeconds']);
      assert.equal(ex2.code, 0, ex2.err);
      assert.match(ex2.out, /How often \(in seconds\) to perform the probe\. Default to 10 seconds\. Minimum\s+value is 1\./);
      const d = await k(['delete', 'pod', `walk-${v}`], undefined, 60_000);
      assert.equal(d.out, `pod "walk-${v}" deleted\n`);
    });
  }

  for (const version of VERSIONS) {
    test(`kubectl ${version}: drain evicts a pod (DisruptionTarget EvictionByEvictionAPI while it terminates; the cordoned node tainted), and delete --now shortens a deletion under way`, async () => {
      const k = (args: string[], input?: string, t?: number) => kubectlRunner(version, kubeconfig)(args, input, t);
      const v = version.replace('.', '-');
      // a container that ignores SIGTERM: only the grace period's SIGKILL ends it
      const stubborn = (name: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  terminationGracePeriodSeconds: 30
  containers:
    - name: app
      image: busybox:1.35
      command: ["sh", "-c", "trap '' TERM; sleep 3600"]
`;
      assert.equal((await k(['apply', '-f', '-'], stubborn(`evict-${v}`))).code, 0);
      assert.equal((await k(['apply', '-f', '-'], stubborn(`slow-${v}`))).code, 0);
      const w = await k(['wait', '--for=condition=Ready', `pod/evict-${v}`, `pod/slow-${v}`, '--timeout=60s'], undefined, 90_000);
      assert.equal(w.code, 0, w.err);

      // delete --now after a plain delete: the pod goes in seconds, not the 30 s of the first
      assert.equal((await k(['delete', 'pod', `slow-${v}`, '--wait=false'])).code, 0);
      await new Promise((r) => setTimeout(r, 1000));
      const t0 = Date.now();
      const now = await k(['delete', 'pod', `slow-${v}`, '--now'], undefined, 60_000);
      const took = Date.now() - t0;
      assert.deepEqual([now.code, now.out], [0, `pod "slow-${v}" deleted\n`], now.err);
      assert.ok(took < 15_000, `delete --now took ${took} ms`);

      try {
        const drain = k(['drain', 'podlab-node', '--force', '--grace-period=5', '--pod-selector', `!app`], undefined, 90_000);
        let reason = '';
        const t1 = Date.now();
        while (reason === '' && Date.now() - t1 < 20_000) {
          reason = (await k(['get', 'pod', `evict-${v}`, '-o', 'jsonpath={.status.conditions[?(@.type=="DisruptionTarget")].reason}'])).out;
          if (reason === '') await new Promise((r) => setTimeout(r, 200));
        }
        const d = await drain;
        assert.equal(reason, 'EvictionByEvictionAPI');
        assert.equal(d.code, 0, d.err);
        assert.deepEqual(d.out.split('\n').filter(Boolean).sort(), ['evicting pod default/evict-' + v, 'node/podlab-node cordoned', 'node/podlab-node drained', `pod/evict-${v} evicted`].sort());
        const node = await k(['describe', 'node', 'podlab-node']);
        assert.match(node.out, /^Taints:\s+node\.kubernetes\.io\/unschedulable:NoSchedule$/m);
        assert.match(node.out, /^Unschedulable:\s+true$/m);
      } finally {
        await k(['uncordon', 'podlab-node']);
      }
      assert.match((await k(['describe', 'node', 'podlab-node'])).out, /^Taints:\s+<none>$/m);
    });
  }

  test('get -w prints the pod as it changes, and a pod created meanwhile appears', async () => {
    const version = VERSIONS[VERSIONS.length - 1]!;
    const child = spawn(join(KUBECTL_DIR, `kubectl.${version}`), ['get', 'pods', '-w'], { env: { ...process.env, KUBECONFIG: kubeconfig } });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    await new Promise((r) => setTimeout(r, 1000));
    const file = join(stateDir, 'watched.yaml');
    writeFileSync(file, POD('watched'));
    assert.equal((await kubectlRunner(version, kubeconfig)(['apply', '-f', file])).code, 0);
    const deadline = Date.now() + 60_000;
    while (!/watched\s+1\/1\s+Running/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    child.kill();
    const lines = out.trim().split('\n');
    assert.deepEqual(lines[0]!.split(/\s{2,}/), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    assert.match(out, /watched\s+0\/1\s+Pending/);
    assert.match(out, /watched\s+1\/1\s+Running/);
    await kubectlRunner(version, kubeconfig)(['delete', 'pod', 'watched', '--grace-period=1']);
  });

  test("the shells' client (RemoteEngine) runs a command with exec: stdout, stderr and the exit code apart", async () => {
    const engine = running.engine;
    await engine.createPod(podManifest('client-exec', { containers: [{ name: 'app', image: 'busybox:1.35', command: ['sleep', '3600'] }], terminationGracePeriodSeconds: 1 }));
    await waitFor(engine, 'client-exec', (p) => p.status?.containerStatuses?.[0]?.state?.running !== undefined, 60_000, 'Running');
    const ca = readFileSync(join(stateDir, 'server', 'credentials', 'ca.crt'), 'utf8');
    const token = readFileSync(join(stateDir, 'server', 'credentials', 'token'), 'utf8').trim();
    const remote = await RemoteEngine.connect(new LabConnection({ server: `https://127.0.0.1:${running.endpoint.port}`, ca, token }), running.endpoint, stateDir);
    try {
      const r = await remote.exec('default', 'client-exec', 'app', ['sh', '-c', 'echo out; echo err >&2; exit 3']);
      assert.deepEqual(r, { exitCode: 3, stdout: 'out\n', stderr: 'err\n' });
      await assert.rejects(remote.exec('default', 'client-exec', 'nope', ['true']), { message: 'container nope is not valid for pod client-exec' });
    } finally {
      await remote.close();
      await engine.deletePod('default', 'client-exec', 0);
    }
  });
});
