// ObjectMeta of a Pod, ConfigMap or Secret (ValidateObjectMeta) and the pod-specific annotations (pod-validation-rules.md §5).
import type { Pod, PodSpec } from 'kubernetes-types/core/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { F, goQuote, type FieldErr } from '../errors.js';
import { isDNS1123Label, isQualifiedName, nameIsDNSSubdomain, relativePathErrors } from '../formats.js';
import { validateLabelMap } from './scheduling.js';

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
const STANDARD_FINALIZERS = ['kubernetes', 'orphan', 'foregroundDeletion'];

/** ValidateObjectMeta with a DNS-subdomain name (Pods, ConfigMaps and Secrets alike). */
export function validateMetadata(obj: { metadata?: ObjectMeta }): FieldErr[] {
  const out: FieldErr[] = [];
  const md = obj.metadata ?? {};
  if (md.generateName) for (const m of nameIsDNSSubdomain(md.generateName, true)) out.push(F.invalid('metadata.generateName', md.generateName, m));
  if (!md.name && !md.generateName) out.push(F.required('metadata.name', 'name or generateName is required', { loc: 'metadata', at: 'key' }));
  if (md.name) for (const m of nameIsDNSSubdomain(md.name, false)) out.push(F.invalid('metadata.name', md.name, m));
  if (md.namespace) for (const m of isDNS1123Label(md.namespace)) out.push(F.invalid('metadata.namespace', md.namespace, m));
  out.push(...validateLabelMap(md.labels, 'metadata.labels'));
  let total = 0;
  for (const [k, v] of Object.entries(md.annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase())) out.push(F.invalid('metadata.annotations', k, m, { loc: `metadata.annotations[${k}]`, at: 'key' }));
    total += k.length + String(v ?? '').length;
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) out.push(F.tooLong('metadata.annotations', TOTAL_ANNOTATION_SIZE_LIMIT, { at: 'key' }));
  const fin = md.finalizers ?? [];
  fin.forEach((f, i) => {
    for (const m of isQualifiedName(f ?? '')) out.push(F.invalid('metadata.finalizers', f ?? '', m, { loc: `metadata.finalizers[${i}]` }));
  });
  if (fin.includes('orphan') && fin.includes('foregroundDeletion')) out.push(F.invalid('metadata.finalizers', fin, 'finalizer orphan and foregroundDeletion cannot be both set', { at: 'key' }));
  fin.forEach((f, i) => {
    if (!(f ?? '').includes('/') && !STANDARD_FINALIZERS.includes(f ?? '')) out.push(F.invalid(`metadata.finalizers[${i}]`, f ?? '', 'name is neither a standard finalizer name nor is it fully qualified'));
  });
  return out;
}

const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR = 'container.apparmor.security.beta.kubernetes.io/';

function seccompAnnotation(p: string, field: string): FieldErr[] {
  if (p === 'runtime/default' || p === 'docker/default' || p === 'unconfined') return [];
  if (p.startsWith('localhost/')) return relativePathErrors(p.slice('localhost/'.length)).map((m) => F.invalid(field, p.slice('localhost/'.length), m));
  return [F.invalid(field, p, 'must be a valid seccomp profile')];
}

/** ValidatePodSpecificAnnotations: mirror pods, deletion cost, seccomp and AppArmor annotations. */
export function validatePodAnnotations(pod: Pod): FieldErr[] {
  const out: FieldErr[] = [];
  const a = pod.metadata?.annotations ?? {};
  const spec: PodSpec = pod.spec ?? ({} as PodSpec);
  const base = 'metadata.annotations';
  if ('kubernetes.io/config.mirror' in a && !spec.nodeName) {
    out.push(F.invalid(`${base}[kubernetes.io/config.mirror]`, a['kubernetes.io/config.mirror'], 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const cost = a['controller.kubernetes.io/pod-deletion-cost'];
  if (cost !== undefined && !(/^(0|-?[1-9][0-9]*)$/.test(cost) && Number(cost) >= -2147483648 && Number(cost) <= 2147483647)) {
    out.push(F.invalid(`${base}[controller.kubernetes.io/pod-deletion-cost]`, cost, 'must be a 32bit integer'));
  }
  if (a[SECCOMP_POD] !== undefined) out.push(...seccompAnnotation(a[SECCOMP_POD], `${base}.${SECCOMP_POD}`));
  for (const [k, v] of Object.entries(a)) if (k.startsWith(SECCOMP_CONTAINER)) out.push(...seccompAnnotation(v ?? '', `${base}.${k}`));
  const names = new Set([...(spec.initContainers ?? []), ...(spec.containers ?? []), ...((spec.ephemeralContainers ?? []) as { name?: string }[])].map((c) => c?.name ?? ''));
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith(APPARMOR)) continue;
    const c = k.slice(APPARMOR.length);
    if (!names.has(c)) out.push(F.invalid(`${base}[${k}]`, c, 'container not found', { at: 'key' }));
    const p = v ?? '';
    if (p !== '' && p !== 'runtime/default' && p !== 'unconfined' && !p.startsWith('localhost/')) out.push(F.invalid(`${base}[${k}]`, p, `invalid AppArmor profile name: ${goQuote(p)}`));
  }
  return out;
}

/** Warning: a valid Pod name that is not a DNS label (it becomes the hostname). */
export function metadataWarnings(pod: Pod): FieldErr[] {
  const name = pod.metadata?.name;
  if (!name || nameIsDNSSubdomain(name, false).length) return [];
  const msgs = isDNS1123Label(name);
  return msgs.length ? [F.warning('metadata.name', `this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`)] : [];
}
