// ValidatePodCreate: every rule family, each in its own module under rules/, called in the order the
// API server reports them (validatePodMetadataAndSpec, then the create-only checks), followed by the
// API server's warnings. Findings are FieldErr values (errors.ts); documents.ts places them in the text.
import type { Pod, PodSpec } from 'kubernetes-types/core/v1';
import type { FieldErr } from './errors.js';
import { imageWhitespace, validateInitContainers, validateRegularContainers, type PodCtx } from './rules/containers.js';
import { validateEphemeralContainers } from './ephemeral.js';
import { envWarnings } from './rules/env.js';
import { metadataWarnings, validateMetadata, validatePodAnnotations } from './rules/metadata.js';
import { portWarnings, validateHostNetworkPorts } from './rules/ports.js';
import { fractionalByteWarnings, validatePodResources, validateResources } from './rules/resources.js';
import { affinityWarnings, validateAffinity, validateLabelMap, validateTolerations, validateTopologySpread } from './rules/scheduling.js';
import { validateHostUsers, validateOS, validatePodSecurityContext } from './rules/security.js';
import {
  createOnly, specWarnings, validateClassesAndPreemption, validateDNSConfig, validateGates, validateHostAliases,
  validateHostnameOverride, validateNamesAndDeadline, validateResourceClaims, validateRestartAndDNSPolicy,
} from './rules/spec.js';
import { validateVolumes } from './rules/volumes.js';

/** ValidatePodSpec (v1.35 defaults: relaxed env names, sidecars, container restart rules, pod-level resources). */
function validatePodSpec(pod: Pod): FieldErr[] {
  const spec: PodSpec = pod.spec ?? ({} as PodSpec);
  const out: FieldErr[] = [];
  const { volumes, errs: volErrs } = validateVolumes(pod);
  const claims = validateResourceClaims(spec);
  out.push(...volErrs, ...claims.errs);
  const ctx: PodCtx = { spec, volumes, claimNames: claims.names, grace: spec.terminationGracePeriodSeconds, hostUsers: spec.hostUsers !== false };
  out.push(...validateRegularContainers(ctx), ...validateInitContainers(ctx), ...validateEphemeralContainers(ctx));
  out.push(...validatePodResources(spec, claims.names));
  out.push(...validateHostNetworkPorts(spec));
  out.push(...validateRestartAndDNSPolicy(spec));
  out.push(...validateLabelMap(spec.nodeSelector, 'spec.nodeSelector'));
  out.push(...validatePodSecurityContext(spec));
  out.push(...validateAffinity(spec));
  out.push(...validateDNSConfig(spec));
  out.push(...validateGates(spec));
  out.push(...validateTopologySpread(spec));
  out.push(...validateHostUsers(spec));
  const [names, tolerations, aliases, classes] = [validateNamesAndDeadline(spec), validateTolerations(spec), validateHostAliases(spec), validateClassesAndPreemption(spec)];
  out.push(...names, ...tolerations, ...aliases, ...classes);
  if (spec.overhead) out.push(...validateResources({ limits: spec.overhead as Record<string, string> }, 'spec.overhead', claims.names));
  out.push(...validateOS(spec), ...validateHostnameOverride(spec));
  return out;
}

/** GetWarningsForPod: the warnings the API server returns with a successful create. */
function podWarnings(pod: Pod): FieldErr[] {
  const spec: PodSpec = pod.spec ?? ({} as PodSpec);
  const out: FieldErr[] = [...metadataWarnings(pod), ...specWarnings(spec)];
  const visit = (list: PodSpec['initContainers'], base: string) =>
    (list ?? []).forEach((c, i) => {
      if (!c) return;
      out.push(...fractionalByteWarnings(c, `${base}[${i}]`), ...envWarnings(c.env, `${base}[${i}].env`));
    });
  visit(spec.initContainers, 'spec.initContainers');
  visit(spec.containers, 'spec.containers');
  out.push(...portWarnings(spec), ...affinityWarnings(spec));
  return out;
}

/** `update`: an update's body (a pod already created may have ephemeral containers, and a node once its gates are gone). */
export function validatePod(pod: Pod, opts: { update?: boolean } = {}): FieldErr[] {
  return [
    ...validateMetadata(pod),
    ...validatePodAnnotations(pod),
    ...validatePodSpec(pod),
    ...imageWhitespace(pod.spec ?? ({} as PodSpec)),
    ...(opts.update ? [] : createOnly(pod.spec ?? ({} as PodSpec))),
    ...podWarnings(pod),
  ];
}
