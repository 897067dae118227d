// Step mode in the extension (a Pod Lab feature, no upstream counterpart): which pods the kubelet
// holds before an init container, from the lab API's poddebugs watch of each step-mode pod (the
// annotation lab.podlab.dev/step-mode, whoever created the pod: this window, the CLI or kubectl).
// The tree shows the pause; a notification offers Continue while the init container is held and
// closes by itself when the hold ends (Continue from anywhere, the pod deleted or finished). The
// notification comes VIEWS_FOLLOW_MS after the hold, the tree's redraw within that time (with the
// views' next one), as the views follow a pod change.
import * as vscode from 'vscode';
import type { EngineApi } from '../engine/api.js';
import { stepModePods } from './podModel.js';
import { VIEWS_FOLLOW_MS, type Lab } from './lab.js';
import { noticeWhileSlow } from './slow-notice.js';

export class StepModeWatch implements vscode.Disposable {
  /** pod uid → the init container held, for pods being held now. */
  private readonly waiting = new Map<string, string>();
  /** pod uid → resolves the `released` promise handed to onHeld for the current hold. */
  private readonly release = new Map<string, () => void>();
  private readonly watches = new Map<string, { dispose(): void }>();
  private fireTimer: NodeJS.Timeout | undefined;
  /** The engine the watches were opened on (a reconnect brings another). */
  private engine: EngineApi | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fired when a pod starts or stops being held. */
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly lab: Lab,
    private readonly onHeld: (engine: EngineApi, namespace: string, name: string, container: string, released: Promise<void>) => void,
  ) {
    lab.push(this, lab.onDidChangePods(() => this.sync()));
  }

  get held(): ReadonlyMap<string, string> {
    return this.waiting;
  }

  private sync(): void {
    const engine = this.lab.engineIfStarted;
    if (engine !== this.engine) {
      for (const w of this.watches.values()) w.dispose();
      this.watches.clear();
      this.engine = engine;
      for (const uid of [...this.release.keys()]) this.released(uid);
      if (this.waiting.size) {
        this.waiting.clear();
        this.changed();
      }
    }
    if (!engine) return;
    const wanted = new Map(stepModePods(engine.listPods(), engine.settings.stepMode).map((p) => [p.metadata?.uid ?? '', p] as const));
    for (const [uid, w] of this.watches) {
      if (wanted.has(uid)) continue;
      w.dispose();
      this.watches.delete(uid);
      this.released(uid);
      if (this.waiting.delete(uid)) this.changed();
    }
    for (const [uid, pod] of wanted) {
      if (!uid || this.watches.has(uid)) continue;
      const ns = pod.metadata?.namespace ?? 'default';
      const name = pod.metadata?.name ?? '';
      this.watches.set(
        uid,
        engine.watchDebug(ns, name, (info) => {
          if (info && info.uid !== uid) return;
          const now = info?.stepWaitingFor;
          if (now === this.waiting.get(uid)) return;
          this.released(uid);
          if (now) this.waiting.set(uid, now);
          else this.waiting.delete(uid);
          this.changed();
          if (!now) return;
          // Announced a moment later, as the views follow a change (a hold released meanwhile never is).
          const released = new Promise<void>((r) => this.release.set(uid, r));
          void noticeWhileSlow(released, VIEWS_FOLLOW_MS, (until) => this.onHeld(engine, ns, name, now, until));
        }),
      );
    }
  }

  private released(uid: string): void {
    this.release.get(uid)?.();
    this.release.delete(uid);
  }

  /** Tells the views within VIEWS_FOLLOW_MS (one redraw for the changes meanwhile). */
  private changed(): void {
    if (this.fireTimer) return;
    this.fireTimer = setTimeout(() => {
      this.fireTimer = undefined;
      this.emitter.fire();
    }, VIEWS_FOLLOW_MS);
  }

  dispose(): void {
    clearTimeout(this.fireTimer);
    for (const uid of [...this.release.keys()]) this.released(uid);
    for (const w of this.watches.values()) w.dispose();
    this.watches.clear();
    this.emitter.dispose();
  }
}

/**
 * The notification while a step-mode pod is held: a progress notification (the only kind an
 * extension can close) with Continue and Show Lifecycle as command links; it closes when the hold
 * ends. Not cancellable: a Cancel button (VS Code's word, which cannot be changed) read as if it
 * cancelled the step, and only closed the notice. VS Code shows the title and the message as
 * `title: message`, so the title has no full stop of its own.
 */
export function announceHeld() {
  return (_engine: EngineApi, namespace: string, name: string, container: string, released: Promise<void>): void => {
    const arg = encodeURIComponent(JSON.stringify([{ namespace, name }]));
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Pod Lab step mode (a lab feature): pod "${name}" is paused before init container "${container}"`, cancellable: false },
      (progress) => {
        progress.report({ message: `[Continue](command:podlab.continueStep?${arg}) · [Show Lifecycle](command:podlab.showLifecycle?${arg})` });
        return released;
      },
    );
  };
}
