// A container's environment and mounts as the kubelet makes them (upstream
// pkg/kubelet/kubelet_pods.go makeEnvironmentVariables, podFieldSelectorRuntimeValue, makeMounts;
// third_party/forked/golang/expansion for $(VAR)). Pure: the pod, the container, the node's
// facts and a lookup of ConfigMaps and Secrets in; every variable with where it came from out,
// or the kubelet's exact error. The engine, `describe` and the lifecycle panel share it.
import type { ConfigMap, Container, EnvVar, Pod, Secret } from 'kubernetes-types/core/v1';
import { parseQuantity } from '../../validation/quantity.js';

export interface ObjectLookup {
  configMap(namespace: string, name: string): ConfigMap | undefined;
  secret(namespace: string, name: string): Secret | undefined;
}

/** What the kubelet knows of the pod at container creation. */
export interface PodRuntimeFacts {
  podIP: string;
  hostIP: string;
  nodeName: string;
  /** The node's allocatable (limits.* default for resourceFieldRef). */
  nodeAllocatable?: Record<string, string>;
}

export type EnvSource =
  | { kind: 'value' }
  | { kind: 'configMapKeyRef'; name: string; key: string }
  | { kind: 'secretKeyRef'; name: string; key: string }
  | { kind: 'envFrom'; from: 'configMap' | 'secret'; name: string; key: string; prefix: string }
  | { kind: 'fieldRef'; fieldPath: string }
  | { kind: 'resourceFieldRef'; resource: string; containerName?: string; divisor?: string };

export interface ResolvedEnvVar {
  name: string;
  value: string;
  source: EnvSource;
  /** From a Secret: views hide the value until asked. */
  secret?: boolean;
}

export type EnvResult = { env: ResolvedEnvVar[] } | { error: string };

/** Kubernetes' $(VAR) expansion: `$(NAME)` → value when defined, else kept; `$$` → `$`. */
export function expand(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (ch !== '$' || i + 1 >= input.length) {
      out += ch;
      continue;
    }
    const next = input[i + 1];
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '(') {
      const close = input.indexOf(')', i + 2);
      if (close < 0) {
        out += input.slice(i);
        break;
      }
      const name = input.slice(i + 2, close);
      out += (name === '' ? undefined : lookup(name)) ?? `$(${name})`;
      i = close;
    } else {
      out += ch;
    }
  }
  return out;
}

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

/** podFieldSelectorRuntimeValue (+ the labels/annotations subscripts of fieldpath.ExtractFieldPathAsString). */
export function fieldRefValue(pod: Pod, path: string, facts: PodRuntimeFacts): string | { error: string } {
  const md = pod.metadata ?? {};
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? md.labels : md.annotations)?.[m[2]!] ?? '';
  switch (path) {
    case 'metadata.name':
      return md.name ?? '';
    case 'metadata.namespace':
      return md.namespace ?? 'default';
    case 'metadata.uid':
      return md.uid ?? '';
    case 'spec.nodeName':
      return facts.nodeName;
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
    case 'status.hostIPs':
      return facts.hostIP;
    case 'status.podIP':
    case 'status.podIPs':
      return facts.podIP;
    default:
      return { error: `unsupported fieldPath: ${path}` };
  }
}

/** resourceFieldRef: ceil(quantity / divisor); unset limits default to the node's allocatable. */
export function resourceFieldValue(c: Container, resource: string, divisor: string | number | undefined, allocatable: Record<string, string> = {}): string {
  const [kind, name] = resource.split('.') as ['limits' | 'requests', string];
  let raw = c.resources?.[kind]?.[name];
  if (raw === undefined && kind === 'limits') raw = allocatable[name];
  if (raw === undefined && kind === 'requests') raw = c.resources?.limits?.[name];
  const q = raw === undefined ? undefined : parseQuantity(String(raw));
  const div = parseQuantity(String(divisor ?? '1'));
  const nano = q === undefined || typeof q === 'string' ? 0n : q.nano;
  const d = typeof div === 'string' || div.nano === 0n ? 1_000_000_000n : div.nano;
  return String((nano + d - 1n) / d);
}

/** makeEnvironmentVariables: envFrom in order, then env in order, each overwriting earlier names. */
export function makeEnvironmentVariables(pod: Pod, c: Container, facts: PodRuntimeFacts, lookup: ObjectLookup): EnvResult {
  const ns = pod.metadata?.namespace ?? 'default';
  const vars = new Map<string, ResolvedEnvVar>();
  const set = (v: ResolvedEnvVar) => {
    vars.delete(v.name);
    vars.set(v.name, v);
  };
  for (const from of c.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    if (from.configMapRef) {
      const name = from.configMapRef.name ?? '';
      const cm = lookup.configMap(ns, name);
      if (!cm) {
        if (from.configMapRef.optional) continue;
        return { error: `configmap "${name}" not found` };
      }
      for (const [k, v] of Object.entries(cm.data ?? {})) set({ name: prefix + k, value: v, source: { kind: 'envFrom', from: 'configMap', name, key: k, prefix } });
    } else if (from.secretRef) {
      const name = from.secretRef.name ?? '';
      const s = lookup.secret(ns, name);
      if (!s) {
        if (from.secretRef.optional) continue;
        return { error: `secret "${name}" not found` };
      }
      for (const [k, v] of Object.entries(s.data ?? {})) set({ name: prefix + k, value: decode(v), source: { kind: 'envFrom', from: 'secret', name, key: k, prefix }, secret: true });
    }
  }
  for (const e of c.env ?? []) {
    const r = envVarValue(pod, c, e, facts, lookup, (n) => vars.get(n)?.value);
    if (r === undefined) continue;
    if ('error' in r) return r;
    set(r);
  }
  return { env: [...vars.values()] };
}

function envVarValue(pod: Pod, c: Container, e: EnvVar, facts: PodRuntimeFacts, lookup: ObjectLookup, known: (n: string) => string | undefined): ResolvedEnvVar | { error: string } | undefined {
  const ns = pod.metadata?.namespace ?? 'default';
  if (!e.valueFrom) return { name: e.name, value: expand(e.value ?? '', known), source: { kind: 'value' } };
  const f = e.valueFrom;
  if (f.fieldRef) {
    const v = fieldRefValue(pod, f.fieldRef.fieldPath, facts);
    return typeof v === 'string' ? { name: e.name, value: v, source: { kind: 'fieldRef', fieldPath: f.fieldRef.fieldPath } } : v;
  }
  if (f.resourceFieldRef) {
    const r = f.resourceFieldRef;
    const target = r.containerName ? [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((x) => x.name === r.containerName) ?? c : c;
    const divisor = r.divisor === undefined ? undefined : String(r.divisor);
    return { name: e.name, value: resourceFieldValue(target, r.resource, divisor, facts.nodeAllocatable), source: { kind: 'resourceFieldRef', resource: r.resource, containerName: r.containerName, divisor } };
  }
  if (f.configMapKeyRef) {
    const { name = '', key, optional } = f.configMapKeyRef;
    const cm = lookup.configMap(ns, name);
    if (!cm) return optional ? undefined : { error: `configmap "${name}" not found` };
    const v = cm.data?.[key] ?? (cm.binaryData?.[key] !== undefined ? decode(cm.binaryData[key]!) : undefined);
    if (v === undefined) return optional ? undefined : { error: `couldn't find key ${key} in ConfigMap ${ns}/${name}` };
    return { name: e.name, value: v, source: { kind: 'configMapKeyRef', name, key } };
  }
  if (f.secretKeyRef) {
    const { name = '', key, optional } = f.secretKeyRef;
    const s = lookup.secret(ns, name);
    if (!s) return optional ? undefined : { error: `secret "${name}" not found` };
    const v = s.data?.[key];
    if (v === undefined) return optional ? undefined : { error: `couldn't find key ${key} in Secret ${ns}/${name}` };
    return { name: e.name, value: decode(v), source: { kind: 'secretKeyRef', name, key }, secret: true };
  }
  return { error: `Pod Lab does not support this env source (${Object.keys(f).join(', ')}) for ${e.name}` };
}

/** One declared variable as a view shows it: the value when it can be known, else why not. */
export interface EnvVarView {
  name: string;
  value?: string;
  source: EnvSource;
  secret?: boolean;
  /** The kubelet's error for this variable (missing object or key), when there is one. */
  error?: string;
}

/**
 * The same resolution for views (describe, the lifecycle panel): never fails; a variable whose
 * object or key is missing (optional or not) is listed without a value, with the error.
 */
export function describeEnvironment(pod: Pod, c: Container, facts: PodRuntimeFacts, lookup: ObjectLookup): EnvVarView[] {
  const ns = pod.metadata?.namespace ?? 'default';
  const vars = new Map<string, EnvVarView>();
  const set = (v: EnvVarView) => {
    vars.delete(v.name);
    vars.set(v.name, v);
  };
  for (const from of c.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    const isCm = !!from.configMapRef;
    const name = (isCm ? from.configMapRef?.name : from.secretRef?.name) ?? '';
    const obj = isCm ? lookup.configMap(ns, name) : lookup.secret(ns, name);
    for (const [k, v] of Object.entries(obj?.data ?? {})) {
      set({ name: prefix + k, value: isCm ? v : decode(v), source: { kind: 'envFrom', from: isCm ? 'configMap' : 'secret', name, key: k, prefix }, ...(isCm ? {} : { secret: true }) });
    }
  }
  for (const e of c.env ?? []) {
    const r = envVarValue(pod, c, e, facts, lookup, (n) => vars.get(n)?.value);
    if (r && !('error' in r)) {
      set(r);
      continue;
    }
    const f = e.valueFrom;
    const source: EnvSource = f?.configMapKeyRef
      ? { kind: 'configMapKeyRef', name: f.configMapKeyRef.name ?? '', key: f.configMapKeyRef.key }
      : f?.secretKeyRef
        ? { kind: 'secretKeyRef', name: f.secretKeyRef.name ?? '', key: f.secretKeyRef.key }
        : f?.fieldRef
          ? { kind: 'fieldRef', fieldPath: f.fieldRef.fieldPath }
          : { kind: 'value' };
    set({ name: e.name, source, ...(f?.secretKeyRef ? { secret: true } : {}), ...(r ? { error: r.error } : { error: `optional: ${source.kind === 'value' ? 'not set' : 'not found'}` }) });
  }
  return [...vars.values()];
}

/** Expands command and args against the final environment. */
export function expandCommand(c: Container, env: readonly ResolvedEnvVar[]): { command: string[]; args: string[] } {
  const m = new Map(env.map((v) => [v.name, v.value]));
  const look = (n: string) => m.get(n);
  return { command: (c.command ?? []).map((s) => expand(s, look)), args: (c.args ?? []).map((s) => expand(s, look)) };
}
