// The e2e suite's Docker-event → panel latency: a container's `start` or `die` as `docker events`
// reports it (the daemon's own time), matched with the first lifecycle-panel update that shows the
// change, as the extension's output channel logs each acknowledged update with the containers it
// shows and the frame's time on the machine's clock (`update #N [...] painted X ms after the engine
// event (..., painted at 1795431337343.2); containers: app running#0, ...`).
// Pure: tested in test/unit/docker-to-panel.test.ts.

/** One container event of the runtime, from `docker events --format '{{json .}}'`. */
export interface RuntimeEvent {
  /** Epoch milliseconds (the daemon's timeNano). */
  at: number;
  /** namespace/name of the pod. */
  pod: string;
  container: string;
  /** The dockershim name's attempt: the restart count of this instance. */
  attempt: number;
  action: 'start' | 'die';
}

/** One acknowledged panel update, from the extension's output channel. */
export interface PanelLine {
  /** Epoch milliseconds the webview painted it (`painted at`), else of the log line (when the acknowledgement came). */
  at: number;
  pod: string;
  seq: number;
  /** Caused by an engine event (false: a snapshot for a loading webview, which may show an older change late). */
  sample: boolean;
  /** For a sample: milliseconds from the engine event's arrival in the extension host to `at`. */
  afterEngineMs?: number;
  /** Container name → `state#restarts` as shown. */
  containers: Map<string, string>;
}

/** A `docker events` JSON line of a lab container (dockershim name k8s_<container>_<pod>_<ns>_<uid>_<attempt>); undefined otherwise. */
export function parseDockerEvent(line: string): RuntimeEvent | undefined {
  let e: { status?: string; Action?: string; Actor?: { Attributes?: Record<string, string> } };
  try {
    e = JSON.parse(line) as typeof e;
  } catch {
    return undefined;
  }
  const action = e.Action ?? e.status;
  if (action !== 'start' && action !== 'die') return undefined;
  const parts = (e.Actor?.Attributes?.name ?? '').split('_');
  if (parts.length !== 6 || parts[0] !== 'k8s' || parts[1] === 'POD') return undefined;
  const [, container, pod, ns, , attempt] = parts as [string, string, string, string, string, string];
  // timeNano is beyond a double's integer precision: read its digits from the text.
  const digits = /"timeNano":\s*(\d+)/.exec(line)?.[1];
  if (digits === undefined || !/^\d+$/.test(attempt)) return undefined;
  const nano = BigInt(digits);
  return { at: Number(nano / 1_000_000n) + Number(nano % 1_000_000n) / 1e6, pod: `${ns}/${pod}`, container, attempt: Number(attempt), action };
}

const LINE = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3}) \[\w+\] lifecycle ([^:]+): update #(\d+) (.*); containers: (.*)$/;

/** The output channel's panel-update lines (local-time timestamps, as VS Code writes them). */
export function parsePanelLines(log: string): PanelLine[] {
  const out: PanelLine[] = [];
  for (const raw of log.split('\n')) {
    const m = LINE.exec(raw.trimEnd());
    if (!m) continue;
    const [, y, mo, d, h, mi, sec, ms, pod, seq, middle, list] = m as unknown as string[];
    const containers = new Map<string, string>();
    if (list !== 'none') {
      for (const item of list!.split(', ')) {
        const at = item.lastIndexOf(' ');
        containers.set(item.slice(0, at), item.slice(at + 1));
      }
    }
    const painted = /painted at (\d+(?:\.\d+)?)/.exec(middle!)?.[1];
    const afterEngine = /(?:shown|painted) ([\d.]+) ms after the engine event/.exec(middle!)?.[1];
    out.push({
      at: painted !== undefined ? Number(painted) : new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec), Number(ms)).getTime(),
      pod: pod!,
      seq: Number(seq),
      sample: afterEngine !== undefined,
      ...(afterEngine !== undefined ? { afterEngineMs: Number(afterEngine) } : {}),
      containers,
    });
  }
  return out;
}

/**
 * Whether the line shows the event. The restart count is the latest instance's attempt, so a later
 * count means the instance ended; at the same count, a start shows as running or ended, and an end
 * as terminated or waiting out the crash-loop back-off that follows it.
 */
function showsEvent(e: RuntimeEvent, l: PanelLine): boolean {
  const m = /^(\w+)(?::(\w+))?#(\d+)$/.exec(l.containers.get(e.container) ?? '');
  if (!m) return false;
  const [, kind, reason, restarts] = m as unknown as [string, string, string | undefined, string];
  if (Number(restarts) > e.attempt) return true;
  if (Number(restarts) < e.attempt) return false;
  const ended = kind === 'terminated' || (kind === 'waiting' && reason === 'CrashLoopBackOff');
  return e.action === 'start' ? kind === 'running' || ended : ended;
}

/**
 * For each runtime event of a pod whose panel was showing it: the milliseconds until the first
 * update that shows the change (`start`: that instance running, or already ended; `die`: that
 * instance terminated; either: a later instance). An event is left out (counted in `unmatched`)
 * when no panel showed the pod before it, when the panel already showed the change, when a
 * snapshot came between (the panel reloaded or switched: its timing is the webview's load), or
 * when no update shows it. `updates`: per update that showed new events, the milliseconds from
 * the latest of them (a kubelet publishes a sync's changes together, when the sync ends).
 * `toEngine`: the same per update, up to the engine event's arrival in the extension host (the
 * kubelet, the store and the API's watch), where the line gives the rest.
 */
export function dockerToPanel(events: readonly RuntimeEvent[], lines: readonly PanelLine[]): { ms: number[]; updates: number[]; toEngine: number[]; unmatched: number } {
  const ms: number[] = [];
  const byUpdate = new Map<PanelLine, number>();
  let unmatched = 0;
  for (const e of events) {
    const ofPod = lines.filter((l) => l.pod === e.pod).sort((a, b) => a.at - b.at || a.seq - b.seq);
    const before = ofPod.filter((l) => l.at < e.at).at(-1);
    if (!before || showsEvent(e, before)) {
      unmatched++;
      continue;
    }
    let found: PanelLine | undefined;
    for (const l of ofPod.slice(ofPod.indexOf(before) + 1)) {
      if (!l.sample) break;
      if (showsEvent(e, l)) {
        found = l;
        break;
      }
    }
    if (!found) {
      unmatched++;
      continue;
    }
    ms.push(found.at - e.at);
    byUpdate.set(found, Math.min(byUpdate.get(found) ?? Infinity, found.at - e.at));
  }
  const toEngine = [...byUpdate].flatMap(([l, fromLatest]) => (l.afterEngineMs === undefined ? [] : [fromLatest - l.afterEngineMs]));
  return { ms, updates: [...byUpdate.values()], toEngine, unmatched };
}
