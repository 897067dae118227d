// The REST storage of each resource the lab serves (the counterpart of the API server's
// registries, pkg/registry/core/<resource>/storage + strategy.go): how a create, update or delete
// of a Pod, ConfigMap, Secret, Event, Namespace or Node becomes a change of the engine's store,
// with the API server's decoding, defaulting and validation (src/validation) and its errors.
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { ConfigMap, Event as KEvent, Namespace, Node, Pod, PodCondition, Secret } from 'kubernetes-types/core/v1';
import { createdPodStatus, type Engine } from '../engine/engine.js';
import { stamp, type Cond } from '../engine/kubelet/status.js';
import type { Kind, ObjOf } from '../engine/store.js';
import { InvalidError as ConfigInvalidError } from '../engine/config-objects.js';
import { rfc3339 } from '../engine/clock.js';
import { repeatsKeys, validateBody, validateText, type Problem } from '../validation/index.js';
import { LAB_ANNOTATIONS } from './lab-api.js';
import type { FieldSelector } from './selectors.js';
import { isDNS1123Subdomain } from '../validation/formats.js';
import { admitPod } from '../validation/admission.js';
import { F, isStrictOnly, type FieldErr } from '../validation/errors.js';
import * as S from './status.js';

/**
 * An API error: the server answers with its Status (status.ts builds them as the API server does),
 * and with the request's warnings (a strict-decoding finding under Warn) as `Warning` headers.
 */
export class ApiError extends Error {
  constructor(
    readonly response: S.StatusResponse,
    readonly warnings: readonly string[] = [],
  ) {
    super(response.body.message ?? '');
    this.name = 'ApiError';
  }
  get code(): number {
    return this.response.code;
  }
}

const fail = (r: S.StatusResponse) => new ApiError(r);

export interface ResourceInfo {
  resource: string;
  kind: Kind;
  namespaced: boolean;
}

export const RESOURCES: Record<string, ResourceInfo> = {
  pods: { resource: 'pods', kind: 'Pod', namespaced: true },
  configmaps: { resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
  secrets: { resource: 'secrets', kind: 'Secret', namespaced: true },
  events: { resource: 'events', kind: 'Event', namespaced: true },
  namespaces: { resource: 'namespaces', kind: 'Namespace', namespaced: false },
  nodes: { resource: 'nodes', kind: 'Node', namespaced: false },
};

export const notFound = (resource: string, name: string) => fail(S.notFound(resource, name));
export const alreadyExists = (resource: string, name: string) => fail(S.alreadyExists(resource, name));
export const conflict = (resource: string, name: string, err?: string) => fail(S.conflict(resource, name, err));
export const badRequest = (message: string) => fail(S.badRequest(message));
export const methodNotAllowed = (resource: string, action: string) => fail(S.methodNotSupported(resource, action));

/** The fieldValidation query parameter: what to do with unknown and duplicate fields. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface WriteResult {
  object: object;
  /** Warning headers (`299 - "..."`) to send. */
  warnings: string[];
}

/** 422 Invalid from field errors given as `{field, type (the validator's), detail}`. */
function invalid(kind: string, name: string, errors: readonly { field: string; type: string; detail: string }[]): ApiError {
  return fail(S.invalidFromValidation(kind, name, errors.map((e) => ({ field: e.field, type: e.type as S.ValidationFinding['type'], detail: e.detail, severity: 'error' as const }))));
}

/**
 * Decodes and validates a request body (its text, or the value JSON.parse made of it) as the API
 * server does for a create or update: strict decoding findings (unknown or duplicate fields) per
 * fieldValidation, type errors as 400, rule violations as 422. Returns the defaulted object and the
 * warnings. A value lost the keys its text wrote twice: `repeated` is that text, whose strict
 * findings (duplicate fields among them, in the document's order) are reported instead.
 */
export function decode(
  kind: 'Pod' | 'ConfigMap' | 'Secret',
  body: string | object,
  fieldValidation: FieldValidation,
  repeated?: string,
  operation: 'create' | 'update' = 'create',
  writtenName?: string,
  /** The handler's check between decoding and admission (a create's namespace against the request's). */
  beforeAdmission?: () => void,
): { object: Pod | ConfigMap | Secret; warnings: string[]; decodingWarnings: string[] } {
  const result = validateBody(body, { update: operation === 'update' });
  const doc = result.documents[0];
  if (!doc) throw badRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  if (doc.kind !== undefined && doc.kind !== kind) throw badRequest(`the API version in the data (${doc.apiVersion ?? ''}) does not match the expected API version (v1)`);
  const errors = doc.problems.filter((p) => p.severity === 'error');
  const strict = isStrictOnly;
  const head = `${kind} in version "v1" cannot be handled as a ${kind}: `;
  const syntax = errors.find((p) => p.type === 'YAML syntax' && !strict(p));
  if (syntax) throw badRequest(`${head}${syntax.detail}`);
  const typeErr = errors.find((p) => p.type === 'Type mismatch');
  if (typeErr) throw badRequest(head + typeErr.detail);
  const strictErrs = repeated === undefined ? errors.filter(strict) : (validateText(repeated).documents[0]?.problems ?? []).filter((p) => p.severity === 'error' && strict(p));
  const warnings: string[] = [];
  if (strictErrs.length && fieldValidation === 'Strict') throw badRequest(`${head}strict decoding error: ${strictErrs.map((p) => p.detail).join(', ')}`);
  if (strictErrs.length && fieldValidation === 'Warn') warnings.push(...strictErrs.map((p) => p.detail));
  // From here a refusal carries those warnings: the API server records them in the request's
  // context, and its answer has them whatever its status.
  const decodingWarnings = [...warnings];
  const refuse = (e: ApiError) => (decodingWarnings.length ? new ApiError(e.response, decodingWarnings) : e);
  try {
    beforeAdmission?.();
  } catch (e) {
    throw e instanceof ApiError ? refuse(e) : e;
  }
  // admission runs before validation: its refusal (the Priority plugin's) is a 403 under the name
  // admission sees (`writtenName`: the name, else the generateName, else Unknown)
  const refused = errors.find((p) => p.source === 'admission');
  if (refused) throw refuse(fail(S.forbidden('pods', writtenName ?? doc.name ?? '', refused.detail)));
  const rest = errors.filter((p) => !strict(p));
  if (rest.length) throw refuse(invalid(kind, doc.name ?? '', rest));
  for (const p of doc.problems) if (p.severity === 'warning') warnings.push(p.source === 'podlab' ? `Pod Lab warning: ${p.message}` : p.message);
  if (!doc.object) throw refuse(badRequest(`${head}${doc.skipReason ?? 'the object could not be decoded'}`));
  return { object: doc.object, warnings, decodingWarnings };
}

/**
 * A create's decoding: the name generateName makes (before validation, as the create strategy
 * does), then `decode` of the parsed body, with the text when it writes a key twice.
 */
function decodeCreated(
  kind: 'Pod' | 'ConfigMap' | 'Secret',
  body: string,
  parsed: Record<string, unknown>,
  fieldValidation: FieldValidation,
  ns: string | undefined,
  /** NamespaceLifecycle, the first admission plugin: the request's namespace exists and is not terminating. */
  namespaceLifecycle: () => void,
): ReturnType<typeof decode> {
  const repeated = repeatsKeys(body, parsed) ? body : undefined;
  const md = parsed.metadata as { name?: string; generateName?: string; namespace?: unknown } | undefined;
  // admission.NewForbidden's extractResourceName: the name, the generateName, or Unknown
  const written = (typeof md?.name === 'string' && md.name) || (typeof md?.generateName === 'string' && md.generateName) || 'Unknown';
  if (md && !md.name && md.generateName) md.name = generateName(md.generateName);
  // (the create handler's EnsureObjectNamespaceMatchesRequestNamespace, then admission's first plugin)
  const beforeAdmission = () => {
    if (typeof md?.namespace === 'string' && md.namespace && md.namespace !== ns) throw badRequest(NAMESPACE_MISMATCH);
    namespaceLifecycle();
  };
  return decode(kind, parsed, fieldValidation, repeated, 'create', written, beforeAdmission);
}

/**
 * Runs what follows a decoding whose warnings are `warnings`: a refusal from there on carries them
 * too (the API server's warning recorder writes them on whatever it answers).
 */
async function warned<T>(warnings: readonly string[], fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw e instanceof ApiError && warnings.length ? new ApiError(e.response, [...e.warnings, ...warnings]) : e;
  }
}

const NAMESPACE_MISMATCH = 'the namespace of the provided object does not match the namespace sent on the request';

const GENERATE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
/** names.SimpleNameGenerator: the prefix (cut to leave room) and five random characters. */
export function generateName(prefix: string): string {
  const base = prefix.length > 58 ? prefix.slice(0, 58) : prefix;
  const bytes = randomBytes(5);
  return base + [...bytes].map((b) => GENERATE_CHARS[b % GENERATE_CHARS.length]).join('');
}

const RV_MISMATCH = (rv: string | undefined, cur: string | undefined) => rv !== undefined && rv !== '' && rv !== cur;

/**
 * A value as apiequality.Semantic.DeepEqual compares it: every object's keys in one order (at every
 * depth: a container's fields too), and what Go decodes to nothing (null, an empty list) left out.
 */
function semantic(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(semantic);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) {
    const x = o[k];
    if (x === undefined || x === null || (Array.isArray(x) && x.length === 0)) continue;
    out[k] = semantic(x);
  }
  return out;
}

const UPDATABLE =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

const sameJson = (a: unknown, b: unknown) => JSON.stringify(semantic(a)) === JSON.stringify(semantic(b));

/**
 * ValidatePodUpdate's own checks of a pod's spec, in its order: containers neither added nor removed
 * (it stops there), the active deadline only set or lowered, existing tolerations kept (their
 * tolerationSeconds may change), and nothing else changed but the images, the active deadline, added
 * tolerations and a negative grace period set to 1. (Its message leaves out the diff upstream appends.)
 */
function podUpdateErrors(old: Pod, next: Pod): FieldErr[] {
  const o = old.spec ?? ({} as NonNullable<Pod['spec']>);
  const n = next.spec ?? ({} as NonNullable<Pod['spec']>);
  for (const list of ['containers', 'initContainers'] as const) {
    if ((n[list] ?? []).length !== (o[list] ?? []).length) return [F.forbidden(`spec.${list}`, 'pod updates may not add or remove containers')];
  }
  const out: FieldErr[] = [];
  const nd = n.activeDeadlineSeconds;
  const od = o.activeDeadlineSeconds;
  if (nd !== undefined && nd !== null) {
    if (nd < 0 || nd > 2 ** 31 - 1) return [F.invalid('spec.activeDeadlineSeconds', nd, `must be between 0 and ${2 ** 31 - 1}, inclusive`)];
    if (od !== undefined && od !== null && od < nd) return [F.invalid('spec.activeDeadlineSeconds', nd, 'must be less than or equal to previous value')];
  } else if (od !== undefined && od !== null) out.push(F.invalid('spec.activeDeadlineSeconds', 'null', 'must not update from a positive integer to nil value'));
  const kept = (o.tolerations ?? []).every((t) => (n.tolerations ?? []).some((u) => sameJson({ ...t, tolerationSeconds: u.tolerationSeconds }, u)));
  if (!kept) out.push(F.forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds'));
  // The new spec with what may change taken from the old one must be the old one.
  const munged = structuredClone(n) as NonNullable<Pod['spec']>;
  (munged.containers ?? []).forEach((c, i) => (c.image = o.containers?.[i]?.image));
  (munged.initContainers ?? []).forEach((c, i) => (c.image = o.initContainers?.[i]?.image));
  munged.activeDeadlineSeconds = o.activeDeadlineSeconds;
  munged.tolerations = o.tolerations;
  // Set by the scheduler's binding, not by the update.
  munged.nodeName = o.nodeName;
  if ((o.terminationGracePeriodSeconds ?? 0) < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = o.terminationGracePeriodSeconds;
  if (!sameJson(munged, o)) out.push(F.forbidden('spec', UPDATABLE));
  return out;
}

/** The resources' write paths over the engine. */
export class Registry {
  constructor(
    private readonly engine: Engine,
    private readonly now: () => number,
  ) {}

  private get store() {
    return this.engine.store;
  }

  get(info: ResourceInfo, ns: string | undefined, name: string): object {
    const o = this.store.get(info.kind, info.namespaced ? ns : undefined, name);
    if (!o) throw notFound(info.resource, name);
    return o;
  }

  /**
   * The kind's objects in a namespace (or all), in storage-key order (etcd's byte order of
   * <namespace>/<name>). A field selector's `spec.nodeName=` or `involvedObject.uid=` term narrows
   * through the store's index first, as the watch cache's indexers do; the caller still filters.
   */
  list(info: ResourceInfo, ns: string | undefined, fieldSelector?: FieldSelector): object[] {
    type Meta = { metadata?: { namespace?: string; name?: string } };
    const exact = (field: string) => fieldSelector?.find((r) => r.field === field && r.operator === '=')?.value;
    const nodeName = info.kind === 'Pod' ? exact('spec.nodeName') : undefined;
    const uid = info.kind === 'Event' ? exact('involvedObject.uid') : undefined;
    const namespace = info.namespaced && ns ? ns : undefined;
    let items: Meta[];
    if (nodeName !== undefined) items = this.store.byIndex('Pod', 'nodeName', nodeName);
    else if (uid !== undefined) items = this.store.byIndex('Event', 'involvedUid', uid);
    else items = this.store.list(info.kind, namespace);
    if (namespace !== undefined && (nodeName !== undefined || uid !== undefined)) items = items.filter((o) => (o.metadata?.namespace ?? '') === namespace);
    const keyed = items.map((o) => [`${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`, o] as const);
    keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return keyed.map(([, o]) => o);
  }

  private requireNamespace(info: ResourceInfo, ns: string, name: string): void {
    const n = this.store.get('Namespace', undefined, ns);
    if (!n) throw notFound('namespaces', ns);
    if (n.metadata?.deletionTimestamp || n.status?.phase === 'Terminating') throw fail(S.namespaceTerminating(info.resource, name, ns));
  }

  /** Names the object (generateName), checks the namespace, and reports a mismatch as the API server does. */
  private prepareCreate(info: ResourceInfo, ns: string | undefined, obj: { metadata?: { name?: string; generateName?: string; namespace?: string } }): string {
    const md = (obj.metadata ??= {});
    if (info.namespaced) {
      if (md.namespace && md.namespace !== ns) throw badRequest(NAMESPACE_MISMATCH);
      md.namespace = ns;
    }
    if (!md.name && md.generateName) md.name = generateName(md.generateName);
    return md.name ?? '';
  }

  async create(info: ResourceInfo, ns: string | undefined, body: string, opts: { fieldValidation: FieldValidation; dryRun: boolean }): Promise<WriteResult> {
    const parsed = parseBody(body);
    const lifecycle = () => info.namespaced && this.requireNamespace(info, ns ?? 'default', (parsed.metadata as { name?: string } | undefined)?.name ?? '');
    // (a decoded kind's namespace is checked by admission, after its decoding)
    if (info.kind !== 'Pod' && info.kind !== 'ConfigMap' && info.kind !== 'Secret') lifecycle();
    switch (info.kind) {
      case 'Pod': {
        // (the Priority plugin's refusal came with decoding: a 403 before validation's 422)
        const { object, warnings } = decodeCreated('Pod', body, parsed, opts.fieldValidation, ns, lifecycle);
        return warned(warnings, async () => {
          // The default admission chain's mutations (on create only).
          const pod = admitPod(object as Pod);
          const name = this.prepareCreate(info, ns, pod);
          if (this.store.get('Pod', ns, name)) throw alreadyExists('pods', name);
          // (a dry run answers with what would be stored: the first generation)
          if (opts.dryRun) return { object: { ...pod, metadata: { ...pod.metadata, generation: 1 }, status: createdPodStatus(pod as Pod) }, warnings };
          const stepMode = pod.metadata?.annotations?.[LAB_ANNOTATIONS.stepMode];
          const created = await this.engine.createPod(pod, stepMode === undefined ? {} : { stepMode: stepMode === 'true' });
          return { object: created, warnings };
        });
      }
      case 'ConfigMap':
      case 'Secret': {
        const kind = info.kind;
        const { object, warnings } = decodeCreated(kind, body, parsed, opts.fieldValidation, ns, lifecycle);
        return warned(warnings, async () => {
          const name = this.prepareCreate(info, ns, object);
          if (this.engine.getObject(kind, ns ?? 'default', name)) throw alreadyExists(info.resource, name);
          if (opts.dryRun) return { object, warnings };
          return { object: (await this.applyConfig(object as ConfigMap | Secret)).object, warnings };
        });
      }
      case 'Event': {
        const ev = parsed as unknown as KEvent;
        const name = this.prepareCreate(info, ns, ev);
        if (!name) throw invalid('Event', '', [{ field: 'metadata.name', type: 'Required value', detail: 'name or generateName is required' }]);
        if (this.store.get('Event', ns, name)) throw alreadyExists('events', name);
        if (opts.dryRun) return { object: ev, warnings: [] };
        return { object: this.store.create('Event', ev), warnings: [] };
      }
      case 'Namespace': {
        const nsObj = parsed as Namespace;
        const name = this.prepareCreate(info, undefined, nsObj);
        const bad = namespaceNameError(name);
        if (bad) throw invalid('Namespace', name, [bad]);
        if (this.store.get('Namespace', undefined, name)) throw alreadyExists('namespaces', name);
        const obj: Namespace = { ...nsObj, apiVersion: 'v1', kind: 'Namespace', metadata: { ...nsObj.metadata, labels: { ...nsObj.metadata?.labels, 'kubernetes.io/metadata.name': name } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };
        if (opts.dryRun) return { object: obj, warnings: [] };
        return { object: this.store.create('Namespace', obj), warnings: [] };
      }
      case 'Node': {
        // A node registered through the API (a simulated node, or one a learner applies): kept as given, status included, as a kubelet registers its node.
        const node = parsed as Node;
        const name = this.prepareCreate(info, undefined, node);
        if (!name) throw invalid('Node', '', [{ field: 'metadata.name', type: 'Required value', detail: 'name or generateName is required' }]);
        const bad = isDNS1123Subdomain(name);
        if (bad.length) throw invalid('Node', name, bad.map((d) => ({ field: 'metadata.name', type: 'Invalid value', detail: `${JSON.stringify(name)}: ${d}` })));
        if (this.store.get('Node', undefined, name)) throw alreadyExists('nodes', name);
        const obj: Node = { ...node, apiVersion: 'v1', kind: 'Node', metadata: { ...node.metadata, name } };
        if (opts.dryRun) return { object: obj, warnings: [] };
        return { object: this.store.create('Node', obj), warnings: [] };
      }
      default:
        throw methodNotAllowed(info.resource, 'create');
    }
  }

  private async applyConfig(obj: ConfigMap | Secret) {
    try {
      return await this.engine.applyObject(obj);
    } catch (e) {
      if (e instanceof ConfigInvalidError) {
        throw invalid(e.kind, e.objectName, e.causes.map((c) => ({ field: c.field, type: c.type, detail: c.detail, message: `${c.field}: ${c.type}: ${c.detail}` })));
      }
      throw e;
    }
  }

  /** PUT: replaces the object (optimistic concurrency on resourceVersion when given). `sub` is `status` for the status subresource. */
  async update(info: ResourceInfo, ns: string | undefined, name: string, body: string, opts: { fieldValidation: FieldValidation; dryRun: boolean; sub?: 'status' }): Promise<WriteResult> {
    const cur = this.store.get(info.kind, info.namespaced ? ns : undefined, name) as ObjOf<Kind> | undefined;
    if (!cur) throw notFound(info.resource, name);
    const raw = parseBody(body) as { metadata?: { name?: string; namespace?: string; resourceVersion?: string; uid?: string } };
    const repeated = repeatsKeys(body, raw) ? body : undefined;
    if (raw.metadata?.name !== undefined && raw.metadata.name !== name) throw badRequest(`the name of the object (${raw.metadata.name}) does not match the name on the URL (${name})`);
    // (the update handler's EnsureObjectNamespaceMatchesRequestNamespace)
    if (info.namespaced && raw.metadata?.namespace && raw.metadata.namespace !== ns) throw badRequest(NAMESPACE_MISMATCH);
    if (RV_MISMATCH(raw.metadata?.resourceVersion, cur.metadata?.resourceVersion)) throw conflict(info.resource, name);
    if (raw.metadata?.uid && raw.metadata.uid !== cur.metadata?.uid) {
      throw conflict(info.resource, name, `Precondition failed: UID in precondition: ${raw.metadata.uid}, UID in object meta: ${cur.metadata?.uid}`);
    }
    const keepMeta = (next: { metadata?: object }) => ({
      ...next.metadata,
      name,
      ...(info.namespaced ? { namespace: ns } : {}),
      uid: cur.metadata?.uid,
      creationTimestamp: cur.metadata?.creationTimestamp,
      ...(cur.metadata?.deletionTimestamp ? { deletionTimestamp: cur.metadata.deletionTimestamp, deletionGracePeriodSeconds: cur.metadata.deletionGracePeriodSeconds } : {}),
    });
    switch (info.kind) {
      case 'Pod': {
        const old = cur as Pod;
        if (opts.sub === 'status') {
          // (the status strategy: the QoS class is the one set at creation when the new status has none)
          const status = structuredClone((raw as Pod).status ?? {});
          if (!status.qosClass && old.status?.qosClass) status.qosClass = old.status.qosClass;
          if (opts.dryRun) return { object: { ...old, status }, warnings: [] };
          return { object: this.store.update('Pod', ns, name, (p) => void (p.status = status as typeof p.status)), warnings: [] };
        }
        const { object, warnings, decodingWarnings } = decode('Pod', { ...raw, status: undefined }, opts.fieldValidation, repeated, 'update');
        const next = object as Pod;
        const specErrs = podUpdateErrors(old, next);
        // (the update's validation refuses before the strategy's warnings are recorded: only decoding's come with it)
        if (specErrs.length) throw new ApiError(invalid('Pod', name, specErrs).response, decodingWarnings);
        if (opts.dryRun) return { object: { ...next, metadata: { ...next.metadata, generation: nextGeneration(old, next.spec) } }, warnings };
        const updated = this.store.update('Pod', ns, name, (p) => {
          p.metadata = keepMeta(next) as typeof p.metadata;
          p.spec = { ...(structuredClone(next.spec) as typeof p.spec), nodeName: old.spec?.nodeName } as typeof p.spec;
          if (!old.spec?.nodeName) delete (p.spec as { nodeName?: string }).nodeName;
          // BeforeUpdate keeps the stored generation; the pod strategy counts a changed spec
          p.metadata = { ...p.metadata, generation: nextGeneration(old, p.spec as Pod['spec']) };
        });
        return { object: updated, warnings };
      }
      case 'ConfigMap':
      case 'Secret': {
        const { object, warnings } = decode(info.kind, raw, opts.fieldValidation, repeated);
        (object as ConfigMap).metadata = { ...object.metadata, name, namespace: ns };
        if (opts.dryRun) return { object, warnings };
        return { object: (await this.applyConfig(object as ConfigMap | Secret)).object, warnings };
      }
      case 'Event':
      case 'Namespace':
      case 'Node': {
        const next = raw as Node;
        if (opts.dryRun) return { object: next, warnings: [] };
        const updated = this.store.update(info.kind, info.namespaced ? ns : undefined, name, (o) => {
          const m = o as { metadata?: object; spec?: unknown; status?: unknown } & Record<string, unknown>;
          if (opts.sub === 'status') {
            m.status = structuredClone((next as { status?: unknown }).status);
            return;
          }
          for (const k of Object.keys(m)) if (k !== 'status' && k !== 'metadata') delete m[k];
          for (const [k, v] of Object.entries(next)) if (k !== 'status' && k !== 'metadata') m[k] = structuredClone(v);
          m.metadata = keepMeta(next);
          if (info.kind === 'Namespace') m.spec = (cur as Namespace).spec;
        });
        return { object: updated, warnings: [] };
      }
      default:
        throw methodNotAllowed(info.resource, 'update');
    }
  }

  /** DELETE: returns the object as the response shows it (a pod being terminated, or the removed object). */
  async delete(info: ResourceInfo, ns: string | undefined, name: string, opts: { gracePeriodSeconds?: number; dryRun: boolean; uid?: string; resourceVersion?: string }): Promise<{ object: object; gone: boolean }> {
    const cur = this.store.get(info.kind, info.namespaced ? ns : undefined, name) as ObjOf<Kind> | undefined;
    if (!cur) throw notFound(info.resource, name);
    if (opts.uid && opts.uid !== cur.metadata?.uid) {
      throw conflict(info.resource, name, `Precondition failed: UID in precondition: ${opts.uid}, UID in object meta: ${cur.metadata?.uid}`);
    }
    if (RV_MISMATCH(opts.resourceVersion, cur.metadata?.resourceVersion)) throw conflict(info.resource, name);
    if (opts.dryRun) return { object: cur, gone: false };
    switch (info.kind) {
      case 'Pod': {
        const { pod, gone } = this.engine.beginDeletion(ns ?? 'default', name, opts.gracePeriodSeconds);
        return { object: pod, gone };
      }
      case 'ConfigMap':
      case 'Secret':
        return { object: await this.engine.deleteObject(info.kind, ns ?? 'default', name), gone: true };
      case 'Event':
        return { object: this.store.delete('Event', ns, name) ?? cur, gone: true };
      case 'Namespace':
        return this.deleteNamespace(name);
      case 'Node':
        return { object: this.store.delete('Node', undefined, name) ?? cur, gone: true };
      default:
        throw methodNotAllowed(info.resource, 'delete');
    }
  }

  /** The namespace controller: Terminating, every object of the namespace deleted, then the namespace. */
  private deleteNamespace(name: string): { object: object; gone: boolean } {
    if (['default', 'kube-system', 'kube-public'].includes(name)) {
      throw fail(S.forbidden('namespaces', name, 'this namespace may not be deleted'));
    }
    const cur = this.store.get('Namespace', undefined, name)!;
    if (cur.status?.phase === 'Terminating') return { object: cur, gone: false };
    const marked = this.store.update('Namespace', undefined, name, (n) => {
      n.metadata = { ...n.metadata, deletionTimestamp: rfc3339(this.now()) };
      n.status = { ...n.status, phase: 'Terminating' };
    });
    void this.finishNamespace(name);
    return { object: marked, gone: false };
  }

  private async finishNamespace(name: string): Promise<void> {
    const inNs = <K extends Kind>(k: K) => this.store.list(k, name) as { metadata?: { namespace?: string; name?: string } }[];
    await Promise.all(
      inNs('Pod').map((p) =>
        this.engine.deletePod(name, p.metadata?.name ?? '').catch(() => {
          // gone meanwhile
        }),
      ),
    );
    for (const k of ['ConfigMap', 'Secret'] as const) for (const o of inNs(k)) await this.engine.deleteObject(k, name, o.metadata?.name ?? '').catch(() => undefined);
    for (const e of inNs('Event')) this.store.delete('Event', name, e.metadata?.name ?? '');
    this.store.delete('Namespace', undefined, name);
  }

  /** The binding subresource: the scheduler's (or a user's) assignment of a pod to a node. */
  bind(ns: string, name: string, body: string): object {
    const b = parseBody(body) as { metadata?: { name?: string }; target?: { name?: string; kind?: string } };
    const pod = this.store.get('Pod', ns, name);
    if (!pod) throw notFound('pods', name);
    if (pod.spec?.nodeName) throw conflict('pods/binding', name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    const node = b.target?.name ?? '';
    if (!node) throw invalid('Binding', name, [{ field: 'target.name', type: 'Required value', detail: '' }]);
    this.store.update('Pod', ns, name, (p) => {
      p.spec = { ...p.spec!, nodeName: node };
    });
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
  }

  /**
   * POST pods/eviction (pkg/registry/core/pod/storage/eviction.go). The lab has no
   * PodDisruptionBudgets, so every eviction is allowed: the pod gets the DisruptionTarget
   * condition (addConditionAndDeletePod; not on a dry run), then is deleted as the eviction's
   * deleteOptions say. Answers the Status a create returns.
   */
  async evict(ns: string, name: string, body: string, dryRunQuery: boolean): Promise<object> {
    const e = parseBody(body) as {
      metadata?: { name?: string };
      deleteOptions?: { gracePeriodSeconds?: number; dryRun?: string[]; preconditions?: { uid?: string; resourceVersion?: string } };
    };
    if ((e.metadata?.name ?? '') !== name) throw badRequest('name in URL does not match name in Eviction object');
    const pod = this.store.get('Pod', ns, name);
    if (!pod) throw notFound('pods', name);
    const o = e.deleteOptions ?? {};
    const dryRun = dryRunQuery || (o.dryRun ?? []).includes('All');
    const opts = { dryRun, uid: o.preconditions?.uid, resourceVersion: o.preconditions?.resourceVersion, ...(o.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: o.gracePeriodSeconds }) };
    if (opts.uid && opts.uid !== pod.metadata?.uid) {
      throw conflict('Pod', name, `the UID in the precondition (${opts.uid}) does not match the UID in record (${pod.metadata?.uid}). The object might have been deleted and then recreated`);
    }
    if (opts.resourceVersion && opts.resourceVersion !== pod.metadata?.resourceVersion) {
      throw conflict('Pod', name, `the ResourceVersion in the precondition (${opts.resourceVersion}) does not match the ResourceVersion in record (${pod.metadata?.resourceVersion}). The object might have been modified`);
    }
    if (!dryRun) {
      this.store.update('Pod', ns, name, (p) => {
        p.status = { ...p.status, conditions: withPodCondition(p.status?.conditions ?? [], { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }, this.now()) };
      });
    }
    // (the condition's write moved the resourceVersion: the deletion is not held to the old one)
    await this.delete(RESOURCES.pods!, ns, name, { ...opts, resourceVersion: undefined });
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
  }

  /** Default namespaces of a fresh lab (kube-apiserver's system namespaces controller). */
  ensureSystemNamespaces(): void {
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      if (this.store.get('Namespace', undefined, name)) continue;
      this.store.create('Namespace', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      });
    }
  }
}

function namespaceNameError(name: string): { field: string; type: string; detail: string; message: string } | undefined {
  if (!name) return { field: 'metadata.name', type: 'Required value', detail: 'name or generateName is required', message: 'metadata.name: Required value: name or generateName is required' };
  if (name.length > 63 || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) {
    const detail = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    return { field: 'metadata.name', type: 'Invalid value', detail, message: `metadata.name: Invalid value: "${name}": ${detail}` };
  }
  return undefined;
}

export function parseBody(body: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw badRequest("couldn't get version/kind; json parse error: the body is not a JSON object");
  return v as Record<string, unknown>;
}

export type { Secret };

/** A pod's generation after a write of `spec` (updatePodGeneration): one more when the spec changed. */
export function nextGeneration(old: Pod, spec: Pod['spec']): number {
  const current = old.metadata?.generation ?? 1;
  return isDeepStrictEqual(JSON.parse(JSON.stringify(old.spec ?? {})), JSON.parse(JSON.stringify(spec ?? {}))) ? current : current + 1;
}

/**
 * UpdatePodCondition (pkg/api/pod): the condition added at the end, or in place of the one of its
 * type; its transition time is now unless the status stays the same.
 */
function withPodCondition(conditions: readonly PodCondition[], c: Cond, now: number): PodCondition[] {
  const old = conditions.find((x) => x.type === c.type);
  const next = stamp(c, conditions, now);
  return old ? conditions.map((x) => (x === old ? next : x)) : [...conditions, next];
}
