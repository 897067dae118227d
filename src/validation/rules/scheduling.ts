// Scheduling fields (pod-validation-rules.md §13): nodeSelector, node/pod (anti-)affinity, tolerations,
// topologySpreadConstraints, with the label-selector rules of apimachinery.
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import type { NodeSelectorRequirement, NodeSelectorTerm, PodAffinityTerm, PodSpec, WeightedPodAffinityTerm } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../formats.js';

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const NOT_POSITIVE = 'must be greater than zero';

const labelName = (k: string, path: string, loc?: string): FieldErr[] => isQualifiedName(k).map((m) => F.invalid(path, k, m, loc ? { loc } : undefined));

/** ValidateLabels: errors on the map path itself (not keyed). */
export function validateLabelMap(m: Record<string, string> | undefined, path: string): FieldErr[] {
  const out: FieldErr[] = [];
  for (const [k, v] of Object.entries(m ?? {})) {
    out.push(...labelName(k, path, `${path}[${k}]`).map((e) => ({ ...e, at: 'key' as const })));
    for (const msg of isValidLabelValue(String(v ?? ''))) out.push(F.invalid(path, v, msg, { loc: `${path}[${k}]` }));
  }
  return out;
}

function requirement(op: string | undefined, values: string[] | undefined, path: string, gtLt: boolean): FieldErr[] {
  const n = values?.length ?? 0;
  switch (op) {
    case 'In':
    case 'NotIn':
      return n === 0 ? [F.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'")] : [];
    case 'Exists':
    case 'DoesNotExist':
      return n > 0 ? [F.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")] : [];
    case 'Gt':
    case 'Lt':
      if (gtLt) return n !== 1 ? [F.required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'")] : [];
  }
  return [F.invalid(`${path}.operator`, op ?? '', 'not a valid selector operator')];
}

export function validateLabelSelector(s: LabelSelector | undefined, path: string): FieldErr[] {
  if (!s) return [];
  const out = validateLabelMap(s.matchLabels, `${path}.matchLabels`);
  (s.matchExpressions ?? []).forEach((e, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    if (!e) return;
    out.push(...requirement(e.operator, e.values, at, false), ...labelName(e.key ?? '', `${at}.key`));
    (e.values ?? []).forEach((v, j) => out.push(...isValidLabelValue(v ?? '').map((m) => F.invalid(`${at}.values[${j}]`, v, m))));
  });
  return out;
}

function nodeSelectorTerm(t: NodeSelectorTerm, path: string, checkValues: boolean): FieldErr[] {
  const out: FieldErr[] = [];
  (t?.matchExpressions ?? []).forEach((r: NodeSelectorRequirement, j) => {
    const at = `${path}.matchExpressions[${j}]`;
    if (!r) return;
    out.push(...requirement(r.operator, r.values, at, true), ...labelName(r.key ?? '', `${at}.key`));
    if (checkValues) (r.values ?? []).forEach((v, k) => out.push(...isValidLabelValue(v ?? '').map((m) => F.invalid(`${at}.values[${k}]`, v, m))));
  });
  (t?.matchFields ?? []).forEach((r, j) => {
    const at = `${path}.matchFields[${j}]`;
    if (!r) return;
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if ((r.values?.length ?? 0) !== 1) out.push(F.required(`${at}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
    } else out.push(F.invalid(`${at}.operator`, r.operator ?? '', 'not a valid selector operator'));
    if (r.key !== 'metadata.name') out.push(F.invalid(`${at}.key`, r.key ?? '', 'not a valid field selector key'));
    else (r.values ?? []).forEach((v, k) => out.push(...isDNS1123Subdomain(v ?? '').map((m) => F.invalid(`${at}.values[${k}]`, v, m))));
  });
  return out;
}

function podAffinityTerm(t: PodAffinityTerm, path: string): FieldErr[] {
  if (!t) return [];
  const out = [...validateLabelSelector(t.labelSelector, `${path}.labelSelector`), ...validateLabelSelector(t.namespaceSelector, `${path}.namespaceSelector`)];
  (t.namespaces ?? []).forEach((ns, i) => out.push(...isDNS1123Label(ns ?? '').map((m) => F.invalid(`${path}.namespace`, ns, m, { loc: `${path}.namespaces[${i}]` }))));
  const mk = t.matchLabelKeys ?? [];
  const mmk = t.mismatchLabelKeys ?? [];
  if ((mk.length || mmk.length) && !t.labelSelector) {
    if (mk.length) out.push(F.forbidden(`${path}.matchLabelKeys`, 'must not be specified when labelSelector is not set'));
    if (mmk.length) out.push(F.forbidden(`${path}.mismatchLabelKeys`, 'must not be specified when labelSelector is not set'));
  } else {
    const selKeys = new Set([...Object.keys(t.labelSelector?.matchLabels ?? {}), ...(t.labelSelector?.matchExpressions ?? []).map((e) => e?.key ?? '')]);
    mk.forEach((k, i) => {
      if (mmk.includes(k)) out.push(F.invalid(`${path}.matchLabelKeys[${i}]`, k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
      else if (selKeys.has(k)) out.push(F.invalid(`${path}.matchLabelKeys[${i}]`, k, 'exists in both matchLabelKeys and labelSelector'));
    });
    mmk.forEach((k, i) => {
      if (selKeys.has(k)) out.push(F.invalid(`${path}.mismatchLabelKeys[${i}]`, k, 'exists in both mismatchLabelKeys and labelSelector'));
    });
  }
  if (!t.topologyKey) out.push(F.required(`${path}.topologyKey`, 'can not be empty'));
  out.push(...labelName(t.topologyKey ?? '', `${path}.topologyKey`));
  return out;
}

function weighted(list: WeightedPodAffinityTerm[] | undefined, path: string): FieldErr[] {
  return (list ?? []).flatMap((w, j) => {
    if (!w) return [];
    const out: FieldErr[] = [];
    const wt = w.weight ?? 0;
    if (wt <= 0 || wt > 100) out.push(F.invalid(`${path}[${j}].weight`, wt, 'must be in the range 1-100'));
    return [...out, ...podAffinityTerm(w.podAffinityTerm, `${path}[${j}].podAffinityTerm`)];
  });
}

export function validateAffinity(spec: PodSpec): FieldErr[] {
  const a = spec.affinity;
  if (!a) return [];
  const out: FieldErr[] = [];
  const na = a.nodeAffinity;
  const p = 'spec.affinity';
  if (na?.requiredDuringSchedulingIgnoredDuringExecution) {
    const tp = `${p}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    const terms = na.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms ?? [];
    if (!terms.length) out.push(F.required(tp, 'must have at least one node selector term'));
    else terms.forEach((t, i) => out.push(...nodeSelectorTerm(t, `${tp}[${i}]`, true)));
  }
  (na?.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
    const tp = `${p}.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    const wt = t?.weight ?? 0;
    if (wt <= 0 || wt > 100) out.push(F.invalid(`${tp}.weight`, wt, 'must be in the range 1-100'));
    out.push(...nodeSelectorTerm(t?.preference ?? {}, `${tp}.preference`, false));
  });
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const pa = a[kind];
    if (!pa) continue;
    const base = `${p}.${kind}`;
    (pa.requiredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => out.push(...podAffinityTerm(t, `${base}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`)));
    out.push(...weighted(pa.preferredDuringSchedulingIgnoredDuringExecution, `${base}.preferredDuringSchedulingIgnoredDuringExecution`));
  }
  return out;
}

export function validateTolerations(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  (spec.tolerations ?? []).forEach((t, i) => {
    if (!t) return;
    const at = `spec.tolerations[${i}]`;
    const key = t.key ?? '';
    const op = t.operator ?? '';
    if (key) out.push(...labelName(key, `${at}.key`));
    if (!key && op !== 'Exists') out.push(F.invalid(`${at}.operator`, op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') out.push(F.invalid(`${at}.effect`, t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    if (op === 'Equal' || op === '') {
      const errs = isValidLabelValue(t.value ?? '');
      if (errs.length) out.push(F.invalid(`${at}.operator`, t.value ?? '', errs.join(';')));
    } else if (op === 'Exists') {
      if (t.value) out.push(F.invalid(`${at}.operator`, t.value, "value must be empty when `operator` is 'Exists'"));
    } else out.push(F.notSupported(`${at}.operator`, op, op === 'Lt' || op === 'Gt' ? ['Equal', 'Exists', 'Lt', 'Gt'] : ['Equal', 'Exists']));
    if (t.effect && !TAINT_EFFECTS.includes(t.effect)) out.push(F.notSupported(`${at}.effect`, t.effect, TAINT_EFFECTS));
  });
  return out;
}

export function validateTopologySpread(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  const list = spec.topologySpreadConstraints ?? [];
  list.forEach((c, i) => {
    if (!c) return;
    const at = `spec.topologySpreadConstraints[${i}]`;
    const w = c.whenUnsatisfiable ?? '';
    if ((c.maxSkew ?? 0) <= 0) out.push(F.invalid(`${at}.maxSkew`, c.maxSkew ?? 0, NOT_POSITIVE));
    if (!c.topologyKey) out.push(F.required(`${at}.topologyKey`, 'can not be empty'));
    if (w !== 'DoNotSchedule' && w !== 'ScheduleAnyway') out.push(F.notSupported(`${at}.whenUnsatisfiable`, w, ['DoNotSchedule', 'ScheduleAnyway']));
    if (list.slice(i + 1).some((o) => o && o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)) {
      out.push(F.duplicate(`${at}.{topologyKey, whenUnsatisfiable}`, `{${c.topologyKey ?? ''}, ${w}}`, { loc: `${at}.topologyKey` }));
    }
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0) out.push(F.invalid(`${at}.minDomains`, c.minDomains, NOT_POSITIVE));
      if (w !== 'DoNotSchedule') out.push(F.invalid(`${at}.minDomains`, c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${w}`));
    }
    for (const k of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v = c[k];
      if (v !== undefined && v !== 'Honor' && v !== 'Ignore') out.push(F.notSupported(`${at}.${k}`, v, ['Honor', 'Ignore']));
    }
    out.push(...validateLabelSelector(c.labelSelector, `${at}.labelSelector`));
  });
  return out;
}

/** Warning: a pod (anti-)affinity term without labelSelector matches no pod. */
export function affinityWarnings(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const pa = spec.affinity?.[kind];
    if (!pa) continue;
    const base = `spec.affinity.${kind}`;
    (pa.requiredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
      if (t && !t.labelSelector) out.push(F.warning(`${base}.requiredDuringSchedulingIgnoredDuringExecution[${i}].labelSelector`, 'a null labelSelector results in matching no pod'));
    });
    (pa.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
      if (t && !t.podAffinityTerm?.labelSelector) out.push(F.warning(`${base}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm.labelSelector`, 'a null labelSelector results in matching no pod'));
    });
  }
  return out;
}
