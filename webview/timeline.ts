// The lifecycle timeline: one SVG with a time axis (seconds since the pod was created), a phase
// row, the sandbox, one lane per container (a bar per attempt, back-off and step-mode waits drawn
// as dashed bars) and a row of event markers. Open bars run up to the display clock.
import type { TimelineBar, TimelineMark, TimelineView } from '../src/shared/protocol.js';
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

export interface TimelineLayout {
  width: number;
  labelWidth: number;
  laneHeight: number;
}

const PHASE_ROW = 22;
const AXIS_ROW = 24;
const EVENT_ROW = 20;
const PAD_RIGHT = 16;

function barText(b: TimelineBar, widthPx: number): string {
  if (widthPx < 28) return '';
  const max = Math.floor(widthPx / 6.5);
  return b.label.length > max ? b.label.slice(0, Math.max(0, max - 1)) + '…' : b.label;
}

function markTitle(m: TimelineMark, start: number): string {
  return `${m.label} at +${((m.at - start) / 1000).toFixed(3)}s (${clockTime(m.at)})\n${m.detail}`;
}

/**
 * Draws the timeline. `clock` is the display time; when `live`, the axis and the open bars extend
 * to it, otherwise to the last time in the data.
 */
export function renderTimeline(
  tl: TimelineView,
  clock: number,
  live: boolean,
  layout: TimelineLayout,
  range?: { from: number; to: number },
): SVGElement {
  const { labelWidth, laneHeight } = layout;
  const width = Math.max(360, layout.width);
  const start = range?.from ?? tl.start;
  const end = range?.to ?? Math.max(tl.end, live ? clock : tl.end, start + 1000);
  const liveEnd = live ? clock : Math.max(tl.end, start);
  const visible = (from: number, to: number) => to >= start && from <= end;
  const span = end - start;
  const plotW = width - labelWidth - PAD_RIGHT;
  const x = (t: number) => labelWidth + ((Math.min(Math.max(t, start), end) - start) / span) * plotW;
  const lanesTop = PHASE_ROW + 4;
  const lanesH = tl.lanes.length * laneHeight;
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

  // Grid and axis.
  // Ticks are offsets from the pod's creation (tl.start), also when zoomed.
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
  svg.appendChild(axis);

  // Phase row: a segment per observed phase/STATUS.
  const phaseRow = s('g', { class: 'phases' });
  phaseRow.appendChild(s('text', { class: 'lane-label', x: 6, y: PHASE_ROW / 2 + 5 }, 'phase / STATUS'));
  const phaseMarks = tl.phases;
  phaseMarks.forEach((m, i) => {
    const next = phaseMarks[i + 1];
    if (!visible(m.at, next ? next.at : end)) return;
    const x1 = x(m.at);
    const x2 = next ? x(next.at) : x(end);
    const cls = m.kind === 'phase' ? 'phase-change' : 'status-change';
    const g = s('g', { class: `phase-mark ${cls}`, 'data-at': m.at, 'data-label': m.label });
    g.appendChild(s('title', {}, markTitle(m, start)));
    g.appendChild(s('rect', { class: `phase-seg phase-${phaseOf(m)}`, x: x1, y: 3, width: Math.max(1, x2 - x1), height: PHASE_ROW - 6 }));
    g.appendChild(s('line', { class: 'phase-tick', x1, x2: x1, y1: 1, y2: PHASE_ROW - 1 }));
    const w = x2 - x1;
    if (w > 30) g.appendChild(s('text', { class: 'phase-text', x: x1 + 4, y: PHASE_ROW / 2 + 4 }, barText({ label: m.label } as TimelineBar, w - 6)));
    phaseRow.appendChild(g);
  });
  svg.appendChild(phaseRow);

  // Lanes.
  tl.lanes.forEach((lane, i) => {
    const y = lanesTop + i * laneHeight;
    const g = s('g', { class: `lane lane-${lane.kind}`, 'data-lane': lane.key, 'data-kind': lane.kind });
    g.appendChild(s('rect', { class: i % 2 ? 'lane-bg odd' : 'lane-bg', x: 0, y, width, height: laneHeight }));
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
    // Probe runs (ticks at the lane's foot: short for a pass, tall for a failure), verdict changes
    // (a diamond) and lifecycle hooks (a thin span at the lane's top).
    for (const m of lane.marks ?? []) {
      const mEnd = m.end ?? (m.kind.startsWith('hook') ? liveEnd : m.at);
      if (!visible(m.at, mEnd)) continue;
      const mx = x(m.at);
      const mg = s('g', { class: `lane-mark mark-${m.kind}`, 'data-kind': m.kind, 'data-at': m.at });
      mg.appendChild(s('title', {}, `${lane.label}: ${m.label} at +${((m.at - start) / 1000).toFixed(3)}s (${clockTime(m.at)})${m.detail ? `\n${m.detail}` : ''}`));
      if (m.kind === 'hook' || m.kind === 'hook-fail') {
        mg.appendChild(s('rect', { x: mx, y: y + 1, width: Math.max(2, x(mEnd) - mx), height: 3 }));
      } else if (m.kind === 'verdict') {
        const cy = y + laneHeight - 5;
        mg.appendChild(s('path', { d: `M${mx} ${cy - 4} L${mx + 4} ${cy} L${mx} ${cy + 4} L${mx - 4} ${cy} Z` }));
      } else {
        const top = m.kind === 'probe-fail' ? y + laneHeight / 2 : y + laneHeight - 6;
        mg.appendChild(s('line', { x1: mx, x2: mx, y1: top, y2: y + laneHeight - 1 }));
      }
      g.appendChild(mg);
    }
    svg.appendChild(g);
  });

  // Events row.
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
  svg.appendChild(ev);

  if (live && visible(clock, clock)) {
    const nx = x(clock);
    svg.appendChild(s('line', { class: 'now-line', x1: nx, x2: nx, y1: 0, y2: axisTop }));
  }
  return svg;
}

function phaseOf(m: TimelineMark): string {
  const p = /^phase (\w+)/.exec(m.detail)?.[1] ?? m.label;
  return p.toLowerCase();
}
