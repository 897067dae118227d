// The kubelet's single-node behaviour on the real Docker: lifecycle hooks, termination order,
// activeDeadlineSeconds, OOMKilled, termination messages, sandbox retries.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync, readFileSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import type { Engine } from '../../src/engine/engine.js';
import { eventsOf, podManifest, sh, sleep, useLab, waitFor } from './engine-helpers.js';

let engine: Engine;
// (a resync every 3 s instead of the kubelet's minute: a mounted ConfigMap's change shows within a relist or two)
useLab((e) => (engine = e), { backoffInitialMs: 1000, backoffMaxMs: 4000, resyncIntervalMs: 3000, relistIntervalMs: 2000 });

const cs = (p: Pod | undefined, name: string): ContainerStatus | undefined =>
  [...(p?.status?.initContainerStatuses ?? []), ...(p?.status?.containerStatuses ?? [])].find((c) => c.name === name);
const ready = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const reasonsOf = (name: string) => eventsOf(engine, name).map((e) => `${e.reason}${e.involvedObject.fieldPath ? ` ${e.involvedObject.fieldPath}` : ''}`);

describe('lifecycle hooks', () => {
  test('postStart runs before the next container starts', async () => {
    await engine.createPod(
      podManifest('poststart-order', {
        volumes: [{ name: 'shared', emptyDir: {} }],
        containers: [
          sh('a', 'sleep 3600', {
            volumeMounts: [{ name: 'shared', mountPath: '/shared' }],
            lifecycle: { postStart: { exec: { command: ['sh', '-c', 'sleep 2; echo done > /shared/hook'] } } },
          }),
          sh('b', 'cat /shared/hook > /shared/seen-by-b 2>&1 || echo missing > /shared/seen-by-b; sleep 3600', { volumeMounts: [{ name: 'shared', mountPath: '/shared' }] }),
        ],
      }),
    );
    await waitFor(engine, 'poststart-order', ready, 30_000, 'Ready');
    const seen = await engine.exec('default', 'poststart-order', 'b', ['cat', '/shared/seen-by-b']);
    assert.equal(seen.stdout, 'done\n');
  });

  test('a failing postStart kills the container: FailedPostStartHook, Killing, PostStartHookError', async () => {
    await engine.createPod(
      podManifest('poststart-fail', {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 2,
        containers: [sh('app', 'sleep 3600', { lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo oops; exit 3'] } } } })],
      }),
    );
    const p = await waitFor(engine, 'poststart-fail', (x) => x.status?.phase === 'Failed', 30_000, 'Failed');
    assert.deepEqual(
      reasonsOf('poststart-fail').filter((r) => /Hook|Killing/.test(r)),
      ['FailedPostStartHook spec.containers{app}', 'Killing spec.containers{app}'],
    );
    const killing = eventsOf(engine, 'poststart-fail').find((e) => e.reason === 'Killing');
    assert.equal(killing?.message, 'FailedPostStartHook');
    assert.equal(cs(p, 'app')?.state?.terminated?.reason, 'Error');
  });

  test('preStop runs at deletion before the container is stopped (it writes to a hostPath)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podlab-prestop-'));
    chmodSync(dir, 0o777);
    try {
      await engine.createPod(
        podManifest('prestop', {
          volumes: [{ name: 'out', hostPath: { path: dir } }],
          containers: [
            sh('app', 'trap "exit 0" TERM; while true; do sleep 0.2; done', {
              volumeMounts: [{ name: 'out', mountPath: '/out' }],
              lifecycle: { preStop: { exec: { command: ['sh', '-c', 'echo prestop-ran > /out/marker'] } } },
            }),
          ],
        }),
      );
      await waitFor(engine, 'prestop', ready, 30_000, 'Ready');
      await engine.deletePod('default', 'prestop', 10);
      assert.equal(readFileSync(join(dir, 'marker'), 'utf8'), 'prestop-ran\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('termination', () => {
  test('sidecars start before the app and stop after it, in reverse order', async () => {
    const trapped = 'trap "sleep 1; exit 0" TERM; while true; do sleep 0.2; done';
    await engine.createPod(
      podManifest('sidecar-order', {
        initContainers: [sh('s1', trapped, { restartPolicy: 'Always' }), sh('s2', trapped, { restartPolicy: 'Always' })],
        containers: [sh('app', trapped)],
      }),
    );
    await waitFor(engine, 'sidecar-order', ready, 30_000, 'Ready');
    const started = reasonsOf('sidecar-order').filter((r) => r.startsWith('Started'));
    assert.deepEqual(started, ['Started spec.initContainers{s1}', 'Started spec.initContainers{s2}', 'Started spec.containers{app}']);
    const order: string[] = [];
    const sub = engine.watch((e) => {
      if (e.kind !== 'Pod' || e.object.metadata?.name !== 'sidecar-order') return;
      for (const n of ['app', 's2', 's1']) if (cs(e.object, n)?.state?.terminated && !order.includes(n)) order.push(n);
    });
    await engine.deletePod('default', 'sidecar-order', 20);
    sub.dispose();
    assert.deepEqual(order, ['app', 's2', 's1']);
  });

  test('activeDeadlineSeconds fails a running pod with DeadlineExceeded', async () => {
    await engine.createPod(podManifest('deadline', { activeDeadlineSeconds: 3, terminationGracePeriodSeconds: 2, containers: [sh('app', 'sleep 3600')] }));
    const p = await waitFor(engine, 'deadline', (x) => x.status?.phase === 'Failed' && !!cs(x, 'app')?.state?.terminated, 30_000, 'Failed');
    assert.deepEqual(
      { reason: p.status?.reason, message: p.status?.message },
      { reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' },
    );
    assert.ok(reasonsOf('deadline').includes('DeadlineExceeded'));
  });

  test('a container over its memory limit is OOMKilled with exit 137 and, under restartPolicy Never, fails the pod', async () => {
    await engine.createPod(
      podManifest('oom', {
        restartPolicy: 'Never',
        containers: [sh('hog', 'a=$(dd if=/dev/zero bs=1M count=256 2>/dev/null | tr "\\\\0" x); echo ${#a}', { resources: { limits: { memory: '32Mi' } } })],
      }),
    );
    const p = await waitFor(engine, 'oom', (x) => !!cs(x, 'hog')?.state?.terminated, 60_000, 'terminated');
    assert.deepEqual({ reason: cs(p, 'hog')?.state?.terminated?.reason, exitCode: cs(p, 'hog')?.state?.terminated?.exitCode, phase: p.status?.phase }, { reason: 'OOMKilled', exitCode: 137, phase: 'Failed' });
  });
});

describe('probes', () => {
  test('a readiness probe (httpGet) gates Ready until the server answers 200', async () => {
    await engine.createPod(
      podManifest('readiness', {
        containers: [
          sh('web', 'mkdir -p /www; (sleep 4; echo ok > /www/index.html) & exec httpd -f -p 8080 -h /www', {
            ports: [{ name: 'http', containerPort: 8080 }],
            readinessProbe: { httpGet: { path: '/index.html', port: 'http' }, periodSeconds: 1 },
          }),
        ],
      }),
    );
    const running = await waitFor(engine, 'readiness', (x) => cs(x, 'web')?.state?.running !== undefined, 30_000, 'running');
    assert.equal(ready(running), false);
    const p = await waitFor(engine, 'readiness', ready, 30_000, 'Ready');
    assert.equal(cs(p, 'web')?.ready, true);
    const unhealthy = eventsOf(engine, 'readiness').filter((e) => e.reason === 'Unhealthy').map((e) => e.message);
    assert.ok(unhealthy.length >= 1 && unhealthy.every((m) => m === 'Readiness probe failed: HTTP probe failed with statuscode: 404'), unhealthy.join(' | '));
  });

  test('a failing liveness probe restarts the container: Unhealthy, Killing, restartCount 1', async () => {
    await engine.createPod(
      podManifest('liveness', {
        terminationGracePeriodSeconds: 2,
        containers: [sh('app', 'touch /tmp/healthy; sleep 2; rm /tmp/healthy; sleep 3600', { livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 1, failureThreshold: 2 } })],
      }),
    );
    const p = await waitFor(engine, 'liveness', (x) => (cs(x, 'app')?.restartCount ?? 0) >= 1, 45_000, 'a restart');
    assert.ok(cs(p, 'app')?.lastState?.terminated, 'lastState is the killed instance');
    const evs = eventsOf(engine, 'liveness');
    assert.equal(evs.find((e) => e.reason === 'Unhealthy')?.message, "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n");
    assert.equal(evs.find((e) => e.reason === 'Killing')?.message, 'Container app failed liveness probe, will be restarted');
  });

  test('a startup probe holds started=false and readiness until it succeeds', async () => {
    await engine.createPod(
      podManifest('startup', {
        containers: [sh('app', 'sleep 3; touch /tmp/started; sleep 3600', { startupProbe: { exec: { command: ['cat', '/tmp/started'] }, periodSeconds: 1, failureThreshold: 30 } })],
      }),
    );
    const running = await waitFor(engine, 'startup', (x) => cs(x, 'app')?.state?.running !== undefined, 30_000, 'running');
    assert.deepEqual({ started: cs(running, 'app')?.started, ready: cs(running, 'app')?.ready }, { started: false, ready: false });
    const p = await waitFor(engine, 'startup', ready, 30_000, 'Ready');
    assert.deepEqual({ started: cs(p, 'app')?.started, ready: cs(p, 'app')?.ready, restarts: cs(p, 'app')?.restartCount }, { started: true, ready: true, restarts: 0 });
  });
});

describe('ConfigMaps, Secrets and the downward API', () => {
  const b64 = (x: string) => Buffer.from(x).toString('base64');

  test('env from a ConfigMap and a Secret, and their volumes with the atomic-writer layout, read-only', async () => {
    await engine.applyObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-a' }, data: { greeting: 'hello', 'index.html': '<h1>hi</h1>\n' } });
    await engine.applyObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sec-a' }, data: { password: b64('s3cret') } });
    await engine.createPod(
      podManifest('cm-pod', {
        volumes: [{ name: 'cfg', configMap: { name: 'cm-a' } }, { name: 'sec', secret: { secretName: 'sec-a', defaultMode: 0o400 } }],
        containers: [
          sh('app', 'sleep 3600', {
            env: [
              { name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'cm-a', key: 'greeting' } } },
              { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'sec-a', key: 'password' } } },
              { name: 'MSG', value: '$(GREETING) world' },
            ],
            volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }, { name: 'sec', mountPath: '/sec' }],
          }),
        ],
      }),
    );
    await waitFor(engine, 'cm-pod', ready, 30_000, 'Ready');
    const x = (cmd: string) => engine.exec('default', 'cm-pod', 'app', ['sh', '-c', cmd]).then((r) => r.stdout);
    assert.equal(await x('echo "$GREETING|$PASSWORD|$MSG"'), 'hello|s3cret|hello world\n');
    assert.equal(await x('cat /cfg/index.html /sec/password'), '<h1>hi</h1>\ns3cret');
    assert.equal(await x('ls /cfg | sort | tr "\\n" " "'), 'greeting index.html ');
    assert.match(await x('ls -la /cfg'), /\.\.data -> \.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.\d+/);
    assert.equal(await x('stat -L -c %a /sec/password'), '400\n');
    assert.match(await x('touch /cfg/new 2>&1; echo rc=$?'), /Read-only file system[\s\S]*rc=1/);
  });

  test('an updated ConfigMap reaches the mounted file without a restart, at a resync', async () => {
    await engine.applyObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-b' }, data: { v: 'one' } });
    await engine.createPod(podManifest('cm-update', { volumes: [{ name: 'cfg', configMap: { name: 'cm-b' } }], containers: [sh('app', 'sleep 3600', { volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }] })] }));
    await waitFor(engine, 'cm-update', ready, 30_000, 'Ready');
    await engine.applyObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-b' }, data: { v: 'two' } });
    let got = '';
    for (let i = 0; i < 75 && got !== 'two'; i++) {
      got = (await engine.exec('default', 'cm-update', 'app', ['cat', '/cfg/v'])).stdout;
      if (got !== 'two') await sleep(200);
    }
    assert.equal(got, 'two');
    assert.equal(cs(engine.getPod('default', 'cm-update'), 'app')?.restartCount, 0);
  });

  test('a missing ConfigMap in env gives CreateContainerConfigError; once it is created the container starts', async () => {
    await engine.createPod(podManifest('cm-missing-env', { containers: [sh('app', 'sleep 3600', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cm-late', key: 'x' } } }] })] }));
    const p = await waitFor(engine, 'cm-missing-env', (x) => cs(x, 'app')?.state?.waiting?.reason === 'CreateContainerConfigError', 30_000, 'CreateContainerConfigError');
    assert.deepEqual(cs(p, 'app')?.state?.waiting, { reason: 'CreateContainerConfigError', message: 'configmap "cm-late" not found' });
    assert.ok(eventsOf(engine, 'cm-missing-env').some((e) => e.reason === 'Failed' && e.message === 'Error: configmap "cm-late" not found'));
    await engine.applyObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-late' }, data: { x: 'now' } });
    await waitFor(engine, 'cm-missing-env', ready, 30_000, 'Ready');
    assert.equal((await engine.exec('default', 'cm-missing-env', 'app', ['sh', '-c', 'echo $X'])).stdout, 'now\n');
  });

  test('a missing ConfigMap volume keeps the pod ContainerCreating with FailedMount; once created the pod runs', async () => {
    await engine.createPod(podManifest('cm-missing-vol', { volumes: [{ name: 'cfg', configMap: { name: 'cm-vol-late' } }], containers: [sh('app', 'sleep 3600', { volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }] })] }));
    await sleep(2000);
    const p = engine.getPod('default', 'cm-missing-vol');
    assert.deepEqual({ phase: p?.status?.phase, app: cs(p, 'app')?.state?.waiting?.reason, ip: p?.status?.podIP }, { phase: 'Pending', app: 'ContainerCreating', ip: undefined });
    const failed = eventsOf(engine, 'cm-missing-vol').filter((e) => e.reason === 'FailedMount');
    assert.deepEqual(failed.map((e) => [e.type, e.message, e.involvedObject.fieldPath]), [['Warning', 'MountVolume.SetUp failed for volume "cfg" : configmap "cm-vol-late" not found', undefined]]);
    await engine.applyObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-vol-late' }, data: { k: 'v' } });
    await waitFor(engine, 'cm-missing-vol', ready, 30_000, 'Ready');
  });

  test('downward API env and volume', async () => {
    const dpod = podManifest('downward', {
        volumes: [{ name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }, { path: 'name', fieldRef: { fieldPath: 'metadata.name' } }] } }],
        containers: [sh('app', 'sleep 3600', { env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }], volumeMounts: [{ name: 'info', mountPath: '/info' }] })],
      });
    await engine.createPod({ ...dpod, metadata: { ...dpod.metadata, labels: { tier: 'db', app: 'web' } } });
    await waitFor(engine, 'downward', ready, 30_000, 'Ready');
    const p = engine.getPod('default', 'downward');
    const x = (cmd: string) => engine.exec('default', 'downward', 'app', ['sh', '-c', cmd]).then((r) => r.stdout);
    assert.equal(await x('echo $POD_IP'), `${p?.status?.podIP}\n`);
    assert.equal(await x('cat /info/name; echo; cat /info/labels'), 'downward\napp="web"\ntier="db"');
  });

  test('the kubelet-managed /etc/hosts names the pod', async () => {
    await engine.createPod(podManifest('hosts', { hostAliases: [{ ip: '10.9.9.9', hostnames: ['alias.local'] }], containers: [sh('app', 'sleep 3600')] }));
    const p = await waitFor(engine, 'hosts', ready, 30_000, 'Ready');
    const got = (await engine.exec('default', 'hosts', 'app', ['cat', '/etc/hosts'])).stdout;
    assert.equal(got.split('\n')[0], '# Kubernetes-managed hosts file.');
    assert.ok(got.includes(`${p.status?.podIP}\thosts\n`), got);
    assert.ok(got.endsWith('# Entries added by HostAliases.\n10.9.9.9\talias.local\n'), got);
  });
});

describe('termination messages', () => {
  test('the file at terminationMessagePath becomes the terminated message', async () => {
    await engine.createPod(podManifest('msg-file', { restartPolicy: 'Never', containers: [sh('app', 'printf "bye from app" > /dev/termination-log; exit 1')] }));
    const p = await waitFor(engine, 'msg-file', (x) => x.status?.phase === 'Failed', 30_000, 'Failed');
    assert.equal(cs(p, 'app')?.state?.terminated?.message, 'bye from app');
  });

  test('FallbackToLogsOnError uses the log tail when the file is empty and the exit failed', async () => {
    await engine.createPod(podManifest('msg-logs', { restartPolicy: 'Never', containers: [sh('app', 'echo line1; echo boom; exit 2', { terminationMessagePolicy: 'FallbackToLogsOnError' })] }));
    const p = await waitFor(engine, 'msg-logs', (x) => x.status?.phase === 'Failed', 30_000, 'Failed');
    assert.equal(cs(p, 'app')?.state?.terminated?.message, 'line1\nboom\n');
  });
});

describe('sandbox', () => {
  test('a sandbox whose hostPort is taken is retried at the back-off, not in a tight loop, and failed sandboxes are collected', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const created = await engine.createPod(podManifest('port-taken', { containers: [sh('app', 'sleep 3600', { ports: [{ containerPort: 80, hostPort: port }] })] }));
      await sleep(6000);
      const failed = eventsOf(engine, 'port-taken').filter((e) => e.reason === 'FailedCreatePodSandBox');
      assert.equal(failed.length, 1);
      assert.ok((failed[0]?.count ?? 0) <= 2, `FailedCreatePodSandBox count ${failed[0]?.count}`);
      const pauses = execFileSync('docker', ['ps', '-aq', '--filter', `label=io.kubernetes.pod.uid=${created.metadata?.uid}`], { encoding: 'utf8' }).split('\n').filter(Boolean);
      assert.ok(pauses.length <= 1, `${pauses.length} sandbox containers left`);
      assert.equal(cs(engine.getPod('default', 'port-taken'), 'app')?.state?.waiting?.reason, 'ContainerCreating');
    } finally {
      server.close();
    }
  });

  test("a pod reaches another pod's hostPort at its status.hostIP: the node's InternalIP, the Docker host on the pods' network", async () => {
    // a free port on the host, given up for the server pod's hostPort (the client asks with nc:
    // busybox-static's wget crashes in a container)
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '0.0.0.0', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    await engine.createPod(
      podManifest('host-port-server', { containers: [sh('web', 'mkdir -p /www && echo served-by-host-port > /www/index.html && httpd -f -p 80 -h /www', { ports: [{ containerPort: 80, hostPort: port }] })] }),
    );
    await waitFor(engine, 'host-port-server', ready, 30_000, 'Ready');
    await engine.createPod(
      podManifest('host-port-client', {
        restartPolicy: 'Never',
        containers: [sh('get', `echo "$HOST_IP"; printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 5 "$HOST_IP" ${port} | tail -n 1`, { env: [{ name: 'HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } }] })],
      }),
    );
    const done = await waitFor(engine, 'host-port-client', (p) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed', 30_000, 'ended');
    const gateway = execFileSync('docker', ['network', 'inspect', 'bridge', '--format', '{{range .IPAM.Config}}{{.Gateway}} {{end}}'], { encoding: 'utf8' }).trim().split(' ')[0];
    const node = engine.listNodes()[0];
    const logs = await engine.logs('default', 'host-port-client', 'get');
    assert.deepEqual(
      { phase: done.status?.phase, hostIP: done.status?.hostIP, nodeIP: node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address, logs: [...logs] },
      { phase: 'Succeeded', hostIP: gateway, nodeIP: gateway, logs: [gateway, 'served-by-host-port'] },
    );
  });
});

