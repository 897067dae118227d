// Validation benchmark (`npm run bench` calls benchValidate; also `node --import tsx bench/validate.ts`).
// Prints, for a typical Pod and for a 10,000-line multi-document file, the time of validateText next
// to the bare `yaml` parseAllDocuments time of the same text (the floor; goal: at most 2×), the cost
// of one keystroke in the big file through IncrementalValidator, and whether dist/cli.js (the bundle
// `podlab validate` runs) contains Docker code. Prints figures, asserts nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { IncrementalValidator, validateText } from '../src/validation/index.js';
import { PARSE_OPTIONS } from '../src/validation/documents.js';

const root = join(__dirname, '..');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median ms of `fn` over `rounds` rounds of `reps` calls each, after a warm-up. */
function time(fn: () => void, reps: number, rounds = 7): number {
  for (let i = 0; i < reps; i++) fn();
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) fn();
    ms.push((performance.now() - t0) / reps);
  }
  return median(ms);
}

function bigFile(lines: number): string {
  const sources = ['test/unit/validation/corpus/full-featured.yaml', 'examples/two-containers.yaml', 'examples/init-containers.yaml', 'examples/crashloop.yaml', 'examples/invalid.yaml'];
  const docs = sources.map((f) => readFileSync(join(root, f), 'utf8').trimEnd());
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < lines; i++) {
    const d = docs[i % docs.length]!.replace(/^(\s*name: )([a-z-]+)$/m, `$1$2-${i}`);
    parts.push(d);
    n += d.split('\n').length + 1;
  }
  return parts.join('\n---\n') + '\n';
}

const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0).padStart(6)} µs` : `${ms.toFixed(2).padStart(6)} ms`);

export async function benchValidate(): Promise<void> {
  const parse = (t: string) => parseAllDocuments(t, PARSE_OPTIONS);
  console.log('\nValidation (median; bare parse = yaml parseAllDocuments of the same text, the floor)');

  const typical = readFileSync(join(root, 'examples/two-containers.yaml'), 'utf8');
  const full = readFileSync(join(root, 'test/unit/validation/corpus/full-featured.yaml'), 'utf8');
  for (const [label, text] of [['typical pod (examples/two-containers.yaml)', typical], ['full-featured pod (corpus, ' + full.split('\n').length + ' lines)', full]] as const) {
    const p = time(() => parse(text), 200);
    const v = time(() => validateText(text), 200);
    console.log(`  ${label.padEnd(44)} validate ${fmt(v)}   bare parse ${fmt(p)}   ratio ${(v / p).toFixed(2)}×  (goal ≤ 2)`);
  }

  const big = bigFile(10000);
  const lines = big.split('\n').length;
  const docs = validateText(big).documents.length;
  const pb = time(() => parse(big), 1, 5);
  const vb = time(() => validateText(big), 1, 5);
  console.log(`  ${`${lines}-line file, ${docs} documents`.padEnd(44)} validate ${fmt(vb)}   bare parse ${fmt(pb)}   ratio ${(vb / pb).toFixed(2)}×  (goal ≤ 2)`);

  // One keystroke in a document in the middle of the big file, through the editor's incremental path.
  const inc = new IncrementalValidator();
  inc.update(big);
  const mid = big.indexOf('image: ', Math.floor(big.length / 2)) + 'image: '.length;
  let variant = 0;
  const keystroke = () => {
    variant++;
    const edited = big.slice(0, mid) + String.fromCharCode(97 + (variant % 26)) + big.slice(mid);
    inc.update(edited);
  };
  const k = time(keystroke, 3, 7);
  const oneDoc = big.slice(big.lastIndexOf('\n---\n', mid), big.indexOf('\n---\n', mid));
  const d = time(() => validateText(oneDoc), 50);
  console.log(`  one keystroke in the ${lines}-line file (IncrementalValidator.update)  ${fmt(k)}   one document alone ${fmt(d)}   whole file ${fmt(vb)}`);

  const cli = join(root, 'dist/cli.js');
  if (!existsSync(cli)) execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit', cwd: root });
  const bundle = readFileSync(cli, 'utf8');
  const docker = ['dockerode', 'docker-modem', 'ssh2'].filter((s) => bundle.includes(s));
  console.log(`  dist/cli.js (podlab validate): ${(bundle.length / 1024).toFixed(0)} KiB, ${docker.length ? `CONTAINS ${docker.join(', ')}` : 'no dockerode, docker-modem or ssh2'}`);
}

if (require.main === module) {
  benchValidate().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
