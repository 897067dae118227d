// The store's persistence (the counterpart of the API server's etcd): every write of a Pod, Event,
// Node or Namespace is appended to `<stateDir>/store/journal.jsonl`, and the journal is folded into
// `snapshot.json` when the store is loaded, so a restarted lab server finds every object with its
// uid and resourceVersion, and hands out only larger resourceVersions. ConfigMaps and Secrets are
// files of their own (config-persistence.ts). Writes are batched per tick; a crash loses at most
// the last tick's writes, which the kubelet's first sync rebuilds from the runtime.
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WatchEvent } from './api.js';
import type { Kind, ObjOf, Store } from './store.js';

/** The kinds the journal keeps. */
export const JOURNALED_KINDS = ['Namespace', 'Node', 'Pod', 'Event'] as const;
type JKind = (typeof JOURNALED_KINDS)[number];
const journaled = (k: Kind): k is JKind => (JOURNALED_KINDS as readonly Kind[]).includes(k);

type Line = { t: 'put'; k: JKind; o: ObjOf<JKind> } | { t: 'del'; k: JKind; ns?: string; n: string; rv: string };

interface Snapshot {
  /** The highest resourceVersion handed out when the snapshot was written. */
  rv: number;
  objects: { [K in JKind]: ObjOf<K>[] };
}

/** Events older than this are dropped when the journal is folded (the API server's default event TTL). */
export const EVENT_TTL_MS = 60 * 60 * 1000;
/** The journal is folded into the snapshot when it grows past this size. */
const COMPACT_BYTES = 16 * 1024 * 1024;

const key = (ns: string | undefined, name: string) => `${ns ?? ''}/${name}`;

/** Reads the snapshot and replays the journal: the objects as last written, and the highest resourceVersion seen. */
export function readJournal(dir: string): Snapshot {
  const snap: Snapshot = { rv: 0, objects: { Namespace: [], Node: [], Pod: [], Event: [] } };
  const maps = { Namespace: new Map<string, unknown>(), Node: new Map<string, unknown>(), Pod: new Map<string, unknown>(), Event: new Map<string, unknown>() };
  const seeRv = (rv: string | undefined) => {
    const n = Number(rv);
    if (Number.isFinite(n) && n > snap.rv) snap.rv = n;
  };
  try {
    const s = JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8')) as Snapshot;
    seeRv(String(s.rv));
    for (const k of JOURNALED_KINDS) for (const o of s.objects?.[k] ?? []) maps[k].set(key(o.metadata?.namespace, o.metadata?.name ?? ''), o);
  } catch {
    // no snapshot yet (or an unreadable one: the journal and the runtime rebuild what they can)
  }
  let text = '';
  try {
    text = readFileSync(join(dir, 'journal.jsonl'), 'utf8');
  } catch {
    // no journal
  }
  for (const raw of text.split('\n')) {
    if (!raw) continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      continue; // a torn last line
    }
    if (!journaled(line.k)) continue;
    if (line.t === 'put') {
      seeRv(line.o.metadata?.resourceVersion);
      maps[line.k].set(key(line.o.metadata?.namespace, line.o.metadata?.name ?? ''), line.o);
    } else {
      seeRv(line.rv);
      maps[line.k].delete(key(line.ns, line.n));
    }
  }
  for (const k of JOURNALED_KINDS) (snap.objects[k] as unknown[]) = [...maps[k].values()];
  return snap;
}

function writeSnapshot(dir: string, snap: Snapshot): void {
  const tmp = join(dir, `snapshot.json.${process.pid}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeFileSync(fd, JSON.stringify(snap));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, 'snapshot.json'));
  rmSync(join(dir, 'journal.jsonl'), { force: true });
}

/**
 * Loads the persisted objects into the store (keeping their uid and resourceVersion), then
 * records every later write of the journaled kinds. Events past their TTL are dropped at load.
 */
export class StoreJournal {
  private pending: string[] = [];
  private scheduled = false;
  private bytes = 0;
  private readonly sub: { dispose(): void };
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly dir: string,
    now: number,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const snap = readJournal(dir);
    snap.objects.Event = snap.objects.Event.filter((e) => {
      const t = Date.parse(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp ?? '');
      return !Number.isFinite(t) || now - t < EVENT_TTL_MS;
    });
    store.advanceTo(snap.rv);
    for (const k of JOURNALED_KINDS) for (const o of snap.objects[k]) store.put(k, o as ObjOf<typeof k>);
    // Fold what was read into a fresh snapshot, so the journal starts empty.
    writeSnapshot(dir, { rv: snap.rv, objects: snap.objects });
    this.sub = store.watch((e) => this.record(e));
  }

  /** The journal's directory for a lab. */
  static dirFor(stateDir: string): string {
    return join(stateDir, 'store');
  }

  static exists(stateDir: string): boolean {
    return existsSync(join(StoreJournal.dirFor(stateDir), 'snapshot.json'));
  }

  private record(e: WatchEvent): void {
    if (this.closed || !journaled(e.kind)) return;
    const md = e.object.metadata ?? {};
    const line: Line =
      e.type === 'DELETED'
        ? { t: 'del', k: e.kind, ...(md.namespace !== undefined ? { ns: md.namespace } : {}), n: md.name ?? '', rv: md.resourceVersion ?? '' }
        : { t: 'put', k: e.kind, o: e.object as ObjOf<JKind> };
    this.pending.push(JSON.stringify(line));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes what is pending (called once per tick, and on close). */
  flush(): void {
    this.scheduled = false;
    if (!this.pending.length) return;
    const text = `${this.pending.join('\n')}\n`;
    this.pending = [];
    try {
      appendFileSync(join(this.dir, 'journal.jsonl'), text, { mode: 0o600 });
      this.bytes += text.length;
      if (this.bytes > COMPACT_BYTES) this.compact();
    } catch (err) {
      this.log(`cannot write the store journal: ${(err as Error).message}`);
    }
  }

  /** Folds the journal into a snapshot of the store as it is now. */
  compact(): void {
    const objects = { Namespace: this.store.list('Namespace'), Node: this.store.list('Node'), Pod: this.store.list('Pod'), Event: this.store.list('Event') };
    writeSnapshot(this.dir, { rv: Number(this.store.currentResourceVersion()), objects });
    this.bytes = 0;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.sub.dispose();
  }
}
