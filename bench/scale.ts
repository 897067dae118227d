// The scheduler and store at cluster size (`npm run bench`'s "scale" section; alone:
// `node --import tsx bench/scale.ts`). Prints figures, asserts nothing. Each size runs its own lab
// server (dist/cli.js, a private state directory, bench/server.ts withLab):
//   1. N simulated nodes created through the API (16 requests at a time);
//   2. M pods created through the API (16 at a time), each asking for 10m CPU and 10Mi;
//   3. a watch on the pods notes when each one is bound (spec.nodeName first set).
// Figures: pods created per second, pods bound per second (first create → last bound), the time
// until the last is bound, and the server's RSS before the nodes, after them and once every pod is
// bound — with the RSS per object, to tell growth linear in the objects from worse. kube-scheduler's
// own performance test threshold at 5,000 nodes is 680 pods/s; the goal here is ≥ 5,000 pods/s. The
// CPU each process spent per pod while creating tells which side limits the rate. Last, the same
// POSTs to a bare Node HTTPS server that does nothing but parse and answer: this machine's ceiling.
// Sizes: BENCH_SCALE="100x1000,5000x10000" (nodes x pods).
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuMs, rssMiB, withLab, type Lab } from './server.js';
import { LabConnection } from '../src/client/connection.js';
import { credentialsDir } from '../src/server/credentials.js';
import { Store } from '../src/engine/store.js';
import { Scheduler } from '../src/engine/scheduler/scheduler.js';
import { EventRecorder } from '../src/engine/events.js';
import { realClock } from '../src/engine/clock.js';

const SIZES = (process.env.BENCH_SCALE ?? '100x1000,5000x10000').split(',').map((s) => s.split('x').map(Number) as [number, number]);
const CONCURRENCY = Number(process.env.BENCH_SCALE_CONCURRENCY ?? 16);

const now = () => performance.timeOrigin + performance.now();

async function inParallel(count: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, count) }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

const simulatedNode = (i: number): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: `sim-${i}`, labels: { 'kubernetes.io/hostname': `sim-${i}`, 'node.kubernetes.io/instance-type': 'simulated', 'topology.kubernetes.io/zone': `zone-${i % 3}` }, annotations: { 'lab.podlab.dev/simulated': 'true' } },
  status: { capacity: { cpu: '32', memory: '256Gi', pods: '110' }, allocatable: { cpu: '32', memory: '256Gi', pods: '110' } },
});

const benchPod = (prefix: string, i: number): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `${prefix}${i}` },
  spec: {
    nodeSelector: { 'node.kubernetes.io/instance-type': 'simulated' },
    containers: [{ name: 'app', image: 'busybox:1.35', resources: { requests: { cpu: '10m', memory: '10Mi' } } }],
  },
});

async function scale(lab: Lab, nodes: number, pods: number): Promise<void> {
  const rss0 = rssMiB(lab.pid);
  const tn = now();
  await inParallel(nodes, (i) => lab.conn.json('POST', '/api/v1/nodes', simulatedNode(i + 1)));
  const nodeMs = now() - tn;
  await new Promise((r) => setTimeout(r, 500));
  const rssNodes = rssMiB(lab.pid);

  const bound = new Set<string>();
  let lastBound = 0;
  let allBound!: () => void;
  const done = new Promise<void>((r) => (allBound = r));
  const stream = await lab.conn.stream(
    '/api/v1/namespaces/default/pods?watch=true',
    (line) => {
      const e = JSON.parse(line) as { object?: Pod };
      const p = e.object;
      if (!p?.spec?.nodeName || bound.has(p.metadata?.name ?? '')) return;
      bound.add(p.metadata!.name!);
      lastBound = now();
      if (bound.size === pods) allBound();
    },
    () => undefined,
  );
  const t0 = now();
  const serverCpu0 = cpuMs(lab.pid);
  const clientCpu0 = process.cpuUsage();
  await inParallel(pods, (i) => lab.conn.json('POST', '/api/v1/namespaces/default/pods', benchPod(lab.prefix, i)));
  const createdMs = now() - t0;
  // Where the time goes while creating: each process's CPU per pod (two cores for both).
  const serverCpu = cpuMs(lab.pid) - serverCpu0;
  const clientCpuUs = process.cpuUsage(clientCpu0);
  const clientCpu = (clientCpuUs.user + clientCpuUs.system) / 1000;
  const timeout = setTimeout(allBound, 10 * 60 * 1000);
  await done;
  clearTimeout(timeout);
  stream.dispose();
  const boundMs = lastBound - t0;
  await new Promise((r) => setTimeout(r, 2000)); // the simulated kubelet's Running updates
  const rssPods = rssMiB(lab.pid);
  const f = (x: number) => x.toFixed(0);
  console.log(`\n${nodes} simulated nodes × ${pods} pods, through the API (${CONCURRENCY} requests at a time)`);
  console.log(`  nodes created                 ${f(nodeMs)} ms (${f((nodes / nodeMs) * 1000)} nodes/s)`);
  console.log(`  pods created                  ${f(createdMs)} ms (${f((pods / createdMs) * 1000)} pods/s)`);
  console.log(`  pods bound                    ${bound.size}/${pods}, the last ${f(boundMs)} ms after the first create: ${f((bound.size / boundMs) * 1000)} pods/s (goal ≥ 5,000 at 5,000 nodes)`);
  console.log(`  bound after the last create   ${f(boundMs - createdMs)} ms`);
  console.log(`  CPU while creating            server ${((serverCpu / pods) * 1000).toFixed(0)} µs/pod (${f((serverCpu / createdMs) * 100)} % of a core), this client ${((clientCpu / pods) * 1000).toFixed(0)} µs/pod (${f((clientCpu / createdMs) * 100)} % of a core)`);
  await httpsFloor(lab, pods, JSON.stringify(await lab.conn.json('GET', `/api/v1/namespaces/default/pods/${lab.prefix}0`)));
  console.log(`  server RSS                    ${f(rss0)} MiB at start, ${f(rssNodes)} MiB with the nodes (+${((rssNodes - rss0) * 1024 / nodes).toFixed(1)} KiB/node), ${f(rssPods)} MiB with the pods (+${((rssPods - rssNodes) * 1024 / pods).toFixed(1)} KiB/pod)`);
}

/** A bare Node HTTPS server: reads the body, JSON.parse, answers 201 with a fixed body. */
const FLOOR_SERVER = `
const https = require('node:https');
const s = https.createServer({ cert: process.env.PEM, key: process.env.PEM }, (q, r) => {
  const c = [];
  q.on('data', (d) => c.push(d));
  q.on('end', () => { JSON.parse(Buffer.concat(c).toString()); r.writeHead(201, { 'Content-Type': 'application/json' }); r.end(process.env.BODY); });
});
s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\\n'));`;

/**
 * What this machine allows for the same requests: the lab's certificate on a bare Node HTTPS server
 * (in its own process) that only parses each body and answers with a created pod's JSON, no
 * validation, store, scheduler, kubelet, journal or watch. The ceiling any lab server here has.
 */
async function httpsFloor(lab: Lab, pods: number, body: string): Promise<void> {
  const pem = readFileSync(join(credentialsDir(lab.stateDir), 'server.pem'), 'utf8');
  const child = spawn(process.execPath, ['-e', FLOOR_SERVER], { env: { PEM: pem, BODY: body }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      child.once('exit', (code) => reject(new Error(`the bare HTTPS server exited ${code}`)));
    });
    const conn = new LabConnection({ ...lab.conn.creds, server: `https://127.0.0.1:${port}` });
    const t0 = now();
    const server0 = cpuMs(child.pid!);
    const client0 = process.cpuUsage();
    await inParallel(pods, (i) => conn.json('POST', '/api/v1/namespaces/default/pods', benchPod(lab.prefix, i)));
    const ms = now() - t0;
    const serverCpu = cpuMs(child.pid!) - server0;
    const c = process.cpuUsage(client0);
    conn.close();
    console.log(
      `  a bare HTTPS server instead   ${((pods / ms) * 1000).toFixed(0)} requests/s: the ceiling here (server ${((serverCpu / pods) * 1000).toFixed(0)} µs/request, this client ${((c.user + c.system) / pods).toFixed(0)} µs/request)`,
    );
  } finally {
    child.kill();
  }
}

/**
 * The scheduler alone, as the issue first measured it: the Store and the Scheduler driven directly
 * (no HTTP, no kubelet), pods written into the store 100 per macrotask.
 */
async function inProcess(nodes: number, pods: number): Promise<void> {
  const store = new Store(realClock);
  for (let i = 0; i < nodes; i++) store.create('Node', simulatedNode(i + 1));
  const sched = new Scheduler(store, new EventRecorder(store, realClock), realClock);
  let bound = 0;
  let allBound!: () => void;
  const done = new Promise<void>((r) => (allBound = r));
  const sub = store.watch((e) => {
    if (e.kind === 'Pod' && e.type === 'MODIFIED' && e.object.spec?.nodeName && ++bound === pods) allBound();
  });
  const t0 = now();
  for (let i = 0; i < pods; i++) {
    store.create('Pod', { ...benchPod('p', i), metadata: { name: `p${i}`, namespace: 'default' } });
    if (i % 100 === 99) await new Promise((r) => setImmediate(r));
  }
  await done;
  const ms = now() - t0;
  sub.dispose();
  sched.dispose();
  console.log(`  in-process Store + Scheduler ${nodes} nodes × ${pods} pods: ${ms.toFixed(0)} ms, ${((pods / ms) * 1000).toFixed(0)} pods/s`);
}

export async function benchScale(): Promise<void> {
  console.log('\nThe scheduler alone (before: 24 pods/s for 1,000 pods on 5,000 nodes)');
  for (const [nodes, pods] of SIZES) await inProcess(nodes, pods);
  for (const [nodes, pods] of SIZES) await withLab(`scale-${nodes}x${pods}`, (lab) => scale(lab, nodes, pods));
}

if (require.main === module) {
  benchScale().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
