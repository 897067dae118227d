// The lab server's benchmark: `npm run bench` runs it as its "lab server" section (benchServer);
// alone: `node --import tsx bench/server.ts`, with BENCH_SERVER_PARTS=1,4 for some parts only.
// Prints figures, asserts nothing. Each part runs its own lab — a private PODLAB_STATE_DIR under
// /tmp whose server `podlab kubeconfig` starts and `podlab stop` stops — on dist/cli.js:
//  1. `podlab run FILE --until Running` with the server already running, against the three
//     `docker run` commands of bench/run.ts (goal ≤ 0.9×); when the goal is missed, where the time
//     goes, phase by phase, measured in fresh processes as the CLI runs them.
//  2. 100 pods from one file through the server against the same 100 pods made with the docker CLI
//     in parallel; the server's RSS per pod.
//  3. 20 `kubectl get pods -w` watchers while 20 pods start: the server's CPU, and what each saw.
//  4. Docker's container `start` event → the watch event showing that container running, p50/p95.
//  5. The server's RSS over 1,000 create/delete cycles (Pending-only pods) and over real pods, and
//     what is left afterwards (containers, <stateDir>/pods/*).
// No upstream counterpart in kubernetes/kubernetes: these are the pod start-up latency, watch
// latency and API responsiveness figures that kubernetes/perf-tests (clusterloader2) measures.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { Pod } from 'kubernetes-types/core/v1';
import Dockerode from 'dockerode';
import { build } from 'esbuild';
import { rawDockerPod, RawBusyboxImage, RawSandboxImage } from './docker-raw.js';
import { LabConnection, readLabKubeconfig } from '../src/client/connection.js';
import { readEndpoint } from '../src/server/endpoint.js';
import { removeLabContainers } from '../test/integration/engine-helpers.js';

const execFileP = promisify(execFile);
const root = join(__dirname, '..');
/** The bundles under test (default dist/; BENCH_PODLAB_DIST points at another build). */
const DIST = process.env.BENCH_PODLAB_DIST ?? join(root, 'dist');
const CLI = join(DIST, 'cli.js');
const KUBECTL = process.env.BENCH_KUBECTL ?? '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MANY_PODS = Number(process.env.BENCH_SERVER_PODS ?? 100);
const WATCHERS = Number(process.env.BENCH_SERVER_WATCHERS ?? 20);
const WATCHED_PODS = Number(process.env.BENCH_SERVER_WATCHED_PODS ?? 20);
const LATENCY_SAMPLES = Number(process.env.BENCH_SERVER_LATENCY_SAMPLES ?? 20);
const CYCLES = Number(process.env.BENCH_SERVER_CYCLES ?? 1000);
const REAL_CYCLES = Number(process.env.BENCH_SERVER_REAL_CYCLES ?? 100);
/**
 * Node flags for the lab servers (passed to the `podlab kubeconfig` that starts them; a client
 * hands its own flags to the server it starts). With `--trace-gc` part 5 also prints the live heap
 * after the last full GC; `--trace-gc --max-old-space-size=48` makes full GCs frequent, which tells
 * a leak (that heap grows) from garbage V8 has not collected yet (only RSS grows).
 */
const SERVER_NODE_FLAGS = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/** A node no lab has: a pod bound to it stays Pending, so a create/delete cycle never reaches Docker. */
const NO_SUCH_NODE = 'bench-no-such-node';

// ---- small tools ------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const now = () => performance.timeOrigin + performance.now();

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The nearest-rank percentile. */
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1))]!;
}

const f0 = (x: number) => `${x.toFixed(0).padStart(6)} ms`;
const f1 = (x: number) => `${x.toFixed(1).padStart(6)} ms`;
const mib = (x: number) => `${x.toFixed(1)} MiB`;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a process to its end: exit code, output, and the milliseconds from spawn to exit. */
function runProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - t0 }));
  });
}

/** /proc/<pid>/status VmRSS, in MiB. */
export function rssMiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

let clockTicks: number | undefined;
/** The process's user + system CPU time so far (/proc/<pid>/stat utime and stime), in ms. */
export function cpuMs(pid: number): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

function podDoc(name: string, containers: string[], spec: Record<string, unknown> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { terminationGracePeriodSeconds: 0, containers: containers.map((c) => ({ name: c, image: RawBusyboxImage, command: ['sleep', '3600'] })), ...spec },
  } as Pod;
}

/** A manifest file of the pods (JSON documents are YAML). */
function writeManifest(dir: string, file: string, pods: Pod[]): string {
  const path = join(dir, file);
  writeFileSync(path, pods.map((p) => JSON.stringify(p, null, 2)).join('\n---\n') + '\n');
  return path;
}

const allRunning = (p: Pod | undefined, containers = 1) => {
  const cs = p?.status?.containerStatuses ?? [];
  return cs.length === containers && cs.every((c) => c.state?.running);
};

/** The ids of Pod Lab containers whose pod's name starts with `prefix` (a lab's own pods). */
function podContainers(prefix: string): string[] {
  const out = execFileSync('docker', ['ps', '-a', '--filter', 'label=io.podlab.managed=true', '--format', '{{.ID}}\t{{.Label "io.kubernetes.pod.name"}}'], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'))
    .filter(([, name]) => name?.startsWith(prefix))
    .map(([id]) => id!);
}

/** The per-pod state directories the kubelet keeps (`<stateDir>/pods/<uid>`). */
function podStateDirs(stateDir: string): string[] {
  try {
    return readdirSync(join(stateDir, 'pods'));
  } catch {
    return [];
  }
}

function removeContainers(ids: string[]): void {
  for (let i = 0; i < ids.length; i += 50) execFileSync('docker', ['rm', '-f', ...ids.slice(i, i + 50)], { stdio: 'ignore' });
}

/** Containers the docker CLI made for this benchmark (label io.podlab.bench=<tag>). */
function benchContainers(tag: string): string[] {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=io.podlab.bench=${tag}`], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** With --trace-gc in the server's flags: the heap (MB) after its last full GC (Mark-Compact), from its log. */
function heapAfterFullGc(stateDir: string): string {
  if (!SERVER_NODE_FLAGS.includes('--trace-gc')) return '';
  let log = '';
  try {
    log = readFileSync(join(stateDir, 'server', 'server.log'), 'utf8');
  } catch {
    return '';
  }
  const all = [...log.matchAll(/Mark-Compact [\d.]+ \([\d.]+\) -> ([\d.]+) \(/g)];
  return all.length ? ` (heap ${all[all.length - 1]![1]} after full GC #${all.length})` : ' (no full GC yet)';
}

// ---- a lab, and a watch on its pods -----------------------------------------------------------

export interface Lab {
  stateDir: string;
  env: NodeJS.ProcessEnv;
  kubeconfig: string;
  /** The server's pid. */
  pid: number;
  conn: LabConnection;
  /** Every pod of this lab is named `<prefix>...`. */
  prefix: string;
  /** `podlab kubeconfig` on a fresh state directory: spawn → the server answers. */
  startMs: number;
}

const podlab = (lab: Lab, args: string[]) => runProcess(process.execPath, [CLI, ...args], lab.env);

async function podlabOk(lab: Lab, args: string[]): Promise<Ran> {
  const r = await podlab(lab, args);
  if (r.code !== 0) throw new Error(`podlab ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  return r;
}

/** Runs `fn` on a new lab (its own state directory and server); removes everything afterwards. */
export async function withLab(part: string, fn: (lab: Lab) => Promise<void>): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), `podlab-bench-server-${part}-`));
  const env = { ...process.env, PODLAB_STATE_DIR: stateDir, PODLAB_QUIET_SERVER: '1' };
  const prefix = `bs${randomBytes(3).toString('hex')}-`;
  let conn: LabConnection | undefined;
  try {
    const kc = await runProcess(process.execPath, [...SERVER_NODE_FLAGS, CLI, 'kubeconfig'], env);
    if (kc.code !== 0) throw new Error(`podlab kubeconfig exited ${kc.code}: ${kc.stderr.trim()}`);
    const ep = readEndpoint(stateDir);
    if (!ep) throw new Error(`no endpoint file in ${stateDir}`);
    conn = new LabConnection(readLabKubeconfig(ep.kubeconfig));
    await fn({ stateDir, env, kubeconfig: ep.kubeconfig, pid: ep.pid, conn, prefix, startMs: kc.ms });
  } finally {
    conn?.close();
    await runProcess(process.execPath, [CLI, 'stop'], env);
    removeLabContainers(stateDir);
    removeContainers(podContainers(prefix));
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** A watch of the default namespace's pods (plain HTTPS with the lab's CA and token). */
export class PodWatch {
  readonly pods = new Map<string, Pod>();
  private readonly checks = new Set<() => void>();
  private stream: { dispose(): void } | undefined;

  private constructor(private readonly onEvent?: (type: string, pod: Pod, at: number) => void) {}

  /** `onEvent` gets each event with the wall-clock time (ms, sub-ms precision) its line arrived. */
  static async start(conn: LabConnection, onEvent?: (type: string, pod: Pod, at: number) => void): Promise<PodWatch> {
    const w = new PodWatch(onEvent);
    w.stream = await conn.stream('/api/v1/namespaces/default/pods?watch=true', (line) => w.line(line), () => undefined);
    return w;
  }

  private line(line: string): void {
    if (!line.trim()) return;
    const at = now();
    const ev = JSON.parse(line) as { type: string; object: Pod };
    const name = ev.object.metadata?.name ?? '';
    if (ev.type === 'DELETED') this.pods.delete(name);
    else if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.pods.set(name, ev.object);
    this.onEvent?.(ev.type, ev.object, at);
    for (const c of [...this.checks]) c();
  }

  /** Resolves once `pred` holds (checked on every event); rejects after `timeoutMs`. */
  until(pred: () => boolean, timeoutMs: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.checks.delete(check);
      };
      const check = () => {
        if (!pred()) return;
        done();
        resolve();
      };
      timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`));
      }, timeoutMs);
      this.checks.add(check);
      check();
    });
  }

  dispose(): void {
    this.stream?.dispose();
  }
}

async function pollUntil(pred: () => boolean, timeoutMs: number, everyMs = 20): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!pred()) {
    if (performance.now() > deadline) return false;
    await sleep(everyMs);
  }
  return true;
}

// ---- 1. podlab run against the docker CLI, the server already running ------------------------------

/** `podlab run --json --until Running`: ms from spawn until a Pod line shows all its containers running. */
function podlabRun(lab: Lab, file: string, containers: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, 'run', file, '--json', '--until', 'Running'], { env: lab.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    let t: number | undefined;
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (const line of buf.split('\n').slice(0, -1)) {
        const o = JSON.parse(line) as Pod;
        if (t === undefined && o.kind === 'Pod' && allRunning(o, containers)) t = performance.now() - t0;
      }
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (t !== undefined ? resolve(t) : reject(new Error(`podlab run exited ${code}: ${err}`))));
  });
}

/** The same pod with the docker CLI, as bench/run.ts times it: three `docker run -d`, the two app containers joined to the first. */
function dockerCli(): number {
  const tag = randomBytes(4).toString('hex');
  const t0 = performance.now();
  const label = ['--label', 'io.podlab.managed=true', '--label', 'io.podlab.bench=docker-cli'];
  const sb = execFileSync('docker', ['run', '-d', ...label, '--ipc', 'shareable', '--name', `bench-cli-${tag}-pause`, RawSandboxImage], { encoding: 'utf8' }).trim();
  for (const n of ['one', 'two']) {
    execFileSync('docker', ['run', '-d', ...label, '--network', `container:${sb}`, '--ipc', `container:${sb}`, '--name', `bench-cli-${tag}-${n}`, RawBusyboxImage, 'sleep', '3600'], { stdio: 'ignore' });
  }
  const ms = performance.now() - t0;
  execFileSync('docker', ['rm', '-f', `bench-cli-${tag}-one`, `bench-cli-${tag}-two`, `bench-cli-${tag}-pause`], { stdio: 'ignore' });
  return ms;
}

async function benchRunWithServer(lab: Lab): Promise<void> {
  const file = (name: string) => writeManifest(lab.stateDir, `${name}.yaml`, [podDoc(name, ['one', 'two'])]);
  const del = (name: string) => podlabOk(lab, ['delete', name]);
  // Warm-up: the server's first pod, Docker's first containers, the page cache.
  await podlabRun(lab, file(`${lab.prefix}warm`), 2);
  await del(`${lab.prefix}warm`);
  dockerCli();
  const podlabMs: number[] = [];
  const cliMs: number[] = [];
  for (const i of range(ROUNDS)) {
    const name = `${lab.prefix}run-${i}`;
    podlabMs.push(await podlabRun(lab, file(name), 2));
    await del(name);
    cliMs.push(dockerCli());
  }
  const p = median(podlabMs);
  const c = median(cliMs);
  const ratio = p / c;
  console.log(`\n  1. podlab run FILE --until Running, the server already running: pause + 2 busybox, launch → all running (median of ${ROUNDS})`);
  console.log(`     (server start on a fresh lab, podlab kubeconfig spawn → answering: ${lab.startMs.toFixed(0)} ms)`);
  console.log(`     podlab run (new process, server running)  ${f0(p)}`);
  console.log(`     3 × docker run                            ${f0(c)}    podlab / docker-cli = ${ratio.toFixed(2)}×  (goal ≤ 0.9: ${ratio <= 0.9 ? 'met' : 'NOT met'})`);
  console.log(`     all rounds: podlab ${podlabMs.map((x) => x.toFixed(0)).join(' ')} | cli ${cliMs.map((x) => x.toFixed(0)).join(' ')}`);
  if (ratio > 0.9 || process.env.BENCH_SERVER_PROFILE) await profileRun(lab, p, file, del);
}

/**
 * What `podlab run` does once the server runs, in a fresh process each round, phase by phase: the
 * client side of dist/podlab-engine.js (src/client) bundled alone, with a count of the TLS
 * connections it opens.
 */
const PROBE_SOURCE = `
import { readFileSync } from 'node:fs';
import { runningServer } from './src/client/launch.js';
import { LabConnection, readLabKubeconfig } from './src/client/connection.js';
import { RemoteEngine } from './src/client/remote-engine.js';
import { validateText } from './src/validation/index.js';

declare const require: (id: string) => any;
const tls = require('node:tls');
let tlsConnections = 0;
let tlsMs = 0;
const tlsConnect = tls.connect;
tls.connect = (...args: unknown[]) => {
  const t = performance.now();
  tlsConnections++;
  const s = tlsConnect(...args);
  s.once('secureConnect', () => (tlsMs += performance.now() - t));
  return s;
};

async function main(): Promise<void> {
  const stateDir = process.env.PODLAB_STATE_DIR!;
  const t0 = performance.now();
  const result = validateText(readFileSync(process.env.BENCH_FILE!, 'utf8'), { nodeNames: ['podlab-node'] });
  const pod = result.documents[0]!.pod!;
  const name = pod.metadata!.name!;
  const t1 = performance.now();
  const ep = await runningServer(stateDir);
  if (!ep) throw new Error('no lab server runs');
  const t2 = performance.now();
  const findTls = tlsConnections;
  const conn = new LabConnection(readLabKubeconfig(ep.kubeconfig));
  const engine = await RemoteEngine.connect(conn, ep, stateDir);
  const t3 = performance.now();
  const connectTls = tlsConnections - findTls;
  let t5 = 0;
  const running = new Promise<void>((resolve) => {
    const sub = engine.watch((e) => {
      if (e.kind !== 'Pod' || e.object.metadata?.name !== name) return;
      const cs = e.object.status?.containerStatuses ?? [];
      if (cs.length === 2 && cs.every((c) => c.state?.running)) {
        t5 = performance.now();
        sub.dispose();
        resolve();
      }
    });
  });
  await engine.createPod(pod);
  const t4 = performance.now();
  await running;
  const postTls = tlsConnections - findTls - connectTls;
  const handshakes = tlsMs;
  // One request on a new connection (TLS handshake included) and one on the same connection again.
  const c2 = new LabConnection(conn.creds);
  const t6 = performance.now();
  await c2.request('GET', '/readyz');
  const t7 = performance.now();
  await c2.request('GET', '/readyz');
  const t8 = performance.now();
  c2.close();
  await engine.close();
  process.stdout.write(JSON.stringify({ validate: t1 - t0, find: t2 - t1, connect: t3 - t2, post: t4 - t3, podStart: t5 - t4, findTls, connectTls, postTls, handshakes, newConnection: t7 - t6, reused: t8 - t7 }));
  process.exit(0);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;

interface ProbeResult {
  validate: number;
  find: number;
  connect: number;
  post: number;
  podStart: number;
  findTls: number;
  connectTls: number;
  postTls: number;
  handshakes: number;
  newConnection: number;
  reused: number;
}

async function profileRun(lab: Lab, podlabMs: number, file: (name: string) => string, del: (name: string) => Promise<unknown>): Promise<void> {
  // Node alone, spawn → exit.
  const bare: number[] = [];
  for (const _ of range(ROUNDS)) bare.push((await runProcess(process.execPath, ['-e', '0'], lab.env)).ms);
  // The two bundles `podlab run` loads, timed inside a fresh process.
  const engineBundle = join(DIST, 'podlab-engine.js');
  const loadScript = `const a=performance.now();require(${JSON.stringify(CLI)});const b=performance.now();require(${JSON.stringify(engineBundle)});const c=performance.now();process.stdout.write(JSON.stringify({boot:a,cli:b-a,engine:c-b}));process.exit(0)`;
  const loads: { boot: number; cli: number; engine: number }[] = [];
  for (const _ of range(ROUNDS)) loads.push(JSON.parse((await runProcess(process.execPath, ['-e', loadScript], lab.env)).stdout) as { boot: number; cli: number; engine: number });
  // The client's phases.
  const probe = join(lab.stateDir, 'probe.js');
  await build({
    stdin: { contents: PROBE_SOURCE, resolveDir: root, loader: 'ts', sourcefile: 'bench-server-probe.ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: probe,
    logLevel: 'warning',
    external: ['vscode', 'cpu-features', '*.node'],
  });
  const probes: ProbeResult[] = [];
  for (const i of range(ROUNDS)) {
    const name = `${lab.prefix}probe-${i}`;
    const r = await runProcess(process.execPath, [probe], { ...lab.env, BENCH_FILE: file(name) });
    if (r.code !== 0) throw new Error(`probe exited ${r.code}: ${r.stderr}`);
    probes.push(JSON.parse(r.stdout) as ProbeResult);
    await del(name);
  }
  const docker = new Dockerode();
  const raw: number[] = [];
  for (const _ of range(ROUNDS)) raw.push(await rawDockerPod(docker));

  const m = (k: keyof ProbeResult) => median(probes.map((p) => p[k]));
  const node = median(bare);
  const boot = median(loads.map((l) => l.boot));
  const cliLoad = median(loads.map((l) => l.cli));
  const engineLoad = median(loads.map((l) => l.engine));
  const kib = (p: string) => (statSync(p).size / 1024).toFixed(0);
  const phases: [string, number][] = [
    ['Node start-up (node -e 0, spawn → exit)', node],
    [`load dist/cli.js (${kib(CLI)} KiB)`, cliLoad],
    [`load dist/podlab-engine.js (${kib(engineBundle)} KiB)`, engineLoad],
    ['validate the file (first call in the process)', m('validate')],
    [`find the server (lock, endpoint, /readyz; ${m('findTls')} TLS connection)`, m('find')],
    [`RemoteEngine.connect: lists of 5 kinds + 6 watch streams (${m('connectTls')} TLS connections)`, m('connect')],
    [`POST the pod (${m('postTls')} TLS connection)`, m('post')],
    ['server: POST answered → watch shows both running', m('podStart')],
  ];
  const sum = phases.reduce((s, [, v]) => s + v, 0);
  console.log(`     Where the time of podlab run goes (median of ${ROUNDS}; each phase in a fresh process, as the CLI runs it):`);
  for (const [label, v] of phases) console.log(`       ${label.padEnd(86)} ${f0(v)}`);
  console.log(`       ${'sum of the phases'.padEnd(86)} ${f0(sum)}    (podlab run measured above: ${podlabMs.toFixed(0)} ms; phases timed in separate processes, so they do not add up exactly)`);
  console.log(`       before the first request (Node start-up + bundles + validation): ${(node + cliLoad + engineLoad + m('validate')).toFixed(0)} ms; Node's own boot inside the process ${boot.toFixed(0)} ms`);
  console.log(`       TLS: ${m('handshakes').toFixed(0)} ms of handshakes in all (overlapping); a request on a new connection ${m('newConnection').toFixed(1)} ms, on a kept-alive one ${m('reused').toFixed(1)} ms`);
  console.log(`       the server's pod start (POST sent → both running) ${(m('post') + m('podStart')).toFixed(0)} ms, against raw dockerode calls for the same pod ${median(raw).toFixed(0)} ms`);
}

// ---- 2. 100 pods from one file ---------------------------------------------------------------

/** `n` pods with the docker CLI, all at once: a pause container, then one busybox joined to its network. */
async function dockerCliMany(n: number, tag: string): Promise<number> {
  const label = ['--label', 'io.podlab.managed=true', '--label', `io.podlab.bench=${tag}`];
  const t0 = performance.now();
  await Promise.all(
    range(n).map(async (i) => {
      const sb = (await execFileP('docker', ['run', '-d', ...label, '--ipc', 'shareable', '--name', `${tag}-${i}-pause`, RawSandboxImage])).stdout.trim();
      await execFileP('docker', ['run', '-d', ...label, '--network', `container:${sb}`, '--ipc', `container:${sb}`, '--name', `${tag}-${i}-main`, RawBusyboxImage, 'sleep', '3600']);
    }),
  );
  return performance.now() - t0;
}

async function benchManyPods(lab: Lab): Promise<void> {
  const warm = `${lab.prefix}warm`;
  await podlabRun(lab, writeManifest(lab.stateDir, 'warm.yaml', [podDoc(warm, ['main'])]), 1);
  await podlabOk(lab, ['delete', warm]);
  await sleep(2000);
  const names = range(MANY_PODS).map((i) => `${lab.prefix}many-${i}`);
  const file = writeManifest(lab.stateDir, 'many.yaml', names.map((n) => podDoc(n, ['main'])));
  const rssBefore = rssMiB(lab.pid);
  const cpu0 = cpuMs(lab.pid);
  const run = await podlabOk(lab, ['run', file, '--until', 'Running', '--timeout', '600']);
  const cpuRun = cpuMs(lab.pid) - cpu0;
  const pods = (await lab.conn.json<{ items: Pod[] }>('GET', '/api/v1/namespaces/default/pods')).items;
  const runningPods = pods.filter((p) => p.status?.phase === 'Running').length;
  await sleep(2000);
  const rssAfter = rssMiB(lab.pid);
  const del = await podlabOk(lab, ['delete', '--all']);
  const left = podContainers(lab.prefix).length;
  const stateLeft = podStateDirs(lab.stateDir).length;
  const rssDeleted = rssMiB(lab.pid);

  const tag = `bench-many-${randomBytes(3).toString('hex')}`;
  let cliMs: number;
  let rmMs: number;
  try {
    cliMs = await dockerCliMany(MANY_PODS, tag);
  } finally {
    const t = performance.now();
    removeContainers(benchContainers(tag));
    rmMs = performance.now() - t;
  }
  console.log(`\n  2. ${MANY_PODS} pods (busybox sleep, grace 0) from one file through the server, launch → all Running`);
  console.log(`     podlab run FILE --until Running           ${f0(run.ms)}    (${runningPods}/${MANY_PODS} Running; server CPU ${cpuRun.toFixed(0)} ms)`);
  console.log(`     docker CLI, ${MANY_PODS} pods in parallel         ${f0(cliMs)}    podlab / docker-cli = ${(run.ms / cliMs).toFixed(2)}×  (pause + 1 busybox each, ${MANY_PODS} chains at once)`);
  console.log(`     server RSS: ${mib(rssBefore)} before, ${mib(rssAfter)} with ${MANY_PODS} pods → ${(((rssAfter - rssBefore) * 1024) / MANY_PODS).toFixed(0)} KiB per pod; ${mib(rssDeleted)} after deleting them`);
  console.log(`     podlab delete --all: ${del.ms.toFixed(0)} ms (docker rm -f of the CLI's ${MANY_PODS * 2} containers: ${rmMs.toFixed(0)} ms); left: ${left} containers, ${stateLeft} pod state dirs`);
}

// ---- 3. 20 kubectl watchers while 20 pods start ------------------------------------------------

interface Watcher {
  child: ChildProcess;
  /** Pod name → when this watcher printed it Running. */
  running: Map<string, number>;
  /** It printed the sentinel pod: it has listed, and watches from the list's resourceVersion. */
  listed: boolean;
}

function startWatcher(lab: Lab, cacheDir: string, sentinel: string): Watcher {
  const child = spawn(KUBECTL, ['get', 'pods', '-w', '--cache-dir', cacheDir], { env: { ...process.env, KUBECONFIG: lab.kubeconfig }, stdio: ['ignore', 'pipe', 'ignore'] });
  const w: Watcher = { child, running: new Map(), listed: false };
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    for (const line of buf.split('\n').slice(0, -1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[0] === sentinel) w.listed = true;
      if (cols[2] === 'Running' && cols[0] && !w.running.has(cols[0])) w.running.set(cols[0], now());
    }
    buf = buf.slice(buf.lastIndexOf('\n') + 1);
  });
  return w;
}

async function benchWatchers(lab: Lab): Promise<void> {
  const watch = await PodWatch.start(lab.conn);
  /** Creates `n` pods at once; the server's CPU until they run and `alsoDone` holds. */
  const round = async (tag: string, alsoDone: (names: string[]) => boolean = () => true) => {
    const names = range(WATCHED_PODS).map((i) => `${lab.prefix}${tag}-${i}`);
    const cpu0 = cpuMs(lab.pid);
    const t0 = performance.now();
    await Promise.all(names.map((n) => lab.conn.json('POST', '/api/v1/namespaces/default/pods', podDoc(n, ['main']))));
    await watch.until(() => names.every((n) => allRunning(watch.pods.get(n))), 120_000, `${tag} pods Running`);
    const runningAt = now();
    const all = await pollUntil(() => alsoDone(names), 30_000);
    const cpu = cpuMs(lab.pid) - cpu0;
    const wall = performance.now() - t0;
    await podlabOk(lab, ['delete', '--all']);
    return { names, cpu, wall, runningAt, all };
  };
  await round('warm');
  const base = await round('base');
  const cacheDir = join(lab.stateDir, 'kube-cache');
  // kubectl prints nothing for an empty namespace: a Pending-only pod shows when each has listed.
  const sentinel = `${lab.prefix}sentinel`;
  await lab.conn.json('POST', '/api/v1/namespaces/default/pods', podDoc(sentinel, ['main'], { nodeName: NO_SUCH_NODE }));
  const watchers = range(WATCHERS).map(() => startWatcher(lab, cacheDir, sentinel));
  try {
    const started = await pollUntil(() => watchers.every((w) => w.listed), 30_000, 50);
    await lab.conn.json('DELETE', `/api/v1/namespaces/default/pods/${sentinel}`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 });
    await sleep(1000);
    const r = await round('watched', (names) => watchers.every((w) => names.every((n) => w.running.has(n))));
    const seen = watchers.map((w) => r.names.filter((n) => w.running.has(n)).length);
    const complete = seen.filter((s) => s === r.names.length).length;
    const lastSeen = Math.max(...watchers.flatMap((w) => [...w.running.values()]));
    console.log(`\n  3. ${WATCHED_PODS} pods started at once, server CPU from the first POST until every pod is Running${WATCHERS ? ' and every watcher printed it so' : ''}`);
    console.log(`     no kubectl watcher                       CPU ${f0(base.cpu)}   wall ${f0(base.wall)}`);
    console.log(`     ${String(WATCHERS).padStart(2)} × kubectl.1.33 get pods -w            CPU ${f0(r.cpu)}   wall ${f0(r.wall)}   (+${(r.cpu - base.cpu).toFixed(0)} ms for the watchers, ${((r.cpu - base.cpu) / WATCHERS).toFixed(1)} ms each)`);
    console.log(`     watchers connected before the pods: ${started ? 'yes' : 'NO (timed out)'}; every watcher saw every pod Running: ${complete === WATCHERS ? 'yes' : 'NO'} (${complete}/${WATCHERS} watchers saw all ${r.names.length}; Running pods seen per watcher: ${[...new Set(seen)].sort((a, b) => a - b).join(', ')})`);
    if (Number.isFinite(lastSeen)) console.log(`     the last kubectl printed its last Running line ${(lastSeen - r.runningAt).toFixed(0)} ms after this benchmark's own watch saw every pod Running`);
  } finally {
    for (const w of watchers) w.child.kill('SIGTERM');
    watch.dispose();
  }
}

// ---- 4. Docker event → watch event ------------------------------------------------------------

async function benchEventLatency(lab: Lab): Promise<void> {
  /** Container id → Docker's `start` time (timeNano, as ms since the epoch). */
  const started = new Map<string, number>();
  const events = spawn('docker', ['events', '--filter', 'type=container', '--filter', 'event=start', '--filter', 'label=io.podlab.managed=true', '--format', '{{json .}}'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let buf = '';
  events.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    for (const line of buf.split('\n').slice(0, -1)) {
      const e = JSON.parse(line) as { id: string; timeNano: number; Actor?: { Attributes?: Record<string, string> } };
      const a = e.Actor?.Attributes ?? {};
      if (a['io.kubernetes.pod.name']?.startsWith(lab.prefix) && a['io.kubernetes.container.name'] !== 'POD') started.set(e.id, e.timeNano / 1e6);
    }
    buf = buf.slice(buf.lastIndexOf('\n') + 1);
  });
  /** Container id → when the watch first delivered the pod with that container running. */
  const delivered = new Map<string, number>();
  const watch = await PodWatch.start(lab.conn, (_type, pod, at) => {
    for (const c of pod.status?.containerStatuses ?? []) {
      const id = c.containerID?.replace(/^docker:\/\//, '');
      if (id && c.state?.running && !delivered.has(id)) delivered.set(id, at);
    }
  });
  try {
    await sleep(500); // `docker events` subscribed
    const names = ['warm', ...range(LATENCY_SAMPLES).map(String)].map((i) => `${lab.prefix}lat-${i}`);
    for (const n of names) {
      await lab.conn.json('POST', '/api/v1/namespaces/default/pods', podDoc(n, ['main']));
      await watch.until(() => allRunning(watch.pods.get(n)), 60_000, `${n} Running`);
    }
    const ids = names.slice(1).map((n) => watch.pods.get(n)?.status?.containerStatuses?.[0]?.containerID?.replace(/^docker:\/\//, '') ?? '');
    await pollUntil(() => ids.every((id) => started.has(id)), 5000);
    const samples = ids.filter((id) => started.has(id) && delivered.has(id)).map((id) => delivered.get(id)! - started.get(id)!);
    console.log(`\n  4. Docker's container start event (timeNano) → the watch delivering the pod with that container running (${samples.length} pods, one after another)`);
    if (samples.length) {
      console.log(`     p50 ${f1(percentile(samples, 50))}   p95 ${f1(percentile(samples, 95))}   min ${f1(Math.min(...samples))}   max ${f1(Math.max(...samples))}`);
      console.log(`     all: ${samples.map((s) => s.toFixed(1)).join(' ')}`);
    } else console.log('     no sample: no start event matched a watched container');
    await podlabOk(lab, ['delete', '--all']);
  } finally {
    watch.dispose();
    events.kill('SIGTERM');
  }
  await benchInitSequenceLatency(lab);
}

/**
 * Init containers one after another, as the e2e suite's panels see them: each Docker `start` and
 * `die` event (timeNano) → the watch delivering the pod with that instance running or terminated.
 * A die is followed by the next container's start in the same sync; the kubelet writes the status
 * at the start of a sync, so the die need not wait for that start.
 */
async function benchInitSequenceLatency(lab: Lab): Promise<void> {
  const PODS = 3;
  const INITS = 4;
  const dockerAt = new Map<string, number>(); // `${id}/${action}` → ms since the epoch
  const events = spawn('docker', ['events', '--filter', 'type=container', '--filter', 'event=start', '--filter', 'event=die', '--filter', 'label=io.podlab.managed=true', '--format', '{{json .}}'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let buf = '';
  events.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    for (const line of buf.split('\n').slice(0, -1)) {
      const e = JSON.parse(line) as { id: string; status?: string; Action?: string; timeNano: number; Actor?: { Attributes?: Record<string, string> } };
      const a = e.Actor?.Attributes ?? {};
      if (a['io.kubernetes.pod.name']?.startsWith(`${lab.prefix}seq-`) && a['io.kubernetes.container.name'] !== 'POD') dockerAt.set(`${e.id}/${e.Action ?? e.status}`, e.timeNano / 1e6);
    }
    buf = buf.slice(buf.lastIndexOf('\n') + 1);
  });
  const shownAt = new Map<string, number>(); // `${id}/start|die` → when the watch first showed it
  const watch = await PodWatch.start(lab.conn, (_type, pod, at) => {
    for (const c of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
      const id = c.containerID?.replace(/^docker:\/\//, '');
      if (!id) continue;
      if ((c.state?.running || c.state?.terminated) && !shownAt.has(`${id}/start`)) shownAt.set(`${id}/start`, at);
      if (c.state?.terminated && !shownAt.has(`${id}/die`)) shownAt.set(`${id}/die`, at);
    }
  });
  try {
    await sleep(500);
    for (const i of range(PODS)) {
      const name = `${lab.prefix}seq-${i}`;
      const pod = podDoc(name, ['main']);
      pod.spec!.initContainers = range(INITS).map((j) => ({ name: `step-${j}`, image: RawBusyboxImage, command: ['sleep', '0.3'] }));
      await lab.conn.json('POST', '/api/v1/namespaces/default/pods', pod);
      await watch.until(() => allRunning(watch.pods.get(name)), 60_000, `${name} Running`);
    }
    await pollUntil(() => dockerAt.size >= PODS * (2 * INITS + 1), 5000);
    const by = (action: string) => [...dockerAt].filter(([k]) => k.endsWith(`/${action}`) && shownAt.has(k)).map(([k, t]) => shownAt.get(k)! - t);
    const starts = by('start');
    const dies = by('die');
    console.log(`\n     ${PODS} pods of ${INITS} init containers (sleep 0.3) and one app container: Docker event (timeNano) → the watch showing that instance`);
    for (const [what, xs] of [['start', starts], ['die', dies]] as const) {
      if (xs.length) console.log(`     ${what.padEnd(5)} p50 ${f1(percentile(xs, 50))}   p95 ${f1(percentile(xs, 95))}   max ${f1(Math.max(...xs))}   (${xs.length} events)`);
      else console.log(`     ${what}: no sample matched`);
    }
    await podlabOk(lab, ['delete', '--all']);
  } finally {
    watch.dispose();
    events.kill('SIGTERM');
  }
}

// ---- 5. memory over create/delete cycles ------------------------------------------------------

async function benchCycles(lab: Lab): Promise<void> {
  const del = (name: string) => lab.conn.json('DELETE', `/api/v1/namespaces/default/pods/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 });
  const count = async (path: string) => (await lab.conn.json<{ items: unknown[] }>('GET', path)).items.length;

  // a) Pending-only pods: bound to a node no lab has, so only the API, the store and the watch
  //    cache work; create, then delete with gracePeriodSeconds 0.
  const point = (n: number) => `${n}: ${rssMiB(lab.pid).toFixed(1)}${heapAfterFullGc(lab.stateDir)}`;
  const curve: string[] = [point(0)];
  const t0 = performance.now();
  for (const i of range(CYCLES)) {
    const name = `${lab.prefix}pending-${i}`;
    await lab.conn.json('POST', '/api/v1/namespaces/default/pods', podDoc(name, ['main'], { nodeName: NO_SUCH_NODE }));
    await del(name);
    if ((i + 1) % 100 === 0) curve.push(point(i + 1));
  }
  const pendingMs = performance.now() - t0;
  await sleep(1000);
  const pendingLeft = { pods: await count('/api/v1/pods'), containers: podContainers(lab.prefix).length, dirs: podStateDirs(lab.stateDir).length };
  console.log(`\n  5. Server RSS (MiB) over create/delete cycles through the API`);
  console.log(`     a) ${CYCLES} Pending-only pods (nodeName ${NO_SUCH_NODE}: no container is made), create then delete with gracePeriodSeconds 0, ${(pendingMs / CYCLES).toFixed(1)} ms per cycle`);
  console.log(`        RSS after N cycles: ${curve.join(', ')}`);
  console.log(`        left: ${pendingLeft.pods} pods in the API, ${pendingLeft.containers} containers, ${pendingLeft.dirs} pod state dirs`);

  // b) Real pods: restartPolicy Never, command true; even cycles deleted right after the create
  //    (racing the kubelet's start), odd ones once Succeeded.
  if (REAL_CYCLES <= 0) return;
  const watch = await PodWatch.start(lab.conn);
  const realCurve: string[] = [point(0)];
  const t1 = performance.now();
  try {
    for (const i of range(REAL_CYCLES)) {
      const name = `${lab.prefix}real-${i}`;
      const pod = podDoc(name, ['main'], { restartPolicy: 'Never' });
      pod.spec!.containers[0]!.command = ['true'];
      await lab.conn.json('POST', '/api/v1/namespaces/default/pods', pod);
      if (i % 2 === 1) await watch.until(() => watch.pods.get(name)?.status?.phase === 'Succeeded', 60_000, `${name} Succeeded`);
      await del(name);
      if ((i + 1) % 20 === 0) realCurve.push(point(i + 1));
    }
  } finally {
    watch.dispose();
  }
  const realMs = performance.now() - t1;
  // The kubelet finishes a forced deletion's clean-up after the API has let the pod go.
  const t2 = performance.now();
  const settled = await pollUntil(() => podContainers(lab.prefix).length === 0 && podStateDirs(lab.stateDir).length === 0, 60_000, 500);
  const settleMs = performance.now() - t2;
  const realLeft = { pods: await count('/api/v1/pods'), events: await count('/api/v1/events'), containers: podContainers(lab.prefix).length, dirs: podStateDirs(lab.stateDir).length };
  console.log(`     b) ${REAL_CYCLES} real pods (restartPolicy Never, command ["true"]), half deleted right after the create, half once Succeeded; gracePeriodSeconds 0; ${(realMs / REAL_CYCLES).toFixed(0)} ms per cycle`);
  console.log(`        RSS after N cycles: ${realCurve.join(', ')}; after the clean-up settled: ${point(REAL_CYCLES).replace(/^\d+: /, '')}`);
  console.log(`        clean-up ${settled ? `settled ${settleMs.toFixed(0)} ms after the last delete` : 'did NOT settle within 60 s'}; left: ${realLeft.pods} pods in the API, ${realLeft.containers} containers, ${realLeft.dirs} pod state dirs (${realLeft.events} events kept, as the API server keeps them for an hour)`);
}

// ---- entry ------------------------------------------------------------------------------------

export async function benchServer(): Promise<void> {
  if (!existsSync(CLI)) execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit', cwd: root });
  const parts = new Set((process.env.BENCH_SERVER_PARTS ?? '1,2,3,4,5').split(',').map((s) => s.trim()));
  const built = statSync(CLI).mtime.toISOString().replace(/\.\d+Z$/, 'Z');
  console.log(`\nLab server (${CLI} built ${built}; a fresh lab per part; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  if (parts.has('1')) await withLab('run', benchRunWithServer);
  if (parts.has('2')) await withLab('many', benchManyPods);
  if (parts.has('3')) await withLab('watch', benchWatchers);
  if (parts.has('4')) await withLab('latency', benchEventLatency);
  if (parts.has('5')) await withLab('cycles', benchCycles);
}

if (require.main === module) {
  benchServer().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
