// Image pull progress: Docker reports per-layer progress (the kubelet cannot), shown as one
// notification per image with the overall fraction and the busiest layer.
import * as vscode from 'vscode';
import type { PullProgress } from '../runtime/cri.js';
import type { Lab } from './lab.js';
import { pullFraction, pullMessage, type Layer } from './pullModel.js';

interface PullUi {
  layers: Map<string, Layer>;
  lastStatus: string;
  reported: number;
  report?: (v: { message?: string; increment?: number }) => void;
  finish: () => void;
  idle?: NodeJS.Timeout;
}

const IDLE_MS = 15000;

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
