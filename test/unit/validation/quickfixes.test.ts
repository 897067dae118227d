// Quick fixes for the mistakes learners make (src/validation/quickfixes.ts through quickFixesFor):
// near-miss field names and enum values, quoted numbers, quantity suffixes, and the workspace check
// of ConfigMap/Secret references with the fixes that create what is missing. A fix is compared
// whole as { title, preferred, edits }, each edit as the line:column it starts at, the text it
// replaces and the new text (which is all an edit is: offset, endOffset, newText).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConfigMap, Container, Pod, Secret } from 'kubernetes-types/core/v1';
import { quickFixesFor, validateText, type Problem } from '../../../src/validation/index.js';
import {
  addKeyEditIn,
  configObjectsIn,
  editDistance,
  explanationFor,
  kubeletReferenceError,
  knownObject,
  nearest,
  referenceFindings,
  imageFindings,
  type KnownObject,
  type QuickFix,
  type ReferenceProblem,
} from '../../../src/validation/quickfixes.js';
import { Lines } from '../../../src/validation/documents.js';
import { applyEdits, readable, type Fix } from './helpers.js';
import { configMapPayload, makeConfigMapPayload, makeSecretPayload, secretPayload } from '../../../src/engine/kubelet/volumes/payload.js';
import { makeEnvironmentVariables, type ObjectLookup } from '../../../src/engine/kubelet/env.js';

const apply = applyEdits;

const pod = (containerLines: string, specLines = '', top = '') => `apiVersion: v1
kind: Pod
metadata:
  name: demo
${top}spec:
${specLines}  containers:
    - name: app
      image: busybox:1.35
${containerLines}`;

function problemAt(text: string, field: string): Problem {
  const p = validateText(text).problems.find((q) => q.field === field);
  assert.ok(p, `a problem at ${field}: ${validateText(text).problems.map((q) => q.message).join(' | ')}`);
  return p;
}

describe('edit distance', () => {
  const cases: [string, string, string, number][] = [
    ['the same word is 0 away', 'command', 'command', 0],
    ['a missing letter is 1 away', 'comand', 'command', 1],
    ['two swapped neighbours are 1 away (Damerau)', 'evn', 'env', 1],
    ['a wrong letter is 1 away', 'imagePullPolcy', 'imagePullPolicy', 1],
    ['case counts as a difference', 'always', 'Always', 1],
    ['an empty word is as far as the other is long', '', 'args', 4],
    ['unrelated words are far apart', 'tty', 'volumes', 7],
  ];
  for (const [name, a, b, d] of cases) test(name, () => assert.deepEqual([editDistance(a, b), editDistance(b, a)], [d, d]));

  test('nearest ranks by the distance ignoring case, then with case, then in the candidates order, at most 3', () => {
    assert.deepEqual(nearest('hostPid', ['hostIPC', 'hostPID', 'hostNetwork', 'hostUsers']), [
      { name: 'hostPID', distance: 0 },
      { name: 'hostIPC', distance: 2 },
    ]);
    assert.deepEqual(nearest('ab', ['ac', 'ad', 'ae', 'af']), [
      { name: 'ac', distance: 1 },
      { name: 'ad', distance: 1 },
      { name: 'ae', distance: 1 },
    ]);
    assert.deepEqual(nearest('workDir', ['workingDir']), [], 'three edits in a word of seven letters is not a near miss');
  });
});

interface FixCase {
  name: string;
  text: string;
  field: string;
  fixes: Fix[];
}

const fixCases: FixCase[] = [
  {
    name: 'a misspelt container field offers the allowed field it is nearest to, preferred',
    text: pod('      comand: ["sh", "-c", "true"]\n'),
    field: 'spec.containers[0].comand',
    fixes: [{ title: 'Change the field name to "command"', preferred: true, edits: [{ at: '9:7', old: 'comand', newText: 'command' }] }],
  },
  {
    name: 'imagePullPolcy is a near miss of imagePullPolicy',
    text: pod('      imagePullPolcy: Always\n'),
    field: 'spec.containers[0].imagePullPolcy',
    fixes: [{ title: 'Change the field name to "imagePullPolicy"', preferred: true, edits: [{ at: '9:7', old: 'imagePullPolcy', newText: 'imagePullPolicy' }] }],
  },
  {
    name: 'several near misses come nearest first and only the nearest is preferred',
    text: pod('', '  hostPid: true\n'),
    field: 'spec.hostPid',
    fixes: [
      { title: 'Change the field name to "hostPID"', preferred: true, edits: [{ at: '6:3', old: 'hostPid', newText: 'hostPID' }] },
      { title: 'Change the field name to "hostIPC"', preferred: false, edits: [{ at: '6:3', old: 'hostPid', newText: 'hostIPC' }] },
    ],
  },
  {
    name: 'a field already present in the object is not offered again',
    text: pod('      imagePullPolicy: Always\n      imagePullPolcy: Always\n'),
    field: 'spec.containers[0].imagePullPolcy',
    fixes: [],
  },
  {
    name: 'a misspelt top-level key offers the Pod key, never status',
    text: pod('').replace('spec:', 'spce:'),
    field: 'spce',
    fixes: [{ title: 'Change the field name to "spec"', preferred: true, edits: [{ at: '5:1', old: 'spce', newText: 'spec' }] }],
  },
  {
    name: 'an unknown field near no allowed field gets no fix',
    text: pod('      colour: blue\n'),
    field: 'spec.containers[0].colour',
    fixes: [],
  },
  {
    name: 'an enum near miss offers every supported value, the nearest first and preferred',
    text: pod('      imagePullPolicy: IfNotPresnt\n'),
    field: 'spec.containers[0].imagePullPolicy',
    fixes: [
      { title: 'Use "IfNotPresent"', preferred: true, edits: [{ at: '9:24', old: 'IfNotPresnt', newText: 'IfNotPresent' }] },
      { title: 'Use "Always"', preferred: false, edits: [{ at: '9:24', old: 'IfNotPresnt', newText: 'Always' }] },
      { title: 'Use "Never"', preferred: false, edits: [{ at: '9:24', old: 'IfNotPresnt', newText: 'Never' }] },
    ],
  },
  {
    name: 'an enum value in the wrong case offers the right case first, preferred',
    text: pod('', '  restartPolicy: always\n'),
    field: 'spec.restartPolicy',
    fixes: [
      { title: 'Use "Always"', preferred: true, edits: [{ at: '6:18', old: 'always', newText: 'Always' }] },
      { title: 'Use "OnFailure"', preferred: false, edits: [{ at: '6:18', old: 'always', newText: 'OnFailure' }] },
      { title: 'Use "Never"', preferred: false, edits: [{ at: '6:18', old: 'always', newText: 'Never' }] },
    ],
  },
  {
    name: 'an enum value near none of the values lists them all, none preferred',
    text: pod('', '  restartPolicy: Sometimes\n'),
    field: 'spec.restartPolicy',
    fixes: [
      { title: 'Use "Always"', preferred: false, edits: [{ at: '6:18', old: 'Sometimes', newText: 'Always' }] },
      { title: 'Use "OnFailure"', preferred: false, edits: [{ at: '6:18', old: 'Sometimes', newText: 'OnFailure' }] },
      { title: 'Use "Never"', preferred: false, edits: [{ at: '6:18', old: 'Sometimes', newText: 'Never' }] },
    ],
  },
  {
    name: 'a quoted containerPort (the decoder wants an int32) becomes the number',
    text: pod('      ports:\n        - containerPort: "8080"\n'),
    field: 'spec.containers[0].ports[0].containerPort',
    fixes: [{ title: 'Use the number 8080 (without quotes)', preferred: true, edits: [{ at: '10:26', old: '"8080"', newText: '8080' }] }],
  },
  {
    name: 'a single-quoted number becomes the number too',
    text: pod('', "  terminationGracePeriodSeconds: '5'\n"),
    field: 'spec.terminationGracePeriodSeconds',
    fixes: [{ title: 'Use the number 5 (without quotes)', preferred: true, edits: [{ at: '6:34', old: "'5'", newText: '5' }] }],
  },
  {
    name: 'a quoted boolean becomes the boolean',
    text: pod('', '  hostNetwork: "true"\n'),
    field: 'spec.hostNetwork',
    fixes: [{ title: 'Use the boolean true (without quotes)', preferred: true, edits: [{ at: '6:16', old: '"true"', newText: 'true' }] }],
  },
  {
    name: 'a number where a string is wanted (an env value) is quoted as written',
    text: pod('      env:\n        - name: PORT\n          value: 8080\n'),
    field: 'spec.containers[0].env[0].value',
    fixes: [{ title: 'Quote the value: "8080"', preferred: true, edits: [{ at: '11:18', old: '8080', newText: '"8080"' }] }],
  },
  {
    name: 'a label value 1.10 is quoted as written, not as the number 1.1',
    text: pod('', '', '  labels:\n    version: 1.10\n'),
    field: 'metadata.labels[version]',
    fixes: [{ title: 'Quote the value: "1.10"', preferred: true, edits: [{ at: '6:14', old: '1.10', newText: '"1.10"' }] }],
  },
  {
    name: 'a string that is no number where an int is wanted gets no fix',
    text: pod('      ports:\n        - containerPort: http\n'),
    field: 'spec.containers[0].ports[0].containerPort',
    fixes: [],
  },
  {
    name: 'memory 64MB offers 64M (decimal, what MB means) first and 64Mi, with their byte counts',
    text: pod('      resources:\n        limits:\n          memory: 64MB\n'),
    field: 'spec.containers[0].resources.limits[memory]',
    fixes: [
      { title: 'Use 64M (64,000,000 bytes)', preferred: true, edits: [{ at: '11:19', old: '64MB', newText: '64M' }] },
      { title: 'Use 64Mi (67,108,864 bytes)', preferred: false, edits: [{ at: '11:19', old: '64MB', newText: '64Mi' }] },
    ],
  },
  {
    name: 'memory 512MiB (unambiguously binary) offers 512Mi only',
    text: pod('      resources:\n        requests:\n          memory: 512MiB\n'),
    field: 'spec.containers[0].resources.requests[memory]',
    fixes: [{ title: 'Use 512Mi (536,870,912 bytes)', preferred: true, edits: [{ at: '11:19', old: '512MiB', newText: '512Mi' }] }],
  },
  {
    name: 'a lowercase gb with a fraction keeps the number and the quotes',
    text: pod('      resources:\n        limits:\n          memory: "1.5gb"\n'),
    field: 'spec.containers[0].resources.limits[memory]',
    fixes: [
      { title: 'Use 1.5G (1,500,000,000 bytes)', preferred: true, edits: [{ at: '11:19', old: '"1.5gb"', newText: '"1.5G"' }] },
      { title: 'Use 1.5Gi (1,610,612,736 bytes)', preferred: false, edits: [{ at: '11:19', old: '"1.5gb"', newText: '"1.5Gi"' }] },
    ],
  },
  {
    name: 'an upper-case K (not a suffix: the decimal one is k) offers 64k and 64Ki',
    text: pod('      resources:\n        limits:\n          memory: 64K\n'),
    field: 'spec.containers[0].resources.limits[memory]',
    fixes: [
      { title: 'Use 64k (64,000 bytes)', preferred: true, edits: [{ at: '11:19', old: '64K', newText: '64k' }] },
      { title: 'Use 64Ki (65,536 bytes)', preferred: false, edits: [{ at: '11:19', old: '64K', newText: '64Ki' }] },
    ],
  },
  {
    name: 'a lowercase mi means Mi',
    text: pod('      resources:\n        limits:\n          memory: 128mi\n'),
    field: 'spec.containers[0].resources.limits[memory]',
    fixes: [
      { title: 'Use 128Mi (134,217,728 bytes)', preferred: true, edits: [{ at: '11:19', old: '128mi', newText: '128Mi' }] },
      { title: 'Use 128M (128,000,000 bytes)', preferred: false, edits: [{ at: '11:19', old: '128mi', newText: '128M' }] },
    ],
  },
  {
    name: 'a space before the suffix is dropped',
    text: pod('      resources:\n        limits:\n          memory: 100 Mi\n'),
    field: 'spec.containers[0].resources.limits[memory]',
    fixes: [{ title: 'Use 100Mi (104,857,600 bytes)', preferred: true, edits: [{ at: '11:19', old: '100 Mi', newText: '100Mi' }] }],
  },
  {
    name: 'a B for bytes alone leaves the plain number of bytes',
    text: pod('      resources:\n        limits:\n          memory: 1000000B\n'),
    field: 'spec.containers[0].resources.limits[memory]',
    fixes: [{ title: 'Use 1000000 (1,000,000 bytes)', preferred: true, edits: [{ at: '11:19', old: '1000000B', newText: '1000000' }] }],
  },
  {
    name: 'an emptyDir sizeLimit counts bytes too',
    text: pod('', '  volumes:\n    - name: scratch\n      emptyDir:\n        sizeLimit: 1GB\n'),
    field: 'spec.volumes[0].emptyDir.sizeLimit',
    fixes: [
      { title: 'Use 1G (1,000,000,000 bytes)', preferred: true, edits: [{ at: '9:20', old: '1GB', newText: '1G' }] },
      { title: 'Use 1Gi (1,073,741,824 bytes)', preferred: false, edits: [{ at: '9:20', old: '1GB', newText: '1Gi' }] },
    ],
  },
  {
    name: 'cpu in millicores written mc becomes m',
    text: pod('      resources:\n        limits:\n          cpu: 500mc\n'),
    field: 'spec.containers[0].resources.limits[cpu]',
    fixes: [{ title: 'Use 500m (0.5 CPU)', preferred: true, edits: [{ at: '11:16', old: '500mc', newText: '500m' }] }],
  },
  {
    name: 'cpu in cores becomes the plain number',
    text: pod('      resources:\n        limits:\n          cpu: 2cores\n'),
    field: 'spec.containers[0].resources.limits[cpu]',
    fixes: [{ title: 'Use 2 (2 CPU)', preferred: true, edits: [{ at: '11:16', old: '2cores', newText: '2' }] }],
  },
  {
    name: 'a byte suffix on cpu is no guess worth offering',
    text: pod('      resources:\n        limits:\n          cpu: 1GB\n'),
    field: 'spec.containers[0].resources.limits[cpu]',
    fixes: [],
  },
  {
    name: 'a quantity that is no number at all gets no fix',
    text: pod('      resources:\n        limits:\n          memory: lots\n'),
    field: 'spec.containers[0].resources.limits[memory]',
    fixes: [],
  },
];

describe('quick fixes for near misses, type mismatches and quantities', () => {
  for (const c of fixCases) {
    test(c.name, () => {
      const fixes = quickFixesFor(c.text, problemAt(c.text, c.field));
      assert.deepEqual(
        fixes.map((f) => readable(c.text, f)),
        c.fixes,
      );
    });
  }
  test('every preferred fix above makes its problem go away and adds no error', () => {
    for (const c of fixCases) {
      const problem = problemAt(c.text, c.field);
      const preferred = quickFixesFor(c.text, problem).find((f) => f.isPreferred);
      if (!preferred) continue;
      const errors = (t: string) => validateText(t).problems.filter((p) => p.severity === 'error').map((p) => p.message);
      const left = errors(c.text).filter((m) => m !== problem.message);
      assert.deepEqual(errors(apply(c.text, preferred.edits)).filter((m) => !left.includes(m)), [], c.name);
    }
  });
});

describe('the explanation of an invalid quantity', () => {
  const SYNTAX =
    'A quantity is a number with an optional suffix: decimal k, M, G, T, P, E (powers of 1000; m is a thousandth) or binary Ki, Mi, Gi, Ti, Pi, Ei (powers of 1024). There is no B for bytes, and case matters (k is 1000, K is not a suffix).';
  const cases: [string, string, string, string | undefined][] = [
    ['64MB says MB is no suffix and what 64M and 64Mi are', pod('      resources:\n        limits:\n          memory: 64MB\n'), 'spec.containers[0].resources.limits[memory]', `${SYNTAX} "MB" is not a suffix. 64M is 64,000,000 bytes, 64Mi is 67,108,864 bytes.`],
    ['Kb is no suffix either', pod('      resources:\n        limits:\n          memory: 8Kb\n'), 'spec.containers[0].resources.limits[memory]', `${SYNTAX} "Kb" is not a suffix. 8k is 8,000 bytes, 8Ki is 8,192 bytes.`],
    ['a value with no guess gets the syntax alone', pod('      resources:\n        limits:\n          memory: lots\n'), 'spec.containers[0].resources.limits[memory]', SYNTAX],
    ['a problem that is not a quantity has no explanation', pod('      comand: []\n'), 'spec.containers[0].comand', undefined],
  ];
  for (const [name, text, field, want] of cases) test(name, () => assert.equal(explanationFor(text, problemAt(text, field)), want));
});

// ---- the workspace check of ConfigMap and Secret references ----

type Finding = { document: number; at: string; text: string; severity: string; type: string; source: string | undefined; field: string; detail: string; fixes: Fix[] };

function readableFinding(text: string, p: ReferenceProblem): Finding {
  const { document, line, column, endLine, endColumn, offset, endOffset, severity, field, type, detail, message, source, fixes, ...rest } = p;
  assert.deepEqual(rest, {}, 'no other property');
  const lines = new Lines(text);
  assert.deepEqual([lines.linePos(offset), lines.linePos(endOffset)], [{ line, col: column }, { line: endLine, col: endColumn }], 'lines and columns agree with the offsets');
  assert.equal(message, `${field}: ${detail}`, 'rendered as a warning');
  return { document, at: `${line}:${column}`, text: text.slice(offset, endOffset), severity, type, source, field, detail, fixes: fixes.map((f) => readable(text, f)) };
}

const CHECK = 'Pod Lab workspace check (the API server does not look)';
const NOWHERE = 'is defined in this file, the other YAML files of the workspace or the lab';
const ACCEPTS = 'the API server accepts the pod, then the kubelet';

const CM_WEB = `apiVersion: v1
kind: ConfigMap
metadata:
  name: web
data:
  index.html: hi
`;

/** ENV_CM's finding for its second reference when the ConfigMap "settings" (in `where`) lacks the key "colour". */
const noColourIn = (where: string, fixes: Fix[]): Finding => ({
  document: 0,
  at: '20:20',
  text: 'colour',
  severity: 'warning',
  type: 'Lab warning',
  source: 'podlab',
  field: 'spec.containers[0].env[1].valueFrom.configMapKeyRef.key',
  detail: `${CHECK}: ConfigMap "settings" (in ${where}) has no key "colour" in data; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: couldn't find key colour in ConfigMap default/settings`,
  fixes,
});

interface RefCase {
  name: string;
  text: string;
  external?: KnownObject[];
  findings: Finding[];
}

const refPod = (body: string, ns = '') => `---
apiVersion: v1
kind: Pod
metadata:
  name: p
${ns}spec:
  containers:
    - name: app
      image: busybox:1.35
${body}`;

const ENV_CM = refPod(`      env:
        - name: LEVEL
          valueFrom:
            configMapKeyRef:
              name: settings
              key: level
        - name: COLOUR
          valueFrom:
            configMapKeyRef:
              name: settings
              key: colour
`);

const refCases: RefCase[] = [
  {
    name: 'an env value from a ConfigMap nobody defines: a warning on each reference, the fix appends the ConfigMap with every key the file wants',
    text: ENV_CM,
    findings: ['14:21', '19:21'].map((at) => ({
      document: 0,
      at,
      text: 'settings',
      severity: 'warning',
      type: 'Lab warning',
      source: 'podlab',
      field: `spec.containers[0].env[${at === '14:21' ? 0 : 1}].valueFrom.configMapKeyRef.name`,
      detail: `${CHECK}: no ConfigMap "settings" in namespace "default" ${NOWHERE}; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: configmap "settings" not found`,
      fixes: [
        {
          title: 'Create ConfigMap "settings" with keys "level", "colour" at the end of this file',
          preferred: true,
          edits: [{ at: '21:1', old: '', newText: '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: ""\n  colour: ""\n' }],
        },
      ],
    })),
  },
  {
    name: 'the same references are fine when another workspace file defines the ConfigMap with both keys',
    text: ENV_CM,
    external: [{ kind: 'ConfigMap', namespace: 'default', name: 'settings', envKeys: ['level', 'colour'], volumeKeys: ['level', 'colour'], origin: 'workspace', where: 'config/settings.yaml' }],
    findings: [],
  },
  {
    name: 'a key the workspace file lacks is a warning whose fix adds it in that file',
    text: ENV_CM,
    external: [{ kind: 'ConfigMap', namespace: 'default', name: 'settings', envKeys: ['level'], volumeKeys: ['level'], origin: 'workspace', where: 'config/settings.yaml', file: 'file:///ws/config/settings.yaml' }],
    findings: [
      noColourIn('config/settings.yaml', [
        {
          title: 'Add key "colour" to ConfigMap "settings" in config/settings.yaml',
          preferred: true,
          inFile: { file: 'file:///ws/config/settings.yaml', kind: 'ConfigMap', namespace: 'default', name: 'settings', key: 'colour' },
          edits: [],
        },
      ]),
    ],
  },
  {
    name: "a key the lab's object lacks is a warning without a fix (the editor does not edit the lab)",
    text: ENV_CM,
    external: [{ kind: 'ConfigMap', namespace: 'default', name: 'settings', envKeys: ['level'], volumeKeys: ['level'], origin: 'lab' }],
    findings: [noColourIn('the lab', [])],
  },
  {
    name: 'an object of another namespace does not count',
    text: ENV_CM,
    external: [{ kind: 'ConfigMap', namespace: 'other', name: 'settings', envKeys: ['level', 'colour'], volumeKeys: [], origin: 'lab' }],
    findings: ['14:21', '19:21'].map((at, i) => ({
      document: 0,
      at,
      text: 'settings',
      severity: 'warning',
      type: 'Lab warning',
      source: 'podlab',
      field: `spec.containers[0].env[${i}].valueFrom.configMapKeyRef.name`,
      detail: `${CHECK}: no ConfigMap "settings" in namespace "default" ${NOWHERE}; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: configmap "settings" not found`,
      fixes: [
        {
          title: 'Create ConfigMap "settings" with keys "level", "colour" at the end of this file',
          preferred: true,
          edits: [{ at: '21:1', old: '', newText: '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: ""\n  colour: ""\n' }],
        },
      ],
    })),
  },
  {
    name: "a key missing from this file's ConfigMap: the fix adds it under data",
    text:
      CM_WEB +
      refPod(`      env:
        - name: PAGE
          valueFrom:
            configMapKeyRef: {name: web, key: page.html}
`),
    findings: [
      {
        document: 1,
        at: '19:47',
        text: 'page.html',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.containers[0].env[0].valueFrom.configMapKeyRef.key',
        detail: `${CHECK}: ConfigMap "web" (in this file) has no key "page.html" in data; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: couldn't find key page.html in ConfigMap default/web`,
        fixes: [{ title: 'Add key "page.html" to ConfigMap "web" in this file', preferred: true, edits: [{ at: '6:17', old: '', newText: '\n  page.html: ""' }] }],
      },
    ],
  },
  {
    name: "a key only in the ConfigMap's binaryData is not found by env (the kubelet reads data only); no fix, data may not repeat a binaryData key",
    text:
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\nbinaryData:\n  logo: aGk=\n' +
      refPod(`      env:
        - name: LOGO
          valueFrom:
            configMapKeyRef: {name: web, key: logo}
`),
    findings: [
      {
        document: 1,
        at: '19:47',
        text: 'logo',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.containers[0].env[0].valueFrom.configMapKeyRef.key',
        detail: `${CHECK}: ConfigMap "web" (in this file) has key "logo" in binaryData only, which env cannot read; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: couldn't find key logo in ConfigMap default/web`,
        fixes: [],
      },
    ],
  },
  {
    name: 'a ConfigMap of this file without data gets a data map with the key',
    text:
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n' +
      refPod(`      env:
        - {name: A, valueFrom: {configMapKeyRef: {name: web, key: a}}}
`),
    findings: [
      {
        document: 1,
        at: '15:67',
        text: 'a',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.containers[0].env[0].valueFrom.configMapKeyRef.key',
        detail: `${CHECK}: ConfigMap "web" (in this file) has no key "a" in data; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: couldn't find key a in ConfigMap default/web`,
        fixes: [{ title: 'Add key "a" to ConfigMap "web" in this file', preferred: true, edits: [{ at: '5:1', old: '', newText: 'data:\n  a: ""\n' }] }],
      },
    ],
  },
  {
    name: 'optional references get no warning',
    text: refPod(`      env:
        - name: A
          valueFrom:
            configMapKeyRef: {name: nope, key: a, optional: true}
        - name: B
          valueFrom:
            secretKeyRef: {name: nope, key: b, optional: true}
      envFrom:
        - configMapRef: {name: nope, optional: true}
        - secretRef: {name: nope, optional: true}
  volumes:
    - name: v
      configMap: {name: nope, optional: true}
    - name: s
      secret: {secretName: nope, optional: true}
`),
    findings: [],
  },
  {
    name: "envFrom a Secret nobody defines, in the pod's own namespace: the fix creates it there with stringData",
    text: refPod(
      `      envFrom:
        - secretRef:
            name: creds
`,
      '  namespace: team\n',
    ),
    findings: [
      {
        document: 0,
        at: '13:19',
        text: 'creds',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.containers[0].envFrom[0].secretRef.name',
        detail: `${CHECK}: no Secret "creds" in namespace "team" ${NOWHERE}; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: secret "creds" not found`,
        fixes: [
          {
            title: 'Create Secret "creds" at the end of this file',
            preferred: true,
            edits: [{ at: '14:1', old: '', newText: '---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n  namespace: team\nstringData: {}\n' }],
          },
        ],
      },
    ],
  },
  {
    name: 'a configMap volume of a ConfigMap nobody defines: FailedMount, and the fix creates it with the keys of its items',
    text: refPod(`  volumes:
    - name: page
      configMap:
        name: site
        items:
          - key: index.html
            path: index.html
`).replace('---\n', ''),
    findings: [
      {
        document: 0,
        at: '12:15',
        text: 'site',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.volumes[0].configMap.name',
        detail: `${CHECK}: no ConfigMap "site" in namespace "default" ${NOWHERE}; ${ACCEPTS} cannot mount volume "page" (Warning FailedMount: MountVolume.SetUp failed for volume "page" : configmap "site" not found) and the pod stays Pending, its containers in ContainerCreating`,
        fixes: [
          {
            title: 'Create ConfigMap "site" with key "index.html" at the end of this file',
            preferred: true,
            edits: [{ at: '16:1', old: '', newText: '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: site\ndata:\n  index.html: ""\n' }],
          },
        ],
      },
    ],
  },
  {
    name: "a volume item key missing from this file's ConfigMap (binaryData counts for volumes): FailedMount with the plugin's text, the fix adds the key",
    text:
      CM_WEB.replace('data:\n  index.html: hi\n', 'data:\n  index.html: hi\nbinaryData:\n  logo.png: aGk=\n') +
      refPod(`  volumes:
    - name: page
      configMap:
        name: web
        items:
          - {key: index.html, path: index.html}
          - {key: logo.png, path: logo.png}
          - {key: style.css, path: style.css}
`),
    findings: [
      {
        document: 1,
        at: '25:19',
        text: 'style.css',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.volumes[0].configMap.items[2].key',
        detail: `${CHECK}: ConfigMap "web" (in this file) has no key "style.css"; ${ACCEPTS} cannot mount volume "page" (Warning FailedMount: MountVolume.SetUp failed for volume "page" : configmap references non-existent config key: style.css) and the pod stays Pending, its containers in ContainerCreating`,
        fixes: [{ title: 'Add key "style.css" to ConfigMap "web" in this file', preferred: true, edits: [{ at: '6:17', old: '', newText: '\n  style.css: ""' }] }],
      },
    ],
  },
  {
    name: "a secret volume and a projected secret source against this file's Secret (stringData keys count): the missing key is added to its stringData",
    text:
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: tls\nstringData:\n  tls.crt: x\n' +
      refPod(`  volumes:
    - name: certs
      secret:
        secretName: tls
        items: [{key: tls.crt, path: tls.crt}]
    - name: all
      projected:
        sources:
          - secret:
              name: tls
              items: [{key: tls.key, path: tls.key}]
`),
    findings: [
      {
        document: 1,
        at: '26:29',
        text: 'tls.key',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.volumes[1].projected.sources[0].secret.items[0].key',
        detail: `${CHECK}: Secret "tls" (in this file) has no key "tls.key"; ${ACCEPTS} cannot mount volume "all" (Warning FailedMount: MountVolume.SetUp failed for volume "all" : references non-existent secret key: tls.key) and the pod stays Pending, its containers in ContainerCreating`,
        fixes: [{ title: 'Add key "tls.key" to Secret "tls" in this file', preferred: true, edits: [{ at: '6:13', old: '', newText: '\n  tls.key: ""' }] }],
      },
    ],
  },
  {
    name: 'a ConfigMap that exists only in the lab satisfies the reference; a key it lacks is warned about without a fix',
    text: refPod(`  initContainers:
    - name: setup
      image: busybox:1.35
      env:
        - {name: A, valueFrom: {configMapKeyRef: {name: labcm, key: a}}}
        - {name: B, valueFrom: {configMapKeyRef: {name: labcm, key: b}}}
`),
    external: [knownObject({ kind: 'ConfigMap', metadata: { name: 'labcm' }, data: { a: '1' } } as ConfigMap, 'lab')!],
    findings: [
      {
        document: 0,
        at: '15:69',
        text: 'b',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.initContainers[0].env[1].valueFrom.configMapKeyRef.key',
        detail: `${CHECK}: ConfigMap "labcm" (in the lab) has no key "b" in data; ${ACCEPTS} leaves container "setup" Waiting with reason CreateContainerConfigError: couldn't find key b in ConfigMap default/labcm`,
        fixes: [],
      },
    ],
  },
  {
    name: "this file's own ConfigMap wins over the lab's (running the file replaces the lab's data)",
    text:
      CM_WEB +
      refPod(`      env:
        - {name: A, valueFrom: {configMapKeyRef: {name: web, key: a}}}
`),
    external: [knownObject({ kind: 'ConfigMap', metadata: { name: 'web' }, data: { a: '1' } } as ConfigMap, 'lab')!],
    findings: [
      {
        document: 1,
        at: '17:67',
        text: 'a',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.containers[0].env[0].valueFrom.configMapKeyRef.key',
        detail: `${CHECK}: ConfigMap "web" (in this file) has no key "a" in data; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: couldn't find key a in ConfigMap default/web`,
        fixes: [{ title: 'Add key "a" to ConfigMap "web" in this file', preferred: true, edits: [{ at: '6:17', old: '', newText: '\n  a: ""' }] }],
      },
    ],
  },
  {
    name: 'a key is added inside a flow-style data map, and a name YAML would read as a boolean is quoted',
    text:
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\ndata: {}\n' +
      refPod(`      env:
        - {name: A, valueFrom: {configMapKeyRef: {name: flags, key: "on"}}}
        - {name: B, valueFrom: {configMapKeyRef: {name: "yes", key: "off"}}}
`),
    findings: [
      {
        document: 1,
        at: '16:69',
        text: '"on"',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.containers[0].env[0].valueFrom.configMapKeyRef.key',
        detail: `${CHECK}: ConfigMap "flags" (in this file) has no key "on" in data; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: couldn't find key on in ConfigMap default/flags`,
        fixes: [{ title: 'Add key "on" to ConfigMap "flags" in this file', preferred: true, edits: [{ at: '5:8', old: '', newText: '"on": ""' }] }],
      },
      {
        document: 1,
        at: '17:57',
        text: '"yes"',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.containers[0].env[1].valueFrom.configMapKeyRef.name',
        detail: `${CHECK}: no ConfigMap "yes" in namespace "default" ${NOWHERE}; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: configmap "yes" not found`,
        fixes: [
          {
            title: 'Create ConfigMap "yes" with key "off" at the end of this file',
            preferred: true,
            edits: [{ at: '18:1', old: '', newText: '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "yes"\ndata:\n  "off": ""\n' }],
          },
        ],
      },
    ],
  },
  {
    name: 'a file without a trailing newline gets one before the new document',
    text: refPod('      envFrom: [{configMapRef: {name: env}}]'),
    findings: [
      {
        document: 0,
        at: '10:39',
        text: 'env',
        severity: 'warning',
        type: 'Lab warning',
        source: 'podlab',
        field: 'spec.containers[0].envFrom[0].configMapRef.name',
        detail: `${CHECK}: no ConfigMap "env" in namespace "default" ${NOWHERE}; ${ACCEPTS} leaves container "app" Waiting with reason CreateContainerConfigError: configmap "env" not found`,
        fixes: [{ title: 'Create ConfigMap "env" at the end of this file', preferred: true, edits: [{ at: '10:45', old: '', newText: '\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: env\ndata: {}\n' }] }],
      },
    ],
  },
];

describe('the workspace check of ConfigMap and Secret references', () => {
  for (const c of refCases) {
    test(c.name, () => {
      const found = referenceFindings(c.text, validateText(c.text).documents, c.external ?? []);
      assert.deepEqual(
        found.map((p) => readableFinding(c.text, p)),
        c.findings,
      );
    });
  }

  test('applying every preferred fix leaves no reference finding and no validation error', () => {
    for (const c of refCases) {
      let text = c.text;
      for (let i = 0; i < 5; i++) {
        // (a fix of another file is applied to that file: the next test)
        const f = referenceFindings(text, validateText(text).documents, c.external ?? []).flatMap((p) => p.fixes.filter((x) => x.isPreferred && !x.inFile))[0];
        if (!f) break;
        text = apply(text, f.edits);
      }
      const left = referenceFindings(text, validateText(text).documents, c.external ?? []).filter((p) => p.fixes.some((x) => !x.inFile));
      assert.deepEqual(left, [], c.name);
      assert.deepEqual(validateText(text).problems.filter((p) => p.severity === 'error').map((p) => p.message), [], `${c.name}:\n${text}`);
    }
  });

  test("a fix of another file adds the key to that file's object, in each form its data can take, and the warning goes", () => {
    const pod = refPod(`      env:
        - name: A
          valueFrom:
            configMapKeyRef: {name: settings, key: colour}
`);
    const files: Record<string, string> = {
      'block data': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: debug\n',
      'flow data, after another document': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata: {level: debug}\n',
      'no data yet': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n',
    };
    const out: Record<string, { fixed: string; before: string[]; after: string[] }> = {};
    for (const [name, other] of Object.entries(files)) {
      const external = (t: string) => configObjectsIn(t, 'workspace', 'settings.yaml').map((o) => ({ ...o, file: 'file:///ws/settings.yaml' }));
      const warnings = (t: string) => referenceFindings(pod, validateText(pod).documents, external(t)).map((p) => p.fixes.map((f) => f.title).join(' | '));
      const fix = referenceFindings(pod, validateText(pod).documents, external(other))[0]!.fixes[0]!.inFile!;
      const edit = addKeyEditIn(other, validateText(other).documents, fix.kind, fix.namespace, fix.name, fix.key)!;
      const fixed = apply(other, [edit]);
      out[name] = { fixed, before: warnings(other), after: warnings(fixed) };
    }
    assert.deepEqual(out, {
      'block data': { fixed: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: debug\n  colour: ""\n', before: ['Add key "colour" to ConfigMap "settings" in settings.yaml'], after: [] },
      'flow data, after another document': {
        fixed: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata: {level: debug, colour: ""}\n',
        before: ['Add key "colour" to ConfigMap "settings" in settings.yaml'],
        after: [],
      },
      'no data yet': { fixed: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  colour: ""\n', before: ['Add key "colour" to ConfigMap "settings" in settings.yaml'], after: [] },
    });
  });

  test('quickFixesFor returns the fixes a reference finding carries', () => {
    const [p] = referenceFindings(ENV_CM, validateText(ENV_CM).documents);
    assert.deepEqual(quickFixesFor(ENV_CM, p!), p!.fixes);
  });

  test("the kubelet's errors quoted are the lab engine's own", () => {
    const none: ObjectLookup = { configMap: () => undefined, secret: () => undefined };
    const cm = { metadata: { name: 'c' }, data: {} } as ConfigMap;
    const sec = { metadata: { name: 's' }, data: {} } as Secret;
    const withObjects: ObjectLookup = { configMap: () => cm, secret: () => sec };
    const envError = (lookup: ObjectLookup, env: Container['env'], envFrom?: Container['envFrom']) => {
      const c: Container = { name: 'app', image: 'x', env, ...(envFrom ? { envFrom } : {}) };
      const p: Pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [c] } };
      const r = makeEnvironmentVariables(p, c, {} as never, lookup);
      return 'error' in r ? r.error : undefined;
    };
    assert.deepEqual(
      [
        envError(none, [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } }]),
        envError(none, [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }]),
        envError(none, [], [{ configMapRef: { name: 'c' } }]),
        envError(withObjects, [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } }]),
        envError(withObjects, [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }]),
        (configMapPayload({ name: 'c' }, undefined) as { error: string }).error,
        (secretPayload({ secretName: 's' }, undefined) as { error: string }).error,
        (makeConfigMapPayload([{ key: 'k', path: 'k' }], cm, 420, false) as { error: string }).error,
        (makeSecretPayload([{ key: 'k', path: 'k' }], sec, 420, false) as { error: string }).error,
      ],
      [
        kubeletReferenceError('ConfigMap', 'ns', 'c', undefined, 'env'),
        kubeletReferenceError('Secret', 'ns', 's', undefined, 'env'),
        kubeletReferenceError('ConfigMap', 'ns', 'c', undefined, 'env'),
        kubeletReferenceError('ConfigMap', 'ns', 'c', 'k', 'env'),
        kubeletReferenceError('Secret', 'ns', 's', 'k', 'env'),
        kubeletReferenceError('ConfigMap', 'ns', 'c', undefined, 'volume'),
        kubeletReferenceError('Secret', 'ns', 's', undefined, 'volume'),
        kubeletReferenceError('ConfigMap', 'ns', 'c', 'k', 'volume'),
        kubeletReferenceError('Secret', 'ns', 's', 'k', 'volume'),
      ],
    );
  });
});

describe('the ConfigMaps and Secrets of another workspace file', () => {
  const cases: [string, string, KnownObject[]][] = [
    [
      'a ConfigMap and a Secret are read with their keys (binaryData for volumes only, stringData for both)',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: team}\ndata: {x: "1"}\nbinaryData: {bin: aGk=}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {p: aGk=}\nstringData: {q: plain}\n',
      [
        { kind: 'ConfigMap', namespace: 'team', name: 'a', envKeys: ['x'], volumeKeys: ['x', 'bin'], origin: 'workspace', where: 'w.yaml' },
        { kind: 'Secret', namespace: 'default', name: 's', envKeys: ['p', 'q'], volumeKeys: ['p', 'q'], origin: 'workspace', where: 'w.yaml' },
      ],
    ],
    ['a file with no ConfigMap or Secret yields nothing', 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n', []],
    ['a document of another apiVersion or without a name is not counted', 'apiVersion: v2\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Secret\nmetadata: {}\n', []],
    ['a broken YAML file yields what parses', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\nkind: Secret\n  : [\n', [{ kind: 'ConfigMap', namespace: 'default', name: 'ok', envKeys: [], volumeKeys: [], origin: 'workspace', where: 'w.yaml' }]],
  ];
  for (const [name, text, want] of cases) test(name, () => assert.deepEqual(configObjectsIn(text, 'workspace', 'w.yaml'), want));
});

describe('the image hints: an image without a tag, or tagged latest, with imagePullPolicy unset', () => {
  const HINT = (image: string, tagged: boolean) =>
    `Pod Lab hint: ${JSON.stringify(image)} ${tagged ? 'has the tag "latest"' : 'has no tag'}, so the API server sets imagePullPolicy: Always${tagged ? '' : ' (as for the tag "latest")'}: the kubelet pulls the image before every start of the container, and the start fails with ErrImagePull when it cannot be pulled (no registry within reach, or an image built on this machine that no registry has), even with the image on the machine. Pin a tag, or set imagePullPolicy: IfNotPresent`;
  const podWith = (containers: string, init = '') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: demo\nspec:\n${init}  containers:\n${containers}`;
  const fix = (at: string, indent: number) => ({ title: 'Set imagePullPolicy: IfNotPresent', preferred: false, edits: [{ at, old: '', newText: `\n${' '.repeat(indent)}imagePullPolicy: IfNotPresent` }] });
  const hint = (field: string, at: string, image: string, tagged: boolean, fixes: Fix[]) => ({
    document: 0,
    at,
    text: image,
    severity: 'info',
    type: 'Lab hint',
    source: 'podlab',
    field,
    detail: HINT(image, tagged),
    fixes,
  });
  const cases: [string, string, Finding[]][] = [
    ['an image without a tag: a hint, and a fix that sets IfNotPresent below it', podWith('    - name: app\n      image: busybox\n'), [hint('spec.containers[0].image', '8:14', 'busybox', false, [fix('8:21', 6)])]],
    ['the tag latest, written', podWith('    - name: app\n      image: busybox:latest\n'), [hint('spec.containers[0].image', '8:14', 'busybox:latest', true, [fix('8:28', 6)])]],
    ['a registry with a port and no tag, as the first key of its item, in an init container', podWith('    - name: app\n      image: busybox:1.35\n', '  initContainers:\n    - image: localhost:5000/tools\n      name: init\n'), [hint('spec.initContainers[0].image', '7:14', 'localhost:5000/tools', false, [fix('7:34', 6)])]],
    ['a container in flow style: the hint without a fix', podWith('    - {name: app, image: nginx}\n'), [hint('spec.containers[0].image', '7:26', 'nginx', false, [])]],
    ['imagePullPolicy written empty (the API server defaults it as if unset): the hint, without a fix (the key is there)', podWith('    - name: app\n      image: busybox\n      imagePullPolicy: ""\n    - name: b\n      image: nginx\n      imagePullPolicy:\n'), [hint('spec.containers[0].image', '8:14', 'busybox', false, []), hint('spec.containers[1].image', '11:14', 'nginx', false, [])]],
    ['an image written as a block scalar: the hint, without a fix (a key below its first line would land inside it)', podWith('    - name: app\n      image: >-\n        nginx\n'), [{ ...hint('spec.containers[0].image', '8:14', 'nginx', false, []), text: '>-\n        nginx\n' }]],
    ['CRLF line endings: the fix inserts before the carriage return, with one', podWith('    - name: app\n      image: busybox\n').replace(/\n/g, '\r\n'), [hint('spec.containers[0].image', '8:14', 'busybox', false, [{ title: 'Set imagePullPolicy: IfNotPresent', preferred: false, edits: [{ at: '8:21', old: '', newText: '\r\n      imagePullPolicy: IfNotPresent' }] }])]],
    ['an image that does not parse (upper case): nothing (the API server defaults IfNotPresent)', podWith('    - name: app\n      image: MyApp\n'), []],
    ['a tag other than latest: nothing', podWith('    - name: app\n      image: busybox:1.35\n'), []],
    ['a digest only: nothing (IfNotPresent)', podWith(`    - name: app\n      image: busybox@sha256:${'a'.repeat(64)}\n`), []],
    ['imagePullPolicy written, even Always: nothing', podWith('    - name: app\n      image: busybox\n      imagePullPolicy: Always\n    - name: b\n      image: nginx:latest\n      imagePullPolicy: IfNotPresent\n'), []],
  ];
  for (const [name, text, want] of cases) {
    test(name, () => assert.deepEqual(imageFindings(text, validateText(text).documents).map((p) => readableFinding(text, p)), want));
  }

  test('applying each fix leaves no hint and no validation problem', () => {
    for (const [name, text] of cases) {
      let t = text;
      for (const f of imageFindings(text, validateText(text).documents).flatMap((p) => p.fixes)) t = apply(t, f.edits);
      const left = imageFindings(t, validateText(t).documents).filter((p) => p.fixes.length);
      assert.deepEqual({ left, problems: validateText(t).problems.map((p) => p.message), mixedEndings: /\r\n/.test(t) && /[^\r]\n/.test(t) }, { left: [], problems: [], mixedEndings: false }, `${name}:\n${t}`);
    }
  });
});
