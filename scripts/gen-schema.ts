// Generates src/validation/generated/schema.json from the doc-commented TypeScript definitions
// shipped by the `kubernetes-types` dependency (core/v1, meta/v1, api/resource).
// Run: node --import tsx scripts/gen-schema.ts   (output is committed; re-run after upgrading kubernetes-types)
// Roots: Pod, ConfigMap and Secret (the documents Pod Lab decodes), and every type reachable from them.
//
// Output shape (compact, parsed once at runtime by src/validation/schema.ts):
//   { version, kinds: string[] (core/v1 kinds), types: { [Name]: { d?: doc, f: { [field]: [typeRef, required(0|1), doc?] } } } }
// typeRef: "string" | "int32" | "int64" | "bool" | "bytes" | "Quantity" | "IntOrString" | "Time" | "any" | "<TypeName>" | "[]<ref>" | "{}<ref>"
// ("bytes" is Go's []byte: base64 text in JSON and YAML)
import ts from 'typescript';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');
const kt = join(root, 'node_modules', 'kubernetes-types');
const files = ['core/v1.d.ts', 'meta/v1.d.ts', 'api/resource.d.ts'];

interface RawField { type: ts.TypeNode; required: boolean; doc?: string }
interface RawType { doc?: string; fields: Map<string, RawField>; alias?: ts.TypeNode }
const raw = new Map<string, RawType>();

function docOf(node: ts.Node, sf: ts.SourceFile): string | undefined {
  const ranges = ts.getLeadingCommentRanges(sf.text, node.pos) ?? [];
  const last = ranges[ranges.length - 1];
  if (!last) return undefined;
  const text = sf.text.slice(last.pos, last.end);
  if (!text.startsWith('/**')) return undefined;
  return text
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

const coreKinds: string[] = [];
for (const rel of files) {
  const text = readFileSync(join(kt, rel), 'utf8');
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  for (const st of sf.statements) {
    if (ts.isInterfaceDeclaration(st)) {
      const fields = new Map<string, RawField>();
      for (const m of st.members) {
        if (!ts.isPropertySignature(m) || !m.type) continue;
        const name = m.name.getText(sf).replace(/^["']|["']$/g, '');
        fields.set(name, { type: m.type, required: !m.questionToken, doc: docOf(m, sf) });
        if (rel === 'core/v1.d.ts' && name === 'kind' && ts.isLiteralTypeNode(m.type) && ts.isStringLiteral(m.type.literal)) {
          coreKinds.push(m.type.literal.text);
        }
      }
      if (!raw.has(st.name.text)) raw.set(st.name.text, { doc: docOf(st, sf), fields });
    } else if (ts.isTypeAliasDeclaration(st)) {
      if (!raw.has(st.name.text)) raw.set(st.name.text, { doc: docOf(st, sf), fields: new Map(), alias: st.type });
    }
  }
}

// Go integer widths are not visible in the .d.ts files (all `number`); these are the int64 fields
// reachable from a Pod (k8s.io/api core/v1 types.go). Everything else numeric is int32.
const INT64 = new Set([
  'PodSpec.activeDeadlineSeconds',
  'PodSpec.terminationGracePeriodSeconds',
  'Probe.terminationGracePeriodSeconds',
  'PodSecurityContext.runAsUser',
  'PodSecurityContext.runAsGroup',
  'PodSecurityContext.fsGroup',
  'PodSecurityContext.supplementalGroups',
  'SecurityContext.runAsUser',
  'SecurityContext.runAsGroup',
  'ObjectMeta.generation',
  'ObjectMeta.deletionGracePeriodSeconds',
  'ServiceAccountTokenProjection.expirationSeconds',
  'SleepAction.seconds',
  'Toleration.tolerationSeconds',
]);

const out: Record<string, { d?: string; f: Record<string, [string, number, string?]> }> = {};

function ref(owner: string, field: string, t: ts.TypeNode): string {
  if (ts.isParenthesizedTypeNode(t)) return ref(owner, field, t.type);
  if (ts.isUnionTypeNode(t)) {
    const kinds = t.types.map((x) => x.getText()).sort().join('|');
    if (kinds === 'number|string') return 'IntOrString';
    return 'any';
  }
  if (t.kind === ts.SyntaxKind.StringKeyword) return 'string';
  if (t.kind === ts.SyntaxKind.BooleanKeyword) return 'bool';
  if (t.kind === ts.SyntaxKind.NumberKeyword) return INT64.has(`${owner}.${field}`) ? 'int64' : 'int32';
  if (ts.isArrayTypeNode(t)) return '[]' + ref(owner, field, t.elementType);
  if (ts.isTypeReferenceNode(t)) {
    const name = t.typeName.getText();
    if (name === 'Array' && t.typeArguments?.[0]) return '[]' + ref(owner, field, t.typeArguments[0]);
    if (name === 'Quantity') return 'Quantity';
    if (name === 'Time' || name === 'MicroTime') return 'Time';
    if (name === 'RawExtension') return 'any';
    const r = raw.get(name);
    if (r?.alias) return ref(owner, field, r.alias);
    if (r) {
      visit(name);
      return name;
    }
    return 'any';
  }
  if (ts.isTypeLiteralNode(t)) {
    const idx = t.members.find(ts.isIndexSignatureDeclaration);
    if (idx?.type) return '{}' + ref(owner, field, idx.type);
    return 'any';
  }
  return 'any';
}

function visit(name: string): void {
  if (out[name]) return;
  const r = raw.get(name);
  if (!r) return;
  const entry: { d?: string; f: Record<string, [string, number, string?]> } = { f: {} };
  out[name] = entry;
  if (r.doc) entry.d = r.doc;
  for (const [field, f] of r.fields) {
    const t = ref(name, field, f.type);
    entry.f[field] = f.doc ? [t, f.required ? 1 : 0, f.doc] : [t, f.required ? 1 : 0];
  }
}

// Go []byte fields: the .d.ts files show them as strings, the API server decodes them as base64.
const BYTES = new Set(['Secret.data', 'ConfigMap.binaryData']);
for (const root of ['Pod', 'ConfigMap', 'Secret']) visit(root);
for (const key of BYTES) {
  const [owner, field] = key.split('.') as [string, string];
  const f = out[owner]?.f[field];
  if (f) f[0] = f[0].replace(/string$/, 'bytes');
}

// Fields added to the Pod API after the kubernetes-types release in node_modules (targets 1.33-1.35).
// Only names and types (no descriptions: their hover shows type, defaults and lab notes only).
const ADDED: [string, string, string][] = [
  ['PodSpec', 'resources', 'ResourceRequirements'],
  ['PodSpec', 'hostnameOverride', 'string'],
  ['PodSecurityContext', 'supplementalGroupsPolicy', 'string'],
  ['PodSecurityContext', 'seLinuxChangePolicy', 'string'],
  ['Container', 'restartPolicyRules', '[]ContainerRestartRule'],
  ['Lifecycle', 'stopSignal', 'string'],
  ['EnvVarSource', 'fileKeyRef', 'FileKeySelector'],
  ['ResourceClaim', 'request', 'string'],
  ['PodResourceClaim', 'resourceClaimName', 'string'],
  ['PodResourceClaim', 'resourceClaimTemplateName', 'string'],
  ['Volume', 'image', 'ImageVolumeSource'],
  ['VolumeProjection', 'podCertificate', 'PodCertificateProjection'],
];
const ADDED_TYPES: Record<string, Record<string, [string, number]>> = {
  ContainerRestartRule: { action: ['string', 1], exitCodes: ['ContainerRestartRuleOnExitCodes', 0] },
  ContainerRestartRuleOnExitCodes: { operator: ['string', 1], values: ['[]int32', 0] },
  FileKeySelector: { volumeName: ['string', 1], path: ['string', 1], key: ['string', 1], optional: ['bool', 0] },
  ImageVolumeSource: { reference: ['string', 0], pullPolicy: ['string', 0] },
  PodCertificateProjection: {
    signerName: ['string', 1],
    keyType: ['string', 1],
    maxExpirationSeconds: ['int32', 0],
    credentialBundlePath: ['string', 0],
    keyPath: ['string', 0],
    certificateChainPath: ['string', 0],
    userAnnotations: ['{}string', 0],
  },
};
for (const [name, fields] of Object.entries(ADDED_TYPES)) if (!out[name]) out[name] = { f: { ...fields } };
for (const [owner, field, type] of ADDED) {
  const o = out[owner];
  if (o && !o.f[field]) o.f[field] = [type, 0];
}

// core/v1 kinds (interfaces whose `kind` is a string literal), so a `kind: pod` typo in v1 is recognised.
const kinds: string[] = [];
for (const r of coreKinds) kinds.push(r);

const pkg = JSON.parse(readFileSync(join(kt, 'package.json'), 'utf8')) as { version: string };
const result = { version: pkg.version, kinds: [...new Set(kinds)].sort(), types: out };
const dest = join(root, 'src', 'validation', 'generated', 'schema.json');
mkdirSync(join(dest, '..'), { recursive: true });
writeFileSync(dest, JSON.stringify(result) + '\n');
console.log(`wrote ${dest}: ${Object.keys(out).length} types, ${result.kinds.length} kinds`);
