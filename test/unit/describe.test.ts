import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Event, Pod, Probe } from 'kubernetes-types/core/v1';
import { describePod, describeProbe, eventAge, rfc1123z } from '../../src/engine/describe.js';

const T0 = Date.UTC(2024, 0, 1, 10, 0, 0);
const at = (s: number) => T0 + s * 1000;
const iso = (s: number) => new Date(at(s)).toISOString().replace('.000Z', 'Z');

/** The init-container example, running, with its app container crash-looping once. */
function initPod(): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'init-demo', namespace: 'default', uid: '6b1f0c2e', creationTimestamp: iso(0), labels: { app: 'init-demo', tier: 'web' } },
    spec: {
      nodeName: 'podlab',
      restartPolicy: 'Always',
      initContainers: [{ name: 'setup', image: 'busybox:1.35', command: ['sh', '-c', 'echo step1 >> /work/log'], volumeMounts: [{ name: 'work', mountPath: '/work' }] }],
      containers: [
        {
          name: 'web',
          image: 'busybox:1.35',
          args: ['httpd', '-f', '-p', '8080'],
          ports: [{ containerPort: 8080, hostPort: 30080, protocol: 'TCP' }],
          env: [
            { name: 'GREETING', value: 'hello' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
          ],
          resources: { limits: { cpu: '0.5', memory: '128Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
          volumeMounts: [{ name: 'work', mountPath: '/work', readOnly: true }],
        },
      ],
      volumes: [{ name: 'work', emptyDir: {} }],
      tolerations: [
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'PodReadyToStartContainers', status: 'True', lastTransitionTime: iso(2) },
        { type: 'Initialized', status: 'True', lastTransitionTime: iso(4) },
        { type: 'Ready', status: 'True', lastTransitionTime: iso(20) },
        { type: 'ContainersReady', status: 'True', lastTransitionTime: iso(20) },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: iso(0) },
      ],
      hostIP: '172.17.0.1',
      podIP: '172.17.0.3',
      podIPs: [{ ip: '172.17.0.3' }],
      startTime: iso(1),
      initContainerStatuses: [
        {
          name: 'setup',
          state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: iso(3), finishedAt: iso(3), containerID: 'docker://aa11' } },
          lastState: {},
          ready: true,
          restartCount: 0,
          image: 'busybox:1.35',
          imageID: 'docker://sha256:5242710cbd55',
          containerID: 'docker://aa11',
          started: false,
        },
      ],
      containerStatuses: [
        {
          name: 'web',
          state: { running: { startedAt: iso(19) } },
          lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: iso(5), finishedAt: iso(6), containerID: 'docker://bb22' } },
          ready: true,
          restartCount: 1,
          image: 'busybox:1.35',
          imageID: 'docker://sha256:5242710cbd55',
          containerID: 'docker://cc33',
          started: true,
        },
      ],
      qosClass: 'Burstable',
    },
  };
}

function event(reason: string, message: string, first: number, last: number, count: number, type = 'Normal', component = 'kubelet'): Event {
  return {
    metadata: { name: `init-demo.${reason}`, namespace: 'default' },
    involvedObject: { kind: 'Pod', name: 'init-demo', namespace: 'default' },
    type,
    reason,
    message,
    source: { component },
    firstTimestamp: iso(first),
    lastTimestamp: iso(last),
    count,
  };
}

const initEvents: Event[] = [
  event('Started', 'Started container web', 19, 19, 2),
  event('Scheduled', 'Successfully assigned default/init-demo to podlab', 0, 0, 1, 'Normal', 'default-scheduler'),
  event('Pulled', 'Container image "busybox:1.35" already present on machine', 2, 18, 3),
  event('BackOff', 'Back-off restarting failed container web in pod init-demo_default(6b1f0c2e)', 7, 7, 1, 'Warning'),
];

describe('describePod prints kubectl describe pod', () => {
  test('a running pod with an init container, resources, env, volumes and events', () => {
    assert.equal(
      describePod(initPod(), initEvents, at(200)),
      `Name:             init-demo
Namespace:        default
Priority:         0
Service Account:  default
Node:             podlab/172.17.0.1
Start Time:       Mon, 01 Jan 2024 10:00:01 +0000
Labels:           app=init-demo
                  tier=web
Annotations:      <none>
Status:           Running
IP:               172.17.0.3
IPs:
  IP:  172.17.0.3
Init Containers:
  setup:
    Container ID:  docker://aa11
    Image:         busybox:1.35
    Image ID:      docker://sha256:5242710cbd55
    Port:          <none>
    Host Port:     <none>
    Command:
      sh
      -c
      echo step1 >> /work/log
    State:          Terminated
      Reason:       Completed
      Exit Code:    0
      Started:      Mon, 01 Jan 2024 10:00:03 +0000
      Finished:     Mon, 01 Jan 2024 10:00:03 +0000
    Ready:          True
    Restart Count:  0
    Environment:    <none>
    Mounts:
      /work from work (rw)
Containers:
  web:
    Container ID:  docker://cc33
    Image:         busybox:1.35
    Image ID:      docker://sha256:5242710cbd55
    Port:          8080/TCP
    Host Port:     30080/TCP
    Args:
      httpd
      -f
      -p
      8080
    State:          Running
      Started:      Mon, 01 Jan 2024 10:00:19 +0000
    Last State:     Terminated
      Reason:       Error
      Exit Code:    1
      Started:      Mon, 01 Jan 2024 10:00:05 +0000
      Finished:     Mon, 01 Jan 2024 10:00:06 +0000
    Ready:          True
    Restart Count:  1
    Limits:
      cpu:     500m
      memory:  128Mi
    Requests:
      cpu:     250m
      memory:  64Mi
    Environment:
      GREETING:  hello
      POD_NAME:  init-demo (v1:metadata.name)
    Mounts:
      /work from work (ro)
Conditions:
  Type                        Status
  PodReadyToStartContainers   True 
  Initialized                 True 
  Ready                       True 
  ContainersReady             True 
  PodScheduled                True 
Volumes:
  work:
    Type:        EmptyDir (a temporary directory that shares a pod's lifetime)
    Medium:      
    SizeLimit:   <unset>
QoS Class:       Burstable
Node-Selectors:  <none>
Tolerations:     node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                 node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
Events:
  Type     Reason     Age                   From               Message
  ----     ------     ----                  ----               -------
  Normal   Scheduled  3m20s                 default-scheduler  Successfully assigned default/init-demo to podlab
  Warning  BackOff    3m13s                 kubelet            Back-off restarting failed container web in pod init-demo_default(6b1f0c2e)
  Normal   Pulled     3m2s (x3 over 3m18s)  kubelet            Container image "busybox:1.35" already present on machine
  Normal   Started    3m1s (x2 over 3m1s)   kubelet            Started container web
`,
    );
  });

  test('an unscheduled pod being deleted, with ports, probes, mounts, volumes and no events', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web',
        namespace: 'default',
        uid: 'u1',
        creationTimestamp: iso(0),
        deletionTimestamp: iso(90),
        deletionGracePeriodSeconds: 30,
        annotations: { 'example.com/note': 'hello' },
      },
      spec: {
        restartPolicy: 'Never',
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            ports: [{ containerPort: 80 }, { containerPort: 443, protocol: 'TCP' }],
            readinessProbe: { httpGet: { path: '/healthz', port: 8080 } },
            livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 5 },
            volumeMounts: [
              { name: 'data', mountPath: '/data' },
              { name: 'cfg', mountPath: '/etc/cfg', readOnly: true, subPath: 'app.conf' },
            ],
          },
        ],
        volumes: [
          { name: 'data', emptyDir: {} },
          { name: 'cfg', configMap: { name: 'app-config' } },
          { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
        ],
        nodeSelector: { disk: 'ssd' },
      },
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector." }],
        qosClass: 'BestEffort',
      },
    };
    assert.equal(
      describePod(pod, [], at(60)),
      `Name:                      web
Namespace:                 default
Priority:                  0
Service Account:           default
Node:                      <none>
Labels:                    <none>
Annotations:               example.com/note: hello
Status:                    Terminating (lasts <invalid>)
Termination Grace Period:  30s
IP:                        
IPs:                       <none>
Containers:
  app:
    Image:        nginx:1.27
    Ports:        80/TCP, 443/TCP
    Host Ports:   0/TCP, 0/TCP
    Liveness:     exec [cat /tmp/healthy] delay=0s timeout=1s period=5s #success=1 #failure=3
    Readiness:    http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3
    Environment:  <none>
    Mounts:
      /data from data (rw)
      /etc/cfg from cfg (ro,path="app.conf")
Conditions:
  Type           Status
  PodScheduled   False 
Volumes:
  data:
    Type:       EmptyDir (a temporary directory that shares a pod's lifetime)
    Medium:     
    SizeLimit:  <unset>
  cfg:
    Type:      ConfigMap (a volume populated by a ConfigMap)
    Name:      app-config
    Optional:  false
  host:
    Type:          HostPath (bare host directory volume)
    Path:          /var/log
    HostPathType:  Directory
QoS Class:         BestEffort
Node-Selectors:    disk=ssd
Tolerations:       <none>
Events:            <none>
`,
    );
  });

  test('a waiting container shows its reason but not its message, and a failed pod its reason and message', () => {
    const base = initPod();
    const pod: Pod = {
      ...base,
      status: {
        ...base.status,
        phase: 'Failed',
        reason: 'DeadlineExceeded',
        message: 'Pod was active on the node longer than the specified deadline',
        containerStatuses: [
          { name: 'web', state: { waiting: { reason: 'ErrImagePull', message: 'pull access denied' } }, lastState: {}, ready: false, restartCount: 0, image: 'busybox:1.35', imageID: '' },
        ],
      },
    };
    const text = describePod(pod, [], at(60));
    assert.match(text, /\nStatus:           Failed\nReason:           DeadlineExceeded\nMessage:          Pod was active on the node longer than the specified deadline\n/);
    assert.match(text, /\n    Container ID:  \n    Image:         busybox:1\.35\n    Image ID:      \n/);
    assert.match(text, /\n    State:          Waiting\n      Reason:       ErrImagePull\n    Ready:          False\n/);
    assert.doesNotMatch(text, /pull access denied/);
  });
});

describe("describePod's environment (kubectl describeContainerEnvFrom / describeContainerEnvVars)", () => {
  test('envFrom sources, literal values unexpanded, fieldRef values only for metadata.name/namespace, resource fields on the container, key references', () => {
    const pod: Pod = {
      metadata: { name: 'env-demo', namespace: 'default', uid: 'u1', creationTimestamp: iso(0), labels: { app: 'env' } },
      spec: {
        nodeName: 'podlab',
        containers: [
          {
            name: 'app',
            image: 'busybox:1.35',
            resources: { requests: { memory: '64Mi' } },
            envFrom: [{ configMapRef: { name: 'cfg' } }, { secretRef: { name: 'db', optional: true }, prefix: 'DB_' }],
            env: [
              { name: 'MULTI', value: 'line1\nline2' },
              { name: 'REF', value: '$(MULTI)' },
              { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
              { name: 'NODE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
              { name: 'APP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['app']" } } },
              { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
              { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'requests.memory', divisor: '1Mi' } } },
              { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode' } } },
              { name: 'PASS', valueFrom: { secretKeyRef: { name: 'db', key: 'password', optional: true } } },
            ],
          },
        ],
      },
      status: { phase: 'Pending', hostIP: '172.17.0.1', podIP: '172.17.0.3' },
    };
    const text = describePod(pod, [], at(60));
    const section = text.slice(text.indexOf('    Environment Variables from:'), text.indexOf('    Mounts:'));
    assert.equal(
      section,
      `    Environment Variables from:
      cfg  ConfigMap                 Optional: false
      db   Secret with prefix 'DB_'  Optional: true
    Environment:
      MULTI:     line1
                 line2
      REF:       $(MULTI)
      POD_NAME:  env-demo (v1:metadata.name)
      NODE:       (v1:spec.nodeName)
      APP:        (v1:metadata.labels['app'])
      CPU:       node allocatable (limits.cpu)
      MEM:       64 (requests.memory)
      MODE:      <set to the key 'mode' of config map 'cfg'>  Optional: false
      PASS:      <set to the key 'password' in secret 'db'>   Optional: true
`,
    );
  });
});

describe('describe helpers', () => {
  const probes: [string, Probe, string][] = [
    ['an exec probe lists its command like a Go slice', { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 }, 'exec [cat /tmp/healthy] delay=5s timeout=1s period=5s #success=1 #failure=3'],
    ['an httpGet probe prints a URL without host', { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTPS' }, failureThreshold: 1 }, 'http-get https://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=1'],
    ['an httpGet probe on a named port with a host', { httpGet: { host: 'example.com', path: '/', port: 'http' } }, 'http-get http://example.com:http/ delay=0s timeout=1s period=10s #success=1 #failure=3'],
    ['a tcpSocket probe prints host:port', { tcpSocket: { port: 6379 }, timeoutSeconds: 3 }, 'tcp-socket :6379 delay=0s timeout=3s period=10s #success=1 #failure=3'],
    ['a grpc probe prints the pod placeholder', { grpc: { port: 9090, service: 'health' } }, 'grpc <pod>:9090 health delay=0s timeout=1s period=10s #success=1 #failure=3'],
    // kubectl 1.33 printed `http-get https://example.invalid:8443/ready%3Fx=1` for path /ready?x=1 (Go's url.URL escapes the path)
    ['an httpGet path is escaped as Go escapes a URL path', { httpGet: { host: 'example.invalid', path: '/ready?x=1', port: 8443, scheme: 'HTTPS' } }, 'http-get https://example.invalid:8443/ready%3Fx=1 delay=0s timeout=1s period=10s #success=1 #failure=3'],
    ['spaces and non-ASCII are escaped by byte; $&+,:;=@ are kept', { httpGet: { path: '/a b/é/$&+,:;=@!', port: 80 } }, 'http-get http://:80/a%20b/%C3%A9/$&+,:;=@%21 delay=0s timeout=1s period=10s #success=1 #failure=3'],
    ['a path of exactly * stays unescaped (net/url keeps it)', { httpGet: { path: '*', port: 80 } }, 'http-get http://:80/* delay=0s timeout=1s period=10s #success=1 #failure=3'],
    ['a path without a leading slash gets one after the host', { httpGet: { path: 'healthz', port: 80 } }, 'http-get http://:80/healthz delay=0s timeout=1s period=10s #success=1 #failure=3'],
  ];
  for (const [name, probe, want] of probes) test(name, () => assert.equal(describeProbe(probe), want));

  const ages: [string, Partial<Event>, string][] = [
    ['a single event shows the time since it happened', { firstTimestamp: iso(0), lastTimestamp: iso(0), count: 1 }, '100s'],
    ['a repeated event shows the last time, the count and the span', { firstTimestamp: iso(0), lastTimestamp: iso(90), count: 4 }, '10s (x4 over 100s)'],
    ['an event series uses its last observed time', { eventTime: new Date(at(10)).toISOString(), series: { count: 7, lastObservedTime: new Date(at(95)).toISOString() } }, '5s (x7 over 90s)'],
    ['an event without times is unknown', {}, '<unknown>'],
  ];
  for (const [name, e, want] of ages) test(name, () => assert.equal(eventAge(e as Event, at(100)), want));

  test('times are printed in the RFC 1123 layout with a numeric zone', () => {
    assert.equal(rfc1123z('2024-02-29T23:05:09Z'), 'Thu, 29 Feb 2024 23:05:09 +0000');
  });
});

describe('describe pod in kubectl 1.33\'s words (as kubectl 1.33 printed them against the lab)', () => {
  const section = (text: string, from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to, text.indexOf(from)));
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'dsc', namespace: 'default', uid: 'u1', creationTimestamp: iso(0) },
    spec: {
      initContainers: [{ name: 'side', image: 'busybox:1.35', restartPolicy: 'Always', command: ['sleep', '3600'] }],
      containers: [{ name: 'app', image: 'busybox:1.35' }],
      volumes: [
        {
          name: 'p',
          projected: {
            sources: [
              { configMap: { name: 'app-cfg' } },
              { configMap: { name: 'app-cfg', optional: true } },
              { secret: { name: 'app-sec' } },
              { downwardAPI: { items: [{ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }] } },
            ],
          },
        },
      ],
    },
    status: {
      phase: 'Running',
      initContainerStatuses: [
        { name: 'side', image: 'busybox:1.35', imageID: 'docker://sha256:c6fc', containerID: 'docker://f973', ready: true, restartCount: 0, started: true, state: { running: { startedAt: iso(1) } } },
      ],
    },
  };
  const text = describePod(pod, [], at(60));
  test('a sidecar init container has no Restart Policy line (kubectl 1.33 prints none)', () =>
    assert.equal(
      section(text, 'Init Containers:', 'Containers:\n  app'),
      `Init Containers:
  side:
    Container ID:  docker://f973
    Image:         busybox:1.35
    Image ID:      docker://sha256:c6fc
    Port:          <none>
    Host Port:     <none>
    Command:
      sleep
      3600
    State:          Running
      Started:      Mon, 01 Jan 2024 10:00:01 +0000
    Ready:          True
    Restart Count:  0
    Environment:    <none>
    Mounts:         <none>
`,
    ));
  test('a projected volume\'s ConfigMaps and Secrets say Optional, false when unset', () =>
    assert.equal(
      section(text, 'Volumes:', 'QoS Class:'),
      `Volumes:
  p:
    Type:           Projected (a volume that contains injected data from multiple sources)
    ConfigMapName:  app-cfg
    Optional:       false
    ConfigMapName:  app-cfg
    Optional:       true
    SecretName:     app-sec
    Optional:       false
    DownwardAPI:    true
`,
    ));
});

describe('the header, and ephemeral containers (as kubectl 1.33 printed them against the lab)', () => {
  const base: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'extra', namespace: 'default', uid: 'u2', creationTimestamp: iso(0) },
    spec: { nodeName: 'podlab-node', serviceAccountName: 'default', containers: [{ name: 'app', image: 'busybox:1.35' }] },
    status: { phase: 'Running', hostIP: '127.0.0.1', podIP: '172.17.0.12', podIPs: [{ ip: '172.17.0.12' }], startTime: iso(0) },
  };
  const head = (pod: Pod) => describePod(pod, [], at(60)).split('Containers:')[0];
  test('a pod naming a PriorityClass that admission did not resolve has no Priority line', () =>
    assert.equal(
      head({ ...base, spec: { ...base.spec!, priorityClassName: 'high-priority' } }),
      `Name:                 extra
Namespace:            default
Priority Class Name:  high-priority
Service Account:      default
Node:                 podlab-node/127.0.0.1
Start Time:           Mon, 01 Jan 2024 10:00:00 +0000
Labels:               <none>
Annotations:          <none>
Status:               Running
IP:                   172.17.0.12
IPs:
  IP:  172.17.0.12
`,
    ));
  test("the pod's seccomp profile follows the status lines (and its file, for Localhost)", () => {
    assert.equal(
      head({ ...base, spec: { ...base.spec!, priority: 0, securityContext: { seccompProfile: { type: 'RuntimeDefault' } } } }),
      `Name:             extra
Namespace:        default
Priority:         0
Service Account:  default
Node:             podlab-node/127.0.0.1
Start Time:       Mon, 01 Jan 2024 10:00:00 +0000
Labels:           <none>
Annotations:      <none>
Status:           Running
SeccompProfile:   RuntimeDefault
IP:               172.17.0.12
IPs:
  IP:  172.17.0.12
`,
    );
    assert.match(describePod({ ...base, spec: { ...base.spec!, securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } } } }, [], at(60)), /\nSeccompProfile: +Localhost\nLocalhostProfile: +profiles\/audit\.json\nIP:/);
  });
  test('ephemeral containers get their own section after the containers', () => {
    const pod: Pod = {
      ...base,
      spec: { ...base.spec!, ephemeralContainers: [{ name: 'dbg', image: 'busybox:1.35', command: ['sh', '-c', 'echo dbg here; ps | head -3; sleep 2'] }] },
      status: {
        ...base.status!,
        ephemeralContainerStatuses: [
          {
            name: 'dbg',
            image: 'busybox:1.35',
            imageID: 'docker://sha256:c6fc',
            containerID: 'docker://0558',
            ready: false,
            restartCount: 0,
            state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: iso(13), finishedAt: iso(15) } },
          },
        ],
      },
    };
    const text = describePod(pod, [], at(60));
    assert.equal(
      text.slice(text.indexOf('Ephemeral Containers:'), text.indexOf('QoS Class:')),
      `Ephemeral Containers:
  dbg:
    Container ID:  docker://0558
    Image:         busybox:1.35
    Image ID:      docker://sha256:c6fc
    Port:          <none>
    Host Port:     <none>
    Command:
      sh
      -c
      echo dbg here; ps | head -3; sleep 2
    State:          Terminated
      Reason:       Completed
      Exit Code:    0
      Started:      Mon, 01 Jan 2024 10:00:13 +0000
      Finished:     Mon, 01 Jan 2024 10:00:15 +0000
    Ready:          False
    Restart Count:  0
    Environment:    <none>
    Mounts:         <none>
Volumes:            <none>
`,
    );
  });
});
