// The fuzz generator and checker (used by fuzz.test.ts, in worker threads): mutated manifests from the
// examples and the tests' corpus, and the well-formedness check of every problem.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateText, type ValidationResult } from '../../../src/validation/index.js';

const root = join(__dirname, '../../..');

export function seeds(): string[] {
  const out: string[] = [];
  // examples without their comment headers (comments cost parse time and are rarely interesting)
  for (const f of readdirSync(join(root, 'examples'))) if (f.endsWith('.yaml')) out.push(readFileSync(join(root, 'examples', f), 'utf8').replace(/^#.*\n/gm, ''));
  for (const f of readdirSync(join(__dirname, 'corpus'))) {
    if (!f.endsWith('.yaml')) continue;
    // big corpus files are cut into windows of ~25 lines: small texts keep the fuzz fast, and cut
    // windows are realistic half-typed manifests.
    const lines = readFileSync(join(__dirname, 'corpus', f), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i += 10) out.push(['apiVersion: v1', 'kind: Pod', 'metadata:', '  name: w', 'spec:', ...lines.slice(i, i + 20)].join('\n'));
  }
  // ConfigMaps and Secrets of every checked type, with base64 and JSON payloads to break
  out.push(
    [
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nimmutable: true\ndata:\n  app.properties: a=1\nbinaryData:\n  b: AAEC\n',
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: t\ntype: kubernetes.io/tls\ndata:\n  tls.crt: Y2VydA==\n  tls.key: a2V5\n',
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: r\ntype: kubernetes.io/dockerconfigjson\nstringData:\n  .dockerconfigjson: \'{"auths": {"r": {"auth": "eDp5"}}}\'\n',
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n  annotations:\n    kubernetes.io/service-account.name: default\ntype: kubernetes.io/basic-auth\nstringData:\n  username: u\n',
    ].join('---\n'),
  );
  return out;
}

const VALUES = ['', '-1', '0', '99999', '70000', 'x', 'X Y', '"8080"', '[]', '{}', 'null', '~', 'true', 'yes', 'n', '1.5', '500m', '1Mii', '1GB', 'Always', 'Never', ':', '- a', '&a', '*a', '!!str 1', '|', '>', '"', "'", '#', '[', '{a: 1', '0644', '0x1F', '1e400', '-0', '.inf', '2024-01-01', 'é', '\t', 'a: b: c', '? x', '%', '@', '`'];
const CHARS = [' ', '\t', '\n', ':', '-', '#', '"', "'", '[', ']', '{', '}', ',', '&', '*', '!', '|', '>', '%', '@', '\u0000', '\u00e9', '\u2028', '\ufeff', '\r', 'a', 'Z', '0', '.'];

export class Rng {
  constructor(private s: number) {}
  next(n: number): number {
    this.s = (Math.imul(this.s ^ (this.s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    return (this.s >>> 0) % Math.max(1, n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.next(xs.length)]!;
  }
}

export function mutate(text: string, r: Rng): string {
  const lines = text.split('\n');
  const i = r.next(lines.length);
  const line = lines[i]!;
  switch (r.next(10)) {
    case 0:
      lines.splice(i, 1);
      break;
    case 1:
      lines.splice(i, 0, line);
      break;
    case 2: {
      const p = r.next(Math.max(1, line.length - 1));
      lines[i] = line.slice(0, p) + line.charAt(p + 1) + line.charAt(p) + line.slice(p + 2);
      break;
    }
    case 3:
      lines[i] = r.next(2) ? ' '.repeat(1 + r.next(4)) + line : line.replace(/^ {1,4}/, '');
      break;
    case 4: {
      const c = line.indexOf(': ');
      lines[i] = c >= 0 ? line.slice(0, c + 2) + r.pick(VALUES) : line.replace(/(- )?.*$/, `$1${r.pick(VALUES)}`);
      break;
    }
    case 5: {
      const p = r.next(line.length + 1);
      lines[i] = line.slice(0, p) + r.pick(CHARS) + line.slice(p);
      break;
    }
    case 6:
      lines.splice(i, 0, '---');
      break;
    case 7:
      return text.slice(0, r.next(text.length + 1));
    case 8:
      if (i + 1 < lines.length) lines.splice(i, 2, line + lines[i + 1]);
      break;
    default: {
      const c = line.indexOf(':');
      if (c > 0) lines[i] = line.slice(0, c).replace(/[a-z]/, (ch) => ch.toUpperCase()) + line.slice(c);
    }
  }
  return lines.join('\n');
}

const TYPES = new Set(['Invalid value', 'Required value', 'Duplicate value', 'Unsupported value', 'Forbidden', 'Too long', 'Too many', 'Not found', 'Unknown field', 'Type mismatch', 'YAML syntax', 'Lab warning']);

/** Every way a result can be malformed for `text`; empty when well-formed. */
export function check(text: string, r: ValidationResult): string[] {
  const bad: string[] = [];
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const pos = (off: number): [number, number] => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= off) lo = mid;
      else hi = mid - 1;
    }
    return [lo + 1, off - starts[lo]! + 1];
  };
  if (r.problems.length !== r.documents.reduce((n, d) => n + d.problems.length, 0)) bad.push('problems do not match the documents');
  for (const p of r.problems) {
    const where = `${p.message} @${p.offset}`;
    if (!(0 <= p.offset && p.offset <= p.endOffset && p.endOffset <= text.length)) bad.push(`offsets out of range: ${where}`);
    const [l, c] = pos(p.offset);
    const [el, ec] = pos(p.endOffset);
    if (p.line !== l || p.column !== c || p.endLine !== el || p.endColumn !== ec) bad.push(`line/column ${p.line}:${p.column}-${p.endLine}:${p.endColumn} not ${l}:${c}-${el}:${ec}: ${where}`);
    if (!TYPES.has(p.type)) bad.push(`unknown type ${p.type}: ${where}`);
    if (p.severity !== 'error' && p.severity !== 'warning') bad.push(`severity ${p.severity}`);
    if (p.document < 0 || p.document >= r.documents.length) bad.push(`document ${p.document} of ${r.documents.length}`);
    const rendered = p.severity === 'warning' ? (p.field ? `${p.field}: ${p.detail}` : p.detail) : `${p.field ? `${p.field}: ${p.type}` : p.type}${p.detail ? `: ${p.detail}` : ''}`;
    if (p.message !== rendered) bad.push(`message not rendered from field/type/detail: ${where}`);
    if ((p.source === 'podlab') !== (p.type === 'Lab warning') || (p.source === 'podlab' && p.severity !== 'warning')) bad.push(`lab warning not marked as one: ${where}`);
  }
  return bad;
}

/** Runs `count` cases from `seed`; returns the number run and the first failures. */
export function runFuzz(seed: number, count: number): { ran: number; failures: { text: string; why: string[] }[] } {
  const base = seeds();
  const r = new Rng(seed);
  const failures: { text: string; why: string[] }[] = [];
  for (let n = 0; n < count; n++) {
    let text = r.pick(base);
    const k = 1 + r.next(3);
    for (let j = 0; j < k; j++) text = mutate(text, r);
    let why: string[];
    try {
      why = check(text, validateText(text));
    } catch (e) {
      why = [`threw: ${(e as Error).stack ?? String(e)}`];
    }
    if (why.length && failures.length < 5) failures.push({ text, why });
  }
  return { ran: count, failures };
}
