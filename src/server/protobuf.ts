// Request bodies in the Kubernetes protobuf encoding (`Content-Type: application/vnd.kubernetes.protobuf`),
// decoded into the object the API server would have received as JSON. Upstream counterparts:
// k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go (the `k8s\0` prefix and the
// runtime.Unknown envelope), the go-to-protobuf generated.proto of k8s.io/api and apimachinery (the
// messages), and encoding/json over the Go types (what JSON those Go values marshal to).
//
// kubectl 1.32+ sends its typed-client writes this way: `create configmap`, `create secret
// generic|docker-registry|tls`, `create namespace`, `debug --copy-to`, `debug node/…`, `auth can-i`
// (SelfSubjectAccessReview / SelfSubjectRulesReview) and `drain`'s pod deletes (DeleteOptions). It accepts
// JSON answers (it asks for `application/vnd.kubernetes.protobuf,application/json`).
//
// The message definitions are ./proto/k8s.json, a protobufjs JSON descriptor generated once from the
// upstream v0.33.1 generated.proto files and Go types: only the messages reachable from the kinds below,
// each field annotated with its Go shape (`ptr`: a pointer; `omitempty`, `inline`, `skip`: its json tag).
// The Go shape decides the JSON, as the API server's own decode → Go struct → JSON would:
//   - a pointer field is present iff it was on the wire, and then kept even when zero (`false`, `0`, `""`);
//     absent, it is omitted (or `null` without omitempty);
//   - a non-pointer scalar (which Go's generated marshaller always writes) is omitted when zero and
//     omitempty, else kept (zero when absent);
//   - a non-pointer struct is always there (`{}`), an `,inline` one is merged into its parent;
//   - an empty slice, map or []byte is omitted with omitempty, else `null`;
//   - metav1.Time → RFC 3339 seconds in UTC (`null` when zero), MicroTime → 6 fractional digits,
//     resource.Quantity → its string, intstr.IntOrString → number or string, []byte → base64,
//     FieldsV1 → its embedded JSON; map keys are sorted as encoding/json sorts them.
import * as protobuf from 'protobufjs/light.js';
import descriptor from './proto/k8s.json';

/** The prefix of every protobuf-encoded Kubernetes object (runtime/serializer/protobuf). */
const PROTOBUF_PREFIX = Buffer.from([0x6b, 0x38, 0x73, 0x00]); // "k8s\0"

const CORE = 'k8s.io.api.core.v1';
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const AUTHZ = 'k8s.io.api.authorization.v1';

/** The kinds decoded, by apiVersion then kind: their message in the descriptor. */
const KINDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  v1: {
    Pod: `${CORE}.Pod`,
    ConfigMap: `${CORE}.ConfigMap`,
    Secret: `${CORE}.Secret`,
    Namespace: `${CORE}.Namespace`,
    Event: `${CORE}.Event`,
    Binding: `${CORE}.Binding`,
    Node: `${CORE}.Node`,
    DeleteOptions: `${META}.DeleteOptions`,
  },
  'authorization.k8s.io/v1': {
    SelfSubjectAccessReview: `${AUTHZ}.SelfSubjectAccessReview`,
    SelfSubjectRulesReview: `${AUTHZ}.SelfSubjectRulesReview`,
  },
};

/**
 * metav1.AddToGroupVersion registers DeleteOptions in every group version, and clients send it as
 * `v1` or `meta.k8s.io/v1` (or their own group's version).
 */
const EVERY_VERSION: Readonly<Record<string, string>> = { DeleteOptions: `${META}.DeleteOptions` };

/** The apiVersion/kind pairs decodeProtobufBody knows. */
export const PROTOBUF_KINDS: readonly { apiVersion: string; kind: string }[] = Object.entries(KINDS).flatMap(([apiVersion, kinds]) =>
  Object.keys(kinds).map((kind) => ({ apiVersion, kind })),
);

const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
const UNKNOWN = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');

/** `application/vnd.kubernetes.protobuf`, with or without parameters, in any letter case. */
export function isProtobuf(contentType: string): boolean {
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/vnd.kubernetes.protobuf';
}

/**
 * Decodes a protobuf request body (`k8s\0` + runtime.Unknown{typeMeta, raw}) into the JSON object the
 * same client would have sent as JSON: `kind` and `apiVersion` from the envelope, then the message's
 * fields. Throws an Error (the API server's wording where it has one) for a body without the prefix,
 * an empty body, an envelope without kind or version, a kind the lab does not decode, or malformed
 * protobuf.
 */
export function decodeProtobufBody(body: Buffer): { apiVersion: string; kind: string; object: Record<string, unknown> } {
  if (body.length === 0) throw new Error('empty data');
  if (body.length < PROTOBUF_PREFIX.length || !body.subarray(0, PROTOBUF_PREFIX.length).equals(PROTOBUF_PREFIX)) {
    throw new Error(`provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_PREFIX].join(' ')}]`);
  }
  if (body.length === PROTOBUF_PREFIX.length) throw new Error('empty body');
  const envelope = decodeMessage(UNKNOWN, body.subarray(PROTOBUF_PREFIX.length), 'runtime.Unknown') as {
    typeMeta?: { apiVersion?: string; kind?: string };
    raw?: Uint8Array;
  };
  const apiVersion = envelope.typeMeta?.apiVersion ?? '';
  const kind = envelope.typeMeta?.kind ?? '';
  if (kind === '') throw new Error(`Object 'Kind' is missing in the protobuf envelope (apiVersion ${JSON.stringify(apiVersion)})`);
  if (apiVersion === '') throw new Error(`Object 'apiVersion' is missing in the protobuf envelope (kind ${JSON.stringify(kind)})`);
  const typeName = KINDS[apiVersion]?.[kind] ?? EVERY_VERSION[kind];
  if (typeName === undefined) throw new Error(`no kind "${kind}" is registered for version "${apiVersion}" in the lab server's protobuf decoder`);
  const type = root.lookupType(typeName);
  const message = decodeMessage(type, envelope.raw ?? new Uint8Array(), kind);
  const object: Record<string, unknown> = { kind, apiVersion, ...messageToJSON(type, message) };
  return { apiVersion, kind, object };
}

function decodeMessage(type: protobuf.Type, bytes: Uint8Array, what: string): Decoded {
  try {
    return type.decode(bytes) as unknown as Decoded;
  } catch (e) {
    throw new Error(`malformed protobuf ${what}: ${(e as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Go value → JSON

interface GoShape {
  ptr?: boolean;
  omitempty?: boolean;
  inline?: boolean;
  skip?: boolean;
}

type Decoded = Record<string, unknown>;

const has = (m: object, k: string): boolean => Object.prototype.hasOwnProperty.call(m, k);

function messageToJSON(type: protobuf.Type, message: Decoded): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const go = (field.options ?? {}) as GoShape;
    if (go.skip) continue;
    const name = field.name;
    const value = message[name];
    if (field instanceof protobuf.MapField) {
      const entries = Object.keys((value ?? {}) as object).sort();
      if (entries.length === 0) {
        if (!go.omitempty) out[name] = null;
        continue;
      }
      const map: Record<string, unknown> = {};
      for (const k of entries) map[k] = elementToJSON(field, (value as Decoded)[k]);
      out[name] = map;
      continue;
    }
    if (field.repeated) {
      const list = (value ?? []) as unknown[];
      if (list.length === 0) {
        if (!go.omitempty) out[name] = null;
        continue;
      }
      out[name] = list.map((v) => elementToJSON(field, v));
      continue;
    }
    const present = has(message, name);
    if (go.ptr) {
      if (present) out[name] = elementToJSON(field, value);
      else if (!go.omitempty) out[name] = null;
      continue;
    }
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) {
      // A struct: never omitted by omitempty; the zero struct when absent.
      const v = messageValueToJSON(resolved, present ? (value as Decoded) : undefined);
      if (go.inline) Object.assign(out, v as object);
      else out[name] = v;
      continue;
    }
    if (field.type === 'bytes') {
      // []byte: nil when absent, non-nil (possibly empty) when present.
      const bytes = value as Uint8Array | undefined;
      if (go.omitempty && (!present || bytes!.length === 0)) continue;
      out[name] = present ? base64(bytes!) : null;
      continue;
    }
    const v = present ? scalarToJSON(field.type, value) : zeroOf(field.type);
    if (go.omitempty && (v === 0 || v === '' || v === false)) continue;
    out[name] = v;
  }
  return out;
}

/** One value of a pointer, repeated or map field (a pointer's target is always marshalled). */
function elementToJSON(field: protobuf.Field, value: unknown): unknown {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type) return messageValueToJSON(resolved, value as Decoded);
  if (field.type === 'bytes') return base64(value as Uint8Array);
  return scalarToJSON(field.type, value);
}

/** A message value; the types with their own JSON marshalling by their names. `undefined`: the zero value. */
function messageValueToJSON(type: protobuf.Type, message: Decoded | undefined): unknown {
  const m = message ?? {};
  switch (type.fullName) {
    case `.${META}.Time`:
      return timeToJSON(m, false);
    case `.${META}.MicroTime`:
      return timeToJSON(m, true);
    case '.k8s.io.apimachinery.pkg.api.resource.Quantity':
      // Quantity's proto is its canonical string, the same String() its MarshalJSON writes.
      return has(m, 'string') ? m.string : '0';
    case '.k8s.io.apimachinery.pkg.util.intstr.IntOrString': {
      const t = has(m, 'type') ? toNumber(m.type) : 0;
      if (t === 0) return has(m, 'intVal') ? m.intVal : 0;
      if (t === 1) return has(m, 'strVal') ? m.strVal : '';
      throw new Error('impossible IntOrString.Type');
    }
    case `.${META}.FieldsV1`: {
      if (!has(m, 'Raw')) return null;
      const raw = Buffer.from(m.Raw as Uint8Array).toString('utf8');
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new Error(`malformed protobuf FieldsV1: its raw bytes are not JSON`);
      }
    }
    default:
      return messageToJSON(type, m);
  }
}

const GO_ZERO_TIME_SECONDS = -62135596800; // 0001-01-01T00:00:00Z, Go's zero time.Time

/**
 * metav1.Time / MicroTime (proto: Timestamp{seconds, nanos}). An empty message is the zero time, whose
 * JSON is null. Time drops the nanoseconds when it unmarshals; MicroTime truncates them to microseconds.
 */
function timeToJSON(m: Decoded, micro: boolean): string | null {
  if (!has(m, 'seconds') && !has(m, 'nanos')) return null;
  let seconds = has(m, 'seconds') ? toNumber(m.seconds) : 0;
  let nanos = micro && has(m, 'nanos') ? toNumber(m.nanos) : 0;
  // time.Unix normalises nanoseconds outside [0, 1e9).
  seconds += Math.floor(nanos / 1e9);
  nanos = ((nanos % 1e9) + 1e9) % 1e9;
  const micros = Math.floor(nanos / 1000);
  if (seconds === GO_ZERO_TIME_SECONDS && micros === 0) return null;
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) throw new Error(`malformed protobuf Time: ${seconds} seconds is out of range`);
  const year = d.getUTCFullYear();
  const yyyy = (year < 0 ? '-' : '') + String(Math.abs(year)).padStart(4, '0');
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const base = `${yyyy}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}T${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
  return micro ? `${base}.${String(micros).padStart(6, '0')}Z` : `${base}Z`;
}

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

function scalarToJSON(type: string, value: unknown): unknown {
  return LONG_TYPES.has(type) ? toNumber(value) : value;
}

function zeroOf(type: string): unknown {
  if (type === 'string') return '';
  if (type === 'bool') return false;
  return 0;
}

/** int64 values come as numbers, or as Long objects when the `long` package is loadable. */
function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v !== null && typeof v === 'object') return Number(String(v));
  return Number(v);
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
