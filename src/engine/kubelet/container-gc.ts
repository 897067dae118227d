// Container garbage collection and the attempt archive (upstream
// pkg/kubelet/kuberuntime/kuberuntime_gc.go evictContainers: keep a bounded number of dead
// instances per container). The lab archives an attempt (its exit and its log tail) before the
// runtime forgets it, so every attempt of a failing init container stays inspectable.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeService } from '../../runtime/cri.js';
import type { KContainerStatus, RuntimePodStatus } from './types.js';
import { podDir } from './sandbox.js';

/** Instances kept in the runtime per container name: the current one and the previous (lastState, logs --previous). */
export const KEPT_INSTANCES = 2;
export const ARCHIVED_LOG_LINES = 200;

export interface ArchivedAttempt {
  id: string;
  name: string;
  restartCount: number;
  exitCode: number;
  reason: string;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  logs: string[];
  /** Its log lines begin with the runtime's RFC 3339 timestamp (`logs --timestamps`); older archives kept text only. */
  timestamped?: boolean;
}

const LOG_TIMESTAMP = /^\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d) /;

/** A log line without the runtime's leading timestamp (a line without one is left as it is). */
export function withoutTimestamp(line: string): string {
  const m = LOG_TIMESTAMP.exec(line);
  return m ? line.slice(m[0].length) : line;
}

/** An archived attempt's log tail, with the runtime's timestamps or without (kubectl logs [--timestamps]). */
export function archivedLogs(a: ArchivedAttempt, opts: { tail?: number; timestamps?: boolean } = {}): string[] {
  const lines = opts.tail ? a.logs.slice(-opts.tail) : a.logs;
  return a.timestamped && !opts.timestamps ? lines.map(withoutTimestamp) : lines;
}

/** Which exited instances the GC removes: all but the newest KEPT_INSTANCES of each name (pure). */
export function instancesToEvict(rs: RuntimePodStatus): KContainerStatus[] {
  const seen = new Map<string, number>();
  const out: KContainerStatus[] = [];
  for (const c of rs.containers) {
    const n = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, n);
    if (n > KEPT_INSTANCES && c.state === 'exited') out.push(c);
  }
  return out;
}

function archiveAttempt(stateDir: string, uid: string, c: KContainerStatus, logs: string[]): void {
  const dir = join(podDir(stateDir, uid), 'attempts');
  mkdirSync(dir, { recursive: true });
  const a: ArchivedAttempt = { id: c.id, name: c.name, restartCount: c.restartCount, exitCode: c.exitCode, reason: c.reason, createdAt: c.createdAt, startedAt: c.startedAt, finishedAt: c.finishedAt, logs, timestamped: true };
  writeFileSync(join(dir, `${c.id}.json`), JSON.stringify(a));
}

/** Archives then removes the evicted instances; returns the removed ids. */
export async function evictContainers(rt: RuntimeService, stateDir: string, rs: RuntimePodStatus): Promise<string[]> {
  const removed: string[] = [];
  for (const c of instancesToEvict(rs)) {
    // with the runtime's timestamps, so the archived attempt can be read with or without them
    const logs = await rt.containerLogs(c.id, { tail: ARCHIVED_LOG_LINES, timestamps: true }).catch(() => [] as string[]);
    archiveAttempt(stateDir, rs.uid, c, logs);
    await rt.removeContainer(c.id).catch(() => undefined);
    removed.push(c.id);
  }
  return removed;
}

/** Attempts removed from the runtime by the container GC, oldest first. */
export function readArchivedAttempts(stateDir: string, uid: string): ArchivedAttempt[] {
  const dir = join(podDir(stateDir, uid), 'attempts');
  if (!existsSync(dir)) return [];
  const out: ArchivedAttempt[] = [];
  for (const f of readdirSync(dir)) {
    try {
      out.push(JSON.parse(readFileSync(join(dir, f), 'utf8')) as ArchivedAttempt);
    } catch {
      // a half-written archive: skip it
    }
  }
  return out.sort((a, b) => a.createdAt - b.createdAt);
}
