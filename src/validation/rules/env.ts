// env and envFrom (pod-validation-rules.md §8): names (relaxed rule, 1.32+), valueFrom exclusivity,
// downward API field paths, resourceFieldRef, configMap/secret key refs, fileKeyRef (1.35).
import type { EnvFromSource, EnvVar, ObjectFieldSelector, ResourceFieldSelector, Volume } from 'kubernetes-types/core/v1';
import { F, goQuote, type FieldErr } from '../errors.js';
import { isConfigMapKey, isDNS1123Label, isQualifiedName, isRelaxedEnvVarName, nameIsDNSSubdomain, noBacksteps } from '../formats.js';
import { formatQuantity, parseQuantity } from '../quantity.js';

export const ENV_FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
export const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
export const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const CONVERTIBLE = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.restartPolicy',
  'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs',
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['k']` → [path, key]. */
export function splitSubscript(fp: string): [string, string] | undefined {
  if (!fp.endsWith("']")) return undefined;
  const s = fp.slice(0, -2);
  const i = s.indexOf("['");
  if (i <= 0) return undefined;
  return [s.slice(0, i), s.slice(i + 2)];
}

/** validateObjectFieldSelector, after podshelper.ConvertDownwardAPIFieldLabel. */
export function validateFieldRef(fs: ObjectFieldSelector, allowed: string[], path: string): FieldErr[] {
  if (!fs.apiVersion) return [F.required(`${path}.apiVersion`)];
  if (!fs.fieldPath) return [F.required(`${path}.fieldPath`)];
  const fp = fs.fieldPath;
  const sub = splitSubscript(fp);
  let err: string | undefined;
  if (fs.apiVersion !== 'v1') err = `unsupported pod version: ${fs.apiVersion}`;
  else if (sub && sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') err = `field label does not support subscript: ${fp}`;
  else if (!sub && !CONVERTIBLE.has(fp) && fp !== 'spec.host') err = `field label not supported: ${fp}`;
  if (err) return [F.invalid(`${path}.fieldPath`, fp, `error converting fieldPath: ${err}`)];
  if (sub) {
    const key = sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1];
    return isQualifiedName(key).map((m) => F.invalid(path, key, m));
  }
  const internal = fp === 'spec.host' ? 'spec.nodeName' : fp;
  if (!allowed.includes(internal)) return [F.notSupported(`${path}.fieldPath`, internal, allowed)];
  return [];
}

const MEMORY_DIVISORS = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];
const DIVISOR_LIST = MEMORY_DIVISORS.join(', ');

/** validateContainerResourceFieldSelector (+ divisor). `volume`: containerName is required. */
export function validateResourceFieldRef(fs: ResourceFieldSelector, path: string, volume: boolean): FieldErr[] {
  const out: FieldErr[] = [];
  const res = fs.resource ?? '';
  if (volume && !fs.containerName) out.push(F.required(`${path}.containerName`));
  else if (!res) out.push(F.required(`${path}.resource`));
  else if (!RESOURCE_FIELD_PATHS.includes(res) && !res.startsWith('limits.hugepages-') && !res.startsWith('requests.hugepages-')) {
    out.push(F.notSupported(`${path}.resource`, res, RESOURCE_FIELD_PATHS));
  }
  if (fs.divisor !== undefined) {
    const q = parseQuantity(String(fs.divisor));
    if (typeof q !== 'string' && q.nano !== 0n) {
      const d = formatQuantity(q);
      const bad = (what: string, list: string) => out.push(F.invalid(`${path}.divisor`, res, `only divisor's values ${list} are supported with the ${what}`));
      if ((res === 'limits.cpu' || res === 'requests.cpu') && d !== '1m' && d !== '1') bad('cpu resource', '1m and 1');
      if ((res === 'limits.memory' || res === 'requests.memory') && !MEMORY_DIVISORS.includes(d)) bad('memory resource', DIVISOR_LIST);
      if ((res === 'limits.ephemeral-storage' || res === 'requests.ephemeral-storage') && !MEMORY_DIVISORS.includes(d)) bad('local ephemeral storage resource', DIVISOR_LIST);
      if ((res.startsWith('requests.hugepages-') || res.startsWith('limits.hugepages-')) && !MEMORY_DIVISORS.includes(d)) bad('hugepages resource', DIVISOR_LIST);
    }
  }
  return out;
}

function keySelector(name: string | undefined, key: string | undefined, path: string): FieldErr[] {
  const out: FieldErr[] = [];
  for (const m of nameIsDNSSubdomain(name ?? '', false)) out.push(F.invalid(`${path}.name`, name ?? '', m));
  if (!key) out.push(F.required(`${path}.key`));
  else for (const m of isConfigMapKey(key)) out.push(F.invalid(`${path}.key`, key, m));
  return out;
}

function envName(name: string | undefined, path: string): FieldErr[] {
  if (!name) return [F.required(path)];
  return isRelaxedEnvVarName(name).map((m) => F.invalid(path, name, m));
}

/** ValidateEnv (1.35: relaxed names, five valueFrom sources). */
export function validateEnv(env: EnvVar[] | undefined, path: string, volumes: Map<string, Volume>): FieldErr[] {
  const out: FieldErr[] = [];
  (env ?? []).forEach((ev, i) => {
    const at = `${path}[${i}]`;
    if (!ev) return;
    out.push(...envName(ev.name, `${at}.name`));
    const vf = ev.valueFrom;
    if (!vf) return;
    const vp = `${at}.valueFrom`;
    let n = 0;
    if (vf.fieldRef) {
      n++;
      out.push(...validateFieldRef(vf.fieldRef, ENV_FIELD_PATHS, `${vp}.fieldRef`));
    }
    if (vf.resourceFieldRef) {
      n++;
      out.push(...validateResourceFieldRef(vf.resourceFieldRef, `${vp}.resourceFieldRef`, false));
    }
    if (vf.configMapKeyRef) {
      n++;
      out.push(...keySelector(vf.configMapKeyRef.name, vf.configMapKeyRef.key, `${vp}.configMapKeyRef`));
    }
    if (vf.secretKeyRef) {
      n++;
      out.push(...keySelector(vf.secretKeyRef.name, vf.secretKeyRef.key, `${vp}.secretKeyRef`));
    }
    const fk = (vf as { fileKeyRef?: { key?: string; volumeName?: string; path?: string } }).fileKeyRef;
    if (fk) {
      n++;
      out.push(...validateFileKeyRef(fk, `${vp}.fileKeyRef`, volumes));
    }
    if (n === 0) out.push(F.invalid(vp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`'));
    else if (ev.value) out.push(F.invalid(vp, '', 'may not be specified when `value` is not empty'));
    else if (n > 1) out.push(F.invalid(vp, '', 'may not have more than one field specified at a time'));
  });
  return out;
}

function validateFileKeyRef(fk: { key?: string; volumeName?: string; path?: string }, path: string, volumes: Map<string, Volume>): FieldErr[] {
  const out: FieldErr[] = [];
  out.push(...envName(fk.key, `${path}.key`));
  if (!fk.volumeName) out.push(F.required(`${path}.volumeName`));
  else {
    const label = isDNS1123Label(fk.volumeName);
    for (const m of label) out.push(F.invalid(`${path}.volumeName`, fk.volumeName, m));
    const v = volumes.get(fk.volumeName);
    if (!label.length && !v) out.push(F.notFound(`${path}.volumeName`, fk.volumeName));
    else if (v && !v.emptyDir) out.push(F.invalid(`${path}.volumeName`, fk.volumeName, 'referenced volume must be of type emptyDir'));
  }
  if (!fk.path) out.push(F.required(`${path}.path`));
  else for (const m of noBacksteps(fk.path)) out.push(F.invalid(`${path}.path`, fk.path, m));
  return out;
}

/** ValidateEnvFrom: the "one of" errors are on the un-indexed `envFrom` path. */
export function validateEnvFrom(list: EnvFromSource[] | undefined, path: string): FieldErr[] {
  const out: FieldErr[] = [];
  (list ?? []).forEach((ev, i) => {
    const at = `${path}[${i}]`;
    if (!ev) return;
    if (ev.prefix) for (const m of isRelaxedEnvVarName(ev.prefix)) out.push(F.invalid(`${at}.prefix`, ev.prefix, m));
    let n = 0;
    for (const [key, ref] of [['configMapRef', ev.configMapRef], ['secretRef', ev.secretRef]] as const) {
      if (!ref) continue;
      n++;
      if (!ref.name) out.push(F.required(`${at}.${key}.name`));
      else for (const m of nameIsDNSSubdomain(ref.name, true)) out.push(F.invalid(`${at}.${key}.name`, ref.name, m));
    }
    if (n === 0) out.push(F.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`', { loc: at }));
    else if (n > 1) out.push(F.invalid(path, '', 'may not have more than one field specified at a time', { loc: at }));
  });
  return out;
}

/** Warning: a later env entry hides an earlier one of the same name (warnings.go). */
export function envWarnings(env: EnvVar[] | undefined, path: string): FieldErr[] {
  const out: FieldErr[] = [];
  if (!env || env.length < 2) return out;
  const seen = new Set<string>();
  env.forEach((ev, i) => {
    if (!ev) return;
    const name = ev.name ?? '';
    if (!seen.has(name)) {
      seen.add(name);
      return;
    }
    const ref = `$(${name})`;
    const value = ev.value ?? '';
    if (ev.valueFrom || value === ref || !value.includes(ref)) {
      out.push(F.warning(`${path}[${i}]`, `hides previous definition of ${goQuote(name)}, which may be dropped when using apply`));
    }
  });
  return out;
}
