// DockerRuntime against the real Docker (run `bash scripts/ensure-docker.sh && bash
// scripts/build-images.sh` first). Every container carries io.podlab.managed=true and this
// run's test label, and is removed in the after hooks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuntimeError, type PodSandboxConfig, type RuntimeEvent } from '../../src/runtime/cri.js';
import { connectDocker, DockerRuntime } from '../../src/runtime/docker/docker-runtime.js';
import type Dockerode from 'dockerode';
import { PodUIDLabel } from '../../src/shared/labels.js';
import {
  BusyboxImage,
  SandboxImage,
  TestRunLabel,
  busyboxContainer,
  podSandboxConfig,
  randomHostPort,
  removeTestContainers,
  testRunId,
  waitFor,
} from './docker-helpers.js';

let rt: DockerRuntime;

before(async () => {
  rt = await connectDocker();
});

after(async () => {
  await removeTestContainers(rt.docker);
  const left = await rt.docker.listContainers({ all: true, filters: { label: [`${TestRunLabel}=${testRunId}`] } });
  rt.close();
  assert.equal(left.length, 0, 'no container of this run is left');
});

/** Runs a sandbox and returns its id with its config. */
async function sandbox(name: string, over: Partial<PodSandboxConfig> = {}): Promise<{ id: string; config: PodSandboxConfig }> {
  const config = podSandboxConfig(name, over);
  const id = await rt.runPodSandbox(config, SandboxImage);
  return { id, config };
}

async function runContainer(sb: { id: string; config: PodSandboxConfig }, ...args: Parameters<typeof busyboxContainer>): Promise<string> {
  const id = await rt.createContainer(sb.id, busyboxContainer(...args), sb.config);
  await rt.startContainer(id);
  return id;
}

async function exitedStatus(id: string) {
  return waitFor(`container ${id} to exit`, async () => {
    const s = await rt.containerStatus(id);
    return s && s.state === 'CONTAINER_EXITED' ? s : undefined;
  });
}

/**
 * The runtime's events from now on (the stream connected), and a wait for one: an inspection read
 * while an event of its container is still on its way is not kept, so a test of what is kept
 * waits for the events its own actions caused.
 */
async function eventsHeard(): Promise<{ heard: (id: string, action: RuntimeEvent['action'], times?: number) => Promise<void>; dispose: () => void }> {
  const seen: RuntimeEvent[] = [];
  const waiting = new Set<() => void>();
  const sub = rt.onEvent((e) => {
    seen.push(e);
    for (const w of [...waiting]) w();
  });
  await rt.whenEventsConnected();
  return {
    heard: (id, action, times = 1) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (seen.filter((e) => e.id === id && e.action === action).length < times) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      }),
    dispose: () => sub.dispose(),
  };
}

/**
 * Records the ids the runtime inspects until `restore()`; `getContainer` reaches Docker without
 * being recorded. `meanwhile(id)` runs once Docker has answered an inspection, before the runtime
 * has the answer.
 */
function countInspections(meanwhile?: (id: string) => Promise<void>): { inspected: string[]; getContainer: (id: string) => Dockerode.Container; restore: () => void } {
  const inspected: string[] = [];
  const docker = rt.docker;
  const getContainer = docker.getContainer.bind(docker);
  docker.getContainer = (cid: string) => {
    const c = getContainer(cid);
    const inspect = c.inspect.bind(c);
    c.inspect = (async (...a: unknown[]) => {
      inspected.push(cid);
      const answer = await (inspect as (...b: unknown[]) => Promise<unknown>)(...a);
      await meanwhile?.(cid);
      return answer;
    }) as typeof c.inspect;
    return c;
  };
  return { inspected, getContainer, restore: () => void (docker.getContainer = getContainer) };
}

describe('a pod of two containers sharing the sandbox', () => {
  let sb: { id: string; config: PodSandboxConfig };
  let server: string;
  let client: string;
  const hostPort = randomHostPort();

  before(async () => {
    sb = await sandbox('shared', { portMappings: [{ protocol: 'TCP', containerPort: 8080, hostPort }] });
    server = await runContainer(sb, 'server', [
      'sh',
      '-c',
      'mkdir -p /www && echo hello-from-server > /www/index.html && echo ipc-token > /dev/shm/token && exec httpd -f -p 8080 -h /www',
    ]);
    client = await runContainer(sb, 'client', ['sleep', '3600']);
  });

  test('the client reaches the server on 127.0.0.1 because they share the network namespace', async () => {
    const out = await waitFor('the server to answer', async () => {
      const r = await rt.execSync(client, ['wget', '-qO-', 'http://127.0.0.1:8080/'], 10);
      return r.exitCode === 0 ? r.stdout : undefined;
    });
    assert.equal(out.trim(), 'hello-from-server');
  });

  test('a file in /dev/shm written by one container is seen by the other (shared IPC)', async () => {
    const r = await waitFor('the token in /dev/shm', async () => {
      const x = await rt.execSync(client, ['cat', '/dev/shm/token'], 10);
      return x.exitCode === 0 ? x : undefined;
    });
    assert.equal(r.stdout.trim(), 'ipc-token');
  });

  test('without shareProcessNamespace each container is PID 1 of its own namespace', async () => {
    const r = await rt.execSync(client, ['cat', '/proc/1/cmdline'], 10);
    assert.equal(r.stdout.split('\0')[0], 'sleep');
  });

  test('the hostPort is bound on the host and reaches the server', async () => {
    const info = await rt.docker.getContainer(sb.id).inspect();
    assert.deepEqual(info.HostConfig.PortBindings, { '8080/tcp': [{ HostIp: '', HostPort: String(hostPort) }] });
    const body = await waitFor('the host port to answer', () =>
      new Promise<string | undefined>((resolve) => {
        http
          .get({ host: '127.0.0.1', port: hostPort, path: '/', timeout: 2000 }, (res) => {
            let data = '';
            res.on('data', (c) => (data += c));
            res.on('end', () => resolve(res.statusCode === 200 ? data : undefined));
          })
          .on('error', () => resolve(undefined))
          .on('timeout', function (this: http.ClientRequest) {
            this.destroy();
          });
      }),
    );
    assert.equal(body.trim(), 'hello-from-server');
  });

  test('the sandbox is ready with a pod IP and the IPC namespace is shareable', async () => {
    const s = await rt.podSandboxStatus(sb.id);
    assert.equal(s?.state, 'SANDBOX_READY');
    assert.match(s?.ip ?? '', /^\d+\.\d+\.\d+\.\d+$/);
    const info = await rt.docker.getContainer(sb.id).inspect();
    assert.equal(info.HostConfig.IpcMode, 'shareable');
    assert.equal(info.Name, `/k8s_POD_shared_default_${sb.config.metadata.uid}_0`);
  });

  test('the app containers join the sandbox network and IPC and never restart', async () => {
    const info = await rt.docker.getContainer(client).inspect();
    assert.equal(info.HostConfig.NetworkMode, `container:${sb.id}`);
    assert.equal(info.HostConfig.IpcMode, `container:${sb.id}`);
    assert.equal(info.HostConfig.RestartPolicy?.Name, 'no');
    assert.equal(info.Name, `/k8s_client_shared_default_${sb.config.metadata.uid}_0`);
  });

  test('listing by the pod uid finds both containers and the sandbox', async () => {
    const uid = sb.config.metadata.uid;
    const cs = await rt.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': uid } });
    assert.deepEqual(cs.map((c) => c.metadata.name).sort(), ['client', 'server']);
    assert.ok(cs.every((c) => c.podSandboxId === sb.id && c.state === 'CONTAINER_RUNNING'));
    const bySandbox = await rt.listContainers({ podSandboxId: sb.id, state: 'CONTAINER_RUNNING' });
    assert.equal(bySandbox.length, 2);
    const sbs = await rt.listPodSandbox({ labelSelector: { 'io.kubernetes.pod.uid': uid } });
    assert.deepEqual(sbs.map((s) => s.id), [sb.id]);
    assert.equal((await rt.listPodSandbox({ labelSelector: { 'io.kubernetes.pod.uid': uid }, state: 'SANDBOX_NOTREADY' })).length, 0);
  });

  test('stopping the sandbox stops its containers and removing it removes them', async () => {
    await rt.stopPodSandbox(sb.id, 1);
    assert.equal((await rt.podSandboxStatus(sb.id))?.state, 'SANDBOX_NOTREADY');
    assert.equal((await rt.podSandboxStatus(sb.id))?.ip, '');
    const after = await rt.listContainers({ podSandboxId: sb.id });
    assert.ok(after.every((c) => c.state === 'CONTAINER_EXITED'));
    await rt.removePodSandbox(sb.id);
    assert.equal(await rt.podSandboxStatus(sb.id), null);
    assert.equal(await rt.containerStatus(server), null);
    assert.equal((await rt.listContainers({ podSandboxId: sb.id })).length, 0);
    // idempotent, as the CRI asks
    await rt.stopPodSandbox(sb.id);
    await rt.removePodSandbox(sb.id);
  });
});

describe('shareProcessNamespace', () => {
  test('with sharePid the app container sees the pause process as PID 1', async () => {
    const sb = await sandbox('sharepid');
    const id = await runContainer(sb, 'app', ['sleep', '3600'], { sharePid: true });
    const r = await rt.execSync(id, ['cat', '/proc/1/cmdline'], 10);
    assert.equal(r.stdout.split('\0')[0], '/pause');
    await rt.removePodSandbox(sb.id);
  });
});

describe('host namespaces', () => {
  test('a hostNetwork and hostIPC pod runs its container in the host namespaces and has no pod IP', async () => {
    const sb = await sandbox('hostns', { hostNetwork: true, hostIPC: true });
    try {
      const id = await runContainer(sb, 'app', ['sleep', '3600']);
      assert.equal((await rt.containerStatus(id))?.state, 'CONTAINER_RUNNING');
      const s = await rt.podSandboxStatus(sb.id);
      assert.equal(s?.state, 'SANDBOX_READY');
      assert.equal(s?.ip, '');
      const info = await rt.docker.getContainer(sb.id).inspect();
      assert.equal(info.HostConfig.NetworkMode, 'host');
      assert.equal(info.HostConfig.IpcMode, 'host');
      assert.equal((await rt.docker.getContainer(id).inspect()).HostConfig.UTSMode, 'host');
    } finally {
      await rt.removePodSandbox(sb.id);
    }
  });
});

describe('terminated reasons', () => {
  let sb: { id: string; config: PodSandboxConfig };
  before(async () => {
    sb = await sandbox('reasons');
  });
  after(async () => {
    await rt.removePodSandbox(sb.id);
  });

  const cases: { name: string; command: string[]; memory?: number; reason: string; exitCode?: number }[] = [
    { name: 'a container exiting 0 is Completed', command: ['sh', '-c', 'exit 0'], reason: 'Completed', exitCode: 0 },
    { name: 'a container exiting 3 is Error', command: ['sh', '-c', 'exit 3'], reason: 'Error', exitCode: 3 },
    {
      name: 'a container over its memory limit is OOMKilled',
      command: ['sh', '-c', 'head -c 256m /dev/zero | tail'],
      memory: 16 * 1024 * 1024,
      reason: 'OOMKilled',
    },
  ];
  for (const [i, c] of cases.entries()) {
    test(c.name, async () => {
      const id = await runContainer(sb, `r${i}`, c.command, c.memory ? { resources: { memoryLimitInBytes: c.memory } } : {});
      const s = await exitedStatus(id);
      assert.equal(s.reason, c.reason);
      if (c.exitCode !== undefined) assert.equal(s.exitCode, c.exitCode);
      // Both set (Docker may record a very short run's finish a hair before its start).
      assert.ok(s.startedAt > 0 && s.finishedAt > 0);
    });
  }

  test('a command that does not exist fails to start and is ContainerCannotRun with Docker\'s error', async () => {
    const id = await rt.createContainer(sb.id, busyboxContainer('cannot', ['/no/such/binary']), sb.config);
    await assert.rejects(rt.startContainer(id), (e: unknown) => {
      assert.ok(e instanceof RuntimeError);
      assert.equal(e.code, 'StartFailed');
      assert.match(e.message, /no such file or directory/);
      return true;
    });
    const s = await rt.containerStatus(id);
    assert.equal(s?.state, 'CONTAINER_EXITED');
    assert.equal(s?.reason, 'ContainerCannotRun');
    assert.match(s?.message ?? '', /\/no\/such\/binary/);
    assert.notEqual(s?.exitCode, 0);
  });

  test('a created but not started container is CONTAINER_CREATED', async () => {
    const id = await rt.createContainer(sb.id, busyboxContainer('idle', ['true']), sb.config);
    assert.equal((await rt.containerStatus(id))?.state, 'CONTAINER_CREATED');
    await rt.removeContainer(id);
    assert.equal(await rt.containerStatus(id), null);
    await rt.removeContainer(id); // idempotent
  });

  test('an exited container is inspected once: later listings reuse it, and a start by hand is read afresh', async () => {
    // Kept only while the event stream (which reports a start by hand) is connected.
    const sub = await eventsHeard();
    const id = await runContainer(sb, 'listed', ['sh', '-c', 'exit 4']);
    await exitedStatus(id);
    await sub.heard(id, 'died');
    const { inspected, getContainer, restore } = countInspections();
    try {
      const mine = async () => (await rt.listContainers({ labelSelector: { [PodUIDLabel]: sb.config.metadata.uid } })).find((c) => c.id === id)!;
      const first = await mine();
      const second = await mine();
      assert.deepEqual(second, first);
      assert.equal(inspected.filter((x) => x === id).length, 1, 'inspected once over two listings');
      // Docker restarts it by hand: a new run, read afresh (running, then exited again with a new finish).
      await getContainer(id).start();
      const third = await waitFor('the restarted container to exit again', async () => {
        const c = await mine();
        return c.state === 'CONTAINER_EXITED' && c.finishedAt > first.finishedAt ? c : undefined;
      });
      assert.equal(third.exitCode, 4);
      assert.ok(third.startedAt > first.startedAt);
    } finally {
      restore();
      sub.dispose();
    }
  });

  test("a pod's sandboxes and containers read together take one Docker list, each read getting only its own kind", async () => {
    const id = await runContainer(sb, 'together', ['sleep', '3600']);
    const uid = sb.config.metadata.uid;
    const lists: unknown[] = [];
    const docker = rt.docker;
    const listContainers = docker.listContainers.bind(docker);
    docker.listContainers = ((...a: Parameters<typeof listContainers>) => {
      lists.push(a[0]);
      return listContainers(...a);
    }) as typeof docker.listContainers;
    try {
      const [sandboxes, containers] = await Promise.all([rt.listPodSandbox({ labelSelector: { [PodUIDLabel]: uid } }), rt.listContainers({ labelSelector: { [PodUIDLabel]: uid } })]);
      assert.equal(lists.length, 1, `one list call, not ${lists.length}`);
      assert.deepEqual(sandboxes.map((x) => x.id), [sb.id]);
      assert.ok(containers.some((c) => c.id === id) && !containers.some((c) => c.id === sb.id), 'the containers without the sandbox');
      // one after the other: a list each, the same answers
      const [alone, aloneToo] = [await rt.listPodSandbox({ labelSelector: { [PodUIDLabel]: uid } }), await rt.listContainers({ labelSelector: { [PodUIDLabel]: uid } })];
      assert.equal(lists.length, 3);
      assert.deepEqual(alone.map((x) => x.id), [sb.id]);
      assert.deepEqual(aloneToo.map((c) => c.id).sort(), containers.map((c) => c.id).sort());
    } finally {
      docker.listContainers = listContainers;
      await rt.removeContainer(id);
    }
  });

  test('a running container is inspected once while nothing happens to it; stopped by hand, it is read afresh', async () => {
    const sub = await eventsHeard();
    const id = await runContainer(sb, 'steady', ['sleep', '3600']);
    await sub.heard(id, 'started');
    const { inspected, getContainer, restore } = countInspections();
    try {
      const mine = async () => (await rt.listContainers({ labelSelector: { [PodUIDLabel]: sb.config.metadata.uid } })).find((c) => c.id === id)!;
      const first = await mine();
      const second = await mine();
      assert.equal(first.state, 'CONTAINER_RUNNING');
      assert.deepEqual(second, first);
      assert.equal(inspected.filter((x) => x === id).length, 1, 'inspected once over two listings');
      // docker kill by hand: the next read sees it exited, with its exit code
      await getContainer(id).kill({ signal: 'SIGKILL' });
      const third = await waitFor('the killed container to be read as exited', async () => {
        const c = await mine();
        return c.state === 'CONTAINER_EXITED' ? c : undefined;
      });
      assert.equal(third.exitCode, 137);
    } finally {
      restore();
      sub.dispose();
      await rt.removeContainer(id);
    }
  });

  test("an event of another container while an inspection is answered leaves it kept; one of the container's own does not", async () => {
    const sub = await eventsHeard();
    // a container that exits 4 on its first run and 5 on every later one
    const id = await runContainer(sb, 'flip', ['sh', '-c', 'test -f /tmp/ran && exit 5; touch /tmp/ran; exit 4']);
    const bystander = await runContainer(sb, 'bystander', ['sleep', '3600']);
    await exitedStatus(id);
    await sub.heard(id, 'died');
    await sub.heard(bystander, 'started');
    // Once Docker has answered an inspection of `id`, before the runtime has the answer: `then()`.
    let then: (() => Promise<void>) | undefined;
    let ran = 0;
    const { inspected, getContainer, restore } = countInspections(async (cid) => {
      if (cid !== id || !then) return;
      const act = then;
      then = undefined;
      await act();
      ran++;
    });
    const times = () => inspected.filter((x) => x === id).length;
    /** Starts `id` by hand and waits until its run `n` is over: the runtime heard it, and Docker's list (a moment behind the event) says so. */
    const runAgain = async (n: number) => {
      await getContainer(id).start();
      await sub.heard(id, 'died', n);
      await waitFor(`run ${n} listed as exited`, async () => ((await rt.docker.listContainers({ all: true, filters: { id: [id] } }))[0]?.State === 'exited' ? true : undefined));
    };
    try {
      const mine = async () => (await rt.listContainers({ labelSelector: { [PodUIDLabel]: sb.config.metadata.uid } })).find((c) => c.id === id)!;
      then = async () => {
        await getContainer(bystander).kill({ signal: 'SIGKILL' });
        await sub.heard(bystander, 'died');
      };
      assert.equal((await mine()).exitCode, 4);
      assert.equal(ran, 1, 'the bystander was killed while the answer was in flight');
      assert.equal((await mine()).exitCode, 4);
      assert.equal(times(), 1, "another container's death meanwhile: the answer is kept, one inspection over two listings");
      // The second run, by hand: its events drop what was kept.
      await runAgain(2);
      // While the answer about the second run is in flight, a third run starts and ends.
      then = () => runAgain(3);
      const before = times();
      const stale = await mine();
      assert.deepEqual([times() - before, ran, stale.exitCode], [1, 2, 5], 'read afresh, the third run meanwhile');
      const next = await mine();
      assert.equal(times() - before, 2, 'the answer read before the third run is not kept: the next listing inspects again');
      assert.ok(next.startedAt > stale.startedAt, 'and reads the third run');
    } finally {
      restore();
      sub.dispose();
      await rt.removeContainer(bystander);
      await rt.removeContainer(id);
    }
  });

  test('stopContainer stops a running container with docker stop -t', async () => {
    const id = await runContainer(sb, 'stopme', ['sleep', '3600']);
    await rt.stopContainer(id, 1);
    const s = await rt.containerStatus(id);
    assert.equal(s?.state, 'CONTAINER_EXITED');
    assert.equal(s?.exitCode, 137);
    assert.equal(s?.reason, 'Error');
    await rt.stopContainer(id, 1); // already stopped: no error
  });
});

describe('logs, exec and files', () => {
  let sb: { id: string; config: PodSandboxConfig };
  let printer: string;
  let runner: string;
  before(async () => {
    sb = await sandbox('io');
    printer = await runContainer(sb, 'printer', ['sh', '-c', 'echo one; echo two; echo three; echo oops >&2']);
    runner = await runContainer(sb, 'runner', ['sh', '-c', 'echo ready; ln -s /etc/passwd /tmp/pw; exec sleep 3600']);
    await exitedStatus(printer);
  });
  after(async () => {
    await rt.removePodSandbox(sb.id);
  });

  test('logs return stdout and stderr lines', async () => {
    const lines = await rt.containerLogs(printer);
    assert.deepEqual(lines.filter((l) => l !== 'oops'), ['one', 'two', 'three']);
    assert.ok(lines.includes('oops'));
    assert.equal(lines.length, 4);
  });

  test('logs with tail return the last lines', async () => {
    const only = await rt.containerLogs(printer, { tail: 1 });
    assert.equal(only.length, 1);
    const stdoutOnly = await rt.containerLogs(runner, { tail: 5 });
    assert.deepEqual(stdoutOnly, ['ready']);
  });

  test('logs with timestamps prefix each line with an RFC 3339 time', async () => {
    const lines = await rt.containerLogs(printer, { timestamps: true });
    assert.ok(lines.every((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z /.test(l)), lines.join('|'));
  });

  test('a TTY container\'s logs are read raw', async () => {
    const id = await runContainer(sb, 'tty', ['sh', '-c', 'echo tty-line; echo second'], { tty: true });
    await exitedStatus(id);
    assert.deepEqual(await rt.containerLogs(id), ['tty-line', 'second']);
  });

  test('followed logs deliver lines as they are written', async () => {
    const id = await runContainer(sb, 'follow', ['sh', '-c', 'for i in 1 2 3; do echo line-$i; sleep 0.2; done; echo done']);
    const lines: string[] = [];
    let resolveDone: () => void = () => undefined;
    const done = new Promise<void>((r) => (resolveDone = r));
    const sub = await rt.followContainerLogs(id, {
      onLine: (l) => {
        lines.push(l);
        if (l === 'done') resolveDone();
      },
    });
    await done;
    sub.dispose();
    assert.deepEqual(lines, ['line-1', 'line-2', 'line-3', 'done']);
  });

  test("a followed log ends with the last line even without its newline (Docker's follow reader drops it when the container exits), once, with or without timestamps", async () => {
    for (const timestamps of [false, true]) {
      const id = await runContainer(sb, `follow-tail-${timestamps}`, ['sh', '-c', "echo first; sleep 1; printf 'last, no newline'; exit 1"]);
      const lines: string[] = [];
      const ended = new Promise<void>((resolve) => {
        void rt.followContainerLogs(id, { timestamps, onLine: (l) => lines.push(l), onEnd: resolve });
      });
      await ended;
      const text = lines.map((l) => (timestamps ? l.replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z /, '') : l));
      assert.deepEqual(text, ['first', 'last, no newline'], `timestamps ${timestamps}: ${JSON.stringify(lines)}`);
    }
  });

  test('execSync returns stdout, stderr and the exit code', async () => {
    const r = await rt.execSync(runner, ['sh', '-c', 'echo out; echo err >&2; exit 7'], 10);
    assert.deepEqual(r, { exitCode: 7, stdout: 'out\n', stderr: 'err\n' });
  });

  test('execSync past its timeout fails', async () => {
    await assert.rejects(rt.execSync(runner, ['sleep', '30'], 1), (e: unknown) => e instanceof RuntimeError && /timed out after 1s/.test(e.message));
  });

  test('readFile reads a file of a running container, following symbolic links', async () => {
    await rt.execSync(runner, ['sh', '-c', 'printf "abc\\ndef" > /tmp/f'], 10);
    assert.equal(await rt.readFile(runner, '/tmp/f', 4096), 'abc\ndef');
    assert.equal(await rt.readFile(runner, '/tmp/f', 3), 'def');
    assert.match((await rt.readFile(runner, '/tmp/pw', 4096)) ?? '', /^root:x:0:0/);
  });

  test('readFile of a missing file or a directory is null', async () => {
    assert.equal(await rt.readFile(runner, '/no/such/file', 4096), null);
    assert.equal(await rt.readFile(runner, '/etc', 4096), null);
  });

  test('readFile reads from an exited container', async () => {
    const id = await runContainer(sb, 'writer', ['sh', '-c', 'echo bye > /tmp/last-words']);
    await exitedStatus(id);
    assert.equal(await rt.readFile(id, '/tmp/last-words', 4096), 'bye\n');
  });

  test('the termination-message file is bind-mounted from the host and read back after exit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podlab-term-'));
    const host = join(dir, 'abcd1234');
    writeFileSync(host, '');
    chmodSync(host, 0o666);
    try {
      const id = await runContainer(sb, 'term', ['sh', '-c', 'echo "it is done" > /dev/termination-log'], {
        terminationMessageHostPath: host,
        annotations: { 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log' },
      });
      await exitedStatus(id);
      assert.equal(readFileSync(host, 'utf8'), 'it is done\n');
      assert.equal(await rt.readFile(id, '/dev/termination-log', 4096), 'it is done\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('commitContainer makes an image of a container\'s filesystem', async () => {
    const id = await runContainer(sb, 'committed', ['sh', '-c', 'echo kept > /kept']);
    await exitedStatus(id);
    const repo = `podlab.local/test-commit:${testRunId}`;
    const imageId = await rt.commitContainer(id, repo);
    try {
      assert.match(imageId, /^sha256:/);
      const st = await rt.imageStatus(repo);
      assert.equal(st?.id, imageId);
    } finally {
      await rt.removeImage(repo);
    }
    assert.equal(await rt.imageStatus(repo), null);
  });
});

describe('labels, annotations and adoption data', () => {
  test('labels and annotations round-trip through Docker labels, and the manifest is kept with the sandbox', async () => {
    const manifest = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'adopt', annotations: { 'a/b': 'c "quoted"' } }, spec: { containers: [{ name: 'app' }] } });
    const sb = await sandbox('adopt', {
      labels: { [TestRunLabel]: testRunId, tier: 'front' },
      annotations: { 'example.com/note': 'hello world' },
      podManifest: manifest,
    });
    try {
      const s = await rt.podSandboxStatus(sb.id);
      assert.equal(s?.podManifest, manifest);
      assert.equal(s?.labels.tier, 'front');
      assert.equal(s?.labels['io.podlab.managed'], 'true');
      assert.deepEqual(s?.annotations, { 'example.com/note': 'hello world' });
      assert.deepEqual(s?.metadata, sb.config.metadata);

      const annotations = {
        'io.kubernetes.container.hash': '1a2b3c',
        'io.kubernetes.container.restartCount': '4',
        'io.kubernetes.pod.terminationGracePeriod': '30',
      };
      const id = await rt.createContainer(
        sb.id,
        busyboxContainer('app', ['sleep', '3600'], { metadata: { name: 'app', attempt: 4 }, annotations, labels: { [TestRunLabel]: testRunId, role: 'main' } }),
        sb.config,
      );
      const c = await rt.containerStatus(id);
      assert.deepEqual(c?.annotations, annotations);
      assert.equal(c?.labels.role, 'main');
      assert.deepEqual(c?.metadata, { name: 'app', attempt: 4 });
      assert.equal(c?.image, BusyboxImage);
      assert.match(c?.imageRef ?? '', /^docker:\/\/sha256:/);
      const info = await rt.docker.getContainer(id).inspect();
      assert.equal(info.Config.Labels['annotation.io.kubernetes.container.hash'], '1a2b3c');
      assert.equal(info.Config.Labels['io.kubernetes.docker.type'], 'container');
      assert.equal(info.Config.Labels['io.kubernetes.container.logpath'], '');

      // A fresh runtime (a restarted engine) finds the pod from Docker alone.
      const fresh = await connectDocker();
      try {
        const found = await fresh.listPodSandbox({ labelSelector: { 'io.kubernetes.pod.uid': sb.config.metadata.uid } });
        assert.equal(found.length, 1);
        assert.equal(JSON.parse(found[0].podManifest ?? '{}').metadata.annotations['a/b'], 'c "quoted"');
      } finally {
        fresh.close();
      }
    } finally {
      await rt.removePodSandbox(sb.id);
    }
  });
});

describe('events', () => {
  test('Docker events arrive for the start and death of a lab container', async () => {
    const seen: RuntimeEvent[] = [];
    const sub = rt.onEvent((e) => seen.push(e));
    await rt.whenEventsConnected();
    const sb = await sandbox('events');
    try {
      const id = await runContainer(sb, 'short', ['sh', '-c', 'sleep 0.2']);
      await waitFor('the died event', async () => (seen.some((e) => e.id === id && e.action === 'died') ? true : undefined));
      const mine = seen.filter((e) => e.id === id).map((e) => e.action);
      assert.deepEqual(mine.slice(0, 3), ['created', 'started', 'died']);
      const started = seen.find((e) => e.id === id && e.action === 'started');
      assert.equal(started?.podUid, sb.config.metadata.uid);
      assert.equal(started?.containerName, 'short');
      assert.equal(started?.kind, 'container');
      assert.ok(seen.some((e) => e.id === sb.id && e.kind === 'sandbox'), 'the sandbox start is seen too');
    } finally {
      sub.dispose();
      await rt.removePodSandbox(sb.id);
    }
  });
});

describe('event stream reconnection', () => {
  test('when the event stream drops it reconnects, misses nothing and repeats nothing', async () => {
    const seen: RuntimeEvent[] = [];
    const sub = rt.onEvent((e) => seen.push(e));
    await rt.whenEventsConnected();
    const sb = await sandbox('reconnect');
    try {
      const first = await runContainer(sb, 'first', ['sleep', '3600']);
      await waitFor('the first start', async () => (seen.some((e) => e.id === first && e.action === 'started') ? true : undefined));
      // Cut the connection under the runtime, as a Docker restart or a proxy timeout would.
      (rt as unknown as { eventStream: { destroy(): void } | null }).eventStream?.destroy();
      const second = await runContainer(sb, 'second', ['sleep', '3600']);
      await waitFor('the second start after reconnection', async () =>
        seen.some((e) => e.id === second && e.action === 'started') ? true : undefined,
      );
      assert.equal(seen.filter((e) => e.id === first && e.action === 'started').length, 1);
      assert.equal(seen.filter((e) => e.id === second && e.action === 'created').length, 1);
    } finally {
      sub.dispose();
      await rt.removePodSandbox(sb.id);
    }
  });
});

describe('images and connection', () => {
  test('pulling an unpullable image fails with PullFailed and Docker\'s message', async () => {
    await assert.rejects(rt.pullImage('podlab.invalid/nope:1'), (e: unknown) => {
      assert.ok(e instanceof RuntimeError);
      assert.equal(e.code, 'PullFailed');
      assert.match(e.message, /^Error response from daemon: .*podlab\.invalid/);
      return true;
    });
  });

  test('an absent sandbox image that cannot be pulled says what to do offline', async () => {
    const config = podSandboxConfig('nopause');
    await assert.rejects(rt.runPodSandbox(config, 'podlab.invalid/pause:9'), (e: unknown) => {
      assert.ok(e instanceof RuntimeError);
      assert.equal(e.code, 'PullFailed');
      assert.match(e.message, /run "bash scripts\/build-images\.sh" to build podlab\.invalid\/pause:9 locally, or pass --sandbox-image/);
      return true;
    });
    assert.equal((await rt.listPodSandbox({ labelSelector: { 'io.kubernetes.pod.uid': config.metadata.uid } })).length, 0);
  });

  test('imageStatus finds a present image and not an absent one', async () => {
    const st = await rt.imageStatus(BusyboxImage);
    assert.ok(st?.repoTags.includes(BusyboxImage));
    assert.ok((st?.size ?? 0) > 0);
    assert.equal(await rt.imageStatus('podlab.invalid/absent:1'), null);
  });

  test('version reports Docker and the host resources', async () => {
    const v = await rt.version();
    assert.equal(v.runtimeName, 'docker');
    assert.match(v.runtimeVersion, /^\d+\./);
    assert.ok(v.cpus >= 1);
    assert.ok(v.memoryBytes > 0);
    assert.ok(v.hostname.length > 0);
  });

  test("version reports the host's address on the default bridge (its gateway) as the node IP", async () => {
    const gateway = execFileSync('docker', ['network', 'inspect', 'bridge', '--format', '{{range .IPAM.Config}}{{.Gateway}} {{end}}'], { encoding: 'utf8' }).trim().split(' ')[0];
    assert.match(gateway ?? '', /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal((await rt.version()).nodeIP, gateway);
  });

  test('connecting to a socket where Docker is not gives one line saying how to start it', async () => {
    await assert.rejects(connectDocker({ socketPath: '/tmp/podlab-no-docker.sock' }), (e: unknown) => {
      assert.ok(e instanceof RuntimeError);
      assert.equal(e.code, 'Unavailable');
      assert.equal(
        e.message,
        'Cannot connect to Docker at /tmp/podlab-no-docker.sock: no such socket. Start Docker (on this machine: bash scripts/ensure-docker.sh) and try again.',
      );
      return true;
    });
  });

  test('any call on a runtime whose Docker is gone fails with Unavailable', async () => {
    const gone = new DockerRuntime({ socketPath: '/tmp/podlab-no-docker.sock' });
    await assert.rejects(gone.listContainers(), (e: unknown) => e instanceof RuntimeError && e.code === 'Unavailable' && !e.message.includes('\n'));
    gone.close();
  });
});
