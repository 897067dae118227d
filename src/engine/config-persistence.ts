// ConfigMaps and Secrets kept as files of the lab, the I/O shell around config-objects.ts. Pods are
// adopted from Docker (the sandbox keeps the manifest), but these objects have no container: each
// lives in `<stateDir>/objects/<resource>/<namespace>/<name>.json` (like etcd's
// /registry/configmaps/<ns>/<name>), written atomically (write, then rename; Secrets 0600 in 0700
// directories). Every engine (active or passive) loads them at start and watches the directory
// (debounced), so creations, updates and deletions made by another process reach its store as
// ADDED / MODIFIED / DELETED — what the kubelet's watch-based configmap/secret manager
// (pkg/kubelet/util/manager/watch_based_manager.go) gets from the API server. Bad files are skipped
// with a log line.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ApplyResult, ConfigObject, ConfigObjectKind, ConfigObjectOf } from './api.js';
import { NotFoundError, type Store } from './store.js';
import type { Clock } from './clock.js';
import { CONFIG_KINDS, RESOURCE, normalizeConfigObject, planApply } from './config-objects.js';

export interface ConfigObjectFilesOptions {
  stateDir: string;
  store: Store;
  clock: Clock;
  log: (line: string) => void;
  /** Quiet time after a directory change before the files are read again (default 30 ms). */
  debounceMs?: number;
  /** Safety-net rescan period, in case a watch event is lost (default 10 s; 0: none). */
  rescanIntervalMs?: number;
}

export const objectsDir = (stateDir: string) => join(stateDir, 'objects');
export const objectPath = (stateDir: string, kind: ConfigObjectKind, namespace: string, name: string) => join(objectsDir(stateDir), RESOURCE[kind], namespace, `${name}.json`);

const keyOf = (ns: string, name: string) => `${ns}/${name}`;

/** Reads a file's text as one of the lab's objects: the kind, namespace and name must match its place. */
export function parseObjectFile<K extends ConfigObjectKind>(text: string, kind: K, namespace: string, name: string): { object: ConfigObjectOf<K> } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON (${(e as Error).message})` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: 'not an object' };
  const o = v as ConfigObject;
  const md = o.metadata;
  if (o.kind !== kind) return { error: `kind is ${JSON.stringify(o.kind)}, not ${kind}` };
  if (!md || md.name !== name || md.namespace !== namespace) return { error: `metadata does not name ${namespace}/${name}` };
  if (typeof md.uid !== 'string' || !md.uid || typeof md.resourceVersion !== 'string' || !md.resourceVersion) return { error: 'no uid or resourceVersion' };
  return { object: o as ConfigObjectOf<K> };
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => !f.startsWith('.'));
  } catch {
    return [];
  }
}

export class ConfigObjectFiles {
  /** One watcher per directory (the kinds' and each namespace's): Node 20's recursive watch misses deletions on Linux. */
  private readonly watchers = new Map<string, FSWatcher>();
  private debounce?: NodeJS.Timeout;
  private safety?: NodeJS.Timeout;
  private disposed = false;
  /** Bad files already reported, by path: size and mtime, so a file is logged once per version. */
  private readonly reported = new Map<string, string>();

  constructor(private readonly o: ConfigObjectFilesOptions) {}

  private get root(): string {
    return objectsDir(this.o.stateDir);
  }

  private dirMode(kind: ConfigObjectKind): number {
    return kind === 'Secret' ? 0o700 : 0o755;
  }

  /** Loads every object into the store and starts watching the directory. */
  start(): void {
    for (const k of CONFIG_KINDS) mkdirSync(join(this.root, RESOURCE[k]), { recursive: true, mode: this.dirMode(k) });
    this.rescan();
    const every = this.o.rescanIntervalMs ?? 10_000;
    if (every > 0) {
      this.safety = setInterval(() => this.rescanSafely(), every);
      this.safety.unref?.();
    }
  }

  /** Watches every directory that exists (new namespaces included) and forgets removed ones. */
  private watchDirectories(): void {
    if (this.disposed) return;
    const dirs = new Set<string>();
    for (const kind of CONFIG_KINDS) {
      const kindDir = join(this.root, RESOURCE[kind]);
      dirs.add(kindDir);
      for (const ns of entries(kindDir)) dirs.add(join(kindDir, ns));
    }
    for (const [dir, w] of this.watchers) {
      if (dirs.has(dir)) continue;
      w.close();
      this.watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (this.watchers.has(dir)) continue;
      try {
        const w = watch(dir, () => this.changed());
        w.on('error', () => {
          // The directory went away: the next rescan forgets it.
          w.close();
          this.watchers.delete(dir);
        });
        w.unref?.();
        this.watchers.set(dir, w);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && (e as NodeJS.ErrnoException).code !== 'ENOTDIR') this.o.log(`cannot watch ${dir}: ${(e as Error).message}`);
      }
    }
  }

  private changed(): void {
    if (this.disposed) return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => this.rescanSafely(), this.o.debounceMs ?? 30);
    this.debounce.unref?.();
  }

  private rescanSafely(): void {
    if (this.disposed) return;
    try {
      this.rescan();
    } catch (e) {
      this.o.log(`cannot read ${this.root}: ${(e as Error).message}`);
    }
  }

  /** Reads one file: the object, `undefined` when there is none, `bad` when it cannot be used (logged once). */
  private read<K extends ConfigObjectKind>(kind: K, ns: string, name: string): ConfigObjectOf<K> | undefined | 'bad' {
    const file = objectPath(this.o.stateDir, kind, ns, name);
    let text: string;
    let sig: string;
    try {
      const st = statSync(file);
      sig = `${st.size}/${st.mtimeMs}`;
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      this.o.log(`skipping ${file}: ${(e as Error).message}`);
      return 'bad';
    }
    const r = parseObjectFile(text, kind, ns, name);
    if ('object' in r) {
      this.reported.delete(file);
      return r.object;
    }
    if (this.reported.get(file) !== sig) {
      this.reported.set(file, sig);
      this.o.log(`skipping ${file}: ${r.error}`);
    }
    return 'bad';
  }

  /** Brings the store in line with the files: ADDED / MODIFIED / DELETED for what changed. */
  rescan(): void {
    this.watchDirectories();
    for (const kind of CONFIG_KINDS) {
      const seen = new Set<string>();
      const dir = join(this.root, RESOURCE[kind]);
      for (const ns of entries(dir)) {
        for (const f of entries(join(dir, ns))) {
          if (!f.endsWith('.json')) continue;
          const name = f.slice(0, -'.json'.length);
          const got = this.read(kind, ns, name);
          if (got === undefined) continue;
          // A bad file keeps what the store had (a half-written or corrupt file is not a deletion).
          seen.add(keyOf(ns, name));
          if (got !== 'bad') this.o.store.put(kind, got);
        }
      }
      for (const obj of this.o.store.list(kind)) {
        const ns = obj.metadata?.namespace ?? 'default';
        const name = obj.metadata?.name ?? '';
        if (!seen.has(keyOf(ns, name))) this.o.store.delete(kind, ns, name);
      }
    }
  }

  private write(kind: ConfigObjectKind, obj: ConfigObject): void {
    const ns = obj.metadata?.namespace ?? 'default';
    const name = obj.metadata?.name ?? '';
    const file = objectPath(this.o.stateDir, kind, ns, name);
    const dir = join(this.root, RESOURCE[kind], ns);
    mkdirSync(dir, { recursive: true, mode: this.dirMode(kind) });
    const tmp = join(dir, `.${name}.json.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
    try {
      writeFileSync(tmp, `${JSON.stringify(obj)}\n`, { mode: kind === 'Secret' ? 0o600 : 0o644 });
      renameSync(tmp, file);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  }

  /** kubectl apply (see EngineApi.applyObject). */
  apply<O extends ConfigObject>(input: O): ApplyResult<O> {
    const kind = input.kind as ConfigObjectKind;
    if (kind !== 'ConfigMap' && kind !== 'Secret') throw new Error(`cannot apply a ${String(input.kind)}: Pod Lab stores ConfigMaps and Secrets`);
    const desired = normalizeConfigObject(kind, input);
    const ns = desired.metadata?.namespace ?? 'default';
    const name = desired.metadata?.name ?? '';
    if (!name) throw new Error(`${kind} has no metadata.name`);
    // The file is the truth (another process may have written it since the last rescan).
    const onDisk = this.read(kind, ns, name);
    const existing = (onDisk === 'bad' ? undefined : onDisk) as O | undefined;
    const result = planApply(kind, existing, desired, {
      now: this.o.clock.now(),
      uid: randomUUID(),
      resourceVersion: this.o.store.nextResourceVersion(Number(existing?.metadata?.resourceVersion ?? 0)),
    });
    if (result.outcome !== 'unchanged') this.write(kind, result.object);
    this.o.store.put(kind, result.object);
    return result;
  }

  get<K extends ConfigObjectKind>(kind: K, ns: string, name: string): ConfigObjectOf<K> | undefined {
    return this.o.store.get(kind, ns, name) as ConfigObjectOf<K> | undefined;
  }

  list<K extends ConfigObjectKind>(kind: K): ConfigObjectOf<K>[] {
    const k = (o: ConfigObject) => [o.metadata?.namespace ?? '', o.metadata?.name ?? ''];
    return (this.o.store.list(kind) as ConfigObjectOf<K>[]).sort((a, b) => {
      const [an, am] = k(a);
      const [bn, bm] = k(b);
      return an! < bn! ? -1 : an! > bn! ? 1 : am! < bm! ? -1 : am! > bm! ? 1 : 0;
    });
  }

  /** Removes the file and the object; NotFoundError when there is no such object. */
  delete<K extends ConfigObjectKind>(kind: K, ns: string, name: string): ConfigObjectOf<K> {
    const onDisk = this.read(kind, ns, name);
    const known = (onDisk === 'bad' || onDisk === undefined ? this.get(kind, ns, name) : onDisk) as ConfigObjectOf<K> | undefined;
    if (onDisk === undefined) {
      // Gone already (another process deleted it): the store catches up, and it is not found.
      this.o.store.delete(kind, ns, name);
      throw new NotFoundError(kind, name);
    }
    rmSync(objectPath(this.o.stateDir, kind, ns, name), { force: true });
    const gone = this.o.store.delete(kind, ns, name) as ConfigObjectOf<K> | undefined;
    return (gone ?? known ?? { apiVersion: 'v1', kind, metadata: { name, namespace: ns } }) as ConfigObjectOf<K>;
  }

  dispose(): void {
    this.disposed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.debounce) clearTimeout(this.debounce);
    if (this.safety) clearInterval(this.safety);
  }
}
