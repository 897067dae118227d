// The meta/v1 Status objects the lab server answers errors with, built as the API server builds
// them: k8s.io/apimachinery/pkg/api/errors/errors.go (NewNotFound, NewAlreadyExists, NewConflict,
// NewInvalid, NewBadRequest, NewUnauthorized, NewForbidden, NewMethodNotSupported, NewGone,
// NewResourceExpired, NewInternalError, NewGenericServerResponse), the field.ErrorList aggregate
// (k8s.io/apimachinery/pkg/util/validation/field/errors.go, util/errors/errors.go), the negotiation
// errors (k8s.io/apiserver/pkg/endpoints/handlers/negotiation/errors.go), and what
// responsewriters.ErrorToAPIStatus adds (kind, apiVersion, status, code). Pure.
//
// kubectl prints them as `Error from server (NotFound): pods "x" not found` and, for Invalid,
// `The Pod "x" is invalid: <field>: <body>` (one cause) or the prefix then `* <field>: <body>` lines.
import type { ProblemType } from '../validation/errors.js';
import { goQuote } from '../shared/go.js';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** A meta/v1 Status, with its fields in the API server's JSON order. */
export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

/** The HTTP status code to answer with and the body. */
export interface StatusResponse {
  code: number;
  body: StatusObject;
}

/** The media types the lab accepts and produces (the API server's without CBOR, which is off by default). */
export const ACCEPTED_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] as const;

/** schema.GroupResource.String(): `pods`, or `poddebugs.lab.podlab.dev` for a named group. */
export const groupResource = (resource: string, group = ''): string => (group ? `${resource}.${group}` : resource);
/** schema.GroupKind.String(): `Pod`, or `PodDebug.lab.podlab.dev`. */
export const groupKind = (kind: string, group = ''): string => (group ? `${kind}.${group}` : kind);

/** StatusDetails with the omitempty fields left out, in Go's field order. */
function details(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes && d.causes.length) out.causes = d.causes.map(cause);
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

function cause(c: StatusCause): StatusCause {
  const out: StatusCause = {};
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  if (c.field) out.field = c.field;
  return out;
}

/** A Failure Status as ErrorToAPIStatus writes it; `d` undefined means no details (nil pointer). */
function failure(code: number, reason: string, message: string, d?: StatusDetails): StatusResponse {
  const body: StatusObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
  if (message) body.message = message;
  if (reason) body.reason = reason;
  if (d) body.details = details(d);
  body.code = code;
  return { code, body };
}

/** errors.NewNotFound: 404 `pods "x" not found`, details {name, group, kind: resource}. */
export function notFound(resource: string, name: string, group = ''): StatusResponse {
  return failure(404, 'NotFound', `${groupResource(resource, group)} ${goQuote(name)} not found`, { name, group, kind: resource });
}

/** errors.NewAlreadyExists: 409 `pods "x" already exists`. */
export function alreadyExists(resource: string, name: string, group = ''): StatusResponse {
  return failure(409, 'AlreadyExists', `${groupResource(resource, group)} ${goQuote(name)} already exists`, { name, group, kind: resource });
}

/** The error the registries' optimistic concurrency check wraps (storage.NewResourceVersionConflictsError → OptimisticLockErrorMsg). */
export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

/** errors.NewConflict: 409 `Operation cannot be fulfilled on pods "x": <err>` (by default the optimistic-lock text). */
export function conflict(resource: string, name: string, err: string = OPTIMISTIC_LOCK_MESSAGE, group = ''): StatusResponse {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${groupResource(resource, group)} ${goQuote(name)}: ${err}`, { name, group, kind: resource });
}

/** A field.Error: `type` is the CauseType (FieldValueRequired, …), `body` is ErrorBody(). */
export interface FieldError {
  field: string;
  type: FieldErrorType;
  body: string;
}

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** field.Error.Error(): `<field>: <body>`. */
export const fieldErrorText = (e: FieldError): string => `${e.field}: ${e.body}`;

/**
 * errs.ToAggregate() printed with %v: `<nil>` for none, the one message, or `[a, b]`; duplicate
 * messages are dropped (ToAggregate's set, then the aggregate's own).
 */
export function aggregateText(errs: readonly FieldError[]): string {
  if (errs.length === 0) return '<nil>';
  const msgs = [...new Set(errs.map(fieldErrorText))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

/**
 * errors.NewInvalid: 422 Invalid, `Pod "x" is invalid: <aggregate>`, details {name, group,
 * kind: Kind, causes: one per error (duplicates kept), each {reason: type, message: body, field}}.
 */
export function invalid(kind: string, name: string, errs: readonly FieldError[], group = ''): StatusResponse {
  return failure(422, 'Invalid', `${groupKind(kind, group)} ${goQuote(name)} is invalid: ${aggregateText(errs)}`, {
    name,
    group,
    kind,
    causes: errs.map((e) => ({ reason: e.type, message: e.body, field: e.field })),
  });
}

/** The validator's problem types as field.ErrorType (what the cause's reason says). */
export const CAUSE_TYPE: Readonly<Partial<Record<ProblemType, FieldErrorType>>> = {
  'Not found': 'FieldValueNotFound',
  'Required value': 'FieldValueRequired',
  'Duplicate value': 'FieldValueDuplicate',
  'Invalid value': 'FieldValueInvalid',
  'Unsupported value': 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  'Too long': 'FieldValueTooLong',
  'Too many': 'FieldValueTooMany',
  'Internal error': 'InternalError',
  'Type mismatch': 'FieldValueTypeInvalid',
};

/** What invalidFromValidation reads of a validator finding (a FieldErr or a placed Problem). */
export interface ValidationFinding {
  type: ProblemType;
  field: string;
  detail: string;
  severity: 'error' | 'warning';
}

/**
 * The validator's findings as field errors: errors only (warnings are Warning headers, not
 * causes), in order. ErrorBody is `<type text>` then `: <detail>` when there is a detail, which
 * is how src/validation renders its details (the bad value is already in `detail`).
 * Decode-time findings (`Unknown field`, `YAML syntax`) are not field errors: the API server
 * answers them 400 BadRequest before validation, so they are left out here.
 */
export function fieldErrorsFromValidation(findings: readonly ValidationFinding[]): FieldError[] {
  const out: FieldError[] = [];
  for (const f of findings) {
    if (f.severity !== 'error') continue;
    const type = CAUSE_TYPE[f.type];
    if (!type) continue;
    // FieldValueTypeInvalid prints as "Invalid value".
    const text = f.type === 'Type mismatch' ? 'Invalid value' : f.type;
    out.push({ field: f.field, type, body: f.detail ? `${text}: ${f.detail}` : text });
  }
  return out;
}

/** 422 Invalid from the validator's findings: `The Pod "x" is invalid: spec.containers[0].image: Required value`. */
export function invalidFromValidation(kind: string, name: string, findings: readonly ValidationFinding[]): StatusResponse {
  return invalid(kind, name, fieldErrorsFromValidation(findings));
}

/** errors.NewBadRequest: 400, no details. */
export function badRequest(message: string): StatusResponse {
  return failure(400, 'BadRequest', message);
}

/** errors.NewUnauthorized: 401; the authentication filter says `Unauthorized` (kubectl: `You must be logged in to the server (Unauthorized)`). */
export function unauthorized(message = 'Unauthorized'): StatusResponse {
  return failure(401, 'Unauthorized', message || 'not authorized');
}

/**
 * errors.NewForbidden: 403 `pods "x" is forbidden: <err>`, `pods is forbidden: <err>` without a
 * name, `forbidden: <err>` without a resource; details {name, group, kind: resource, causes}.
 */
export function forbidden(resource: string, name: string, err: string, opts: { group?: string; causes?: StatusCause[] } = {}): StatusResponse {
  const group = opts.group ?? '';
  let message: string;
  if (!resource && !group) message = `forbidden: ${err}`;
  else if (!name) message = `${groupResource(resource, group)} is forbidden: ${err}`;
  else message = `${groupResource(resource, group)} ${goQuote(name)} is forbidden: ${err}`;
  return failure(403, 'Forbidden', message, { name, group, kind: resource, causes: opts.causes });
}

/**
 * The NamespaceLifecycle admission plugin's refusal to create in a terminating namespace:
 * `pods "x" is forbidden: unable to create new content in namespace ns because it is being
 * terminated`, with the NamespaceTerminating cause on metadata.namespace.
 */
export function namespaceTerminating(resource: string, name: string, namespace: string, group = ''): StatusResponse {
  const err = `unable to create new content in namespace ${namespace} because it is being terminated`;
  return forbidden(resource, name, err, { group, causes: [{ reason: 'NamespaceTerminating', message: err, field: 'metadata.namespace' }] });
}

/** errors.NewMethodNotSupported: 405 `create is not supported on resources of kind "nodes"`. */
export function methodNotSupported(resource: string, action: string, group = ''): StatusResponse {
  return failure(405, 'MethodNotAllowed', `${action} is not supported on resources of kind ${goQuote(groupResource(resource, group))}`, { group, kind: resource });
}

/** errors.NewGone: 410 reason Gone. */
export function gone(message: string): StatusResponse {
  return failure(410, 'Gone', message);
}

/** errors.NewResourceExpired: 410 reason Expired. */
export function resourceExpired(message: string): StatusResponse {
  return failure(410, 'Expired', message);
}

/** The watch cache's answer to a watch or list from a resourceVersion it no longer has: `too old resource version: 5 (20)`. */
export function tooOldResourceVersion(requested: number | string, oldest: number | string): StatusResponse {
  return resourceExpired(`too old resource version: ${requested} (${oldest})`);
}

/** errors.NewInternalError: 500 `Internal error occurred: <err>`, the error as the one cause. */
export function internal(err: unknown): StatusResponse {
  const text = err instanceof Error ? err.message : String(err);
  return failure(500, 'InternalError', `Internal error occurred: ${text}`, { causes: [{ message: text }] });
}

/** negotiation.NewNotAcceptableError: 406 `only the following media types are accepted: …`. */
export function notAcceptable(accepted: readonly string[] = ACCEPTED_MEDIA_TYPES): StatusResponse {
  return failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/** handlers' errNotAcceptable (a Table or PartialObjectMetadata that cannot be given): 406 with the message as is. */
export function notAcceptableMessage(message: string): StatusResponse {
  return failure(406, 'NotAcceptable', message);
}

/** negotiation.NewUnsupportedMediaTypeError: 415 `the body of the request was in an unknown format - accepted media types include: …`. */
export function unsupportedMediaType(accepted: readonly string[] = ACCEPTED_MEDIA_TYPES): StatusResponse {
  return failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

/**
 * errors.NewGenericServerResponse(code, "", GroupResource{}, "", …) as the API server's go-restful
 * service error handler answers a path or method it has no route for: 404 `the server could not
 * find the requested resource`, 405 `the server does not allow this method on the requested
 * resource`, … with empty details (`"details":{}`).
 */
export function genericServerResponse(code: number, serverMessage = ''): StatusResponse {
  const table: Record<number, [string, string]> = {
    409: ['Conflict', 'the server reported a conflict'],
    404: ['NotFound', 'the server could not find the requested resource'],
    400: ['BadRequest', 'the server rejected our request for an unknown reason'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', serverMessage],
    406: ['NotAcceptable', serverMessage],
    415: ['UnsupportedMediaType', serverMessage],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
    504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  };
  let [reason, message] = table[code] ?? ['', `the server responded with the status code ${code} but did not return more information`];
  if (!table[code] && code >= 500) {
    reason = 'InternalError';
    message = `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`;
  }
  return failure(code, reason, message, {});
}

/** A path the server has no handler for (unknown group, version or resource). */
export const routeNotFound = (): StatusResponse => genericServerResponse(404);
/** A method the route does not serve. */
export const routeMethodNotAllowed = (): StatusResponse => genericServerResponse(405);

/**
 * A Success Status: what the generic registry returns for a DELETE of a resource that does not
 * return the deleted object (ConfigMaps, Secrets, Events: details {name, group, kind: resource,
 * uid}, no code), or what the delete handlers fill in when the storage returns nothing
 * (code 200, details {name, kind: Kind}). The HTTP code is 200 either way.
 */
export function success(d: StatusDetails = {}, code?: number): StatusResponse {
  const body: StatusObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: details(d) };
  if (code) body.code = code;
  return { code: 200, body };
}

/** A watch ERROR event's object (the Status, code in the body; the HTTP response stays 200). */
export function watchErrorEvent(s: StatusResponse): { type: 'ERROR'; object: StatusObject } {
  return { type: 'ERROR', object: s.body };
}
