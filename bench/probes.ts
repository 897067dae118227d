// The cost of probing: the engine's own CPU (this process, in-process engine on the real Docker)
// with 20 pods × 3 probes (exec, httpGet, tcpSocket) at periodSeconds: 1, against the same pods
// without probes. Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pod } from 'kubernetes-types/core/v1';
import { connectDocker } from '../src/runtime/docker/docker-runtime.js';
import { Engine } from '../src/engine/engine.js';
import { removeLabContainers } from '../test/integration/engine-helpers.js';

const PODS = Number(process.env.BENCH_PROBE_PODS ?? 20);
const WINDOW_MS = Number(process.env.BENCH_PROBE_WINDOW_MS ?? 20_000);

function pod(name: string, probes: boolean): Pod {
  const c: Record<string, unknown> = {
    name: 'web',
    image: 'busybox:1.35',
    command: ['sh', '-c', 'mkdir -p /www && echo ok > /www/index.html && exec httpd -f -p 8080 -h /www'],
    ports: [{ containerPort: 8080 }],
  };
  if (probes) {
    c.livenessProbe = { tcpSocket: { port: 8080 }, periodSeconds: 1 };
    c.readinessProbe = { httpGet: { path: '/index.html', port: 8080 }, periodSeconds: 1 };
    c.startupProbe = { exec: { command: ['true'] }, periodSeconds: 1, failureThreshold: 30 };
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { terminationGracePeriodSeconds: 0, containers: [c] } } as unknown as Pod;
}

const ready = (p: Pod | undefined) => !!p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');

async function measure(engine: Engine, probes: boolean): Promise<{ cpuMs: number; runs: number }> {
  const names = Array.from({ length: PODS }, (_, i) => `bench-probe-${probes ? 'p' : 'n'}-${i}`);
  for (const n of names) await engine.createPod(pod(n, probes));
  const deadline = Date.now() + 120_000;
  while (!names.every((n) => ready(engine.getPod('default', n)))) {
    if (Date.now() > deadline) throw new Error('pods did not become Ready');
    await new Promise((r) => setTimeout(r, 250));
  }
  // Let start-up work settle, then measure a quiet window.
  await new Promise((r) => setTimeout(r, 3000));
  const t0 = Date.now();
  const before = process.cpuUsage();
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const used = process.cpuUsage(before);
  let runs = 0;
  for (const n of names) {
    const d = await engine.debugInfo('default', n);
    for (const h of d?.probes ?? []) runs += h.runs.filter((r) => r.time >= t0).length;
  }
  await Promise.all(names.map((n) => engine.deletePod('default', n, 0)));
  return { cpuMs: (used.user + used.system) / 1000, runs };
}

export async function benchProbes(): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), 'podlab-bench-probes-'));
  try {
    const runtime = await connectDocker({});
    const engine = await Engine.start({ runtime, settings: { stateDir } });
    const idle = await measure(engine, false);
    const busy = await measure(engine, true);
    await engine.close();
    const seconds = WINDOW_MS / 1000;
    const probeCpu = Math.max(0, busy.cpuMs - idle.cpuMs);
    console.log(`\nProbing cost: ${PODS} pods × 3 probes (exec, httpGet, tcpSocket) at periodSeconds 1, ${seconds} s window, engine in-process`);
    console.log(`  engine CPU without probes      ${(idle.cpuMs / seconds).toFixed(1).padStart(7)} ms/s`);
    console.log(`  engine CPU with probes         ${(busy.cpuMs / seconds).toFixed(1).padStart(7)} ms/s   (${busy.runs} probe runs, ${(busy.runs / seconds).toFixed(1)} per second; expected ${PODS * 2}: the startup probe stops once the container has started)`);
    console.log(`  CPU per probe run              ${busy.runs ? (probeCpu / busy.runs).toFixed(2).padStart(7) : '   n/a'} ms    (${((probeCpu / seconds / 1000) * 100).toFixed(1)} % of one core for all probes)`);
  } finally {
    removeLabContainers(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  }
}
