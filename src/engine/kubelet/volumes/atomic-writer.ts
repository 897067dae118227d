// The atomic writer that configMap, secret, downwardAPI and projected volumes are written with
// (upstream pkg/volume/util/atomic_writer.go). Real files live in a hidden timestamped directory
// `..<UTC 2006_01_02_15_04_05>.<random digits>` (os.MkdirTemp, chmod 0755); the symlink `..data`
// points at it and each top-level entry is a symlink `<entry>` → `..data/<entry>`. An update
// writes a new timestamped directory, renames a `..data_tmp` symlink over `..data` (atomic), then
// removes stale top-level entries and the old directory; an unchanged payload is not rewritten.
// The imperative shell over the filesystem (synchronous: the writer is not concurrent upstream either).
import { randomInt } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanPath, type FileProjection } from './payload.js';

export const DataDirName = '..data';
export const NewDataDirName = '..data_tmp';
const maxFileNameLength = 255;
const maxPathLength = 4096;

/** validatePath: the upstream error text for a payload path the writer refuses, or undefined. */
export function validatePath(p: string): string | undefined {
  if (p === '') return `invalid path: must not be empty: ""`;
  if (p.startsWith('/')) return `invalid path: must be relative path: ${p}`;
  if (Buffer.byteLength(p) > maxPathLength) return `invalid path: must be less than or equal to ${maxPathLength} characters`;
  const items = p.split('/');
  for (const item of items) {
    if (item === '..') return `invalid path: must not contain '..': ${p}`;
    if (Buffer.byteLength(item) > maxFileNameLength) return `invalid path: filenames must be less than or equal to ${maxFileNameLength} characters`;
  }
  if (items[0]!.startsWith('..') && items[0]!.length > 2) return `invalid path: must not start with '..': ${p}`;
  return undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The MkdirTemp prefix: `..` + the UTC time as Go's `2006_01_02_15_04_05` + `.`. */
export function timestampPrefix(now: number): string {
  const d = new Date(now);
  return `..${d.getUTCFullYear()}_${pad(d.getUTCMonth() + 1)}_${pad(d.getUTCDate())}_${pad(d.getUTCHours())}_${pad(d.getUTCMinutes())}_${pad(d.getUTCSeconds())}.`;
}

/** os.MkdirTemp's random part: a uint32 in decimal. */
export const randomUint32 = (): number => randomInt(0, 2 ** 32 - 1);

function isNotExist(e: unknown): boolean {
  return (e as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/** filepath.Walk of a directory (without following symlinks): every path below it, relative. */
function walk(root: string, rel = ''): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(join(root, rel));
  } catch (e) {
    if (isNotExist(e)) return out;
    throw e;
  }
  for (const name of entries) {
    const p = rel ? `${rel}/${name}` : name;
    out.push(p);
    if (lstatSync(join(root, p)).isDirectory()) out.push(...walk(root, p));
  }
  return out;
}

/** Every path of the payload and each of its parent directories. */
function payloadPaths(files: Map<string, FileProjection>): Set<string> {
  const s = new Set<string>();
  for (const f of files.keys()) {
    for (let p = f; p !== ''; p = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') s.add(p);
  }
  return s;
}

/** shouldWriteFile for each file: absent from the old directory, or different bytes (modes are not compared, as upstream). */
function shouldWritePayload(files: Map<string, FileProjection>, oldTsPath: string): boolean {
  for (const [p, f] of files) {
    const full = join(oldTsPath, p);
    try {
      lstatSync(full);
    } catch (e) {
      if (isNotExist(e)) return true;
      throw e;
    }
    if (!readFileSync(full).equals(f.data)) return true;
  }
  return false;
}

function newTimestampDir(targetDir: string, now: number, random: () => number): string {
  const prefix = timestampPrefix(now);
  for (let i = 0; i < 10000; i++) {
    const name = `${prefix}${random() >>> 0}`;
    try {
      mkdirSync(join(targetDir, name), { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw e;
    }
    // 0755 so that group and other can traverse, whatever the umask.
    chmodSync(join(targetDir, name), 0o755);
    return name;
  }
  throw new Error(`mkdirtemp ${join(targetDir, prefix)}*: too many attempts`);
}

function writePayloadToDir(files: Map<string, FileProjection>, dir: string): void {
  for (const [p, f] of files) {
    const full = join(dir, p);
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
      const sub = join(dir, ...parts.slice(0, i));
      try {
        mkdirSync(sub);
        chmodSync(sub, 0o755); // what MkdirAll(0777) gives under the kubelet's umask 022
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
    writeFileSync(full, f.data, { mode: f.mode & 0o777 });
    // The mode the payload asks for, whatever the umask (os.WriteFile honours it; the Chmod does not).
    chmodSync(full, f.mode & 0o777);
  }
}

function createUserVisibleFiles(files: Map<string, FileProjection>, targetDir: string): void {
  for (const p of files.keys()) {
    const linkname = p.includes('/') ? p.slice(0, p.indexOf('/')) : p;
    try {
      readlinkSync(join(targetDir, linkname));
    } catch (e) {
      if (!isNotExist(e)) continue;
      symlinkSync(`${DataDirName}/${linkname}`, join(targetDir, linkname));
    }
  }
}

/**
 * AtomicWriter.Write: projects `files` into `targetDir` (which must exist). `now` names the new
 * timestamped directory, `random` its suffix. Returns true when a new version was written, false
 * when the payload was already there (only missing user-visible symlinks are then re-created).
 * Throws on an invalid path (`invalid path: …`) or a filesystem error.
 */
export function writePayload(targetDir: string, files: Map<string, FileProjection>, now: number, random: () => number = randomUint32): boolean {
  // (1) validate and clean the paths
  const clean = new Map<string, FileProjection>();
  for (const [k, v] of files) {
    const err = validatePath(k);
    if (err) throw new Error(err);
    clean.set(cleanPath(k), v);
  }
  // (2) the current timestamped directory
  const dataDirPath = join(targetDir, DataDirName);
  let oldTsDir = '';
  try {
    oldTsDir = readlinkSync(dataDirPath);
  } catch (e) {
    if (!isNotExist(e)) throw e;
  }
  const oldTsPath = join(targetDir, oldTsDir);
  let toRemove: string[] = [];
  let shouldWrite = true;
  if (oldTsDir) {
    // (3) paths of the old version that the new payload no longer has
    const keep = payloadPaths(clean);
    toRemove = walk(oldTsPath).filter((p) => !keep.has(p));
    // (4) is an update needed at all?
    if (!shouldWritePayload(clean, oldTsPath) && toRemove.length === 0) {
      shouldWrite = false;
      oldTsDir = '';
    }
  }
  if (shouldWrite) {
    // (5)-(6) a new timestamped directory with the payload
    const tsDirName = newTimestampDir(targetDir, now, random);
    const tsDir = join(targetDir, tsDirName);
    writePayloadToDir(clean, tsDir);
    // (8)-(9) ..data_tmp → new dir, renamed over ..data
    const newDataDirPath = join(targetDir, NewDataDirName);
    try {
      symlinkSync(tsDirName, newDataDirPath);
    } catch (e) {
      rmSync(tsDir, { recursive: true, force: true });
      throw e;
    }
    try {
      renameSync(newDataDirPath, dataDirPath);
    } catch (e) {
      rmSync(newDataDirPath, { force: true });
      rmSync(tsDir, { recursive: true, force: true });
      throw e;
    }
  }
  // (10) user-visible symlinks
  createUserVisibleFiles(clean, targetDir);
  // (11) stale top-level entries (nested paths go with the old directory)
  let lastErr: unknown;
  for (const p of toRemove) {
    if (p.includes('/')) continue;
    try {
      unlinkSync(join(targetDir, p));
    } catch (e) {
      lastErr = e;
    }
  }
  if (lastErr) throw lastErr;
  // (12) the previous timestamped directory
  if (oldTsDir) rmSync(oldTsPath, { recursive: true, force: true });
  return shouldWrite;
}
