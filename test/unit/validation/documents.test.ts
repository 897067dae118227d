// The document pipeline: valid manifests pass, problems point at the key or value, decode errors use
// the API server's words, Pods, ConfigMaps and Secrets side by side, other kinds are not errors, and
// kubectl's refusal message.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { IncrementalValidator, documentFirstLine, documentRefusal, invalidPodMessage, validateText } from '../../../src/validation/index.js';

const root = join(__dirname, '../../..');
const examples = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.yaml') && f !== 'invalid.yaml');
const corpus = readdirSync(join(__dirname, 'corpus')).filter((f) => f.endsWith('.yaml'));
const errorsOf = (text: string) => validateText(text).problems.filter((p) => p.severity === 'error');

describe('valid manifests produce no errors', () => {
  for (const f of examples) test(`examples/${f} is accepted`, () => assert.deepEqual(errorsOf(readFileSync(join(root, 'examples', f), 'utf8')).map((p) => p.message), []));
  for (const f of corpus) test(`corpus/${f} is accepted`, () => assert.deepEqual(errorsOf(readFileSync(join(__dirname, 'corpus', f), 'utf8')).map((p) => p.message), []));
  test('examples/invalid.yaml is refused with exactly its three mistakes', () => {
    assert.deepEqual(errorsOf(readFileSync(join(root, 'examples/invalid.yaml'), 'utf8')).map((p) => `${p.line}:${p.column} ${p.field}: ${p.type}`), [
      '11:13 spec.containers[0].name: Invalid value',
      '14:7 spec.containers[1].image: Required value',
      '9:18 spec.restartPolicy: Unsupported value',
    ]);
  });
});

const pod = (body: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n${body}`;
const at = (text: string, field: string) => {
  const p = validateText(text).problems.find((x) => x.field === field);
  assert.ok(p, `no problem at ${field}`);
  return { line: p.line, column: p.column, text: text.slice(p.offset, p.endOffset) };
};

describe('problem positions', () => {
  const text = pod('  restartPolicy: Sometimes\n  containers:\n    - name: Web\n      image: busybox\n    - name: b\n      ports:\n        - containerPort: 99999\n');
  test('an invalid value points at the value', () => assert.deepEqual(at(text, 'spec.containers[0].name'), { line: 8, column: 13, text: 'Web' }));
  test('an unsupported enum value points at the value', () => assert.deepEqual(at(text, 'spec.restartPolicy'), { line: 6, column: 18, text: 'Sometimes' }));
  test('a missing field points at the start of the object that lacks it', () => assert.deepEqual(at(text, 'spec.containers[1].image'), { line: 10, column: 7, text: 'name: b' }));
  test('a number out of range points at the number', () => assert.deepEqual(at(text, 'spec.containers[1].ports[0].containerPort'), { line: 12, column: 26, text: '99999' }));
  test('an unindexed envFrom error points at its entry', () => {
    const t = pod('  containers:\n    - name: a\n      image: b\n      envFrom:\n        - prefix: X_\n');
    assert.deepEqual(at(t, 'spec.containers[0].envFrom'), { line: 10, column: 11, text: 'prefix: X_' });
  });
  test('an unknown field points at its key', () => {
    const t = pod('  containers:\n    - name: a\n      imagee: b\n');
    assert.deepEqual(at(t, 'spec.containers[0].imagee'), { line: 8, column: 7, text: 'imagee' });
  });
  test('a request above its limit points at the request', () => {
    const t = pod('  containers:\n    - name: a\n      image: b\n      resources:\n        requests:\n          cpu: "2"\n        limits:\n          cpu: 1\n');
    assert.deepEqual(at(t, 'spec.containers[0].resources.requests'), { line: 11, column: 16, text: '"2"' });
  });
  test('problems of a later document carry that document\'s index and absolute lines', () => {
    const t = `${pod('  containers:\n    - name: a\n      image: b\n')}---\n${pod('  containers:\n    - name: A\n      image: b\n')}`;
    const p = validateText(t).problems.find((x) => x.field === 'spec.containers[0].name')!;
    assert.equal(p.document, 1);
    assert.equal(p.line, 16);
    assert.equal(t.slice(p.offset, p.endOffset), 'A');
  });
});

describe('decoding', () => {
  test('an unknown field is reported with its JSON path', () => {
    assert.deepEqual(errorsOf(pod('  containers:\n    - name: a\n      imagee: b\n      image: b\n')).map((p) => [p.field, p.type, p.detail]), [
      ['spec.containers[0].imagee', 'Unknown field', 'unknown field "spec.containers[0].imagee"'],
    ]);
  });
  test('a string where an integer is expected uses Go encoding/json wording', () => {
    const ps = errorsOf(pod('  containers:\n    - name: a\n      image: b\n      ports:\n        - containerPort: "80"\n'));
    assert.deepEqual(ps.map((p) => [p.type, p.detail]), [['Type mismatch', 'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32']]);
  });
  test('a map where a list is expected is a type mismatch', () => {
    const ps = errorsOf(pod('  containers:\n    name: a\n'));
    assert.deepEqual(ps.map((p) => [p.field, p.detail]), [['spec.containers', 'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container']]);
  });
  test('a number as an env value is a type mismatch', () => {
    const ps = errorsOf(pod('  containers:\n    - name: a\n      image: b\n      env:\n        - name: PORT\n          value: 8080\n'));
    assert.deepEqual(ps.map((p) => p.detail), ['json: cannot unmarshal number into Go struct field EnvVar.spec.containers.env.value of type string']);
  });
  test('an invalid quantity fails decoding with the regular expression message', () => {
    const ps = errorsOf(pod('  containers:\n    - name: a\n      image: b\n      resources:\n        limits:\n          memory: 1GB\n'));
    assert.deepEqual(ps.map((p) => p.detail), ["quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"]);
  });
  test('a YAML syntax error is a positioned problem and does not hide the next document', () => {
    const r = validateText(`key: [unclosed\n---\n${pod('  containers:\n    - name: A\n      image: b\n')}`);
    assert.ok(r.problems.some((p) => p.type === 'YAML syntax' && p.document === 0 && p.line >= 1));
    assert.ok(r.problems.some((p) => p.document === 1 && p.field === 'spec.containers[0].name'));
  });
  test('a duplicate key is reported at the second key', () => {
    const t = pod('  containers:\n    - name: a\n      image: b\n      image: c\n');
    const p = validateText(t).problems.find((x) => x.detail.startsWith('duplicate field'))!;
    assert.deepEqual([p.type, p.detail, p.line, t.slice(p.offset, p.endOffset)], ['YAML syntax', 'duplicate field "spec.containers[0].image"', 9, 'image']);
  });
  test('a Service is not run and is no error of the file; a ConfigMap is run', () => {
    const r = validateText('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.documents.map((d) => [d.kind, d.runnable, d.skipReason, d.object]),
      [
        ['ConfigMap', true, undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } }],
        ['Service', false, 'Pod Lab runs Pods, ConfigMaps and Secrets only: this Service is not run', undefined],
      ],
    );
  });
  test('a well-formed Pod is runnable and carries the defaulted pod', () => {
    const d = validateText(pod('  containers:\n    - name: a\n      image: busybox\n')).documents[0]!;
    assert.equal(d.runnable, true);
    assert.equal(d.pod?.spec?.containers[0]?.imagePullPolicy, 'Always');
    assert.equal(d.pod?.spec?.restartPolicy, 'Always');
    assert.equal(d.object, d.pod);
  });
});

describe("kubectl's refusal message", () => {
  const problemsOf = (body: string) => validateText(pod(body)).problems;
  test('one field error is shown inline', () => {
    assert.equal(invalidPodMessage('p', problemsOf('  containers:\n    - name: a\n')), 'The Pod "p" is invalid: spec.containers[0].image: Required value');
  });
  test('several field errors are listed, identical lines once', () => {
    const ps = problemsOf('  restartPolicy: x\n  containers:\n    - name: a\n');
    assert.equal(invalidPodMessage('p', [...ps, ...ps]), 'The Pod "p" is invalid: \n* spec.containers[0].image: Required value\n* spec.restartPolicy: Unsupported value: "x": supported values: "Always", "OnFailure", "Never"');
  });
  test('unknown fields are a 400 strict decoding error before any field validation', () => {
    const ps = problemsOf('  containers:\n    - name: A\n      imagee: b\n  restartpolicy: Never\n');
    assert.equal(
      invalidPodMessage('p', ps, 'pod.yaml'),
      'Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagee", unknown field "spec.restartpolicy"',
    );
  });
  test("a YAML syntax error is kubectl's parse error, naming the file and the line in its document", () => {
    const broken = '  containers:\n    - name: a\n      image: b\n   - name: c\n';
    const ps = problemsOf(broken);
    const detail = ps.find((p) => p.type === 'YAML syntax')!.detail;
    // The same document second in a file, after a first one and its `---`: the line counts from the document.
    const text = `${pod('  containers:\n    - name: a\n      image: b\n')}---\n${pod(broken)}`;
    const second = validateText(text).documents[1]!;
    assert.deepEqual(
      [invalidPodMessage('p', ps, 'pod.yaml'), invalidPodMessage('p', second.problems, 'pods.yaml', documentFirstLine(text, second.offset))],
      [`error: error parsing pod.yaml: error converting YAML to JSON: yaml: line 9: ${detail}`, `error: error parsing pods.yaml: error converting YAML to JSON: yaml: line 9: ${detail}`],
    );
  });
  test('of several type mismatches, the first in the JSON kubectl sends (keys sorted) is named, as kubectl 1.33 printed it', () => {
    const ps = problemsOf('  terminationGracePeriodSeconds: x\n  containers:\n    - name: a\n      image: b\n      ports:\n        - containerPort: "8080"\n      command: x\n');
    assert.equal(
      invalidPodMessage('p', ps, 'bad-type.yaml'),
      'Error from server (BadRequest): error when creating "bad-type.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field Container.spec.containers.command of type []string',
    );
  });
  test('a type mismatch in the metadata fails in kubectl, before any request, as kubectl 1.33 printed it', () => {
    const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: m1\n  labels:\n    enabled: true\nspec:\n  terminationGracePeriodSeconds: x\n  containers:\n    - name: a\n      image: b\n';
    assert.equal(
      invalidPodMessage('m1', validateText(text).documents[0]!.problems, 'm1.yaml'),
      'error: unable to decode "m1.yaml": json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string',
    );
  });
  test('a type mismatch is a 400 naming it, even next to unknown fields', () => {
    const ps = problemsOf('  hostNetwork: "true"\n  containers:\n    - name: a\n      imagee: b\n');
    assert.equal(invalidPodMessage('p', ps), 'Error from server (BadRequest): Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool');
  });
  test('warnings never make a pod invalid', () => {
    const d = validateText(pod('  containers:\n    - name: a\n      image: b\n      resources:\n        requests:\n          memory: 500m\n')).documents[0]!;
    assert.deepEqual(d.problems.map((p) => [p.severity, p.message]), [['warning', 'spec.containers[0].resources.requests[memory]: fractional byte value "500m" is invalid, must be an integer']]);
    assert.ok(d.pod);
  });
});

describe('a file of ConfigMaps, Secrets and Pods', () => {
  const text = [
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  index.html: hi\n  bad key: x\n',
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  password: s3cret\n',
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: broken\ndata:\n  token: not-base64!\n',
    pod('  containers:\n    - name: Web\n      image: busybox:1.35\n      envFrom:\n        - configMapRef:\n            name: web\n'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: late\n',
  ].join('---\n');
  const r = validateText(text);
  test('every document is decoded as its kind, in file order, with its defaulted object', () => {
    assert.deepEqual(
      r.documents.map((d) => [d.index, d.kind, d.name, d.runnable, d.object?.kind ?? null]),
      [
        [0, 'ConfigMap', 'web', true, 'ConfigMap'],
        [1, 'Secret', 'creds', true, 'Secret'],
        [2, 'Secret', 'broken', true, null],
        [3, 'Pod', 'p', true, 'Pod'],
        [4, 'ConfigMap', 'late', true, 'ConfigMap'],
      ],
    );
    assert.deepEqual(r.documents[1]!.object, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, data: { password: 'czNjcmV0' }, type: 'Opaque' });
  });
  test('each problem carries its document and its place in the whole file', () => {
    assert.deepEqual(
      r.problems.map((p) => [p.document, p.line, p.column, p.field, p.type, text.slice(p.offset, p.endOffset)]),
      [
        [0, 7, 3, 'data[bad key]', 'Invalid value', 'bad key'],
        [2, 21, 10, 'data[token]', 'Type mismatch', 'not-base64!'],
        [3, 29, 13, 'spec.containers[0].name', 'Invalid value', 'Web'],
      ],
    );
  });
  test("each refusal names its document's kind", () => {
    assert.deepEqual(
      r.documents.map((d) => documentRefusal(d)?.split(':')[0]),
      ['The ConfigMap "web" is invalid', undefined, 'Error from server (BadRequest)', 'The Pod "p" is invalid', undefined],
    );
  });
});

describe('two documents of one file naming the same object', () => {
  const named = (kind: string, name: string, extra = '') => `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n${extra}${kind === 'Pod' ? 'spec:\n  containers:\n    - name: a\n      image: b\n' : 'data:\n  k: v\n'}`;
  const labWarnings = (text: string) => validateText(text).problems.filter((p) => p.source === 'podlab' && p.field === 'metadata.name').map((p) => ({ document: p.document, line: p.line, column: p.column, text: text.slice(p.offset, p.endOffset), message: p.message }));
  const cases: [string, string, ReturnType<typeof labWarnings>][] = [
    [
      'a second Pod of the same name: a lab warning on its name, naming the first',
      `${named('Pod', 'web')}---\n${named('Pod', 'web')}`,
      [
        {
          document: 1,
          line: 13,
          column: 9,
          text: 'web',
          message:
            'metadata.name: document 1 (line 4) of this file already defines Pod "web"; the API server keeps one object per name, so the lab holds one of them at a time: podlab run creates the first and refuses this one as AlreadyExists (or takes it for that pod when its containers are the same); Run Pod on this one offers to delete the first',
        },
      ],
    ],
    ['Pods of the same name in other namespaces are different objects', `${named('Pod', 'web')}---\n${named('Pod', 'web', '  namespace: other\n')}`, []],
    [
      'namespace default written out is the same namespace as none',
      `${named('Pod', 'web')}---\n${named('Pod', 'web', '  namespace: default\n')}`,
      [
        {
          document: 1,
          line: 13,
          column: 9,
          text: 'web',
          message:
            'metadata.name: document 1 (line 4) of this file already defines Pod "web" in namespace "default"; the API server keeps one object per name, so the lab holds one of them at a time: podlab run creates the first and refuses this one as AlreadyExists (or takes it for that pod when its containers are the same); Run Pod on this one offers to delete the first',
        },
      ],
    ],
    ['a Pod and a ConfigMap may share a name', `${named('Pod', 'web')}---\n${named('ConfigMap', 'web')}`, []],
    [
      'a second ConfigMap of the same name replaces the first; a third is warned about too, naming the first',
      `${named('ConfigMap', 'cfg')}---\n${named('ConfigMap', 'cfg')}---\n${named('ConfigMap', 'cfg')}`,
      [
        { document: 1, line: 11, column: 9, text: 'cfg', message: 'metadata.name: document 1 (line 4) of this file already defines ConfigMap "cfg"; the API server keeps one object per name, so podlab run applies both, in file order, and this one replaces the first' },
        { document: 2, line: 18, column: 9, text: 'cfg', message: 'metadata.name: document 1 (line 4) of this file already defines ConfigMap "cfg"; the API server keeps one object per name, so podlab run applies both, in file order, and this one replaces the first' },
      ],
    ],
    ['other kinds are not Pod Lab\'s objects', `${named('Service', 'web')}---\n${named('Service', 'web')}`, []],
  ];
  for (const [name, text, want] of cases) test(name, () => assert.deepEqual(labWarnings(text), want));
  test('the editor\'s incremental validator warns the same', () => {
    const text = `${named('Pod', 'web')}---\n${named('Pod', 'web')}`;
    const v = new IncrementalValidator();
    v.update(text);
    assert.deepEqual(v.update(text).problems.filter((p) => p.source === 'podlab').map((p) => [p.document, p.line]), [[1, 13]]);
  });
});
