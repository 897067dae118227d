// Recorded engine streams (test/fixtures/recorded/*.json): what the engine reported about one pod,
// in order, with the wall-clock time of each report. scripts/record-fixture.ts writes them from a
// live engine; the webview tests replay them through the same PanelFeed the panel host uses.
import type { PodDebugInfo, WatchEvent } from '../../engine/api.js';
import type { HostToWebview } from '../../shared/protocol.js';
import { PanelFeed } from './feed.js';

export type RecordedFrame =
  /** A watch event as engine.watch delivered it. */
  | { at: number; watch: WatchEvent }
  /** engine.debugInfo(namespace, name) read at `at` (null: the engine returned undefined). */
  | { at: number; debug: PodDebugInfo | null };

export interface RecordedStream {
  description: string;
  /** "recorded" by scripts/record-fixture.ts from a real engine run, or "hand-built" from the spec. */
  source: 'recorded' | 'hand-built';
  recordedAt?: string;
  namespace: string;
  name: string;
  /** The manifest that was run, for reference. */
  manifest?: unknown;
  frames: RecordedFrame[];
  /** Log lines of every attempt, by container id (engine.attemptLogs at the end of the recording). */
  logs?: Record<string, string[]>;
}

/**
 * Replays frames through a PanelFeed as the host would: the webview is ready from the start and
 * every frame is followed by a flush. Returns the messages the host would post (the first is a
 * snapshot), each with the frame time it was built at. `until` stops at frames after that time.
 */
export function replay(stream: RecordedStream, until = Number.POSITIVE_INFINITY): { at: number; message: HostToWebview }[] {
  const feed = new PanelFeed(stream.namespace, stream.name);
  feed.resetWebview();
  const out: { at: number; message: HostToWebview }[] = [];
  for (const f of stream.frames) {
    if (f.at > until) break;
    if ('watch' in f) feed.onWatch(f.watch, f.at, f.at);
    else feed.setDebug(f.debug ?? undefined);
    const m = feed.next(f.at);
    if (m) out.push({ at: f.at, message: m });
  }
  return out;
}

/** The observation state after replaying frames up to `until` (for assertions on the model). */
export function replayFeed(stream: RecordedStream, until = Number.POSITIVE_INFINITY): PanelFeed {
  const feed = new PanelFeed(stream.namespace, stream.name);
  for (const f of stream.frames) {
    if (f.at > until) break;
    if ('watch' in f) feed.onWatch(f.watch, f.at, f.at);
    else feed.setDebug(f.debug ?? undefined);
  }
  return feed;
}
