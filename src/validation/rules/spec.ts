// Pod-level spec fields (pod-validation-rules.md §12): restartPolicy, dnsPolicy, dnsConfig, names of
// referenced objects, hostname/subdomain, host aliases, gates, activeDeadlineSeconds, preemption,
// resource claims, and the create-only checks (ephemeral containers, nodeName with gates).
import type { PodSpec } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { IP_MSG, isDNS1123Label, isDNS1123Subdomain, isDNS1123SubdomainWithUnderscore, isIP, isQualifiedName } from '../formats.js';

export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
export const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
export const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

const sub = (v: string, path: string) => isDNS1123Subdomain(v).map((m) => F.invalid(path, v, m));
const label = (v: string, path: string) => isDNS1123Label(v).map((m) => F.invalid(path, v, m));

/** validatePodResourceClaims; returns the errors and the claim names containers may reference. */
export function validateResourceClaims(spec: PodSpec): { errs: FieldErr[]; names: Set<string> } {
  const errs: FieldErr[] = [];
  const names = new Set<string>();
  const all = new Set<string>();
  (spec.resourceClaims ?? []).forEach((c, i) => {
    const at = `spec.resourceClaims[${i}]`;
    const o = (c ?? {}) as { name?: string; resourceClaimName?: string; resourceClaimTemplateName?: string };
    if (o.name) all.add(o.name);
    if (!o.name) errs.push(F.required(`${at}.name`));
    else if (names.has(o.name)) errs.push(F.duplicate(`${at}.name`, o.name));
    else {
      errs.push(...label(o.name, `${at}.name`));
      names.add(o.name);
    }
    if (o.resourceClaimName !== undefined && o.resourceClaimTemplateName !== undefined) {
      errs.push(F.invalid(at, o, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified', { at: 'key' }));
    }
    if (o.resourceClaimName === undefined && o.resourceClaimTemplateName === undefined) {
      errs.push(F.invalid(at, o, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`', { at: 'key' }));
    }
    if (o.resourceClaimName !== undefined) errs.push(...sub(o.resourceClaimName, `${at}.resourceClaimName`));
    if (o.resourceClaimTemplateName !== undefined) errs.push(...sub(o.resourceClaimTemplateName, `${at}.resourceClaimTemplateName`));
  });
  return { errs, names: all };
}

export function validateRestartAndDNSPolicy(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  const rp = spec.restartPolicy ?? '';
  if (!rp) out.push(F.required('spec.restartPolicy'));
  else if (!RESTART_POLICIES.includes(rp)) out.push(F.notSupported('spec.restartPolicy', rp, RESTART_POLICIES));
  const dp = spec.dnsPolicy ?? '';
  if (!dp) out.push(F.required('spec.dnsPolicy'));
  else if (!DNS_POLICIES.includes(dp)) out.push(F.notSupported('spec.dnsPolicy', dp, DNS_POLICIES));
  return out;
}

export function validateDNSConfig(spec: PodSpec): FieldErr[] {
  const c = spec.dnsConfig;
  const p = 'spec.dnsConfig';
  if (spec.dnsPolicy === 'None') {
    if (!c) return [F.required(p, 'must provide `dnsConfig` when `dnsPolicy` is None', { loc: 'spec.dnsPolicy' })];
    if (!c.nameservers?.length) return [F.required(`${p}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None', { loc: p, at: 'key' })];
  }
  if (!c) return [];
  const out: FieldErr[] = [];
  const ns = c.nameservers ?? [];
  if (ns.length > 3) out.push(F.invalid(`${p}.nameservers`, ns, 'must not have more than 3 nameservers', { at: 'key' }));
  ns.forEach((n, i) => {
    if (!isIP(n ?? '')) out.push(F.invalid(`${p}.nameservers[${i}]`, n ?? '', IP_MSG));
  });
  const s = c.searches ?? [];
  if (s.length > 32) out.push(F.invalid(`${p}.searches`, s, 'must not have more than 32 search paths', { at: 'key' }));
  if (s.join(' ').length > 2048) out.push(F.invalid(`${p}.searches`, s, 'must not have more than 2048 characters (including spaces) in the search list', { at: 'key' }));
  s.forEach((x, i) => {
    if (x === '.') return;
    const t = (x ?? '').replace(/\.$/, '');
    for (const m of isDNS1123SubdomainWithUnderscore(t)) out.push(F.invalid(`${p}.searches[${i}]`, t, m));
  });
  (c.options ?? []).forEach((o, i) => {
    if (!o?.name) out.push(F.required(`${p}.options[${i}]`, 'must not be empty'));
  });
  return out;
}

export function validateGates(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  (spec.readinessGates ?? []).forEach((g, i) => {
    const v = g?.conditionType ?? '';
    for (const m of isQualifiedName(v)) out.push(F.invalid(`spec.readinessGates[${i}].conditionType`, v, m));
  });
  const seen = new Set<string>();
  (spec.schedulingGates ?? []).forEach((g, i) => {
    const v = g?.name ?? '';
    for (const m of isQualifiedName(v)) out.push(F.invalid(`spec.schedulingGates[${i}]`, v, m));
    if (seen.has(v)) out.push(F.duplicate(`spec.schedulingGates[${i}]`, v));
    seen.add(v);
  });
  return out;
}

/** The tail of ValidatePodSpec: names, activeDeadlineSeconds, hostname, subdomain (tolerations and host aliases interleave). */
export function validateNamesAndDeadline(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  if (spec.serviceAccountName) out.push(...sub(spec.serviceAccountName, 'spec.serviceAccountName'));
  if (spec.nodeName) out.push(...sub(spec.nodeName, 'spec.nodeName'));
  if (spec.activeDeadlineSeconds !== undefined && (spec.activeDeadlineSeconds < 1 || spec.activeDeadlineSeconds > 2147483647)) {
    out.push(F.invalid('spec.activeDeadlineSeconds', spec.activeDeadlineSeconds, 'must be between 1 and 2147483647, inclusive'));
  }
  if (spec.hostname) out.push(...label(spec.hostname, 'spec.hostname'));
  if (spec.subdomain) out.push(...label(spec.subdomain, 'spec.subdomain'));
  return out;
}

export function validateHostAliases(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  (spec.hostAliases ?? []).forEach((h, i) => {
    if (!isIP(h?.ip ?? '')) out.push(F.invalid(`spec.hostAliases[${i}].ip`, h?.ip ?? '', IP_MSG));
    (h?.hostnames ?? []).forEach((n, j) => out.push(...sub(n ?? '', `spec.hostAliases[${i}].hostnames[${j}]`)));
  });
  return out;
}

export function validateClassesAndPreemption(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  if (spec.priorityClassName) out.push(...sub(spec.priorityClassName, 'spec.priorityClassName'));
  if (spec.runtimeClassName !== undefined) out.push(...sub(spec.runtimeClassName, 'spec.runtimeClassName'));
  if (spec.preemptionPolicy !== undefined) {
    if (!spec.preemptionPolicy) out.push(F.required('spec.preemptionPolicy'));
    else if (!PREEMPTION_POLICIES.includes(spec.preemptionPolicy)) out.push(F.notSupported('spec.preemptionPolicy', spec.preemptionPolicy, PREEMPTION_POLICIES));
  }
  return out;
}

/** spec.hostnameOverride (1.35 beta). */
export function validateHostnameOverride(spec: PodSpec): FieldErr[] {
  const h = (spec as { hostnameOverride?: string }).hostnameOverride;
  if (h === undefined) return [];
  const p = 'spec.hostnameOverride';
  if (h.length > 64) return [F.tooLong(p, 64)];
  const out = sub(h, p);
  if (spec.setHostnameAsFQDN) out.push(F.forbidden(p, 'may not be set when setHostnameAsFQDN is true'));
  if (spec.hostNetwork) out.push(F.forbidden(p, 'may not be set when hostNetwork is true'));
  return out;
}

/** ValidatePodCreate's own checks. */
export function createOnly(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  if ((spec.ephemeralContainers ?? []).length > 0) out.push(F.forbidden('spec.ephemeralContainers', 'cannot be set on create', { at: 'key' }));
  if (spec.nodeName && (spec.schedulingGates ?? []).length) out.push(F.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  return out;
}

/** Warnings of GetWarningsForPod about pod-level fields. */
export function specWarnings(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  const seen = new Set<string>();
  (spec.imagePullSecrets ?? []).forEach((s, i) => {
    const n = s?.name ?? '';
    if (seen.has(n)) out.push(F.warning(`spec.imagePullSecrets[${i}].name`, `duplicate name ${JSON.stringify(n)}`));
    seen.add(n);
  });
  (spec.imagePullSecrets ?? []).forEach((s, i) => {
    if (!s?.name) out.push(F.warning(`spec.imagePullSecrets[${i}].name`, 'invalid empty name ""'));
  });
  if ((spec.terminationGracePeriodSeconds ?? 0) < 0) {
    out.push(F.warning('spec.terminationGracePeriodSeconds', 'must be >= 0; negative values are invalid and will be treated as 1'));
  }
  return out;
}
