// Who is asking and what they may do. Upstream counterparts: the request-info resolver
// (k8s.io/apiserver pkg/endpoints/request/requestinfo.go: verb, API group, resource, subresource,
// namespace, name of a request), the x509 authenticator's user (CN) and groups (O), and the
// refusal's wording (pkg/endpoints/handlers/responsewriters/errors.go forbiddenMessage and
// ForbiddenStatusError). The lab's policy is its own and small: the token holder and the
// system:masters group may do everything; any other authenticated user may read (get, list, watch)
// and ask what it may do (self-subject reviews) — enough to try a real client's RBAC refusals.
import * as S from './status.js';
import { goQuote } from '../shared/go.js';

export interface UserInfo {
  name: string;
  groups: string[];
}

export interface RequestAttributes {
  resourceRequest: boolean;
  verb: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The path of a non-resource request. */
  path: string;
}

/** The lab's owner (its bearer token). */
export const OWNER: UserInfo = { name: 'podlab', groups: ['system:masters', 'system:authenticated'] };

const VERB_BY_METHOD: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete', GET: 'get', HEAD: 'get' };

/** RequestInfoFactory.NewRequestInfo, for the paths the lab serves. */
export function requestAttributes(method: string, url: URL): RequestAttributes {
  const segs = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const none: RequestAttributes = { resourceRequest: false, verb: (method || 'GET').toLowerCase(), apiGroup: '', resource: '', subresource: '', namespace: '', name: '', path: url.pathname };
  let rest: string[];
  let apiGroup = '';
  if (segs[0] === 'api' && segs.length >= 2) rest = segs.slice(2);
  else if (segs[0] === 'apis' && segs.length >= 3) {
    apiGroup = segs[1]!;
    rest = segs.slice(3);
  } else return none;
  if (rest.length === 0) return none;
  let verb = VERB_BY_METHOD[method.toUpperCase()] ?? method.toLowerCase();
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1]!;
    rest = rest.slice(2);
  } else if (rest[0] === 'namespaces' && rest.length === 2) {
    // the namespace object itself
    namespace = rest[1]!;
  }
  const [resource = '', name = '', subresource = ''] = rest;
  const watch = ['true', '1'].includes(url.searchParams.get('watch') ?? '');
  if (!name && verb === 'get') verb = watch ? 'watch' : 'list';
  else if (watch && verb === 'get') verb = 'watch';
  if (!name && verb === 'delete') verb = 'deletecollection';
  return { resourceRequest: true, verb, apiGroup, resource, subresource, namespace, name, path: url.pathname };
}

/**
 * An upgraded request: a WebSocket watch is a watch (a GET); exec, attach and port-forward are
 * `create` on their subresource (SPDY comes as POST; for WebSocket GETs kube-apiserver checks
 * `create` too since 1.35's AuthorizePodWebsocketUpgradeCreatePermission).
 */
export function upgradeAttributes(url: URL): RequestAttributes {
  const a = requestAttributes('GET', url);
  return ['exec', 'attach', 'portforward'].includes(a.subresource) ? { ...a, verb: 'create' } : a;
}

const READ_VERBS = new Set(['get', 'list', 'watch']);

export function authorize(user: UserInfo, a: RequestAttributes): boolean {
  if (user.groups.includes('system:masters')) return true;
  if (!a.resourceRequest) return a.verb === 'get' || a.verb === 'head';
  if (a.apiGroup === 'authorization.k8s.io' && (a.resource === 'selfsubjectaccessreviews' || a.resource === 'selfsubjectrulesreviews') && a.verb === 'create') return true;
  // Reads of subresources (pods/log, pods/status) too; exec, attach and port-forward are `create`.
  return READ_VERBS.has(a.verb);
}

/** forbiddenMessage + ForbiddenStatusError: the 403 Status kube-apiserver answers. */
export function forbiddenFor(user: UserInfo, a: RequestAttributes): S.StatusResponse {
  // %q as Go prints it, and the HTML escaping forbiddenMessage applies to the whole message.
  const escape = (m: string) => m.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const who = `User ${goQuote(user.name)}`;
  if (!a.resourceRequest) return S.forbidden('', '', escape(`${who} cannot ${a.verb} path ${goQuote(a.path)}`));
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace ${goQuote(a.namespace)}` : 'at the cluster scope';
  const msg = `${who} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)} ${where}`;
  return S.forbidden(a.resource, a.name, escape(msg), { group: a.apiGroup });
}

/** The rules a SelfSubjectRulesReview reports for the user under the lab's policy. */
export function rulesFor(user: UserInfo): { resourceRules: object[]; nonResourceRules: object[] } {
  if (user.groups.includes('system:masters')) return { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] };
  return {
    resourceRules: [
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
      { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] },
    ],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['*'] }],
  };
}
