// The `podlab` command-line contract, on the real Docker, through the built bundle (dist/cli.js)
// in separate processes — as a user (and the adoption story) would run it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer } from 'node:net';
import { removeLabContainers, sleep, stopLabServer } from './engine-helpers.js';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let stateDir: string;
let work: string;
const env = () => ({ ...process.env, PODLAB_STATE_DIR: stateDir });

function podlab(args: string[], timeoutMs = 60_000) {
  const r = spawnSync(process.execPath, [cli, ...args], { env: env(), encoding: 'utf8', timeout: timeoutMs });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function file(name: string, text: string): string {
  const f = join(work, name);
  writeFileSync(f, text);
  return f;
}

function jsonLines(out: string): { kind: string; [k: string]: unknown }[] {
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string });
}

const pod = (name: string, body: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n${body}`;

/** A command left running (a watch): what it printed so far, and its exit code once it ends. */
function watch(cmd: string, argv: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const o = { out: '', err: '', child, code: new Promise<number | null>((resolve) => child.on('close', resolve)) };
  child.stdout.on('data', (d: Buffer) => (o.out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (o.err += d.toString()));
  return o;
}

before(() => {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  stateDir = mkdtempSync(join(tmpdir(), 'podlab-test-cli-'));
  work = mkdtempSync(join(tmpdir(), 'podlab-cli-files-'));
});
after(async () => {
  await stopLabServer(stateDir);
  removeLabContainers(stateDir);
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('podlab run', () => {
  test('the init-container example runs to Succeeded and exits 0, printing pods and events as JSON lines', () => {
    const r = podlab(['run', join(root, 'examples/init-containers.yaml'), '--json', '--rm']);
    assert.equal(r.code, 0, r.err);
    const lines = jsonLines(r.out);
    const pods = lines.filter((l) => l.kind === 'Pod') as unknown as { apiVersion: string; metadata: { name: string }; spec: unknown; status: { phase: string } }[];
    const events = lines.filter((l) => l.kind === 'Event') as unknown as { type: string; reason: string; message: string; involvedObject: { fieldPath?: string }; source: { component: string }; count: number; firstTimestamp: string }[];
    assert.ok(pods.length > 2);
    assert.equal(pods[0]!.apiVersion, 'v1');
    assert.ok(pods[0]!.spec && pods[0]!.metadata.name === 'setup-steps');
    assert.equal(pods.at(-1)!.status.phase, 'Succeeded');
    const sched = events.find((e) => e.reason === 'Scheduled')!;
    assert.equal(sched.source.component, 'default-scheduler');
    assert.match(sched.message, /^Successfully assigned default\/setup-steps to podlab-node$/);
    const started = events.filter((e) => e.reason === 'Started').map((e) => e.involvedObject.fieldPath);
    assert.deepEqual(started, ['spec.initContainers{fetch-config}', 'spec.initContainers{migrate}', 'spec.containers{app}']);
    assert.ok(events.every((e) => e.count >= 1 && e.firstTimestamp));
  });

  test('a failing pod under --until Terminal exits 1; --until Failed exits 0', () => {
    const f = file('fail.yaml', pod('cli-fail', '  restartPolicy: Never\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sh", "-c", "exit 4"]\n'));
    const failed = podlab(['run', f, '--rm']);
    assert.deepEqual([failed.code, failed.err.split('\n').filter((l) => l.startsWith('error:'))], [1, ['error: pod "cli-fail" is Failed (--until Terminal: every pod ended, not all Succeeded)']]);
    const r = podlab(['run', f, '--until', 'Failed', '--rm']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /cli-fail\s+0\/1\s+Error\s+0/);
  });

  test('an invalid manifest exits 2 with the API server\'s message and starts nothing', () => {
    const f = file('bad.yaml', pod('cli-bad', '  containers:\n    - name: Web\n      image: busybox:1.35\n'));
    const r = podlab(['run', f]);
    assert.equal(r.code, 2);
    assert.match(r.err, /^The Pod "cli-bad" is invalid: spec\.containers\[0\]\.name: Invalid value: "Web": a lowercase RFC 1123 label must consist of/m);
    assert.equal(execFileSync('docker', ['ps', '-aq', '--filter', 'label=io.kubernetes.pod.name=cli-bad'], { encoding: 'utf8' }).trim(), '');
    // a document that is no object is no Pod: kubectl's client-side words
    const words = file('words.yaml', 'hello world\n');
    assert.deepEqual(podlab(['run', words]), { code: 2, out: '', err: `error: error validating "${words}": error validating data: invalid object to validate\n` });
  });

  test('a condition not reached in time exits 124', () => {
    const f = file('slow.yaml', pod('cli-slow', '  terminationGracePeriodSeconds: 1\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n'));
    const r = podlab(['run', f, '--until', 'Succeeded', '--timeout', '3', '--rm']);
    assert.equal(r.code, 124);
  });

  test('SIGINT deletes the pods gracefully and exits 130', async () => {
    const f = file('int.yaml', pod('cli-int', '  terminationGracePeriodSeconds: 1\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n'));
    const child = spawn(process.execPath, [cli, 'run', f], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitOutput(() => /cli-int\s+1\/1\s+Running/.test(out), 30_000);
    child.kill('SIGINT');
    const code = await exitCode(child);
    assert.equal(code, 130);
    assert.match(out, /Killing\s+pod\/cli-int\s+Stopping container app/);
    assert.equal(execFileSync('docker', ['ps', '-aq', '--filter', 'label=io.kubernetes.pod.name=cli-int'], { encoding: 'utf8' }).trim(), '');
  });
});

describe('podlab run: a signal never leaks containers', () => {
  // Each test runs in a lab of its own, so "nothing left" is checked on exactly that lab.
  test('SIGINT at the moment the pod reaches Running under --until Running --rm: the clean-up finishes, nothing is left, exit 130', async () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-sig-'));
    try {
      const f = file('rm-int.yaml', pod('cli-rm-int', '  terminationGracePeriodSeconds: 2\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n'));
      const child = spawn(process.execPath, [cli, 'run', f, '--until', 'Running', '--rm'], { env: { ...env(), PODLAB_STATE_DIR: lab }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await waitOutput(() => /cli-rm-int\s+1\/1\s+Running/.test(out), 30_000);
      const uids = labPodUids(lab);
      assert.equal(uids.length, 1);
      child.kill('SIGINT');
      assert.equal(await exitCode(child), 130);
      assert.deepEqual({ sandboxes: labSandboxes(lab), containers: podContainers(uids) }, { sandboxes: [], containers: [] });
    } finally {
      await stopLabServer(lab);
      removeLabContainers(lab);
      rmSync(lab, { recursive: true, force: true });
    }
  });

  test('a second SIGINT/SIGTERM during the graceful deletion does not abort it: nothing is left, exit 130', async () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-sig-'));
    try {
      const f = file('int-twice.yaml', pod('cli-int-twice', '  terminationGracePeriodSeconds: 3\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n'));
      const child = spawn(process.execPath, [cli, 'run', f], { env: { ...env(), PODLAB_STATE_DIR: lab }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      await waitOutput(() => /cli-int-twice\s+1\/1\s+Running/.test(out), 30_000);
      const uids = labPodUids(lab);
      assert.equal(uids.length, 1);
      child.kill('SIGINT');
      await waitOutput(() => /Killing\s+pod\/cli-int-twice/.test(out), 10_000);
      child.kill('SIGINT');
      await sleep(200);
      child.kill('SIGTERM');
      assert.equal(await exitCode(child), 130, err);
      assert.deepEqual({ sandboxes: labSandboxes(lab), containers: podContainers(uids) }, { sandboxes: [], containers: [] });
    } finally {
      await stopLabServer(lab);
      removeLabContainers(lab);
      rmSync(lab, { recursive: true, force: true });
    }
  });
});

describe('podlab run: the terminal closing (SIGHUP) is a signal like the others', () => {
  test('SIGHUP under --rm, then SIGHUP again during the clean-up: the pod and the ConfigMap this run created are deleted, nothing is left, exit 130', async () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-hup-'));
    try {
      const f = file(
        'hup.yaml',
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cli-hup-cm\ndata:\n  k: v\n---\n${pod('cli-hup', '  terminationGracePeriodSeconds: 3\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n')}`,
      );
      const child = spawn(process.execPath, [cli, 'run', f, '--rm'], { env: { ...env(), PODLAB_STATE_DIR: lab }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      await waitOutput(() => /cli-hup\s+1\/1\s+Running/.test(out), 30_000);
      const uids = labPodUids(lab);
      assert.equal(uids.length, 1);
      child.kill('SIGHUP');
      await waitOutput(() => /Killing\s+pod\/cli-hup/.test(out), 10_000);
      child.kill('SIGHUP');
      assert.equal(await exitCode(child), 130, err);
      const cm = spawnSync(process.execPath, [cli, 'get', 'cm', 'cli-hup-cm'], { env: { ...env(), PODLAB_STATE_DIR: lab }, encoding: 'utf8' });
      assert.deepEqual(
        { sandboxes: labSandboxes(lab), containers: podContainers(uids), configMap: cm.stderr.trim() },
        { sandboxes: [], containers: [], configMap: 'Error from server (NotFound): configmaps "cli-hup-cm" not found' },
      );
    } finally {
      await stopLabServer(lab);
      removeLabContainers(lab);
      rmSync(lab, { recursive: true, force: true });
    }
  });
});

describe('podlab run: the lab server going away under an attached run', () => {
  test('stopped: the run says so and waits; a server started again (on another port) is followed; stopped again, SIGINT still deletes the pod (a server is started for the clean-up): nothing is left, exit 130', async () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-lost-'));
    const labEnv = { ...env(), PODLAB_STATE_DIR: lab };
    try {
      const f = file('lost.yaml', pod('cli-lost', '  terminationGracePeriodSeconds: 2\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n'));
      const child = spawn(process.execPath, [cli, 'run', f], { env: labEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      await waitOutput(() => /cli-lost\s+1\/1\s+Running/.test(out), 30_000);
      const uids = labPodUids(lab);
      assert.equal(uids.length, 1);
      const podlabIn = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { env: labEnv, encoding: 'utf8', timeout: 60_000 });
      const port = () => (JSON.parse(readFileSync(join(lab, 'server', 'endpoint.json'), 'utf8')) as { port: number }).port;
      const first = port();
      assert.equal(podlabIn(['stop']).status, 0);
      await waitOutput(() => /podlab: the lab server does not answer \(.+\); waiting for it \(any podlab command starts it again\)/.test(err), 15_000);
      // another command starts a server: the run finds it and answers again
      assert.equal(podlabIn(['get', 'pods']).status, 0);
      await waitOutput(() => /podlab: the lab server answers again/.test(err), 20_000);
      assert.notEqual(port(), first, 'the new server listens on another port');
      assert.equal(podlabIn(['stop']).status, 0);
      await waitOutput(() => (err.match(/does not answer/g) ?? []).length >= 2, 15_000);
      child.kill('SIGINT');
      assert.equal(await exitCode(child), 130, err);
      assert.match(err, /podlab: the lab server does not answer: reaching it again for the clean-up/);
      assert.deepEqual({ sandboxes: labSandboxes(lab), containers: podContainers(uids) }, { sandboxes: [], containers: [] });
    } finally {
      await stopLabServer(lab);
      removeLabContainers(lab);
      rmSync(lab, { recursive: true, force: true });
    }
  });
});

describe('podlab status: a lab server that holds the lab but does not answer', () => {
  test('a stopped (SIGSTOP) server: status says it does not answer, within seconds, and exits 1', async () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-hung-'));
    const labEnv = { ...env(), PODLAB_STATE_DIR: lab };
    let pid: number | undefined;
    try {
      assert.equal(spawnSync(process.execPath, [cli, 'get', 'pods'], { env: labEnv, encoding: 'utf8', timeout: 60_000 }).status, 0);
      pid = (JSON.parse(readFileSync(join(lab, 'server', 'endpoint.json'), 'utf8')) as { pid: number }).pid;
      process.kill(pid, 'SIGSTOP');
      const r = spawnSync(process.execPath, [cli, 'status'], { env: labEnv, encoding: 'utf8', timeout: 30_000 });
      assert.deepEqual({ code: r.status, out: r.stdout }, { code: 1, out: `the lab server for ${lab} (pid ${pid}) holds the lab but does not answer (no answer within 5s): resume it (kill -CONT ${pid}) or end it (kill ${pid}; its containers stay for the next server)\n` });
    } finally {
      if (pid) process.kill(pid, 'SIGCONT');
      await stopLabServer(lab);
      removeLabContainers(lab);
      rmSync(lab, { recursive: true, force: true });
    }
  });
});

describe('podlab run: a namespace that does not exist', () => {
  test('a file with a ConfigMap, a pod and a pod in a namespace that does not exist: the API server\'s NotFound, exit 1, and nothing of the file created', async () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-ns-'));
    const labEnv = { ...env(), PODLAB_STATE_DIR: lab };
    try {
      const f = file(
        'badns.yaml',
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cli-ns-cm\ndata:\n  k: v\n---\n${pod('cli-ns-one', '  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n')}---\n${pod('cli-ns-two', '  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n').replace('metadata:\n', 'metadata:\n  namespace: nowhere\n')}`,
      );
      const r = spawnSync(process.execPath, [cli, 'run', f, '--until', 'Running'], { env: labEnv, encoding: 'utf8', timeout: 60_000 });
      const get = spawnSync(process.execPath, [cli, 'get', 'pods,cm'], { env: labEnv, encoding: 'utf8', timeout: 60_000 });
      assert.deepEqual(
        { code: r.status, err: r.stderr.split('\n').filter((l) => !l.startsWith('podlab: starting')).join('\n'), pods: labPodUids(lab), left: get.stdout + get.stderr },
        { code: 1, err: 'Error from server (NotFound): namespaces "nowhere" not found\n', pods: [], left: 'No resources found in default namespace.\n' },
      );
    } finally {
      await stopLabServer(lab);
      removeLabContainers(lab);
      rmSync(lab, { recursive: true, force: true });
    }
  });
});

describe('ConfigMaps and Secrets through the command line', () => {
  test('run applies them in file order (created, unchanged, configured, an immutable refusal) with kubectl apply\'s merge and record (kubectl apply then finds nothing to change; a label another client added stays); get, describe and delete show and remove them; delete --all takes pods too', async () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-objects-'));
    const pl = (args: string[]) => {
      const r = spawnSync(process.execPath, [cli, ...args], { env: { ...env(), PODLAB_STATE_DIR: lab }, encoding: 'utf8', timeout: 60_000 });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    try {
      const objects = (value: string) =>
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cli-cm\ndata:\n  mode: ${value}\n  index.html: |\n    <h1>hi</h1>\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: cli-secret\nstringData:\n  greeting: hello, learner\n`;
      const f = file('objects.yaml', objects('fast'));
      const first = pl(['run', f]);
      const again = pl(['run', f]);
      writeFileSync(f, objects('slow'));
      const changed = pl(['run', f]);
      assert.deepEqual(
        [first, again, changed].map((r) => [r.code, r.err, r.out]),
        [
          [0, `podlab: starting the lab server for ${lab}\nconfigmap/cli-cm created\nsecret/cli-secret created\n`, ''],
          [0, 'configmap/cli-cm unchanged\nsecret/cli-secret unchanged\n', ''],
          [0, 'configmap/cli-cm configured\nsecret/cli-secret unchanged\n', ''],
        ],
      );

      const cms = pl(['get', 'configmaps']);
      assert.equal(cms.code, 0, cms.err);
      assert.match(cms.out, /^NAME     DATA   AGE\ncli-cm   2      \d+s\n$/);
      const secrets = pl(['get', 'secret']);
      assert.match(secrets.out, /^NAME         TYPE     DATA   AGE\ncli-secret   Opaque   1      \d+s\n$/);
      const one = JSON.parse(pl(['get', 'cm', 'cli-cm', '-o', 'json']).out) as { metadata: Record<string, string>; data: Record<string, string> };
      // with kubectl apply's record of what it applied, as kubectl writes it
      const record = '{"apiVersion":"v1","data":{"index.html":"\\u003ch1\\u003ehi\\u003c/h1\\u003e\\n","mode":"slow"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"cli-cm","namespace":"default"}}\n';
      assert.deepEqual({ ...one, metadata: { ...one.metadata, uid: 'x', creationTimestamp: 'x', resourceVersion: 'x' } }, {
        apiVersion: 'v1',
        data: { 'index.html': '<h1>hi</h1>\n', mode: 'slow' },
        kind: 'ConfigMap',
        metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': record }, creationTimestamp: 'x', name: 'cli-cm', namespace: 'default', resourceVersion: 'x', uid: 'x' },
      });
      // kubectl apply finds its own record: nothing to change. What another client adds stays through the next run.
      const kubectl = (args: string[]) => spawnSync('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', args, { env: { ...process.env, KUBECONFIG: join(lab, 'server', 'kubeconfig') }, encoding: 'utf8', timeout: 60_000 });
      const kapply = kubectl(['apply', '-f', f]);
      // (a Secret written with stringData is always configured: the stored object has no stringData to match)
      assert.deepEqual([kapply.stdout, kapply.stderr], ['configmap/cli-cm unchanged\nsecret/cli-secret configured\n', '']);
      assert.equal(kubectl(['label', 'cm', 'cli-cm', 'team=blue']).status, 0);
      writeFileSync(f, objects('fast'));
      assert.deepEqual(pl(['run', f]).err, 'configmap/cli-cm configured\nsecret/cli-secret unchanged\n');
      const after = JSON.parse(pl(['get', 'cm', 'cli-cm', '-o', 'json']).out) as { metadata: { labels?: Record<string, string> }; data: Record<string, string> };
      assert.deepEqual([after.metadata.labels, after.data.mode], [{ team: 'blue' }, 'fast']);
      writeFileSync(f, objects('slow'));
      assert.equal(pl(['run', f]).code, 0);
      const list = JSON.parse(pl(['get', 'secrets', '-o', 'json']).out) as { kind: string; items: { data: Record<string, string> }[]; metadata: unknown };
      assert.deepEqual([list.kind, list.items.map((i) => i.data), list.metadata], ['List', [{ greeting: Buffer.from('hello, learner').toString('base64') }], { resourceVersion: '' }]);
      const desc = pl(['describe', 'configmap', 'cli-cm']);
      // (the label another client added stays; describe leaves the last-applied record out, as kubectl's does)
      assert.equal(desc.out, 'Name:         cli-cm\nNamespace:    default\nLabels:       team=blue\nAnnotations:  <none>\n\nData\n====\nindex.html:\n----\n<h1>hi</h1>\n\n\nmode:\n----\nslow\n\n\nBinaryData\n====\n\nEvents:  <none>\n');
      const sdesc = pl(['describe', 'secret/cli-secret']);
      assert.equal(sdesc.out, 'Name:         cli-secret\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nType:  Opaque\n\nData\n====\ngreeting:  14 bytes\n');

      const imm = (v: string) => file('immutable.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cli-frozen\nimmutable: true\ndata:\n  v: "${v}"\n`);
      assert.equal(pl(['run', imm('1')]).code, 0);
      const refused = pl(['run', imm('2')]);
      assert.deepEqual([refused.code, refused.err], [1, 'The ConfigMap "cli-frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set\n']);

      const missing = pl(['get', 'cm', 'nope']);
      assert.deepEqual([missing.code, missing.err], [1, 'Error from server (NotFound): configmaps "nope" not found\n']);
      const usage = pl(['get', 'cm/a', 'b']);
      assert.deepEqual([usage.code, usage.err], [2, 'error: arguments in resource/name form must have a single resource and name\n']);
      const del = pl(['delete', 'cm', 'cli-frozen']);
      assert.deepEqual([del.code, del.out], [0, 'configmap "cli-frozen" deleted\n']);
      assert.deepEqual(pl(['delete', 'secret', 'cli-frozen']).err, 'Error from server (NotFound): secrets "cli-frozen" not found\n');

      const p = file('objects-pod.yaml', pod('cli-objects-pod', '  terminationGracePeriodSeconds: 0\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n'));
      assert.equal(pl(['run', p, '--until', 'Running']).code, 0);
      // run records what it applied on the pod too: kubectl apply of the same file finds nothing to change (and no missing record to warn about)
      const podApply = kubectl(['apply', '-f', p]);
      assert.deepEqual([podApply.stdout, podApply.stderr], ['pod/cli-objects-pod unchanged\n', '']);
      // kubectl's TYPE,TYPE: a table per kind, in the order asked, each NAME with its kind; a kind with nothing is left out
      const both = pl(['get', 'pods,cm,secret']);
      assert.deepEqual([both.code, both.out.split('\n').map((l) => l.split(/\s+/)[0])], [0, ['NAME', 'pod/cli-objects-pod', '', 'NAME', 'configmap/cli-cm', '', 'NAME', 'secret/cli-secret', '']]);
      assert.deepEqual(pl(['get', 'secrets,cm', 'nope']), { code: 1, out: '', err: 'Error from server (NotFound): secrets "nope" not found\nError from server (NotFound): configmaps "nope" not found\n' });
      assert.deepEqual(pl(['get', 'pods,deployments']), { code: 2, out: '', err: 'error: the server doesn\'t have a resource type "deployments"\n' });
      assert.deepEqual(pl(['get', 'deployments']), { code: 2, out: '', err: 'error: the server doesn\'t have a resource type "deployments"\n' });
      // named objects found of one kind: no kind in NAME (kubectl decides from what it found)
      const oneKind = pl(['get', 'pod/cli-objects-pod', 'cm/nope']);
      assert.deepEqual([oneKind.code, oneKind.out.split('\n').map((l) => l.split(/\s+/)[0]), oneKind.err], [1, ['NAME', 'cli-objects-pod', ''], 'Error from server (NotFound): configmaps "nope" not found\n']);
      // -o name and -A, as kubectl prints them
      assert.deepEqual(pl(['get', 'pods,cm', '-o', 'name']), { code: 0, out: 'pod/cli-objects-pod\nconfigmap/cli-cm\n', err: '' });
      // -o yaml, byte for byte as kubectl 1.33 prints the same objects (a List, and one object)
      // and a namespace that does not exist: kubectl looks it up after a NotFound and names it (delete does not)
      for (const args of [
        ['get', 'pods,cm,secret', '-o', 'yaml'],
        ['get', 'pod', 'cli-objects-pod', '-o', 'yaml'],
        ['get', 'cm', 'cli-cm', 'nope', '-o', 'yaml'],
        ['get', 'pods,cm', 'cli-objects-pod', '-n', 'nope'],
        ['describe', 'pod', 'a', 'b', '-n', 'nope'],
        ['logs', 'cli-objects-pod', '-n', 'nope'],
        ['exec', 'cli-objects-pod', '-n', 'nope', '--', 'true'],
        ['port-forward', 'cli-objects-pod', '8080', '-n', 'nope'],
        ['delete', 'pod', 'a', '-n', 'nope'],
        // -t without -i: no TTY and not a word about it; -it off a terminal: the warning
        ['exec', '-t', 'cli-objects-pod', '--', 'echo', 'hi'],
        ['exec', '-it', 'cli-objects-pod', '--', 'echo', 'hi'],
        // TYPE and a name not found: kubectl describes the objects whose names start with it; TYPE/NAME forms say only what is missing
        ['describe', 'cm', 'nothing-starts-so'],
        ['describe', 'cm/cli-cm', 'cm/nope'],
        ['describe', 'cm,secret', 'nope'],
        ['describe', 'cm,secret', 'cli-secret'],
        // (-A with secrets only: kubectl describes a ConfigMap's keys in Go's map order, which changes from run to run)
        ['describe', 'secrets', '-A'],
        ['describe', '-A', 'secrets,secret'],
        // -l, parsed and refused as the API server does (kubectl names the resource)
        ['get', 'pods', '-l', '!app', '-o', 'name'],
        ['get', 'pods', '-l', 'app', '-o', 'name'],
        ['get', 'pods', '-l', 'app in (web, x)'],
        ['get', 'cm', '-l', 'a b'],
        // --field-selector, with each type's own field labels and refusals (both selectors named in them)
        ['get', 'pods,cm', '--field-selector', 'metadata.name=cli-cm', '-o', 'name'],
        ['get', 'secrets', '--field-selector', 'type=Opaque,metadata.name!=nope', '-o', 'name'],
        ['get', 'pods', '--field-selector', 'status.phase=Running,status.phase!=Running'],
        ['get', 'pods', '--field-selector', 'foo=bar', '-l', 'a'],
        ['get', 'cm', '--field-selector', 'type=Opaque'],
        ['get', 'pods,cm', '--field-selector', 'type=Opaque'],
        ['get', 'pods,secrets', '--field-selector', 'type=Opaque', '-o', 'name'],
        ['get', 'secrets,pods', '--field-selector', 'type=Opaque', '-o', 'name'],
        ['get', 'pods,secrets', '-l', 'a b'],
        ['get', 'pods', '--field-selector', 'a'],
        ['get', 'pods', '--field-selector', 'x', '-l', 'a b'],
      ]) {
        const want = kubectl(args);
        assert.deepEqual(pl(args), { code: want.status, out: want.stdout, err: want.stderr }, args.join(' '));
      }
      assert.deepEqual(pl(['describe', 'pods', '-A', 'x']), { code: 2, out: '', err: 'error: a resource cannot be retrieved by name across all namespaces\n' });
      // (a table of the one type left is not named by kind, as kubectl's is not: compared without its ages)
      const ageless = (t: string) => t.replace(/ +\d+[smhd]\d*[smh]?$/gm, '');
      const secretsOnly = ['get', 'pods,secrets', '--field-selector', 'type=Opaque'];
      const wantTable = kubectl(secretsOnly);
      const table = pl(secretsOnly);
      assert.deepEqual({ ...table, out: ageless(table.out) }, { code: wantTable.status, out: ageless(wantTable.stdout), err: wantTable.stderr });
      assert.match(table.out, /^NAME +TYPE +DATA +AGE\ncli-secret +Opaque /);
      // a key written twice: kubectl apply sends the last value and the server never sees the first, so run creates it too, saying so
      // (and -f FILE, as kubectl apply takes it)
      assert.deepEqual(pl(['run', 'a.yaml', '-f', 'b.yaml']), { code: 2, out: '', err: 'error: run takes exactly one FILE (or -f FILE)\n' });
      const dup = pl(['run', '-f', file('dup.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: cli-dup\n  name: cli-dup2\nspec:\n  terminationGracePeriodSeconds: "x"\n  terminationGracePeriodSeconds: 0\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n'), '--until', 'Running', '--rm']);
      assert.equal(dup.code, 0, dup.err);
      // (the first value, which kubectl drops, is not checked: a string where a number goes refuses nothing)
      assert.ok(dup.err.startsWith('Pod Lab warning: metadata.name is written twice: the last value is used (kubectl sends only that one)\nPod Lab warning: spec.terminationGracePeriodSeconds is written twice: the last value is used (kubectl sends only that one)\n'), dup.err);
      assert.match(dup.out, /^cli-dup2 /m);
      // --show-labels and --no-headers (tables carry ages, so these are not compared with kubectl's)
      const labelled = pl(['get', 'pods', '--show-labels']);
      assert.match(labelled.out, /^NAME +READY +STATUS +RESTARTS +AGE +LABELS\ncli-objects-pod +1\/1 +Running +0 +\d+s +<none>\n$/);
      assert.match(pl(['get', 'pods', '--no-headers', '-l', '!app']).out, /^cli-objects-pod +1\/1 +Running +0 +\d+s\n$/);
      assert.deepEqual(pl(['get', 'pods', 'cli-objects-pod', '-l', 'app']), { code: 2, out: '', err: 'error: name cannot be provided when a selector is specified\n' });
      // (kubectl prints a ConfigMap's keys in a random order, so these are not compared with it)
      const byPrefix = pl(['describe', 'pod', 'cli-obj']);
      assert.deepEqual([byPrefix.code, byPrefix.out.split('\n')[0], byPrefix.err], [0, 'Name:             cli-objects-pod', '']);
      const cmPrefix = pl(['describe', 'cm', 'cli']);
      assert.deepEqual([cmPrefix.code, cmPrefix.out.split('\n')[0], cmPrefix.out.endsWith('\n\n'), cmPrefix.err], [0, 'Name:         cli-cm', true, '']);
      const every = pl(['get', 'pods', '-A']);
      assert.deepEqual([every.code, every.out.split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' '))], [0, ['NAMESPACE NAME', 'default cli-objects-pod', '']]);
      assert.deepEqual(pl(['get', 'pods', '-A', 'cli-objects-pod']), { code: 2, out: '', err: 'error: a resource cannot be retrieved by name across all namespaces\n' });
      assert.deepEqual(pl(['get', 'secrets', '-A', '-o', 'name']), { code: 0, out: 'secret/cli-secret\n', err: '' });
      // what was not found comes after what was (stdout and stderr merged, as on a terminal)
      const merged = spawnSync('sh', ['-c', `"${process.execPath}" "${cli}" get cli-objects-pod nope 2>&1`], { env: { ...env(), PODLAB_STATE_DIR: lab }, encoding: 'utf8' });
      assert.deepEqual([merged.status, merged.stdout.split('\n').map((l) => l.split(/\s+/)[0])], [1, ['NAME', 'cli-objects-pod', 'Error', '']]);
      // delete by selector: kubectl's refusals, and the objects of the types asked that match
      for (const args of [
        ['delete', 'pods', '-l', 'x=y'],
        ['delete', 'pods,cm', '-l', 'x=y', '--field-selector', 'type=x'],
        ['delete', 'pods,secrets', '--field-selector', 'type=x'],
        ['delete', 'pods', '-l', 'x y'],
      ]) {
        const want = kubectl(args);
        assert.deepEqual(pl(args), { code: want.status, out: want.stdout, err: want.stderr }, args.join(' '));
      }
      assert.deepEqual(pl(['delete', 'pod', 'cli-objects-pod', '-l', 'a=b']), { code: 2, out: '', err: 'error: name cannot be provided when a selector is specified\n' });
      assert.deepEqual(pl(['delete', 'pods', '--all', '-l', 'a=b']), { code: 2, out: '', err: "error: setting 'all' parameter but found a non empty selector. \n" });
      assert.deepEqual(pl(['delete', '-l', 'a=b']), { code: 2, out: '', err: 'error: at least one resource must be specified to use a selector\n' });
      // an empty selector is none (kubectl's builder trims it): it deletes nothing, and get lists everything
      assert.deepEqual(pl(['delete', 'pods', '-l', ' ']), { code: 2, out: '', err: 'error: delete pods takes NAMEs, --all or a selector (-l, --field-selector)\n' });
      assert.deepEqual(pl(['delete', 'pods', '--field-selector', '']), { code: 2, out: '', err: 'error: delete pods takes NAMEs, --all or a selector (-l, --field-selector)\n' });
      assert.deepEqual(pl(['get', 'pods', '-l', ' ', '-o', 'name']), { code: 0, out: 'pod/cli-objects-pod\n', err: '' });
      assert.deepEqual(pl(['get', 'pod', 'cli-objects-pod', '-l', '', '-o', 'name']), { code: 0, out: 'pod/cli-objects-pod\n', err: '' });
      assert.deepEqual(pl(['delete', 'cm,secrets', '--field-selector', 'metadata.name=cli-secret']), { code: 0, out: 'secret "cli-secret" deleted\n', err: '' });
      const all = pl(['delete', '--all']);
      assert.equal(all.code, 0, all.err);
      assert.deepEqual(all.out.split('\n').filter(Boolean).sort(), ['configmap "cli-cm" deleted', 'pod "cli-objects-pod" deleted']);
      assert.deepEqual(pl(['delete', '--all']), { code: 0, out: 'No resources found\n', err: '' });
      assert.deepEqual(pl(['get', 'pods', '--all-namespaces']), { code: 0, out: '', err: 'No resources found\n' });
      assert.deepEqual([pl(['get', 'cm']).err, pl(['get', 'secrets']).err, pl(['get', 'pods,cm,secrets']).err, labSandboxes(lab)], ['No resources found in default namespace.\n', 'No resources found in default namespace.\n', 'No resources found in default namespace.\n', []]);
    } finally {
      await stopLabServer(lab);
      removeLabContainers(lab);
      rmSync(lab, { recursive: true, force: true });
    }
  });
});

describe('podlab run --nodes', () => {
  test('virtual nodes from a file (a new lab server takes them): the node selector picks the matching node, a taint keeps others off', async () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-nodes-'));
    const podlab = (args: string[]) => {
      const r = spawnSync(process.execPath, [cli, ...args], { env: { ...env(), PODLAB_STATE_DIR: lab }, encoding: 'utf8', timeout: 60_000 });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    try {
    const nodes = file(
      'nodes.yaml',
      ['small', 'big']
        .map(
          (n) => `apiVersion: v1\nkind: Node\nmetadata:\n  name: ${n}\n  labels:\n    size: ${n}\nspec:\n${n === 'small' ? '  taints:\n    - key: dedicated\n      value: infra\n      effect: NoSchedule\n' : '  {}\n'}status:\n  allocatable:\n    cpu: "2"\n    memory: 2Gi\n    pods: "10"\n`,
        )
        .join('---\n'),
    );
    const f = file('sel.yaml', pod('cli-sel', '  restartPolicy: Never\n  nodeSelector:\n    size: big\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["true"]\n'));
    const r = podlab(['run', f, '--nodes', nodes, '--json', '--rm']);
    assert.equal(r.code, 0, r.err);
    const sched = jsonLines(r.out).find((l) => l.kind === 'Event' && (l as unknown as { reason: string }).reason === 'Scheduled') as unknown as { message: string };
    assert.equal(sched.message, 'Successfully assigned default/cli-sel to big');
    const g = file('onsmall.yaml', pod('cli-small', '  nodeSelector:\n    size: small\n  containers:\n    - name: app\n      image: busybox:1.35\n'));
    const r2 = podlab(['run', g, '--nodes', nodes, '--until', 'Running', '--timeout', '3', '--json', '--rm']);
    assert.equal(r2.code, 124);
    const failed = jsonLines(r2.out).find((l) => l.kind === 'Event' && (l as unknown as { reason: string }).reason === 'FailedScheduling') as unknown as { message: string };
    assert.equal(
      failed.message,
      "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {dedicated: infra}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    );
    // The running server keeps its nodes: a run asking for others is told so.
    const other = file('other-nodes.yaml', 'apiVersion: v1\nkind: Node\nmetadata:\n  name: solo\n');
    const r3 = podlab(['run', f, '--nodes', other, '--json', '--rm']);
    assert.match(r3.err, /^podlab: the lab server already runs with nodes small, big; run `podlab stop` first to change its settings$/m);
    } finally {
      await stopLabServer(lab);
      removeLabContainers(lab);
      rmSync(lab, { recursive: true, force: true });
    }
  });
});

describe('the lab server keeps managing what the commands started', () => {
  test('a killed `podlab run` leaves its pod running under the server: get/describe/logs show it, a new run re-attaches, delete removes it', async () => {
    const f = file('adopt.yaml', pod('cli-adopt', '  terminationGracePeriodSeconds: 1\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sh", "-c", "echo hello-adopt; sleep 3600"]\n'));
    const first = spawn(process.execPath, [cli, 'run', f], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    first.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitOutput(() => /cli-adopt\s+1\/1\s+Running/.test(out), 30_000);
    first.kill('SIGKILL');
    await exitCode(first);

    const get = podlab(['get']);
    assert.equal(get.code, 0, get.err);
    assert.match(get.out, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n/);
    assert.match(get.out, /cli-adopt\s+1\/1\s+Running\s+0\s+\d+s/);
    const wide = podlab(['get', 'cli-adopt', '-o', 'wide']);
    assert.match(wide.out, /IP\s+NODE/);
    assert.match(wide.out, /podlab-node/);
    const json = JSON.parse(podlab(['get', 'cli-adopt', '-o', 'json']).out) as { kind: string; status: { phase: string } };
    assert.equal(json.kind, 'Pod');
    assert.equal(json.status.phase, 'Running');
    const desc = podlab(['describe', 'cli-adopt']);
    assert.match(desc.out, /^Name:\s+cli-adopt$/m);
    assert.match(desc.out, /Started\s+.*Started container app/);
    assert.deepEqual(podlab(['logs', 'cli-adopt']).out.trim(), 'hello-adopt');
    // logs -f streams from the server until interrupted.
    const follow = spawn(process.execPath, [cli, 'logs', 'cli-adopt', '-f'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let followed = '';
    follow.stdout.on('data', (d: Buffer) => (followed += d.toString()));
    await waitOutput(() => followed.includes('hello-adopt\n'), 15_000);
    follow.kill('SIGINT');
    assert.equal(await exitCode(follow), 0);

    // A new `podlab run` of the same manifest attaches instead of failing.
    const again = spawn(process.execPath, [cli, 'run', f, '--until', 'Running', '--json'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(await exitCode(again), 0);
    // A changed manifest does not: the API server's AlreadyExists, then what differs and what to do (and no table header before it).
    const changed = file('adopt-changed.yaml', readFileSync(f, 'utf8').replace('echo hello-adopt', 'echo changed'));
    assert.deepEqual(podlab(['run', changed]), {
      code: 1,
      out: '',
      err: 'Error from server (AlreadyExists): pods "cli-adopt" already exists\npodlab: pod "cli-adopt" runs from another spec (container "app" has another command in the file): delete it first (podlab delete cli-adopt) to run the file\'s\n',
    });

    const del = podlab(['delete', 'cli-adopt', '--grace-period', '1']);
    assert.equal(del.code, 0, del.err);
    assert.match(del.out, /pod "cli-adopt" deleted/);
    assert.equal(execFileSync('docker', ['ps', '-aq', '--filter', 'label=io.kubernetes.pod.name=cli-adopt'], { encoding: 'utf8' }).trim(), '');
    assert.match(podlab(['get', 'cli-adopt']).err, /pods "cli-adopt" not found/);
  });

  test('get STATUS shows Init:CrashLoopBackOff for a failing init container, and logs --previous works', async () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-backoff-'));
    const podlab = (args: string[]) => {
      const r = spawnSync(process.execPath, [cli, ...args], { env: { ...env(), PODLAB_STATE_DIR: lab }, encoding: 'utf8', timeout: 60_000 });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    const env2 = () => ({ ...env(), PODLAB_STATE_DIR: lab });
    try {
    const f = file('initloop.yaml', pod('cli-initloop', '  terminationGracePeriodSeconds: 0\n  initContainers:\n    - name: check\n      image: busybox:1.35\n      command: ["sh", "-c", "echo try; exit 1"]\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n'));
    const child = spawn(process.execPath, [cli, 'run', f, '--backoff-initial', '2', '--backoff-max', '4'], { env: env2(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitOutput(() => /cli-initloop\s+0\/1\s+Init:CrashLoopBackOff/.test(out), 30_000);
    const get = podlab(['get', 'cli-initloop']);
    assert.match(get.out, /cli-initloop\s+0\/1\s+Init:CrashLoopBackOff\s+\d+ \(\d+s ago\)/);
    assert.equal(podlab(['logs', 'cli-initloop', '-c', 'check', '--previous']).out.trim(), 'try');
    child.kill('SIGTERM');
    assert.equal(await exitCode(child), 130);
    } finally {
      await stopLabServer(lab);
      removeLabContainers(lab);
      rmSync(lab, { recursive: true, force: true });
    }
  });

  test('when Docker is down the lab server cannot start and every command fails with one clear line', () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-nodocker-'));
    const r = spawnSync(process.execPath, [cli, 'get'], { env: { ...env(), PODLAB_STATE_DIR: lab, PODLAB_QUIET_SERVER: '1', DOCKER_HOST: 'unix:///nonexistent/docker.sock' }, encoding: 'utf8' });
    rmSync(lab, { recursive: true, force: true });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error: Cannot connect to Docker at \/nonexistent\/docker\.sock: .*Start Docker/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  });
});

describe('the lab server: serve, status, stop, kubeconfig, and a server killed mid-start', () => {
  test('one server per state directory; kill -9 while a pod starts, the next server adopts it without duplicates; stop leaves containers and a new server adopts them with their uid', async () => {
    const lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-server-'));
    const e2 = () => ({ ...env(), PODLAB_STATE_DIR: lab });
    const pl = (args: string[]) => {
      const r = spawnSync(process.execPath, [cli, ...args], { env: e2(), encoding: 'utf8', timeout: 90_000 });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    const kubectl = (args: string[]) => {
      const r = spawnSync('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', args, { env: { ...process.env, KUBECONFIG: join(lab, 'server', 'kubeconfig') }, encoding: 'utf8', timeout: 60_000 });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    try {
      assert.deepEqual(pl(['status']), { code: 3, out: `no lab server runs for ${lab}\n`, err: '' });
      const kc = pl(['kubeconfig']);
      assert.deepEqual([kc.code, kc.out, kc.err], [0, `${join(lab, 'server', 'kubeconfig')}\n`, `podlab: starting the lab server for ${lab}\n`]);
      const second = pl(['serve']);
      assert.deepEqual([second.code, second.err], [1, `podlab serve: a lab server already runs for ${lab} (podlab status says where; podlab stop stops it)\n`]);
      const st = JSON.parse(pl(['status', '--json']).out) as { running: boolean; pid: number; pods: number };
      assert.deepEqual([st.running, st.pods], [true, 0]);

      const f = file('killed.yaml', pod('cli-killed', '  terminationGracePeriodSeconds: 1\n  initContainers:\n    - name: wait\n      image: busybox:1.35\n      command: ["sleep", "2"]\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n'));
      assert.equal(kubectl(['apply', '-f', f]).code, 0);
      await sleep(1000);
      process.kill(st.pid, 'SIGKILL');
      await sleep(300);
      // The next command starts a new server, which adopts the pod and finishes starting it.
      const deadline = Date.now() + 60_000;
      let row = '';
      while (Date.now() < deadline) {
        row = pl(['get', 'cli-killed']).out;
        if (/cli-killed\s+1\/1\s+Running\s+0/.test(row)) break;
        await sleep(500);
      }
      assert.match(row, /cli-killed\s+1\/1\s+Running\s+0\s/);
      const uid = JSON.parse(pl(['get', 'cli-killed', '-o', 'json']).out).metadata.uid as string;
      const names = () => execFileSync('docker', ['ps', '-a', '--filter', `label=io.kubernetes.pod.uid=${uid}`, '--format', '{{.Label "io.kubernetes.container.name"}}'], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
      assert.deepEqual(names(), ['POD', 'app', 'wait']);
      const ex = spawnSync(process.execPath, [cli, 'exec', 'cli-killed', '-i', '--', 'sh', '-c', 'cat; echo to-stderr >&2; exit 4'], { env: e2(), input: 'via stdin\n', encoding: 'utf8', timeout: 60_000 });
      // kubectl's note: the pod has an init container besides its one app container.
      assert.deepEqual([ex.status, ex.stdout, ex.stderr], [4, 'via stdin\n', 'Defaulted container "app" out of: app, wait (init)\nto-stderr\ncommand terminated with exit code 4\n']);
      // A container the pod lacks: the API server's answer, as kubectl prints it.
      const bogus = spawnSync(process.execPath, [cli, 'exec', 'cli-killed', '-c', 'nope', '--', 'true'], { env: e2(), encoding: 'utf8', timeout: 60_000 });
      // (kubectl 1.27-1.33 print `Error from server (BadRequest): container nope is not valid for pod …` against the lab server)
      assert.deepEqual([bogus.status, bogus.stdout, bogus.stderr], [1, '', 'Error from server (BadRequest): container nope is not valid for pod cli-killed\n']);

      assert.deepEqual(pl(['stop']).out, `lab server for ${lab} stopped (containers left as they are)\n`);
      assert.equal(pl(['status']).code, 3);
      assert.deepEqual(names(), ['POD', 'app', 'wait']);
      const again = JSON.parse(pl(['get', 'cli-killed', '-o', 'json']).out) as { metadata: { uid: string }; status: { phase: string } };
      assert.deepEqual([again.metadata.uid, again.status.phase], [uid, 'Running']);
      assert.deepEqual(names(), ['POD', 'app', 'wait']);

      const merged = join(lab, 'merged-config');
      writeFileSync(merged, '# my clusters\napiVersion: v1\nkind: Config\nclusters:\n- name: other\n  cluster:\n    server: https://10.0.0.1\ncontexts:\n- name: other\n  context:\n    cluster: other\n    user: other\nusers:\n- name: other\n  user:\n    token: x\ncurrent-context: other\n');
      assert.equal(pl(['kubeconfig', '--merge', '--file', merged]).out, `added the podlab context in ${merged} (kubectl --context podlab ...)\n`);
      const ctx = spawnSync('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', ['--kubeconfig', merged, 'config', 'get-contexts', '-o', 'name'], { encoding: 'utf8' });
      assert.deepEqual(ctx.stdout.split('\n').filter(Boolean).sort(), ['other', 'podlab']);
      const viaMerged = spawnSync('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', ['--kubeconfig', merged, '--context', 'podlab', 'get', 'pods', '-o', 'name'], { encoding: 'utf8' });
      assert.equal(viaMerged.stdout, 'pod/cli-killed\n', viaMerged.stderr);
      assert.match(readFileSync(merged, 'utf8'), /^# my clusters\n/);
    } finally {
      await stopLabServer(lab);
      removeLabContainers(lab);
      rmSync(lab, { recursive: true, force: true });
    }
  });
});

describe('the command line tells the story', () => {
  // One lab for these tests, stopped (and its containers checked gone) at the end.
  let lab = '';
  const storyEnv = () => ({ ...env(), PODLAB_STATE_DIR: lab });
  const pl = (args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], { env: storyEnv(), encoding: 'utf8', timeout: 90_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  /** A command in a child process, without blocking the test's event loop. */
  const run = (cmd: string, args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string; ms: number }>((resolve) => {
      const t0 = Date.now();
      const child = spawn(cmd, args, { env: storyEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('close', (code) => resolve({ code, out, err, ms: Date.now() - t0 }));
    });
  before(() => {
    lab = mkdtempSync(join(tmpdir(), 'podlab-test-cli-story-'));
  });
  after(async () => {
    await stopLabServer(lab);
    const left = labSandboxes(lab);
    removeLabContainers(lab);
    rmSync(lab, { recursive: true, force: true });
    assert.deepEqual(left, []);
  });

  test('story: run --logs prints the init container\'s lines, labelled, before the app container\'s, among the pod lines; with --json each line is a Log object', () => {
    const f = file(
      'story-logs.yaml',
      pod('cli-story-logs', '  restartPolicy: Never\n  initContainers:\n    - name: init\n      image: busybox:1.35\n      command: ["sh", "-c", "echo first init line; echo second init line"]\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sh", "-c", "echo hello from app"]\n'),
    );
    const r = pl(['run', f, '--logs', '--rm']);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.split('\n');
    assert.deepEqual(
      lines.filter((l) => l.includes(' | ')),
      ['init | first init line', 'init | second init line', 'app  | hello from app'],
    );
    // The pod lines are printed as before, with the log lines among them.
    assert.match(lines[0]!, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    assert.ok(lines.some((l) => /^cli-story-logs\s+0\/1\s+Completed\s+0\s/.test(l)), r.out);
    assert.ok(lines.findIndex((l) => /Init:0\/1/.test(l)) < lines.indexOf('init | first init line'), r.out);

    const j = pl(['run', f, '--logs', '--json', '--rm']);
    assert.equal(j.code, 0, j.err);
    const logs = jsonLines(j.out).filter((l) => l.kind === 'Log') as unknown as { namespace: string; pod: string; container: string; containerID: string; line: string }[];
    assert.deepEqual(
      logs.map((l) => [l.namespace, l.pod, l.container, /^docker:\/\/[0-9a-f]{64}$/.test(l.containerID), l.line]),
      [
        ['default', 'cli-story-logs', 'init', true, 'first init line'],
        ['default', 'cli-story-logs', 'init', true, 'second init line'],
        ['default', 'cli-story-logs', 'app', true, 'hello from app'],
      ],
    );
    const pods = jsonLines(j.out).filter((l) => l.kind === 'Pod') as unknown as { status: { phase: string } }[];
    assert.equal(pods.at(-1)!.status.phase, 'Succeeded');
  });

  test('story: logs without -c on a pod of several containers defaults to the first with kubectl\'s note; -c naming none is kubectl\'s error; --timestamps, --since, --since-time, --limit-bytes and the server\'s refusals', () => {
    const f = file(
      'story-default.yaml',
      pod(
        'cli-story-default',
        '  terminationGracePeriodSeconds: 0\n  initContainers:\n    - name: init-a\n      image: busybox:1.35\n      command: ["true"]\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sh", "-c", "echo from-app; sleep 3600"]\n    - name: sidecar\n      image: busybox:1.35\n      command: ["sh", "-c", "echo from-sidecar; sleep 3600"]\n',
      ),
    );
    const up = pl(['run', f, '--until', 'Running']);
    assert.equal(up.code, 0, up.err);
    const deadline = Date.now() + 10_000;
    let r = pl(['logs', 'cli-story-default']);
    while (r.out === '' && Date.now() < deadline) r = pl(['logs', 'cli-story-default']);
    assert.deepEqual(r, { code: 0, out: 'from-app\n', err: 'Defaulted container "app" out of: app, sidecar, init-a (init)\n' });
    assert.deepEqual(pl(['logs', 'cli-story-default', '-c', 'sidecar']), { code: 0, out: 'from-sidecar\n', err: '' });
    // --all-containers: every container's log in the order they start, no note; --prefix labels each
    // line as kubectl does. kubectl 1.33 prints the same blocks, in an order that changes between runs.
    const everyLog = pl(['logs', 'cli-story-default', '--all-containers', '--prefix']);
    assert.deepEqual(everyLog, { code: 0, out: '[pod/cli-story-default/app] from-app\n[pod/cli-story-default/sidecar] from-sidecar\n', err: '' });
    const kubectlLogs = spawnSync('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', ['logs', 'cli-story-default', '--all-containers', '--prefix'], { env: { ...process.env, KUBECONFIG: join(lab, 'server', 'kubeconfig') }, encoding: 'utf8', timeout: 60_000 });
    assert.deepEqual([kubectlLogs.status, kubectlLogs.stdout.split('\n').sort(), kubectlLogs.stderr], [0, everyLog.out.split('\n').sort(), '']);
    assert.deepEqual(pl(['logs', 'cli-story-default', '--all-containers']), { code: 0, out: 'from-app\nfrom-sidecar\n', err: '' });
    assert.deepEqual(pl(['logs', 'cli-story-default', '-c', 'app', '--prefix']), { code: 0, out: '[pod/cli-story-default/app] from-app\n', err: '' });
    assert.deepEqual(pl(['logs', 'cli-story-default', 'app', '--all-containers']), { code: 2, out: '', err: 'error: --all-containers=true should not be specified with container name app\n' });
    assert.deepEqual(pl(['logs', 'cli-story-default', '--all-containers', '-f', '--max-log-requests', '2']), {
      code: 1,
      out: '',
      err: 'error: you are attempting to follow 3 log streams, but maximum allowed concurrency is 2, use --max-log-requests to increase the limit\n',
    });
    // kubectl's inline CONTAINER, and its refusal beside -c
    assert.deepEqual(pl(['logs', 'cli-story-default', 'sidecar']), { code: 0, out: 'from-sidecar\n', err: '' });
    assert.deepEqual(pl(['logs', 'cli-story-default', 'sidecar', '-c', 'app']), { code: 2, out: '', err: 'error: only one of -c or an inline [CONTAINER] arg is allowed\n' });
    assert.deepEqual(pl(['logs', 'cli-story-default', '-c', 'bogus']), { code: 1, out: '', err: 'error: container bogus is not valid for pod cli-story-default\n' });
    // kubectl's other options, through the lab server
    const stamped = pl(['logs', 'cli-story-default', '-c', 'sidecar', '--timestamps']);
    assert.match(stamped.out, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z from-sidecar\n$/, stamped.err);
    const t = Date.parse(stamped.out.split(' ')[0]!);
    assert.deepEqual(pl(['logs', 'cli-story-default', '-c', 'sidecar', '--since', '1h']), { code: 0, out: 'from-sidecar\n', err: '' });
    const after = new Date(Math.floor(t / 1000) * 1000 + 1000).toISOString().replace('.000Z', 'Z');
    assert.deepEqual(pl(['logs', 'cli-story-default', '-c', 'sidecar', '--since-time', after]), { code: 0, out: '', err: '' }, 'a line before --since-time is left out');
    assert.deepEqual(pl(['logs', 'cli-story-default', '-c', 'sidecar', '--limit-bytes', '4']), { code: 0, out: 'from', err: '' }, 'cut short, without a newline');
    assert.deepEqual(pl(['logs', 'cli-story-default', '-c', 'sidecar', '--since', '400ms']), {
      code: 1,
      out: '',
      err: 'The PodLogOptions "cli-story-default" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0\n',
    });
    assert.deepEqual(pl(['logs', 'cli-story-default', '--since', 'abc']), { code: 2, out: '', err: 'error: invalid argument "abc" for "--since" flag: time: invalid duration "abc"\n' });
    assert.deepEqual(pl(['logs', 'cli-story-default', '-c', 'app', '--previous']), {
      code: 1,
      out: '',
      err: 'Error from server (BadRequest): previous terminated container "app" in pod "cli-story-default" not found\n',
    });
    // pod/NAME as kubectl takes it; a missing pod in kubectl logs' words; a command's exit code said on stderr; no port-forward to a pod that is not running
    assert.deepEqual(pl(['logs', 'pod/cli-story-default', '-c', 'sidecar']), { code: 0, out: 'from-sidecar\n', err: '' });
    assert.deepEqual(pl(['logs', 'nosuch']), { code: 1, out: '', err: 'error: error from server (NotFound): pods "nosuch" not found in namespace "default"\n' });
    // kubectl validates its flags once it found the pod: a missing pod is said first
    assert.deepEqual(pl(['logs', 'nosuch', 'app', '-c', 'app', '--tail=-2']), { code: 1, out: '', err: 'error: error from server (NotFound): pods "nosuch" not found in namespace "default"\n' });
    assert.deepEqual(pl(['exec', 'po/cli-story-default', '-c', 'app', '--', 'sh', '-c', 'echo hi; exit 3']), { code: 3, out: 'hi\n', err: 'command terminated with exit code 3\n' });
    assert.equal(pl(['delete', 'cli-story-default']).code, 0);
    const done = file('story-done.yaml', pod('cli-story-done', '  restartPolicy: Never\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["true"]\n'));
    assert.equal(pl(['run', done, '--until', 'Succeeded']).code, 0);
    assert.deepEqual(pl(['port-forward', 'pod/cli-story-done', '0:8080']), { code: 1, out: '', err: 'error: unable to forward port because pod is not running. Current status=Succeeded\n' });
    assert.equal(pl(['delete', 'cli-story-done']).code, 0);
  });

  test('story: logs --all-containers while an init container runs: a container waiting to start ends the read with the server\'s refusal, or with --ignore-errors is said among the lines; -f follows every log at once', () => {
    const f = file(
      'story-all-logs.yaml',
      pod(
        'cli-all-logs',
        '  terminationGracePeriodSeconds: 0\n  initContainers:\n    - name: setup\n      image: busybox:1.35\n      command: ["sh", "-c", "echo setting up; sleep 3600"]\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["true"]\n',
      ),
    );
    assert.equal(pl(['run', f, '--until', 'Running', '--timeout', '3']).code, 124, 'the pod stays in its init container');
    const deadline = Date.now() + 10_000;
    let r = pl(['logs', 'cli-all-logs', '--all-containers', '--prefix']);
    while (!r.out && Date.now() < deadline) r = pl(['logs', 'cli-all-logs', '--all-containers', '--prefix']);
    const waiting = 'container "app" in pod "cli-all-logs" is waiting to start: PodInitializing';
    assert.deepEqual(r, { code: 1, out: '[pod/cli-all-logs/setup] setting up\n', err: `Error from server (BadRequest): ${waiting}\n` });
    assert.deepEqual(pl(['logs', 'cli-all-logs', '--all-containers', '--prefix', '--ignore-errors']), { code: 0, out: `[pod/cli-all-logs/setup] setting up\nerror: ${waiting}\n`, err: '' });
    // followed: the refused stream ends the others (what the running one printed first may come or not)
    const followed = pl(['logs', 'cli-all-logs', '--all-containers', '-f']);
    assert.deepEqual([followed.code, followed.err], [1, `Error from server (BadRequest): ${waiting}\n`]);
    assert.match(followed.out, /^(setting up\n)?$/);
    assert.equal(pl(['delete', 'cli-all-logs']).code, 0);
  });

  test('story: get -w --field-selector status.phase=Running from an empty list, beside kubectl 1.33 -w on the same lab: nothing said for the empty list, the header as wide as the first row, and a pod that stops Running leaves with its last Running row', async () => {
    const f = file('story-fs.yaml', pod('cli-fs', '  restartPolicy: Never\n  terminationGracePeriodSeconds: 0\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3"]\n').replace('  name: cli-fs\n', '  name: cli-fs\n  labels:\n    story: fs\n'));
    const args = ['get', 'pods', '-l', 'story=fs', '--field-selector', 'status.phase=Running', '-w'];
    assert.equal(pl(['kubeconfig']).code, 0, 'the lab server runs before kubectl asks it');
    const ours = watch(process.execPath, [cli, ...args], storyEnv());
    const theirs = watch('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', args, { ...process.env, KUBECONFIG: join(lab, 'server', 'kubeconfig') });
    await sleep(1500);
    assert.equal(pl(['run', f, '--until', 'Succeeded']).code, 0);
    const end = Date.now() + 20_000;
    while ((ours.out.split('\n').length < 4 || theirs.out.split('\n').length < 4) && Date.now() < end) await sleep(100);
    ours.child.kill('SIGINT');
    theirs.child.kill('SIGINT');
    await Promise.all([ours.code, theirs.code]);
    assert.equal(pl(['delete', 'cli-fs']).code, 0);
    const ageless = (t: string) => t.replace(/\d+s$/gm, 'AGE');
    assert.deepEqual({ out: ageless(ours.out), err: ours.err }, { out: ageless(theirs.out), err: theirs.err });
    assert.match(ageless(ours.out), /^NAME     READY   STATUS    RESTARTS   AGE\ncli-fs   1\/1     Running   0          AGE\ncli-fs   1\/1     Running   0          AGE\n$/);
  });

  test('story: get -w --sort-by and get --watch-only beside kubectl 1.33 on the same lab: the warning that a watch is not sorted, -w\'s first list sorted all the same, --watch-only with the changes alone', async () => {
    const spec = '  terminationGracePeriodSeconds: 0\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n';
    const labelled = (name: string) => file(`story-${name}.yaml`, pod(name, spec).replace(`  name: ${name}\n`, `  name: ${name}\n  labels:\n    story: wo\n`));
    // created in the order opposite to their names', so that sorting by creation shows
    assert.equal(pl(['run', labelled('cli-wo-z'), '--until', 'Running']).code, 0);
    await sleep(1100);
    assert.equal(pl(['run', labelled('cli-wo-a'), '--until', 'Running']).code, 0);
    const kubeconfig = { ...process.env, KUBECONFIG: join(lab, 'server', 'kubeconfig') };
    const forms = [
      ['get', 'pods', '-l', 'story=wo', '-w', '--sort-by=.metadata.creationTimestamp'],
      ['get', 'pods', '-l', 'story=wo', '--watch-only', '--sort-by=.metadata.name'],
      // the first list is sorted as a table only; a path the table sorter refuses ends -w; --watch-only sorts nothing; it wins over -w
      ['get', 'pods', '-l', 'story=wo', '-w', '-o', 'name', '--sort-by=.metadata.creationTimestamp'],
      ['get', 'pods', '-l', 'story=wo', '-w', '--sort-by=.nope'],
      ['get', 'pods', '-l', 'story=wo', '--watch-only', '--sort-by=.nope'],
      ['get', 'pods', '-l', 'story=wo', '-w', '--watch-only'],
    ];
    const runs = forms.map((args) => ({ ours: watch(process.execPath, [cli, ...args], storyEnv()), theirs: watch('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', args, kubeconfig) }));
    await sleep(2000);
    assert.equal(pl(['delete', 'cli-wo-z']).code, 0);
    await sleep(1500);
    for (const r of runs) {
      r.ours.child.kill('SIGINT');
      r.theirs.child.kill('SIGINT');
      await Promise.all([r.ours.code, r.theirs.code]);
    }
    assert.equal(pl(['delete', 'cli-wo-a']).code, 0);
    const ageless = (t: string) => t.replace(/\d+s$/gm, 'AGE');
    runs.forEach((r, i) => assert.deepEqual({ out: ageless(r.ours.out), err: r.ours.err }, { out: ageless(r.theirs.out), err: r.theirs.err }, forms[i]!.join(' ')));
    const [w, only, names, refused] = runs.map((r) => ({ out: ageless(r.ours.out).split('\n'), err: r.ours.err }));
    assert.deepEqual(names!.out.slice(0, 2), ['pod/cli-wo-a', 'pod/cli-wo-z'], 'the server\'s order, unsorted');
    assert.match(refused!.err, /^warning: --watch requested, --sort-by will be ignored for watch events received\nerror: unable to output the provided object: /);
    assert.deepEqual(
      { wHead: w!.out.slice(0, 3), wErr: w!.err, onlyFirst: only!.out[1]?.split(/\s+/)[0], onlyRows: only!.out.filter((l) => l.startsWith('cli-wo-a')).length, onlyErr: only!.err },
      {
        wHead: ['NAME       READY   STATUS    RESTARTS   AGE', 'cli-wo-z   1/1     Running   0          AGE', 'cli-wo-a   1/1     Running   0          AGE'],
        wErr: 'warning: --watch requested, --sort-by will be ignored for watch events received\n',
        onlyFirst: 'cli-wo-z',
        onlyRows: 0,
        onlyErr: 'warning: --watch-only requested, --sort-by will be ignored\n',
      },
    );
  });

  test('story: get -w with an output that cannot print an object, beside kubectl 1.33 on the same lab: an object of the first list ends the command (unable to output the provided object, exit 1, no row printed), a later event\'s object ends the watch silently (exit 0)', async () => {
    const spec = '  terminationGracePeriodSeconds: 0\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n';
    const labelled = (name: string) => file(`story-${name}.yaml`, pod(name, spec).replace(`  name: ${name}\n`, `  name: ${name}\n  labels:\n    story: we\n`));
    assert.equal(pl(['run', labelled('cli-we-a'), '--until', 'Running']).code, 0);
    const kubeconfig = { ...process.env, KUBECONFIG: join(lab, 'server', 'kubeconfig') };
    const kubectl = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
    // the first list: cli-we-a has one container
    for (const output of ['custom-columns=N:.metadata.name,C:.spec.containers[5].name', 'jsonpath={.metadata.name}{"\\n"}{.spec.containers[5].name}']) {
      const args = ['get', 'pods', '-l', 'story=we', '-w', '-o', output];
      const want = spawnSync(kubectl, args, { env: kubeconfig, encoding: 'utf8', timeout: 20_000 });
      assert.deepEqual(pl(args), { code: want.status, out: want.stdout, err: want.stderr }, output);
      assert.deepEqual([want.status, want.stdout, want.stderr.startsWith('error: unable to output the provided object: ')], [1, '', true], output);
    }
    // a later event: a new pod has no conditions when created (printed), one once scheduled (the template fails)
    const args = ['get', 'pods', '-l', 'story=we', '-w', '-o', 'jsonpath={.metadata.name}{"\\n"}{.status.conditions[1].type}{"\\n"}'];
    const ours = watch(process.execPath, [cli, ...args], storyEnv());
    const theirs = watch(kubectl, args, kubeconfig);
    await sleep(2000);
    assert.equal(pl(['run', labelled('cli-we-b'), '--until', 'Running']).code, 0);
    const timeout = setTimeout(() => [ours, theirs].forEach((w) => w.child.kill('SIGINT')), 15_000);
    const codes = await Promise.all([ours.code, theirs.code]);
    clearTimeout(timeout);
    for (const name of ['cli-we-a', 'cli-we-b']) assert.equal(pl(['delete', name]).code, 0);
    assert.deepEqual({ code: codes[0], out: ours.out, err: ours.err }, { code: codes[1], out: theirs.out, err: theirs.err });
    assert.deepEqual({ code: codes[0], out: ours.out, err: ours.err }, { code: 0, out: 'cli-we-a\nInitialized\ncli-we-b\n\n', err: '' });
  });

  test('story: get -o jsonpath=TEMPLATE prints what kubectl 1.33 prints for the same template on the same lab (fields, ranges, filters, slices, unions, literals, JSON for objects) and fails with its words', () => {
    const f = file('story-jp.yaml', pod('cli-jp', '  terminationGracePeriodSeconds: 0\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n      ports:\n        - containerPort: 8080\n    - name: side\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n').replace('  name: cli-jp\n', '  name: cli-jp\n  labels:\n    app: jp\n    size: "10"\n    tier: back\n'));
    assert.equal(pl(['run', f, '--until', 'Running']).code, 0);
    const kubectl = (args: string[]) => spawnSync('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', args, { env: { ...process.env, KUBECONFIG: join(lab, 'server', 'kubeconfig') }, encoding: 'utf8', timeout: 60_000 });
    const templates = [
      '{.items[0].metadata.name}',
      '{.items[*].spec.containers[*].image}',
      '{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}',
      '{range .items[*]}{range .spec.containers[*]}{.name}{" "}{end}{"\\n"}{end}',
      '{.items[0].metadata.labels}',
      '{.items[0].spec.containers[0]}',
      '{.items[0].spec.terminationGracePeriodSeconds}',
      '{.items[0].metadata.deletionTimestamp}',
      'x{.kind}y{$.apiVersion}',
      '{.items[?(@.metadata.name=="cli-jp")].status.phase}',
      '{.items[*].spec.containers[?(@.name=="side")].name}',
      '{.items[?(@.spec.terminationGracePeriodSeconds==0)].metadata.name}',
      '{.items[?(@.spec.terminationGracePeriodSeconds==0.0)].metadata.name}',
      '{.items[0].status.conditions[?(@.type=="Ready")].status}',
      '{.items[-1:].metadata.name}',
      '{.items[0].spec.containers[::2].name}',
      "{.items[0]['kind', 'apiVersion']}",
      "{.items[0].metadata['name']}",
      '{.items[0].spec.containers[0].ports[0].containerPort}',
      '{"a"}{\'b\'}{"\\u00e9\\x41"}{true} {3} {1.5}',
      '{.items[0].status.containerStatuses[*].ready}',
      '{range .items[9:9]}{.x}{end}done',
      '{.items[5]}',
      '{end}',
      '{.x',
      '{#}',
      '{.items[a]}',
      '{.items[0].metadata.labels[?(@.x)]}',
    ];
    for (const t of templates) {
      const args = ['get', 'pods', '-l', 'app=jp', '-o', `jsonpath=${t}`];
      const want = kubectl(args);
      assert.deepEqual(pl(args), { code: want.status, out: want.stdout, err: want.stderr }, t);
    }
    // a map's keys come in Go's random order in kubectl: the same values, in an order of their own
    for (const t of ['{.items[0].metadata.labels.*}', '{..name}']) {
      const args = ['get', 'pods', '-l', 'app=jp', '-o', `jsonpath=${t}`];
      const words = (s: string) => s.split(' ').sort();
      assert.deepEqual(words(pl(args).out), words(kubectl(args).stdout), t);
    }
    // -o custom-columns=HEADER:PATH,... (tables carry no ages here, so they are compared whole)
    for (const spec of [
      'NAME:.metadata.name,STATUS:.status.phase',
      'NAME:metadata.name,IMAGES:.spec.containers[*].image,LABELS:.metadata.labels,PORT:.spec.containers[0].ports[0].containerPort,X:.nope',
      'A:{.metadata.name},C:.spec.containers[0].command,D:.metadata.deletionTimestamp',
      'A',
      'A:{{x}}',
      'A:.spec.containers[5]',
      'A:.metadata.name,B:.metadata.name[',
    ]) {
      const args = ['get', 'pods', '-l', 'app=jp', '-o', `custom-columns=${spec}`];
      const want = kubectl(args);
      assert.deepEqual(pl(args), { code: want.status, out: want.stdout, err: want.stderr }, spec);
    }
    // the template from a file, and the JSON form of what it finds, as kubectl reads and prints them
    const tfile = (name: string, text: string) => file(name, text);
    const fileOutputs = [
      `jsonpath-file=${tfile('jp.tmpl', '{range .items[*]}{.metadata.name}{"\\n"}{end}')}`,
      `jsonpath-file=${tfile('jp-bad.tmpl', '{.x')}`,
      `jsonpath-file=${join(tmpdir(), 'podlab-no-such-template')}`,
      'jsonpath-file=',
      'jsonpath-as-json={.items[*].metadata.name}',
      'jsonpath-as-json={.items[0].spec.containers[0]}',
      'jsonpath-as-json=x{.kind}{.nope}',
      'jsonpath-as-json={.items[0].metadata.labels}{.items[*].spec.terminationGracePeriodSeconds}',
      `custom-columns-file=${tfile('cols.tmpl', 'NAME   IMAGE\n.metadata.name  {.spec.containers[0].image}\n')}`,
      `custom-columns-file=${tfile('cols-crlf.tmpl', 'NAME\r\nmetadata.name\r\n')}`,
      `custom-columns-file=${tfile('cols-one-line.tmpl', 'NAME IMAGE')}`,
      `custom-columns-file=${tfile('cols-empty.tmpl', '')}`,
      `custom-columns-file=${tfile('cols-mismatch.tmpl', 'A B\n.x\n')}`,
      `custom-columns-file=${tfile('cols-bad.tmpl', 'A B\n.metadata.name .x[\n')}`,
      `custom-columns-file=${join(tmpdir(), 'podlab-no-such-template')}`,
      'custom-columns-file=',
      'jsonpath-as-json',
    ];
    for (const output of fileOutputs) {
      for (const extra of [[], ['--no-headers']]) {
        const args = ['get', 'pods', '-l', 'app=jp', '-o', output, ...extra];
        const want = kubectl(args);
        // (a usage error exits 2 here, 1 in kubectl: README)
        const usage = /^error: (template format specified but no|custom-columns format specified but no)/.test(want.stderr);
        assert.deepEqual(pl(args), { code: usage ? 2 : want.status, out: want.stdout, err: want.stderr }, args.join(' '));
      }
    }
    for (const args of [
      ['get', 'cm', '-l', 'app=jp', '-o', 'custom-columns=A:.kind'],
      ['get', 'pod', 'nope', '-o', 'custom-columns=A:.kind'],
      ['get', 'pod', 'cli-jp', '-o', 'custom-columns=A:.kind', '--no-headers'],
    ]) {
      const want = kubectl(args);
      assert.deepEqual(pl(args), { code: want.status, out: want.stdout, err: want.stderr }, args.join(' '));
    }
    // --sort-by, with two more pods: labels that are quantities (100m < 9 < 10), names, integers; an
    // unsortable value ends kubectl through klog (compared without klog's time and pid); a table the
    // sorter refuses is left out, as kubectl leaves it
    const more = (name: string, size: string, grace: number) => pod(name, `  terminationGracePeriodSeconds: ${grace}\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n`).replace(`  name: ${name}\n`, `  name: ${name}\n  labels:\n    app: jp\n    size: "${size}"\n`);
    assert.equal(pl(['run', file('story-jp-more.yaml', `${more('cli-jp-b', '9', 1)}---\n${more('cli-jp-a', '100m', 0)}`), '--until', 'Running']).code, 0);
    const klogless = (t: string) => t.replace(/^F\d{4} [\d:.]+ +\d+ /gm, 'F ').replace(/ +\d+[smhd]\d*[smh]?$/gm, '');
    for (const sortBy of ['.metadata.name', '{.metadata.labels.size}', '.spec.terminationGracePeriodSeconds', '.nope', '.metadata.labels', '{{x}', '.metadata.name[']) {
      for (const out of [[], ['-o', 'name'], ['-o', 'custom-columns=N:.metadata.name,S:.metadata.labels.size']]) {
        const args = ['get', 'pods', '-l', 'app=jp', `--sort-by=${sortBy}`, ...out];
        const want = kubectl(args);
        const got = pl(args);
        assert.deepEqual({ ...got, out: klogless(got.out), err: klogless(got.err) }, { code: want.status, out: klogless(want.stdout), err: klogless(want.stderr) }, args.join(' '));
      }
    }
    assert.deepEqual(pl(['get', 'pods', '-l', 'app=jp', '--sort-by=.metadata.labels.size', '-o', 'name']), { code: 0, out: 'pod/cli-jp-a\npod/cli-jp-b\npod/cli-jp\n', err: '' });
    // several tables (types, or NAMEs): kubectl sorts the Table objects themselves (kubernetes/kubernetes#104318)
    for (const args of [
      ['get', 'pods,cm', '-l', 'app=jp', '--sort-by=.metadata.name'],
      ['get', 'pod', 'cli-jp', 'cli-jp-a', '--sort-by=.metadata.name'],
      ['get', 'pod', 'cli-jp-b', 'cli-jp-a', '--sort-by=.kind'],
    ]) {
      const want = kubectl(args);
      const got = pl(args);
      assert.deepEqual({ ...got, out: klogless(got.out) }, { code: want.status, out: klogless(want.stdout), err: want.stderr }, args.join(' '));
    }
    assert.equal(pl(['delete', 'pods', '-l', 'app=jp', '--field-selector', 'metadata.name!=cli-jp']).code, 0);
    // one object named: the template runs over it, not over a List
    assert.deepEqual(pl(['get', 'pod', 'cli-jp', '-o', 'jsonpath={.metadata.labels.app}']), { code: 0, out: 'jp', err: '' });
    assert.deepEqual(pl(['get', 'pods', '-o', 'jsonpath']), { code: 2, out: '', err: 'error: template format specified but no template given\n' });
    assert.equal(pl(['delete', 'cli-jp']).code, 0);
  });

  test('story: delete shows what a terminating pod waits for (a container ignoring SIGTERM, grace period 3 s): one line off a terminal, a line updated in place on one; the final output is unchanged, its lines in argument order as kubectl prints them (a pod gone sooner waits its turn), a missing pod said last', async () => {
    const spec = '  terminationGracePeriodSeconds: 3\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sh", "-c", "trap \'\' TERM; while true; do sleep 1; done"]\n';
    const fast = '  terminationGracePeriodSeconds: 0\n  containers:\n    - name: app\n      image: busybox:1.35\n      command: ["sleep", "3600"]\n';
    const f = file('story-del.yaml', `${pod('cli-del', spec)}---\n${pod('cli-del-tty', spec)}---\n${pod('cli-del-fast', fast)}`);
    const up = pl(['run', f, '--until', 'Running']);
    assert.equal(up.code, 0, up.err);
    const uids = labPodUids(lab);
    assert.equal(uids.length, 3);
    const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
    const [plain, tty] = await Promise.all([
      run(process.execPath, [cli, 'delete', 'cli-del', 'nosuch', 'cli-del-fast']),
      // A terminal for stdout and stderr (merged, with \r\n line ends) from script(1), 200 columns wide.
      run('script', ['-qec', `stty cols 200; ${q(process.execPath)} ${q(cli)} delete cli-del-tty`, '/dev/null']),
    ]);
    assert.deepEqual([plain.code, plain.out], [1, 'pod "cli-del" deleted\npod "cli-del-fast" deleted\n']);
    // (sleep as PID 1 ignores SIGTERM too: the grace period 0 of a graceful deletion is the API server's 1 s)
    assert.match(
      plain.err,
      /^pod "cli-del" deleting: waiting for container "app" to stop \(grace period 3s, [0-3]s left\)\n(pod "cli-del-fast" deleting: waiting for container "app" to stop \(grace period 1s, [01]s left\)\n)?Error from server \(NotFound\): pods "nosuch" not found\n$/,
    );
    assert.ok(plain.ms >= 2500, `deleted after ${plain.ms} ms`);
    assert.equal(tty.code, 0, tty.out);
    const screen = tty.out.replace(/\r\n/g, '\n');
    // The first progress line, then rewrites in place (up one line, erase), then erased before the final line.
    assert.match(screen, /^pod "cli-del-tty" deleting: waiting for container "app" to stop \(grace period 3s, [1-3]s left\)\n/);
    assert.match(screen, /\x1b\[1A\r\x1b\[Jpod "cli-del-tty" deleting: waiting for container "app" to stop \(grace period 3s, [0-2]s left\)\n/);
    assert.match(screen, /\x1b\[1A\r\x1b\[Jpod "cli-del-tty" deleted\n$/);
    assert.deepEqual(podContainers(uids), []);
  });

  test('story: port-forward as kubectl does it: a named port, on 127.0.0.1 and ::1, a line per connection; several ports on --address; a local port in use; an unknown port name; a port the pod refuses ends it with "lost connection to pod"; then get -w follows the pod to its deletion', async () => {
    const f = file(
      'story-pf.yaml',
      pod(
        'cli-pf',
        '  terminationGracePeriodSeconds: 0\n  containers:\n    - name: web\n      image: busybox:1.35\n      command: ["sh", "-c", "echo hi > /tmp/index.html; exec httpd -f -p 8080 -h /tmp"]\n      ports:\n        - name: http\n          containerPort: 8080\n' +
          // a server that answers one connection only: port-forward's own check before it listens must not use it up
          '    - name: once\n      image: busybox:1.35\n      command: ["sh", "-c", "echo once | nc -l -p 9000; sleep 3600"]\n      ports:\n        - name: once\n          containerPort: 9000\n',
      ),
    );
    assert.equal(pl(['run', f, '--until', 'Running']).code, 0);
    // kubectl listens on ::1 beside 127.0.0.1 where the machine has IPv6 loopback (and says nothing when it has not).
    const ipv6 = await new Promise<boolean>((resolve) => {
      const probe = createServer().once('error', () => resolve(false));
      probe.listen({ host: '::1', port: 0, ipv6Only: true }, () => probe.close(() => resolve(true)));
    });
    const forward = (args: string[]) => {
      const child = spawn(process.execPath, [cli, 'port-forward', ...args], { env: storyEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      const o = { out: '', err: '', code: new Promise<number | null>((resolve) => child.on('close', resolve)), child };
      child.stdout.on('data', (d: Buffer) => (o.out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (o.err += d.toString()));
      return o;
    };
    const until = async (what: string, ok: () => boolean) => {
      const end = Date.now() + 20_000;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await sleep(50);
      }
    };
    const listening = (o: { out: string }) => () => o.out.split('\n').filter((l) => l.startsWith('Forwarding from')).length === (ipv6 ? 2 : 1);

    const pf = forward(['pod/cli-pf', ':http']);
    await until('the forwarding lines', listening(pf));
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(pf.out)![1]);
    const get = (host: string) => fetch(`http://${host}:${port}/index.html`).then((r) => r.text());
    assert.deepEqual(await Promise.all([get('127.0.0.1'), ...(ipv6 ? [get('[::1]')] : [])]), ipv6 ? ['hi\n', 'hi\n'] : ['hi\n']);
    await until('a line per connection', () => pf.out.split('\n').filter((l) => l.startsWith('Handling')).length === (ipv6 ? 2 : 1));
    const inUse = (addr: string) => `unable to create listener: Error listen ${addr}:${port}: bind: address already in use`;
    assert.deepEqual(pl(['port-forward', 'cli-pf', `${port}:8080`]), {
      code: 1,
      out: '',
      err: `Unable to listen on port ${port}: Listeners failed to create with the following errors: [${[inUse('tcp4 127.0.0.1'), ...(ipv6 ? [inUse('tcp6 [::1]')] : [])].join(' ')}]\nerror: unable to listen on any of the requested ports: [{${port} 8080}]\n`,
    });
    assert.deepEqual(pl(['port-forward', 'cli-pf', 'nope']), { code: 1, out: '', err: "error: Pod 'cli-pf' does not have a named port 'nope'\n" });
    pf.child.kill('SIGINT');
    assert.deepEqual({ code: await pf.code, out: pf.out, err: pf.err }, {
      code: 0,
      out: [`Forwarding from 127.0.0.1:${port} -> 8080`, ...(ipv6 ? [`Forwarding from [::1]:${port} -> 8080`] : []), `Handling connection for ${port}`, ...(ipv6 ? [`Handling connection for ${port}`] : []), ''].join('\n'),
      err: '',
    });

    // several ports at once (a number and a name for the same container port), on the address asked only
    const two = forward(['--address', '127.0.0.1', 'cli-pf', ':8080', ':http']);
    await until('two forwarding lines', () => two.out.split('\n').filter((l) => l.startsWith('Forwarding from')).length === 2);
    const [p1, p2] = [...two.out.matchAll(/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
    assert.notEqual(p1, p2);
    for (const p of [p1, p2]) assert.equal(await fetch(`http://127.0.0.1:${p}/index.html`).then((r) => r.text()), 'hi\n');
    await until('a line per connection', () => two.out.split('\n').filter((l) => l.startsWith('Handling')).length === 2);
    two.child.kill('SIGINT');
    assert.deepEqual({ code: await two.code, out: two.out, err: two.err }, {
      code: 0,
      out: `Forwarding from 127.0.0.1:${p1} -> 8080\nForwarding from 127.0.0.1:${p2} -> 8080\nHandling connection for ${p1}\nHandling connection for ${p2}\n`,
      err: '',
    });

    const single = forward(['cli-pf', ':once']);
    await until('the forwarding lines', listening(single));
    const sport = Number(/127\.0\.0\.1:(\d+)/.exec(single.out)![1]);
    const answer = await new Promise<string>((resolve) => {
      let got = '';
      const c = connect(sport, '127.0.0.1');
      c.on('data', (d: Buffer) => {
        got += d.toString();
        if (got.includes('\n')) (c.destroy(), resolve(got));
      });
      c.on('close', () => resolve(got));
      c.on('error', () => resolve(got));
    });
    single.child.kill('SIGINT');
    assert.deepEqual([answer, await single.code], ['once\n', 0]);

    // Nothing listens on 9999 in the pod: the first connection's error ends the command, as client-go's forwarder does.
    const refused = forward(['cli-pf', ':9999']);
    await until('the forwarding lines', listening(refused));
    const rport = Number(/127\.0\.0\.1:(\d+)/.exec(refused.out)![1]);
    await new Promise<void>((resolve) => connect(rport, '127.0.0.1').on('close', () => resolve()).on('error', () => undefined));
    assert.equal(await refused.code, 1);
    assert.match(refused.err, new RegExp(`^an error occurred forwarding ${rport} -> 9999: error forwarding port 9999 to pod [0-9a-f]{64}, uid : connect ECONNREFUSED [0-9.]+:9999\\nerror: lost connection to pod\\n$`));

    // get -w as kubectl's: the table now, then a row per change (the deletion's too), until interrupted
    assert.deepEqual(pl(['get', 'pods,cm', '-w']), { code: 2, out: '', err: 'error: you may only specify a single resource type\n' });
    const watching = spawn(process.execPath, [cli, 'get', 'pods', 'cli-pf', '-w'], { env: storyEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let watched = '';
    watching.stdout.on('data', (d: Buffer) => (watched += d.toString()));
    const watchEnd = new Promise<number | null>((resolve) => watching.on('close', resolve));
    await until('the table', () => watched.split('\n').length >= 3);
    assert.equal(pl(['delete', 'cli-pf']).code, 0);
    await until('a row for the deletion', () => watched.split('\n').length >= 4);
    watching.kill('SIGINT');
    assert.equal(await watchEnd, 0);
    const rows = watched.trimEnd().split('\n');
    assert.match(rows[0]!, /^NAME +READY +STATUS +RESTARTS +AGE$/);
    assert.match(rows[1]!, /^cli-pf +2\/2 +Running +0 +\d+s$/);
    // the table now is aligned as a whole
    assert.deepEqual(['READY', 'STATUS', 'RESTARTS', 'AGE'].map((h) => rows[0]!.indexOf(h)), ['2/2', 'Running', ' 0 ', /\d+s$/].map((c) => (typeof c === 'string' ? rows[1]!.indexOf(c) + (c === ' 0 ' ? 1 : 0) : rows[1]!.search(c))));
    assert.ok(rows.slice(2).every((r) => /^cli-pf\s/.test(r)), watched);
  });
});

/** Sandboxes of a lab (only the sandbox carries the lab label). */
function labSandboxes(lab: string): string[] {
  return execFileSync('docker', ['ps', '-aq', '--filter', 'label=io.podlab.managed=true', '--filter', `label=io.podlab.lab=${lab}`], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** The pod uids of a lab's sandboxes. */
function labPodUids(lab: string): string[] {
  const out = execFileSync('docker', ['ps', '-a', '--filter', 'label=io.podlab.managed=true', '--filter', `label=io.podlab.lab=${lab}`, '--format', '{{.Label "io.kubernetes.pod.uid"}}'], { encoding: 'utf8' });
  return [...new Set(out.split('\n').filter(Boolean))];
}

/** Every lab container (sandbox, init, app) of these pods. */
function podContainers(uids: string[]): string[] {
  return uids.flatMap((uid) => execFileSync('docker', ['ps', '-aq', '--filter', 'label=io.podlab.managed=true', '--filter', `label=io.kubernetes.pod.uid=${uid}`], { encoding: 'utf8' }).split('\n').filter(Boolean));
}

function waitOutput(pred: () => boolean, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const tick = () => {
      if (pred()) return resolve();
      if (Date.now() - start > ms) return reject(new Error('timed out waiting for output'));
      setTimeout(tick, 100);
    };
    tick();
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : null)));
  });
}

void sleep;
