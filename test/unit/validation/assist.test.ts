// Hover, completion and quick fixes over real manifests.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { completionsAt, hoverAt, quickFixesFor, validateText } from '../../../src/validation/index.js';
import { applyEdits } from './helpers.js';

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: demo
spec:
  restartPolicy: Sometimes
  containers:
    - name: Web
      image: busybox:1.35
      resources:
        requests:
          cpu: "2"
        limits:
          cpu: 500m
    - name: web2
      ports:
        - containerPort: 80
          protocol: tcp
    - name: web2
      image: busybox:1.35
`;
const off = (needle: string, delta = 0) => POD.indexOf(needle) + delta;
const apply = applyEdits;
const problem = (field: string) => validateText(POD).problems.find((p) => p.field === field)!;

describe('hover', () => {
  test('a key shows its type, whether required, the default, the allowed values, a lab note and the reference link', () => {
    const h = hoverAt(POD, off('restartPolicy', 2))!;
    assert.deepEqual(h.path, ['spec', 'restartPolicy']);
    assert.match(h.markdown, /^\*\*restartPolicy\*\* `string` — optional/);
    assert.match(h.markdown, /Default: `Always`/);
    assert.match(h.markdown, /Allowed values: `Always`, `OnFailure`, `Never`/);
    assert.match(h.markdown, /\*Pod Lab:\* Applies to every container/);
    assert.match(h.markdown, /\[PodSpec API reference\]\(https:\/\/kubernetes\.io\/docs\/reference\/kubernetes-api\/workload-resources\/pod-v1\/#PodSpec\)/);
  });
  test('a container key is documented from kubernetes-types and marked required', () => {
    const h = hoverAt(POD, off('name: Web', 1))!;
    assert.match(h.markdown, /^\*\*name\*\* `string` — required/);
    assert.ok(h.markdown.length > 80);
  });
  test('the default of imagePullPolicy explains the tag rule', () => {
    const t = POD.replace('      image: busybox:1.35\n      resources', '      imagePullPolicy: Always\n      image: busybox:1.35\n      resources');
    assert.match(hoverAt(t, t.indexOf('imagePullPolicy') + 1)!.markdown, /Default: `Always` when the image tag is `latest` or missing/);
  });
  test('a value has no hover', () => assert.equal(hoverAt(POD, off('Sometimes', 1)), undefined));
});

describe('completion', () => {
  test('on an enum value the allowed values are offered', () => {
    assert.deepEqual(completionsAt(POD, off('Sometimes', 3)).map((c) => c.label), ['Always', 'OnFailure', 'Never']);
  });
  test('on a protocol value the protocols are offered', () => {
    assert.deepEqual(completionsAt(POD, off('tcp', 1)).map((c) => c.label), ['TCP', 'UDP', 'SCTP']);
  });
  test('on a new line inside a container only Container keys not yet present are offered', () => {
    const t = POD.replace('      image: busybox:1.35\n', '      image: busybox:1.35\n      \n');
    const labels = completionsAt(t, t.indexOf('      \n') + 6).map((c) => c.label);
    assert.ok(labels.includes('command') && labels.includes('livenessProbe'));
    assert.ok(!labels.includes('image') && !labels.includes('name') && !labels.includes('resources'));
    assert.ok(labels.includes('restartPolicy'));
    assert.ok(!labels.includes('apiVersion') && !labels.includes('containers'));
  });
  test('on a new line under spec the PodSpec keys are offered, without those present', () => {
    const t = POD.replace('spec:\n', 'spec:\n  \n');
    const labels = completionsAt(t, t.indexOf('spec:\n  \n') + 8).map((c) => c.label);
    assert.ok(labels.includes('initContainers') && labels.includes('volumes'));
    assert.ok(!labels.includes('containers') && !labels.includes('restartPolicy') && !labels.includes('image'));
  });
  test('after "- " in the containers list the Container keys are offered', () => {
    const t = POD.replace('  containers:\n', '  containers:\n    - \n');
    const labels = completionsAt(t, t.indexOf('    - \n') + 6).map((c) => c.label);
    assert.ok(labels.includes('name') && labels.includes('image') && !labels.includes('containers'));
  });
  test('at the top level the Pod keys not yet present are offered', () => {
    const t = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n';
    assert.deepEqual(completionsAt(t, t.length).map((c) => c.label), ['spec']);
  });
});

describe('quick fixes', () => {
  test('an invalid name is lowercased', () => {
    const [fix] = quickFixesFor(POD, problem('spec.containers[0].name'));
    assert.equal(fix!.title, 'Change the name to "web"');
    assert.match(apply(POD, fix!.edits), /- name: web\n/);
  });
  test('an unsupported value offers the near misses first, the nearest preferred, then the rest', () => {
    const fixes = quickFixesFor(POD, problem('spec.containers[1].ports[0].protocol'));
    assert.deepEqual(fixes.map((f) => [f.title, f.isPreferred ?? false]), [['Use "TCP"', true], ['Use "SCTP"', false], ['Use "UDP"', false]]);
    assert.match(apply(POD, fixes[0]!.edits), /protocol: TCP\n/);
  });
  test('a missing image is added at the indentation of the container', () => {
    const [fix] = quickFixesFor(POD, problem('spec.containers[1].image'));
    const fixed = apply(POD, fix!.edits);
    assert.match(fixed, /- name: web2\n {6}image: busybox:1\.35\n {6}ports:/);
    assert.ok(!validateText(fixed).problems.some((p) => p.field === 'spec.containers[1].image'));
  });
  test('a duplicate container is renamed', () => {
    const [fix] = quickFixesFor(POD, problem('spec.containers[2].name'));
    assert.equal(fix!.title, 'Rename to "web2-2"');
    assert.ok(!validateText(apply(POD, fix!.edits)).problems.some((p) => p.type === 'Duplicate value'));
  });
  test('a request above its limit can be lowered to the limit or the limit raised to the request', () => {
    const fixes = quickFixesFor(POD, problem('spec.containers[0].resources.requests'));
    assert.deepEqual(fixes.map((f) => f.title), ['Lower the cpu request to the limit (500m)', 'Raise the cpu limit to the request (2)']);
    for (const f of fixes) {
      const fixed = apply(POD, f.edits);
      assert.ok(!validateText(fixed).problems.some((p) => p.field.endsWith('resources.requests')), fixed);
    }
    assert.match(apply(POD, fixes[1]!.edits), /limits:\n {10}cpu: "2"\n/);
  });
});

const MIXED = `apiVersion: v1
kind: ConfigMap
metadata:
  name: web
data:
  index.html: hi
---
apiVersion: v1
kind: Secret
metadata:
  name: creds
type: Opaque
stringData:
  password: x
---
apiVersion: v1
kind: Service
metadata:
  name: svc
spec:
  ports: []
---
${POD}`;
const at = (needle: string, delta = 1) => MIXED.indexOf(needle) + delta;

describe('hover and completion in ConfigMap and Secret documents', () => {
  test('a ConfigMap key is documented from the ConfigMap type, with its lab note and reference page', () => {
    const h = hoverAt(MIXED, at('\ndata:', 2))!;
    assert.deepEqual([h.path, h.document], [['data'], 0]);
    assert.match(h.markdown, /^\*\*data\*\* `map\[string\]string` — optional/);
    assert.match(h.markdown, /\*Pod Lab:\* Keys: letters, digits/);
    assert.match(h.markdown, /\[ConfigMap API reference\]\(https:\/\/kubernetes\.io\/docs\/reference\/kubernetes-api\/config-and-storage-resources\/config-map-v1\/\)/);
  });
  test('metadata inside a ConfigMap is ObjectMeta', () => {
    assert.match(hoverAt(MIXED, at('  name: web', 3))!.markdown, /^\*\*name\*\* `string` — optional[\s\S]*\[ObjectMeta API reference\]/);
  });
  test('a Secret type shows its default, the common values and the lab note about the token type', () => {
    const h = hoverAt(MIXED, at('type: Opaque'))!;
    assert.match(h.markdown, /Default: `Opaque`/);
    assert.match(h.markdown, /Common values: `Opaque`, `kubernetes\.io\/service-account-token`/);
    assert.match(h.markdown, /Pod Lab does not fill service-account-token Secrets/);
    assert.match(h.markdown, /secret-v1/);
  });
  test('stringData explains the merge', () => assert.match(hoverAt(MIXED, at('stringData'))!.markdown, /merges it into data as base64/));
  test('a key of another kind has no hover', () => assert.equal(hoverAt(MIXED, at('ports: []')), undefined));
  test('a Pod after them is still documented as a Pod', () => {
    const h = hoverAt(MIXED, at('restartPolicy', 2))!;
    assert.deepEqual([h.path, h.document], [['spec', 'restartPolicy'], 3]);
  });
  test('on a new top-level line of a ConfigMap, the ConfigMap keys not present are offered', () => {
    const t = MIXED.replace('data:\n  index.html: hi\n', 'data:\n  index.html: hi\n\n');
    const labels = completionsAt(t, t.indexOf('hi\n\n') + 3).map((c) => c.label);
    assert.deepEqual(labels, ['binaryData', 'immutable']);
  });
  test('on the Secret type value the common secret types are offered', () => {
    const labels = completionsAt(MIXED, at('Opaque', 2)).map((c) => c.label);
    assert.deepEqual(labels, [
      'Opaque',
      'kubernetes.io/service-account-token',
      'kubernetes.io/dockercfg',
      'kubernetes.io/dockerconfigjson',
      'kubernetes.io/basic-auth',
      'kubernetes.io/ssh-auth',
      'kubernetes.io/tls',
      'bootstrap.kubernetes.io/token',
    ]);
  });
  test('in a document of another kind nothing is offered', () => {
    const t = MIXED.replace('  ports: []\n', '  ports: []\n  \n');
    assert.deepEqual(completionsAt(t, t.indexOf('[]\n  \n') + 5), []);
  });
});

test('the key right after a nested block is found (the block value ends where that key starts)', () => {
  const t = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  a: b\n';
  assert.deepEqual(hoverAt(t, t.indexOf('\ndata:') + 1)?.path, ['data']);
});
