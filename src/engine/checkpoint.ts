// Adoption (the counterpart of dockershim's sandbox checkpoint): the store's journal keeps pods,
// statuses and events; a pod the store lacks (its journal lost) is rebuilt from the sandbox that
// carries its manifest, with a status generated from the runtime.
import type { Pod } from 'kubernetes-types/core/v1';
import type { RuntimeService } from '../runtime/cri.js';
import * as L from '../shared/labels.js';
import type { Store } from './store.js';
import { readRuntimePod } from './kubelet/runtime-status.js';
import { generatePodStatus } from './kubelet/status.js';
import type { DeepMutable } from './mutable.js';

/**
 * Adds to the store the lab's pods it lacks: one pod per uid, from the newest sandbox's manifest,
 * with a status generated from the runtime.
 */
export async function adoptFromRuntime(opts: {
  runtime: RuntimeService;
  store: Store;
  stateDir: string;
  now: number;
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
    if (store.get('Pod', pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '')) continue;
    const rs = await readRuntimePod(runtime, pod as Pod, async (c) => c.message);
    pod.status = generatePodStatus({ pod: pod as Pod, runtime: rs, reasonCache: new Map(), podIsTerminal: !!pod.metadata?.deletionTimestamp, now: opts.now });
    store.create('Pod', pod as Pod);
  }
}
