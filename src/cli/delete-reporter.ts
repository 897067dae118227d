// `podlab delete`'s progress reporter: the thin shell over delete-progress.ts. It watches the pods
// being deleted (EngineApi.watch) and, on a terminal (stderr a TTY), keeps one line per pod up to
// date in place, ticking every second; elsewhere it prints one line per pod when the pod starts
// waiting for its containers to stop. The `pod "x" deleted` lines stay the command's stdout.
// No kubectl counterpart (kubectl delete waits silently: staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go).
import type { Pod } from 'kubernetes-types/core/v1';
import type { EngineApi } from '../engine/api.js';
import { deletionProgress, isWaitingLine, redraw } from './delete-progress.js';

export interface Terminal {
  columns: number;
}

export class DeletionReporter {
  private readonly pods = new Map<string, Pod | undefined>();
  private readonly announced = new Set<string>();
  private shown = 0;
  private rendered = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly sub: { dispose(): void };

  /** `terminal`: stderr is a terminal of that width (in-place updates); undefined: plain lines. */
  constructor(
    private readonly engine: Pick<EngineApi, 'watch' | 'getPod'>,
    private readonly err: (s: string) => void,
    private readonly terminal: Terminal | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.sub = engine.watch((e) => {
      if (e.kind !== 'Pod' || e.type === 'DELETED') return;
      const key = `${e.object.metadata?.namespace ?? 'default'}/${e.object.metadata?.name ?? ''}`;
      if (!this.pods.has(key)) return;
      this.pods.set(key, e.object);
      this.show();
    });
    if (terminal) {
      this.timer = setInterval(() => this.show(), 1000);
      this.timer.unref();
    }
  }

  /** Starts reporting on a pod about to be deleted. */
  track(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    this.pods.set(key, this.engine.getPod(namespace, name));
    this.show();
  }

  /** The pod is gone (or its deletion failed): its progress line goes away. */
  finished(namespace: string, name: string): void {
    this.pods.delete(`${namespace}/${name}`);
    this.show();
  }

  /** Output of the command's own (stdout) while lines may be shown: written above them, never overwritten. */
  above(print: () => void): void {
    if (this.terminal && this.shown) {
      this.err(redraw(this.shown, [], this.terminal.columns));
      this.shown = 0;
      this.rendered = '';
    }
    print();
    this.show();
  }

  private show(): void {
    const now = this.now();
    const lines: string[] = [];
    for (const [key, pod] of this.pods) {
      const line = pod ? deletionProgress(pod, now) : undefined;
      if (!line) continue;
      lines.push(line);
      if (!this.terminal && isWaitingLine(line) && !this.announced.has(key)) {
        this.announced.add(key);
        this.err(`${line}\n`);
      }
    }
    if (!this.terminal) return;
    const text = lines.join('\n');
    if (text === this.rendered) return;
    this.err(redraw(this.shown, lines, this.terminal.columns));
    this.shown = lines.length;
    this.rendered = text;
  }

  /** Stops watching; a line still shown is erased. */
  dispose(): void {
    this.sub.dispose();
    if (this.timer) clearInterval(this.timer);
    if (this.terminal && this.shown) this.err(redraw(this.shown, [], this.terminal.columns));
    this.shown = 0;
    this.pods.clear();
  }
}
