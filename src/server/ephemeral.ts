// The pods/ephemeralcontainers subresource (`kubectl debug POD --image=…`): GET answers the pod;
// PUT and PATCH may only add ephemeral containers. Upstream: pkg/registry/core/pod/storage
// EphemeralContainersREST (Get, Update) and pkg/registry/core/pod/strategy.go
// podEphemeralContainersStrategy (PrepareForUpdate's dropNonEphemeralContainerUpdates: every change
// but spec.ephemeralContainers is dropped; ValidateUpdate: ValidatePodEphemeralContainersUpdate).
import type { EphemeralContainer, Pod } from 'kubernetes-types/core/v1';
import type { Engine } from '../engine/engine.js';
import { validateBody, type Problem } from '../validation/index.js';
import { isStrictOnly } from '../validation/errors.js';
import { validateEphemeralContainersUpdate } from '../validation/ephemeral.js';
import { applyPatch, patchTypeOf } from './patch.js';
import { ApiError, badRequest, conflict, nextGeneration, notFound, parseBody, type FieldValidation, type WriteResult } from './resources.js';
import * as S from './status.js';

const FIELD = 'spec.ephemeralContainers';
const underEphemeral = (field: string) => field === FIELD || field.startsWith(`${FIELD}[`);

function current(engine: Engine, ns: string, name: string): Pod {
  const pod = engine.store.get('Pod', ns, name);
  if (!pod) throw notFound('pods', name);
  return pod;
}

/**
 * A PATCH of pods/NAME/ephemeralcontainers applied to the stored pod (JSON, merge or strategic
 * merge patch, as for the pod itself): the object the update then receives. The stored
 * resourceVersion is kept unless the patch sets one.
 */
export function patchEphemeralContainers(engine: Engine, ns: string, name: string, body: string, contentType: string): object {
  const type = patchTypeOf(contentType);
  if (!type) throw new ApiError(S.unsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']));
  const cur = current(engine, ns, name);
  let patch: unknown;
  try {
    patch = JSON.parse(body);
  } catch (e) {
    throw badRequest(`error decoding patch: ${(e as Error).message}`);
  }
  const patched = applyPatch({ kind: 'Pod', apiVersion: 'v1', ...cur }, patch, type, 'Pod') as { metadata?: { resourceVersion?: string } };
  if (!JSON.stringify(patch).includes('"resourceVersion"') && patched.metadata) patched.metadata.resourceVersion = cur.metadata?.resourceVersion;
  return patched;
}

/**
 * The update of pods/NAME/ephemeralcontainers with `next` (a PUT's body, or the patched pod): only
 * its spec.ephemeralContainers is taken, onto the stored pod, then decoded, defaulted and
 * validated as the API server does (400 for a body that does not decode, 422 `The Pod "x" is
 * invalid: …`, 409 for a stale resourceVersion). Returns the stored pod and the warnings.
 */
export async function updateEphemeralContainers(
  engine: Engine,
  ns: string,
  name: string,
  next: unknown,
  opts: { fieldValidation: FieldValidation; dryRun: boolean },
): Promise<WriteResult> {
  const old = current(engine, ns, name);
  const raw = (typeof next === 'string' ? parseBody(next) : next) as Pod;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest("couldn't get version/kind; json parse error: the body is not a JSON object");
  const md = raw.metadata ?? {};
  if (md.name !== undefined && md.name !== name) throw badRequest(`the name of the object (${md.name}) does not match the name on the URL (${name})`);
  if (md.resourceVersion && md.resourceVersion !== old.metadata?.resourceVersion) throw conflict('pods', name);
  if (md.uid && md.uid !== old.metadata?.uid) throw conflict('pods', name, `Precondition failed: UID in precondition: ${md.uid}, UID in object meta: ${old.metadata?.uid}`);

  // dropNonEphemeralContainerUpdates: the stored pod with the request's ephemeral containers.
  const list = raw.spec?.ephemeralContainers;
  const { status: _status, ...rest } = structuredClone(old);
  const candidate = { kind: 'Pod', apiVersion: 'v1', ...rest, spec: { ...rest.spec!, ephemeralContainers: list } } as Pod;
  if (list === undefined || list === null) delete candidate.spec!.ephemeralContainers;

  const { pod, warnings } = decodeCandidate(candidate, name, opts.fieldValidation, (decoded) => validateEphemeralContainersUpdate(decoded, old));
  const ephemeral = (pod.spec?.ephemeralContainers ?? []) as EphemeralContainer[];
  if (opts.dryRun) return { object: { ...old, spec: { ...old.spec!, ephemeralContainers: ephemeral } }, warnings };
  const updated = engine.store.update('Pod', ns, name, (p) => {
    const spec = p.spec as { ephemeralContainers?: EphemeralContainer[] };
    if (ephemeral.length > 0) spec.ephemeralContainers = structuredClone(ephemeral);
    else delete spec.ephemeralContainers;
    p.metadata = { ...p.metadata, generation: nextGeneration(old, p.spec as Pod['spec']) };
  });
  return { object: updated, warnings };
}

/** The API server's decoding and validation of the candidate pod (resources.ts `decode`, without ValidatePodCreate's own checks). */
function decodeCandidate(
  candidate: Pod,
  name: string,
  fieldValidation: FieldValidation,
  update: (decoded: Pod) => { errors: { field: string; type: string; detail: string }[]; replaceAll: boolean },
): { pod: Pod; warnings: string[] } {
  // An update: ValidatePodCreate's own checks (no ephemeral containers on create) do not apply.
  const doc = validateBody(candidate, { update: true }).documents[0];
  const head = 'Pod in version "v1" cannot be handled as a Pod: ';
  if (!doc) throw badRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  const strict = isStrictOnly;
  const errors = doc.problems.filter((p) => p.severity === 'error');
  const syntax = errors.find((p) => p.type === 'YAML syntax' && !strict(p));
  if (syntax) throw badRequest(head + syntax.detail);
  const typeErr = errors.find((p) => p.type === 'Type mismatch');
  if (typeErr) throw badRequest(head + typeErr.detail);
  const warnings: string[] = [];
  const strictErrs = errors.filter(strict);
  if (strictErrs.length && fieldValidation === 'Strict') throw badRequest(`${head}strict decoding error: ${strictErrs.map((p) => p.detail).join(', ')}`);
  if (strictErrs.length && fieldValidation === 'Warn') warnings.push(...strictErrs.map((p) => p.detail));
  if (!doc.object) throw badRequest(head + (doc.skipReason ?? 'the object could not be decoded'));
  const pod = doc.object as Pod;
  const found: { field: string; type: string; detail: string }[] = errors.filter((p) => !strict(p));
  const u = update(pod);
  const all = u.replaceAll ? u.errors : [...found, ...u.errors];
  if (all.length) throw new ApiError(S.invalidFromValidation('Pod', name, all.map((e) => ({ field: e.field, type: e.type as S.ValidationFinding['type'], detail: e.detail, severity: 'error' as const }))));
  for (const p of doc.problems) {
    if (p.severity === 'warning' && underEphemeral(p.field)) warnings.push(p.source === 'podlab' ? `Pod Lab warning: ${p.message}` : p.message);
  }
  return { pod, warnings };
}
