// Payloads of configMap, secret, downwardAPI and projected volumes (src/engine/kubelet/volumes/payload.ts),
// Go %q quoting and FormatMap (fieldpath.ts), resource values and the Memory emptyDir size (resource.ts),
// and the volume back-off (backoff.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigMap, Pod, Secret } from 'kubernetes-types/core/v1';
import {
  configMapPayload,
  downwardAPIPayload,
  projectedPayload,
  secretPayload,
  type ObjectLookup,
  type PayloadResult,
  type VolumeFacts,
} from '../../src/engine/kubelet/volumes/payload.js';
import { extractFieldPathAsString, formatMap, goQuote } from '../../src/engine/kubelet/volumes/fieldpath.js';
import { emptyDirMemorySizeBytes } from '../../src/engine/kubelet/volumes/resource.js';
import { updateBackoff, type ExponentialBackoff } from '../../src/engine/kubelet/volumes/backoff.js';

type View = { files: Record<string, { data: string; mode: string }> } | { error: string };

/** The whole result with file data as text and modes in octal. */
function view(r: PayloadResult): View {
  if ('error' in r) return { error: r.error };
  const files: Record<string, { data: string; mode: string }> = {};
  for (const [k, v] of r.files) files[k] = { data: v.data.toString('utf8'), mode: v.mode.toString(8) };
  return { files };
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

const cm: ConfigMap = {
  metadata: { name: 'cfg', namespace: 'default' },
  data: { 'app.properties': 'a=1\n', mode: 'dev' },
  binaryData: { 'logo.bin': b64('PNG') },
};

const configMapCases: { name: string; source: Parameters<typeof configMapPayload>[0]; obj?: ConfigMap; want: View }[] = [
  {
    name: 'without items every data and binaryData key becomes a file with mode 0644',
    source: { name: 'cfg' },
    obj: cm,
    want: { files: { 'app.properties': { data: 'a=1\n', mode: '644' }, mode: { data: 'dev', mode: '644' }, 'logo.bin': { data: 'PNG', mode: '644' } } },
  },
  {
    name: 'defaultMode applies to every file',
    source: { name: 'cfg', defaultMode: 0o400 },
    obj: { metadata: { name: 'cfg' }, data: { k: 'v' } },
    want: { files: { k: { data: 'v', mode: '400' } } },
  },
  {
    name: 'items project only the listed keys at their paths, which may contain slashes, with their own mode',
    source: { name: 'cfg', defaultMode: 0o644, items: [{ key: 'mode', path: 'conf/d/mode.txt', mode: 0o600 }, { key: 'logo.bin', path: 'logo' }] },
    obj: cm,
    want: { files: { 'conf/d/mode.txt': { data: 'dev', mode: '600' }, logo: { data: 'PNG', mode: '644' } } },
  },
  {
    name: 'an item naming a missing key fails with the upstream text',
    source: { name: 'cfg', items: [{ key: 'mode', path: 'm' }, { key: 'nope', path: 'n' }] },
    obj: cm,
    want: { error: 'configmap references non-existent config key: nope' },
  },
  {
    name: 'an optional volume skips a missing key',
    source: { name: 'cfg', optional: true, items: [{ key: 'nope', path: 'n' }, { key: 'mode', path: 'm' }] },
    obj: cm,
    want: { files: { m: { data: 'dev', mode: '644' } } },
  },
  {
    name: 'a missing ConfigMap is a NotFound with the singular resource',
    source: { name: 'cfg' },
    want: { error: 'configmap "cfg" not found' },
  },
  {
    name: 'an optional missing ConfigMap is an empty volume, items or not',
    source: { name: 'cfg', optional: true, items: [{ key: 'k', path: 'k' }] },
    want: { files: {} },
  },
];
for (const c of configMapCases) test(`configMap: ${c.name}`, () => assert.deepEqual(view(configMapPayload(c.source, c.obj)), c.want));

const secret: Secret = { metadata: { name: 'db' }, type: 'Opaque', data: { user: b64('admin'), password: b64('s3cr\u00e9t') } };

const secretCases: { name: string; source: Parameters<typeof secretPayload>[0]; obj?: Secret; want: View }[] = [
  {
    name: 'without items every key is a file with its base64-decoded bytes',
    source: { secretName: 'db' },
    obj: secret,
    want: { files: { user: { data: 'admin', mode: '644' }, password: { data: 's3cr\u00e9t', mode: '644' } } },
  },
  {
    name: 'stringData is merged over data, as the API server does on write',
    source: { secretName: 'db', defaultMode: 0o440 },
    obj: { metadata: { name: 'db' }, data: { a: b64('old'), b: b64('kept') }, stringData: { a: 'new' } },
    want: { files: { a: { data: 'new', mode: '440' }, b: { data: 'kept', mode: '440' } } },
  },
  {
    name: 'an item naming a missing key fails with the upstream text',
    source: { secretName: 'db', items: [{ key: 'token', path: 't' }] },
    obj: secret,
    want: { error: 'references non-existent secret key: token' },
  },
  {
    name: 'items with a nested path and an item mode',
    source: { secretName: 'db', items: [{ key: 'password', path: 'creds/pw', mode: 0o400 }] },
    obj: secret,
    want: { files: { 'creds/pw': { data: 's3cr\u00e9t', mode: '400' } } },
  },
  { name: 'a missing Secret is a NotFound with the singular resource', source: { secretName: 'db' }, want: { error: 'secret "db" not found' } },
  { name: 'an optional missing Secret is an empty volume', source: { secretName: 'db', optional: true }, want: { files: {} } },
];
for (const c of secretCases) test(`secret: ${c.name}`, () => assert.deepEqual(view(secretPayload(c.source, c.obj)), c.want));

const pod: Pod = {
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: '0b1c-uid',
    labels: { tier: 'db', app: 'web', Zone: 'eu' },
    annotations: { note: 'say "hi"\nbye', empty: '' },
  },
  spec: {
    containers: [
      { name: 'app', image: 'busybox', resources: { limits: { cpu: '250m', memory: '64Mi' }, requests: { cpu: '250m', memory: '64Mi' } } },
      { name: 'bare', image: 'busybox' },
    ],
    initContainers: [{ name: 'init', image: 'busybox', resources: { limits: { 'hugepages-2Mi': '4Mi' } } }],
  },
};
const facts: VolumeFacts = { nodeAllocatable: { cpu: '2', memory: '1Gi', 'ephemeral-storage': '10Gi' } };

const downwardCases: { name: string; items: Parameters<typeof downwardAPIPayload>[0]; mode?: number; want: View }[] = [
  {
    name: 'name, namespace and uid',
    items: [
      { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
      { path: 'ns', fieldRef: { fieldPath: 'metadata.namespace' } },
      { path: 'uid', fieldRef: { fieldPath: 'metadata.uid' }, mode: 0o400 },
    ],
    want: { files: { name: { data: 'web', mode: '644' }, ns: { data: 'shop', mode: '644' }, uid: { data: '0b1c-uid', mode: '400' } } },
  },
  {
    name: 'whole label and annotation maps are FormatMap lines sorted by key without a trailing newline',
    items: [
      { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
      { path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' } },
    ],
    want: { files: { labels: { data: 'Zone="eu"\napp="web"\ntier="db"', mode: '644' }, annotations: { data: 'empty=""\nnote="say \\"hi\\"\\nbye"', mode: '644' } } },
  },
  {
    name: 'a subscript gives one value, an absent key the empty string',
    items: [
      { path: 'tier', fieldRef: { fieldPath: "metadata.labels['tier']" } },
      { path: 'missing', fieldRef: { fieldPath: "metadata.annotations['nope']" } },
    ],
    want: { files: { tier: { data: 'db', mode: '644' }, missing: { data: '', mode: '644' } } },
  },
  {
    name: 'paths are cleaned and the volume defaultMode applies',
    items: [{ path: './sub//name', fieldRef: { fieldPath: 'metadata.name' } }],
    mode: 0o440,
    want: { files: { 'sub/name': { data: 'web', mode: '440' } } },
  },
  {
    name: 'resource values are ceil(quantity / divisor): cpu 250m is 1, or 250 with divisor 1m; memory 64Mi in bytes or in Mi',
    items: [
      { path: 'cpu', resourceFieldRef: { containerName: 'app', resource: 'limits.cpu' } },
      { path: 'cpu-m', resourceFieldRef: { containerName: 'app', resource: 'limits.cpu', divisor: '1m' } },
      { path: 'mem', resourceFieldRef: { containerName: 'app', resource: 'limits.memory' } },
      { path: 'mem-mi', resourceFieldRef: { containerName: 'app', resource: 'requests.memory', divisor: '1Mi' } },
    ],
    want: { files: { cpu: { data: '1', mode: '644' }, 'cpu-m': { data: '250', mode: '644' }, mem: { data: '67108864', mode: '644' }, 'mem-mi': { data: '64', mode: '644' } } },
  },
  {
    name: 'an unset limit is the node allocatable, an unset request is 0, hugepages come from the init container',
    items: [
      { path: 'cpu', resourceFieldRef: { containerName: 'bare', resource: 'limits.cpu' } },
      { path: 'mem', resourceFieldRef: { containerName: 'bare', resource: 'limits.memory', divisor: '1Mi' } },
      { path: 'eph', resourceFieldRef: { containerName: 'bare', resource: 'limits.ephemeral-storage', divisor: '1Gi' } },
      { path: 'req', resourceFieldRef: { containerName: 'bare', resource: 'requests.cpu' } },
      { path: 'huge', resourceFieldRef: { containerName: 'init', resource: 'limits.hugepages-2Mi', divisor: '1Mi' } },
    ],
    want: {
      files: {
        cpu: { data: '2', mode: '644' },
        mem: { data: '1024', mode: '644' },
        eph: { data: '10', mode: '644' },
        req: { data: '0', mode: '644' },
        huge: { data: '4', mode: '644' },
      },
    },
  },
  {
    name: 'a field the volume plugin does not know fails with the fieldpath error',
    items: [{ path: 'node', fieldRef: { fieldPath: 'spec.nodeName' } }],
    want: { error: 'unsupported fieldPath: spec.nodeName' },
  },
  {
    name: 'several failing items are aggregated as [a, b]',
    items: [
      { path: 'x', resourceFieldRef: { containerName: 'ghost', resource: 'limits.cpu' } },
      { path: 'y', resourceFieldRef: { containerName: 'app', resource: 'limits.gpu' } },
      { path: 'z', resourceFieldRef: { containerName: 'ghost', resource: 'limits.cpu' } },
    ],
    want: { error: '[container ghost not found, unsupported container resource : limits.gpu]' },
  },
];
for (const c of downwardCases) test(`downwardAPI: ${c.name}`, () => assert.deepEqual(view(downwardAPIPayload(c.items, pod, facts, c.mode)), c.want));

const lookup: ObjectLookup = {
  configMap: (ns, name) => (ns === 'shop' && name === 'cfg' ? cm : undefined),
  secret: (ns, name) => (ns === 'shop' && name === 'db' ? secret : undefined),
};

const projectedCases: { name: string; source: Parameters<typeof projectedPayload>[0]; want: View }[] = [
  {
    name: 'configMap, secret and downwardAPI sources merge into one payload with the projected defaultMode',
    source: {
      defaultMode: 0o440,
      sources: [
        { configMap: { name: 'cfg', items: [{ key: 'mode', path: 'config/mode' }] } },
        { secret: { name: 'db', items: [{ key: 'user', path: 'user', mode: 0o400 }] } },
        { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
      ],
    },
    want: {
      files: {
        'config/mode': { data: 'dev', mode: '440' },
        user: { data: 'admin', mode: '400' },
        labels: { data: 'Zone="eu"\napp="web"\ntier="db"', mode: '440' },
      },
    },
  },
  {
    name: 'the projected defaultMode defaults to 0644 and a later source wins on the same path',
    source: { sources: [{ configMap: { name: 'cfg', items: [{ key: 'mode', path: 'x' }] } }, { secret: { name: 'db', items: [{ key: 'user', path: 'x' }] } }] },
    want: { files: { x: { data: 'admin', mode: '644' } } },
  },
  {
    name: 'optional missing sources are skipped',
    source: { sources: [{ configMap: { name: 'gone', optional: true } }, { secret: { name: 'gone', optional: true, items: [{ key: 'k', path: 'k' }] } }] },
    want: { files: {} },
  },
  {
    name: 'every missing source is reported, aggregated',
    source: { sources: [{ configMap: { name: 'a' } }, { secret: { name: 'b' } }, { configMap: { name: 'cfg', items: [{ key: 'nope', path: 'n' }] } }] },
    want: { error: '[configmap "a" not found, secret "b" not found, configmap references non-existent config key: nope]' },
  },
  {
    name: 'a serviceAccountToken source cannot be filled without an API server',
    source: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }] },
    want: { error: 'Pod Lab issues no service account tokens (the lab server serves no TokenRequest): nothing for path "token"' },
  },
];
for (const c of projectedCases) test(`projected: ${c.name}`, () => assert.deepEqual(view(projectedPayload(c.source, pod, lookup, facts)), c.want));

const quoteCases: { name: string; in: string; want: string }[] = [
  { name: 'plain text is only wrapped in quotes', in: 'web', want: '"web"' },
  { name: 'double quotes and backslashes are escaped', in: 'a "b" \\c', want: '"a \\"b\\" \\\\c"' },
  { name: 'newline, tab, carriage return and the other C escapes', in: '1\n2\t3\r\u0007\b\f\v', want: '"1\\n2\\t3\\r\\a\\b\\f\\v"' },
  { name: 'other control characters and DEL are \\x escapes', in: '\u0001\u001f\u007f', want: '"\\x01\\x1f\\x7f"' },
  { name: 'printable Unicode stays as it is', in: 'caf\u00e9 \u65e5\u672c \u{1f600}', want: '"caf\u00e9 \u65e5\u672c \u{1f600}"' },
  { name: 'non-printable runes are \\u or \\U escapes', in: '\u00a0\u2028\ue000\u{e0001}', want: '"\\u00a0\\u2028\\ue000\\U000e0001"' },
  { name: 'a lone surrogate is U+FFFD', in: 'x\ud800', want: '"x\ufffd"' },
];
for (const c of quoteCases) test(`Go %q: ${c.name}`, () => assert.equal(goQuote(c.in), c.want));

const formatCases: { name: string; in: Record<string, string> | undefined; want: string }[] = [
  { name: 'no map is the empty string', in: undefined, want: '' },
  { name: 'keys sort byte-wise (upper case first) and the last line has no newline', in: { b: '2', a: '1', B: '0' }, want: 'B="0"\na="1"\nb="2"' },
  { name: 'a value with quotes and a newline is Go-quoted', in: { 'example.com/note': 'line1\n"line2"' }, want: 'example.com/note="line1\\n\\"line2\\""' },
];
for (const c of formatCases) test(`FormatMap: ${c.name}`, () => assert.equal(formatMap(c.in), c.want));

test('a subscript on a field without maps is refused with the fieldpath text', () => {
  assert.deepEqual(extractFieldPathAsString(pod, "metadata.name['x']"), { error: 'fieldPath "metadata.name[\'x\']" does not support subscript' });
});

const memPod = (over: Partial<NonNullable<Pod['spec']>>): Pod => ({ metadata: { name: 'm', uid: 'u' }, spec: { containers: [], ...over } });
const lim = (name: string, memory?: string, restartPolicy?: string) => ({
  name,
  image: 'busybox',
  ...(memory ? { resources: { limits: { memory } } } : {}),
  ...(restartPolicy ? { restartPolicy } : {}),
});
const Mi = 1024 * 1024;

const sizeCases: { name: string; pod: Pod; sizeLimit?: string; allocatable?: string; want: number }[] = [
  { name: 'the sizeLimit when it is below the node allocatable', pod: memPod({ containers: [lim('a')] }), sizeLimit: '64Mi', allocatable: '1Gi', want: 64 * Mi },
  { name: 'the node allocatable when the sizeLimit is larger', pod: memPod({ containers: [lim('a')] }), sizeLimit: '2Gi', allocatable: '1Gi', want: 1024 * Mi },
  { name: 'the node allocatable without a sizeLimit', pod: memPod({ containers: [lim('a')] }), allocatable: '1Gi', want: 1024 * Mi },
  {
    name: 'the pod memory limit (sum of containers) caps a larger sizeLimit',
    pod: memPod({ containers: [lim('a', '100Mi'), lim('b', '28Mi')] }),
    sizeLimit: '256Mi',
    allocatable: '1Gi',
    want: 128 * Mi,
  },
  {
    name: 'no pod limit when one container declares none',
    pod: memPod({ containers: [lim('a', '100Mi'), lim('b')] }),
    allocatable: '1Gi',
    want: 1024 * Mi,
  },
  {
    name: 'an init container larger than the app containers plus earlier sidecars sets the pod limit',
    pod: memPod({ initContainers: [lim('side', '10Mi', 'Always'), lim('init', '200Mi')], containers: [lim('a', '50Mi')] }),
    allocatable: '1Gi',
    want: 210 * Mi,
  },
  { name: 'nothing known: no size option', pod: memPod({ containers: [lim('a')] }), want: 0 },
];
for (const c of sizeCases) test(`Memory emptyDir size: ${c.name}`, () => assert.equal(emptyDirMemorySizeBytes(c.pod, c.sizeLimit, c.allocatable), c.want));

test('the volume back-off waits 500 ms, doubles, and is capped at 2m2s', () => {
  let b: ExponentialBackoff | undefined;
  const seen: number[] = [];
  for (let i = 0; i < 11; i++) {
    b = updateBackoff(b, 'e', 0);
    seen.push(b.durationMs);
  }
  assert.deepEqual(seen, [500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 122000, 122000, 122000]);
});
