// ConfigMaps and Secrets as API objects, the pure part: what the API server does on write
// (namespace default, SetDefaults_Secret's `Opaque`, pkg/apis/core/v1/conversion.go merging a
// Secret's write-only `stringData` into base64 `data`), kubectl apply's outcome
// (created / configured / unchanged), the API server's update validation
// (pkg/apis/core/validation/validation.go ValidateConfigMapUpdate, ValidateSecretUpdate, with
// apimachinery's ValidateImmutableField) and the errors as kubectl prints them
// (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go checkErr: `The ConfigMap "x" is invalid: ...`).
// The files and the watch are the shell's (config-persistence.ts).
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1';
import { LAST_APPLIED, lastAppliedConfiguration } from '../shared/apply-record.js';
import type { ApplyResult, ConfigObject, ConfigObjectKind } from './api.js';
import { rfc3339 } from './clock.js';
import { goQuote } from '../validation/errors.js';

/** The REST resource of a kind (API paths, errors, the lab's directories). */
export const RESOURCE: Record<ConfigObjectKind, 'configmaps' | 'secrets'> = { ConfigMap: 'configmaps', Secret: 'secrets' };
export const CONFIG_KINDS: readonly ConfigObjectKind[] = ['ConfigMap', 'Secret'];

/** A field error as the API server reports it (`<field>: <type>: <detail>`). */
export interface UpdateFieldError {
  field: string;
  type: 'Forbidden' | 'Invalid value';
  /** The rejected value (Invalid value only), printed Go-quoted. */
  value?: string;
  detail: string;
}

export const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';
/** apimachinery validation.FieldImmutableErrorMsg. */
export const FIELD_IMMUTABLE = 'field is immutable';

/** `<field>: Forbidden: <detail>` / `<field>: Invalid value: "<v>": <detail>` (field.Error.Error()). */
export function fieldErrorText(e: UpdateFieldError): string {
  return e.type === 'Invalid value' ? `${e.field}: Invalid value: ${goQuote(e.value ?? '')}: ${e.detail}` : `${e.field}: ${e.type}: ${e.detail}`;
}

/** kubectl's text for a 422: one cause inline, several as a `* ` list after `is invalid: `. */
export function invalidMessage(kind: ConfigObjectKind, name: string, errs: readonly UpdateFieldError[]): string {
  const lines = [...new Set(errs.map(fieldErrorText))];
  if (lines.length === 1) return `The ${kind} ${goQuote(name)} is invalid: ${lines[0]}`;
  return `The ${kind} ${goQuote(name)} is invalid: \n${lines.map((l) => `* ${l}`).join('\n')}`;
}

/** The API server refused the write (422 Invalid); `message` is what kubectl prints. */
export class InvalidError extends Error {
  readonly reason = 'Invalid';
  constructor(
    readonly kind: ConfigObjectKind,
    readonly objectName: string,
    readonly causes: readonly UpdateFieldError[],
  ) {
    super(invalidMessage(kind, objectName, causes));
    this.name = 'Invalid';
  }
}

/** `configmaps "x" not found` / `secrets "x" not found` (the API server's plural resource). */
export function notFoundMessage(kind: ConfigObjectKind, name: string): string {
  return `${RESOURCE[kind]} ${goQuote(name)} not found`;
}

/** kubectl's singular lower-case kind in `configmap/x created` and `configmap "x" deleted`. */
export const kindLower = (kind: ConfigObjectKind) => kind.toLowerCase();

// ---------------------------------------------------------------------------------------------
// Normalisation

type Map_ = Record<string, string>;

const nonEmpty = (m: Map_ | undefined | null): Map_ | undefined => (m && Object.keys(m).length > 0 ? { ...m } : undefined);
/** Bytes carried as base64, re-encoded the way the API server returns them. */
const canonicalBase64 = (m: Map_ | undefined): Map_ | undefined =>
  m && Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Buffer.from(String(v ?? ''), 'base64').toString('base64')]));

/**
 * The object as the API server stores it from a manifest: apiVersion/kind set, namespace
 * defaulted, server-set metadata dropped, empty maps omitted (`omitempty`), base64 values
 * canonical; for a Secret `stringData` merged into `data` (it wins on equal keys) and `type`
 * defaulted to `Opaque`.
 */
export function normalizeConfigObject<O extends ConfigObject>(kind: ConfigObjectKind, input: O): O {
  const md = input.metadata ?? {};
  const metadata: NonNullable<ConfigMap['metadata']> = { name: md.name ?? '', namespace: md.namespace || 'default' };
  const labels = nonEmpty(md.labels);
  const annotations = nonEmpty(md.annotations);
  if (labels) metadata.labels = labels;
  if (annotations) metadata.annotations = annotations;
  if (kind === 'ConfigMap') {
    const cm = input as ConfigMap;
    const out: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata };
    const data = nonEmpty(cm.data);
    const binaryData = nonEmpty(canonicalBase64(cm.binaryData));
    if (data) out.data = data;
    if (binaryData) out.binaryData = binaryData;
    if (cm.immutable !== undefined && cm.immutable !== null) out.immutable = cm.immutable;
    return out as O;
  }
  const s = input as Secret & { stringData?: Map_ };
  const merged: Map_ = { ...(canonicalBase64(s.data ?? undefined) ?? {}) };
  for (const [k, v] of Object.entries(s.stringData ?? {})) merged[k] = Buffer.from(String(v ?? ''), 'utf8').toString('base64');
  const out: Secret = { apiVersion: 'v1', kind: 'Secret', metadata };
  const data = nonEmpty(merged);
  if (data) out.data = data;
  if (s.immutable !== undefined && s.immutable !== null) out.immutable = s.immutable;
  out.type = s.type || 'Opaque';
  return out as O;
}

// ---------------------------------------------------------------------------------------------
// Update validation and apply

/** Go's reflect.DeepEqual on the maps as decoded (omitted and empty are both nil). */
function sameMap(a: Map_ | undefined, b: Map_ | undefined): boolean {
  const ka = Object.keys(a ?? {}).sort();
  const kb = Object.keys(b ?? {}).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a![k] === b![k]);
}

/** ValidateConfigMapUpdate / ValidateSecretUpdate (the parts an update of these objects can break), in upstream order. */
export function validateConfigObjectUpdate(kind: ConfigObjectKind, next: ConfigObject, old: ConfigObject): UpdateFieldError[] {
  const errs: UpdateFieldError[] = [];
  if (kind === 'Secret') {
    const n = next as Secret;
    const o = old as Secret;
    if ((n.type ?? '') !== (o.type ?? '')) errs.push({ field: 'type', type: 'Invalid value', value: n.type ?? '', detail: FIELD_IMMUTABLE });
  }
  if (old.immutable === true) {
    if (next.immutable !== true) errs.push({ field: 'immutable', type: 'Forbidden', detail: IMMUTABLE_WHEN_SET });
    if (!sameMap(next.data, old.data)) errs.push({ field: 'data', type: 'Forbidden', detail: IMMUTABLE_WHEN_SET });
    if (kind === 'ConfigMap' && !sameMap((next as ConfigMap).binaryData, (old as ConfigMap).binaryData)) {
      errs.push({ field: 'binaryData', type: 'Forbidden', detail: IMMUTABLE_WHEN_SET });
    }
  }
  return errs;
}

/** The fields `apply` replaces, in a canonical form for comparison. */
function applied(o: ConfigObject): string {
  const sorted = (m: Map_ | undefined) => (m ? Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]])) : null);
  return JSON.stringify([
    sorted(o.metadata?.labels),
    sorted(o.metadata?.annotations),
    sorted(o.data),
    sorted((o as ConfigMap).binaryData),
    o.immutable ?? null,
    (o as Secret).type ?? null,
  ]);
}

export interface ApplyContext {
  now: number;
  /** uid for a new object. */
  uid: string;
  /** resourceVersion for the written object (created or configured). */
  resourceVersion: string;
}

export { LAST_APPLIED, lastAppliedConfiguration, withApplyRecord } from '../shared/apply-record.js';

/**
 * kubectl apply's three-way merge of a map (CreateThreeWayMergePatch, then the server's merge): the
 * keys the last apply set and this one does not are removed, this apply's keys are set, and keys
 * nobody applied (another client's labels, say) are kept.
 */
function threeWay(original: Map_ | undefined, modified: Map_ | undefined, current: Map_ | undefined): Map_ | undefined {
  const out: Map_ = { ...(current ?? {}) };
  for (const k of Object.keys(original ?? {})) if (!(k in (modified ?? {}))) delete out[k];
  Object.assign(out, modified ?? {});
  return nonEmpty(out);
}

/** The last apply's object (normalised), from the stored object's annotation; none when it has none or it cannot be read. */
function lastAppliedOf(kind: ConfigObjectKind, existing: ConfigObject): ConfigObject | undefined {
  const text = existing.metadata?.annotations?.[LAST_APPLIED];
  if (!text) return undefined;
  try {
    return normalizeConfigObject(kind, JSON.parse(text) as ConfigObject);
  } catch {
    return undefined;
  }
}

/**
 * What kubectl apply makes of the file's object against the stored one (CreateThreeWayMergePatch
 * applied to it): with no stored object, the file's object; else the stored object with labels,
 * annotations, data and binaryData merged three ways against the last-applied-configuration
 * annotation of the stored object (none: nothing is removed, as kubectl does after its warning), so
 * what other clients added stays; `immutable` and a Secret's `type` are the file's when it sets
 * them. Either way the annotation records the file's object. This is the body a client sends (a
 * create, or an update of the whole object), which the server then validates as any update.
 */
export function applyBody<O extends ConfigObject>(kind: ConfigObjectKind, existing: ConfigObject | undefined, input: O): O {
  const desired = normalizeConfigObject(kind, input);
  const record = lastAppliedConfiguration(input, desired.metadata?.namespace ?? 'default');
  if (!existing) return { ...desired, metadata: { ...desired.metadata, annotations: { ...(desired.metadata?.annotations ?? {}), [LAST_APPLIED]: record } } };
  const original = lastAppliedOf(kind, existing);
  const md = existing.metadata ?? {};
  const { [LAST_APPLIED]: _previous, ...currentAnnotations } = md.annotations ?? {};
  const labels = threeWay(original?.metadata?.labels, desired.metadata?.labels, md.labels);
  const annotations = { ...(threeWay(original?.metadata?.annotations, desired.metadata?.annotations, currentAnnotations) ?? {}), [LAST_APPLIED]: record };
  const merged = { apiVersion: 'v1', kind } as ConfigObject;
  const data = threeWay(original?.data ?? undefined, desired.data ?? undefined, existing.data ?? undefined);
  if (data) merged.data = data;
  if (kind === 'ConfigMap') {
    const bin = threeWay((original as ConfigMap | undefined)?.binaryData, (desired as ConfigMap).binaryData, (existing as ConfigMap).binaryData);
    if (bin) (merged as ConfigMap).binaryData = bin;
  }
  const immutable = input.immutable ?? (original?.immutable !== undefined ? undefined : existing.immutable);
  if (immutable !== undefined && immutable !== null) merged.immutable = immutable;
  if (kind === 'Secret') (merged as Secret).type = (input as Secret).type || (existing as Secret).type || 'Opaque';
  merged.metadata = { name: md.name, namespace: md.namespace, ...(labels ? { labels } : {}), annotations, ...(md.uid ? { uid: md.uid } : {}), ...(md.resourceVersion ? { resourceVersion: md.resourceVersion } : {}) };
  return merged as O;
}

/**
 * An update of the stored object by `desired` (a create when there is none): `created` (new uid,
 * creationTimestamp now), `configured` (labels, annotations, data, binaryData, immutable, type
 * replaced; uid and creationTimestamp kept; new resourceVersion) or `unchanged` (the stored object
 * as it is). `desired` must be normalised. Throws InvalidError when the update validation refuses
 * it. kubectl apply's merge happens before, in the client (applyBody).
 */
export function planApply<O extends ConfigObject>(kind: ConfigObjectKind, existing: O | undefined, desired: O, ctx: ApplyContext): ApplyResult<O> {
  const name = desired.metadata?.name ?? '';
  if (!existing) {
    const object = { ...desired, metadata: { ...desired.metadata, uid: ctx.uid, resourceVersion: ctx.resourceVersion, creationTimestamp: rfc3339(ctx.now) } } as O;
    return { outcome: 'created', object };
  }
  const errs = validateConfigObjectUpdate(kind, desired, existing);
  if (errs.length) throw new InvalidError(kind, name, errs);
  if (applied(existing) === applied(desired)) return { outcome: 'unchanged', object: existing };
  const md = existing.metadata ?? {};
  const metadata: NonNullable<ConfigMap['metadata']> = {
    name: md.name,
    namespace: md.namespace,
    ...(desired.metadata?.labels ? { labels: desired.metadata.labels } : {}),
    ...(desired.metadata?.annotations ? { annotations: desired.metadata.annotations } : {}),
    uid: md.uid,
    resourceVersion: ctx.resourceVersion,
    creationTimestamp: md.creationTimestamp,
  };
  return { outcome: 'configured', object: { ...desired, metadata } as O };
}
