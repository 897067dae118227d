// GET …/pods/{name}/log: the query decoded and validated as the API server does before it looks
// the pod up (src/server/log-options.ts): a conversion error is 400 BadRequest, a rule broken is
// 422 Invalid of kind PodLogOptions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePodLogQuery } from '../../../src/server/log-options.js';

const defaults = { follow: false, previous: false, timestamps: false };
/** What kubectl prints of the answer: the Status's message, or the decoded options. */
const outcome = (query: string) => {
  const r = parsePodLogQuery(new URLSearchParams(query), 'web');
  return 'body' in r ? { code: r.code, reason: r.body.reason, message: r.body.message, causes: r.body.details?.causes } : r;
};

describe('the pod log query', () => {
  const cases: [string, string, unknown][] = [
    ['nothing: the defaults', '', defaults],
    ['kubectl logs -f --timestamps -c app --tail=3', 'container=app&follow=true&timestamps=true&tailLines=3', { ...defaults, container: 'app', follow: true, timestamps: true, tailLines: 3 }],
    ['a boolean is false only for 0 or false (any case); anything else, empty too, is true', 'previous=&follow=FALSE&timestamps=0', { ...defaults, previous: true }],
    ['sinceSeconds and limitBytes', 'sinceSeconds=5400&limitBytes=10', { ...defaults, sinceSeconds: 5400, limitBytes: 10 }],
    ['sinceTime, with its offset applied', 'sinceTime=2026-11-24T05:07:00%2B01:00', { ...defaults, sinceTime: Date.UTC(2026, 10, 24, 4, 7) }],
    ['tailLines=0 is allowed (no lines)', 'tailLines=0', { ...defaults, tailLines: 0 }],
    ['a tailLines that is no integer is a BadRequest with the conversion error', 'tailLines=abc', { code: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "abc": invalid syntax', causes: undefined }],
    [
      'a sinceTime that is no RFC 3339 time is a BadRequest with the parse error',
      'sinceTime=yesterday',
      { code: 400, reason: 'BadRequest', message: 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"', causes: undefined },
    ],
    [
      'sinceSeconds=0 (kubectl --since=400ms rounds to it) is Invalid',
      'sinceSeconds=0',
      { code: 422, reason: 'Invalid', message: 'PodLogOptions "web" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than 0', field: 'sinceSeconds' }] },
    ],
    [
      'a negative tailLines and a limitBytes of 0: both, in that order',
      'limitBytes=0&tailLines=-2',
      {
        code: 422,
        reason: 'Invalid',
        message: 'PodLogOptions "web" is invalid: [tailLines: Invalid value: -2: must be greater than or equal to 0, limitBytes: Invalid value: 0: must be greater than 0]',
        causes: [
          { reason: 'FieldValueInvalid', message: 'Invalid value: -2: must be greater than or equal to 0', field: 'tailLines' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than 0', field: 'limitBytes' },
        ],
      },
    ],
    [
      'sinceSeconds and sinceTime together are Forbidden (an empty field path, left out of the cause by its omitempty), and sinceSeconds is not checked then',
      'sinceSeconds=0&sinceTime=2026-11-24T05:07:00Z',
      { code: 422, reason: 'Invalid', message: 'PodLogOptions "web" is invalid: []: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified', causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified', field: '[]' }] },
    ],
  ];
  for (const [name, query, want] of cases) test(name, () => assert.deepEqual(outcome(query), want));
});
