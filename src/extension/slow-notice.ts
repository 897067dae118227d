// A notice for an operation only when it is slow (no upstream counterpart): VS Code's own progress
// service waits before it shows a notification, but an extension's withProgress shows one at once,
// so a quick operation would flash a toast — and the workbench would draw it while the lifecycle
// panel's update for the same change waits behind it. Used for deletions and step-mode holds.
// Kept free of `vscode` for its tests.

/** How long a deletion runs before its progress notification appears (the views show it Terminating meanwhile). */
export const SLOW_NOTICE_MS = 500;

export interface NoticeTimer {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimer: NoticeTimer = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Settles as `task` does. If it is still running after `delayMs`, `show` is called once with a
 * promise that resolves when the task settles (also when it fails: the error is the caller's).
 */
export function noticeWhileSlow<T>(task: Promise<T>, delayMs: number, show: (until: Promise<void>) => void, timer: NoticeTimer = realTimer): Promise<T> {
  let settled = false;
  const until = task.then(
    () => undefined,
    () => undefined,
  );
  const handle = timer.set(() => {
    if (!settled) show(until);
  }, delayMs);
  return task.finally(() => {
    settled = true;
    timer.clear(handle);
  });
}
