// Containers, init containers and restartable init containers (sidecars), in the order
// validateContainers / validateInitContainers report them (pod-validation-rules.md §6): the common
// checks, unique names across all containers, probes/lifecycle (Forbidden on plain init containers),
// container restartPolicy (1.35: Always/Never/OnFailure) and hostPort conflicts.
import type { Container, PodSpec, Volume } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { isDNS1123Label } from '../formats.js';
import { validateEnv, validateEnvFrom } from './env.js';
import { validateVolumeDevices, validateVolumeMounts } from './mounts.js';
import { hostPortConflicts, validateContainerPorts } from './ports.js';
import { validateProbesAndLifecycle } from './probes.js';
import { validateResizePolicy, validateResources } from './resources.js';
import { validateContainerSecurityContext } from './security.js';

export const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
export const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
export const CONTAINER_RESTART_POLICIES = ['Always', 'Never', 'OnFailure'];

export interface PodCtx {
  spec: PodSpec;
  volumes: Map<string, Volume>;
  claimNames: Set<string>;
  grace: number | undefined;
  hostUsers: boolean;
}

/** validateContainerCommon. */
export function containerCommon(c: Container, path: string, ctx: PodCtx): FieldErr[] {
  const out: FieldErr[] = [];
  if (!c.name) out.push(F.required(`${path}.name`));
  else for (const m of isDNS1123Label(c.name)) out.push(F.invalid(`${path}.name`, c.name, m));
  if (!c.image) out.push(F.required(`${path}.image`, '', { at: 'key' }));
  const tmp = c.terminationMessagePolicy ?? '';
  if (!tmp) out.push(F.required(`${path}.terminationMessagePolicy`));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(tmp)) out.push(F.notSupported(`${path}.terminationMessagePolicy`, tmp, TERMINATION_MESSAGE_POLICIES));
  out.push(...validateContainerPorts(c.ports, `${path}.ports`));
  out.push(...validateEnv(c.env, `${path}.env`, ctx.volumes));
  out.push(...validateEnvFrom(c.envFrom, `${path}.envFrom`));
  out.push(...validateVolumeMounts(c, ctx.volumes, `${path}.volumeMounts`));
  out.push(...validateVolumeDevices(c, ctx.volumes, `${path}.volumeDevices`));
  const pp = c.imagePullPolicy ?? '';
  if (!pp) out.push(F.required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pp)) out.push(F.notSupported(`${path}.imagePullPolicy`, pp, PULL_POLICIES));
  out.push(...validateResources(c.resources as Parameters<typeof validateResources>[0], `${path}.resources`, ctx.claimNames));
  out.push(...validateResizePolicy(c, `${path}.resizePolicy`, ctx.spec.restartPolicy));
  out.push(...validateContainerSecurityContext(c, path, ctx.hostUsers));
  return out;
}

type Rule = { action?: string; exitCodes?: { operator?: string; values?: number[] } };

/** Container restartPolicy and restartPolicyRules (ContainerRestartRules, beta and on in 1.35). */
function restartPolicy(c: Container, path: string, checkValue = true): FieldErr[] {
  const out: FieldErr[] = [];
  const rp = c.restartPolicy;
  if (checkValue && rp !== undefined && !CONTAINER_RESTART_POLICIES.includes(rp)) out.push(F.notSupported(`${path}.restartPolicy`, rp, CONTAINER_RESTART_POLICIES));
  const rules = ((c as { restartPolicyRules?: Rule[] }).restartPolicyRules ?? []) as Rule[];
  const rpath = `${path}.restartPolicyRules`;
  if (rules.length && rp === undefined) out.push(F.required(`${path}.restartPolicy`, 'must be specified when restartPolicyRules are specified', { loc: rpath }));
  if (rules.length > 20) out.push(F.tooLong(rpath, 20));
  rules.forEach((r, i) => {
    const at = `${rpath}[${i}]`;
    if (!r) return;
    if (!r.action) out.push(F.required(`${at}.action`));
    else if (r.action !== 'Restart') out.push(F.notSupported(`${at}.action`, r.action, ['Restart']));
    if (!r.exitCodes) return void out.push(F.required(`${at}.exitCodes`));
    const op = r.exitCodes.operator ?? '';
    if (!op) out.push(F.required(`${at}.exitCodes.operator`));
    else if (op !== 'In' && op !== 'NotIn') out.push(F.notSupported(`${at}.exitCodes.operator`, op, ['In', 'NotIn']));
    const n = r.exitCodes.values?.length ?? 0;
    if (n > 255) out.push(F.tooMany(`${at}.exitCodes.values`, n, 255));
  });
  return out;
}

/** validateContainers: regular containers (names unique among them; hostPorts unique across all). */
export function validateRegularContainers(ctx: PodCtx): FieldErr[] {
  const list = ctx.spec.containers ?? [];
  if (list.length === 0) return [F.required('spec.containers', '', { at: 'key' })];
  const out: FieldErr[] = [];
  const names = new Set<string>();
  list.forEach((c0, i) => {
    const c = c0 ?? ({} as Container);
    const path = `spec.containers[${i}]`;
    out.push(...containerCommon(c, path, ctx));
    if (names.has(c.name ?? '')) out.push(F.duplicate(`${path}.name`, c.name ?? ''));
    else names.add(c.name ?? '');
    out.push(...validateProbesAndLifecycle(c, path, ctx.grace));
    out.push(...restartPolicy(c, path));
  });
  out.push(...hostPortConflicts(list.map((c) => c ?? ({} as Container)), 'spec.containers'));
  return out;
}

const INIT_FORBIDDEN = 'may not be set for init containers without restartPolicy=Always';

/** validateInitContainers: names unique against regular and earlier init containers; probes only on sidecars. */
export function validateInitContainers(ctx: PodCtx): FieldErr[] {
  const out: FieldErr[] = [];
  const names = new Set((ctx.spec.containers ?? []).map((c) => c?.name ?? ''));
  (ctx.spec.initContainers ?? []).forEach((c0, i) => {
    const c = c0 ?? ({} as Container);
    const path = `spec.initContainers[${i}]`;
    out.push(...containerCommon(c, path, ctx));
    if (c.restartPolicy !== undefined && !CONTAINER_RESTART_POLICIES.includes(c.restartPolicy)) {
      out.push(F.notSupported(`${path}.restartPolicy`, c.restartPolicy, CONTAINER_RESTART_POLICIES));
    }
    if (names.has(c.name ?? '')) out.push(F.duplicate(`${path}.name`, c.name ?? ''));
    else if (c.name) names.add(c.name);
    // checked one container at a time, with the container at index 0 of a one-element list (upstream quirk)
    out.push(...hostPortConflicts([c], 'spec.initContainers', i));
    if (c.restartPolicy === 'Always') out.push(...validateProbesAndLifecycle(c, path, ctx.grace));
    else {
      for (const k of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        if (c[k] !== undefined) out.push(F.forbidden(`${path}.${k}`, INIT_FORBIDDEN, { at: 'key' }));
      }
    }
    out.push(...restartPolicy(c, path, false));
  });
  return out;
}

/** validateContainersOnlyForPod: leading/trailing whitespace in images (regular, then init containers). */
export function imageWhitespace(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  for (const [list, base] of [[spec.containers, 'spec.containers'], [spec.initContainers, 'spec.initContainers']] as const) {
    (list ?? []).forEach((c, i) => {
      const img = c?.image ?? '';
      if (img.trim() !== img) out.push(F.invalid(`${base}[${i}].image`, img, 'must not have leading or trailing whitespace'));
    });
  }
  return out;
}
