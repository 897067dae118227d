// The lifecycle timeline: one SVG with a time axis (seconds since the pod was created), a phase
// row, the pod's Ready condition, the sandbox, one lane per container (a bar per attempt, back-off
// and step-mode waits drawn as dashed bars, lifecycle hooks as spans along the bar's top, and one
// strip per probe below it with a tick per run — tall and red for a failure — and a diamond where
// the verdict changed) and a row of event markers. Open bars run up to the display clock. Probe
// runs closer than a few pixels are drawn as one mark that says how many runs it stands for.
// While the pod lives the axis runs a little past the clock and grows in steps (liveSpan), so an
// update moves only what changed: each row is drawn through `memo` from the values it shows, and
// the panel keeps the rows whose values did not change.
import type { LaneMark, ProbeType, ReadyMark, TimelineBar, TimelineLane, TimelineMark, TimelineView } from '../src/shared/protocol.js';
import { s } from './dom.js';
import { humanDuration, clockTime } from './format.js';

const STEPS_MS = [
  100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
  7_200_000, 21_600_000, 43_200_000, 86_400_000,
];

/** Tick offsets (ms from `start`) for an axis spanning `span` ms with at most `maxTicks` ticks. */
export function niceTicks(span: number, maxTicks: number): { step: number; ticks: number[] } {
  const step = STEPS_MS.find((st) => span / st <= maxTicks) ?? Math.ceil(span / maxTicks / 86_400_000) * 86_400_000;
  const ticks: number[] = [];
  for (let t = 0; t <= span + 1e-6; t += step) ticks.push(t);
  return { step, ticks };
}

/** Axis label of an offset from the pod's creation: "0s", "+10s", "+1m30s". */
export function tickLabel(offset: number, step: number): string {
  if (offset === 0) return '0s';
  if (step < 1000) return `+${(offset / 1000).toFixed(1)}s`;
  const secs = Math.round(offset / 1000);
  if (secs < 120) return `+${secs}s`;
  const m = Math.floor(secs / 60);
  const r = secs % 60;
  return r === 0 || step >= 60_000 ? `+${humanDuration(offset)}` : `+${m}m${r}s`;
}

/** Spans a live axis takes (s), ×10ⁿ: it grows by at most a third at a time. */
const LIVE_SPANS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8];

/**
 * The span of a live axis that must show `needed` ms: the smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4,
 * 5, 6, 8 (×10ⁿ seconds) that holds it, at least 1 s. The axis keeps its scale until the clock
 * passes its end, and what is drawn always fills at least 75 % of it.
 */
export function liveSpan(needed: number): number {
  if (!(needed > 1000)) return 1000;
  let decade = 1000 * 10 ** Math.floor(Math.log10(needed / 1000));
  for (;;) {
    for (const f of LIVE_SPANS) if (f * decade >= needed) return f * decade;
    decade *= 10;
  }
}

/** Builds a row of the drawing from `sig`, the values it is drawn from (the panel keeps unchanged rows: dom.ts's memo). */
export type RowMemo = (key: string, sig: string, build: () => SVGElement) => SVGElement;

export interface TimelineLayout {
  width: number;
  labelWidth: number;
  laneHeight: number;
}

const PHASE_ROW = 22;
const READY_ROW = 14;
/** Height of one probe strip under a container's bar. */
export const STRIP_H = 12;
/** Probe runs closer than this (px) are drawn as one mark. */
export const MIN_MARK_PX = 3;
const AXIS_ROW = 24;
const EVENT_ROW = 20;
const PAD_RIGHT = 16;

function barText(b: TimelineBar, widthPx: number): string {
  if (widthPx < 28) return '';
  const max = Math.floor(widthPx / 6.5);
  return b.label.length > max ? b.label.slice(0, Math.max(0, max - 1)) + '…' : b.label;
}

const PROBE_TITLE: Record<ProbeType, string> = { liveness: 'Liveness', readiness: 'Readiness', startup: 'Startup' };

/**
 * Merges probe-run marks of one strip that would be drawn less than `minPx` apart into one mark
 * standing for all their runs (failed if any run failed; its text names the last failure).
 * Verdict and hook marks pass through. `x` maps a time to a pixel.
 */
export function clusterMarks(marks: readonly LaneMark[], x: (t: number) => number, minPx = MIN_MARK_PX): LaneMark[] {
  const out: LaneMark[] = [];
  const open = new Map<ProbeType, { first: LaneMark; members: LaneMark[]; index: number }>();
  const close = (t: ProbeType) => {
    const c = open.get(t);
    if (!c) return;
    open.delete(t);
    if (c.members.length === 1) return;
    const runs = c.members.reduce((n, m) => n + (m.runs ?? 1), 0);
    const failed = c.members.reduce((n, m) => n + (m.failed ?? (m.kind === 'probe-fail' ? 1 : 0)), 0);
    const lastFail = [...c.members].reverse().find((m) => m.kind === 'probe-fail');
    const shown = lastFail ?? c.members[c.members.length - 1]!;
    const last = c.members[c.members.length - 1]!;
    out[c.index] = {
      at: c.first.at,
      end: last.end ?? last.at,
      kind: failed ? 'probe-fail' : 'probe-pass',
      probe: t,
      label: `${PROBE_TITLE[t]} probe: ${runs} runs, ${failed} failed`,
      detail: shown.runs ? shown.detail : `${lastFail ? 'last failure' : 'last run'}: ${shown.detail}`,
      runs,
      failed,
    };
  };
  for (const m of marks) {
    if ((m.kind !== 'probe-pass' && m.kind !== 'probe-fail') || !m.probe) {
      out.push(m);
      continue;
    }
    const c = open.get(m.probe);
    if (c && x(m.at) - x(c.first.at) < minPx) {
      c.members.push(m);
      continue;
    }
    close(m.probe);
    open.set(m.probe, { first: m, members: [m], index: out.length });
    out.push(m);
  }
  for (const t of [...open.keys()]) close(t);
  return out;
}

/** The lane's height: the bar row, then a strip per probe. */
export function laneHeightOf(lane: TimelineLane, laneHeight: number): number {
  return laneHeight + (lane.probes?.length ?? 0) * STRIP_H;
}

function markTitle(m: TimelineMark, start: number): string {
  return `${m.label} at +${((m.at - start) / 1000).toFixed(3)}s (${clockTime(m.at)})\n${m.detail}`;
}

/**
 * Draws the timeline. `clock` is the display time; when `live`, the open bars extend to it and the
 * axis a little past it (liveSpan), otherwise both end at the last time in the data. Each row is
 * built through `memo` (the axis, the phase row, the Ready row, a lane each, the events).
 */
export function renderTimeline(
  tl: TimelineView,
  clock: number,
  live: boolean,
  layout: TimelineLayout,
  range: { from: number; to: number } | undefined,
  memo: RowMemo,
): SVGElement {
  const { labelWidth, laneHeight } = layout;
  const width = Math.max(360, layout.width);
  const start = range?.from ?? tl.start;
  const end = range?.to ?? (live ? start + liveSpan(Math.max(tl.end, clock) - start) : Math.max(tl.end, start + 1000));
  const liveEnd = live ? clock : Math.max(tl.end, start);
  const visible = (from: number, to: number) => to >= start && from <= end;
  const span = end - start;
  const plotW = width - labelWidth - PAD_RIGHT;
  const x = (t: number) => labelWidth + ((Math.min(Math.max(t, start), end) - start) / span) * plotW;
  const ready = tl.ready ?? [];
  const readyTop = PHASE_ROW + 2;
  const lanesTop = readyTop + (ready.length ? READY_ROW : 0) + 4;
  const laneTops: number[] = [];
  let lanesH = 0;
  for (const lane of tl.lanes) {
    laneTops.push(lanesTop + lanesH);
    lanesH += laneHeightOf(lane, laneHeight);
  }
  const eventsTop = lanesTop + lanesH + 4;
  const axisTop = eventsTop + EVENT_ROW;
  const height = axisTop + AXIS_ROW;

  const svg = s('svg', {
    class: 'timeline',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': 'Pod start-up timeline',
    'data-start': start,
    'data-end': end,
  });

  // What every row's drawing depends on: the scale.
  const scale = [width, labelWidth, laneHeight, start, end, tl.start];
  const sig = (...values: unknown[]) => JSON.stringify([scale, ...values]);

  // Grid and axis.
  // Ticks are offsets from the pod's creation (tl.start), also when zoomed.
  svg.appendChild(
    memo('tl:axis', sig(lanesTop, axisTop), () => {
      const { step, ticks } = niceTicks(span, Math.max(2, Math.floor(plotW / 80)));
      const first = Math.ceil((start - tl.start) / step) * step;
      const axis = s('g', { class: 'axis', 'data-step': step });
      for (const rel of ticks) {
        const off = first + rel;
        if (tl.start + off > end) break;
        const tx = x(tl.start + off);
        axis.appendChild(s('line', { class: 'grid', x1: tx, x2: tx, y1: lanesTop - 2, y2: axisTop }));
        axis.appendChild(s('text', { class: 'tick', x: tx, y: axisTop + 15, 'text-anchor': 'middle', 'data-offset': off }, tickLabel(off, step)));
      }
      axis.appendChild(s('line', { class: 'axis-line', x1: labelWidth, x2: labelWidth + plotW, y1: axisTop, y2: axisTop }));
      return axis;
    }),
  );

  // Phase row: a segment per observed phase/STATUS.
  // The last phase lasts until now while the pod lives (the axis runs past now).
  const phasesEnd = live ? liveEnd : end;
  svg.appendChild(memo('tl:phases', sig(tl.phases, phasesEnd), () => {
    const phaseRow = s('g', { class: 'phases' });
    phaseRow.appendChild(s('text', { class: 'lane-label', x: 6, y: PHASE_ROW / 2 + 5 }, 'phase / STATUS'));
    const phaseMarks = tl.phases;
    phaseMarks.forEach((m, i) => {
      const next = phaseMarks[i + 1];
      if (!visible(m.at, next ? next.at : phasesEnd)) return;
      const x1 = x(m.at);
      const x2 = next ? x(next.at) : x(phasesEnd);
      const cls = m.kind === 'phase' ? 'phase-change' : 'status-change';
      const g = s('g', { class: `phase-mark ${cls}`, 'data-at': m.at, 'data-label': m.label });
      g.appendChild(s('title', {}, markTitle(m, start)));
      g.appendChild(s('rect', { class: `phase-seg phase-${phaseOf(m)}`, x: x1, y: 3, width: Math.max(1, x2 - x1), height: PHASE_ROW - 6 }));
      g.appendChild(s('line', { class: 'phase-tick', x1, x2: x1, y1: 1, y2: PHASE_ROW - 1 }));
      const w = x2 - x1;
      if (w > 30) g.appendChild(s('text', { class: 'phase-text', x: x1 + 4, y: PHASE_ROW / 2 + 4 }, barText({ label: m.label } as TimelineBar, w - 6)));
      phaseRow.appendChild(g);
    });
    return phaseRow;
  }));

  // The pod's Ready condition: a band per state, a tick where it flipped.
  if (ready.length) {
    svg.appendChild(memo('tl:ready', sig(ready, readyTop, liveEnd), () => {
      const row = s('g', { class: 'ready-row' });
      row.appendChild(s('text', { class: 'lane-label', x: 6, y: readyTop + READY_ROW / 2 + 4 }, 'Ready condition'));
      ready.forEach((r, i) => {
        const next = ready[i + 1];
        const to = next ? next.at : liveEnd;
        if (!visible(r.at, to)) return;
        const x1 = x(r.at);
        const g = s('g', { class: `ready-mark ready-${r.status}`, 'data-at': r.at, 'data-status': r.status });
        g.appendChild(s('title', {}, readyTitle(r, i === 0, start)));
        g.appendChild(s('rect', { class: 'ready-seg', x: x1, y: readyTop + 3, width: Math.max(1, x(to) - x1), height: READY_ROW - 6 }));
        if (i > 0) g.appendChild(s('line', { class: 'ready-flip', x1, x2: x1, y1: readyTop, y2: readyTop + READY_ROW }));
        row.appendChild(g);
      });
      return row;
    }));
  }

  // Lanes.
  tl.lanes.forEach((lane, i) => {
    const y = laneTops[i]!;
    // An open bar or a running hook ends at the clock.
    const open = lane.bars.some((b) => b.end === undefined) || (lane.marks ?? []).some((m) => m.end === undefined && m.kind.startsWith('hook'));
    svg.appendChild(memo(`tl:lane:${lane.key}`, sig(lane, y, i % 2, open ? liveEnd : null), () => {
      const g = s('g', { class: `lane lane-${lane.kind}`, 'data-lane': lane.key, 'data-kind': lane.kind });
      g.appendChild(s('rect', { class: i % 2 ? 'lane-bg odd' : 'lane-bg', x: 0, y, width, height: laneHeightOf(lane, laneHeight) }));
      const kindTag = lane.kind === 'sandbox' ? '' : lane.kind === 'app' ? '' : ` (${lane.kind})`;
      g.appendChild(s('text', { class: 'lane-label', x: 6, y: y + laneHeight / 2 + 4 }, `${lane.label}${kindTag}`));
      for (const b of lane.bars) {
        const bEnd = b.end ?? liveEnd;
        if (!visible(b.start, bEnd)) continue;
        const bx = x(b.start);
        const bw = Math.max(3, x(bEnd) - bx);
        const cls = `bar bar-${b.kind} outcome-${b.outcome}${b.end === undefined ? ' open' : ''}`;
        const bar = s('g', {
          class: cls,
          'data-key': b.key,
          'data-kind': b.kind,
          'data-attempt': b.attempt,
          'data-start': b.start,
          'data-end': b.end,
          'data-outcome': b.outcome,
          'data-exit-code': b.exitCode,
        });
        bar.appendChild(
          s(
            'title',
            {},
            `${lane.label} ${b.label}\nfrom +${((b.start - start) / 1000).toFixed(3)}s (${clockTime(b.start)})` +
              (b.end !== undefined ? ` to +${((b.end - start) / 1000).toFixed(3)}s (${clockTime(b.end)})` : ' — still going'),
          ),
        );
        bar.appendChild(s('rect', { x: bx, y: y + 4, width: bw, height: laneHeight - 8, rx: 2 }));
        const text = barText(b, bw - 6);
        if (text) bar.appendChild(s('text', { class: 'bar-text', x: bx + 4, y: y + laneHeight / 2 + 4 }, text));
        else if (
          b.kind === 'run' &&
          b.attempt !== undefined &&
          lane.kind !== 'sandbox' &&
          !lane.bars.some((o) => o !== b && o.start >= b.start && x(o.start) - (bx + bw) < 16)
        )
          bar.appendChild(s('text', { class: 'bar-note', x: bx + bw + 2, y: y + laneHeight / 2 + 4 }, `#${b.attempt}`));
        g.appendChild(bar);
      }
      // Lifecycle hooks: a span along the top of the bar row. Probes: a strip each under the bars.
      const strips = lane.probes ?? [];
      strips.forEach((t, k) => {
        const sy = y + laneHeight + k * STRIP_H;
        g.appendChild(s('line', { class: 'strip-base', x1: labelWidth, x2: labelWidth + plotW, y1: sy + STRIP_H - 1, y2: sy + STRIP_H - 1 }));
        g.appendChild(s('text', { class: 'strip-label', x: labelWidth - 6, y: sy + STRIP_H - 1, 'text-anchor': 'end' }, t));
      });
      const shown = clusterMarks((lane.marks ?? []).filter((m) => visible(m.at, m.end ?? (m.kind.startsWith('hook') ? liveEnd : m.at))), x);
      for (const m of shown) {
        const mEnd = m.end ?? (m.kind.startsWith('hook') ? liveEnd : m.at);
        const mx = x(m.at);
        const strip = m.probe ? strips.indexOf(m.probe) : -1;
        const mg = s('g', {
          class: `lane-mark mark-${m.kind}`,
          'data-kind': m.kind,
          'data-probe': m.probe,
          'data-verdict': m.verdict,
          'data-runs': m.runs,
          'data-failed': m.failed,
          'data-at': m.at,
        });
        const when = m.end !== undefined && m.kind.startsWith('probe')
          ? `from +${((m.at - start) / 1000).toFixed(3)}s to +${((m.end - start) / 1000).toFixed(3)}s (${clockTime(m.at)} – ${clockTime(m.end)})`
          : `at +${((m.at - start) / 1000).toFixed(3)}s (${clockTime(m.at)})`;
        mg.appendChild(s('title', {}, `${lane.label}: ${m.label} ${when}${m.detail ? `\n${m.detail}` : ''}`));
        if (m.kind === 'hook' || m.kind === 'hook-fail') {
          mg.appendChild(s('rect', { x: mx, y: y + 1, width: Math.max(3, x(mEnd) - mx), height: 4 }));
        } else if (strip < 0) {
          continue;
        } else {
          const sy = y + laneHeight + strip * STRIP_H;
          if (m.kind === 'verdict') {
            const cy = sy + STRIP_H / 2;
            mg.appendChild(s('path', { d: `M${mx} ${cy - 4} L${mx + 4} ${cy} L${mx} ${cy + 4} L${mx - 4} ${cy} Z` }));
          } else if (m.end !== undefined && x(m.end) - mx >= 2) {
            // Several runs: a block over their span (full height when any failed).
            const top = m.kind === 'probe-fail' ? sy : sy + 3;
            mg.appendChild(s('rect', { x: mx, y: top, width: x(m.end) - mx, height: sy + STRIP_H - 1 - top }));
          } else {
            const top = m.kind === 'probe-fail' ? sy : sy + 4;
            mg.appendChild(s('line', { x1: mx, x2: mx, y1: top, y2: sy + STRIP_H - 1 }));
          }
        }
        g.appendChild(mg);
      }
      return g;
    }));
  });

  // Events row.
  svg.appendChild(memo('tl:events', sig(tl.events, lanesTop, eventsTop), () => {
    const ev = s('g', { class: 'events-row' });
    ev.appendChild(s('text', { class: 'lane-label', x: 6, y: eventsTop + EVENT_ROW / 2 + 4 }, 'events'));
    for (const m of tl.events) {
      if (!visible(m.at, m.at)) continue;
      const mx = x(m.at);
      const cy = eventsTop + EVENT_ROW / 2;
      const g = s('g', { class: `event-mark event-${m.kind}`, 'data-at': m.at, 'data-reason': m.label });
      g.appendChild(s('title', {}, markTitle(m, start)));
      g.appendChild(s('line', { class: 'event-line', x1: mx, x2: mx, y1: lanesTop, y2: eventsTop + 2 }));
      if (m.kind === 'Warning') g.appendChild(s('path', { d: `M${mx} ${cy - 6} L${mx + 6} ${cy + 5} L${mx - 6} ${cy + 5} Z` }));
      else g.appendChild(s('circle', { cx: mx, cy, r: 4 }));
      ev.appendChild(g);
    }
    return ev;
  }));

  if (live && visible(clock, clock)) {
    const nx = x(clock);
    svg.appendChild(s('line', { class: 'now-line', x1: nx, x2: nx, y1: 0, y2: axisTop }));
  }
  return svg;
}

function readyTitle(r: ReadyMark, first: boolean, start: number): string {
  const why = r.reason ? ` (${r.reason}${r.message ? `: ${r.message}` : ''})` : '';
  return `Ready ${first ? 'is' : 'turned'} ${r.status}${why} at +${((r.at - start) / 1000).toFixed(3)}s (${clockTime(r.at)})`;
}

function phaseOf(m: TimelineMark): string {
  const p = /^phase (\w+)/.exec(m.detail)?.[1] ?? m.label;
  return p.toLowerCase();
}
