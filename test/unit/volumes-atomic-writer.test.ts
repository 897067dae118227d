// The atomic writer (src/engine/kubelet/volumes/atomic-writer.ts) on a temporary directory: the
// exact layout, modes whatever the umask, updates, unchanged payloads, stale entries, nested paths.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timestampPrefix, writePayload } from '../../src/engine/kubelet/volumes/atomic-writer.js';
import type { FileProjection } from '../../src/engine/kubelet/volumes/payload.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'podlab-aw-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2024, 0, 2, 3, 4, 5);
const TS0 = '..2024_01_02_03_04_05.42';
const TS1 = '..2024_01_02_03_04_06.43';

/** Every entry below `root`: `link <target>`, `dir <mode>` or `file <mode> <content>`. */
function tree(root: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(root, rel)).sort()) {
    const p = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(root, p));
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isSymbolicLink()) out[p] = `link ${readlinkSync(join(root, p))}`;
    else if (st.isDirectory()) {
      out[p] = `dir ${mode}`;
      Object.assign(out, tree(root, p));
    } else out[p] = `file ${mode} ${readFileSync(join(root, p), 'utf8')}`;
  }
  return out;
}

const files = (o: Record<string, [string, number]>) =>
  new Map<string, FileProjection>(Object.entries(o).map(([k, [d, m]]) => [k, { data: Buffer.from(d), mode: m }]));

test('the timestamp prefix is Go\'s "..2006_01_02_15_04_05." in UTC', () => {
  assert.equal(timestampPrefix(Date.UTC(2025, 11, 31, 23, 59, 7, 999)), '..2025_12_31_23_59_07.');
});

test('a first write: files in the timestamped dir, ..data links to it, each top-level entry links into ..data', () => {
  const wrote = writePayload(dir, files({ a: ['A', 0o644], 'conf/x.yaml': ['X', 0o600], 'conf/deep/y': ['Y', 0o400] }), T0, () => 42);
  assert.deepEqual(
    { wrote, tree: tree(dir) },
    {
      wrote: true,
      tree: {
        [TS0]: 'dir 755',
        [`${TS0}/a`]: 'file 644 A',
        [`${TS0}/conf`]: 'dir 755',
        [`${TS0}/conf/deep`]: 'dir 755',
        [`${TS0}/conf/deep/y`]: 'file 400 Y',
        [`${TS0}/conf/x.yaml`]: 'file 600 X',
        '..data': `link ${TS0}`,
        a: 'link ..data/a',
        conf: 'link ..data/conf',
      },
    },
  );
  assert.equal(readFileSync(join(dir, 'conf/x.yaml'), 'utf8'), 'X');
});

test('file and directory modes are applied whatever the umask', () => {
  const old = process.umask(0o077);
  try {
    writePayload(dir, files({ open: ['O', 0o666], 'sub/x': ['S', 0o755] }), T0, () => 42);
  } finally {
    process.umask(old);
  }
  assert.deepEqual(tree(dir), {
    [TS0]: 'dir 755',
    [`${TS0}/open`]: 'file 666 O',
    [`${TS0}/sub`]: 'dir 755',
    [`${TS0}/sub/x`]: 'file 755 S',
    '..data': `link ${TS0}`,
    open: 'link ..data/open',
    sub: 'link ..data/sub',
  });
});

test('an unchanged payload is not rewritten (not even for a new mode: only content is compared)', () => {
  writePayload(dir, files({ a: ['A', 0o644] }), T0, () => 42);
  const before = tree(dir);
  const wrote = writePayload(dir, files({ a: ['A', 0o600] }), T0 + 1000, () => 43);
  assert.deepEqual({ wrote, tree: tree(dir) }, { wrote: false, tree: before });
});

test('an update writes a new timestamped dir, swaps ..data, removes stale entries and the old dir', () => {
  writePayload(dir, files({ a: ['A', 0o644], 'conf/x': ['X', 0o644], gone: ['G', 0o644] }), T0, () => 42);
  const wrote = writePayload(dir, files({ a: ['A2', 0o644], b: ['B', 0o400] }), T0 + 1000, () => 43);
  assert.deepEqual(
    { wrote, tree: tree(dir) },
    {
      wrote: true,
      tree: {
        [TS1]: 'dir 755',
        [`${TS1}/a`]: 'file 644 A2',
        [`${TS1}/b`]: 'file 400 B',
        '..data': `link ${TS1}`,
        a: 'link ..data/a',
        b: 'link ..data/b',
      },
    },
  );
});

test('a nested file removed under a kept directory goes with the old dir; the top-level link stays', () => {
  writePayload(dir, files({ 'd/x': ['X', 0o644], 'd/y': ['Y', 0o644] }), T0, () => 42);
  const wrote = writePayload(dir, files({ 'd/x': ['X', 0o644] }), T0 + 1000, () => 43);
  assert.deepEqual(
    { wrote, tree: tree(dir) },
    {
      wrote: true,
      tree: { [TS1]: 'dir 755', [`${TS1}/d`]: 'dir 755', [`${TS1}/d/x`]: 'file 644 X', '..data': `link ${TS1}`, d: 'link ..data/d' },
    },
  );
});

test('an unchanged payload re-creates a missing user-visible link (kubernetes#121472)', () => {
  writePayload(dir, files({ a: ['A', 0o644] }), T0, () => 42);
  unlinkSync(join(dir, 'a'));
  const wrote = writePayload(dir, files({ a: ['A', 0o644] }), T0 + 1000, () => 43);
  assert.deepEqual({ wrote, tree: tree(dir) }, { wrote: false, tree: { [TS0]: 'dir 755', [`${TS0}/a`]: 'file 644 A', '..data': `link ${TS0}`, a: 'link ..data/a' } });
});

test('an empty payload is a timestamped dir and ..data only', () => {
  const wrote = writePayload(dir, new Map(), T0, () => 42);
  assert.deepEqual({ wrote, tree: tree(dir) }, { wrote: true, tree: { [TS0]: 'dir 755', '..data': `link ${TS0}` } });
});

test('a taken random suffix is skipped like os.MkdirTemp does', () => {
  writePayload(dir, files({ a: ['A', 0o644] }), T0, () => 42);
  const seq = [42, 7];
  writePayload(dir, files({ a: ['B', 0o644] }), T0, () => seq.shift()!);
  assert.equal(readlinkSync(join(dir, '..data')), '..2024_01_02_03_04_05.7');
});

const invalid: { name: string; path: string; want: string }[] = [
  { name: 'an empty path', path: '', want: 'invalid path: must not be empty: ""' },
  { name: 'an absolute path', path: '/etc/x', want: 'invalid path: must be relative path: /etc/x' },
  { name: 'a path with a .. element', path: 'a/../b', want: "invalid path: must not contain '..': a/../b" },
  { name: 'a path starting with ..', path: '..data2', want: "invalid path: must not start with '..': ..data2" },
  { name: 'a file name over 255 bytes', path: `d/${'x'.repeat(256)}`, want: 'invalid path: filenames must be less than or equal to 255 characters' },
];
for (const c of invalid) {
  test(`the writer refuses ${c.name} and writes nothing`, () => {
    assert.throws(() => writePayload(dir, files({ ok: ['1', 0o644], [c.path]: ['2', 0o644] }), T0, () => 42), { message: c.want });
    assert.deepEqual(tree(dir), {});
  });
}
