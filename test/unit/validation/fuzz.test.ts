// Fuzz: at least 100,000 mutated manifests (examples and corpus: lines deleted or duplicated,
// characters swapped or inserted, indentation changed, values replaced, documents split or cut). The
// validator must never throw, and every problem must be well-formed: 1-based line/column matching its
// offset, offset ≤ endOffset ≤ text length, a known type, message rendered from field/type/detail.
// Two processes share the work (deterministic seeds), so it stays well under a minute on two cores.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const TOTAL = Number(process.env.PODLAB_FUZZ_CASES ?? 100_000);
const SHARES = 2;
const WORKER = fileURLToPath(new URL('./fuzz-worker.ts', 'file://' + __filename));

type Share = { ran: number; failures: { text: string; why: string[] }[] };

function share(seed: number, count: number): Promise<Share> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, String(seed), String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Share) : reject(new Error(`fuzz share exited ${code}: ${err}`))));
  });
}

test(`the validator never throws and reports well-formed problems on ${TOTAL} mutated manifests`, async () => {
  const results = await Promise.all(Array.from({ length: SHARES }, (_, i) => share(1000 + i, Math.ceil(TOTAL / SHARES))));
  const ran = results.reduce((n, r) => n + r.ran, 0);
  assert.ok(ran >= TOTAL, `ran ${ran}`);
  assert.deepEqual(results.flatMap((r) => r.failures).slice(0, 3), []);
});
