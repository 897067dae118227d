// Records what the engine reports about one pod (every watch event for it and its events, plus
// debugInfo after each pod change) into a fixture for the lifecycle panel's webview tests:
//
//   node --import tsx scripts/record-fixture.ts MANIFEST.yaml test/fixtures/recorded/NAME.json \
//     [--seconds 45] [--until Running] [--backoff-initial 10] [--backoff-max 300] [--step] [--description TEXT]
//
// It runs the pod on the real Docker through the engine (Engine.start over connectDocker, as the CLI
// does), stops after --seconds or once the pod reaches --until (Running = all containers ready),
// reads the logs of every attempt, then deletes the pod (its containers carry io.podlab.managed=true
// like every lab container) and closes the engine. Run `bash scripts/ensure-docker.sh &&
// bash scripts/build-images.sh` first.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { Pod } from 'kubernetes-types/core/v1';
import type { PodDebugInfo, WatchEvent } from '../src/engine/api.js';
import { Engine } from '../src/engine/engine.js';
import { connectDocker } from '../src/runtime/docker/docker-runtime.js';
import { concerns, newObservation, observe, type PodObservation } from '../src/extension/panel/model.js';
import type { RecordedFrame, RecordedStream } from '../src/extension/panel/recording.js';

interface Args {
  manifest: string;
  out: string;
  seconds: number;
  until?: 'Running';
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  step: boolean;
  description?: string;
}

function parseArgs(argv: string[]): Args {
  const pos: string[] = [];
  const a: Partial<Args> = { seconds: 45, step: false };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i]!;
    const next = () => {
      const n = argv[++i];
      if (n === undefined) throw new Error(`${v} needs a value`);
      return n;
    };
    if (v === '--seconds') a.seconds = Number(next());
    else if (v === '--until') {
      const u = next();
      if (u !== 'Running') throw new Error('--until supports Running');
      a.until = u;
    } else if (v === '--backoff-initial') a.backoffInitialMs = Number(next()) * 1000;
    else if (v === '--backoff-max') a.backoffMaxMs = Number(next()) * 1000;
    else if (v === '--step') a.step = true;
    else if (v === '--description') a.description = next();
    else pos.push(v);
  }
  if (pos.length !== 2) throw new Error('usage: record-fixture.ts MANIFEST.yaml OUT.json [--seconds N] [--until Running] [--backoff-initial S] [--backoff-max S] [--step]');
  return { ...(a as Args), manifest: pos[0]!, out: pos[1]! };
}

function allReady(p: Pod | undefined): boolean {
  const cs = p?.status?.containerStatuses ?? [];
  return p?.status?.phase === 'Running' && cs.length > 0 && cs.every((c) => c.ready);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const docs = parseAllDocuments(readFileSync(args.manifest, 'utf8')).map((d) => d.toJS() as Pod);
  const manifest = docs.find((d) => d?.kind === 'Pod');
  if (!manifest?.metadata?.name) throw new Error(`${args.manifest}: no Pod with a name`);
  const namespace = manifest.metadata.namespace ?? 'default';
  const name = manifest.metadata.name;

  const runtime = await connectDocker({});
  const settings = {
    ...(args.backoffInitialMs !== undefined ? { backoffInitialMs: args.backoffInitialMs } : {}),
    ...(args.backoffMaxMs !== undefined ? { backoffMaxMs: args.backoffMaxMs } : {}),
  };
  const engine = await Engine.start({ runtime, settings });
  const frames: RecordedFrame[] = [];
  let obs: PodObservation = newObservation(namespace, name);
  let lastDebug: PodDebugInfo | undefined;
  let reading = Promise.resolve();
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));

  const readDebug = () => {
    reading = reading.then(async () => {
      const d = await engine.debugInfo(namespace, name);
      const at = Date.now();
      if (JSON.stringify(d) === JSON.stringify(lastDebug)) return;
      lastDebug = d;
      frames.push({ at, debug: d ?? null });
      if (d?.stepWaitingFor && args.step) {
        // Record the wait for a moment, then continue as a learner would.
        setTimeout(() => engine.continueStep(namespace, name), 1500);
      }
    });
  };
  const sub = engine.watch((e: WatchEvent) => {
    if (!concerns(obs, e)) return;
    const at = Date.now();
    obs = observe(obs, e, at);
    frames.push({ at, watch: JSON.parse(JSON.stringify(e)) as WatchEvent });
    if (e.kind === 'Pod') {
      readDebug();
      if (args.until === 'Running' && allReady(e.object)) setTimeout(done, 1000);
    }
  });
  // Back-off timers and step-mode waits can change without a pod update.
  const poll = setInterval(readDebug, 1000);
  const timer = setTimeout(done, args.seconds * 1000);

  try {
    await engine.createPod(manifest, { stepMode: args.step });
    await finished;
    clearTimeout(timer);
    clearInterval(poll);
    sub.dispose();
    await reading;
    const logs: Record<string, string[]> = {};
    for (const a of lastDebug?.attempts ?? []) logs[a.id] = await engine.attemptLogs(a.id, 500).catch(() => []);
    const stream: RecordedStream = {
      description: args.description ?? `Pod ${namespace}/${name} from ${args.manifest}, recorded for ${args.seconds}s${args.until ? ` or until ${args.until}` : ''}.`,
      source: 'recorded',
      recordedAt: new Date().toISOString(),
      namespace,
      name,
      manifest,
      frames: frames.sort((x, y) => x.at - y.at),
      logs,
    };
    writeFileSync(args.out, JSON.stringify(stream, null, 1) + '\n');
    console.log(`wrote ${args.out}: ${frames.length} frames, ${Object.keys(logs).length} attempts with logs`);
  } finally {
    clearTimeout(timer);
    clearInterval(poll);
    await engine.deletePod(namespace, name, 0).catch((err: unknown) => console.error(`delete ${namespace}/${name}: ${String(err)}`));
    await engine.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
