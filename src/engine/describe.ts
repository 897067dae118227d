// `kubectl describe pod` (k8s.io/kubectl/pkg/describe/describe.go: describePod and helpers).
// Pure: the pod, its events and `now` in, the text out. Lines are written with tabs between label
// and value and aligned at the end like kubectl's tabwriter (minwidth 0, padding 2).
import { kubectlFieldRefValue, resourceFieldValue } from './kubelet/env.js';
import type {
  Container,
  ContainerState,
  ContainerStatus,
  EnvVar,
  Event,
  Pod,
  Probe,
  Toleration,
  Volume,
} from 'kubernetes-types/core/v1';
import { formatQuantity, parseQuantity } from '../validation/quantity.js';
import { podQOSClass } from './kubelet/status.js';
import { DESCRIBE_TAB, humanDuration, tabwrite, timeMs, translateTimestampSince } from './printer.js';
import { LAST_APPLIED } from './config-objects.js';
import { goEscapePath } from '../shared/go.js';

/** Indentation levels of kubectl's PrefixWriter. */
const LEVEL = ['', '  ', '    ', '      '] as const;

class Out {
  private text = '';
  write(level: 0 | 1 | 2 | 3, s: string): void {
    this.text += LEVEL[level] + s;
  }
  toString(): string {
    return tabwrite(this.text, DESCRIBE_TAB);
  }
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => String(n).padStart(2, '0');

/** Go's time.RFC1123Z layout (`Mon, 02 Jan 2006 15:04:05 -0700`), in UTC. */
export function rfc1123z(t: string | undefined): string {
  const d = new Date(timeMs(t));
  return (
    `${DAYS[d.getUTCDay()]}, ${pad2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} +0000`
  );
}

const sortedKeys = (m: Record<string, unknown>) => Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const printBool = (b: boolean | undefined) => (b ? 'True' : 'False');

// ---------------------------------------------------------------------------------------------
// Labels, annotations, tolerations

function labelsMultiline(w: Out, title: string, labels: Record<string, string> | undefined): void {
  w.write(0, `${title}:\t`);
  const keys = sortedKeys(labels ?? {});
  if (keys.length === 0) return w.write(0, '<none>\n');
  keys.forEach((k, i) => w.write(0, `${i === 0 ? '' : '\t'}${k}=${labels![k]}\n`));
}

const MAX_ANNOTATION_LEN = 140;
const utf8 = new TextEncoder();
const utf8Text = new TextDecoder();

/**
 * kubectl's shorten, which counts and cuts bytes (Go's len and slicing): past `max` bytes, the
 * first `max` and `...`. A character cut in two shows as U+FFFD (kubectl writes the partial bytes).
 */
function shorten(s: string, max: number): string {
  const bytes = utf8.encode(s);
  return bytes.length > max ? `${utf8Text.decode(bytes.subarray(0, max))}...` : s;
}

/**
 * kubectl's printAnnotationsMultiline: sorted, the last-applied record left out; a value whose key
 * and value pass 140 bytes, or that has several lines, goes below its key, a line at a time, each
 * cut at 138 bytes.
 */
export function annotationsText(annotations: Record<string, string> | undefined): string {
  const keys = sortedKeys(annotations ?? {}).filter((k) => k !== LAST_APPLIED);
  if (keys.length === 0) return 'Annotations:\t<none>\n';
  let out = '';
  keys.forEach((k, i) => {
    out += i === 0 ? 'Annotations:\t' : '\t';
    const value = annotations![k]!.replace(/\n$/, '');
    if (utf8.encode(value).length + utf8.encode(k).length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
      out += `${k}:\n`;
      for (const line of value.split('\n')) out += `\t  ${shorten(line, MAX_ANNOTATION_LEN - 2)}\n`;
    } else out += `${k}: ${value}\n`;
  });
  return out;
}

function annotationsMultiline(w: Out, annotations: Record<string, string> | undefined): void {
  w.write(0, annotationsText(annotations));
}

function tolerationText(t: Toleration): string {
  let s = t.key ?? '';
  if (t.value) s += `=${t.value}`;
  if (t.effect) s += `:${t.effect}`;
  if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
  if (t.tolerationSeconds !== undefined) s += ` for ${t.tolerationSeconds}s`;
  return s;
}

function tolerationsMultiline(w: Out, tolerations: readonly Toleration[] | undefined): void {
  w.write(0, 'Tolerations:\t');
  if (!tolerations || tolerations.length === 0) return w.write(0, '<none>\n');
  const sorted = [...tolerations].sort((a, b) => ((a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0));
  sorted.forEach((t, i) => w.write(0, `${i === 0 ? '' : '\t'}${tolerationText(t)}\n`));
}

// ---------------------------------------------------------------------------------------------
// Containers

function portsText(c: Container, host: boolean): string {
  return (c.ports ?? []).map((p) => `${host ? (p.hostPort ?? 0) : p.containerPort}/${p.protocol ?? 'TCP'}`).join(', ');
}

function describeBasicInfo(w: Out, c: Container, s: ContainerStatus | undefined): void {
  w.write(1, `${c.name}:\n`);
  if (s) w.write(2, `Container ID:\t${s.containerID ?? ''}\n`);
  w.write(2, `Image:\t${c.image ?? ''}\n`);
  if (s) w.write(2, `Image ID:\t${s.imageID ?? ''}\n`);
  const ports = portsText(c, false);
  w.write(2, ports.includes(',') ? `Ports:\t${ports}\n` : `Port:\t${ports || '<none>'}\n`);
  const hostPorts = portsText(c, true);
  w.write(2, hostPorts.includes(',') ? `Host Ports:\t${hostPorts}\n` : `Host Port:\t${hostPorts || '<none>'}\n`);
}

function describeCommand(w: Out, c: Container): void {
  for (const [title, list] of [['Command', c.command], ['Args', c.args]] as const) {
    if (!list || list.length === 0) continue;
    w.write(2, `${title}:\n`);
    for (const item of list) for (const line of item.split('\n')) w.write(3, `${line}\n`);
  }
}

function describeState(w: Out, title: string, state: ContainerState | undefined): void {
  if (state?.running) {
    w.write(2, `${title}:\tRunning\n`);
    w.write(3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(2, `${title}:\tTerminated\n`);
    if (t.reason) w.write(3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(3, `Message:\t${t.message}\n`);
    w.write(3, `Exit Code:\t${t.exitCode}\n`);
    if (t.signal && t.signal > 0) w.write(3, `Signal:\t${t.signal}\n`);
    w.write(3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else {
    w.write(2, `${title}:\tWaiting\n`);
    if (state?.waiting?.reason) w.write(3, `Reason:\t${state.waiting.reason}\n`);
  }
}

function describeContainerState(w: Out, s: ContainerStatus): void {
  describeState(w, 'State', s.state);
  if (s.lastState?.terminated) describeState(w, 'Last State', s.lastState);
  w.write(2, `Ready:\t${printBool(s.ready)}\n`);
  w.write(2, `Restart Count:\t${s.restartCount ?? 0}\n`);
}

function quantityText(v: string | number): string {
  const q = parseQuantity(String(v));
  return typeof q === 'string' ? String(v) : formatQuantity(q);
}

function describeResources(w: Out, c: Container): void {
  for (const [title, list] of [['Limits', c.resources?.limits], ['Requests', c.resources?.requests]] as const) {
    const names = sortedKeys(list ?? {});
    if (names.length === 0) continue;
    w.write(2, `${title}:\n`);
    for (const n of names) w.write(3, `${n}:\t${quantityText(list![n]!)}\n`);
  }
}

/**
 * A probe's or lifecycle hook's handler as DescribeProbe words it (`exec [sh -c …]`,
 * `http-get http://:8080/`, `tcp-socket :80`, `grpc <pod>:9000 svc`); a hook's sleep as `sleep 2s`.
 */
export function handlerText(h: Pick<Probe, 'exec' | 'httpGet' | 'tcpSocket' | 'grpc'> & { sleep?: { seconds: number } }): string {
  if (h.exec) return `exec [${(h.exec.command ?? []).join(' ')}]`;
  if (h.httpGet) {
    const port = String(h.httpGet.port ?? '');
    const host = h.httpGet.host ?? '';
    const hostPort = port ? `${host.includes(':') ? `[${host}]` : host}:${port}` : host;
    // Go's url.URL.String(): the path escaped as a path, with a slash before it after a host
    const path = goEscapePath(h.httpGet.path ?? '/');
    return `http-get ${(h.httpGet.scheme ?? 'HTTP').toLowerCase()}://${hostPort}${path && !path.startsWith('/') && hostPort ? '/' : ''}${path}`;
  }
  if (h.tcpSocket) return `tcp-socket ${h.tcpSocket.host ?? ''}:${h.tcpSocket.port}`;
  if (h.grpc) return `grpc <pod>:${h.grpc.port} ${h.grpc.service ?? ''}`;
  if (h.sleep) return `sleep ${h.sleep.seconds}s`;
  return 'unknown';
}

/** DescribeProbe, with the API defaults for fields the manifest left out. */
export function describeProbe(p: Probe): string {
  const attrs =
    `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${p.periodSeconds ?? 10}s ` +
    `#success=${p.successThreshold ?? 1} #failure=${p.failureThreshold ?? 3}`;
  return `${handlerText({ exec: p.exec, httpGet: p.httpGet, tcpSocket: p.tcpSocket, grpc: p.grpc })} ${attrs}`;
}

function describeProbes(w: Out, c: Container): void {
  if (c.livenessProbe) w.write(2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
  if (c.readinessProbe) w.write(2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
  if (c.startupProbe) w.write(2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
}

/**
 * kubectl's EnvValueRetriever: kubectl's scheme converts only metadata.name and metadata.namespace,
 * so every other fieldRef (spec.nodeName, status.podIP, labels …) prints an empty value, as on a
 * cluster (kubernetes/kubernetes#109482); the container still gets the kubelet's value.
 */
function fieldValue(pod: Pod, path: string): string {
  return kubectlFieldRefValue(pod, path);
}

/** kubectl's resourcehelper.ExtractContainerResourceValue on the container itself (kubectl knows no node allocatable, and ignores containerName). */
function resourceValue(c: Container, resource: string, divisor: string | number | undefined): string {
  return resourceFieldValue(c, resource, divisor);
}

function envLine(w: Out, pod: Pod, c: Container, e: EnvVar): void {
  const from = e.valueFrom;
  if (!from) {
    (e.value ?? '').split('\n').forEach((line, i) => w.write(3, i === 0 ? `${e.name}:\t${line}\n` : `\t${line}\n`));
  } else if (from.fieldRef) {
    const { apiVersion = 'v1', fieldPath } = from.fieldRef;
    w.write(3, `${e.name}:\t${fieldValue(pod, fieldPath)} (${apiVersion}:${fieldPath})\n`);
  } else if (from.resourceFieldRef) {
    const r = from.resourceFieldRef.resource;
    let v = resourceValue(c, r, from.resourceFieldRef.divisor);
    if (v === '0' && (r === 'limits.cpu' || r === 'limits.memory')) v = 'node allocatable';
    w.write(3, `${e.name}:\t${v} (${r})\n`);
  } else if (from.secretKeyRef) {
    const { key, name = '', optional = false } = from.secretKeyRef;
    w.write(3, `${e.name}:\t<set to the key '${key}' in secret '${name}'>\tOptional: ${optional}\n`);
  } else if (from.configMapKeyRef) {
    const { key, name = '', optional = false } = from.configMapKeyRef;
    w.write(3, `${e.name}:\t<set to the key '${key}' of config map '${name}'>\tOptional: ${optional}\n`);
  }
}

function describeEnv(w: Out, pod: Pod, c: Container): void {
  if ((c.envFrom ?? []).length > 0) w.write(2, 'Environment Variables from:\n');
  for (const src of c.envFrom ?? []) {
    const [name, kind, optional] = src.configMapRef
      ? [src.configMapRef.name ?? '', 'ConfigMap', src.configMapRef.optional ?? false]
      : [src.secretRef?.name ?? '', 'Secret', src.secretRef?.optional ?? false];
    const prefix = src.prefix ? ` with prefix '${src.prefix}'` : '';
    w.write(3, `${name}\t${kind}${prefix}\tOptional: ${optional}\n`);
  }
  const env = c.env ?? [];
  w.write(2, `Environment:${env.length === 0 ? '\t<none>' : ''}\n`);
  for (const e of env) envLine(w, pod, c, e);
}

function describeMounts(w: Out, c: Container): void {
  const mounts = [...(c.volumeMounts ?? [])].sort((a, b) => (a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0));
  w.write(2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
  for (const m of mounts) {
    const flags = [m.readOnly ? 'ro' : 'rw'];
    if (m.subPath) flags.push(`path=${JSON.stringify(m.subPath)}`);
    w.write(3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
  }
}

function describeContainers(w: Out, pod: Pod, title: string, containers: readonly Container[], statuses: readonly ContainerStatus[]): void {
  w.write(0, `${title}:${containers.length === 0 ? ' <none>' : ''}\n`);
  for (const c of containers) {
    const s = statuses.find((x) => x.name === c.name);
    describeBasicInfo(w, c, s);
    describeCommand(w, c);
    if (s) describeContainerState(w, s);
    describeResources(w, c);
    describeProbes(w, c);
    describeEnv(w, pod, c);
    describeMounts(w, c);
  }
}

// ---------------------------------------------------------------------------------------------
// Volumes

function describeVolume(w: Out, v: Volume): void {
  w.write(1, `${v.name}:\n`);
  if (v.hostPath) {
    w.write(2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${v.hostPath.path}\n    HostPathType:\t${v.hostPath.type || '<none>'}\n`);
  } else if (v.emptyDir) {
    const limit = v.emptyDir.sizeLimit !== undefined ? quantityText(v.emptyDir.sizeLimit) : '<unset>';
    w.write(2, `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${v.emptyDir.medium ?? ''}\n    SizeLimit:\t${limit === '0' ? '<unset>' : limit}\n`);
  } else if (v.configMap) {
    w.write(2, `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${v.configMap.name ?? ''}\n    Optional:\t${v.configMap.optional ?? false}\n`);
  } else if (v.secret) {
    w.write(2, `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${v.secret.secretName ?? ''}\n    Optional:\t${v.secret.optional ?? false}\n`);
  } else if (v.persistentVolumeClaim) {
    const c = v.persistentVolumeClaim;
    w.write(2, `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${c.claimName}\n    ReadOnly:\t${c.readOnly ?? false}\n`);
  } else if (v.downwardAPI) {
    w.write(2, 'Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n');
    for (const item of v.downwardAPI.items ?? []) {
      if (item.fieldRef) w.write(3, `${item.fieldRef.fieldPath} -> ${item.path}\n`);
      if (item.resourceFieldRef) w.write(3, `${item.resourceFieldRef.resource} -> ${item.path}\n`);
    }
  } else if (v.projected) {
    w.write(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
    // (kubectl 1.33's words: `Optional: false` when unset; older ones printed SecretOptionalName/ConfigMapOptional: <nil>)
    for (const s of v.projected.sources ?? []) {
      if (s.secret) w.write(2, `SecretName:\t${s.secret.name ?? ''}\n    Optional:\t${s.secret.optional ?? false}\n`);
      else if (s.downwardAPI) w.write(2, 'DownwardAPI:\ttrue\n');
      else if (s.configMap) w.write(2, `ConfigMapName:\t${s.configMap.name ?? ''}\n    Optional:\t${s.configMap.optional ?? false}\n`);
      else if (s.serviceAccountToken) w.write(2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 3607}\n`);
    }
  } else {
    w.write(1, '<unknown>\n');
  }
}

function describeVolumes(w: Out, volumes: readonly Volume[] | undefined): void {
  if (!volumes || volumes.length === 0) return w.write(0, 'Volumes:\t<none>\n');
  w.write(0, 'Volumes:\n');
  for (const v of volumes) describeVolume(w, v);
}

// ---------------------------------------------------------------------------------------------
// Events

/** The time events are sorted by (event.SortableEvents). */
function eventTime(e: Event): number {
  if (e.series?.lastObservedTime) return timeMs(e.series.lastObservedTime);
  if (e.lastTimestamp) return timeMs(e.lastTimestamp);
  return timeMs(e.eventTime);
}

/** The Age column: `10s`, or `10s (x3 over 2m)` for repeated events. */
export function eventAge(e: Event, now: number): string {
  const first = e.eventTime ? translateTimestampSince(e.eventTime, now) : translateTimestampSince(e.firstTimestamp, now);
  if (e.series) return `${translateTimestampSince(e.series.lastObservedTime, now)} (x${e.series.count ?? 0} over ${first})`;
  if ((e.count ?? 0) > 1) return `${translateTimestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})`;
  return first;
}

function describeEvents(events: readonly Event[], now: number): string {
  const w = new Out();
  if (events.length === 0) return '';
  const sorted = [...events].sort((a, b) => eventTime(a) - eventTime(b));
  w.write(0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const from = e.source?.component || e.reportingComponent || '';
    w.write(1, `${e.type ?? ''}\t${e.reason ?? ''}\t${eventAge(e, now)}\t${from}\t${(e.message ?? '').trim()}\n`);
  }
  return w.toString();
}

// ---------------------------------------------------------------------------------------------
// The pod

function describeStatusLines(w: Out, pod: Pod, now: number): void {
  const status = pod.status ?? {};
  const deleting = pod.metadata?.deletionTimestamp;
  if (deleting && status.phase !== 'Failed' && status.phase !== 'Succeeded') {
    // kubectl's age of the deletion timestamp, which lies ahead during the grace period: `<invalid>` then, as kubectl prints it
    w.write(0, `Status:\tTerminating (lasts ${humanDuration(now - timeMs(deleting))})\n`);
    const grace = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    w.write(0, `Termination Grace Period:\t${grace}s\n`);
  } else w.write(0, `Status:\t${status.phase ?? ''}\n`);
  if (status.reason) w.write(0, `Reason:\t${status.reason}\n`);
  if (status.message) w.write(0, `Message:\t${status.message}\n`);
  const seccomp = pod.spec?.securityContext?.seccompProfile;
  if (seccomp) {
    w.write(0, `SeccompProfile:\t${seccomp.type}\n`);
    if (seccomp.type === 'Localhost') w.write(0, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
  }
  w.write(0, `IP:\t${status.podIP ?? ''}\n`);
  const ips = status.podIPs ?? [];
  if (ips.length === 0) w.write(0, 'IPs:\t<none>\n');
  else {
    w.write(0, 'IPs:\n');
    for (const ip of ips) w.write(0, `  IP:\t${ip.ip}\n`);
  }
  const controller = (pod.metadata?.ownerReferences ?? []).find((r) => r.controller);
  if (controller) w.write(0, `Controlled By:\t${controller.kind}/${controller.name}\n`);
  if (status.nominatedNodeName) w.write(0, `NominatedNodeName:\t${status.nominatedNodeName}\n`);
}

function describeHeader(w: Out, pod: Pod, simulatedNode: boolean): void {
  const spec = pod.spec;
  w.write(0, `Name:\t${pod.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${pod.metadata?.namespace ?? 'default'}\n`);
  // kubectl prints the priority admission set; for an unadmitted pod, the 0 admission would set
  // (none where a PriorityClass is named: the lab has none, so admission leaves the priority unset).
  if (spec?.priority !== undefined || !spec?.priorityClassName) w.write(0, `Priority:\t${spec?.priority ?? 0}\n`);
  if (spec?.priorityClassName) w.write(0, `Priority Class Name:\t${spec.priorityClassName}\n`);
  if (spec?.runtimeClassName) w.write(0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
  w.write(0, `Service Account:\t${spec?.serviceAccountName || spec?.serviceAccount || 'default'}\n`);
  w.write(0, spec?.nodeName ? `Node:\t${spec.nodeName}/${pod.status?.hostIP ?? ''}${simulatedNode ? ' (simulated: no containers run)' : ''}\n` : 'Node:\t<none>\n');
  if (pod.status?.startTime) w.write(0, `Start Time:\t${rfc1123z(pod.status.startTime)}\n`);
  labelsMultiline(w, 'Labels', pod.metadata?.labels);
  annotationsMultiline(w, pod.metadata?.annotations);
}

function describeConditions(w: Out, pod: Pod): void {
  const conditions = pod.status?.conditions ?? [];
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length > 0) {
    w.write(0, 'Readiness Gates:\n  Type\tStatus\n');
    for (const g of gates) {
      const status = conditions.find((c) => c.type === g.conditionType)?.status ?? '<none>';
      w.write(1, `${g.conditionType} \t${status} \n`);
    }
  }
  if (conditions.length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\n');
    for (const c of conditions) w.write(1, `${c.type} \t${c.status} \n`);
  }
}

/** `kubectl describe pod` output for one pod and the events about it. */
/** `simulatedNode`: the pod's node is a simulated node of the lab (its Node line says so). */
export function describePod(pod: Pod, events: readonly Event[], now: number, opts: { simulatedNode?: boolean } = {}): string {
  const w = new Out();
  describeHeader(w, pod, opts.simulatedNode === true);
  describeStatusLines(w, pod, now);
  const spec = pod.spec;
  if ((spec?.initContainers ?? []).length > 0) {
    describeContainers(w, pod, 'Init Containers', spec!.initContainers!, pod.status?.initContainerStatuses ?? []);
  }
  describeContainers(w, pod, 'Containers', spec?.containers ?? [], pod.status?.containerStatuses ?? []);
  if ((spec?.ephemeralContainers ?? []).length > 0) {
    describeContainers(w, pod, 'Ephemeral Containers', spec!.ephemeralContainers! as Container[], pod.status?.ephemeralContainerStatuses ?? []);
  }
  describeConditions(w, pod);
  describeVolumes(w, spec?.volumes);
  w.write(0, `QoS Class:\t${podQOSClass(pod)}\n`);
  labelsMultiline(w, 'Node-Selectors', spec?.nodeSelector);
  tolerationsMultiline(w, spec?.tolerations);
  if (events.length === 0) {
    w.write(0, 'Events:\t<none>\n');
    return w.toString();
  }
  return w.toString() + describeEvents(events, now);
}
