// Image pull progress: Docker reports per-layer progress (the kubelet cannot), shown as one
// notification per image with the overall fraction and the busiest layer.
import * as vscode from 'vscode';
import type { PullProgress } from '../runtime/cri.js';
import type { Lab } from './lab.js';

interface Layer {
  status: string;
  current?: number;
  total?: number;
}

interface PullUi {
  layers: Map<string, Layer>;
  lastStatus: string;
  reported: number;
  report?: (v: { message?: string; increment?: number }) => void;
  finish: () => void;
  idle?: NodeJS.Timeout;
}

const IDLE_MS = 15000;

/** Overall fraction (0..1) of a pull from its layers' byte counts. */
export function pullFraction(layers: Iterable<Layer>): number {
  let cur = 0;
  let tot = 0;
  let done = 0;
  let n = 0;
  for (const l of layers) {
    n++;
    if (/^(Pull complete|Already exists|Download complete)$/.test(l.status)) {
      done++;
      continue;
    }
    if (l.total && l.total > 0) {
      cur += Math.min(l.current ?? 0, l.total);
      tot += l.total;
    }
  }
  if (n === 0) return 0;
  const byteShare = tot > 0 ? cur / tot : 0;
  return Math.min(1, (done + byteShare * (n - done)) / n);
}

function mb(n: number | undefined): string {
  return n === undefined ? '?' : (n / 1e6).toFixed(1);
}

export function pullMessage(image: string, layers: Map<string, Layer>, lastStatus: string): string {
  const total = layers.size;
  const done = [...layers.values()].filter((l) => /^(Pull complete|Already exists)$/.test(l.status)).length;
  const active = [...layers.entries()].find(([, l]) => l.status === 'Downloading' || l.status === 'Extracting');
  const layerPart = total > 0 ? ` — ${done}/${total} layers` : '';
  const activePart = active ? ` · ${active[0].slice(0, 12)} ${active[1].status} ${mb(active[1].current)}/${mb(active[1].total)} MB` : lastStatus ? ` · ${lastStatus}` : '';
  return `${image}${layerPart}${activePart}`;
}

export function watchPulls(lab: Lab, onPullProgress: (l: (p: PullProgress & { pod: string }) => void) => { dispose(): void }): vscode.Disposable {
  const pulls = new Map<string, PullUi>();
  const sub = onPullProgress((p) => {
    const key = p.image;
    let ui = pulls.get(key);
    if (!ui) {
      const created: PullUi = { layers: new Map(), lastStatus: '', reported: 0, finish: () => undefined };
      ui = created;
      pulls.set(key, created);
      lab.log(`pulling ${p.image} for pod ${p.pod}`);
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Pod Lab: pulling image ${p.image}`, cancellable: false },
        (progress) =>
          new Promise<void>((resolve) => {
            created.report = (v) => progress.report(v);
            created.finish = () => {
              if (created.idle) clearTimeout(created.idle);
              pulls.delete(key);
              resolve();
            };
          }),
      );
    }
    if (p.layer) ui.layers.set(p.layer, { status: p.status, current: p.current, total: p.total });
    else ui.lastStatus = p.status;
    const pct = Math.round(pullFraction(ui.layers.values()) * 100);
    const inc = Math.max(0, pct - ui.reported);
    ui.reported += inc;
    ui.report?.({ message: pullMessage(p.image, ui.layers, ui.lastStatus), increment: inc });
    if (ui.idle) clearTimeout(ui.idle);
    const u = ui;
    if (!p.layer && /^Status:|Downloaded newer image|Image is up to date|error|failed/i.test(p.status)) {
      lab.log(`pull ${p.image}: ${p.status}`);
      u.finish();
    } else {
      u.idle = setTimeout(() => u.finish(), IDLE_MS);
    }
  });
  return {
    dispose: () => {
      sub.dispose();
      for (const u of pulls.values()) u.finish();
    },
  };
}
