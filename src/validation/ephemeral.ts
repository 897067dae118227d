// Ephemeral containers (`kubectl debug`): the checks of their list inside ValidatePodSpec and the
// update rules of the pods/ephemeralcontainers subresource. Upstream: pkg/apis/core/validation/
// validation.go validateEphemeralContainers, validateFieldAllowList, allowedEphemeralContainerFields,
// ValidatePodEphemeralContainersUpdate.
import type { Container, EphemeralContainer, Pod } from 'kubernetes-types/core/v1';
import { F, goQuote, type FieldErr } from './errors.js';
import { containerCommon, type PodCtx } from './rules/containers.js';

/** The detail of every field an ephemeral container may not have. */
export const EPHEMERAL_FORBIDDEN = 'cannot be set for an Ephemeral Container';

/**
 * EphemeralContainerCommon's fields in the order of the Go struct, each with whether an ephemeral
 * container may set it (allowedEphemeralContainerFields; fields missing from that map are not allowed).
 */
export const EPHEMERAL_CONTAINER_FIELDS: readonly (readonly [json: string, goName: string, allowed: boolean])[] = [
  ['name', 'Name', true],
  ['image', 'Image', true],
  ['command', 'Command', true],
  ['args', 'Args', true],
  ['workingDir', 'WorkingDir', true],
  ['ports', 'Ports', false],
  ['envFrom', 'EnvFrom', true],
  ['env', 'Env', true],
  ['resources', 'Resources', false],
  ['resizePolicy', 'ResizePolicy', false],
  ['restartPolicy', 'RestartPolicy', false],
  ['volumeMounts', 'VolumeMounts', true],
  ['volumeDevices', 'VolumeDevices', true],
  ['livenessProbe', 'LivenessProbe', false],
  ['readinessProbe', 'ReadinessProbe', false],
  ['startupProbe', 'StartupProbe', false],
  ['lifecycle', 'Lifecycle', false],
  ['terminationMessagePath', 'TerminationMessagePath', true],
  ['terminationMessagePolicy', 'TerminationMessagePolicy', true],
  ['imagePullPolicy', 'ImagePullPolicy', true],
  ['securityContext', 'SecurityContext', true],
  ['stdin', 'Stdin', true],
  ['stdinOnce', 'StdinOnce', true],
  ['tty', 'TTY', true],
];

const isAbsent = (v: unknown) => v === undefined || v === null;

/**
 * Whether a field holds its Go zero value (`reflect.DeepEqual` with `reflect.Zero`): an absent
 * field. A present list (even empty) or pointer is set; `resources` is a struct, zero when none of
 * limits, requests and claims is there (so kubectl's `resources: {}` is allowed).
 */
function isGoZero(json: string, v: unknown): boolean {
  if (isAbsent(v)) return true;
  if (json === 'resources' && typeof v === 'object' && !Array.isArray(v)) {
    return Object.values(v as Record<string, unknown>).every(isAbsent);
  }
  return false;
}

/** validateEphemeralContainers: called by ValidatePodSpec after the init containers. */
export function validateEphemeralContainers(ctx: PodCtx): FieldErr[] {
  const list = (ctx.spec.ephemeralContainers ?? []) as EphemeralContainer[];
  if (list.length === 0) return [];
  const out: FieldErr[] = [];
  const others = new Set<string>();
  for (const c of [...(ctx.spec.containers ?? []), ...(ctx.spec.initContainers ?? [])]) others.add(c?.name ?? '');
  const all = new Set(others);
  list.forEach((ec0, i) => {
    const ec = ec0 ?? ({} as EphemeralContainer);
    const path = `spec.ephemeralContainers[${i}]`;
    out.push(...containerCommon(ec as Container, path, ctx));
    // validateContainerOnlyForPod
    const img = ec.image ?? '';
    if (img.trim() !== img) out.push(F.invalid(`${path}.image`, img, 'must not have leading or trailing whitespace'));
    const name = ec.name ?? '';
    if (all.has(name)) out.push(F.duplicate(`${path}.name`, name));
    else all.add(name);
    if (ec.targetContainerName && !others.has(ec.targetContainerName)) out.push(F.notFound(`${path}.targetContainerName`, ec.targetContainerName));
    const fields = ec as unknown as Record<string, unknown>;
    for (const [json, , allowed] of EPHEMERAL_CONTAINER_FIELDS) {
      if (!allowed && !isGoZero(json, fields[json])) out.push(F.forbidden(`${path}.${json}`, EPHEMERAL_FORBIDDEN, { at: 'key' }));
    }
    (ec.volumeMounts ?? []).forEach((vm, j) => {
      if (vm?.subPath) out.push(F.forbidden(`${path}.volumeMounts[${j}].subPath`, EPHEMERAL_FORBIDDEN, { at: 'key' }));
      if (vm?.subPathExpr) out.push(F.forbidden(`${path}.volumeMounts[${j}].subPathExpr`, EPHEMERAL_FORBIDDEN, { at: 'key' }));
    });
  });
  return out;
}

/** core.MirrorPodAnnotationKey */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/**
 * The part of ValidatePodEphemeralContainersUpdate that compares the two lists (Part 2), after
 * the static-pod check; Part 1 (the new pod's metadata and spec, ephemeral containers included) is
 * the validator's own pass over the new pod. `newPod` is the old pod with the new list
 * (dropNonEphemeralContainerUpdates). Existing ephemeral containers may be neither removed nor
 * changed; each change is shown with a diff of the two containers.
 */
export function validateEphemeralContainersUpdate(newPod: Pod, oldPod: Pod): { errors: FieldErr[]; replaceAll: boolean } {
  if (oldPod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) {
    return { errors: [F.forbidden('', 'static pods do not support ephemeral containers')], replaceAll: true };
  }
  const out: FieldErr[] = [];
  const path = 'spec.ephemeralContainers';
  const next = new Map<string, EphemeralContainer>();
  for (const c of (newPod.spec?.ephemeralContainers ?? []) as EphemeralContainer[]) next.set(c?.name ?? '', c);
  for (const old of (oldPod.spec?.ephemeralContainers ?? []) as EphemeralContainer[]) {
    const n = next.get(old.name);
    if (!n) out.push(F.forbidden(path, `existing ephemeral containers ${goQuote(old.name)} may not be removed\n`));
    else if (!semanticallyEqual(old, n)) out.push(F.forbidden(path, `existing ephemeral containers ${goQuote(old.name)} may not be changed\n${ephemeralContainerDiff(old, n)}`));
  }
  return { errors: out, replaceAll: false };
}

/** The container's own string and bool fields (not pointers in Go): `""` and false are their zero values. */
const SCALAR_FIELDS = new Set(['name', 'image', 'workingDir', 'terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy', 'stdin', 'stdinOnce', 'tty', 'targetContainerName']);

/**
 * The JSON of a container with what Go decodes to the same value removed: absent, null, empty
 * lists and maps, a zero `resources`, `""` and false in the container's own non-pointer fields.
 */
function canonical(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => canonical(x));
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[k];
    if (isAbsent(x) || (Array.isArray(x) && x.length === 0)) continue;
    if (key === '' && SCALAR_FIELDS.has(k) && (x === '' || x === false)) continue;
    if (key === '' && k === 'resources' && isGoZero('resources', canonical(x, k))) continue;
    const c = canonical(x, k);
    if (c && typeof c === 'object' && !Array.isArray(c) && Object.keys(c).length === 0 && (k === 'limits' || k === 'requests')) continue;
    out[k] = c;
  }
  return out;
}

/** apiequality.Semantic.DeepEqual for two ephemeral containers (empty and absent lists alike). */
export function semanticallyEqual(a: EphemeralContainer, b: EphemeralContainer): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function goValue(v: unknown, json = ''): string {
  if (isAbsent(v)) return ['stdin', 'stdinOnce', 'tty'].includes(json) ? 'false' : SCALAR_FIELDS.has(json) ? '""' : 'nil';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * The diff shown after `may not be changed`. Upstream prints go-cmp's `cmp.Diff(old, new)` of the
 * internal structs, whose exact text go-cmp deliberately randomizes; this is its shape: changed
 * fields as `-`/`+` lines, runs of identical fields elided.
 */
export function ephemeralContainerDiff(a: EphemeralContainer, b: EphemeralContainer): string {
  const ca = canonical(a) as Record<string, unknown>;
  const cb = canonical(b) as Record<string, unknown>;
  const lines = ['  core.EphemeralContainer{', '  \tEphemeralContainerCommon: core.EphemeralContainerCommon{'];
  let same = 0;
  const flush = () => {
    if (same > 0) lines.push(`  \t\t... // ${same} identical field${same === 1 ? '' : 's'}`);
    same = 0;
  };
  for (const [json, goName] of EPHEMERAL_CONTAINER_FIELDS) {
    const x = JSON.stringify(ca[json]);
    const y = JSON.stringify(cb[json]);
    if (x === y) {
      same++;
      continue;
    }
    flush();
    lines.push(`- \t\t${goName}: ${goValue(ca[json], json)},`, `+ \t\t${goName}: ${goValue(cb[json], json)},`);
  }
  flush();
  lines.push('  \t},');
  const t = (c: Record<string, unknown>) => goValue(c.targetContainerName, 'targetContainerName');
  if (t(ca) === t(cb)) lines.push(`  \tTargetContainerName: ${t(ca)},`);
  else lines.push(`- \tTargetContainerName: ${t(ca)},`, `+ \tTargetContainerName: ${t(cb)},`);
  lines.push('  }');
  return `${lines.join('\n')}\n`;
}
