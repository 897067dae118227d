// Helpers for integration tests that use the real Docker through DockerRuntime. Every pod made
// here carries the lab label (the runtime adds it) and a per-run test label, so a test removes
// exactly its own containers even while other suites use the same Docker.
import { randomBytes, randomUUID } from 'node:crypto';
import Dockerode from 'dockerode';
import type { ContainerConfig, PodSandboxConfig } from '../../src/runtime/cri.js';

export const SandboxImage = 'registry.k8s.io/pause:3.10';
export const BusyboxImage = 'busybox:1.35';
export const TestRunLabel = 'io.podlab.test-run';

/** A label value unique to this test process. */
export const testRunId = `dr-${process.pid}-${randomBytes(3).toString('hex')}`;

export function podSandboxConfig(name: string, over: Partial<PodSandboxConfig> = {}): PodSandboxConfig {
  const uid = randomUUID();
  return {
    metadata: { name, namespace: 'default', uid, attempt: 0 },
    hostname: name,
    labels: { [TestRunLabel]: testRunId, app: name },
    annotations: {},
    portMappings: [],
    hostNetwork: false,
    hostIPC: false,
    hostPID: false,
    podManifest: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid } }),
    ...over,
  };
}

export function busyboxContainer(name: string, command: string[], over: Partial<ContainerConfig> = {}): ContainerConfig {
  return {
    metadata: { name, attempt: 0 },
    image: BusyboxImage,
    command,
    args: [],
    envs: [],
    mounts: [],
    labels: { [TestRunLabel]: testRunId },
    annotations: {},
    ...over,
  };
}

/** Polls `fn` until it returns a non-undefined value (or `timeoutMs` passes: then throws with `what`). */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Removes every container of this test run (by the test-run label), with force. */
export async function removeTestContainers(docker: Dockerode = new Dockerode()): Promise<number> {
  const items = await docker.listContainers({
    all: true,
    filters: { label: [`${TestRunLabel}=${testRunId}`, 'io.podlab.managed=true'] },
  });
  await Promise.all(items.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)));
  return items.length;
}

/** A free-looking TCP port for hostPort tests (random in a high range, to not collide with parallel suites). */
export function randomHostPort(): number {
  return 20000 + Math.floor(Math.random() * 20000);
}
