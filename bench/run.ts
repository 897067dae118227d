// `npm run bench`: prints figures, asserts nothing.
//  1. Pod start-up: a pause sandbox + two busybox containers, from launch until all run, made by
//     `podlab run` (a new process, like a user), by three `docker run` commands, by raw dockerode
//     calls, and by the engine in-process (its own work, without Node's start-up) — with ratios.
//  2. Validation (bench/validate.ts, when present).
//  3. The cost of probing (bench/probes.ts): the engine's CPU per probe run.
//  4. The lab server (bench/server.ts): `podlab run` with the server running, 100 pods, 20 kubectl
//     watchers, Docker event → watch latency, memory over create/delete cycles.
//  5. Scale (bench/scale.ts): the scheduler alone, and simulated nodes × pods through the API.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Dockerode from 'dockerode';
import { rawDockerPod } from './docker-raw.js';
import { connectDocker } from '../src/runtime/docker/docker-runtime.js';
import { Engine } from '../src/engine/engine.js';
import { removeLabContainers } from '../test/integration/engine-helpers.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const root = join(__dirname, '..');

const podYaml = (name: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  terminationGracePeriodSeconds: 0
  containers:
    - name: one
      image: busybox:1.35
      command: ["sleep", "3600"]
    - name: two
      image: busybox:1.35
      command: ["sleep", "3600"]
`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** `podlab run --json --until Running`: ms from spawn until the Pod line shows both containers running. */
function podlabRun(stateDir: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [join(root, 'dist/cli.js'), 'run', file, '--json', '--until', 'Running'], {
      env: { ...process.env, PODLAB_STATE_DIR: stateDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buf = '';
    let t: number | undefined;
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (const line of buf.split('\n').slice(0, -1)) {
        const o = JSON.parse(line) as { kind: string; status?: { containerStatuses?: { state?: { running?: unknown } }[] } };
        const cs = o.kind === 'Pod' ? (o.status?.containerStatuses ?? []) : [];
        if (t === undefined && cs.length === 2 && cs.every((c) => c.state?.running)) t = performance.now() - t0;
      }
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (t !== undefined ? resolve(t) : reject(new Error(`podlab run exited ${code}: ${err}`))));
  });
}

/** The same pod with the docker CLI: three `docker run -d`, the two app containers joined to the first. */
function dockerCli(): number {
  const tag = randomBytes(4).toString('hex');
  const t0 = performance.now();
  const label = ['--label', 'io.podlab.managed=true', '--label', 'io.podlab.bench=docker-cli'];
  const sb = execFileSync('docker', ['run', '-d', ...label, '--ipc', 'shareable', '--name', `bench-cli-${tag}-pause`, 'registry.k8s.io/pause:3.10'], { encoding: 'utf8' }).trim();
  for (const n of ['one', 'two']) {
    execFileSync('docker', ['run', '-d', ...label, '--network', `container:${sb}`, '--ipc', `container:${sb}`, '--name', `bench-cli-${tag}-${n}`, 'busybox:1.35', 'sleep', '3600'], { stdio: 'ignore' });
  }
  const ms = performance.now() - t0;
  execFileSync('docker', ['rm', '-f', `bench-cli-${tag}-one`, `bench-cli-${tag}-two`, `bench-cli-${tag}-pause`], { stdio: 'ignore' });
  return ms;
}

/** The engine in-process: createPod until both containers run (scheduler, kubelet sync, runtime calls). */
async function engineInProcess(engine: Engine, name: string): Promise<number> {
  const t0 = performance.now();
  const done = new Promise<number>((resolve) => {
    const sub = engine.watch((e) => {
      if (e.kind !== 'Pod' || e.object.metadata?.name !== name) return;
      const cs = e.object.status?.containerStatuses ?? [];
      if (cs.length === 2 && cs.every((c) => c.state?.running)) {
        sub.dispose();
        resolve(performance.now() - t0);
      }
    });
  });
  await engine.createPod({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { terminationGracePeriodSeconds: 0, containers: ['one', 'two'].map((n) => ({ name: n, image: 'busybox:1.35', command: ['sleep', '3600'] })) } });
  const ms = await done;
  await engine.deletePod('default', name, 0);
  return ms;
}

async function benchPodStartup(): Promise<void> {
  if (!existsSync(join(root, 'dist/cli.js'))) execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit', cwd: root });
  const stateDir = mkdtempSync(join(tmpdir(), 'podlab-bench-'));
  const docker = new Dockerode();
  const results = { podlab: [] as number[], cli: [] as number[], raw: [] as number[], engine: [] as number[] };
  try {
    const runtime = await connectDocker({});
    const engine = await Engine.start({ runtime, settings: { stateDir } });
    // Warm-up: images in the page cache, Docker's first-container costs paid.
    await rawDockerPod(docker);
    await engineInProcess(engine, 'bench-warm');
    for (let i = 0; i < ROUNDS; i++) {
      const file = join(stateDir, `pod-${i}.yaml`);
      writeFileSync(file, podYaml(`bench-cli-${i}`));
      results.podlab.push(await podlabRun(stateDir, file));
      removeLabContainers(stateDir);
      results.cli.push(dockerCli());
      results.raw.push(await rawDockerPod(docker));
      results.engine.push(await engineInProcess(engine, `bench-engine-${i}`));
    }
    await engine.close();
  } finally {
    removeLabContainers(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  }
  const m = { podlab: median(results.podlab), cli: median(results.cli), raw: median(results.raw), engine: median(results.engine) };
  const f = (x: number) => `${x.toFixed(0).padStart(6)} ms`;
  console.log(`\nPod start-up: pause + 2 busybox, launch → all containers running (median of ${ROUNDS})`);
  console.log(`  podlab run (new process)       ${f(m.podlab)}`);
  console.log(`  3 × docker run                 ${f(m.cli)}    podlab / docker-cli = ${(m.podlab / m.cli).toFixed(2)}×  (goal < 1)`);
  console.log(`  raw dockerode calls            ${f(m.raw)}`);
  console.log(`  engine in-process              ${f(m.engine)}    engine / raw dockerode = ${(m.engine / m.raw).toFixed(2)}×  (goal ≤ 1.15)`);
  console.log(`  all rounds: podlab ${results.podlab.map((x) => x.toFixed(0)).join(' ')} | cli ${results.cli.map((x) => x.toFixed(0)).join(' ')} | raw ${results.raw.map((x) => x.toFixed(0)).join(' ')} | engine ${results.engine.map((x) => x.toFixed(0)).join(' ')}`);
}

async function main(): Promise<void> {
  execFileSync('bash', [join(root, 'scripts/ensure-docker.sh')], { stdio: 'inherit' });
  execFileSync('bash', [join(root, 'scripts/build-images.sh')], { stdio: 'inherit' });
  await benchPodStartup();
  const validateBench = join(__dirname, 'validate.ts');
  if (existsSync(validateBench)) {
    const mod = (await import(validateBench)) as { benchValidate?: () => Promise<void> };
    await mod.benchValidate?.();
  }
  if (!process.env.BENCH_SKIP_PROBES) {
    const { benchProbes } = await import('./probes.js');
    await benchProbes();
  }
  if (!process.env.BENCH_SKIP_SERVER) {
    const { benchServer } = await import('./server.js');
    await benchServer();
  }
  if (!process.env.BENCH_SKIP_SCALE) {
    const { benchScale } = await import('./scale.js');
    await benchScale();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
