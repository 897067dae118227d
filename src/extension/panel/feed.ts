// The host side of one panel's update stream, without I/O or timers: it folds engine watch events
// and debug info into the observation, turns the view model into snapshot/patch messages with
// sequence numbers, and measures the latency from an engine event to the webview's `rendered`
// acknowledgement. The manager drives it with real time; tests and fixture replays drive it by hand.
// LogChunks does the same for followed logs (the kubelet's `kubectl logs -f` stream,
// pkg/kubelet/kuberuntime/logs): it numbers the streams and batches their lines into `logChunk`s.
import type { PodDebugInfo, WatchEvent, KEvent } from '../../engine/api.js';
import {
  PANEL_SECTIONS,
  diffModel,
  type HostToWebview,
  type LogChunkMessage,
  type PanelModel,
  patchedSections,
  type PanelSection,
} from '../../shared/protocol.js';
import type { ObjectLookup } from '../../engine/kubelet/env.js';
import { buildPanelModel, newObservation, observe, withDebug, withEvents, type PodObservation } from './model.js';

export interface Latency {
  seq: number;
  /** Milliseconds from the first engine event folded into this update to the webview's acknowledgement. */
  ms: number;
  /** Milliseconds from that event to the frame the webview painted it in (when the webview said when). */
  paintedMs?: number;
  sections: PanelSection[];
  /** The containers as this update shows them (`name state#restarts`, see containersShown), to match runtime events against. */
  containers: string;
}

/** The containers of a model as `name state#restarts` (a waiting state with its reason: `waiting:CrashLoopBackOff#2`), comma-separated. */
export function containersShown(model: PanelModel): string {
  return model.containers.map((c) => `${c.name} ${c.state.kind}${c.state.kind === 'waiting' && c.state.reason ? `:${c.state.reason}` : ''}#${c.restartCount}`).join(', ');
}

export class PanelFeed {
  private obs: PodObservation;
  private seq = 0;
  /** What the webview has (undefined: it needs a snapshot). */
  private sent: PanelModel | undefined;
  /** Monotonic time of the first engine event not yet posted. */
  private dirtySince: number | undefined;
  private dirty = true;
  private readonly inflight = new Map<number, { eventAt?: number; sections: PanelSection[]; containers: string }>();

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

  /** Monotonic time of the first engine event not yet posted. */
  get pendingSince(): number | undefined {
    return this.dirtySince;
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

  /** The API client lost its connection to the lab server or a cluster (why), or has it again (undefined): said in the header. */
  setConnection(problem: string | undefined, to: 'lab server' | 'cluster'): void {
    if (problem === this.obs.connectionLost && to === this.obs.connectionTo) return;
    this.obs = { ...this.obs, connectionLost: problem, connectionTo: to };
    this.dirty = true;
  }

  /** The lab's simulated nodes, by name (a pod on one gets the panel's "simulated" notice). */
  setSimulatedNodes(names: readonly string[]): void {
    if (JSON.stringify(names) === JSON.stringify(this.obs.simulatedNodes ?? [])) return;
    this.obs = { ...this.obs, simulatedNodes: [...names] };
    this.dirty = true;
  }

  /** Whether the debug watch delivered anything yet (its first delivery is the current state, not a change). */
  private debugSeen = false;

  /**
   * The kubelet's debug state (from the PodDebug watch); `mono`: when it arrived. A change is an
   * engine event like a pod's; the watch's first delivery is the state when the panel started
   * following the pod (it opened, or switched to this pod), no sample.
   */
  setDebug(debug: PodDebugInfo | undefined, mono?: number): void {
    const first = !this.debugSeen;
    this.debugSeen = true;
    const next = withDebug(this.obs, debug);
    if (JSON.stringify(next.debug) === JSON.stringify(this.obs.debug)) return;
    this.obs = next;
    this.dirty = true;
    if (mono !== undefined && !first) this.dirtySince ??= mono;
  }

  /**
   * The webview (re)loaded or lost track: the next message is a full snapshot. Engine events that
   * arrived before this are no latency sample: the snapshot's delay is the webview's own load (or
   * the time it was hidden), not the panel's reaction to the engine.
   */
  resetWebview(): void {
    this.sent = undefined;
    this.dirty = true;
    this.dirtySince = undefined;
  }

  /**
   * The message to post now, if any: a snapshot when the webview has nothing, else a patch of the
   * sections that changed. `now` is the wall clock (epoch ms) the model is built at.
   */
  next(now: number): Extract<HostToWebview, { type: 'snapshot' | 'patch' }> | undefined {
    if (!this.pending) return undefined;
    const model = buildPanelModel(this.obs, now);
    const eventAt = this.dirtySince;
    this.dirty = false;
    this.dirtySince = undefined;
    if (this.sent === undefined) {
      this.sent = model;
      const seq = ++this.seq;
      this.track(seq, eventAt, [...PANEL_SECTIONS], model);
      return { type: 'snapshot', seq, model };
    }
    const changes = diffModel(this.sent, model);
    if (!changes) return undefined;
    const baseSeq = this.seq;
    const seq = ++this.seq;
    this.sent = model;
    this.track(seq, eventAt, patchedSections(changes), model);
    return { type: 'patch', seq, baseSeq, changes };
  }

  private track(seq: number, eventAt: number | undefined, sections: PanelSection[], model: PanelModel): void {
    this.inflight.set(seq, { eventAt, sections, containers: containersShown(model) });
    // Unacknowledged updates (webview hidden or reloading) must not pile up.
    for (const k of this.inflight.keys()) if (k < seq - 100) this.inflight.delete(k);
  }

  /** The last update the webview acknowledged, whether or not an engine event caused it. */
  lastShown: { seq: number; containers: string; sections: PanelSection[] } | undefined;

  /**
   * The webview acknowledged update `seq` at monotonic time `mono`, having painted it at
   * `paintedMono` (its frame's time on the same monotonic clock): the latency when an engine event caused it.
   */
  onRendered(seq: number, mono: number, paintedMono?: number): Latency | undefined {
    const t = this.inflight.get(seq);
    if (!t) return undefined;
    this.lastShown = { seq, containers: t.containers, sections: t.sections };
    this.inflight.delete(seq);
    for (const k of this.inflight.keys()) if (k < seq) this.inflight.delete(k);
    if (t.eventAt === undefined) return undefined;
    return { seq, ms: mono - t.eventAt, ...(paintedMono === undefined ? {} : { paintedMs: paintedMono - t.eventAt }), sections: t.sections, containers: t.containers };
  }
}

/** How long lines of a followed log wait for more before they are posted (one post per ~50 ms, not per line). */
export const LOG_BATCH_MS = 50;

/**
 * The host's followed log streams, without I/O or timers: stream ids, the lines not yet posted,
 * whether the stream's id has reached the webview (its `followLogs` reply went out: no chunk may
 * come before it), and whether the stream ended. The manager pushes lines as the engine delivers
 * them and calls `take()` every LOG_BATCH_MS while `pending`.
 */
export class LogChunks {
  private nextId = 1;
  private readonly streams = new Map<number, { lines: string[]; replied: boolean; ended: boolean }>();

  /** A new stream; its id for the `followLogs` reply. */
  open(): number {
    const id = this.nextId++;
    this.streams.set(id, { lines: [], replied: false, ended: false });
    return id;
  }

  /** Whether the stream is open (neither closed nor ended and delivered). */
  has(id: number): boolean {
    return this.streams.has(id);
  }

  /** Open streams' ids, oldest first. */
  get ids(): number[] {
    return [...this.streams.keys()];
  }

  /** A line the engine delivered. False when the stream is not open (closed meanwhile) or already ended. */
  push(id: number, line: string): boolean {
    const s = this.streams.get(id);
    if (!s || s.ended) return false;
    s.lines.push(line);
    return true;
  }

  /** The engine ended the stream (the container finished): the next chunk says so, and is the last. */
  end(id: number): boolean {
    const s = this.streams.get(id);
    if (!s || s.ended) return false;
    s.ended = true;
    return true;
  }

  /** The stream's id reached the webview: its chunks may go out. */
  replied(id: number): void {
    const s = this.streams.get(id);
    if (s) s.replied = true;
  }

  /** Forgets the stream and its unposted lines (stopLogs, pod switch, webview reload, dispose). */
  close(id: number): boolean {
    return this.streams.delete(id);
  }

  /** Whether take() has something to post. */
  get pending(): boolean {
    for (const s of this.streams.values()) if (s.replied && (s.lines.length > 0 || s.ended)) return true;
    return false;
  }

  /** One chunk per replied stream with new lines or its end; ended streams are forgotten once their end is taken. */
  take(): LogChunkMessage[] {
    const out: LogChunkMessage[] = [];
    for (const [stream, s] of this.streams) {
      if (!s.replied || (s.lines.length === 0 && !s.ended)) continue;
      out.push(s.ended ? { type: 'logChunk', stream, lines: s.lines, ended: true } : { type: 'logChunk', stream, lines: s.lines });
      s.lines = [];
      if (s.ended) this.streams.delete(stream);
    }
    return out;
  }
}
