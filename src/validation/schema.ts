// Access to the field schema generated from kubernetes-types (scripts/gen-schema.ts).
import schemaJson from './generated/schema.json';

export interface FieldSpec {
  /** "string" | "int32" | "int64" | "bool" | "bytes" | "Quantity" | "IntOrString" | "Time" | "any" | TypeName | "[]<ref>" | "{}<ref>" */
  type: string;
  required: boolean;
  doc?: string;
}
export interface TypeSpec {
  name: string;
  doc?: string;
  fields: Map<string, FieldSpec>;
}

interface RawSchema {
  version: string;
  kinds: string[];
  types: Record<string, { d?: string; f: Record<string, [string, number, string?]> }>;
}
const raw = schemaJson as unknown as RawSchema;

const types = new Map<string, TypeSpec>();
for (const [name, t] of Object.entries(raw.types)) {
  const fields = new Map<string, FieldSpec>();
  for (const [f, v] of Object.entries(t.f)) {
    const spec: FieldSpec = { type: v[0], required: v[1] === 1 };
    if (v[2] !== undefined) spec.doc = v[2];
    fields.set(f, spec);
  }
  const ts: TypeSpec = { name, fields };
  if (t.d !== undefined) ts.doc = t.d;
  types.set(name, ts);
}

export const KUBERNETES_TYPES_VERSION = raw.version;
/** The kinds Pod Lab decodes, validates and runs (the roots of the generated schema). */
export const LAB_KINDS = ['Pod', 'ConfigMap', 'Secret'] as const;
export type LabKind = (typeof LAB_KINDS)[number];
export const isLabKind = (k: unknown): k is LabKind => (LAB_KINDS as readonly unknown[]).includes(k);
export const CORE_V1_KINDS = new Set([...raw.kinds, 'List']);
export function typeSpec(name: string): TypeSpec | undefined {
  return types.get(name);
}
export const isStructRef = (ref: string) => types.has(ref);

/** Go type name as encoding/json prints it in UnmarshalTypeError. */
export function goTypeName(ref: string, owner?: string, field?: string): string {
  if (ref.startsWith('[]')) return '[]' + goTypeName(ref.slice(2));
  if (ref.startsWith('{}')) {
    if (owner === 'ResourceRequirements' || owner === 'VolumeResourceRequirements' || (owner === 'PodSpec' && field === 'overhead'))
      return 'v1.ResourceList';
    return 'map[string]' + goTypeName(ref.slice(2));
  }
  switch (ref) {
    case 'bytes':
      return '[]uint8';
    case 'string':
    case 'int32':
    case 'int64':
    case 'bool':
      return ref;
    case 'Quantity':
      return 'resource.Quantity';
    case 'IntOrString':
      return 'intstr.IntOrString';
    case 'Time':
      return 'v1.Time';
    case 'any':
      return 'interface {}';
  }
  if (ref === 'ObjectMeta' || ref === 'OwnerReference' || ref === 'ManagedFieldsEntry' || ref === 'LabelSelector' || ref === 'LabelSelectorRequirement' || ref === 'FieldsV1')
    return 'v1.' + ref;
  return 'v1.' + ref;
}

/** Go's named string types where encoding/json names them in a type error (the rest print as `string`). */
const NAMED_STRINGS: Record<string, string> = { 'Secret.type': 'v1.SecretType' };
export const goStringTypeName = (owner: string, field: string): string => NAMED_STRINGS[`${owner}.${field}`] ?? 'string';

/** Walks the schema along a path of keys/indexes; returns the type ref at the end. */
export function refAtPath(path: (string | number)[], root = 'Pod'): string | undefined {
  let ref = root;
  for (const seg of path) {
    if (ref.startsWith('[]')) {
      if (typeof seg !== 'number') return undefined;
      ref = ref.slice(2);
      continue;
    }
    if (ref.startsWith('{}')) {
      ref = ref.slice(2);
      continue;
    }
    const t = types.get(ref);
    if (!t || typeof seg !== 'string') return undefined;
    const f = t.fields.get(seg);
    if (!f) return undefined;
    ref = f.type;
  }
  return ref;
}
