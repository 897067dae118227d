// client-go's flowcontrol.Backoff as the kubelet uses it, over plain data with an explicit `now`.
// Next: a new or expired entry starts at `initialMs`, otherwise doubles up to `maxMs`; an entry
// expires when more than 2×max has passed since its last update (so 10 minutes with the defaults).

export interface BackoffEntry {
  backoffMs: number;
  lastUpdate: number;
}

export class Backoff {
  private entries = new Map<string, BackoffEntry>();
  constructor(
    readonly initialMs: number,
    readonly maxMs: number,
  ) {}

  private expired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > 2 * this.maxMs;
  }

  /** Current delay for the key (0 when unknown). */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }

  entry(key: string): BackoffEntry | undefined {
    return this.entries.get(key);
  }

  next(key: string, eventTime: number): void {
    const e = this.entries.get(key);
    if (!e || this.expired(eventTime, e.lastUpdate)) {
      this.entries.set(key, { backoffMs: this.initialMs, lastUpdate: eventTime });
    } else {
      e.backoffMs = Math.min(e.backoffMs * 2, this.maxMs);
      e.lastUpdate = eventTime;
    }
  }

  /** True while `now - eventTime` is shorter than the key's delay (crash-loop: eventTime = FinishedAt). */
  isInBackOffSince(key: string, eventTime: number, now: number): boolean {
    const e = this.entries.get(key);
    if (!e || this.expired(now, e.lastUpdate)) return false;
    return now - eventTime < e.backoffMs;
  }

  /** True while `eventTime - lastUpdate` is shorter than the delay (image pulls: eventTime = now). */
  isInBackOffSinceUpdate(key: string, eventTime: number): boolean {
    const e = this.entries.get(key);
    if (!e || this.expired(eventTime, e.lastUpdate)) return false;
    return eventTime - e.lastUpdate < e.backoffMs;
  }

  /** Drops entries idle for more than 2×max. */
  gc(now: number): void {
    for (const [k, e] of this.entries) if (this.expired(now, e.lastUpdate)) this.entries.delete(k);
  }

  reset(key: string): void {
    this.entries.delete(key);
  }
}

export { goDuration } from '../../shared/go.js';
