// The v1 defaulters the API server runs before validation (pkg/apis/core/v1/defaults.go, zz_generated.defaults.go).
import type { Container, EnvVar, Lifecycle, LifecycleHandler, Pod, PodSpec, Probe, Volume } from 'kubernetes-types/core/v1';
import { formatQuantity, parseQuantity, roundUpMilli } from './quantity.js';

type Obj = Record<string, unknown>;

// distribution/reference's grammar, as ParseNormalizedNamed applies it: [domain[:port]/]path[:tag][@digest],
// the path in lower case, a digest of a known algorithm with its length of lower-case hex.
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const REFERENCE = new RegExp(
  `^(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*(?::([\\w][\\w.-]{0,127}))?(?:@(sha256:[a-f0-9]{64}|sha384:[a-f0-9]{96}|sha512:[a-f0-9]{128}))?$`,
);

/**
 * Tag of an image reference as the kubelet's parsers.ParseImageName sees it: "latest" when it has
 * neither tag nor digest, "" when it does not parse (ParseNormalizedNamed refuses it: an upper-case
 * path, a malformed tag or digest, a 64-hex identifier), so the API server defaults its
 * imagePullPolicy to IfNotPresent and the kubelet fails it with InvalidImageName.
 */
export function imageTag(image: string): string {
  return parseImageTag(image)?.tag ?? '';
}

/** imageTag's parse: the tag, and whether the reference writes it (`busybox` has the tag "latest" unwritten); undefined when it does not parse. */
export function parseImageTag(image: string): { tag: string; written: boolean } | undefined {
  if (/^[a-f0-9]{64}$/.test(image)) return undefined;
  const m = REFERENCE.exec(image);
  if (!m) return undefined;
  const [, tag, digest] = m;
  return tag !== undefined ? { tag, written: true } : { tag: digest ? '' : 'latest', written: false };
}

function defaultHTTPGet(h: LifecycleHandler['httpGet'] | undefined): void {
  if (!h) return;
  if (!h.path) h.path = '/';
  if (!h.scheme) h.scheme = 'HTTP';
}

function defaultProbe(p: Probe | undefined): void {
  if (!p) return;
  if (!p.timeoutSeconds) p.timeoutSeconds = 1;
  if (!p.periodSeconds) p.periodSeconds = 10;
  if (!p.successThreshold) p.successThreshold = 1;
  if (!p.failureThreshold) p.failureThreshold = 3;
  defaultHTTPGet(p.httpGet);
  if (p.grpc && p.grpc.service === undefined) p.grpc.service = '';
}

function defaultLifecycle(l: Lifecycle | undefined): void {
  if (!l) return;
  defaultHTTPGet(l.postStart?.httpGet);
  defaultHTTPGet(l.preStop?.httpGet);
}

/** SetDefaults_ResourceList: round every quantity up to milli precision (canonical string form). */
function defaultResourceList(rl: Obj | undefined): void {
  if (!rl || typeof rl !== 'object') return;
  for (const [k, v] of Object.entries(rl)) {
    const q = parseQuantity(String(v));
    if (typeof q !== 'string') rl[k] = formatQuantity(roundUpMilli(q));
  }
}

/**
 * A Quantity field as the API server stores it: a Quantity is encoded in its canonical form
 * (`1000m` is `1`, `1024Mi` is `1Gi`, `0.5` is `500m`), whatever the request wrote. A value that is
 * no quantity is left for decoding to refuse.
 */
function canonicalQuantity<K extends string>(o: Partial<Record<K, unknown>> | undefined | null, key: K): void {
  if (!o || typeof o !== 'object' || o[key] === undefined || o[key] === null) return;
  const q = parseQuantity(String(o[key]));
  if (typeof q !== 'string') o[key] = formatQuantity(q);
}

function defaultEnv(env: EnvVar[] | undefined): void {
  if (!Array.isArray(env)) return;
  for (const e of env) {
    const fr = e?.valueFrom?.fieldRef;
    if (fr && !fr.apiVersion) fr.apiVersion = 'v1';
    canonicalQuantity(e?.valueFrom?.resourceFieldRef, 'divisor');
  }
}

function defaultContainer(c: Container, hostNetwork: boolean): void {
  if (!c || typeof c !== 'object') return;
  if (!c.imagePullPolicy) c.imagePullPolicy = imageTag(c.image ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  if (Array.isArray(c.ports)) {
    for (const p of c.ports) {
      if (!p) continue;
      if (!p.protocol) p.protocol = 'TCP';
      if (hostNetwork && !p.hostPort) p.hostPort = p.containerPort;
    }
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultLifecycle(c.lifecycle);
  defaultEnv(c.env);
  // (not a default: Go writes the non-pointer resources struct even when empty, so the API server's
  // object always has it)
  if (c.resources === undefined) c.resources = {};
  const r = c.resources as Obj | undefined;
  if (r) {
    defaultResourceList(r.limits as Obj | undefined);
    defaultResourceList(r.requests as Obj | undefined);
    const limits = r.limits as Obj | undefined;
    if (limits && typeof limits === 'object' && Object.keys(limits).length > 0) {
      const requests = ((r.requests as Obj | undefined) ?? {}) as Obj;
      for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = v;
      r.requests = requests;
    }
  }
}

function defaultVolume(v: Volume): void {
  if (!v || typeof v !== 'object') return;
  const keys = Object.keys(v).filter((k) => k !== 'name');
  if (keys.length === 0) v.emptyDir = {};
  if (v.secret && v.secret.defaultMode === undefined) v.secret.defaultMode = 420;
  if (v.configMap && v.configMap.defaultMode === undefined) v.configMap.defaultMode = 420;
  canonicalQuantity(v.emptyDir, 'sizeLimit');
  const claim = v.ephemeral?.volumeClaimTemplate?.spec?.resources as { limits?: Obj; requests?: Obj } | undefined;
  for (const list of [claim?.limits, claim?.requests]) for (const k of Object.keys(list && typeof list === 'object' ? list : {})) canonicalQuantity(list, k);
  if (v.downwardAPI) {
    if (v.downwardAPI.defaultMode === undefined) v.downwardAPI.defaultMode = 420;
    for (const it of v.downwardAPI.items ?? []) {
      if (it?.fieldRef && !it.fieldRef.apiVersion) it.fieldRef.apiVersion = 'v1';
      canonicalQuantity(it?.resourceFieldRef, 'divisor');
    }
  }
  if (v.projected) {
    if (v.projected.defaultMode === undefined) v.projected.defaultMode = 420;
    for (const s of v.projected.sources ?? []) {
      if (s?.serviceAccountToken && s.serviceAccountToken.expirationSeconds === undefined) s.serviceAccountToken.expirationSeconds = 3600;
      for (const it of s?.downwardAPI?.items ?? []) {
        if (it?.fieldRef && !it.fieldRef.apiVersion) it.fieldRef.apiVersion = 'v1';
        canonicalQuantity(it?.resourceFieldRef, 'divisor');
      }
    }
  }
  if (v.hostPath && v.hostPath.type === undefined) v.hostPath.type = '';
  if (v.iscsi && !v.iscsi.iscsiInterface) v.iscsi.iscsiInterface = 'default';
  if (v.rbd) {
    if (!v.rbd.pool) v.rbd.pool = 'rbd';
    if (!v.rbd.user) v.rbd.user = 'admin';
    if (!v.rbd.keyring) v.rbd.keyring = '/etc/ceph/keyring';
  }
  if (v.azureDisk) {
    if (!v.azureDisk.cachingMode) v.azureDisk.cachingMode = 'ReadWrite';
    if (!v.azureDisk.kind) v.azureDisk.kind = 'Shared';
    if (!v.azureDisk.fsType) v.azureDisk.fsType = 'ext4';
    if (v.azureDisk.readOnly === undefined) v.azureDisk.readOnly = false;
  }
}

/** Applies the API server's defaults to the pod in place and returns it. */
export function defaultPodInPlace(pod: Pod): Pod {
  if (!pod || typeof pod !== 'object') return pod;
  const spec = (pod.spec ?? (pod.spec = {} as PodSpec)) as PodSpec;
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (spec.terminationGracePeriodSeconds === undefined) spec.terminationGracePeriodSeconds = 30;
  if (!spec.securityContext) spec.securityContext = {};
  if (!spec.schedulerName) spec.schedulerName = 'default-scheduler';
  if (spec.enableServiceLinks === undefined) spec.enableServiceLinks = true;
  const hostNetwork = spec.hostNetwork === true;
  for (const c of spec.initContainers ?? []) defaultContainer(c, hostNetwork);
  for (const c of spec.containers ?? []) defaultContainer(c, hostNetwork);
  for (const c of (spec.ephemeralContainers ?? []) as Container[]) defaultContainer(c, false);
  for (const v of spec.volumes ?? []) defaultVolume(v);
  defaultResourceList(spec.overhead as Obj | undefined);
  const pr = (spec as unknown as Obj).resources as Obj | undefined;
  if (pr) {
    defaultResourceList(pr.limits as Obj | undefined);
    defaultResourceList(pr.requests as Obj | undefined);
  }
  return pod;
}

/** A defaulted deep copy of the pod. */
export function applyPodDefaults(pod: Pod): Pod {
  return defaultPodInPlace(structuredClone(pod));
}
