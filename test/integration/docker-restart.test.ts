// Reliability: the Docker daemon restarts under a running lab server. dockerd stops every
// container on its way down (no live-restore here), so the kubelet must notice the dead sandbox,
// recreate it (SandboxChanged) and restart the containers, exactly once each, while the server's
// API keeps answering. It restarts this machine's daemon, so it needs root and runs only when no
// other container runs on it (it says so when it skips); it puts the daemon back as it found it
// (same command line) even when it fails.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDocker } from '../../src/runtime/docker/docker-runtime.js';
import { startLabServer, type RunningServer } from '../../src/server/serve.js';
import { LabConnection } from '../../src/client/connection.js';
import { eventsOf, podManifest, removeLabContainers, sleep, waitFor } from './engine-helpers.js';

/** Why this machine's daemon must not be restarted here, if it must not. */
function reasonNotToRestart(): string | false {
  if (process.getuid?.() !== 0) return 'restarting dockerd needs root (CI runs as root)';
  const others = execFileSync('docker', ['ps', '-q'], { encoding: 'utf8' }).split('\n').filter(Boolean).length;
  if (others) return `${others} container(s) already run on this daemon; restarting it would stop them`;
  return false;
}

function dockerAnswers(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

async function until(pred: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(200);
  }
}

/** Stops dockerd (SIGTERM, as `systemctl restart docker` does) and starts it again with its own command line. */
async function restartDockerd(): Promise<void> {
  const pid = Number(execFileSync('pgrep', ['-xo', 'dockerd'], { encoding: 'utf8' }).trim());
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  process.kill(pid, 'SIGTERM');
  try {
    await until(() => !existsSync(`/proc/${pid}`), 60_000, 'dockerd to stop');
  } finally {
    const log = openSync('/var/log/podlab-dockerd.log', 'a');
    spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', log, log] }).unref();
    await until(dockerAnswers, 60_000, 'dockerd to answer again');
  }
}

describe('the Docker daemon restarts under a running lab server', { skip: reasonNotToRestart(), timeout: 5 * 60 * 1000 }, () => {
  let stateDir: string;
  let running: RunningServer;
  let conn: LabConnection;

  before(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'podlab-dockerd-'));
    running = await startLabServer({ stateDir, settings: { relistIntervalMs: 2000 }, runtime: await connectDocker({}), version: 'test', log: (l) => process.env.PODLAB_TEST_LOG && console.log(`${new Date().toISOString()} ${l}`) });
    const ca = readFileSync(join(stateDir, 'server', 'credentials', 'ca.crt'), 'utf8');
    const token = readFileSync(join(stateDir, 'server', 'credentials', 'token'), 'utf8').trim();
    conn = new LabConnection({ server: `https://127.0.0.1:${running.endpoint.port}`, ca, token });
  });

  after(async () => {
    if (!dockerAnswers()) await restartDockerd().catch(() => undefined);
    await running?.engine.deletePod('default', 'survivor', 0).catch(() => undefined);
    await running?.stop();
    conn?.close();
    removeLabContainers(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  });

  test('the sandbox is recreated and the container restarted once; the API answers throughout', async () => {
    const engine = running.engine;
    // A container that leaves at once on TERM, so dockerd's shutdown does not wait 10 s for it.
    await engine.createPod(podManifest('survivor', { containers: [{ name: 'app', image: 'busybox:1.35', command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'] }] }));
    const first = await waitFor(engine, 'survivor', (p) => p.status?.containerStatuses?.[0]?.state?.running !== undefined, 60_000, 'Running');
    const uid = first.metadata?.uid ?? '';
    const firstId = first.status?.containerStatuses?.[0]?.containerID;

    const down = restartDockerd();
    // While the daemon is away the API still answers from the store.
    await until(() => !dockerAnswers(), 30_000, 'dockerd to go away');
    const during = await conn.json<{ metadata: { uid: string } }>('GET', '/api/v1/namespaces/default/pods/survivor');
    assert.equal(during.metadata.uid, uid);
    await down;

    const after = await waitFor(
      engine,
      'survivor',
      (p) => p.status?.containerStatuses?.[0]?.state?.running !== undefined && p.status.containerStatuses[0].containerID !== firstId,
      90_000,
      'the container to run again after the daemon restart',
    );
    const cs = after.status?.containerStatuses?.[0];
    const count = (reason: string) => eventsOf(engine, 'survivor').find((e) => e.reason === reason)?.count ?? 0;
    const runningNow = execFileSync('docker', ['ps', '--filter', `label=io.kubernetes.pod.uid=${uid}`, '--format', '{{.Label "io.kubernetes.container.name"}}'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .sort();
    assert.deepEqual(
      {
        phase: after.status?.phase,
        restartCount: cs?.restartCount,
        lastExit: cs?.lastState?.terminated?.exitCode,
        // Each real attempt at a new sandbox is announced once: the ones dockerd refused while it
        // was going down (FailedCreatePodSandBox), and the one that worked.
        sandboxChangedPerAttempt: count('SandboxChanged') - count('FailedCreatePodSandBox'),
        runningContainers: runningNow,
      },
      { phase: 'Running', restartCount: 1, lastExit: 0, sandboxChangedPerAttempt: 1, runningContainers: ['POD', 'app'] },
    );
  });
});
