// `podlab run --logs`: the thin shell that reads the logs pod-logs.ts decides on — a follow stream
// for a running instance (EngineApi.followLogs), one read by id for a finished one
// (EngineApi.attemptLogs) — and prints each line labelled with its container, as `docker compose up`
// prints its services' output. Counterpart of docker compose's log printer (compose
// pkg/compose/printer.go); the decisions are kubectl-free, see pod-logs.ts.
import type { Pod } from 'kubernetes-types/core/v1';
import type { EngineApi } from '../engine/api.js';
import type { Disposable } from '../runtime/cri.js';
import { labelWidth, logJsonLine, logLabel, logLine, logsToDrain, logsToStart, type LogStart } from './pod-logs.js';

type Io = { out: (s: string) => void; err: (s: string) => void };

interface PodLogState {
  uid: string;
  started: Map<string, string>;
  open: Set<string>;
  streams: Set<Disposable>;
}

/** Follows the logs of the pods `run` watches; fed with every change of those pods. */
export class RunLogs {
  private readonly pods = new Map<string, PodLogState>();
  private readonly width: number;
  private readonly several: boolean;
  private closed = false;
  private changed?: () => void;

  constructor(
    private readonly engine: Pick<EngineApi, 'followLogs' | 'attemptLogs' | 'getPod'>,
    manifests: readonly Pod[],
    private readonly io: Io,
    private readonly json: boolean,
  ) {
    this.width = labelWidth(manifests);
    this.several = manifests.length > 1;
  }

  private stateOf(pod: Pod): PodLogState {
    const key = `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
    const uid = pod.metadata?.uid ?? '';
    let s = this.pods.get(key);
    if (!s || s.uid !== uid) {
      // A new pod of the same name: its containers are new instances.
      if (s) for (const d of s.streams) d.dispose();
      s = { uid, started: new Map(), open: new Set(), streams: new Set() };
      this.pods.set(key, s);
    }
    return s;
  }

  /** A change of a watched pod: start reading the logs that became readable. */
  update(pod: Pod): void {
    if (this.closed) return;
    const s = this.stateOf(pod);
    for (const start of logsToStart(pod, s)) this.start(pod, s, start);
  }

  private start(pod: Pod, s: PodLogState, l: LogStart): void {
    const ns = pod.metadata?.namespace ?? 'default';
    const name = pod.metadata?.name ?? '';
    s.started.set(l.container, l.containerID);
    s.open.add(l.container);
    const label = logLabel(name, l.container, this.several);
    const print = (line: string) => {
      if (this.closed) return;
      this.io.out(this.json ? logJsonLine(ns, name, l.container, l.containerID, line) : logLine(label, Math.max(this.width, label.length), line));
    };
    let ended = false;
    let stream: Disposable | undefined;
    const end = () => {
      if (ended) return;
      ended = true;
      s.open.delete(l.container);
      if (stream) s.streams.delete(stream);
      if (this.closed) return;
      // What this log held back may start now; a drain may be complete.
      const current = this.engine.getPod(ns, name);
      if (current && current.metadata?.uid === s.uid) this.update(current);
      this.changed?.();
    };
    const failed = (e: unknown) => {
      if (!this.closed) this.io.err(`podlab: the log of container ${l.container} of pod ${name}: ${(e as Error).message}\n`);
      end();
    };
    if (l.running) {
      this.engine.followLogs(ns, name, l.container, print, { onEnd: end }).then((d) => {
        if (this.closed) d.dispose();
        else if (!ended) s.streams.add((stream = d));
      }, failed);
    } else {
      this.engine.attemptLogs(l.containerID.replace(/^[a-z-]+:\/\//, '')).then((lines) => {
        for (const line of lines) print(line);
        end();
      }, failed);
    }
  }

  /**
   * Resolves when the logs of the finished containers have been read to their end (a running
   * container's stream stays open), or after `timeoutMs`.
   */
  drain(timeoutMs: number): Promise<void> {
    const pending = () =>
      [...this.pods.entries()].some(([key, s]) => {
        const [ns, name] = key.split('/') as [string, string];
        const pod = this.engine.getPod(ns, name);
        return logsToDrain(pod && pod.metadata?.uid === s.uid ? pod : undefined, s).length > 0;
      });
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.changed = undefined;
        resolve();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.changed = () => {
        if (!pending()) finish();
      };
      this.changed();
    });
  }

  /** Stops every stream; no line is printed after this. */
  dispose(): void {
    this.closed = true;
    this.changed = undefined;
    for (const s of this.pods.values()) for (const d of s.streams) d.dispose();
    this.pods.clear();
  }
}
