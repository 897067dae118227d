// Termination messages (upstream pkg/kubelet/kuberuntime/kuberuntime_container.go
// getTerminationMessage / readLastStringFromContainerLogs, pkg/kubelet/container/runtime.go
// constants, pkg/kubelet/status/status_manager.go normalizeStatus). The pure parts take bytes
// and lines; the reader does the I/O.
import { openSync, readSync, fstatSync, closeSync } from 'node:fs';
import type { PodStatus } from 'kubernetes-types/core/v1';

/** MaxContainerTerminationMessageLength */
export const MaxContainerTerminationMessageLength = 1024 * 4;
/** MaxContainerTerminationMessageLogLength */
export const MaxContainerTerminationMessageLogLength = 1024 * 2;
/** MaxContainerTerminationMessageLogLines */
export const MaxContainerTerminationMessageLogLines = 80;
/** MaxPodTerminationMessageLogLength */
export const MaxPodTerminationMessageLogLength = 1024 * 12;

/** tail.ReadAtMost: the last `max` bytes of a file. */
export function readAtMost(file: string, max: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const n = Math.min(size, max);
    const buf = Buffer.alloc(n);
    readSync(fd, buf, 0, n, size - n);
    return buf;
  } finally {
    closeSync(fd);
  }
}

/**
 * The log fallback: the last 80 lines through a 2048-byte ring buffer, each line with its `\n`
 * but a last one the container wrote without it (`unterminated`: the bytes as kubectl logs reads them).
 */
export function messageFromLogLines(lines: readonly string[] & { unterminated?: boolean }): string {
  const last = lines.slice(-MaxContainerTerminationMessageLogLines);
  const text = last.map((l, i) => (lines.unterminated && i === last.length - 1 ? l : `${l}\n`)).join('');
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length > MaxContainerTerminationMessageLogLength ? bytes.subarray(bytes.length - MaxContainerTerminationMessageLogLength).toString('utf8') : text;
}

export interface TerminationInputs {
  policy: string;
  exitCode: number;
  reason: string;
  /** The runtime's own message (Docker State.Error). */
  runtimeMessage: string;
  /** The file's content (its last 4096 bytes), or an error reading it; undefined when there is no file. */
  file?: { text: string } | { error: string };
  /** The log tail, fetched only when the fallback applies. */
  logs?: () => Promise<{ lines: readonly string[] } | { error: string }>;
}

/** Whether the log fallback applies: FallbackToLogsOnError, a failed exit, a container that ran, no file message. */
export function wantsLogFallback(i: Pick<TerminationInputs, 'policy' | 'exitCode' | 'reason'>, fileText: string): boolean {
  return i.policy === 'FallbackToLogsOnError' && i.exitCode !== 0 && i.reason !== 'ContainerCannotRun' && fileText === '';
}

/** getTerminationMessage, then appended to the runtime's message (`<runtime>: <text>`). */
export async function terminationMessage(i: TerminationInputs, filePath = ''): Promise<string> {
  let text = '';
  if (i.file && 'error' in i.file) text = `Error on reading termination log ${filePath}: ${i.file.error}`;
  else if (i.file) text = i.file.text;
  if (wantsLogFallback(i, text) && i.logs) {
    const got = await i.logs();
    text = 'error' in got ? `Error on reading termination message from logs: ${got.error}` : messageFromLogLines(got.lines);
  }
  if (!i.runtimeMessage) return text;
  return text ? `${i.runtimeMessage}: ${text}` : i.runtimeMessage;
}

/**
 * normalizeStatus's cap: every terminated message (state and lastState) is cut to its first
 * 12288/n bytes, n = containers + init containers. Returns a new status.
 */
export function capTerminationMessages(status: PodStatus, containerCount: number): PodStatus {
  if (containerCount <= 0) return status;
  const max = Math.floor(MaxPodTerminationMessageLogLength / containerCount);
  const cut = (m: string | undefined) => {
    if (!m) return m;
    const b = Buffer.from(m, 'utf8');
    return b.length > max ? b.subarray(0, max).toString('utf8') : m;
  };
  const fix = <T extends { state?: { terminated?: { message?: string } }; lastState?: { terminated?: { message?: string } } }>(s: T): T => {
    const out = structuredClone(s);
    if (out.state?.terminated?.message) out.state.terminated.message = cut(out.state.terminated.message);
    if (out.lastState?.terminated?.message) out.lastState.terminated.message = cut(out.lastState.terminated.message);
    return out;
  };
  const out: PodStatus = { ...status };
  if (status.containerStatuses) out.containerStatuses = status.containerStatuses.map(fix);
  if (status.initContainerStatuses) out.initContainerStatuses = status.initContainerStatuses.map(fix);
  if (status.ephemeralContainerStatuses) out.ephemeralContainerStatuses = status.ephemeralContainerStatuses.map(fix);
  return out;
}
