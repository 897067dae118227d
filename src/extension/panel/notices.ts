// Notices for the lifecycle panel (pure, host side): what keeps a pod from starting because of its
// configuration — a ConfigMap or Secret (or one of its keys) that does not exist. Two kubelet paths
// report it, and the panel reads both:
//   - the container's environment (pkg/kubelet/kubelet_pods.go makeEnvironmentVariables): the
//     container stays Waiting with reason CreateContainerConfigError and the error as its message
//     (`configmap "x" not found`), with a Warning `Failed` event `Error: <message>` per retry;
//   - a volume (pkg/volume/configmap, secret, projected SetUpAt through the operation executor):
//     Warning `FailedMount` `MountVolume.SetUp failed for volume "cfg" : configmap "x" not found`,
//     retried with back-off while the pod stays ContainerCreating.
// And what keeps a container from starting because its image cannot be pulled (ErrImagePull, then
// ImagePullBackOff), with what the pull policy has to do with it; and a sandbox that cannot be
// created (FailedCreatePodSandBox, retried by the pod worker), a host port that is taken above all.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { EventView, NoticeView } from '../../shared/protocol.js';
import { goQuote } from '../../shared/go.js';

type Missing = NonNullable<NoticeView['missing']>;

/** The object (and key) a kubelet error names, if it names one. */
export function missingObject(message: string, namespace: string): Missing | undefined {
  let m = /^(configmap|secret) "([^"]+)" not found$/.exec(message);
  if (m) return { kind: m[1] === 'configmap' ? 'ConfigMap' : 'Secret', name: m[2]!, namespace };
  m = /^couldn't find key (.+) in (ConfigMap|Secret) ([^/]+)\/(.+)$/.exec(message);
  if (m) return { kind: m[2] as Missing['kind'], name: m[4]!, namespace: m[3]!, key: m[1]! };
  return undefined;
}

/** Where a container's environment refers to the object (and key). */
function envReferences(c: Container, missing: Missing | undefined): string[] {
  if (!missing) return [];
  const out: string[] = [];
  for (const e of c.env ?? []) {
    const ref = missing.kind === 'ConfigMap' ? e.valueFrom?.configMapKeyRef : e.valueFrom?.secretKeyRef;
    if (!ref || ref.name !== missing.name || (missing.key !== undefined && ref.key !== missing.key)) continue;
    out.push(`env ${e.name} (key ${ref.key})`);
  }
  if (missing.key === undefined) {
    for (const f of c.envFrom ?? []) {
      const ref = missing.kind === 'ConfigMap' ? f.configMapRef : f.secretRef;
      if (ref?.name === missing.name) out.push(`envFrom${f.prefix ? ` (prefix ${f.prefix})` : ''}`);
    }
  }
  return out;
}

/** The object a volume takes its files from, in the pod's words. */
function volumeSource(pod: Pod, volume: string): string | undefined {
  const v = pod.spec?.volumes?.find((x) => x.name === volume);
  if (!v) return undefined;
  if (v.configMap) return `configMap ${v.configMap.name ?? ''}`;
  if (v.secret) return `secret ${v.secret.secretName ?? ''}`;
  if (v.projected) {
    const srcs = (v.projected.sources ?? []).flatMap((s) =>
      s.configMap ? [`configMap ${s.configMap.name ?? ''}`] : s.secret ? [`secret ${s.secret.name ?? ''}`] : s.downwardAPI ? ['downwardAPI'] : [],
    );
    return `projected (${srcs.join(', ')})`;
  }
  return Object.keys(v).find((k) => k !== 'name');
}

function mountReferences(pod: Pod, volume: string): string[] {
  const src = volumeSource(pod, volume);
  const out = [`volume ${volume}${src ? ` (${src})` : ''}`];
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  for (const c of all) for (const m of c.volumeMounts ?? []) if (m.name === volume) out.push(`mounted by ${c.name} at ${m.mountPath}`);
  return out;
}

/** The latest of the events that match. */
function latestEvent(events: readonly EventView[], matches: (e: EventView) => boolean): EventView | undefined {
  return events.filter(matches).sort((a, b) => (a.lastAt ?? 0) - (b.lastAt ?? 0)).pop();
}

/** The event behind a notice: its reason, how often and when last. */
function eventRef(e: EventView): NonNullable<NoticeView['event']> {
  return { reason: e.reason, count: e.count, ...(e.lastAt !== undefined ? { lastAt: e.lastAt } : {}) };
}

function createHint(missing: Missing): string {
  if (missing.key !== undefined) return `add the key ${missing.key} to ${missing.kind} ${missing.name}`;
  return `create ${missing.kind} ${missing.name} in namespace ${missing.namespace} (a ${missing.kind} document in the manifest, run again)`;
}

function configNotice(pod: Pod, c: Container, message: string, events: EventView[]): NoticeView {
  const ns = pod.metadata?.namespace ?? 'default';
  const missing = missingObject(message, ns);
  const ev = latestEvent(events, (e) => e.reason === 'Failed' && e.message === `Error: ${message}`);
  return {
    key: `config:${c.name}`,
    kind: 'container-config',
    title: `Container ${c.name} cannot be created (CreateContainerConfigError)`,
    message,
    ...(missing ? { missing } : {}),
    container: c.name,
    references: envReferences(c, missing),
    explain:
      'The kubelet resolves the environment before it creates the container. Until it can, the container stays Waiting ' +
      '(CreateContainerConfigError) and the kubelet tries again at every pod sync' +
      (missing ? `: ${createHint(missing)}, or mark the reference optional: true, and the container starts at the next try.` : '.'),
    ...(ev ? { event: eventRef(ev) } : {}),
  };
}

/** The image is pulled even when present: the policy says Always (set, or the default for no tag or :latest). */
const PULL_ALWAYS_EXPLAIN =
  ' Its imagePullPolicy is Always (the API server\'s default for an image without a tag or with :latest), so the kubelet pulls it even when it is present on this machine: where no registry is reachable, set imagePullPolicy: IfNotPresent on an image that is present (a tagged one, such as busybox:1.35).';
const PULL_ABSENT_EXPLAIN =
  ' The image is not present on this machine\'s Docker, so it has to be pulled: where no registry is reachable, load or build it into Docker (docker load, docker build; in a Pod Lab checkout, bash scripts/build-images.sh builds busybox:1.35 and the pause image), or name an image that is present.';
/** On a real cluster the image is the node's business: what the learner can check from here. */
const PULL_CLUSTER_EXPLAIN =
  ' Check the image name and tag, that the node can reach the registry, and for a private registry the pod\'s imagePullSecrets.';

function pullNotice(c: Container, reason: string, message: string, events: EventView[], place: 'lab' | 'cluster'): NoticeView {
  const policy = c.imagePullPolicy ?? 'IfNotPresent';
  const image = c.image ?? '';
  // the kubelet's Failed event of the pull (`Failed to pull image %q: ...`), the latest
  const ev = latestEvent(events, (e) => e.reason === 'Failed' && e.message.startsWith(`Failed to pull image ${goQuote(image)}`));
  return {
    key: `pull:${c.name}`,
    kind: 'image-pull',
    title: `Container ${c.name} cannot start: its image cannot be pulled (${reason})`,
    message,
    container: c.name,
    references: [`image ${image}`, `imagePullPolicy ${policy}`],
    explain:
      'The kubelet pulls a container\'s image, as its pull policy says, before it creates the container; after a failed pull it waits with a growing back-off (ImagePullBackOff) and tries again.' +
      (place === 'cluster' ? PULL_CLUSTER_EXPLAIN : policy === 'Always' ? PULL_ALWAYS_EXPLAIN : PULL_ABSENT_EXPLAIN),
    ...(ev ? { event: eventRef(ev) } : {}),
  };
}

/** A volume's missing key: the configmap/secret plugins' errors name the key, the volume names the object. */
function missingVolumeKey(pod: Pod, volume: string, error: string, namespace: string): Missing | undefined {
  const v = pod.spec?.volumes?.find((x) => x.name === volume);
  let m = /^configmap references non-existent config key: (.+)$/.exec(error);
  if (m && v?.configMap?.name) return { kind: 'ConfigMap', name: v.configMap.name, namespace, key: m[1]! };
  m = /^references non-existent secret key: (.+)$/.exec(error);
  if (m && v?.secret?.secretName) return { kind: 'Secret', name: v.secret.secretName, namespace, key: m[1]! };
  return undefined;
}

const MOUNT_FAILED = /^MountVolume\.SetUp failed for volume "([^"]+)" : (.*)$/s;

/** Whether some container of the pod has started (after which a mount failure no longer holds it back). */
function anyContainerStarted(pod: Pod): boolean {
  const st = pod.status ?? {};
  return [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? [])].some((s) => s.state?.running || s.state?.terminated || s.lastState?.terminated);
}

const SANDBOX_EXPLAIN =
  "The kubelet creates the pod's sandbox (the pause container that holds its network namespace) before any of its containers, so they stay Waiting (ContainerCreating) while it tries again at its next sync";
const HOST_PORT_EXPLAIN = {
  lab: ' A hostPort is a port of this machine that Docker forwards to the pod, and another pod or process holds this one: stop what holds it, choose another hostPort, or leave hostPort out (the pod is reached at its IP without one).',
  cluster: " A hostPort is a port of the node, and another pod or process on that node holds this one: choose another hostPort, or leave hostPort out (a Service or the pod's IP reaches it without one).",
};
/** Docker's words (and the Linux error) when a port to publish is taken. */
const PORT_TAKEN = /port is already allocated|address already in use/;

/** The pod's host ports, the one the error names first. */
function hostPortReferences(pod: Pod, message: string): string[] {
  const named = /:(\d+)(?: failed|:)/.exec(message)?.[1];
  const refs: { port: number; text: string }[] = [];
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const p of c.ports ?? []) if (p.hostPort) refs.push({ port: p.hostPort, text: `hostPort ${p.hostPort} (container ${c.name}, containerPort ${p.containerPort}/${p.protocol ?? 'TCP'})` });
  }
  return [...refs.filter((r) => String(r.port) === named), ...refs.filter((r) => String(r.port) !== named)].map((r) => r.text);
}

/** A sandbox the kubelet could not create, while the pod still has none (its latest FailedCreatePodSandBox). */
function sandboxNotice(pod: Pod, events: EventView[], place: 'lab' | 'cluster'): NoticeView | undefined {
  const condition = pod.status?.conditions?.find((c) => c.type === 'PodReadyToStartContainers');
  if (condition?.status === 'True') return undefined;
  const e = latestEvent(events, (x) => x.reason === 'FailedCreatePodSandBox');
  if (!e) return undefined;
  // A cluster without the condition (before 1.29, or the feature off): the sandbox exists once the
  // kubelet went on to the containers (an event after the failure, other than its retry's own)
  const after = (x: EventView) => (x.lastAt ?? 0) > (e.lastAt ?? 0) && !['FailedCreatePodSandBox', 'SandboxChanged', 'MissingClusterDNS'].includes(x.reason);
  if (!condition && events.some(after)) return undefined;
  const portTaken = PORT_TAKEN.test(e.message);
  return {
    key: 'sandbox',
    kind: 'sandbox',
    title: "The pod's sandbox cannot be created (FailedCreatePodSandBox): the pod cannot start",
    message: e.message,
    references: portTaken ? hostPortReferences(pod, e.message) : [],
    // the lab's pod worker retries after 10 s; a cluster's kubelet after its own back-off
    explain: `${SANDBOX_EXPLAIN}${place === 'lab' ? ', about 10 s later.' : '.'}${portTaken ? HOST_PORT_EXPLAIN[place] : ''}`,
    event: eventRef(e),
  };
}

/** The notices for a pod: config errors of its containers, then volumes that could not be set up. */
export function noticeViews(pod: Pod, events: EventView[], place: 'lab' | 'cluster' = 'lab'): NoticeView[] {
  const out: NoticeView[] = [];
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  for (const c of containers) {
    const w = statuses.find((s) => s.name === c.name)?.state?.waiting;
    if (w?.reason === 'CreateContainerConfigError') out.push(configNotice(pod, c, w.message ?? '', events));
    if (w?.reason === 'ErrImagePull' || w?.reason === 'ImagePullBackOff') out.push(pullNotice(c, w.reason, w.message ?? '', events, place));
  }
  const phase = pod.status?.phase ?? 'Pending';
  if (phase !== 'Pending' || pod.metadata?.deletionTimestamp || anyContainerStarted(pod)) return out;
  const sandbox = sandboxNotice(pod, events, place);
  if (sandbox) out.push(sandbox);
  // The latest FailedMount of each volume.
  const latest = new Map<string, { e: EventView; error: string }>();
  for (const e of events) {
    if (e.reason !== 'FailedMount') continue;
    const m = MOUNT_FAILED.exec(e.message);
    if (!m) continue;
    const prev = latest.get(m[1]!);
    if (!prev || (e.lastAt ?? 0) >= (prev.e.lastAt ?? 0)) latest.set(m[1]!, { e, error: m[2]! });
  }
  const ns = pod.metadata?.namespace ?? 'default';
  for (const [volume, { e, error }] of latest) {
    const missing = missingObject(error, ns) ?? missingVolumeKey(pod, volume, error, ns);
    out.push({
      key: `mount:${volume}`,
      kind: 'mount',
      title: `Volume ${volume} cannot be set up (FailedMount): the pod cannot start`,
      message: e.message,
      ...(missing ? { missing } : {}),
      volume,
      references: mountReferences(pod, volume),
      explain:
        'The kubelet sets up every volume before it starts the pod\'s containers, so they stay Waiting (ContainerCreating) ' +
        'while it retries the mount with a growing back-off' +
        (missing ? `: ${createHint(missing)}, or mark the volume source optional: true, and the pod starts at the next try.` : '.'),
      event: eventRef(e),
    });
  }
  return out;
}
