// The lab server's version and API discovery documents, as a v1.33 API server serves them:
// `/version` (k8s.io/apimachinery/pkg/version.Info filled by component-base's effective version),
// `/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>` (the legacy discovery of
// k8s.io/apiserver/pkg/endpoints/discovery: APIVersions, APIResourceList, APIGroupList, APIGroup).
// The documents under /api and /api/v1 carry no apiVersion (the stripVersion encoder kept for
// release-1.1 clients); /apis and the named groups carry `v1`. Pure data.
//
// Aggregated discovery (`Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`)
// is not served: kubectl 1.27 … 1.33 ask for it first but fall back to these documents when the
// answer's Content-Type is plain `application/json` (checked against the real binaries).
import { LAB_GROUP, LAB_GROUP_VERSION, LAB_VERSION, labResources } from './lab-api.js';
import { KUBERNETES_GIT_VERSION, KUBERNETES_MAJOR, KUBERNETES_MINOR } from '../shared/kubernetes-version.js';

/**
 * The Kubernetes release the lab server says it is (src/shared/kubernetes-version.ts). The build
 * fields are those of the v1.33.1 release build.
 */
export const SERVED_KUBERNETES_VERSION = {
  major: KUBERNETES_MAJOR,
  minor: KUBERNETES_MINOR,
  gitVersion: KUBERNETES_GIT_VERSION,
  gitCommit: '8adc0f041b8e7ad1d30e29cc59c6ae7a15e19828',
  gitTreeState: 'clean',
  buildDate: '2025-05-15T08:27:33Z',
  goVersion: 'go1.24.2',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;

export interface VersionInfo {
  major: string;
  minor: string;
  emulationMajor?: string;
  emulationMinor?: string;
  minCompatibilityMajor?: string;
  minCompatibilityMinor?: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/** `/version`: a 1.33 API server also reports its emulation version (itself) and minimum compatibility version (one minor back). */
export function versionInfo(): VersionInfo {
  const v = SERVED_KUBERNETES_VERSION;
  return {
    major: v.major,
    minor: v.minor,
    emulationMajor: v.major,
    emulationMinor: v.minor,
    minCompatibilityMajor: v.major,
    minCompatibilityMinor: String(Number(v.minor) - 1),
    gitVersion: v.gitVersion,
    gitCommit: v.gitCommit,
    gitTreeState: v.gitTreeState,
    buildDate: v.buildDate,
    goVersion: v.goVersion,
    compiler: v.compiler,
    platform: v.platform,
  };
}

// ---------------------------------------------------------------------------------------------
// Resource lists

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion?: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS_VERBS = ['get', 'patch', 'update'];

const top = (name: string, singularName: string, namespaced: boolean, kind: string, verbs: string[], extra: Partial<APIResource> = {}): APIResource => {
  const r: APIResource = { name, singularName, namespaced, kind, verbs: [...verbs] };
  if (extra.shortNames) r.shortNames = [...extra.shortNames];
  if (extra.categories) r.categories = [...extra.categories];
  if (extra.storageVersionHash) r.storageVersionHash = extra.storageVersionHash;
  return r;
};
const sub = (name: string, namespaced: boolean, kind: string, verbs: string[], gv?: { group: string; version: string }): APIResource => ({ name, singularName: '', namespaced, ...gv, kind, verbs: [...verbs] });

/**
 * `/api/v1`: the core resources the lab serves, as a v1.33 API server lists them (sorted by name,
 * subresources with an empty singularName, storage version hashes from
 * pkg/controlplane/storageversionhashdata; pods/eviction names its group and version, policy/v1,
 * which is how kubectl drain finds it). Not served, so not listed: pods/proxy, pods/resize,
 * nodes/proxy, namespaces/finalize and the other core resources.
 */
export function coreV1Resources(): APIResourceList {
  return {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      top('bindings', 'binding', true, 'Binding', ['create']),
      top('configmaps', 'configmap', true, 'ConfigMap', ALL_VERBS, { shortNames: ['cm'], storageVersionHash: 'qFsyl6wFWjQ=' }),
      top('events', 'event', true, 'Event', ALL_VERBS, { shortNames: ['ev'], storageVersionHash: 'r2yiGXH7wu8=' }),
      top('namespaces', 'namespace', false, 'Namespace', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], { shortNames: ['ns'], storageVersionHash: 'Q3oi5N2YM8M=' }),
      sub('namespaces/status', false, 'Namespace', STATUS_VERBS),
      top('nodes', 'node', false, 'Node', ALL_VERBS, { shortNames: ['no'], storageVersionHash: 'XwShjMxG9Fs=' }),
      sub('nodes/status', false, 'Node', STATUS_VERBS),
      top('pods', 'pod', true, 'Pod', ALL_VERBS, { shortNames: ['po'], categories: ['all'], storageVersionHash: 'xPOwRZ+Yhw8=' }),
      sub('pods/attach', true, 'PodAttachOptions', ['create', 'get']),
      sub('pods/binding', true, 'Binding', ['create']),
      sub('pods/ephemeralcontainers', true, 'Pod', STATUS_VERBS),
      sub('pods/eviction', true, 'Eviction', ['create'], { group: 'policy', version: 'v1' }),
      sub('pods/exec', true, 'PodExecOptions', ['create', 'get']),
      sub('pods/log', true, 'Pod', ['get']),
      sub('pods/portforward', true, 'PodPortForwardOptions', ['create', 'get']),
      sub('pods/status', true, 'Pod', STATUS_VERBS),
      top('secrets', 'secret', true, 'Secret', ALL_VERBS, { storageVersionHash: 'S6u1pOWzb84=' }),
    ],
  };
}

export const AUTHORIZATION_GROUP = 'authorization.k8s.io';
export const AUTHORIZATION_GROUP_VERSION = `${AUTHORIZATION_GROUP}/v1`;

/** `/apis/authorization.k8s.io/v1`: the two self reviews kubectl uses (`kubectl auth can-i`). */
export function authorizationV1Resources(): APIResourceList {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: AUTHORIZATION_GROUP_VERSION,
    resources: [
      top('selfsubjectaccessreviews', 'selfsubjectaccessreview', false, 'SelfSubjectAccessReview', ['create']),
      top('selfsubjectrulesreviews', 'selfsubjectrulesreview', false, 'SelfSubjectRulesReview', ['create']),
    ],
  };
}

/**
 * `/apis/lab.podlab.dev/v1alpha1`: Pod Lab's own API. The resources are the lab API's table
 * (src/server/lab-api.ts labResources); the lead fills that one.
 */
export function labV1alpha1Resources(): APIResourceList {
  const r = labResources() as { resources?: APIResource[] };
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: LAB_GROUP_VERSION, resources: structuredClone(r.resources ?? []) };
}

// ---------------------------------------------------------------------------------------------
// Versions and groups

export interface APIVersions {
  kind: 'APIVersions';
  versions: string[];
  serverAddressByClientCIDRs: { clientCIDR: string; serverAddress: string }[];
}

/** `/api`. `serverAddress` is host:port as clients reach the server (the API server's advertise address and port). */
export function apiVersions(serverAddress = ''): APIVersions {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIGroup {
  kind?: 'APIGroup';
  apiVersion?: 'v1';
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

export interface APIGroupList {
  kind: 'APIGroupList';
  apiVersion: 'v1';
  groups: APIGroup[];
}

/** The groups the lab serves besides the core group, in the API server's order (built-in groups first). */
export const SERVED_GROUPS: readonly { name: string; version: string; resources: () => APIResourceList }[] = [
  { name: AUTHORIZATION_GROUP, version: 'v1', resources: authorizationV1Resources },
  { name: LAB_GROUP, version: LAB_VERSION, resources: labV1alpha1Resources },
];

function groupEntry(name: string, version: string): APIGroup {
  const gv = { groupVersion: `${name}/${version}`, version };
  return { name, versions: [{ ...gv }], preferredVersion: { ...gv } };
}

/** `/apis`. */
export function apiGroupList(): APIGroupList {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: SERVED_GROUPS.map((g) => groupEntry(g.name, g.version)) };
}

/** `/apis/<group>`, or undefined for a group the lab does not serve. */
export function apiGroup(name: string): APIGroup | undefined {
  const g = SERVED_GROUPS.find((x) => x.name === name);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(g.name, g.version) } : undefined;
}

/**
 * The discovery document for a request path (`/api`, `/api/v1`, `/apis`, `/apis/<g>`,
 * `/apis/<g>/<v>`, with or without a trailing slash), or undefined when the path is not a
 * discovery path the lab serves (the router answers 404 then).
 */
export function discoveryDocument(path: string, serverAddress = ''): object | undefined {
  const p = path.replace(/\/+$/, '') || '/';
  if (p === '/api') return apiVersions(serverAddress);
  if (p === '/api/v1') return coreV1Resources();
  if (p === '/apis') return apiGroupList();
  const m = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(p);
  if (!m) return undefined;
  const g = SERVED_GROUPS.find((x) => x.name === m[1]);
  if (!g) return undefined;
  if (m[2] === undefined) return apiGroup(g.name);
  return m[2] === g.version ? g.resources() : undefined;
}
