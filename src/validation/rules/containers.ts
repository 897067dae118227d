// Containers and init containers: names (unique across all), images, pull and termination
// policies (pod-validation-rules.md §6). Ports, env, mounts, probes and resources: see the
// other modules in this folder.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { isDNS1123Label } from '../formats.js';

function common(c: Container, path: string, seen: Set<string>, out: FieldErr[]): void {
  if (!c.name) out.push(F.required(`${path}.name`));
  else {
    for (const m of isDNS1123Label(c.name)) out.push(F.invalid(`${path}.name`, c.name, m));
    if (seen.has(c.name)) out.push(F.duplicate(`${path}.name`, c.name));
    seen.add(c.name);
  }
  if (!c.image) out.push(F.required(`${path}.image`));
  else if (c.image.trim() !== c.image) out.push(F.invalid(`${path}.image`, c.image, 'must not have leading or trailing whitespace'));
  if (c.terminationMessagePolicy && !['File', 'FallbackToLogsOnError'].includes(c.terminationMessagePolicy)) {
    out.push(F.notSupported(`${path}.terminationMessagePolicy`, c.terminationMessagePolicy, ['File', 'FallbackToLogsOnError']));
  }
  if (c.imagePullPolicy && !['Always', 'IfNotPresent', 'Never'].includes(c.imagePullPolicy)) {
    out.push(F.notSupported(`${path}.imagePullPolicy`, c.imagePullPolicy, ['Always', 'IfNotPresent', 'Never']));
  }
}

export function validateContainers(pod: Pod): FieldErr[] {
  const out: FieldErr[] = [];
  const spec = pod.spec;
  if (!spec) return [F.required('spec.containers')];
  const seen = new Set<string>();
  (spec.initContainers ?? []).forEach((c, i) => common(c, `spec.initContainers[${i}]`, seen, out));
  if (!spec.containers || spec.containers.length === 0) out.push(F.required('spec.containers'));
  (spec.containers ?? []).forEach((c, i) => common(c, `spec.containers[${i}]`, seen, out));
  return out;
}
