// Shared set-up for engine tests on the real Docker: a private lab (state directory) per suite,
// helpers to wait on the store, and a cleanup that removes every container of the lab.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { after, before } from 'node:test';
import type { Event as KEvent, Pod } from 'kubernetes-types/core/v1';
import { connectDocker } from '../../src/runtime/docker/docker-runtime.js';
import { Engine } from '../../src/engine/engine.js';
import type { EngineSettings } from '../../src/engine/api.js';
import { podStatusText } from '../../src/engine/printer.js';
import { stopServer } from '../../src/client/launch.js';

export async function startLab(settings: Partial<EngineSettings> = {}): Promise<{ engine: Engine; stateDir: string; stop: () => Promise<void> }> {
  const stateDir = settings.stateDir ?? mkdtempSync(join(tmpdir(), 'podlab-test-'));
  const runtime = await connectDocker({});
  const engine = await Engine.start({ runtime, settings: { relistIntervalMs: 2000, ...settings, stateDir } });
  return {
    engine,
    stateDir,
    stop: async () => {
      await engine.close();
      removeLabContainers(stateDir);
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * One lab for a test file: started before its tests (short crash-loop back-off, so crash loops
 * show several restarts within seconds); after them its pods are deleted and every container of
 * the lab removed. `onStart` receives the engine.
 */
export function useLab(onStart: (engine: Engine) => void, settings: Partial<EngineSettings> = { backoffInitialMs: 1000, backoffMaxMs: 4000 }): void {
  let lab: Awaited<ReturnType<typeof startLab>> | undefined;
  before(async () => {
    lab = await startLab(settings);
    onStart(lab.engine);
  });
  after(async () => {
    if (!lab) return;
    for (const p of lab.engine.listPods()) await lab.engine.deletePod('default', p.metadata?.name ?? '', 0).catch(() => undefined);
    await lab.stop();
  });
}

/** Stops the lab server a test's commands started for this state directory (no-op when none runs). */
export async function stopLabServer(stateDir: string): Promise<void> {
  await stopServer(stateDir).catch(() => undefined);
}

/** Removes every container whose pod belongs to this lab (sandbox label) — the suite's safety net. */
export function removeLabContainers(stateDir: string): void {
  const sandboxes = execFileSync('docker', ['ps', '-aq', '--filter', `label=io.podlab.lab=${stateDir}`], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const uids = new Set<string>();
  for (const id of sandboxes) {
    uids.add(execFileSync('docker', ['inspect', '-f', '{{index .Config.Labels "io.kubernetes.pod.uid"}}', id], { encoding: 'utf8' }).trim());
  }
  for (const uid of uids) {
    const ids = execFileSync('docker', ['ps', '-aq', '--filter', `label=io.kubernetes.pod.uid=${uid}`], { encoding: 'utf8' }).split('\n').filter(Boolean);
    if (ids.length) execFileSync('docker', ['rm', '-f', ...ids], { stdio: 'ignore' });
  }
}

export function podManifest(name: string, spec: Record<string, unknown>): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: spec as unknown as Pod["spec"] };
}

/** Resolves with the pod once `pred` holds (checked on every watch event); rejects after `ms`. */
export function waitFor(engine: Engine, name: string, pred: (p: Pod) => boolean, ms = 30_000, what = 'condition'): Promise<Pod> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const p = engine.getPod('default', name);
      if (p && pred(p)) {
        done();
        resolve(p);
        return true;
      }
      return false;
    };
    const sub = engine.watch((e) => {
      if (e.kind === 'Pod') check();
    });
    const timer = setTimeout(() => {
      done();
      const p = engine.getPod('default', name);
      reject(new Error(`timed out waiting for ${what} on pod ${name}; status now ${p ? podStatusText(p) : 'gone'}: ${JSON.stringify(p?.status)}`));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
    };
    check();
  });
}

export function eventsOf(engine: Engine, name: string): KEvent[] {
  const uid = engine.getPod('default', name)?.metadata?.uid;
  return engine.listEvents({ uid }).sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
}

export const sh = (name: string, script: string, extra: Record<string, unknown> = {}) => ({ name, image: 'busybox:1.35', command: ['sh', '-c', script], ...extra });
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
