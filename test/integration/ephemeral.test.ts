// Ephemeral containers end to end: the real kubectl (the oldest and the newest minor version on this
// machine) runs `kubectl debug` against a lab server started in this process on the real Docker.
// The debug container joins the target's PID namespace (PID 1 is the app's process), is reported
// in ephemeralContainerStatuses, logs through `kubectl logs -c`, and `kubectl debug -it` attaches
// to its shell through a pseudo-terminal.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { connectDocker } from '../../src/runtime/docker/docker-runtime.js';
import { startLabServer, type RunningServer } from '../../src/server/serve.js';
import { removeLabContainers } from './engine-helpers.js';
import { runProcess, type CommandRun } from '../support/lab-process.js';

const KUBECTL_DIR = '/usr/lib/google-cloud-sdk/bin';
const VERSIONS = ['1.27', '1.33'].filter((v) => existsSync(join(KUBECTL_DIR, `kubectl.${v}`)));
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));
const TARGETING = `Targeting container "app". If you don't see processes from this container it may be because the container runtime doesn't support this feature.\n`;

type Run = CommandRun;

/** Runs kubectl asynchronously (the server lives in this process: a blocking spawn would starve it). */
function kubectl(version: string, kubeconfig: string, args: string[], input = '', timeoutMs = 60_000): Promise<Run> {
  return runProcess(join(KUBECTL_DIR, `kubectl.${version}`), args, { ...process.env, KUBECONFIG: kubeconfig, HOME: join(kubeconfig, '..', 'home') }, input, timeoutMs);
}

/**
 * Runs kubectl in a pseudo-terminal (util-linux `script`), as a user at a terminal: each step
 * waits until the screen shows `until`, then types `send`. Resolves with everything shown.
 */
function kubectlInTerminal(version: string, kubeconfig: string, args: string[], steps: { until: string; send: string }[], timeoutMs = 90_000): Promise<Run> {
  const cmd = [join(KUBECTL_DIR, `kubectl.${version}`), ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn(SCRIPT!, ['-qfec', cmd, '/dev/null'], { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: join(kubeconfig, '..', 'home'), TERM: 'dumb' } });
    let out = '';
    let step = 0;
    const advance = () => {
      while (step < steps.length && out.includes(steps[step]!.until)) {
        child.stdin.write(steps[step]!.send);
        step++;
      }
    };
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      advance();
    });
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err: '' });
    });
  });
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A status with its run-specific values (IDs, times) replaced by placeholders. */
function stable(s: ContainerStatus | undefined): unknown {
  const state = structuredClone(s?.state ?? {}) as Record<string, Record<string, unknown>>;
  for (const v of Object.values(state)) {
    for (const k of ['startedAt', 'finishedAt']) if (typeof v[k] === 'string') v[k] = '<time>';
    if (typeof v.containerID === 'string') v.containerID = v.containerID.replace(/^docker:\/\/[0-9a-f]{64}$/, 'docker://<id>');
  }
  return { ...s, state, containerID: s?.containerID?.replace(/^docker:\/\/[0-9a-f]{64}$/, 'docker://<id>'), imageID: s?.imageID?.replace(/sha256:[0-9a-f]{64}$/, 'sha256:<digest>') };
}

const POD = (name: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  terminationGracePeriodSeconds: 1
  containers:
    - name: app
      image: busybox:1.35
      command: ["sleep", "3600"]
`;

describe('kubectl debug: ephemeral containers on the lab', { timeout: 10 * 60 * 1000 }, () => {
  let stateDir: string;
  let running: RunningServer;
  let kubeconfig: string;

  before(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'podlab-ephemeral-'));
    running = await startLabServer({ stateDir, settings: { relistIntervalMs: 2000 }, runtime: await connectDocker({}), version: 'test', log: () => undefined });
    kubeconfig = running.endpoint.kubeconfig;
  });

  after(async () => {
    await running?.stop();
    removeLabContainers(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  });

  test('kubectl 1.27 and 1.33 are on this machine', () => assert.deepEqual(VERSIONS, ['1.27', '1.33']));

  for (const version of VERSIONS) {
    describe(`kubectl ${version}`, () => {
      const name = `eph-${version.replace('.', '-')}`;
      const k = (args: string[], input?: string, t?: number) => kubectl(version, kubeconfig, args, input, t);
      const get = async () => JSON.parse((await k(['get', 'pod', name, '-o', 'json'])).out) as Pod;

      test('a running pod to debug', async () => {
        const a = await k(['apply', '-f', '-'], POD(name));
        assert.deepEqual(a, { code: 0, out: `pod/${name} created\n`, err: '' });
        const w = await k(['wait', '--for=condition=Ready', `pod/${name}`, '--timeout=60s'], undefined, 90_000);
        assert.equal(w.code, 0, w.err);
      });

      test("kubectl debug --target=app: the debug container sees the app's processes, reports Completed, logs through kubectl logs -c", async () => {
        const d = await k(['debug', name, '--image=busybox:1.35', '-c', 'dbg', '--target=app', '--', 'sh', '-c', 'ps; echo done']);
        // 1.33 also warns that the default profile (legacy) is deprecated.
        const deprecated = version === '1.33' ? '--profile=legacy is deprecated and will be removed in the future. It is recommended to explicitly specify a profile, for example "--profile=general".\n' : '';
        assert.deepEqual(d, { code: 0, out: TARGETING, err: deprecated });

        const pod = await waitFor('dbg to terminate', async () => {
          const p = await get();
          return p.status?.ephemeralContainerStatuses?.[0]?.state?.terminated ? p : undefined;
        });
        assert.deepEqual(pod.spec?.ephemeralContainers, [
          { name: 'dbg', image: 'busybox:1.35', command: ['sh', '-c', 'ps; echo done'], resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent', targetContainerName: 'app' },
        ]);
        assert.deepEqual(
          pod.status?.ephemeralContainerStatuses?.map(stable),
          [
            {
              name: 'dbg',
              state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: '<time>', finishedAt: '<time>', containerID: 'docker://<id>' } },
              lastState: {},
              ready: false,
              restartCount: 0,
              image: 'busybox:1.35',
              imageID: pod.status?.containerStatuses?.[0]?.imageID,
              containerID: 'docker://<id>',
              // (a status from a runtime instance carries the allocated resources: none here)
              resources: {},
            },
          ].map((s) => ({ ...s, imageID: s.imageID?.replace(/sha256:[0-9a-f]{64}$/, 'sha256:<digest>') })),
        );
        // The pod itself is untouched: Running, 1/1.
        assert.deepEqual([pod.status?.phase, pod.status?.conditions?.find((c) => c.type === 'Ready')?.status], ['Running', 'True']);

        const l = await k(['logs', name, '-c', 'dbg']);
        assert.equal(l.code, 0, l.err);
        const lines = l.out.trimEnd().split('\n');
        // PID 1 of the shared PID namespace is the target's main process.
        assert.deepEqual(lines.slice(0, 2), ['PID   USER     COMMAND', '    1 root     sleep 3600']);
        assert.deepEqual(
          lines.slice(2).map((x) => x.replace(/^\s*\d+ /, '<pid> ')),
          ['<pid> root     sh -c ps; echo done', '<pid> root     {ps} sh -c ps; echo done', 'done'],
        );

        const ev = JSON.parse((await k(['get', 'events', '--field-selector', `involvedObject.name=${name}`, '-o', 'json'])).out) as { items: { involvedObject: { fieldPath?: string }; reason: string; message: string }[] };
        assert.deepEqual(
          ev.items.filter((e) => e.involvedObject.fieldPath === 'spec.ephemeralContainers{dbg}').map((e) => `${e.reason}: ${e.message}`),
          ['Pulled: Container image "busybox:1.35" already present on machine', 'Created: Created container: dbg', 'Started: Started container dbg'],
        );
      });

      test('ephemeral containers can only be added: debug with a used name changes nothing, a PUT removing one is refused', async () => {
        const before = (await get()).spec?.ephemeralContainers;
        // kubectl's two-way patch for a name already there restores the existing container: no change, as on a cluster.
        const again = await k(['debug', name, '--image=busybox:1.36', '-c', 'dbg', '--', 'true']);
        assert.equal(again.code, 0, again.err);
        assert.deepEqual((await get()).spec?.ephemeralContainers, before);
        const pod = await get();
        const removed = { ...pod, spec: { ...pod.spec, ephemeralContainers: [] } };
        const r = await k(['replace', '--raw', `/api/v1/namespaces/default/pods/${name}/ephemeralcontainers`, '-f', '-'], JSON.stringify(removed));
        assert.deepEqual(r, { code: 1, out: '', err: `The Pod "${name}" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be removed\n\n` });
      });

      test('kubectl debug -it attaches to the shell of a new debugger-xxxxx container', { skip: !SCRIPT && 'util-linux script is not installed' }, async () => {
        const r = await kubectlInTerminal(version, kubeconfig, ['debug', '-it', name, '--image=busybox:1.35', '--target=app', '--', 'sh'], [
          { until: "If you don't see a command prompt, try pressing enter.", send: 'echo marker-$((6*7))\r' },
          { until: 'marker-42', send: 'exit\r' },
        ]);
        assert.equal(r.code, 0, r.out);
        const created = /Defaulting debug container name to (debugger-[a-z0-9]{5})\./.exec(r.out);
        assert.ok(created, r.out);
        const dbg = created[1]!;
        assert.match(r.out, /\nmarker-42\r?\n/);
        assert.ok(r.out.includes(`Session ended, the ephemeral container will not be restarted but may be reattached using 'kubectl attach ${name} -c ${dbg} -i -t' if it is still running`), r.out);
        const pod = await waitFor(`${dbg} to terminate`, async () => {
          const p = await get();
          return p.status?.ephemeralContainerStatuses?.find((s) => s.name === dbg)?.state?.terminated ? p : undefined;
        });
        assert.deepEqual(
          pod.spec?.ephemeralContainers?.find((c) => c.name === dbg),
          { name: dbg, image: 'busybox:1.35', command: ['sh'], resources: {}, stdin: true, tty: true, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent', targetContainerName: 'app' },
        );
        assert.deepEqual(pod.status?.ephemeralContainerStatuses?.find((s) => s.name === dbg)?.state?.terminated?.exitCode, 0);
      });

      test('deleting the pod stops its ephemeral containers with it', async () => {
        const d = await k(['delete', 'pod', name], undefined, 90_000);
        assert.deepEqual(d, { code: 0, out: `pod "${name}" deleted\n`, err: '' });
      });
    });
  }
});
