// The query of GET /api/v1/namespaces/{ns}/pods/{name}/log, decoded and validated as the API server
// does before it asks the kubelet: the query parameter conversion of PodLogOptions (k8s.io/api
// core/v1 zz_generated.conversion's url.Values conversion through runtime.Convert_Slice_string_To_*:
// a conversion error is a 400 BadRequest with the conversion's text), then ValidatePodLogOptions
// (pkg/apis/core/validation), whose findings are a 422 Invalid of kind PodLogOptions — both before
// the pod is looked up (pkg/registry/core/pod/rest/log.go). Pure.
import { goParseInt, parseGoRfc3339 } from '../shared/go.js';
import * as S from './status.js';

export interface PodLogQuery {
  container?: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  /** sinceTime, in milliseconds since the epoch. */
  sinceTime?: number;
  limitBytes?: number;
}

/** runtime.Convert_Slice_string_To_bool: absent is false; "0" and "false" (any case) are false; anything else, "" included, is true. */
const bool = (v: string | null): boolean => v !== null && v !== '0' && v.toLowerCase() !== 'false';

/** The decoded options, or the Status the API server answers for this query. */
export function parsePodLogQuery(q: URLSearchParams, podName: string): PodLogQuery | S.StatusResponse {
  const out: PodLogQuery = { follow: bool(q.get('follow')), previous: bool(q.get('previous')), timestamps: bool(q.get('timestamps')) };
  const container = q.get('container');
  if (container !== null) out.container = container;
  for (const key of ['tailLines', 'sinceSeconds', 'limitBytes'] as const) {
    const v = q.get(key);
    if (v === null) continue;
    const n = goParseInt(v, 10);
    if (typeof n !== 'number') return S.badRequest(n.error);
    out[key] = n;
  }
  const since = q.get('sinceTime');
  if (since !== null) {
    const t = parseGoRfc3339(since);
    if (typeof t !== 'number') return S.badRequest(t.error);
    out.sinceTime = t;
  }
  const errs: S.FieldError[] = [];
  if (out.tailLines !== undefined && out.tailLines < 0) errs.push({ field: 'tailLines', type: 'FieldValueInvalid', body: `Invalid value: ${out.tailLines}: must be greater than or equal to 0` });
  if (out.limitBytes !== undefined && out.limitBytes < 1) errs.push({ field: 'limitBytes', type: 'FieldValueInvalid', body: `Invalid value: ${out.limitBytes}: must be greater than 0` });
  if (out.sinceSeconds !== undefined && out.sinceTime !== undefined) {
    // (field.NewPath(""), which Go writes as `[]`)
    errs.push({ field: '[]', type: 'FieldValueForbidden', body: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified' });
  } else if (out.sinceSeconds !== undefined && out.sinceSeconds < 1) {
    errs.push({ field: 'sinceSeconds', type: 'FieldValueInvalid', body: `Invalid value: ${out.sinceSeconds}: must be greater than 0` });
  }
  return errs.length ? S.invalid('PodLogOptions', podName, errs) : out;
}
