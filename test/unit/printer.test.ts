import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerState, ContainerStatus, Pod, PodCondition, PodStatus } from 'kubernetes-types/core/v1';
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1';
import {
  DESCRIBE_TAB,
  StreamingTable,
  TABLE_TAB,
  configMapCells,
  configObjectTable,
  getTable,
  secretCells,
  humanDuration,
  podStatusText,
  readyText,
  restartsText,
  tabwrite,
} from '../../src/engine/printer.js';

const T0 = Date.UTC(2024, 0, 1, 10, 0, 0);
const at = (s: number) => T0 + s * 1000;
const iso = (s: number) => new Date(at(s)).toISOString().replace('.000Z', 'Z');

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('humanDuration matches apimachinery HumanDuration', () => {
  const cases: [string, number, string][] = [
    ['zero is 0s', 0, '0s'],
    ['a second in the future is tolerated as 0s', -1500, '0s'],
    ['two seconds in the future is invalid', -2500, '<invalid>'],
    ['seconds are truncated', 45 * SEC + 999, '45s'],
    ['up to two minutes stays in seconds', 119 * SEC, '119s'],
    ['two minutes exactly', 2 * MIN, '2m'],
    ['minutes and seconds below ten minutes', 5 * MIN + 3 * SEC, '5m3s'],
    ['ten minutes drops the seconds', 10 * MIN + 30 * SEC, '10m'],
    ['just below three hours is still minutes', 3 * HOUR - 1, '179m'],
    ['three hours exactly', 3 * HOUR, '3h'],
    ['hours and minutes below eight hours', 3 * HOUR + 4 * MIN, '3h4m'],
    ['eight hours drops the minutes', 8 * HOUR + 5 * MIN, '8h'],
    ['up to two days stays in hours', 47 * HOUR, '47h'],
    ['two days exactly', 2 * DAY, '2d'],
    ['days and hours below eight days', 2 * DAY + 3 * HOUR, '2d3h'],
    ['eight days drops the hours', 8 * DAY + 3 * HOUR, '8d'],
    ['just below two years is days', 729 * DAY, '729d'],
    ['two years exactly', 730 * DAY, '2y'],
    ['years and days below eight years', 731 * DAY, '2y1d'],
    ['eight years and beyond is only years', 8 * 365 * DAY + 10 * DAY, '8y'],
  ];
  for (const [name, ms, want] of cases) test(name, () => assert.equal(humanDuration(ms), want));
});

describe('tabwrite aligns like text/tabwriter', () => {
  const cases: [string, string, string][] = [
    ['cells are padded to the widest cell plus padding (at least the minimum width), the last cell is not', 'a\tbb\tc\naaa\tb\tcc\n', 'a     bb    c\naaa   b     cc\n'],
    ['a line without tabs ends the column block', 'Name:\tx\nIPs:\n  IP:\t1.2.3.4\n', 'Name:  x\nIPs:\n  IP:  1.2.3.4\n'],
    ['an empty first cell continues the column', 'Labels:\ta=b\n\tc=d\n', 'Labels:  a=b\n         c=d\n'],
  ];
  for (const [name, input, want] of cases) {
    test(name, () => assert.equal(tabwrite(input, name.startsWith('cells') ? TABLE_TAB : DESCRIBE_TAB), want));
  }

  test('a streaming table never narrows a column', () => {
    const t = new StreamingTable();
    assert.deepEqual(
      [t.line(['NAME', 'READY', 'STATUS']), t.line(['a-long-pod-name', '0/1', 'Pending']), t.line(['x', '1/1', 'Running'])],
      ['NAME   READY   STATUS', 'a-long-pod-name   0/1     Pending', 'x                 1/1     Running'],
    );
  });
});

// ------------------------------------------------------------------------------------------------
// pods for the STATUS column

const running = (ready = true, extra: Partial<ContainerStatus> = {}): Partial<ContainerStatus> => ({ state: { running: { startedAt: iso(1) } }, ready, started: true, ...extra });
const waiting = (reason: string, extra: Partial<ContainerStatus> = {}): Partial<ContainerStatus> => ({ state: { waiting: { reason } }, ...extra });
const terminated = (exitCode: number, reason?: string, extra: Partial<ContainerStatus> = {}): Partial<ContainerStatus> => ({
  state: { terminated: { exitCode, ...(reason ? { reason } : {}), finishedAt: iso(5) } },
  ...extra,
});
const signaled = (signal: number): Partial<ContainerStatus> => ({ state: { terminated: { exitCode: 128 + signal, signal, finishedAt: iso(5) } } });
const lastFailed = (finished: number): ContainerStatus['lastState'] => ({ terminated: { exitCode: 1, reason: 'Error', finishedAt: iso(finished) } });

interface Spec {
  phase?: string;
  init?: [string, Partial<ContainerStatus>?][];
  sidecars?: [string, Partial<ContainerStatus>?][];
  apps?: [string, Partial<ContainerStatus>?][];
  conditions?: [string, 'True' | 'False', string?][];
  deleting?: boolean;
  reason?: string;
}

function mkPod(s: Spec): Pod {
  const status = (name: string, st: Partial<ContainerStatus> | undefined): ContainerStatus | undefined =>
    st && { name, ready: false, restartCount: 0, image: 'busybox:1.35', imageID: '', state: {} as ContainerState, lastState: {}, ...st };
  const sidecars = (s.sidecars ?? []).map(([name]) => ({ name, image: 'busybox:1.35', restartPolicy: 'Always' }));
  const inits = (s.init ?? []).map(([name]) => ({ name, image: 'busybox:1.35' }));
  const podStatus: PodStatus = { phase: s.phase ?? 'Pending' };
  if (s.reason) podStatus.reason = s.reason;
  if (s.conditions) podStatus.conditions = s.conditions.map(([type, st, reason]): PodCondition => ({ type, status: st, ...(reason ? { reason } : {}) }));
  const initStatuses = [...(s.sidecars ?? []), ...(s.init ?? [])].map(([n, st]) => status(n, st)).filter((x): x is ContainerStatus => !!x);
  if (initStatuses.length > 0) podStatus.initContainerStatuses = initStatuses;
  const appStatuses = (s.apps ?? []).map(([n, st]) => status(n, st)).filter((x): x is ContainerStatus => !!x);
  if (appStatuses.length > 0) podStatus.containerStatuses = appStatuses;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: 'u', creationTimestamp: iso(0), ...(s.deleting ? { deletionTimestamp: iso(60) } : {}) },
    spec: {
      ...(sidecars.length + inits.length > 0 ? { initContainers: [...sidecars, ...inits] } : {}),
      containers: (s.apps ?? [['app']]).map(([name]) => ({ name, image: 'busybox:1.35' })),
    },
    status: podStatus,
  };
}

describe('the STATUS column follows printPod', () => {
  const cases: [string, Spec, string][] = [
    ['a pod without statuses shows its phase', { apps: [['app']] }, 'Pending'],
    ['status.reason wins over the phase', { phase: 'Failed', reason: 'Evicted', apps: [['app']] }, 'Evicted'],
    ['a container state wins over status.reason', { phase: 'Failed', reason: 'Evicted', apps: [['app', terminated(137, 'ContainerStatusUnknown')]] }, 'ContainerStatusUnknown'],
    ['a scheduling-gated pod says SchedulingGated', { conditions: [['PodScheduled', 'False', 'SchedulingGated']], apps: [['app']] }, 'SchedulingGated'],
    ['the first of two init containers running is Init:0/2', { init: [['init1', running(false)], ['init2', waiting('PodInitializing')]], apps: [['app', waiting('PodInitializing')]] }, 'Init:0/2'],
    ['the second init container running is Init:1/2', { init: [['init1', terminated(0, 'Completed')], ['init2', running(false)]], apps: [['app', waiting('PodInitializing')]] }, 'Init:1/2'],
    ['an init container waiting with PodInitializing counts as Init:n/m', { init: [['init1', waiting('PodInitializing')]], apps: [['app', waiting('PodInitializing')]] }, 'Init:0/1'],
    ['an init container that failed is Init:Error', { phase: 'Failed', init: [['init1', terminated(1, 'Error')], ['init2', waiting('PodInitializing')]], apps: [['app', waiting('PodInitializing')]] }, 'Init:Error'],
    ['an init container killed by a signal without a reason is Init:Signal:9', { init: [['init1', signaled(9)]], apps: [['app', waiting('PodInitializing')]] }, 'Init:Signal:9'],
    ['an init container exiting without a reason is Init:ExitCode:3', { init: [['init1', terminated(3)]], apps: [['app', waiting('PodInitializing')]] }, 'Init:ExitCode:3'],
    ['an init container crash-looping is Init:CrashLoopBackOff', { init: [['init1', waiting('CrashLoopBackOff', { lastState: lastFailed(5) })]], apps: [['app', waiting('PodInitializing')]] }, 'Init:CrashLoopBackOff'],
    ['an init container failing to pull is Init:ImagePullBackOff', { init: [['init1', waiting('ImagePullBackOff')]], apps: [['app', waiting('PodInitializing')]] }, 'Init:ImagePullBackOff'],
    ['init done and the app not created yet is PodInitializing', { init: [['init1', terminated(0, 'Completed')]], apps: [['app', waiting('PodInitializing')]] }, 'PodInitializing'],
    ['an app container being created is ContainerCreating', { apps: [['app', waiting('ContainerCreating')]] }, 'ContainerCreating'],
    ['a crash-looping app container is CrashLoopBackOff', { phase: 'Running', apps: [['app', waiting('CrashLoopBackOff', { lastState: lastFailed(5) })]] }, 'CrashLoopBackOff'],
    ['a pod whose containers exited 0 is Completed', { phase: 'Succeeded', apps: [['a', terminated(0, 'Completed')], ['b', terminated(0, 'Completed')]] }, 'Completed'],
    ['a failed container is Error', { phase: 'Failed', apps: [['app', terminated(1, 'Error')]] }, 'Error'],
    ['an out-of-memory container is OOMKilled', { phase: 'Failed', apps: [['app', terminated(137, 'OOMKilled')]] }, 'OOMKilled'],
    ['an app container killed by a signal without a reason is Signal:15', { phase: 'Failed', apps: [['app', signaled(15)]] }, 'Signal:15'],
    ['an app container exiting without a reason is ExitCode:2', { phase: 'Failed', apps: [['app', terminated(2)]] }, 'ExitCode:2'],
    ['the first container in the status list wins', { phase: 'Running', apps: [['a', waiting('ErrImagePull')], ['b', waiting('CrashLoopBackOff')]] }, 'ErrImagePull'],
    ['running and ready containers show the phase', { phase: 'Running', apps: [['a', running()], ['b', running()]] }, 'Running'],
    [
      'a completed container next to a ready running one is Running when the pod is Ready',
      { phase: 'Running', conditions: [['Ready', 'True']], apps: [['a', terminated(0, 'Completed')], ['b', running()]] },
      'Running',
    ],
    [
      'a completed container next to a ready running one is NotReady when the pod is not Ready',
      { phase: 'Running', conditions: [['Ready', 'False']], apps: [['a', terminated(0, 'Completed')], ['b', running()]] },
      'NotReady',
    ],
    [
      'a completed container next to a failed one shows the failure',
      { phase: 'Failed', apps: [['a', terminated(0, 'Completed')], ['b', terminated(1, 'Error')]] },
      'Error',
    ],
    ['a started sidecar is skipped and the app decides', { phase: 'Running', sidecars: [['proxy', running()]], apps: [['app', waiting('ContainerCreating')]] }, 'ContainerCreating'],
    ['a sidecar that has not started holds the pod in Init:0/1', { sidecars: [['proxy', running(false, { started: false })]], apps: [['app', waiting('PodInitializing')]] }, 'Init:0/1'],
    ['a pod being deleted is Terminating', { phase: 'Running', deleting: true, apps: [['app', running()]] }, 'Terminating'],
    ['a finished pod being deleted keeps its status', { phase: 'Succeeded', deleting: true, apps: [['app', terminated(0, 'Completed')]] }, 'Completed'],
    ['a pod on a lost node being deleted is Unknown', { phase: 'Running', reason: 'NodeLost', deleting: true, apps: [['app', running()]] }, 'Unknown'],
  ];
  for (const [name, spec, want] of cases) test(name, () => assert.equal(podStatusText(mkPod(spec)), want));
});

describe('the READY and RESTARTS columns', () => {
  const ready: [string, Spec, string][] = [
    ['ready running containers are counted', { phase: 'Running', apps: [['a', running()], ['b', running(false)]] }, '1/2'],
    ['a ready started sidecar counts in both numbers', { phase: 'Running', sidecars: [['proxy', running()]], apps: [['app', running()]] }, '2/2'],
    ['a sidecar counts in the total before it is ready', { sidecars: [['proxy', running(false, { started: false })]], apps: [['app', waiting('PodInitializing')]] }, '0/2'],
    ['nothing is ready while regular init containers run', { init: [['init1', running()]], apps: [['app', running()]] }, '0/1'],
  ];
  for (const [name, spec, want] of ready) test(name, () => assert.equal(readyText(mkPod(spec)), want));

  const restarts: [string, Spec, string][] = [
    ['no restarts is 0', { phase: 'Running', apps: [['app', running()]] }, '0'],
    [
      'restarts show the time since the last termination',
      { phase: 'Running', apps: [['a', running(true, { restartCount: 2, lastState: lastFailed(30) })], ['b', running(true, { restartCount: 1, lastState: lastFailed(35) })]] },
      '3 (25s ago)',
    ],
    ['restarts without a recorded termination show only the count', { phase: 'Running', apps: [['app', running(true, { restartCount: 2 })]] }, '2'],
    [
      'init container restarts are summed while the pod initializes',
      { init: [['init1', waiting('CrashLoopBackOff', { restartCount: 4, lastState: lastFailed(50) })]], apps: [['app', waiting('PodInitializing')]] },
      '4 (10s ago)',
    ],
    [
      'after initialization only sidecar restarts are added to the app restarts',
      {
        phase: 'Running',
        sidecars: [['proxy', running(true, { restartCount: 1, lastState: lastFailed(20) })]],
        init: [['init1', terminated(0, 'Completed', { restartCount: 5, lastState: lastFailed(55) })]],
        apps: [['app', running(true, { restartCount: 2, lastState: lastFailed(40) })]],
      },
      '3 (20s ago)',
    ],
  ];
  for (const [name, spec, want] of restarts) test(name, () => assert.equal(restartsText(mkPod(spec), at(60)), want));
});

describe('getTable prints kubectl get pods', () => {
  const crashing = mkPod({ phase: 'Running', apps: [['app', waiting('CrashLoopBackOff', { restartCount: 3, lastState: lastFailed(35) })]] });
  crashing.metadata!.name = 'crashloop';
  const initPod = mkPod({ init: [['init1', running(false)], ['init2', waiting('PodInitializing')]], apps: [['app', waiting('PodInitializing')]] });
  initPod.metadata!.name = 'init-demo';
  initPod.metadata = { ...initPod.metadata, creationTimestamp: iso(-3600 * 3 - 240) };
  const web = mkPod({ phase: 'Running', apps: [['web', running()], ['sidecar', running()]] });
  web.spec!.nodeName = 'podlab';
  web.status!.podIPs = [{ ip: '172.17.0.2' }];
  web.status!.podIP = '172.17.0.2';
  web.spec!.readinessGates = [{ conditionType: 'example.com/ready' }];
  web.status!.conditions = [{ type: 'example.com/ready', status: 'True' }];

  const cases: [string, Pod[], boolean, string][] = [
    ['no pods prints the kubectl message', [], false, 'No resources found in default namespace.'],
    [
      'pods are sorted by name and aligned with three spaces',
      [web, initPod, crashing],
      false,
      [
        'NAME        READY   STATUS             RESTARTS      AGE',
        'crashloop   0/1     CrashLoopBackOff   3 (25s ago)   60s',
        'init-demo   0/1     Init:0/2           0             3h5m',
        'web         2/2     Running            0             60s',
        '',
      ].join('\n'),
    ],
    [
      'the wide table adds IP, node, nominated node and readiness gates',
      [web, crashing],
      true,
      [
        'NAME        READY   STATUS             RESTARTS      AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'crashloop   0/1     CrashLoopBackOff   3 (25s ago)   60s   <none>       <none>   <none>           <none>',
        'web         2/2     Running            0             60s   172.17.0.2   podlab   <none>           1/1',
        '',
      ].join('\n'),
    ],
  ];
  for (const [name, pods, wide, want] of cases) test(name, () => assert.equal(getTable(pods, at(60), wide), want));
});

describe('kubectl get configmaps and secrets (printConfigMap, printSecret)', () => {
  const cm = (name: string, ageS: number, data: Record<string, string>, binaryData?: Record<string, string>): ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', creationTimestamp: iso(-ageS) },
    data,
    ...(binaryData ? { binaryData } : {}),
  });
  const secret = (name: string, ageS: number, type: string, data?: Record<string, string>): Secret => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'default', creationTimestamp: iso(-ageS) },
    type,
    ...(data ? { data } : {}),
  });

  test('a ConfigMap row counts data and binaryData keys; a Secret row shows its type and data keys', () => {
    assert.deepEqual(
      [configMapCells(cm('web', 90, { a: '1', b: '2' }, { bin: 'AA==' }), at(0)), secretCells(secret('pw', 3 * 3600, 'kubernetes.io/basic-auth', { username: 'YQ==' }), at(0)), secretCells({ metadata: { name: 'bare' } }, at(0))],
      [
        ['web', '3', '90s'],
        ['pw', 'kubernetes.io/basic-auth', '1', '3h'],
        ['bare', '', '0', '<unknown>'],
      ],
    );
  });

  const cases: [string, 'ConfigMap' | 'Secret', (ConfigMap | Secret)[], string][] = [
    ['no ConfigMaps prints the kubectl message', 'ConfigMap', [], 'No resources found in default namespace.'],
    [
      'ConfigMaps sorted by name under NAME DATA AGE',
      'ConfigMap',
      [cm('web-config', 125, { a: '1', b: '2', c: '3' }), cm('app', 5, {})],
      ['NAME         DATA   AGE', 'app          0      5s', 'web-config   3      2m5s', ''].join('\n'),
    ],
    [
      'Secrets under NAME TYPE DATA AGE',
      'Secret',
      [secret('web-secret', 60, 'Opaque', { greeting: 'aGk=' }), secret('tls', 86400 * 3, 'kubernetes.io/tls', { 'tls.crt': 'QQ==', 'tls.key': 'Qg==' })],
      ['NAME         TYPE                DATA   AGE', 'tls          kubernetes.io/tls   2      3d', 'web-secret   Opaque              1      60s', ''].join('\n'),
    ],
  ];
  for (const [name, kind, objects, want] of cases) test(name, () => assert.equal(configObjectTable(kind, objects, at(0)), want));
});
