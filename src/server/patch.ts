// PATCH of a stored object with the three patch types the API server accepts for built-in kinds.
// Counterparts: k8s.io/apiserver/pkg/endpoints/handlers/patch.go (jsonPatcher.applyJSPatch,
// strategicPatchObject, interpretStrategicMergePatchError), gopkg.in/evanphx/json-patch.v4
// (patch.go for RFC 6902, merge.go for RFC 7386), k8s.io/apimachinery/pkg/util/strategicpatch/patch.go
// (StrategicMergeMapPatch) with k8s.io/apimachinery/pkg/util/mergepatch/errors.go, and the
// patchStrategy/patchMergeKey struct tags of k8s.io/api/core/v1/types.go and meta/v1 ObjectMeta.
//
// Each function returns what the upstream library returns: the patched JSON map, before the API
// server decodes it into the typed object (that decoding — unknown fields, nulls — and validation
// are the registry's). Errors are PatchError with the Status upstream answers: code, reason and
// message. Inputs are never mutated. Pure.
import * as jsonpatch from 'fast-json-patch';
import { apply as mergePatchApply } from 'json-merge-patch';
import { goQuote } from '../shared/go.js';

export type PatchType = 'json' | 'merge' | 'strategic';

/** The HTTP codes a patch can fail with (500: an error upstream returns unconverted, reason ""). */
export type PatchStatus = 400 | 413 | 415 | 422 | 500;

/**
 * A failed patch, as the API server's Status: `status` is the code, `reason` the Status reason
 * (`BadRequest`, `Invalid`, `RequestEntityTooLarge`, `UnsupportedMediaType`, or `""` — Go's
 * StatusReasonUnknown — for the 500s), `message` the Status message. For the 422s upstream answers
 * the generic message and drops the library's own text; `detail` keeps that text for the lab's log.
 */
export class PatchError extends Error {
  constructor(
    readonly status: PatchStatus,
    readonly reason: string,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'PatchError';
  }
}

/** apimachinery NewGenericServerResponse's message for 422 (its serverMessage is not kept). */
const GENERIC_INVALID = 'the server rejected our request due to an error in our request';
const badRequest = (message: string) => new PatchError(400, 'BadRequest', message);
const invalid = (detail: string) => new PatchError(422, 'Invalid', GENERIC_INVALID, detail);
const internal = (message: string) => new PatchError(500, '', message);

/** handlers/patch.go maxJSONPatchOperations. */
const MAX_JSON_PATCH_OPERATIONS = 10000;
/** jsonpatch.AccumulatedCopySizeLimit as kube-apiserver sets it (server.Config JSONPatchMaxCopyBytes). */
const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

/** The patch type of a Content-Type header (its `;` parameters cut, as upstream does); server-side apply is not one. */
export function patchTypeOf(contentType: string): PatchType | undefined {
  const idx = contentType.indexOf(';');
  const ct = idx > 0 ? contentType.slice(0, idx) : contentType;
  switch (ct) {
    case 'application/json-patch+json':
      return 'json';
    case 'application/merge-patch+json':
      return 'merge';
    case 'application/strategic-merge-patch+json':
      return 'strategic';
    default:
      return undefined;
  }
}

/** Applies a decoded patch body of the given type to `obj` (a `kind` object); a new object. */
export function applyPatch(obj: object, patchBody: unknown, type: PatchType, kind: string): object {
  switch (type) {
    case 'json':
      return applyJsonPatch(obj, patchBody);
    case 'merge':
      return applyMergePatch(obj, patchBody);
    case 'strategic':
      return applyStrategicMergePatch(obj, patchBody, kind);
  }
}

// ---- Go's text for JSON values ------------------------------------------------------------------

type JMap = Record<string, unknown>;

const isMap = (v: unknown): v is JMap => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (m: object, k: string): boolean => Object.prototype.hasOwnProperty.call(m, k);
const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** Sets an own property, `__proto__` included (JSON.parse makes it an ordinary key; so does Go). */
function setKey(m: JMap, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(m, k, { value: v, writable: true, enumerable: true, configurable: true });
  else m[k] = v;
}

/** The JSON kind encoding/json names in an UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v; // string, number
}

/** The Go type a decoded JSON value has in a map[string]interface{} (ints preserved as int64). */
type GoType = 'nil' | 'string' | 'bool' | 'int64' | 'float64' | 'slice' | 'map';
function goType(v: unknown): GoType {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return isGoInt(v as number) ? 'int64' : 'float64';
}
const isGoInt = (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 63;

/** reflect.Type.String() of a value (`%s` of a nil reflect.Type is `%!s(<nil>)`). */
function goTypeName(v: unknown): string {
  switch (goType(v)) {
    case 'nil':
      return '%!s(<nil>)';
    case 'slice':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    default:
      return goType(v);
  }
}

/** strconv.FormatFloat(x, 'g', -1, 64), what `%v` prints for a float64: %e when the exponent is < -4 or >= 6. */
function goFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const [mant, e] = x.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(x);
}

/** fmt's `%v` (or `%s` with verbS) of a decoded JSON value: `map[k:v ...]` with sorted keys, `[a b]`, `<nil>`. */
function goSprint(v: unknown, verbS = false): string {
  switch (goType(v)) {
    case 'nil':
      return verbS ? '%!s(<nil>)' : '<nil>';
    case 'string':
      return v as string;
    case 'bool':
      return verbS ? `%!s(bool=${String(v)})` : String(v);
    case 'int64': {
      const s = Object.is(v, -0) ? '0' : String(v);
      return verbS ? `%!s(int64=${s})` : s;
    }
    case 'float64':
      return verbS ? `%!s(float64=${goFloat(v as number)})` : goFloat(v as number);
    case 'slice':
      return `[${(v as unknown[]).map((e) => goSprint(e, verbS)).join(' ')}]`;
    case 'map': {
      const m = v as JMap;
      const keys = Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `map[${keys.map((k) => `${k}:${goSprint(m[k], verbS)}`).join(' ')}]`;
    }
  }
}

/** strconv.Atoi: the int, or the error's text. */
function goAtoi(s: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(s)) return `strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`;
  const n = Number(s);
  if (Math.abs(n) >= 2 ** 63) return `strconv.Atoi: parsing ${goQuote(s)}: value out of range`;
  return n;
}

// ---- application/json-patch+json: RFC 6902 as evanphx/json-patch v4 applies it -----------------

/** handlers/patch.go decodes the body into []jsonPatchOp first (fieldValidation Warn, the default, or Strict). */
function decodeJsonPatch(body: unknown): unknown[] {
  if (body === null) return [];
  if (!Array.isArray(body)) throw badRequest(`error decoding patch: json: cannot unmarshal ${jsonKind(body)} into Go value of type []handlers.jsonPatchOp`);
  for (const op of body) {
    if (op === null) continue;
    if (!isMap(op)) throw badRequest(`error decoding patch: json: cannot unmarshal ${jsonKind(op)} into Go value of type handlers.jsonPatchOp`);
    for (const [k, v] of Object.entries(op)) {
      if ((k === 'op' || k === 'path' || k === 'from') && v !== null && typeof v !== 'string') {
        throw badRequest(`error decoding patch: json: cannot unmarshal ${jsonKind(v)} into Go struct field jsonPatchOp.${k} of type string`);
      }
    }
  }
  if (body.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new PatchError(413, 'RequestEntityTooLarge', `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${body.length}`);
  }
  return body;
}

/** A map or an array inside the document, with its canonical JSON pointer. */
type Container = { map: JMap; ptr: string } | { arr: unknown[]; ptr: string };
type Got = { value: unknown; ptr: string } | { err: string };

function containerOf(v: unknown, ptr: string): Container | undefined {
  if (Array.isArray(v)) return { arr: v, ptr };
  if (isMap(v)) return { map: v, ptr };
  return undefined;
}

/** An array index as evanphx reads it (negative counts from the end), or the error text. */
function arrayIndex(key: string, len: number): number | string {
  const idx = goAtoi(key);
  if (typeof idx === 'string') return idx;
  if (idx < 0) {
    if (idx < -len) return `Unable to access invalid index: ${idx}: invalid index referenced`;
    return idx + len;
  }
  if (idx >= len) return `Unable to access invalid index: ${idx}: invalid index referenced`;
  return idx;
}

/** container.get: a map's missing key is no error (the value is undefined). */
function getIn(con: Container, key: string): Got {
  if ('map' in con) return { value: has(con.map, key) ? con.map[key] : undefined, ptr: `${con.ptr}/${jsonpatch.escapePathComponent(key)}` };
  const idx = arrayIndex(key, con.arr.length);
  if (typeof idx === 'string') return { err: idx };
  return { value: con.arr[idx], ptr: `${con.ptr}/${idx}` };
}

/** evanphx findObject: the container of the path's last token and that token; undefined when missing. */
function findObject(doc: unknown, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let con = containerOf(doc, '');
  if (!con) return undefined;
  // evanphx skips the first token (before the first "/") whatever it is.
  for (const part of split.slice(1, -1)) {
    const got = getIn(con, jsonpatch.unescapePathComponent(part));
    if ('err' in got || got.value === undefined || got.value === null) return undefined;
    con = containerOf(got.value, got.ptr);
    if (!con) return undefined;
  }
  return { con, key: jsonpatch.unescapePathComponent(split[split.length - 1]!) };
}

/** Runs one operation through fast-json-patch on the canonical pointer (validation is ours). */
function mutate(doc: unknown, op: jsonpatch.Operation): void {
  try {
    jsonpatch.applyOperation(doc, op, false, true, true);
  } catch (e) {
    throw invalid((e as Error).message);
  }
}

/** container.add; the error text or undefined. */
function addTo(doc: unknown, con: Container, key: string, value: unknown): string | undefined {
  if ('map' in con) {
    mutate(doc, { op: 'add', path: `${con.ptr}/${jsonpatch.escapePathComponent(key)}`, value });
    return undefined;
  }
  if (key === '-') {
    mutate(doc, { op: 'add', path: `${con.ptr}/-`, value });
    return undefined;
  }
  let idx = goAtoi(key);
  if (typeof idx === 'string') return `value was not a proper array index: '${key}': ${idx}`;
  const size = con.arr.length + 1;
  if (idx >= size || idx < -size) return `Unable to access invalid index: ${idx}: invalid index referenced`;
  if (idx < 0) idx += size;
  mutate(doc, { op: 'add', path: `${con.ptr}/${idx}`, value });
  return undefined;
}

/** container.remove; the error text or undefined. */
function removeFrom(doc: unknown, con: Container, key: string): string | undefined {
  if ('map' in con) {
    if (!has(con.map, key)) return `Unable to remove nonexistent key: ${key}: missing value`;
    mutate(doc, { op: 'remove', path: `${con.ptr}/${jsonpatch.escapePathComponent(key)}` });
    return undefined;
  }
  let idx = goAtoi(key);
  if (typeof idx === 'string') return idx;
  const len = con.arr.length;
  if (idx >= len || idx < -len) return `Unable to access invalid index: ${idx}: invalid index referenced`;
  if (idx < 0) idx += len;
  mutate(doc, { op: 'remove', path: `${con.ptr}/${idx}` });
  return undefined;
}

/** An operation's value: a missing or null value is null (evanphx's nil node). */
const opValue = (op: JMap): unknown => clone(has(op, 'value') && op.value !== undefined ? op.value : null);

/** One operation, evanphx v4's semantics and error texts; the (possibly new) document. */
function applyOperation(doc: unknown, op: JMap, copied: { bytes: number }): unknown {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  const path = typeof op.path === 'string' ? op.path : undefined;
  const from = typeof op.from === 'string' ? op.from : undefined;
  switch (kind) {
    case 'add': {
      if (path === undefined) throw invalid('add operation failed to decode path: missing value');
      const f = findObject(doc, path);
      if (!f) throw invalid(`add operation does not apply: doc is missing path: "${path}": missing value`);
      const err = addTo(doc, f.con, f.key, opValue(op));
      if (err) throw invalid(`error in add for path: '${path}': ${err}`);
      return doc;
    }
    case 'remove': {
      if (path === undefined) throw invalid('remove operation failed to decode path: missing value');
      const f = findObject(doc, path);
      if (!f) throw invalid(`remove operation does not apply: doc is missing path: "${path}": missing value`);
      const err = removeFrom(doc, f.con, f.key);
      if (err) throw invalid(`error in remove for path: '${path}': ${err}`);
      return doc;
    }
    case 'replace': {
      if (path === undefined) throw invalid('replace operation failed to decode path: operation missing path field: missing value');
      if (path === '') {
        const v = has(op, 'value') ? op.value : undefined;
        if (typeof v !== 'object' || v === null) throw invalid('replace operation value must be object or array: %!w(<nil>)');
        return clone(v);
      }
      const f = findObject(doc, path);
      if (!f) throw invalid(`replace operation does not apply: doc is missing path: ${path}: missing value`);
      const got = getIn(f.con, f.key);
      if ('err' in got) throw invalid(`replace operation does not apply: doc is missing key: ${path}: missing value`);
      // v4 quirk: a map's missing key is no error, so replace adds it.
      mutate(doc, { op: got.value === undefined ? 'add' : 'replace', path: got.ptr, value: opValue(op) });
      return doc;
    }
    case 'move': {
      if (from === undefined) throw invalid('move operation failed to decode from: operation, missing from field: missing value');
      const f = findObject(doc, from);
      if (!f) throw invalid(`move operation does not apply: doc is missing from path: ${from}: missing value`);
      const got = getIn(f.con, f.key);
      if ('err' in got) throw invalid(`error in move for path: '${f.key}': ${got.err}`);
      const value = got.value ?? null;
      const rerr = removeFrom(doc, f.con, f.key);
      if (rerr) throw invalid(`error in move for path: '${f.key}': ${rerr}`);
      if (path === undefined) throw invalid('move operation failed to decode path: operation missing path field: missing value');
      const t = findObject(doc, path);
      if (!t) throw invalid(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
      const aerr = addTo(doc, t.con, t.key, value);
      if (aerr) throw invalid(`error in move for path: '${path}': ${aerr}`);
      return doc;
    }
    case 'test': {
      if (path === undefined) throw invalid('test operation failed to decode path: operation missing path field: missing value');
      const hasValue = has(op, 'value') && op.value !== undefined;
      if (path === '') {
        if (!hasValue || !jsonpatch._areEquals(doc, op.value)) throw invalid(`testing value ${path} failed: test failed`);
        return doc;
      }
      const f = findObject(doc, path);
      if (!f) throw invalid(`test operation does not apply: is missing path: ${path}: missing value`);
      const got = getIn(f.con, f.key);
      if ('err' in got) throw invalid(`error in test for path: '${path}': ${got.err}`);
      // A missing or null value passes a test for null or for no value at all.
      if (got.value === undefined || got.value === null) {
        if (!hasValue || op.value === null) return doc;
        throw invalid(`testing value ${path} failed: test failed`);
      }
      if (!hasValue) throw invalid(`testing value ${path} failed: test failed`);
      try {
        jsonpatch.applyOperation(doc, { op: 'test', path: got.ptr, value: op.value }, false, true, true);
      } catch (e) {
        if (e instanceof jsonpatch.JsonPatchError && e.name === 'TEST_OPERATION_FAILED') throw invalid(`testing value ${path} failed: test failed`);
        throw invalid((e as Error).message);
      }
      return doc;
    }
    case 'copy': {
      if (from === undefined) throw invalid('copy operation failed to decode from: operation, missing from field: missing value');
      const f = findObject(doc, from);
      if (!f) throw invalid(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
      const got = getIn(f.con, f.key);
      if ('err' in got) throw invalid(`error in copy for from: '${from}': ${got.err}`);
      if (path === undefined) throw invalid('copy operation failed to decode path: missing value');
      const t = findObject(doc, path);
      if (!t) throw invalid(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
      if (got.value !== undefined && got.value !== null) {
        copied.bytes += Buffer.byteLength(JSON.stringify(got.value));
        if (copied.bytes > JSON_PATCH_MAX_COPY_BYTES) {
          throw invalid(`Unable to complete the copy, the accumulated size increase of copy is ${copied.bytes}, exceeding the limit ${JSON_PATCH_MAX_COPY_BYTES}`);
        }
      }
      const aerr = addTo(doc, t.con, t.key, clone(got.value ?? null));
      if (aerr) throw invalid(`error while adding value during copy: ${aerr}`);
      return doc;
    }
    default:
      throw invalid(`Unexpected kind: ${kind}`);
  }
}

/**
 * application/json-patch+json. A body that is not a list of operations is 400 (the decoding
 * error); an operation that does not apply is 422 with the generic message (evanphx's text in
 * `detail`); more than 10000 operations is 413.
 */
export function applyJsonPatch(obj: object, ops: unknown): object {
  const decoded = decodeJsonPatch(ops);
  let doc: unknown = clone(obj);
  const copied = { bytes: 0 };
  for (const op of decoded) doc = applyOperation(doc, isMap(op) ? op : {}, copied);
  return doc as object;
}

// ---- application/merge-patch+json: RFC 7386 as evanphx/json-patch v4 MergePatch applies it -----

/** evanphx pruneNulls: drops null members of maps, also inside arrays (null elements stay). */
function pruneNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((e) => (e === null ? e : pruneNulls(e)));
  if (isMap(v)) {
    const out: JMap = {};
    for (const [k, e] of Object.entries(v)) if (e !== null) setKey(out, k, pruneNulls(e));
    return out;
  }
  return v;
}

/**
 * The patch rewritten so that RFC 7386 (json-merge-patch) gives evanphx's result: a value merged
 * over a missing, null or non-map member has its nulls pruned, arrays' maps included (RFC 7386
 * copies arrays untouched); a non-map over a map is taken as it is.
 */
function evanphxMergePatch(target: unknown, patch: JMap): JMap {
  const out: JMap = {};
  for (const [k, v] of Object.entries(patch)) {
    const cur = isMap(target) && has(target, k) ? target[k] : undefined;
    if (v === null) setKey(out, k, v);
    else if (isMap(cur)) setKey(out, k, isMap(v) ? evanphxMergePatch(cur, v) : v);
    else setKey(out, k, pruneNulls(v));
  }
  return out;
}

/** application/merge-patch+json (RFC 7386). A body that is not a JSON object is 400. */
export function applyMergePatch(obj: object, patch: unknown): object {
  if (patch === null) throw badRequest('Invalid JSON Patch');
  if (!isMap(patch)) throw badRequest(`error decoding patch: json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`);
  const target = clone(obj);
  return mergePatchApply(target, evanphxMergePatch(target, patch)) as object;
}

// ---- application/strategic-merge-patch+json -----------------------------------------------------

/**
 * The patch metadata of a field (its Go struct tags): `merge` is patchStrategy "merge",
 * `key` the patchMergeKey, `retainKeys` the "retainKeys" strategy (only kubectl's diff uses it;
 * the server acts on a `$retainKeys` directive wherever it is), `of` the metadata of the fields of
 * the field's struct (of its elements for a list), `elem` the Go kind of a list's elements when
 * not a struct. A field not listed has no strategy: maps merge, lists are replaced.
 */
interface FieldMeta {
  merge?: true;
  key?: string;
  retainKeys?: true;
  of?: Schema;
  elem?: 'string';
}
type Schema = Readonly<Record<string, FieldMeta>>;

const merge = (key?: string, extra: Omit<FieldMeta, 'merge' | 'key'> = {}): FieldMeta => ({ merge: true, ...(key ? { key } : {}), ...extra });

/** meta/v1 ObjectMeta. managedFields has no strategy. */
const OBJECT_META: Schema = {
  ownerReferences: merge('uid'),
  finalizers: merge(undefined, { elem: 'string' }),
};

/** core/v1 Container and EphemeralContainerCommon. resizePolicy, command, args, envFrom, resources.claims: none. */
const CONTAINER: Schema = {
  ports: merge('containerPort'),
  env: merge('name'),
  volumeMounts: merge('mountPath'),
  volumeDevices: merge('devicePath'),
};

/** core/v1 PodSpec. tolerations, readinessGates, hostAliases[].hostnames, dnsConfig lists: none. */
const POD_SPEC: Schema = {
  volumes: merge('name', { retainKeys: true }),
  initContainers: merge('name', { of: CONTAINER }),
  containers: merge('name', { of: CONTAINER }),
  ephemeralContainers: merge('name', { of: CONTAINER }),
  imagePullSecrets: merge('name'),
  hostAliases: merge('ip'),
  topologySpreadConstraints: merge('topologyKey'),
  schedulingGates: merge('name'),
  resourceClaims: merge('name', { retainKeys: true }),
  evictionResponders: merge('name'),
};

/**
 * core/v1 PodStatus. containerStatuses, initContainerStatuses and ephemeralContainerStatuses have
 * no strategy (replaced whole; the merge tags inside ContainerStatus are never reached).
 */
const POD_STATUS: Schema = {
  conditions: merge('type'),
  hostIPs: merge('ip'),
  podIPs: merge('ip'),
  resourceClaimStatuses: merge('name', { retainKeys: true }),
  nodeAllocatableResourceClaimStatuses: merge('resourceClaimName', { of: { mapping: merge('name'), overhead: merge('name') } }),
};

const META = { metadata: { of: OBJECT_META } } as const;

/** The patch metadata of each kind the lab serves. Node spec.taints and Namespace spec.finalizers: none. */
const SCHEMAS: Readonly<Record<string, Schema>> = {
  Pod: { ...META, spec: { of: POD_SPEC }, status: { of: POD_STATUS } },
  Node: { ...META, spec: { of: { podCIDRs: merge(undefined, { elem: 'string' }) } }, status: { of: { conditions: merge('type'), addresses: merge('type') } } },
  Namespace: { ...META, status: { of: { conditions: merge('type') } } },
  ConfigMap: META,
  Secret: META,
  Event: META,
};

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

// mergepatch/errors.go
const errNoMergeKey = (m: JMap, k: string) => internal(`map: ${goSprint(m)} does not contain declared merge key: ${k}`);
const errBadArgType = (expected: 'map' | 'slice', actual: unknown) =>
  internal(`expected a ${expected === 'map' ? 'map[string]interface {}' : '[]interface {}'}, but received a ${goTypeName(actual)}`);
const errBadPatchType = (t: unknown, m: JMap) => internal(`unknown patch type: ${goSprint(t, true)} in map: ${goSprint(m)}`);
const errNoListOfLists = () => invalid('lists of lists are not supported');
const errBadRetainKeys = () => badRequest('invalid patch format of retainKeys');

interface Lookup {
  schema: Schema;
  meta: FieldMeta;
}
function lookup(schema: Schema, key: string): Lookup {
  const meta = has(schema, key) ? schema[key]! : {};
  return { schema: meta.of ?? {}, meta };
}

/** Go's == on two interface values holding decoded JSON (maps never compare equal here). */
const goEq = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/** extractKey: the field a `$prefix/field` key names. */
function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    throw badRequest(prefix === DELETE_FROM_PRIMITIVE_LIST ? 'invalid patch format of primitive list' : 'invalid patch format of setElementOrder list');
  }
  return s.slice(slash + 1);
}

/** removeDirectives: drops every map holding `$patch`; [value, keep]. Mutates. */
function removeDirectives(v: unknown): [unknown, boolean] {
  if (isMap(v)) {
    if (has(v, DIRECTIVE)) return [undefined, false];
    for (const k of Object.keys(v)) {
      const [nv, keep] = removeDirectives(v[k]);
      if (keep) setKey(v, k, nv);
      else delete v[k];
    }
    return [v, true];
  }
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const e of v) {
      const [ne, keep] = removeDirectives(e);
      if (keep) out.push(ne);
    }
    return [out, true];
  }
  return [v, true];
}

/** discardNullValuesFromPatch. Mutates. */
function discardNulls(v: unknown): void {
  if (isMap(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNulls(v[k]);
    }
  } else if (Array.isArray(v)) {
    for (const e of v) discardNulls(e);
  }
}

/** sliceElementType: the one Go type of all elements. */
function sliceElementType(slices: unknown[][]): GoType {
  let prev: GoType | undefined;
  for (const s of slices) {
    for (const v of s) {
      const t = goType(v);
      if (prev === undefined) {
        prev = t;
        if (t === 'slice') throw errNoListOfLists();
      } else if (prev !== t) {
        throw internal(`list element types are not identical: ${goSprint(slices)}`);
      }
    }
  }
  if (prev === undefined) throw internal('no elements in any of the given slices');
  return prev;
}

/** findMapInSliceBasedOnKeyValue: the index of the first map whose merge key equals `value`, or -1. */
function findByKey(list: unknown[], key: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (!isMap(m)) throw internal(`value for key ${i} is not a map`);
    if (has(m, key) && goEq(m[key], value)) return i;
  }
  return -1;
}

/** index: the position of an item (a map by its merge key) in a list, or -1. */
function indexIn(list: unknown[], item: unknown, mergeKey: string, kind: GoType): number {
  const val = (x: unknown) => (kind === 'map' ? (isMap(x) ? x[mergeKey] : undefined) : x);
  const want = val(item);
  return list.findIndex((x) => goEq(val(x), want));
}

function validateMergeKeyInLists(mergeKey: string, lists: unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isMap(item)) throw errBadArgType('map', item);
      if (!has(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** extractToDeleteItems: [kept, `$patch: delete` items]. */
function extractToDeleteItems(list: unknown[]): [unknown[], unknown[]] {
  const keep: unknown[] = [];
  const del: unknown[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map', v);
    if (has(v, DIRECTIVE) && v[DIRECTIVE] === 'delete') del.push(v);
    else keep.push(v);
  }
  return [keep, del];
}

/** normalizeSliceOrder: `toSort` in the order of `order` (stable), deletions last. */
function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: GoType): unknown[] {
  let del: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, [toSort, order]);
    [toSort, del] = extractToDeleteItems(toSort);
  }
  const sorted = toSort
    .map((v) => ({ v, i: indexIn(order, v, mergeKey, kind) }))
    .sort((a, b) => (a.i >= 0 && b.i >= 0 ? a.i - b.i : 0))
    .map((e) => e.v);
  return [...sorted, ...del];
}

/**
 * mergeSortedSlice: interleaves the server-only items (left) into the patch items (right), both
 * already sorted; a left item goes first only when both are in the live list and it came first
 * there — so an item new to the list lands before the server-only ones.
 */
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: GoType): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function normalizeElementOrder(patch: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, kind: GoType): unknown[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/** partitionPrimitivesByPresentInList: [in `by`, not in `by`]. */
function partitionPrimitives(list: unknown[], by: unknown[]): [unknown[], unknown[]] {
  const inBy = new Set(by.filter((v) => typeof v !== 'object' || v === null));
  const yes: unknown[] = [];
  const no: unknown[] = [];
  for (const v of list) (inBy.has(v) ? yes : no).push(v);
  return [yes, no];
}

/** partitionMapsByPresentInList: [merge key in `by`, not in `by`]. */
function partitionMaps(list: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const yes: unknown[] = [];
  const no: unknown[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map', v);
    if (!has(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    (findByKey(by, mergeKey, v[mergeKey]) >= 0 ? yes : no).push(v);
  }
  return [yes, no];
}

/** mergeSliceWithSpecialElements: applies `$patch: delete|replace` items; [original, patch]. */
function mergeSliceWithSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const rest: unknown[] = [];
  let replace = false;
  let orig = original;
  for (const v of patch) {
    const m = v as JMap;
    if (!has(m, DIRECTIVE)) {
      rest.push(v);
      continue;
    }
    const d = m[DIRECTIVE];
    if (d === 'delete') {
      if (!has(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      const value = m[mergeKey];
      for (let i = findByKey(orig, mergeKey, value); i >= 0; i = findByKey(orig, mergeKey, value)) orig = [...orig.slice(0, i), ...orig.slice(i + 1)];
    } else if (d === 'replace') {
      replace = true;
    } else if (d === 'merge') {
      throw internal('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(d, m);
    }
  }
  return replace ? [rest, []] : [orig, rest];
}

/** mergeSliceWithoutSpecialElements: merges each patch item into the item with its merge key, or appends it. */
function mergeSliceWithoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, schema: Schema): unknown[] {
  let out = original;
  for (const v of patch) {
    const m = v as JMap;
    if (!has(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
    const i = findByKey(out, mergeKey, m[mergeKey]);
    if (i >= 0) {
      out = [...out];
      out[i] = mergeMap(out[i] as JMap, m, schema);
    } else {
      out = [...out, v];
    }
  }
  return out;
}

function mergeSlice(original: unknown[], patch: unknown[], l: Lookup, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType([original, patch]);
  const mergeKey = l.meta.key ?? '';
  let merged: unknown[];
  if (kind !== 'map') {
    if (isDeleteList) {
      const del = new Set(patch);
      return original.filter((v) => !del.has(v));
    }
    // deduplicateScalars (its reordering is undone by the ordering below)
    merged = [...new Set([...original, ...patch])];
  } else {
    if (!mergeKey) throw internal(`cannot merge lists without merge key for ${l.meta.elem ?? 'struct'}`);
    [original, patch] = mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = mergeSliceWithoutSpecialElements(original, patch, mergeKey, l.schema);
  }
  const [patchItems, serverOnly] = mergeKey ? partitionMaps(merged, patch, mergeKey) : partitionPrimitives(merged, patch);
  return normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, kind);
}

/**
 * What the live list's backing array holds once mergeSlice has run on it, which is what
 * mergePatchIntoOriginal then orders the server-only items by: Go's deleteMatchingEntries shifts
 * the array's items left in place (`append(s[:i], s[i+1:]...)`) and mergeSliceWithoutSpecialElements
 * appends new items into the room that leaves, so the first len(live) slots are the list after
 * deletions, then the first appended items, then stale copies of the old tail. (The live list's
 * capacity is taken to be its length; slots past it are outside the view either way.)
 */
function backingArrayAfterMerge(original: unknown[], patch: unknown[], mergeKey: string): unknown[] {
  const arr = [...original];
  let len = arr.length;
  let replaced = false;
  for (const v of patch) {
    if (!isMap(v) || !has(v, DIRECTIVE)) continue;
    if (v[DIRECTIVE] === 'replace') replaced = true;
    if (v[DIRECTIVE] !== 'delete') continue;
    for (let i = findByKey(arr.slice(0, len), mergeKey, v[mergeKey]); i >= 0; i = findByKey(arr.slice(0, len), mergeKey, v[mergeKey])) {
      arr.copyWithin(i, i + 1, len);
      len--;
    }
  }
  if (replaced) return arr;
  const current = arr.slice(0, len);
  for (const v of patch) {
    if (!isMap(v) || has(v, DIRECTIVE) || findByKey(current, mergeKey, v[mergeKey]) >= 0) continue;
    current.push(v);
    if (len < arr.length) arr[len++] = v;
  }
  return arr;
}

/** mergeSliceHandler: merge strategy (or a deletion list) merges; otherwise the patch list replaces. */
function mergeSliceHandler(original: unknown, patch: unknown, l: Lookup, isDeleteList: boolean): unknown[] {
  if (!Array.isArray(original)) throw errBadArgType('slice', original);
  if (!Array.isArray(patch)) throw errBadArgType('slice', patch);
  if (l.meta.merge || isDeleteList) return mergeSlice(original, patch, l, isDeleteList);
  return patch;
}

/** applyRetainKeysDirective: clears the original's keys missing from `$retainKeys`. */
function applyRetainKeys(original: JMap, patch: JMap): void {
  if (!has(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw errBadRetainKeys();
  const keep = new Set(list);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw errBadRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/** validatePatchWithSetOrderList: the patch items appear in `$setElementOrder`'s order. */
function validatePatchWithSetOrderList(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? extractToDeleteItems(patchList)[0] : patchList;
  const keyEqual = (left: unknown, right: unknown): boolean => {
    if (!mergeKey) return goEq(left, right);
    if (!isMap(left)) throw errBadArgType('map', left);
    if (!isMap(right)) throw errBadArgType('map', right);
    if (!has(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
    if (!has(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
    return goEq(left[mergeKey], right[mergeKey]);
  };
  let pi = 0;
  let si = 0;
  while (pi < nonDelete.length && si < order.length) {
    const item = nonDelete[pi];
    if (isMap(item) && has(item, DIRECTIVE)) {
      pi++;
      continue;
    }
    if (keyEqual(item, order[si])) pi++;
    si++;
  }
  if (pi < nonDelete.length && si >= order.length) {
    throw internal(`The order in patch list:\n${goSprint(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goSprint(order)}\n`);
  }
}

/** mergePatchIntoOriginal: each `$setElementOrder/<field>` with its list, merged and ordered. */
function mergePatchIntoOriginal(original: JMap, patch: JMap, schema: Schema): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER) || !has(patch, key)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw errBadArgType('slice', order);
    const field = extractKey(key, SET_ELEMENT_ORDER);
    const foundOriginal = has(original, field);
    const foundPatch = has(patch, field);
    let originalList: unknown[] = [];
    let patchList: unknown[] = [];
    if (foundOriginal) {
      if (!Array.isArray(original[field])) throw errBadArgType('slice', original[field]);
      originalList = original[field] as unknown[];
    }
    if (foundPatch) {
      if (!Array.isArray(patch[field])) throw errBadArgType('slice', patch[field]);
      patchList = patch[field] as unknown[];
    }
    const l = lookup(schema, field);
    const mergeKey = l.meta.key ?? '';
    validatePatchWithSetOrderList(patchList, order, mergeKey);
    let merged: unknown[];
    let serverOrder = originalList;
    if (foundOriginal && !foundPatch) merged = originalList;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchList)[0] as unknown[];
    else if (foundOriginal && foundPatch) {
      const mapsMerged = l.meta.merge && mergeKey && originalList.length + patchList.length > 0 && [...originalList, ...patchList].every(isMap);
      const view = mapsMerged ? backingArrayAfterMerge(originalList, patchList, mergeKey) : originalList;
      merged = mergeSliceHandler(originalList, patchList, l, false);
      serverOrder = view;
    } else continue;
    const [patchItems, serverOnly] = mergeKey ? partitionMaps(merged, order, mergeKey) : partitionPrimitives(merged, order);
    const kind = sliceElementType([serverOrder, patchList]);
    setKey(original, field, normalizeElementOrder(patchItems, serverOnly, order, serverOrder, mergeKey, kind));
    delete patch[field];
  }
}

/** mergeMap (server side: parallel lists merged, unmatched nulls ignored). Mutates both; returns the result. */
function mergeMap(original: JMap | undefined, patch: JMap, schema: Schema): JMap {
  if (has(patch, DIRECTIVE)) {
    const d = patch[DIRECTIVE];
    if (d === 'replace') {
      delete patch[DIRECTIVE];
      return patch;
    }
    if (d === 'delete') return {};
    throw errBadPatchType(d, patch);
  }
  const orig = original ?? {};
  applyRetainKeys(orig, patch);
  mergePatchIntoOriginal(orig, patch, schema);
  for (const key of Object.keys(patch)) {
    const patchV = patch[key];
    let k = key;
    let isDeleteList = false;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      k = extractKey(key, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete orig[k];
      continue;
    }
    if (!has(orig, k) || goType(orig[k]) !== goType(patchV)) {
      if (!isDeleteList) {
        discardNulls(patchV);
        const [v, keep] = removeDirectives(patchV);
        if (keep) setKey(orig, k, v);
        else delete orig[k];
      }
      continue;
    }
    const cur = orig[k];
    if (isMap(cur)) setKey(orig, k, mergeMap(cur, patchV as JMap, lookup(schema, k).schema));
    else if (Array.isArray(cur)) setKey(orig, k, mergeSliceHandler(cur, patchV, lookup(schema, k), isDeleteList));
    else setKey(orig, k, patchV);
  }
  return orig;
}

/**
 * application/strategic-merge-patch+json for a Pod, ConfigMap, Secret, Event, Node or Namespace.
 * A body that is not a JSON object is 400 (null patches nothing); upstream's errors keep their
 * codes: malformed directives 400, lists of lists 422, the rest (a list item without its merge key,
 * an unknown `$patch`, ...) 500 with the error's text. Another kind is 415, as for custom resources.
 */
export function applyStrategicMergePatch(original: object, patch: unknown, kind: string): object {
  const schema = has(SCHEMAS, kind) ? SCHEMAS[kind] : undefined;
  if (!schema) {
    throw new PatchError(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json');
  }
  if (patch === null) return clone(original);
  if (!isMap(patch)) throw badRequest(`json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`);
  return mergeMap(clone(original) as JMap, clone(patch), schema);
}
