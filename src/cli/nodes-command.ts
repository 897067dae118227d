// `podlab nodes`: the lab's nodes — the Docker node that runs real containers and the simulated
// nodes a learner adds to watch the scheduler place pods (src/engine/simulated/). A client of the
// lab server like the other commands: nodes are v1 Node objects created and deleted through the
// API, so `kubectl get nodes` shows the same. No kubectl counterpart for `add` (kubectl creates
// nodes from manifests); `list` prints what `kubectl get nodes` would, with the node's kind.
import type { Node, Pod, Taint } from 'kubernetes-types/core/v1';
import type { RemoteEngine } from '../client/remote-engine.js';
import { UsageError, parse } from './args.js';
import { formatTable, translateTimestampSince } from '../engine/printer.js';
import { parseQuantity } from '../validation/quantity.js';
import { isSimulatedNode, SimulatedNodeAnnotation, SimulatedStartDelayAnnotation } from '../shared/labels.js';
import { parseGoDuration } from '../shared/go.js';

type Io = { out: (s: string) => void; err: (s: string) => void };

/** At most this many nodes per `add` (a lab, not a cloud: 5,000 is kube-scheduler's own test size). */
export const MAX_ADD = 10_000;

const TAINT = /^([A-Za-z0-9][-A-Za-z0-9_./]*)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/;

/** The Nodes `podlab nodes add --simulated N` creates (pure: the names in use in, the objects out). */
export function simulatedNodes(opts: { count: number; prefix: string; cpu: string; memory: string; pods: string; zones: string[]; taints: Taint[]; startDelay?: string; taken: ReadonlySet<string> }): Node[] {
  const out: Node[] = [];
  for (let i = 1; out.length < opts.count; i++) {
    const name = `${opts.prefix}-${i}`;
    if (opts.taken.has(name)) continue;
    const zone = opts.zones.length ? opts.zones[out.length % opts.zones.length] : undefined;
    const capacity = { cpu: opts.cpu, memory: opts.memory, pods: opts.pods };
    out.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/instance-type': 'simulated', ...(zone ? { 'topology.kubernetes.io/zone': zone } : {}) },
        annotations: { [SimulatedNodeAnnotation]: 'true', ...(opts.startDelay ? { [SimulatedStartDelayAnnotation]: opts.startDelay } : {}) },
      },
      spec: opts.taints.length ? { taints: opts.taints } : {},
      status: { capacity, allocatable: capacity },
    });
  }
  return out;
}

/** `kubectl get nodes`-like rows with the node's kind, its pods and its size. */
export function nodeTable(nodes: readonly Node[], pods: readonly Pod[], now: number): string {
  const count = new Map<string, number>();
  for (const p of pods) {
    const n = p.spec?.nodeName;
    if (n && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed') count.set(n, (count.get(n) ?? 0) + 1);
  }
  const rows = [['NAME', 'STATUS', 'KIND', 'PODS', 'CPU', 'MEMORY', 'ZONE', 'AGE']];
  for (const n of [...nodes].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1))) {
    const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
    const status = `${ready?.status === 'True' ? 'Ready' : 'NotReady'}${n.spec?.unschedulable ? ',SchedulingDisabled' : ''}`;
    const a = n.status?.allocatable ?? {};
    rows.push([
      n.metadata?.name ?? '',
      status,
      isSimulatedNode(n) ? 'simulated' : 'docker',
      `${count.get(n.metadata?.name ?? '') ?? 0}/${a.pods ?? '110'}`,
      String(a.cpu ?? '<none>'),
      String(a.memory ?? '<none>'),
      n.metadata?.labels?.['topology.kubernetes.io/zone'] ?? '<none>',
      translateTimestampSince(n.metadata?.creationTimestamp, now),
    ]);
  }
  return formatTable(rows);
}

function quantity(flag: string, v: string): string {
  if (typeof parseQuantity(v) === 'string') throw new UsageError(`--${flag}: ${JSON.stringify(v)} is not a quantity (e.g. 4, 500m, 16Gi)`);
  return v;
}

export async function nodes(argv: string[], io: Io, connect: () => Promise<RemoteEngine>): Promise<number> {
  const { values, positionals } = parse(argv, {
    simulated: { type: 'string' },
    prefix: { type: 'string' },
    cpu: { type: 'string' },
    memory: { type: 'string' },
    pods: { type: 'string' },
    zones: { type: 'string' },
    taint: { type: 'string', multiple: true },
    'start-delay': { type: 'string' },
    all: { type: 'boolean' },
  });
  const [sub = 'list', ...names] = positionals;
  if (sub !== 'list' && sub !== 'add' && sub !== 'delete') throw new UsageError(`unknown nodes command "${sub}": use list, add or delete`);
  if (sub === 'add') {
    const count = Number(values.simulated);
    if (values.simulated === undefined) throw new UsageError('nodes add needs --simulated N (only simulated nodes can be added; the Docker node is the server setting --nodes)');
    if (!Number.isInteger(count) || count < 1 || count > MAX_ADD) throw new UsageError(`--simulated: ${JSON.stringify(values.simulated)} must be a whole number from 1 to ${MAX_ADD}`);
    const taints = (values.taint ?? []).map((t) => {
      const m = TAINT.exec(t);
      if (!m) throw new UsageError(`--taint: ${JSON.stringify(t)} must be KEY[=VALUE]:EFFECT with EFFECT NoSchedule, PreferNoSchedule or NoExecute`);
      return { key: m[1]!, ...(m[2] !== undefined ? { value: m[2] } : {}), effect: m[3]! } as Taint;
    });
    const startDelay = values['start-delay'];
    if (startDelay !== undefined) {
      const d = parseGoDuration(startDelay);
      if (typeof d !== 'number' || d < 0) throw new UsageError(`--start-delay: ${typeof d === 'number' ? 'must not be negative' : d.error}`);
    }
    const podsText = values.pods ?? '110';
    if (!/^[0-9]+$/.test(podsText)) throw new UsageError(`--pods: ${JSON.stringify(podsText)} must be a whole number`);
    const engine = await connect();
    try {
      const made = simulatedNodes({
        count,
        prefix: values.prefix ?? 'sim',
        cpu: quantity('cpu', values.cpu ?? '4'),
        memory: quantity('memory', values.memory ?? '16Gi'),
        pods: podsText,
        zones: (values.zones ?? '').split(',').filter(Boolean),
        taints,
        ...(startDelay !== undefined ? { startDelay } : {}),
        taken: new Set(engine.listNodes().map((n) => n.metadata?.name ?? '')),
      });
      // Eight requests at a time: quick for thousands of nodes, gentle on the server.
      let next = 0;
      const worker = async () => {
        while (next < made.length) {
          const n = made[next++]!;
          await engine.conn.json('POST', '/api/v1/nodes', n);
        }
      };
      await Promise.all(Array.from({ length: Math.min(8, made.length) }, worker));
      const names = made.map((n) => n.metadata!.name!);
      io.out(names.length <= 5 ? names.map((n) => `node/${n} created (simulated)\n`).join('') : `${names.length} simulated nodes created: ${names[0]} … ${names[names.length - 1]}\n`);
      return 0;
    } finally {
      await engine.close();
    }
  }
  const engine = await connect();
  try {
    if (sub === 'list') {
      if (names.length) throw new UsageError('nodes list takes no names');
      io.out(nodeTable(engine.listNodes(), engine.listPods(), Date.now()));
      return 0;
    }
    const all = engine.listNodes();
    const targets = values.all ? all.filter(isSimulatedNode).map((n) => n.metadata?.name ?? '') : names;
    if (targets.length === 0) throw new UsageError(values.all ? 'the lab has no simulated node' : 'nodes delete takes NAMEs, or --all for every simulated node');
    let code = 0;
    let deleted = 0;
    for (const name of targets) {
      const n = all.find((x) => x.metadata?.name === name);
      if (!n) {
        io.err(`Error from server (NotFound): nodes "${name}" not found\n`);
        code = 1;
        continue;
      }
      if (!isSimulatedNode(n)) {
        io.err(`error: node "${name}" runs the lab's containers on Docker and is a server setting (--nodes); only simulated nodes can be deleted\n`);
        code = 1;
        continue;
      }
      await engine.conn.json('DELETE', `/api/v1/nodes/${encodeURIComponent(name)}`);
      deleted++;
      if (targets.length <= 5) io.out(`node "${name}" deleted\n`);
    }
    if (targets.length > 5) io.out(`${deleted} simulated nodes deleted\n`);
    return code;
  } finally {
    await engine.close();
  }
}
