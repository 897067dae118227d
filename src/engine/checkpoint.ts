// What the lab keeps of a pod beyond the runtime, so a restarted engine loses nothing (the
// counterpart of dockershim's sandbox checkpoint and the API server's copy of status and
// events): the last status and the events, per pod directory; and adoption, which rebuilds the
// store's pods from the sandboxes that carry their manifests.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Event as KEvent, Pod } from 'kubernetes-types/core/v1';
import type { RuntimeService } from '../runtime/cri.js';
import * as L from '../shared/labels.js';
import type { Store } from './store.js';
import { podDir } from './kubelet/sandbox.js';
import { readRuntimePod } from './kubelet/runtime-status.js';
import { generatePodStatus } from './kubelet/status.js';
import type { DeepMutable } from './mutable.js';

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function readEvents(stateDir: string, uid: string): KEvent[] {
  const file = join(podDir(stateDir, uid), 'events.jsonl');
  if (!existsSync(file)) return [];
  const byName = new Map<string, KEvent>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const e = JSON.parse(line) as KEvent;
      byName.set(e.metadata.name ?? '', e);
    } catch {
      // a torn last line: skip it
    }
  }
  return [...byName.values()];
}

export function persistEvent(stateDir: string, e: KEvent): void {
  const uid = e.involvedObject.uid ?? '';
  mkdirSync(podDir(stateDir, uid), { recursive: true });
  appendFileSync(join(podDir(stateDir, uid), 'events.jsonl'), `${JSON.stringify(e)}\n`);
}

export function persistStatus(stateDir: string, pod: Pod): void {
  const uid = pod.metadata?.uid ?? '';
  try {
    mkdirSync(podDir(stateDir, uid), { recursive: true });
    writeFileSync(join(podDir(stateDir, uid), 'status.json'), JSON.stringify(pod.status ?? {}));
  } catch {
    // the pod directory is being removed
  }
}

/**
 * Rebuilds the store from the runtime: one pod per uid, from the newest sandbox's manifest, with
 * its saved status (or, when its owner is gone, a status generated from the runtime) and events.
 */
export async function adoptFromRuntime(opts: {
  runtime: RuntimeService;
  store: Store;
  stateDir: string;
  now: number;
  ownerAlive: (uid: string) => boolean;
  log: (line: string) => void;
}): Promise<void> {
  const { runtime, store, stateDir } = opts;
  const sandboxes = await runtime.listPodSandbox({ labelSelector: { [L.ManagedLabel]: 'true', [L.LabLabel]: stateDir } });
  const newest = new Map<string, (typeof sandboxes)[number]>();
  for (const sb of sandboxes) {
    const cur = newest.get(sb.metadata.uid);
    if (!cur || sb.metadata.attempt > cur.metadata.attempt) newest.set(sb.metadata.uid, sb);
  }
  for (const sb of newest.values()) {
    if (!sb.podManifest) continue;
    let pod: DeepMutable<Pod>;
    try {
      pod = JSON.parse(sb.podManifest) as DeepMutable<Pod>;
    } catch {
      opts.log(`sandbox ${sb.id} carries an unreadable manifest; left alone`);
      continue;
    }
    const uid = pod.metadata?.uid ?? '';
    const saved = readJson<Pod['status']>(join(podDir(stateDir, uid), 'status.json'));
    if (store.get('Pod', pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '')) continue;
    pod.status = saved ?? { phase: 'Pending' };
    if (!opts.ownerAlive(uid) || !saved) {
      const rs = await readRuntimePod(runtime, pod as Pod, async (c) => c.message);
      pod.status = generatePodStatus({ pod: pod as Pod, runtime: rs, reasonCache: new Map(), podIsTerminal: !!pod.metadata?.deletionTimestamp, now: opts.now });
    }
    store.create('Pod', pod as Pod);
    for (const ev of readEvents(stateDir, uid)) {
      if (!store.get('Event', ev.metadata.namespace, ev.metadata.name ?? '')) store.create('Event', ev);
    }
  }
}
