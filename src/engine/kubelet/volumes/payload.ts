// What a configMap, secret, downwardAPI or projected volume contains: the files (path, bytes,
// mode) the atomic writer projects, or the error SetUp fails with. Upstream
// pkg/volume/configmap/configmap.go (SetUpAt + MakePayload), pkg/volume/secret/secret.go,
// pkg/volume/downwardapi/downwardapi.go (CollectData), pkg/volume/projected/projected.go
// (collectData) and apimachinery's utilerrors.NewAggregate for the combined errors. Pure.
import type {
  ConfigMap,
  ConfigMapVolumeSource,
  DownwardAPIVolumeFile,
  KeyToPath,
  Pod,
  ProjectedVolumeSource,
  Secret,
  SecretVolumeSource,
} from 'kubernetes-types/core/v1';
import { extractFieldPathAsString } from './fieldpath.js';
import { extractResourceValue, type ResourceList } from './resource.js';

/** The API default of every defaultMode (0644). */
export const DefaultMode = 0o644;

export interface FileProjection {
  data: Buffer;
  /** Permission bits (e.g. 0o644 = 420). */
  mode: number;
}

/** Relative path (may contain `/`) → file. */
export type Payload = Map<string, FileProjection>;

export type PayloadResult = { files: Payload } | { error: string };

/** What the node knows that the pod does not: the allocatable resources (default limits for resourceFieldRef). */
export interface VolumeFacts {
  nodeAllocatable: ResourceList;
}

/** Objects of the pod's namespace as the kubelet's watch-based manager sees them; undefined = NotFound. */
export interface ObjectLookup {
  configMap(namespace: string, name: string): ConfigMap | undefined;
  secret(namespace: string, name: string): Secret | undefined;
}

/** `configmap "<name>" not found` (the kubelet's NotFound uses the singular resource). */
export const configMapNotFound = (name: string) => `configmap "${name}" not found`;
export const secretNotFound = (name: string) => `secret "${name}" not found`;

/** utilerrors.NewAggregate(...).Error(): one message as is; several deduplicated, `[a, b]`. */
export function aggregateErrors(errs: string[]): string | undefined {
  if (errs.length === 0) return undefined;
  if (errs.length === 1) return errs[0];
  const seen: string[] = [];
  for (const e of errs) if (!seen.includes(e)) seen.push(e);
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}

/** The value bytes of a ConfigMap key (`data` as UTF-8, then `binaryData` base64), or undefined. */
function configMapValue(cm: ConfigMap, key: string): Buffer | undefined {
  if (cm.data && Object.hasOwn(cm.data, key)) return Buffer.from(cm.data[key]!, 'utf8');
  if (cm.binaryData && Object.hasOwn(cm.binaryData, key)) return Buffer.from(cm.binaryData[key]!, 'base64');
  return undefined;
}

/** A Secret's `data` (base64 in the API object), with `stringData` merged over it as the API server would on write. */
function secretData(s: Secret): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(s.data ?? {})) out.set(k, Buffer.from(v, 'base64'));
  for (const [k, v] of Object.entries(s.stringData ?? {})) out.set(k, Buffer.from(v, 'utf8'));
  return out;
}

/** configmap.MakePayload over an existing (or, when optional, empty) ConfigMap. */
export function makeConfigMapPayload(items: KeyToPath[] | undefined, cm: ConfigMap, defaultMode: number, optional: boolean): PayloadResult {
  const files: Payload = new Map();
  if (!items?.length) {
    for (const [k, v] of Object.entries(cm.data ?? {})) files.set(k, { data: Buffer.from(v, 'utf8'), mode: defaultMode });
    for (const [k, v] of Object.entries(cm.binaryData ?? {})) files.set(k, { data: Buffer.from(v, 'base64'), mode: defaultMode });
    return { files };
  }
  for (const ktp of items) {
    const data = configMapValue(cm, ktp.key);
    if (data === undefined) {
      if (optional) continue;
      return { error: `configmap references non-existent config key: ${ktp.key}` };
    }
    files.set(ktp.path, { data, mode: ktp.mode ?? defaultMode });
  }
  return { files };
}

/** secret.MakePayload over an existing (or, when optional, empty) Secret. */
export function makeSecretPayload(items: KeyToPath[] | undefined, secret: Secret, defaultMode: number, optional: boolean): PayloadResult {
  const data = secretData(secret);
  const files: Payload = new Map();
  if (!items?.length) {
    for (const [k, v] of data) files.set(k, { data: v, mode: defaultMode });
    return { files };
  }
  for (const ktp of items) {
    const v = data.get(ktp.key);
    if (v === undefined) {
      if (optional) continue;
      return { error: `references non-existent secret key: ${ktp.key}` };
    }
    files.set(ktp.path, { data: v, mode: ktp.mode ?? defaultMode });
  }
  return { files };
}

/** A configMap volume: NotFound unless optional (then an empty ConfigMap), then MakePayload. */
export function configMapPayload(source: ConfigMapVolumeSource, configMap: ConfigMap | undefined): PayloadResult {
  const optional = !!source.optional;
  const name = source.name ?? '';
  if (!configMap && !optional) return { error: configMapNotFound(name) };
  return makeConfigMapPayload(source.items, configMap ?? { metadata: { name } }, source.defaultMode ?? DefaultMode, optional);
}

/** A secret volume: NotFound unless optional (then an empty Secret), then MakePayload. */
export function secretPayload(source: SecretVolumeSource, secret: Secret | undefined): PayloadResult {
  const optional = !!source.optional;
  const name = source.secretName ?? '';
  if (!secret && !optional) return { error: secretNotFound(name) };
  return makeSecretPayload(source.items, secret ?? { metadata: { name } }, source.defaultMode ?? DefaultMode, optional);
}

/** Go's filepath.Clean for the relative item paths. */
export function cleanPath(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
      continue;
    }
    out.push(part);
  }
  const s = (abs ? '/' : '') + out.join('/');
  return s === '' ? '.' : s;
}

/** downwardapi.CollectData: each item's value at its cleaned path; errors aggregated. */
export function downwardAPIPayload(items: DownwardAPIVolumeFile[] | undefined, pod: Pod, facts: VolumeFacts, defaultMode: number = DefaultMode): PayloadResult {
  const files: Payload = new Map();
  const errs: string[] = [];
  for (const item of items ?? []) {
    let data = Buffer.alloc(0);
    if (item.fieldRef) {
      const r = extractFieldPathAsString(pod, item.fieldRef.fieldPath);
      if ('error' in r) errs.push(r.error);
      else data = Buffer.from(r.value, 'utf8');
    } else if (item.resourceFieldRef) {
      const r = extractResourceValue(pod, item.resourceFieldRef, facts.nodeAllocatable);
      if ('error' in r) errs.push(r.error);
      else data = Buffer.from(r.value, 'utf8');
    }
    files.set(cleanPath(item.path), { data, mode: item.mode ?? defaultMode });
  }
  const error = aggregateErrors(errs);
  return error !== undefined ? { error } : { files };
}

/**
 * projected collectData: the sources merged into one payload (later sources win on equal paths),
 * each with the projected volume's defaultMode; every failing source's error, aggregated.
 * serviceAccountToken, clusterTrustBundle and podCertificate sources need an API server the lab
 * does not have: they fail with a lab message.
 */
export function projectedPayload(source: ProjectedVolumeSource, pod: Pod, lookup: ObjectLookup, facts: VolumeFacts): PayloadResult {
  const defaultMode = source.defaultMode ?? DefaultMode;
  const ns = pod.metadata?.namespace ?? 'default';
  const files: Payload = new Map();
  const errs: string[] = [];
  const merge = (r: PayloadResult) => {
    if ('error' in r) errs.push(r.error);
    else for (const [k, v] of r.files) files.set(k, v);
  };
  for (const s of source.sources ?? []) {
    if (s.secret) {
      const name = s.secret.name ?? '';
      const optional = !!s.secret.optional;
      const obj = lookup.secret(ns, name);
      if (!obj && !optional) errs.push(secretNotFound(name));
      else merge(makeSecretPayload(s.secret.items, obj ?? { metadata: { name } }, defaultMode, optional));
    } else if (s.configMap) {
      const name = s.configMap.name ?? '';
      const optional = !!s.configMap.optional;
      const obj = lookup.configMap(ns, name);
      if (!obj && !optional) errs.push(configMapNotFound(name));
      else merge(makeConfigMapPayload(s.configMap.items, obj ?? { metadata: { name } }, defaultMode, optional));
    } else if (s.downwardAPI) {
      merge(downwardAPIPayload(s.downwardAPI.items, pod, facts, defaultMode));
    } else if (s.serviceAccountToken) {
      errs.push(`Pod Lab issues no service account tokens (the lab server serves no TokenRequest): nothing for path "${s.serviceAccountToken.path}"`);
    } else {
      const kind = Object.keys(s).find((k) => (s as Record<string, unknown>)[k] !== undefined) ?? 'unknown';
      errs.push(`Pod Lab cannot project ${kind} sources`);
    }
  }
  const error = aggregateErrors(errs);
  return error !== undefined ? { error } : { files };
}
