// Which process runs a pod's kubelet worker (a Pod Lab arrangement with no upstream counterpart,
// until the lab server owns every pod): an `owner` pid file per pod directory, and deletion
// requests from other processes as files in <stateDir>/requests.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { podDir } from './kubelet/sandbox.js';

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class PodOwnership {
  readonly owned = new Set<string>();
  private watcher?: FSWatcher;

  constructor(
    private readonly stateDir: string,
    private readonly log: (line: string) => void,
  ) {
    mkdirSync(join(stateDir, 'requests'), { recursive: true });
  }

  /** The live process that owns the pod, if any. */
  ownerPid(uid: string): number | undefined {
    const file = join(podDir(this.stateDir, uid), 'owner');
    if (!existsSync(file)) return undefined;
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return pidAlive(pid) ? pid : undefined;
  }

  /** Takes ownership of a pod whose owner is gone. */
  tryClaim(uid: string): boolean {
    if (!uid) return false;
    const pid = this.ownerPid(uid);
    if (pid !== undefined && pid !== process.pid) return false;
    mkdirSync(podDir(this.stateDir, uid), { recursive: true });
    writeFileSync(join(podDir(this.stateDir, uid), 'owner'), String(process.pid));
    this.owned.add(uid);
    return true;
  }

  release(uid: string): void {
    if (!this.owned.delete(uid)) return;
    const file = join(podDir(this.stateDir, uid), 'owner');
    try {
      if (readFileSync(file, 'utf8') === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  }

  releaseAll(): void {
    for (const uid of [...this.owned]) this.release(uid);
  }

  /** Asks the owner process to delete the pod. */
  requestDeletion(uid: string, grace: number): void {
    writeFileSync(join(this.stateDir, 'requests', `${uid}.json`), JSON.stringify({ grace }));
  }

  /** Deletion requests for pods owned here, as they arrive. */
  watchRequests(onRequest: (uid: string, grace: number | undefined) => void): void {
    const dir = join(this.stateDir, 'requests');
    const handle = () => {
      for (const f of readdirSync(dir)) {
        const uid = f.replace(/\.json$/, '');
        if (!this.owned.has(uid)) continue;
        let grace: number | undefined;
        try {
          grace = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { grace?: number }).grace;
        } catch {
          grace = undefined;
        }
        rmSync(join(dir, f), { force: true });
        onRequest(uid, grace);
      }
    };
    try {
      this.watcher = watch(dir, () => handle());
      this.watcher.unref?.();
      handle();
    } catch (e) {
      this.log(`cannot watch ${dir}: ${(e as Error).message}`);
    }
  }

  close(): void {
    this.watcher?.close();
    this.releaseAll();
  }
}
