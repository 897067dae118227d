// The per-volume retry back-off of the kubelet's volume operations (upstream
// pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go, used by operationexecutor's
// nestedpendingoperations): 500 ms after the first error, doubling up to 2m2s; a success forgets it.
// Pure: times are epoch milliseconds passed in.

export const InitialDurationBeforeRetryMs = 500;
/** maxDurationBeforeRetry = 2*time.Minute + 2*time.Second */
export const MaxDurationBeforeRetryMs = 122_000;

export interface ExponentialBackoff {
  lastError: string;
  lastErrorAt: number;
  durationMs: number;
}

/** Update: the first error waits 500 ms, each next one twice the previous, capped at 2m2s. */
export function updateBackoff(prev: ExponentialBackoff | undefined, error: string, now: number): ExponentialBackoff {
  const durationMs = prev ? Math.min(prev.durationMs * 2, MaxDurationBeforeRetryMs) : InitialDurationBeforeRetryMs;
  return { lastError: error, lastErrorAt: now, durationMs };
}

/**
 * SafeToRetry. Upstream refuses while `time.Since(lastErrorTime) <= durationBeforeRetry` and the
 * reconciler polls every 100 ms, so a retry runs within 100 ms after the period; the lab retries
 * from a timer at exactly the end of the period (events at 0, 0.5, 1.5, 3.5, 7.5 s …).
 */
export function safeToRetry(b: ExponentialBackoff | undefined, now: number): boolean {
  return !b || now - b.lastErrorAt >= b.durationMs;
}

export function retryAt(b: ExponentialBackoff): number {
  return b.lastErrorAt + b.durationMs;
}
