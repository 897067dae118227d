// ValidatePodCreate: every rule family, each in its own module under rules/. Findings are
// FieldErr values (errors.ts); documents.ts places them in the text.
import type { Pod } from 'kubernetes-types/core/v1';
import type { FieldErr } from './errors.js';
import { validateMetadata } from './rules/metadata.js';
import { validateContainers } from './rules/containers.js';
import { validatePodSpecFields } from './rules/spec.js';

export function validatePod(pod: Pod): FieldErr[] {
  return [...validateMetadata(pod), ...validateContainers(pod), ...validatePodSpecFields(pod)];
}
