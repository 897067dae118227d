// The host side of one panel's update stream, without I/O or timers: it folds engine watch events
// and debug info into the observation, turns the view model into snapshot/patch messages with
// sequence numbers, and measures the latency from an engine event to the webview's `rendered`
// acknowledgement. The manager drives it with real time; tests and fixture replays drive it by hand.
import type { PodDebugInfo, WatchEvent, KEvent } from '../../engine/api.js';
import { PANEL_SECTIONS, diffModel, type HostToWebview, type PanelModel, patchedSections, type PanelSection } from '../../shared/protocol.js';
import type { ObjectLookup } from '../../engine/kubelet/env.js';
import { buildPanelModel, newObservation, observe, withDebug, withEvents, type PodObservation } from './model.js';

export interface Latency {
  seq: number;
  /** Milliseconds from the first engine event folded into this update to the webview's acknowledgement. */
  ms: number;
  sections: PanelSection[];
}

export class PanelFeed {
  private obs: PodObservation;
  private seq = 0;
  /** What the webview has (undefined: it needs a snapshot). */
  private sent: PanelModel | undefined;
  /** Monotonic time of the first engine event not yet posted. */
  private dirtySince: number | undefined;
  private dirty = true;
  private readonly inflight = new Map<number, { eventAt?: number; sections: PanelSection[] }>();

  /** `startSeq`: the sequence numbers go on from another feed's (the panel switched pods). */
  constructor(namespace: string, name: string, startSeq = 0) {
    this.obs = newObservation(namespace, name);
    this.seq = startSeq;
  }

  get observation(): PodObservation {
    return this.obs;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Whether there is something the webview has not seen. */
  get pending(): boolean {
    return this.dirty || this.sent === undefined;
  }

  /** The lab's ConfigMaps and Secrets, so the environment shows values, not only sources. */
  setLookup(lookup: ObjectLookup): void {
    this.obs = { ...this.obs, lookup };
    this.dirty = true;
  }

  /** Folds a watch event; `mono` is a monotonic clock reading (performance.now()). Returns whether it concerned this pod. */
  onWatch(e: WatchEvent, now: number, mono: number): boolean {
    if ((e.kind === 'ConfigMap' || e.kind === 'Secret') && this.obs.lookup && e.object.metadata?.namespace === this.obs.namespace) {
      // A ConfigMap or Secret of the pod's namespace changed: its values may be in the environment.
      this.obs = { ...this.obs };
      this.dirty = true;
      this.dirtySince ??= mono;
      return true;
    }
    const next = observe(this.obs, e, now);
    if (next === this.obs) return false;
    this.obs = next;
    this.dirty = true;
    this.dirtySince ??= mono;
    return true;
  }

  /** Seeds the pod and its events (for a panel opened on an existing pod). */
  seed(pod: WatchEvent | undefined, events: KEvent[], now: number): void {
    if (pod) this.obs = observe(this.obs, pod, now);
    this.obs = withEvents(this.obs, events);
    this.dirty = true;
  }

  setDebug(debug: PodDebugInfo | undefined): void {
    const next = withDebug(this.obs, debug);
    if (JSON.stringify(next.debug) === JSON.stringify(this.obs.debug)) return;
    this.obs = next;
    this.dirty = true;
  }

  /** The webview (re)loaded or lost track: the next message is a full snapshot. */
  resetWebview(): void {
    this.sent = undefined;
    this.dirty = true;
  }

  /**
   * The message to post now, if any: a snapshot when the webview has nothing, else a patch of the
   * sections that changed. `now` is the wall clock (epoch ms) the model is built at.
   */
  next(now: number): HostToWebview | undefined {
    if (!this.pending) return undefined;
    const model = buildPanelModel(this.obs, now);
    const eventAt = this.dirtySince;
    this.dirty = false;
    this.dirtySince = undefined;
    if (this.sent === undefined) {
      this.sent = model;
      const seq = ++this.seq;
      this.track(seq, eventAt, [...PANEL_SECTIONS]);
      return { type: 'snapshot', seq, model };
    }
    const changes = diffModel(this.sent, model);
    if (!changes) return undefined;
    const baseSeq = this.seq;
    const seq = ++this.seq;
    this.sent = model;
    this.track(seq, eventAt, patchedSections(changes));
    return { type: 'patch', seq, baseSeq, changes };
  }

  private track(seq: number, eventAt: number | undefined, sections: PanelSection[]): void {
    this.inflight.set(seq, { eventAt, sections });
    // Unacknowledged updates (webview hidden or reloading) must not pile up.
    for (const k of this.inflight.keys()) if (k < seq - 100) this.inflight.delete(k);
  }

  /** The webview painted update `seq` at monotonic time `mono`: the latency when an engine event caused it. */
  onRendered(seq: number, mono: number): Latency | undefined {
    const t = this.inflight.get(seq);
    if (!t) return undefined;
    this.inflight.delete(seq);
    for (const k of this.inflight.keys()) if (k < seq) this.inflight.delete(k);
    if (t.eventAt === undefined) return undefined;
    return { seq, ms: mono - t.eventAt, sections: t.sections };
  }
}
