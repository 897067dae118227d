// Table tests of the kubelet's small pure decisions: the managed /etc/hosts, the active
// deadline, termination messages (log fallback, pod cap), the kill grace period.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod, PodStatus } from 'kubernetes-types/core/v1';
import { managedHostsFileContent } from '../../src/engine/kubelet/hosts.js';
import { pastActiveDeadline, untilActiveDeadline } from '../../src/engine/kubelet/active-deadline.js';
import { capTerminationMessages, messageFromLogLines, terminationMessage } from '../../src/engine/kubelet/termination-message.js';
import { killGracePeriod } from '../../src/engine/kubelet/container-lifecycle.js';
import { podHostnameAndDomain } from '../../src/engine/kubelet/sandbox.js';
import { logContainerId, waitingToStartMessage } from '../../src/engine/engine.js';
import { missingClusterDNS, podDNSType } from '../../src/engine/kubelet/dns.js';

const base = (spec: Partial<NonNullable<Pod['spec']>> = {}, name = 'web'): Pod => ({ metadata: { name, namespace: 'default', uid: 'u' }, spec: { containers: [{ name: 'app' }], ...spec } });
const header = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';

for (const [name, got, want] of [
  ['a pod with an IP gets the standard entries and its own line', managedHostsFileContent(base(), ['10.88.0.5']), `${header}10.88.0.5\tweb\n`],
  ['spec.hostname replaces the pod name', managedHostsFileContent(base({ hostname: 'db-0' }), ['10.88.0.5']), `${header}10.88.0.5\tdb-0\n`],
  [
    'a subdomain adds the fully qualified name before the short one',
    managedHostsFileContent(base({ hostname: 'db-0', subdomain: 'db' }), ['10.88.0.5']),
    `${header}10.88.0.5\tdb-0.db.default.svc.cluster.local\tdb-0\n`,
  ],
  [
    'hostAliases follow a blank line and their header',
    managedHostsFileContent(base({ hostAliases: [{ ip: '1.2.3.4', hostnames: ['foo', 'bar'] }] }), ['10.88.0.5']),
    `${header}10.88.0.5\tweb\n\n# Entries added by HostAliases.\n1.2.3.4\tfoo\tbar\n`,
  ],
  [
    'host networking copies the node file under its own header',
    managedHostsFileContent(base({ hostNetwork: true }), [], '127.0.0.1 localhost\n10.0.0.1 node\n'),
    '# Kubernetes-managed hosts file (host network).\n127.0.0.1 localhost\n10.0.0.1 node\n',
  ],
] as const) {
  test(`hosts file: ${name}`, () => assert.equal(got, want));
}

{
  const warning = 'kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.';
  const warned = { node: warning, pod: `pod: "web_default(u)". ${warning}` };
  for (const [name, spec, want] of [
    ['no dnsPolicy (the API server defaults ClusterFirst) asks for the cluster DNS the lab lacks', {}, { type: 'cluster', missing: warned }],
    ['ClusterFirst asks for it', { dnsPolicy: 'ClusterFirst' }, { type: 'cluster', missing: warned }],
    ['ClusterFirst on the host network means Default, and says nothing', { dnsPolicy: 'ClusterFirst', hostNetwork: true }, { type: 'host', missing: undefined }],
    ['ClusterFirstWithHostNet asks for it, on the host network too', { dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true }, { type: 'cluster', missing: warned }],
    ['ClusterFirstWithHostNet off the host network asks for it', { dnsPolicy: 'ClusterFirstWithHostNet' }, { type: 'cluster', missing: warned }],
    ['Default is the node resolver: nothing to say', { dnsPolicy: 'Default' }, { type: 'host', missing: undefined }],
    ['None takes dnsConfig only: nothing to say', { dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'] } }, { type: 'none', missing: undefined }],
  ] as const) {
    test(`GetPodDNS without cluster DNS: ${name}`, () => {
      const pod = base(spec as Partial<NonNullable<Pod['spec']>>);
      assert.deepEqual({ type: podDNSType(pod), missing: missingClusterDNS(pod) }, want);
    });
  }
}

test('hostname: a 70-character pod name is cut to 63 and trailing dashes are trimmed', () => {
  const long = `${'a'.repeat(62)}-bcdefgh`;
  assert.deepEqual(podHostnameAndDomain(base({}, long)), { hostname: 'a'.repeat(62), domain: '' });
});

const t0 = Date.UTC(2024, 0, 1, 12, 0, 0);
const withStart = (deadline?: number): Pod => ({ ...base({ activeDeadlineSeconds: deadline }), status: { startTime: '2024-01-01T12:00:00Z' } });
for (const [name, pod, now, want] of [
  ['no deadline is never past', withStart(undefined), t0 + 1e9, { past: false, until: undefined }],
  ['a deadline of 5 s is not past at 4.999 s', withStart(5), t0 + 4999, { past: false, until: 1 }],
  ['a deadline of 5 s is past at exactly 5 s', withStart(5), t0 + 5000, { past: true, until: 0 }],
  ['a pod without startTime has not started its deadline', base({ activeDeadlineSeconds: 5 }), t0 + 1e6, { past: false, until: undefined }],
] as const) {
  test(`active deadline: ${name}`, () => assert.deepEqual({ past: pastActiveDeadline(pod, now), until: untilActiveDeadline(pod, now) }, want));
}

test('termination message: the log fallback keeps the last 80 lines and their last 2048 bytes, each line with its newline', () => {
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i} ${'x'.repeat(40)}`);
  const got = messageFromLogLines(lines);
  const all = lines.slice(20).map((l) => `${l}\n`).join('');
  assert.equal(got, all.slice(all.length - 2048));
});

test('termination message: a last log line the container wrote without a newline gets none (the bytes kubectl logs returns)', () => {
  const lines: string[] & { unterminated?: boolean } = ['starting', 'boom'];
  lines.unterminated = true;
  assert.equal(messageFromLogLines(lines), 'starting\nboom');
});

for (const [name, inputs, want] of [
  ['the file wins over the logs', { policy: 'FallbackToLogsOnError', exitCode: 1, reason: 'Error', runtimeMessage: '', file: { text: 'from file' } }, 'from file'],
  ['an empty file with FallbackToLogsOnError and a failed exit uses the logs', { policy: 'FallbackToLogsOnError', exitCode: 1, reason: 'Error', runtimeMessage: '', file: { text: '' } }, 'a\nb\n'],
  ['exit 0 never falls back to the logs', { policy: 'FallbackToLogsOnError', exitCode: 0, reason: 'Completed', runtimeMessage: '', file: { text: '' } }, ''],
  ['ContainerCannotRun never falls back to the logs', { policy: 'FallbackToLogsOnError', exitCode: 128, reason: 'ContainerCannotRun', runtimeMessage: 'exec failed', file: { text: '' } }, 'exec failed'],
  ['File policy ignores the logs', { policy: 'File', exitCode: 1, reason: 'Error', runtimeMessage: '', file: { text: '' } }, ''],
  ['the runtime message comes first, joined with ": "', { policy: 'File', exitCode: 137, reason: 'OOMKilled', runtimeMessage: 'oom', file: { text: 'bye' } }, 'oom: bye'],
  ['a file that cannot be read says so', { policy: 'File', exitCode: 1, reason: 'Error', runtimeMessage: '', file: { error: 'EACCES' } }, 'Error on reading termination log /x: EACCES'],
] as const) {
  test(`termination message: ${name}`, async () => {
    assert.equal(await terminationMessage({ ...inputs, logs: async () => ({ lines: ['a', 'b'] }) }, '/x'), want);
  });
}

test('termination message: with 7 containers each message is cut to its first 1755 bytes', () => {
  const long = 'y'.repeat(4000);
  const status: PodStatus = { containerStatuses: [{ name: 'a', image: '', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, message: long } }, lastState: { terminated: { exitCode: 1, message: 'short' } } }] };
  const got = capTerminationMessages(status, 7);
  assert.deepEqual(got.containerStatuses?.[0]?.state?.terminated?.message, 'y'.repeat(1755));
  assert.deepEqual(got.containerStatuses?.[0]?.lastState?.terminated?.message, 'short');
});

for (const [name, pod, reason, want] of [
  ['a deletion grace period wins', { ...base({ terminationGracePeriodSeconds: 30, containers: [{ name: 'app', livenessProbe: { exec: { command: ['x'] }, terminationGracePeriodSeconds: 5 } }] }), metadata: { name: 'web', deletionGracePeriodSeconds: 3 } }, 'LivenessProbe', 3],
  ['a liveness kill uses the probe-level grace when set', base({ terminationGracePeriodSeconds: 30, containers: [{ name: 'app', livenessProbe: { exec: { command: ['x'] }, terminationGracePeriodSeconds: 60 } }] }), 'LivenessProbe', 60],
  ['a postStart kill ignores the probe-level grace', base({ terminationGracePeriodSeconds: 30, containers: [{ name: 'app', livenessProbe: { exec: { command: ['x'] }, terminationGracePeriodSeconds: 60 } }] }), 'FailedPostStartHook', 30],
  ['without any grace the minimum of 2 s applies', base({}), '', 2],
] as const) {
  test(`kill grace: ${name}`, () => assert.equal(killGracePeriod(pod as Pod, (pod as Pod).spec?.containers[0], reason), want));
}

// validateContainerLogStatus (pkg/kubelet/kubelet_pods.go) for a container with no instance to read:
// the most common pending failures in words, any other reason as it is.
for (const [name, reason, want] of [
  ['ErrImagePull: the image cannot be pulled', 'ErrImagePull', `container "app" in pod "web" is waiting to start: image can't be pulled`],
  ['ImagePullBackOff: trying and failing', 'ImagePullBackOff', 'container "app" in pod "web" is waiting to start: trying and failing to pull image'],
  ['another reason is named as it is', 'CreateContainerConfigError', 'container "app" in pod "web" is waiting to start: CreateContainerConfigError'],
  ['no status yet: ContainerCreating', undefined, 'container "app" in pod "web" is waiting to start: ContainerCreating'],
] as const) {
  test(`logs of a container that never ran: ${name}`, () => {
    const pod: Pod = { ...base(), status: reason ? { containerStatuses: [{ name: 'app', image: 'x', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason } } }] } : {} };
    assert.equal(waitingToStartMessage(pod, 'app'), want);
  });
}

// validateContainerLogStatus (pkg/kubelet/kubelet_pods.go): which instance `kubectl logs` reads, from
// the pod's status — in a crash loop's back-off the current log is the last terminated instance's,
// and --previous is that one too (not the instance before it).
describe('the container instance kubectl logs reads', () => {
  const cs = (over: Partial<ContainerStatus>): Pod => ({ ...base(), status: { containerStatuses: [{ name: 'app', image: 'x', imageID: '', ready: false, restartCount: 3, state: {}, ...over }] } });
  const last = { terminated: { exitCode: 3, containerID: 'docker://b2' } };
  const cases: [string, Pod, boolean, ReturnType<typeof logContainerId>][] = [
    ['running: the running instance', cs({ state: { running: {} }, containerID: 'docker://c3', lastState: last }), false, { id: 'c3' }],
    ['running, --previous: the last terminated one', cs({ state: { running: {} }, containerID: 'docker://c3', lastState: last }), true, { id: 'b2' }],
    ['waiting in back-off: the last terminated one', cs({ state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: last }), false, { id: 'b2' }],
    ['waiting in back-off, --previous: the same one', cs({ state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: last }), true, { id: 'b2' }],
    ['terminated: that instance', cs({ state: { terminated: { exitCode: 0, containerID: 'docker://d4' } }, lastState: last }), false, { id: 'd4' }],
    ['terminated without an ID (the next did not start): the last terminated one', cs({ state: { terminated: { exitCode: 0 } }, lastState: last }), false, { id: 'b2' }],
    ['terminated without any ID', cs({ state: { terminated: { exitCode: 0 } } }), false, { error: 'container "app" in pod "web" is terminated' }],
    ['--previous without a last state', cs({ state: { running: {} }, containerID: 'docker://c3' }), true, { error: 'previous terminated container "app" in pod "web" not found' }],
    ['waiting, never ran', cs({ state: { waiting: { reason: 'ErrImagePull' } } }), false, { error: `container "app" in pod "web" is waiting to start: image can't be pulled` }],
    ['no state at all', cs({}), false, { error: 'container "app" in pod "web" is waiting to start - no logs yet' }],
    ['no status yet', { ...base(), status: {} }, false, { error: 'container "app" in pod "web" is waiting to start: ContainerCreating' }],
  ];
  for (const [name, pod, previous, want] of cases) test(name, () => assert.deepEqual(logContainerId(pod, 'app', previous), want));
});
