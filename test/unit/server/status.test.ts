import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateText,
  alreadyExists,
  badRequest,
  conflict,
  fieldErrorsFromValidation,
  forbidden,
  genericServerResponse,
  gone,
  internal,
  invalid,
  invalidFromValidation,
  methodNotSupported,
  namespaceTerminating,
  notAcceptable,
  notAcceptableMessage,
  notFound,
  resourceExpired,
  routeMethodNotAllowed,
  routeNotFound,
  success,
  tooOldResourceVersion,
  unauthorized,
  unsupportedMediaType,
  watchErrorEvent,
  type StatusResponse,
  type ValidationFinding,
} from '../../../src/server/status.js';
import { F } from '../../../src/validation/errors.js';

const failure = (code: number, reason: string, message: string, details?: object): StatusResponse => ({
  code,
  body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code } as StatusResponse['body'],
});

describe('Status objects are built as k8s.io/apimachinery/pkg/api/errors builds them', () => {
  const cases: [string, StatusResponse, StatusResponse][] = [
    ['a missing pod is 404 NotFound naming the resource and the name', notFound('pods', 'x'), failure(404, 'NotFound', 'pods "x" not found', { name: 'x', kind: 'pods' })],
    [
      'a missing object of a named group is qualified by the group',
      notFound('poddebugs', 'x', 'lab.podlab.dev'),
      failure(404, 'NotFound', 'poddebugs.lab.podlab.dev "x" not found', { name: 'x', group: 'lab.podlab.dev', kind: 'poddebugs' }),
    ],
    ['a name is quoted as Go quotes it', notFound('pods', 'a"b'), failure(404, 'NotFound', 'pods "a\\"b" not found', { name: 'a"b', kind: 'pods' })],
    ['an existing name is 409 AlreadyExists', alreadyExists('configmaps', 'cfg'), failure(409, 'AlreadyExists', 'configmaps "cfg" already exists', { name: 'cfg', kind: 'configmaps' })],
    [
      'a stale resourceVersion is 409 Conflict with the optimistic-lock message',
      conflict('pods', 'x'),
      failure(409, 'Conflict', 'Operation cannot be fulfilled on pods "x": the object has been modified; please apply your changes to the latest version and try again', { name: 'x', kind: 'pods' }),
    ],
    ['a conflict can carry another error text', conflict('pods', 'x', 'boom'), failure(409, 'Conflict', 'Operation cannot be fulfilled on pods "x": boom', { name: 'x', kind: 'pods' })],
    ['a bad request is 400 without details', badRequest('the namespace of the provided object does not match the namespace sent on the request'), failure(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request')],
    ['an unauthenticated request is 401 Unauthorized', unauthorized(), failure(401, 'Unauthorized', 'Unauthorized')],
    ['an empty unauthorized reason says not authorized', unauthorized(''), failure(401, 'Unauthorized', 'not authorized')],
    [
      'a forbidden named object names the resource and the object',
      forbidden('pods', 'x', 'User "u" cannot get resource "pods"'),
      failure(403, 'Forbidden', 'pods "x" is forbidden: User "u" cannot get resource "pods"', { name: 'x', kind: 'pods' }),
    ],
    [
      'a forbidden collection names the resource only',
      forbidden('pods', '', 'User "u" cannot list resource "pods" in API group "" in the namespace "default"'),
      failure(403, 'Forbidden', 'pods is forbidden: User "u" cannot list resource "pods" in API group "" in the namespace "default"', { kind: 'pods' }),
    ],
    ['a forbidden non-resource request says forbidden', forbidden('', '', 'User "u" cannot get path "/"'), failure(403, 'Forbidden', 'forbidden: User "u" cannot get path "/"', {})],
    [
      'creating in a terminating namespace is forbidden with the NamespaceTerminating cause',
      namespaceTerminating('pods', 'x', 'old'),
      failure(403, 'Forbidden', 'pods "x" is forbidden: unable to create new content in namespace old because it is being terminated', {
        name: 'x',
        kind: 'pods',
        causes: [{ reason: 'NamespaceTerminating', message: 'unable to create new content in namespace old because it is being terminated', field: 'metadata.namespace' }],
      }),
    ],
    ['an unsupported verb is 405 MethodNotAllowed', methodNotSupported('nodes', 'create'), failure(405, 'MethodNotAllowed', 'create is not supported on resources of kind "nodes"', { kind: 'nodes' })],
    ['gone is 410 Gone', gone('the resource is gone'), failure(410, 'Gone', 'the resource is gone')],
    ['an expired resource is 410 Expired', resourceExpired('The resourceVersion for the provided watch is too old.'), failure(410, 'Expired', 'The resourceVersion for the provided watch is too old.')],
    ['a too old resourceVersion says which and the oldest kept', tooOldResourceVersion(5, 20), failure(410, 'Expired', 'too old resource version: 5 (20)')],
    [
      'an internal error is 500 with the error as its one cause',
      internal(new Error('disk full')),
      failure(500, 'InternalError', 'Internal error occurred: disk full', { causes: [{ message: 'disk full' }] }),
    ],
    [
      'an unacceptable Accept lists the media types',
      notAcceptable(),
      failure(406, 'NotAcceptable', 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf'),
    ],
    ['a Table of an unknown version is 406 with the message as is', notAcceptableMessage('no Table exists in group version meta.k8s.io/v2'), failure(406, 'NotAcceptable', 'no Table exists in group version meta.k8s.io/v2')],
    [
      'an unknown Content-Type is 415 listing the media types',
      unsupportedMediaType(['application/json']),
      failure(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json'),
    ],
    ['an unknown path is 404 with empty details', routeNotFound(), failure(404, 'NotFound', 'the server could not find the requested resource', {})],
    ['an unrouted method is 405 with empty details', routeMethodNotAllowed(), failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {})],
    [
      'another 5xx quotes the server message',
      genericServerResponse(502, 'bad gateway'),
      failure(502, 'InternalError', 'an error on the server ("bad gateway") has prevented the request from succeeding', {}),
    ],
    [
      'a DELETE whose storage keeps no object answers Success with the resource as kind and no code',
      success({ name: 'cfg', kind: 'configmaps', uid: 'u-1' }),
      { code: 200, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'cfg', kind: 'configmaps', uid: 'u-1' } } },
    ],
    [
      'a DELETE collection the handler fills in answers Success code 200 with the Kind',
      success({ kind: 'Pod' }, 200),
      { code: 200, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { kind: 'Pod' }, code: 200 } },
    ],
  ];
  for (const [name, got, want] of cases) test(name, () => assert.deepEqual(got, want));

  test('the API server JSON field order is kept', () => {
    assert.equal(
      JSON.stringify(notFound('pods', 'x').body),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}',
    );
  });

  test('a watch ERROR event carries the Status', () => {
    assert.deepEqual(watchErrorEvent(tooOldResourceVersion(1, 2)), { type: 'ERROR', object: failure(410, 'Expired', 'too old resource version: 1 (2)').body });
  });
});

describe('Invalid is NewInvalid with the field errors aggregated as ToAggregate prints them', () => {
  const req = { field: 'spec.containers[0].image', type: 'FieldValueRequired' as const, body: 'Required value' };
  const bad = { field: 'spec.restartPolicy', type: 'FieldValueNotSupported' as const, body: 'Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"' };
  const cases: [string, StatusResponse, StatusResponse][] = [
    [
      'one error is the message itself',
      invalid('Pod', 'x', [req]),
      failure(422, 'Invalid', 'Pod "x" is invalid: spec.containers[0].image: Required value', {
        name: 'x',
        kind: 'Pod',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }],
      }),
    ],
    [
      'several errors are bracketed and comma separated, one cause each',
      invalid('Pod', 'x', [req, bad]),
      failure(422, 'Invalid', `Pod "x" is invalid: [spec.containers[0].image: Required value, spec.restartPolicy: ${bad.body}]`, {
        name: 'x',
        kind: 'Pod',
        causes: [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' },
          { reason: 'FieldValueNotSupported', message: bad.body, field: 'spec.restartPolicy' },
        ],
      }),
    ],
    [
      'a repeated error is printed once but kept as a cause',
      invalid('Pod', 'x', [req, req]),
      failure(422, 'Invalid', 'Pod "x" is invalid: spec.containers[0].image: Required value', {
        name: 'x',
        kind: 'Pod',
        causes: [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' },
        ],
      }),
    ],
    ['no errors print as <nil>', invalid('Pod', 'x', []), failure(422, 'Invalid', 'Pod "x" is invalid: <nil>', { name: 'x', kind: 'Pod' })],
    [
      'a kind of a named group is qualified by the group',
      invalid('PodDebug', 'x', [req], 'lab.podlab.dev'),
      failure(422, 'Invalid', 'PodDebug.lab.podlab.dev "x" is invalid: spec.containers[0].image: Required value', {
        name: 'x',
        group: 'lab.podlab.dev',
        kind: 'PodDebug',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }],
      }),
    ],
  ];
  for (const [name, got, want] of cases) test(name, () => assert.deepEqual(got, want));

  test('aggregateText of two distinct errors', () => assert.equal(aggregateText([req, bad]), `[spec.containers[0].image: Required value, spec.restartPolicy: ${bad.body}]`));
});

describe("the validator's findings map to causes", () => {
  const cases: [string, ValidationFinding[], ReturnType<typeof fieldErrorsFromValidation>][] = [
    ['a required value has no detail', [F.required('spec.containers[0].image')], [{ field: 'spec.containers[0].image', type: 'FieldValueRequired', body: 'Required value' }]],
    [
      'an invalid value carries the rendered value and detail',
      [F.invalid('metadata.name', 'A_b', 'a lowercase RFC 1123 subdomain')],
      [{ field: 'metadata.name', type: 'FieldValueInvalid', body: 'Invalid value: "A_b": a lowercase RFC 1123 subdomain' }],
    ],
    [
      'an unsupported value lists the supported ones',
      [F.notSupported('spec.restartPolicy', 'Sometimes', ['Always', 'OnFailure', 'Never'])],
      [{ field: 'spec.restartPolicy', type: 'FieldValueNotSupported', body: 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"' }],
    ],
    ['a duplicate', [F.duplicate('spec.containers[1].name', 'c')], [{ field: 'spec.containers[1].name', type: 'FieldValueDuplicate', body: 'Duplicate value: "c"' }]],
    ['a forbidden field', [F.forbidden('spec.hostPort', 'may not be set')], [{ field: 'spec.hostPort', type: 'FieldValueForbidden', body: 'Forbidden: may not be set' }]],
    ['too long', [F.tooLong('metadata.annotations', 262144)], [{ field: 'metadata.annotations', type: 'FieldValueTooLong', body: 'Too long: may not be more than 262144 bytes' }]],
    ['too many', [F.tooMany('spec.containers', 3, 2)], [{ field: 'spec.containers', type: 'FieldValueTooMany', body: 'Too many: 3: must have at most 2 items' }]],
    ['not found', [F.notFound('spec.volumes', 'v')], [{ field: 'spec.volumes', type: 'FieldValueNotFound', body: 'Not found: "v"' }]],
    [
      'a type mismatch is FieldValueTypeInvalid printed as Invalid value',
      [{ type: 'Type mismatch', field: 'spec.x', detail: 'must be a string', severity: 'error' }],
      [{ field: 'spec.x', type: 'FieldValueTypeInvalid', body: 'Invalid value: must be a string' }],
    ],
    ['warnings and lab warnings are not causes', [F.warning('spec.x', 'deprecated'), F.lab('spec.volumes[0].nfs', 'Pod Lab does not mount nfs')], []],
    [
      'decode-time findings are not causes',
      [
        { type: 'Unknown field', field: 'spec.foo', detail: 'unknown field "spec.foo"', severity: 'error' },
        { type: 'YAML syntax', field: '', detail: 'bad', severity: 'error' },
      ],
      [],
    ],
  ];
  for (const [name, findings, want] of cases) test(name, () => assert.deepEqual(fieldErrorsFromValidation(findings), want));

  test('invalidFromValidation gives the Status kubectl prints as `The Pod "x" is invalid: …`', () => {
    assert.deepEqual(
      invalidFromValidation('Pod', 'x', [F.required('spec.containers[0].image'), F.warning('spec.y', 'w')]),
      failure(422, 'Invalid', 'Pod "x" is invalid: spec.containers[0].image: Required value', {
        name: 'x',
        kind: 'Pod',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }],
      }),
    );
  });
});
