// Builders for pure-function tests: pods and runtime states without Docker.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { KContainerStatus, RuntimePodStatus } from '../../src/engine/kubelet/types.js';
import type { PodSandboxStatus } from '../../src/runtime/cri.js';
import { hashContainer } from '../../src/engine/kubelet/hash.js';
import type { RecordedStream } from '../../src/extension/panel/recording.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

export function pod(opts: {
  containers?: string[];
  inits?: string[];
  sidecars?: string[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  deleting?: boolean;
  hostNetwork?: boolean;
}): Pod {
  const mk = (name: string): Container => ({ name, image: 'busybox:1.35', command: ['sh', '-c', 'true'] });
  const inits: Container[] = [
    ...(opts.sidecars ?? []).map((n) => ({ ...mk(n), restartPolicy: 'Always' })),
    ...(opts.inits ?? []).map(mk),
  ];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'p',
      namespace: 'default',
      uid: 'uid-1',
      ...(opts.deleting ? { deletionTimestamp: '2024-01-01T12:00:00Z' } : {}),
    },
    spec: {
      restartPolicy: opts.restartPolicy ?? 'Always',
      hostNetwork: opts.hostNetwork,
      ...(inits.length ? { initContainers: inits } : {}),
      containers: (opts.containers ?? ['app']).map(mk),
    },
  };
}

/** Orders init containers so sidecars named in `sidecarsFirst` keep their spec place: tests build inits explicitly when order matters. */
export function sandbox(state: 'ready' | 'notready' = 'ready', attempt = 0, ip = '172.17.0.2'): PodSandboxStatus {
  return {
    id: `sb${attempt}`,
    metadata: { name: 'p', namespace: 'default', uid: 'uid-1', attempt },
    state: state === 'ready' ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY',
    createdAt: T0,
    ip: state === 'ready' ? ip : '',
    labels: {},
    annotations: {},
  };
}

let seq = 0;
export function ctr(
  p: Pod,
  name: string,
  state: KContainerStatus['state'],
  extra: Partial<KContainerStatus> = {},
): KContainerStatus {
  const spec = [...(p.spec?.initContainers ?? []), ...(p.spec?.containers ?? [])].find((c) => c.name === name);
  return {
    id: `${name}-${++seq}`,
    name,
    state,
    createdAt: T0,
    startedAt: state === 'created' ? 0 : T0,
    finishedAt: state === 'exited' ? T0 + 1000 : 0,
    exitCode: 0,
    image: 'busybox:1.35',
    imageRef: 'sha256:abc',
    reason: state === 'exited' ? ((extra.exitCode ?? 0) === 0 ? 'Completed' : 'Error') : '',
    message: '',
    hash: spec ? hashContainer(spec) : '',
    restartCount: 0,
    sandboxId: 'sb0',
    ...extra,
  };
}

export function runtime(sandboxes: PodSandboxStatus[], containers: KContainerStatus[]): RuntimePodStatus {
  return { uid: 'uid-1', name: 'p', namespace: 'default', sandboxes, containers };
}

/** A recorded engine stream of test/fixtures/recorded (the panel's unit and webview tests replay them). */
export function recordedStream(name: string): RecordedStream {
  return JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'recorded', `${name}.json`), 'utf8')) as RecordedStream;
}
