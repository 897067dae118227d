// Time is injected (as in kwok): pure decisions take `now`, and the engine's timers go through
// a Clock so tests can drive time by hand.

export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** epoch milliseconds */
  now(): number;
  setTimeout(fn: () => void, ms: number): Timer;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

/** One timer for the earliest of several deadlines (a pod worker's wake-up, the scheduler's queues). */
export class EarliestTimer {
  private armed: { timer: Timer; at: number } | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly fire: () => void,
  ) {}

  /** Fires at `at` unless it already fires sooner. */
  arm(at: number): void {
    if (this.armed && this.armed.at <= at) return;
    this.armed?.timer.cancel();
    this.armed = {
      at,
      timer: this.clock.setTimeout(() => {
        this.armed = undefined;
        this.fire();
      }, at - this.clock.now()),
    };
  }

  cancel(): void {
    this.armed?.timer.cancel();
    this.armed = undefined;
  }
}

/** A clock that only moves when told to. */
export class FakeClock implements Clock {
  private timers: { at: number; fn: () => void; seq: number }[] = [];
  private seq = 0;
  constructor(private t = Date.UTC(2024, 0, 1)) {}
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): Timer {
    const entry = { at: this.t + Math.max(0, ms), fn, seq: this.seq++ };
    this.timers.push(entry);
    return { cancel: () => (this.timers = this.timers.filter((e) => e !== entry)) };
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (let next = this.takeDue(end); next; next = this.takeDue(end)) next();
    this.t = end;
  }

  /** Removes the earliest timer due by `end`, moves the clock to it and returns its function. */
  private takeDue(end: number): (() => void) | undefined {
    this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const next = this.timers[0];
    if (!next || next.at > end) return undefined;
    this.timers.shift();
    this.t = next.at;
    return next.fn;
  }

  /**
   * Like advance, but lets the promise chains that timers start run to completion (as far as they
   * depend only on this clock) before the next timer fires and at the end.
   */
  async advanceAsync(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await settle();
      const next = this.takeDue(end);
      if (!next) break;
      next();
    }
    this.t = end;
    await settle();
  }

  /** Timers still waiting (tests). */
  pending(): number {
    return this.timers.length;
  }
}

/** Lets queued promise callbacks and immediates run (a bounded number of turns). */
export async function settle(turns = 30): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((r) => setImmediate(r));
}

/** RFC 3339 with second precision, as the API server writes metav1.Time. */
export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  // Most calls in a burst fall in the same second as the last one: its text is kept.
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastText;
}
let lastSecond = Number.NaN;
let lastText = '';

/** RFC 3339 with microseconds, as metav1.MicroTime (Event.eventTime). */
export function rfc3339Micro(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
