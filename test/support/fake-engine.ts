// An engine on the recording fake runtime and the fake clock: the executor's timing without Docker.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Container, Node, Pod } from 'kubernetes-types/core/v1';
import { Engine } from '../../src/engine/engine.js';
import { FakeClock } from '../../src/engine/clock.js';
import { FakeRuntime } from './fake-runtime.js';
import { Registry, RESOURCES } from '../../src/server/resources.js';

export interface FakeLab {
  clock: FakeClock;
  rt: FakeRuntime;
  engine: Engine;
  t0: number;
  /** The lab's state directory (pod directories, volumes). */
  stateDir: string;
  /** The pod as the store has it now. */
  pod(name?: string): Pod | undefined;
  /** `reason: message` of the pod's events in order of first occurrence, with (xN) when repeated. */
  events(name?: string): string[];
  close(): Promise<void>;
}

/** How events() writes the kubelet's MissingClusterDNS Warning on pod `name` (the lab has no cluster DNS). */
export function missingClusterDNSLine(uid: string | undefined, count: number, name = 'p', namespace = 'default'): string {
  return `MissingClusterDNS: pod: "${name}_${namespace}(${uid})". kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.${count > 1 ? ` (x${count})` : ''}`;
}

export async function fakeLab(opts: { backoffInitialMs?: number; nodes?: Node[] } = {}): Promise<FakeLab> {
  const clock = new FakeClock();
  const rt = new FakeRuntime(clock);
  const stateDir = mkdtempSync(join(tmpdir(), 'podlab-fake-'));
  const engine = await Engine.start({
    runtime: rt,
    clock,
    random: () => 0,
    settings: { stateDir, relistIntervalMs: 10_000, ...(opts.backoffInitialMs ? { backoffInitialMs: opts.backoffInitialMs } : {}), ...(opts.nodes ? { nodes: opts.nodes } : {}) },
  });
  return {
    clock,
    rt,
    engine,
    t0: clock.now(),
    stateDir,
    pod: (name = 'p') => engine.getPod('default', name),
    events: (name = 'p') =>
      engine
        .listEvents()
        .filter((e) => e.involvedObject.name === name && e.source?.component === 'kubelet')
        .map((e) => `${e.involvedObject.fieldPath ? `${e.involvedObject.fieldPath.replace(/^spec\./, '')} ` : ''}${e.reason}: ${e.message}${(e.count ?? 1) > 1 ? ` (x${e.count})` : ''}`),
    async close() {
      await engine.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** A pod with busybox containers (sh -c true) unless given. */
export function podOf(spec: { containers: Partial<Container>[]; initContainers?: Partial<Container>[]; [k: string]: unknown }, name = 'p'): Pod {
  const fill = (c: Partial<Container>, i: number): Container => ({ name: `c${i}`, image: 'busybox:1.35', command: ['sh', '-c', 'true'], ...c }) as Container;
  const { containers, initContainers, ...rest } = spec;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { ...rest, containers: containers.map(fill), ...(initContainers ? { initContainers: initContainers.map(fill) } : {}) },
  } as Pod;
}

/** The container state of `name` in the pod's status, as one short string (`running`, `waiting:Reason`, `terminated:Reason/code`). */
export function stateOf(pod: Pod | undefined, name: string): string {
  const s = [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])].find((x) => x.name === name);
  if (!s) return 'none';
  if (s.state?.running) return 'running';
  if (s.state?.terminated) return `terminated:${s.state.terminated.reason}/${s.state.terminated.exitCode}`;
  return `waiting:${s.state?.waiting?.reason ?? ''}`;
}

/** The lab server's resources over a fake lab, with the `default` namespace the server makes at start. */
export async function fakeRegistry(): Promise<{ lab: FakeLab; registry: Registry }> {
  const lab = await fakeLab();
  const registry = new Registry(lab.engine, () => lab.clock.now());
  await registry.create(RESOURCES.namespaces!, undefined, '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"default"}}', { fieldValidation: 'Strict', dryRun: false });
  return { lab, registry };
}
