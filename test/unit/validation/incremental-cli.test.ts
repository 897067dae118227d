// IncrementalValidator against validateText, and `podlab validate` (exit codes and both formats).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { runValidate } from '../../../src/cli/validate.js';
import { IncrementalValidator, validateText } from '../../../src/validation/index.js';

const root = join(__dirname, '../../..');
const multi = readFileSync(join(root, 'examples/multi-doc.yaml'), 'utf8') + '\n---\n' + readFileSync(join(root, 'examples/invalid.yaml'), 'utf8');

describe('IncrementalValidator', () => {
  test('every step of a sequence of edits gives exactly what validateText gives', () => {
    const inc = new IncrementalValidator();
    let text = multi;
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let i = 0; i < 200; i++) {
      const pos = rnd(text.length + 1);
      const op = rnd(4);
      if (op === 0) text = text.slice(0, pos) + 'x' + text.slice(pos);
      else if (op === 1) text = text.slice(0, pos) + text.slice(pos + 1);
      else if (op === 2) text = text.slice(0, pos) + '\n---\n' + text.slice(pos);
      else text = text.slice(0, pos) + ' ' + text.slice(pos);
      assert.deepEqual(inc.update(text), validateText(text), `edit ${i}`);
    }
  });
  test('with ConfigMaps and Secrets among the Pods, every edit gives what validateText gives, lab options included', () => {
    const objects = readFileSync(join(root, 'examples/web-configmap.yaml'), 'utf8');
    const mixed =
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: tls\ntype: kubernetes.io/tls\ndata:\n  tls.crt: Y2VydA==\n  tls.key: a2V5\n---\n' +
      multi +
      '\n---\n' +
      objects +
      '\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bin\nbinaryData:\n  b: AAEC\n';
    const opts = { nodeNames: ['podlab-node'] };
    const inc = new IncrementalValidator(opts);
    let text = mixed;
    let seed = 11;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const snippets = ['x', ' ', '\n---\n', 'nodeName: w\n', 'data:\n  k: v\n', '=', 'kind: Secret\n'];
    for (let i = 0; i < 200; i++) {
      const pos = rnd(text.length + 1);
      const op = rnd(3);
      if (op === 0) text = text.slice(0, pos) + snippets[rnd(snippets.length)] + text.slice(pos);
      else if (op === 1) text = text.slice(0, pos) + text.slice(pos + 1 + rnd(3));
      else text = text.slice(0, pos) + text.slice(pos).replace(/\n/, '\n  ');
      assert.deepEqual(inc.update(text), validateText(text, opts), `edit ${i}`);
    }
  });
  test('typing a character in one document leaves the other documents\' problems unchanged', () => {
    const inc = new IncrementalValidator();
    const before = inc.update(multi);
    const edited = multi.replace('name: Web', 'name: Wab');
    const after = inc.update(edited);
    assert.deepEqual(after, validateText(edited));
    const last = before.documents.length - 1;
    assert.deepEqual(after.problems.filter((p) => p.document !== last), before.problems.filter((p) => p.document !== last));
    assert.ok(after.problems.some((p) => p.document === last && p.detail.startsWith('"Wab"')));
  });
});

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new Sink();
  const err = new Sink();
  const code = await runValidate(argv, out, err);
  return { code, out: out.text, err: err.text };
}

describe('podlab validate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'podlab-validate-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const good = join(dir, 'good.yaml');
  const bad = join(dir, 'bad.yaml');
  writeFileSync(good, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: ok\nspec:\n  containers:\n    - name: a\n      image: busybox:1.35\n');
  writeFileSync(bad, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: bad\nspec:\n  containers:\n    - name: A\n      image: busybox:1.35\n');

  test('exits 0 and prints nothing when every Pod is valid', async () => assert.deepEqual(await run([good]), { code: 0, out: '', err: '' }));
  test('exits 1 and prints file:line:column: error: field: type: detail', async () => {
    const r = await run([good, bad]);
    assert.equal(r.code, 1);
    assert.match(r.out, /^.*bad\.yaml:7:13: error: spec\.containers\[0\]\.name: Invalid value: "A": a lowercase RFC 1123 label/);
  });
  test('--json prints one array with every documented key', async () => {
    const r = await run([bad, '--json']);
    assert.equal(r.code, 1);
    const arr = JSON.parse(r.out) as Record<string, unknown>[];
    assert.equal(arr.length, 1);
    assert.deepEqual(Object.keys(arr[0]!), ['file', 'document', 'line', 'column', 'endLine', 'endColumn', 'severity', 'field', 'type', 'detail', 'message']);
    assert.deepEqual([arr[0]!.document, arr[0]!.line, arr[0]!.column, arr[0]!.endColumn, arr[0]!.severity, arr[0]!.type], [0, 7, 13, 14, 'error', 'Invalid value']);
  });
  test('--json prints [] for valid files', async () => assert.deepEqual(await run(['--json', good]), { code: 0, out: '[]\n', err: '' }));
  test('exits 2 when a file cannot be read, still validating the others', async () => {
    const r = await run([join(dir, 'missing.yaml'), bad]);
    assert.equal(r.code, 2);
    assert.match(r.err, /cannot read .*missing\.yaml: no such file or directory/);
    assert.match(r.out, /bad\.yaml:7:13/);
  });
  test('exits 2 without files or with an unknown flag', async () => {
    assert.equal((await run([])).code, 2);
    assert.equal((await run([good, '--yaml'])).code, 2);
  });
  test('warnings alone keep exit code 0', async () => {
    const w = join(dir, 'warn.yaml');
    writeFileSync(w, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: w\nspec:\n  containers:\n    - name: a\n      image: b\n      resources:\n        limits:\n          memory: 500m\n');
    const r = await run([w]);
    assert.equal(r.code, 0);
    assert.match(r.out, /warn\.yaml:11:19: warning: spec\.containers\[0\]\.resources\.limits\[memory\]: fractional byte value "500m" is invalid, must be an integer/);
  });
});
