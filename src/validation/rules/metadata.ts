// ObjectMeta of a Pod: name, namespace, labels, annotations (pod-validation-rules.md §5).
import type { Pod } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../formats.js';

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export function validateMetadata(pod: Pod): FieldErr[] {
  const out: FieldErr[] = [];
  const md = pod.metadata ?? {};
  if (!md.name && !md.generateName) out.push(F.required('metadata.name', 'name or generateName is required'));
  if (md.name) for (const m of isDNS1123Subdomain(md.name)) out.push(F.invalid('metadata.name', md.name, m));
  if (md.name && isDNS1123Subdomain(md.name).length === 0 && isDNS1123Label(md.name).length > 0) {
    out.push(
      F.warning(
        'metadata.name',
        `this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${isDNS1123Label(md.name).join(' ')}]`,
      ),
    );
  }
  if (md.namespace) for (const m of isDNS1123Label(md.namespace)) out.push(F.invalid('metadata.namespace', md.namespace, m));
  for (const [k, v] of Object.entries(md.labels ?? {})) {
    for (const m of isQualifiedName(k)) out.push(F.invalid('metadata.labels', k, m, { loc: `metadata.labels[${k}]`, at: 'key' }));
    for (const m of isValidLabelValue(String(v))) out.push(F.invalid('metadata.labels', v, m, { loc: `metadata.labels[${k}]` }));
  }
  let total = 0;
  for (const [k, v] of Object.entries(md.annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase())) out.push(F.invalid('metadata.annotations', k, m, { loc: `metadata.annotations[${k}]`, at: 'key' }));
    total += k.length + String(v).length;
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) out.push(F.tooLong('metadata.annotations', TOTAL_ANNOTATION_SIZE_LIMIT));
  return out;
}
