// kubectl's own `-o yaml` against src/shared/go-yaml.ts, on generated values: kubectl 1.33 prints
// a ConfigMap made from a folder of files (`create configmap --from-file=DIR --dry-run=client`, no
// server needed), and the module must print the same ConfigMap byte for byte. The values mix
// YAML's indicators, quotes, tabs, line breaks, non-ASCII and astral characters, words that read
// as booleans, numbers and times, and runs long enough to fold; the keys mix letters, digits and
// punctuation for go-yaml's key order. Seeded: a failure names its seed and the first line apart.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goYamlKeyLess, kubectlYaml } from '../../src/shared/go-yaml.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

/** A small linear congruential generator: the same seed, the same values. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** kubectl's YAML of a ConfigMap whose data are the files; and the module's of the same object. */
function bothPrint(data: Record<string, string>): { kubectl: string; ours: string } {
  const dir = mkdtempSync(join(tmpdir(), 'podlab-yaml-'));
  try {
    for (const [k, v] of Object.entries(data)) writeFileSync(join(dir, k), v);
    const kubectl = execFileSync(KUBECTL, ['create', 'configmap', 't', `--from-file=${dir}`, '--dry-run=client', '-o', 'yaml'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const ours = kubectlYaml({ apiVersion: 'v1', data, kind: 'ConfigMap', metadata: { creationTimestamp: null, name: 't' } });
    return { kubectl, ours };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function firstDifference(a: string, b: string): string {
  const al = a.split('\n');
  const bl = b.split('\n');
  const i = al.findIndex((l, n) => l !== bl[n]);
  return `line ${i + 1}: kubectl ${JSON.stringify(al[i])}, ours ${JSON.stringify(bl[i])}`;
}

const ATOMS = ['a', 'word', 'longerword', ' ', '  ', ':', ': ', '#', ' #', '-', '- ', "'", '"', '\t', '\n', '\n\n', '\r', 'é', '😀', '\u0085', '\u2028', '\ufeff', '\\', '0', '1', '.', '{', '}', '[', ']', ',', '?', '|', '>', '!', '&', '*', '%', '@', '`', '~', 'true', '1.5', '0x1F', '2026-11-24', '1:20', '---', '\u00a0', '\u0007', 'ünïcödé', 'x'.repeat(30)];

describe("kubectl 1.33's -o yaml and the lab's, on generated values", () => {
  test('kubectl is on this machine', () => assert.ok(existsSync(KUBECTL), `${KUBECTL} is missing`));

  for (const seed of [1, 2, 3]) {
    test(`values (seed ${seed}): 400 strings of indicators, quotes, breaks, non-ASCII and long runs print the same`, () => {
      const next = random(seed);
      const data: Record<string, string> = {};
      for (let i = 0; i < 400; i++) {
        let s = '';
        for (let n = 1 + Math.floor(next() * 25); n > 0; n--) s += ATOMS[Math.floor(next() * ATOMS.length)];
        data[`k${String(i).padStart(4, '0')}`] = s;
      }
      const { kubectl, ours } = bothPrint(data);
      assert.ok(kubectl === ours, firstDifference(kubectl, ours));
    });

    test(`keys (seed ${seed}): letters, digits and punctuation sort as go-yaml sorts them`, () => {
      const next = random(seed);
      const parts = ['a', 'b', 'A', 'Z', '_', '-', '.', '0', '00', '1', '9', '10', '010', '99', 'x', 'true', '8080'];
      const keys = new Set(['a9', 'a10', 'a0', 'A', '_x', '-x', '.x', 'x.1', 'x.10', 'k'.repeat(128), 'k'.repeat(129)]);
      while (keys.size < 250) {
        let k = '';
        for (let n = 1 + Math.floor(next() * 6); n > 0; n--) k += parts[Math.floor(next() * parts.length)];
        if (k !== '.' && !k.startsWith('..')) keys.add(k);
      }
      // go-yaml compares digit runs as numbers, which can make a cycle (a9x < a10 < a90 < a9x):
      // then kubectl's own order changes from run to run (Go's sort starts from the map's random
      // order). Only cycle-free sets are compared.
      for (;;) {
        const sorted = [...keys].sort((a, b) => (goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0));
        const inverted = sorted.find((k, i) => sorted.slice(0, i).some((earlier) => !goYamlKeyLess(earlier, k)));
        if (inverted === undefined) break;
        keys.delete(inverted);
      }
      assert.ok(keys.size > 150, `${keys.size} keys left`);
      const { kubectl, ours } = bothPrint(Object.fromEntries([...keys].map((k) => [k, 'v'])));
      assert.ok(kubectl === ours, firstDifference(kubectl, ours));
    });
  }
});
