// Container resources (pod-validation-rules.md §11): resource names, quantity values, requests ≤
// limits, non-overcommitable resources, hugepages, claims, resizePolicy, pod-level resources and the
// fractional-byte warnings. Quantity syntax errors come from decoding; quantities here are canonical.
import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { isQualifiedName } from '../formats.js';
import { cmpQ, formatQuantity, isInteger, parseQuantity, type Quantity } from '../quantity.js';

const STANDARD = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory',
  'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'persistentvolumeclaims', 'configmaps',
  'services.nodeports', 'services.loadbalancers', 'requests.storage',
]);
const INTEGER = new Set(['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);
export const CONTAINER_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];

const isHugePages = (n: string) => n.startsWith('hugepages-');
const isNative = (n: string) => !n.includes('/') || n.includes('kubernetes.io/');
const isExtended = (n: string) => !isNative(n) && !n.startsWith('requests.') && isQualifiedName(`requests.${n}`).length === 0;
const overcommitAllowed = (n: string) => isNative(n) && !isHugePages(n);
const isStandard = (n: string) => STANDARD.has(n) || n.startsWith('hugepages-') || n.startsWith('requests.hugepages-');

/** validateContainerResourceName (validateResourceName first). */
export function containerResourceName(name: string, path: string): FieldErr[] {
  const q = isQualifiedName(name).map((m) => F.invalid(path, name, m, { at: 'key' }));
  const out = [...q];
  if (!q.length && !name.includes('/') && !isStandard(name)) out.push(F.invalid(path, name, 'must be a standard resource type or fully qualified', { at: 'key' }));
  if (!name.includes('/')) {
    if (!CONTAINER_RESOURCES.includes(name) && !isHugePages(name)) out.push(F.invalid(path, name, 'must be a standard resource for containers', { at: 'key' }));
  } else if (!isNative(name) && !isExtended(name)) out.push(F.invalid(path, name, "doesn't follow extended resource name standard", { at: 'key' }));
  return out;
}

function quantityValue(name: string, q: Quantity, path: string): FieldErr[] {
  const out: FieldErr[] = [];
  if (q.nano < 0n) out.push(F.invalid(path, formatQuantity(q), 'must be greater than or equal to 0'));
  if ((INTEGER.has(name) || isExtended(name)) && !isInteger(q)) out.push(F.invalid(path, formatQuantity(q), 'must be an integer'));
  return out;
}

function hugePageValue(name: string, q: Quantity, path: string): FieldErr[] {
  const page = parseQuantity(name.slice('hugepages-'.length));
  const ok = typeof page !== 'string' && page.nano > 0n && page.nano % 1000000000n === 0n && (q.nano / 1000000000n) % (page.nano / 1000000000n) === 0n;
  return ok ? [] : [F.invalid(path, formatQuantity(q), `${formatQuantity(q)} is not positive integer multiple of ${name}`)];
}

type RL = Record<string, string> | undefined;
const entries = (rl: RL): [string, Quantity][] =>
  Object.entries(rl ?? {}).flatMap(([k, v]) => {
    const q = parseQuantity(String(v));
    return typeof q === 'string' ? [] : [[k, q] as [string, Quantity]];
  });

/** validateResourceRequirements for a container (`nameFn` differs for pod-level resources). */
export function validateResources(
  r: { limits?: RL; requests?: RL; claims?: { name?: string; request?: string }[] } | undefined,
  path: string,
  claimNames: Set<string>,
  nameFn: (name: string, path: string) => FieldErr[] = containerResourceName,
): FieldErr[] {
  if (!r) return [];
  const out: FieldErr[] = [];
  const limPath = `${path}.limits`;
  const reqPath = `${path}.requests`;
  const limits = new Map(entries(r.limits));
  let cpuMem = false;
  let huge = false;
  for (const [name, q] of limits) {
    const at = `${limPath}[${name}]`;
    out.push(...nameFn(name, at), ...quantityValue(name, q, at));
    if (isHugePages(name)) {
      huge = true;
      out.push(...hugePageValue(name, q, at));
    }
    if (name === 'cpu' || name === 'memory') cpuMem = true;
  }
  for (const [name, q] of entries(r.requests)) {
    const at = `${reqPath}[${name}]`;
    out.push(...nameFn(name, at), ...quantityValue(name, q, at));
    const lim = limits.get(name);
    if (lim) {
      const c = cmpQ(q, lim);
      const o = { loc: at };
      if (c !== 0 && !overcommitAllowed(name)) out.push(F.invalid(reqPath, formatQuantity(q), `must be equal to ${name} limit of ${formatQuantity(lim)}`, o));
      else if (c > 0) out.push(F.invalid(reqPath, formatQuantity(q), `must be less than or equal to ${name} limit of ${formatQuantity(lim)}`, o));
    } else if (!overcommitAllowed(name)) out.push(F.required(limPath, 'Limit must be set for non overcommitable resources', { loc: at }));
    if (isHugePages(name)) {
      huge = true;
      out.push(...hugePageValue(name, q, at));
    }
    if (name === 'cpu' || name === 'memory') cpuMem = true;
  }
  if (!cpuMem && huge) out.push(F.forbidden(path, 'HugePages require cpu or memory', { at: 'key' }));
  const seen = new Set<string>();
  (r.claims ?? []).forEach((cl, i) => {
    const at = `${path}.claims[${i}]`;
    const name = cl?.name ?? '';
    if (!name) return void out.push(F.required(at));
    const key = cl?.request ? `${name}/${cl.request}` : name;
    if (seen.has(name) || seen.has(key)) out.push(F.duplicate(at, seen.has(name) ? name : key));
    seen.add(key);
    if (!claimNames.has(name)) {
      const list = [...claimNames].sort();
      out.push(F.notFound(at, name, `must be one of the names in pod.spec.resourceClaims${list.length ? ': ' + list.join(', ') : ' which is empty'}`));
    }
  });
  return out;
}

/** validateResizePolicy: enum errors have no index. */
export function validateResizePolicy(c: Container, path: string, podRestartPolicy: string | undefined): FieldErr[] {
  const out: FieldErr[] = [];
  const seen = new Set<string>();
  (c.resizePolicy ?? []).forEach((p, i) => {
    const o = { loc: `${path}[${i}]` };
    const res = p?.resourceName ?? '';
    const pol = p?.restartPolicy ?? '';
    if (seen.has(res)) out.push(F.duplicate(`${path}[${i}]`, res));
    seen.add(res);
    if (!res) out.push(F.required(path, '', o));
    else if (res !== 'cpu' && res !== 'memory') out.push(F.notSupported(path, res, ['cpu', 'memory'], o));
    if (!pol) out.push(F.required(path, '', o));
    else if (pol !== 'NotRequired' && pol !== 'RestartContainer') out.push(F.notSupported(path, pol, ['NotRequired', 'RestartContainer'], o));
    if (podRestartPolicy === 'Never' && pol !== 'NotRequired') out.push(F.invalid(path, pol, "must be 'NotRequired' when `restartPolicy` is 'Never'", o));
  });
  return out;
}

/** Pod-level spec.resources (PodLevelResources, beta since 1.34): cpu, memory and hugepages only; container limits within pod limits. */
export function validatePodResources(spec: PodSpec, claimNames: Set<string>): FieldErr[] {
  const r = (spec as { resources?: { limits?: RL; requests?: RL; claims?: unknown[] } }).resources;
  if (!r) return [];
  const out: FieldErr[] = [];
  if (r.claims !== undefined) out.push(F.forbidden('spec.resources.claims', 'claims cannot be set for Resources at pod-level'));
  const podName = (name: string, path: string): FieldErr[] => {
    const q = isQualifiedName(name).map((m) => F.invalid(path, name, m, { at: 'key' }));
    if (q.length) return q;
    if (!name.includes('/') && !isStandard(name)) return [F.invalid(path, name, 'must be a standard resource type or fully qualified', { at: 'key' })];
    if (name !== 'cpu' && name !== 'memory' && !isHugePages(name)) return [F.notSupported(path, name, ['cpu', 'memory'], { at: 'key' })];
    return [];
  };
  out.push(...validateResources({ limits: r.limits, requests: r.requests }, 'spec.resources', claimNames, podName));
  const podLimits = new Map(entries(r.limits));
  (spec.containers ?? []).forEach((c, i) => {
    for (const [name, q] of entries(c?.resources?.limits as RL)) {
      const pl = podLimits.get(name);
      if (pl && cmpQ(q, pl) > 0) {
        out.push(F.invalid(`spec.resources.containers[${i}][${name}].limits`, formatQuantity(q), `must be less than or equal to pod limits of ${formatQuantity(pl)}`, { loc: `spec.containers[${i}].resources.limits[${name}]` }));
      }
    }
  });
  return out;
}

/** Warnings: memory / ephemeral-storage with a fractional byte value (`500m`). */
export function fractionalByteWarnings(c: Container, path: string): FieldErr[] {
  const out: FieldErr[] = [];
  for (const name of ['memory', 'ephemeral-storage']) {
    for (const [list, rl] of [['limits', c.resources?.limits], ['requests', c.resources?.requests]] as const) {
      const v = (rl as RL)?.[name];
      if (v === undefined) continue;
      const q = parseQuantity(String(v));
      if (typeof q !== 'string' && q.nano % 1000000000n !== 0n) {
        const field = `${path}.resources.${list}[${name}]`;
        out.push(F.warning(field, `fractional byte value "${formatQuantity(q)}" is invalid, must be an integer`));
      }
    }
  }
  return out;
}
