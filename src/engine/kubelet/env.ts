// A container's environment and mounts as the kubelet makes them. Upstream
// pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables, podFieldSelectorRuntimeValue,
// containerResourceRuntimeValue, makeMounts), pkg/kubelet/kubelet_resources.go
// (defaultPodLimitsForDownwardAPI), pkg/apis/core/pods/helpers.go (ConvertDownwardAPIFieldLabel),
// pkg/kubelet/container/helpers.go (ExpandContainerCommandAndArgs, ExpandContainerCommandOnlyStatic,
// ExpandContainerVolumeMounts) and third_party/forked/golang/expansion/expand.go for `$(VAR)`;
// plus kubectl describe's own reading of a fieldRef (kubectl/pkg/describe EnvValueRetriever).
// Pure: the pod, the container, the node's facts and a lookup of ConfigMaps and Secrets in; every
// variable with where it came from out, or the kubelet's exact error. The engine, `describe` and
// the lifecycle panel share it. Pod Lab has no Services, so no service-link variables are added
// (a kubelet without a service lister adds none either).
import { posix } from 'node:path';
import type { ConfigMap, Container, EnvVar, Pod, Secret } from 'kubernetes-types/core/v1';
import { extractFieldPathAsString } from './volumes/fieldpath.js';
import { extractContainerResourceValue, mergeContainerResourceLimits, nanoOf, type ResourceList } from './volumes/resource.js';

/** ConfigMaps and Secrets as the kubelet's watch-based manager sees them; undefined = NotFound. */
export interface ObjectLookup {
  configMap(namespace: string, name: string): ConfigMap | undefined;
  secret(namespace: string, name: string): Secret | undefined;
}

/** What the kubelet knows of the pod at container creation that the pod object does not say. */
export interface PodRuntimeFacts {
  /** The pod's IP (the sandbox's); `podIPs[0]` wins when `podIPs` is given. */
  podIP: string;
  /** The node's IP; `hostIPs[0]` wins when `hostIPs` is given. */
  hostIP: string;
  /** The pod's IPs, sorted by the node's IP family (status.podIPs joins them with `,`). */
  podIPs?: string[];
  /** The node's IPs (status.hostIPs). */
  hostIPs?: string[];
  /** Used only when the pod has no spec.nodeName (the kubelet reads the pod's). */
  nodeName: string;
  /** The node's allocatable: resourceFieldRef's default for unset limits. Undefined = unknown (views only). */
  nodeAllocatable?: Record<string, string>;
}

export type EnvSource =
  /** A literal `value` with no `$` in it changed. */
  | { kind: 'value' }
  /** A literal `value` whose `$(VAR)` references (or `$$`) were expanded; `template` is as written. */
  | { kind: 'expanded'; template: string }
  | { kind: 'configMapKeyRef'; name: string; key: string; optional: boolean }
  | { kind: 'secretKeyRef'; name: string; key: string; optional: boolean }
  | { kind: 'envFrom'; from: 'configMap' | 'secret'; name: string; key: string; prefix: string }
  | { kind: 'fieldRef'; apiVersion: string; fieldPath: string }
  | { kind: 'resourceFieldRef'; resource: string; containerName?: string; divisor?: string }
  | { kind: 'fileKeyRef'; volumeName: string; path: string; key: string; optional: boolean };

export interface ResolvedEnvVar {
  name: string;
  value: string;
  source: EnvSource;
  /** The value is (or contains, through `$(VAR)`) a Secret's: views hide it until asked. */
  secret?: boolean;
}

export type EnvResult = { env: ResolvedEnvVar[] } | { error: string };

// ---------------------------------------------------------------------------------------------
// $(VAR) expansion (third_party/forked/golang/expansion/expand.go)

/**
 * Expand: `$(NAME)` → the mapping's value when defined, else kept as written; `$$` → `$`; a `$(`
 * without `)` is kept and scanning goes on after it; `$x` (any other character) is kept.
 */
export function expand(input: string, mapping: (name: string) => string | undefined): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const next = input[cursor + 1]!;
    let advance = 1;
    if (next === '$') out += '$';
    else if (next === '(') {
      const close = input.indexOf(')', cursor + 2);
      if (close < 0) out += '$(';
      else {
        const name = input.slice(cursor + 2, close);
        out += (name === '' ? undefined : mapping(name)) ?? `$(${name})`;
        advance = close - cursor;
      }
    } else out += `$${next}`;
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}

/** ExpandContainerCommandAndArgs: command and args against the container's final environment. */
export function expandCommand(c: Container, env: readonly { name: string; value: string }[]): { command: string[]; args: string[] } {
  const m = new Map(env.map((v) => [v.name, v.value]));
  const look = (n: string) => m.get(n);
  return { command: (c.command ?? []).map((s) => expand(s, look)), args: (c.args ?? []).map((s) => expand(s, look)) };
}

/**
 * ExpandContainerCommandOnlyStatic (exec probes and hooks): `$(VAR)` from the container's own
 * `env` entries only, each as its literal `value` unexpanded (a valueFrom entry is defined and empty).
 */
export function expandCommandOnlyStatic(command: readonly string[], env: readonly EnvVar[] = []): string[] {
  const vars = new Map<string, string>();
  for (const e of env) vars.set(e.name, e.value ?? '');
  return command.map((s) => expand(s, (n) => vars.get(n)));
}

// ---------------------------------------------------------------------------------------------
// Downward API

/** pods.ConvertDownwardAPIFieldLabel: the internal field path, or the error. */
function convertDownwardAPIFieldLabel(apiVersion: string, label: string): { path: string } | { error: string } {
  if (apiVersion !== 'v1') return { error: `unsupported pod version: ${apiVersion}` };
  const sub = /^(.+?)\['(.*)'\]$/s.exec(label);
  if (sub) {
    return sub[1] === 'metadata.annotations' || sub[1] === 'metadata.labels' ? { path: label } : { error: `field label does not support subscript: ${label}` };
  }
  switch (label) {
    case 'metadata.annotations':
    case 'metadata.labels':
    case 'metadata.name':
    case 'metadata.namespace':
    case 'metadata.uid':
    case 'spec.nodeName':
    case 'spec.restartPolicy':
    case 'spec.serviceAccountName':
    case 'spec.schedulerName':
    case 'status.phase':
    case 'status.hostIP':
    case 'status.hostIPs':
    case 'status.podIP':
    case 'status.podIPs':
      return { path: label };
    case 'spec.host':
      return { path: 'spec.nodeName' };
    default:
      return { error: `field label not supported: ${label}` };
  }
}

/** podFieldSelectorRuntimeValue: the kubelet's value of an env fieldRef, or its error. */
export function fieldRefValue(pod: Pod, fieldPath: string, facts: PodRuntimeFacts, apiVersion = 'v1'): string | { error: string } {
  const conv = convertDownwardAPIFieldLabel(apiVersion, fieldPath);
  if ('error' in conv) return conv;
  const podIPs = facts.podIPs ?? (facts.podIP ? [facts.podIP] : []);
  const hostIPs = facts.hostIPs ?? (facts.hostIP ? [facts.hostIP] : []);
  switch (conv.path) {
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? facts.nodeName;
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
      return hostIPs[0] ?? '';
    case 'status.hostIPs':
      return hostIPs.join(',');
    case 'status.podIP':
      return podIPs[0] ?? '';
    case 'status.podIPs':
      return podIPs.join(',');
  }
  const r = extractFieldPathAsString(pod, conv.path);
  return 'error' in r ? r : r.value;
}

/**
 * What kubectl describe prints for an env fieldRef (EnvValueRetriever): kubectl's scheme has no
 * Pod field-label conversion, so only `metadata.name` and `metadata.namespace` get a value; every
 * other path (labels, uid, spec.nodeName, status.podIP …) prints empty (kubernetes/kubernetes#109482).
 */
export function kubectlFieldRefValue(pod: Pod, fieldPath: string): string {
  if (fieldPath === 'metadata.name') return pod.metadata?.name ?? '';
  if (fieldPath === 'metadata.namespace') return pod.metadata?.namespace ?? 'default';
  return '';
}

/** Pod-level limits (PodLevelResources) of the resources the downward API reads. */
const POD_LEVEL_DOWNWARD = ['cpu', 'memory'];

/**
 * defaultPodLimitsForDownwardAPI + containerResourceRuntimeValue: the container (or, with
 * `containerName`, the named one: regular containers defaulted, init containers as written) with
 * unset or zero cpu/memory/ephemeral-storage limits taken from the pod-level limits, else from the
 * node's allocatable; then ceil(quantity / divisor).
 */
function resourceRuntimeValue(
  pod: Pod,
  c: Container,
  ref: { resource: string; containerName?: string; divisor?: string | number },
  nodeAllocatable: ResourceList,
): string | { error: string } {
  const allocatable: ResourceList = { ...nodeAllocatable };
  const podLimits = (pod.spec as { resources?: { limits?: ResourceList } } | undefined)?.resources?.limits ?? {};
  for (const r of POD_LEVEL_DOWNWARD) {
    if (podLimits[r] !== undefined && nanoOf(podLimits[r]) !== 0n && allocatable[r] !== undefined) allocatable[r] = String(podLimits[r]);
  }
  let target: Container;
  if (!ref.containerName) target = mergeContainerResourceLimits(c, allocatable);
  else {
    const regular = pod.spec?.containers?.find((x) => x.name === ref.containerName);
    const init = pod.spec?.initContainers?.find((x) => x.name === ref.containerName);
    if (regular) target = mergeContainerResourceLimits(regular, allocatable);
    else if (init) target = init;
    else return { error: `container ${ref.containerName} not found` };
  }
  const r = extractContainerResourceValue(ref.resource, ref.divisor, target);
  return 'error' in r ? r : r.value;
}

/**
 * ExtractContainerResourceValue on one container as written (what kubectl describe prints: no
 * node allocatable, so an unset limit is `0`), optionally with unset limits from `allocatable`.
 * An unsupported resource gives `` (kubectl prints it empty).
 */
export function resourceFieldValue(c: Container, resource: string, divisor: string | number | undefined, allocatable?: Record<string, string>): string {
  const r = extractContainerResourceValue(resource, divisor, allocatable ? mergeContainerResourceLimits(c, allocatable) : c);
  return 'error' in r ? '' : r.value;
}

// ---------------------------------------------------------------------------------------------
// makeEnvironmentVariables

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

/** A Secret's `data` (base64 → text), with `stringData` merged over it as the API server would on write. */
function secretData(s: Secret): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.data ?? {})) out[k] = decode(v);
  for (const [k, v] of Object.entries(s.stringData ?? {})) out[k] = v;
  return out;
}

/** Map keys in the order the API server serialises them (Go sorts map keys). */
const sortedEntries = (m: Record<string, string>) => Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Where an env entry says its value comes from. */
function declaredSource(e: EnvVar): EnvSource {
  const f = e.valueFrom;
  if (f?.fieldRef) return { kind: 'fieldRef', apiVersion: f.fieldRef.apiVersion ?? 'v1', fieldPath: f.fieldRef.fieldPath };
  if (f?.resourceFieldRef) {
    const r = f.resourceFieldRef;
    return { kind: 'resourceFieldRef', resource: r.resource, ...(r.containerName ? { containerName: r.containerName } : {}), ...(r.divisor !== undefined ? { divisor: String(r.divisor) } : {}) };
  }
  if (f?.configMapKeyRef) return { kind: 'configMapKeyRef', name: f.configMapKeyRef.name ?? '', key: f.configMapKeyRef.key, optional: f.configMapKeyRef.optional === true };
  if (f?.secretKeyRef) return { kind: 'secretKeyRef', name: f.secretKeyRef.name ?? '', key: f.secretKeyRef.key, optional: f.secretKeyRef.optional === true };
  const fk = (f as { fileKeyRef?: { volumeName: string; path: string; key: string; optional?: boolean } } | undefined)?.fileKeyRef;
  if (fk) return { kind: 'fileKeyRef', volumeName: fk.volumeName, path: fk.path, key: fk.key, optional: fk.optional === true };
  return { kind: 'value' };
}

/** The outcome of one env entry: a variable, an optional source left out (with why), or the kubelet's error. */
type Step = { set: ResolvedEnvVar } | { skip: string } | { error: string };

interface Known {
  value: string;
  secret?: boolean;
}

function envStep(pod: Pod, c: Container, e: EnvVar, facts: PodRuntimeFacts, lookup: ObjectLookup, known: (n: string) => Known | undefined): Step {
  const ns = pod.metadata?.namespace ?? 'default';
  const source = declaredSource(e);
  const raw = e.value ?? '';
  // Step 1a: a set value is expanded against envFrom and the earlier entries; valueFrom is never expanded.
  if (raw !== '' || !e.valueFrom) {
    let secret = false;
    const value = expand(raw, (n) => {
      const k = known(n);
      if (k?.secret) secret = true;
      return k?.value;
    });
    return { set: { name: e.name, value, source: value === raw ? { kind: 'value' } : { kind: 'expanded', template: raw }, ...(secret ? { secret: true } : {}) } };
  }
  switch (source.kind) {
    case 'fieldRef': {
      const v = fieldRefValue(pod, source.fieldPath, facts, source.apiVersion);
      return typeof v === 'string' ? { set: { name: e.name, value: v, source } } : v;
    }
    case 'resourceFieldRef': {
      const v = resourceRuntimeValue(pod, c, e.valueFrom.resourceFieldRef!, facts.nodeAllocatable ?? {});
      return typeof v === 'string' ? { set: { name: e.name, value: v, source } } : v;
    }
    case 'configMapKeyRef': {
      const cm = lookup.configMap(ns, source.name);
      if (!cm) return source.optional ? { skip: `configmap "${source.name}" not found` } : { error: `configmap "${source.name}" not found` };
      // Only `data`: a key in `binaryData` is not found for env.
      const v = cm.data && Object.hasOwn(cm.data, source.key) ? cm.data[source.key]! : undefined;
      const missing = `couldn't find key ${source.key} in ConfigMap ${ns}/${source.name}`;
      if (v === undefined) return source.optional ? { skip: missing } : { error: missing };
      return { set: { name: e.name, value: v, source } };
    }
    case 'secretKeyRef': {
      const s = lookup.secret(ns, source.name);
      if (!s) return source.optional ? { skip: `secret "${source.name}" not found` } : { error: `secret "${source.name}" not found` };
      const data = secretData(s);
      const missing = `couldn't find key ${source.key} in Secret ${ns}/${source.name}`;
      if (!Object.hasOwn(data, source.key)) return source.optional ? { skip: missing } : { error: missing };
      return { set: { name: e.name, value: data[source.key]!, source, secret: true } };
    }
    case 'fileKeyRef':
      return { error: 'Pod Lab does not support fileKeyRef yet' };
    default:
      // A valueFrom naming no source the kubelet knows: the variable is set, empty.
      return { set: { name: e.name, value: '', source } };
  }
}

/** envFrom's variables of one source, or the object's absence. */
function envFromVars(ns: string, from: NonNullable<Container['envFrom']>[number], lookup: ObjectLookup): { vars: ResolvedEnvVar[] } | { missing: string; optional: boolean } {
  const prefix = from.prefix ?? '';
  if (from.configMapRef) {
    const name = from.configMapRef.name ?? '';
    const cm = lookup.configMap(ns, name);
    if (!cm) return { missing: `configmap "${name}" not found`, optional: from.configMapRef.optional === true };
    return { vars: sortedEntries(cm.data ?? {}).map(([k, v]) => ({ name: prefix + k, value: v, source: { kind: 'envFrom', from: 'configMap', name, key: k, prefix } })) };
  }
  if (from.secretRef) {
    const name = from.secretRef.name ?? '';
    const s = lookup.secret(ns, name);
    if (!s) return { missing: `secret "${name}" not found`, optional: from.secretRef.optional === true };
    return { vars: sortedEntries(secretData(s)).map(([k, v]) => ({ name: prefix + k, value: v, source: { kind: 'envFrom', from: 'secret', name, key: k, prefix }, secret: true })) };
  }
  return { vars: [] };
}

/** An ordered variable table: setting a name again moves it to the end (the later definition wins). */
class EnvTable<T extends { name: string }> {
  readonly vars = new Map<string, T>();
  set(v: T): void {
    this.vars.delete(v.name);
    this.vars.set(v.name, v);
  }
  list(): T[] {
    return [...this.vars.values()];
  }
}

/**
 * makeEnvironmentVariables: envFrom sources in list order (keys with their prefix; a later source
 * overwrites; a missing object is an error unless optional), then `env` in order, each overwriting
 * what came before. Every key passes (RelaxedEnvironmentVariableValidation). Upstream returns the
 * variables in Go map order (random); here: first envFrom keys (sorted per source), then `env`
 * entries in spec order, a redefined name moving to its last definition.
 */
export function makeEnvironmentVariables(pod: Pod, c: Container, facts: PodRuntimeFacts, lookup: ObjectLookup): EnvResult {
  const ns = pod.metadata?.namespace ?? 'default';
  const t = new EnvTable<ResolvedEnvVar>();
  for (const from of c.envFrom ?? []) {
    const r = envFromVars(ns, from, lookup);
    if ('missing' in r) {
      if (r.optional) continue;
      return { error: r.missing };
    }
    for (const v of r.vars) t.set(v);
  }
  for (const e of c.env ?? []) {
    const s = envStep(pod, c, e, facts, lookup, (n) => t.vars.get(n));
    if ('error' in s) return s;
    if ('set' in s) t.set(s.set);
  }
  return { env: t.list() };
}

/** One variable as a view shows it: the value when it can be known, else why not. */
export interface EnvVarView {
  name: string;
  value?: string;
  source: EnvSource;
  secret?: boolean;
  /** The kubelet's error for this variable (the container cannot be created while it stands). */
  error?: string;
  /** An optional source that is missing: the variable is not set; why. */
  skipped?: string;
  /** The value is not known to the view (e.g. `node allocatable` when the node's facts are not given). */
  unknown?: string;
}

/** Whether a resourceFieldRef's value would come from the node's allocatable (an unset or zero limit). */
function fromAllocatable(pod: Pod, c: Container, resource: string, containerName: string | undefined): boolean {
  const m = /^limits\.(cpu|memory|ephemeral-storage)$/.exec(resource);
  if (!m) return false;
  const target = containerName ? pod.spec?.containers?.find((x) => x.name === containerName) : c;
  return !!target && nanoOf(target.resources?.limits?.[m[1]!]) === 0n;
}

/**
 * The same resolution for views (the lifecycle panel): never fails. A variable whose object or
 * key is missing is listed without a value, with the kubelet's error (or, when optional, why it is
 * left out; an optional one never hides an earlier value of the same name, as the kubelet keeps
 * it); a missing envFrom object lists nothing (the container's envFrom says which). When
 * `facts.nodeAllocatable` is undefined, a resourceFieldRef that would read it has no value.
 */
export function describeEnvironment(pod: Pod, c: Container, facts: PodRuntimeFacts, lookup: ObjectLookup): EnvVarView[] {
  const ns = pod.metadata?.namespace ?? 'default';
  const t = new EnvTable<EnvVarView>();
  const known = (n: string): Known | undefined => {
    const v = t.vars.get(n);
    return v?.value === undefined ? undefined : { value: v.value, secret: v.secret };
  };
  for (const from of c.envFrom ?? []) {
    const r = envFromVars(ns, from, lookup);
    if ('vars' in r) for (const v of r.vars) t.set(v);
  }
  for (const e of c.env ?? []) {
    const source = declaredSource(e);
    const secret = source.kind === 'secretKeyRef' ? { secret: true } : {};
    if (source.kind === 'resourceFieldRef' && !e.value && facts.nodeAllocatable === undefined && fromAllocatable(pod, c, source.resource, source.containerName)) {
      t.set({ name: e.name, source, unknown: 'node allocatable' });
      continue;
    }
    const s = envStep(pod, c, e, facts, lookup, known);
    if ('set' in s) t.set(s.set);
    else if ('error' in s) t.set({ name: e.name, source, ...secret, error: s.error });
    else if (t.vars.get(e.name)?.value === undefined) t.set({ name: e.name, source, ...secret, skipped: s.skip });
  }
  return t.list();
}

// ---------------------------------------------------------------------------------------------
// makeMounts

export type VolumeKind = 'emptyDir' | 'hostPath' | 'configMap' | 'secret' | 'downwardAPI' | 'projected';

/** A pod volume as the volume manager set it up (its MountedVolume). */
export interface VolumeHostPath {
  hostPath: string;
  kind: VolumeKind;
  /** A `medium: Memory` emptyDir held as a runtime-managed tmpfs volume. */
  tmpfsVolume?: string;
}

export interface ResolvedMount {
  /** The volume's name, or `k8s-managed-etc-hosts`. */
  name: string;
  hostPath: string;
  containerPath: string;
  readOnly: boolean;
  /** The subPath (or expanded subPathExpr), already joined onto `hostPath`. */
  subPath?: string;
  source: VolumeKind | 'etcHosts';
  tmpfsVolume?: string;
}

export type MountsResult = { mounts: ResolvedMount[] } | { error: string };

/** Volumes whose plugin reports ReadOnly (the atomic-writer plugins): mounted read-only whatever the mount says. */
const ALWAYS_READ_ONLY = new Set<VolumeKind>(['configMap', 'secret', 'downwardAPI', 'projected']);

export const EtcHostsPath = '/etc/hosts';

/**
 * ExpandContainerVolumeMounts: subPathExpr against the container's environment; a reference to
 * a variable that is undefined or empty fails with `missing value for A, B` (sorted).
 */
export function expandSubPathExpr(expr: string, env: readonly { name: string; value: string }[]): { subPath: string } | { error: string } {
  const m = new Map(env.map((v) => [v.name, v.value]));
  const missing = new Set<string>();
  const subPath = expand(expr, (n) => {
    const v = m.get(n);
    if (!v) missing.add(n);
    return v ?? '';
  });
  if (missing.size > 0) return { error: `missing value for ${[...missing].sort().join(', ')}` };
  return { subPath };
}

/**
 * makeMounts: each volumeMount onto its volume's host path (subPath / subPathExpr joined on,
 * after the kubelet's checks), read-only when the mount says so or the volume is a configMap,
 * secret, downwardAPI or projected one; then the managed `/etc/hosts` (read-write) when
 * `etcHostsPath` is given (the caller gives it once the pod has an IP, or with hostNetwork) and
 * the container does not mount `/etc/hosts` itself. The termination-message file is not here:
 * the runtime mounts it (kuberuntime's makeMounts), from ContainerConfig.terminationMessageHostPath.
 */
export function makeMounts(
  pod: Pod,
  c: Container,
  volumes: (volumeName: string) => VolumeHostPath | undefined,
  extra: { etcHostsPath?: string; env: readonly { name: string; value: string }[] },
): MountsResult {
  const mounts: ResolvedMount[] = [];
  let mountEtcHosts = extra.etcHostsPath !== undefined;
  for (const m of c.volumeMounts ?? []) {
    mountEtcHosts = mountEtcHosts && m.mountPath !== EtcHostsPath;
    const vol = volumes(m.name);
    if (!vol) return { error: `cannot find volume "${m.name}" to mount into container "${c.name}"` };
    let subPath = m.subPath ?? '';
    if (m.subPathExpr) {
      const r = expandSubPathExpr(m.subPathExpr, extra.env);
      if ('error' in r) return r;
      subPath = r.subPath;
    }
    if (subPath !== '') {
      if (subPath.startsWith('/')) return { error: `error SubPath \`${subPath}\` must not be an absolute path` };
      if (subPath.split('/').includes('..')) return { error: `unable to provision SubPath \`${subPath}\`: must not contain '..'` };
    }
    const mount: ResolvedMount = {
      name: m.name,
      hostPath: subPath ? posix.join(vol.hostPath, subPath) : vol.hostPath,
      containerPath: m.mountPath,
      readOnly: m.readOnly === true || ALWAYS_READ_ONLY.has(vol.kind),
      source: vol.kind,
    };
    if (subPath) mount.subPath = subPath;
    if (vol.tmpfsVolume) mount.tmpfsVolume = vol.tmpfsVolume;
    mounts.push(mount);
  }
  if (mountEtcHosts) mounts.push({ name: 'k8s-managed-etc-hosts', hostPath: extra.etcHostsPath!, containerPath: EtcHostsPath, readOnly: false, source: 'etcHosts' });
  return { mounts };
}
