// The engine-backed commands of `podlab`: run, get, describe, logs, delete. Each connects to
// Docker, starts an engine (active for `run`, read-only otherwise) and prints kubectl-like output.
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Event as KEvent, Node, Pod } from 'kubernetes-types/core/v1';
import { parseAllDocuments } from 'yaml';
import { connectDocker } from '../runtime/docker/docker-runtime.js';
import { Engine } from '../engine/engine.js';
import type { EngineSettings, WatchEvent } from '../engine/api.js';
import { getTable, podCells, POD_COLUMNS, StreamingTable, translateTimestampSince } from '../engine/printer.js';
import { describePod } from '../engine/describe.js';
import { validateText, invalidPodMessage } from '../validation/index.js';
import { RuntimeError } from '../runtime/cri.js';
import { traceRuntime } from '../runtime/trace.js';

type Out = { out: (s: string) => void; err: (s: string) => void };
const io: Out = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

export class UsageError extends Error {}

const UNTIL = ['Running', 'Ready', 'Succeeded', 'Failed', 'Terminal'] as const;
type Until = (typeof UNTIL)[number];

function seconds(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a non-negative number of seconds, got "${v}"`);
  return n;
}

/** Reads v1 Node documents for --nodes. */
export function readNodes(file: string): Node[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read nodes file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const nodes: Node[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) throw new UsageError(`${file}: ${doc.errors[0]!.message}`);
    const v = doc.toJS() as Node | null;
    if (!v) continue;
    if (v.kind !== 'Node' || !v.metadata?.name) throw new UsageError(`${file}: every document must be a v1 Node with metadata.name`);
    nodes.push(v);
  }
  return nodes;
}

async function connect(settings: Partial<EngineSettings>, mode: 'active' | 'passive'): Promise<Engine> {
  const docker = await connectDocker({});
  const runtime = process.env.PODLAB_TRACE ? traceRuntime(docker, (l) => io.err(`[runtime] ${l}\n`)) : docker;
  return Engine.start({ runtime, settings, mode, adopt: 'created', log: process.env.PODLAB_DEBUG ? (l) => io.err(`[engine] ${l}\n`) : undefined });
}

export async function runCommand(cmd: string, argv: string[]): Promise<number> {
  try {
    switch (cmd) {
      case 'run':
        return await run(argv);
      case 'get':
        return await get(argv);
      case 'describe':
        return await describe(argv);
      case 'logs':
        return await logs(argv);
      case 'delete':
        return await del(argv);
    }
    throw new UsageError(`unknown command "${cmd}"`);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`error: ${e.message}\n`);
      return 2;
    }
    if (e instanceof RuntimeError || (e instanceof Error && e.name === 'RuntimeError')) {
      io.err(`error: ${e.message}\n`);
      return 1;
    }
    if (e instanceof Error && /^Unknown option|^Option|argument/i.test(e.message) && (e as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`error: ${e.message}\n`);
      return 2;
    }
    io.err(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

function parse<const O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

// ---- run ---------------------------------------------------------------------------------

function verdict(pod: Pod | undefined, until: Until): 'reached' | 'unreachable' | 'waiting' {
  if (!pod) return 'unreachable';
  const phase = pod.status?.phase;
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  switch (until) {
    case 'Running':
      return phase === 'Running' ? 'reached' : terminal ? 'unreachable' : 'waiting';
    case 'Ready':
      return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? 'reached' : terminal ? 'unreachable' : 'waiting';
    case 'Succeeded':
      return phase === 'Succeeded' ? 'reached' : phase === 'Failed' ? 'unreachable' : 'waiting';
    case 'Failed':
      return phase === 'Failed' ? 'reached' : phase === 'Succeeded' ? 'unreachable' : 'waiting';
    case 'Terminal':
      return phase === 'Succeeded' ? 'reached' : phase === 'Failed' ? 'unreachable' : 'waiting';
  }
}

function eventLine(e: KEvent, now: number): string {
  const obj = `pod/${e.involvedObject.name}`;
  const count = (e.count ?? 1) > 1 ? ` (x${e.count})` : '';
  return `  ${translateTimestampSince(e.lastTimestamp, now).padEnd(5)} ${String(e.type).padEnd(8)} ${String(e.reason).padEnd(22)} ${obj}  ${e.message}${count}\n`;
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    json: { type: 'boolean' },
    until: { type: 'string' },
    timeout: { type: 'string' },
    rm: { type: 'boolean' },
    'sandbox-image': { type: 'string' },
    'backoff-initial': { type: 'string' },
    'backoff-max': { type: 'string' },
    nodes: { type: 'string' },
    step: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('run takes exactly one FILE');
  const until = (values.until ?? 'Terminal') as Until;
  if (!UNTIL.includes(until)) throw new UsageError(`--until must be one of ${UNTIL.join(', ')}, got "${values.until}"`);
  const timeout = seconds(values.timeout, '--timeout');
  const file = positionals[0]!;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`error: cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}\n`);
    return 2;
  }

  // The same validator as the editor: an invalid pod never reaches the engine.
  const result = validateText(text);
  const pods: Pod[] = [];
  let invalid = false;
  for (const doc of result.documents) {
    const errors = doc.problems.filter((p) => p.severity === 'error');
    for (const w of doc.problems.filter((p) => p.severity === 'warning')) io.err(`Warning: ${w.message}\n`);
    if (errors.length) {
      invalid = true;
      if (doc.kind === 'Pod' || !doc.kind) io.err(`${invalidPodMessage(doc.name ?? '', errors)}\n`);
      else io.err(`${file}: document ${doc.index + 1}: ${errors.map((p) => p.message).join('; ')}\n`);
      continue;
    }
    if (!doc.runnable || !doc.pod) {
      if (doc.kind) io.err(`${file}: document ${doc.index + 1} (${doc.kind}) skipped: ${doc.skipReason ?? 'Pod Lab runs Pods only'}\n`);
      continue;
    }
    pods.push(doc.pod);
  }
  if (invalid) return 2;
  if (pods.length === 0) {
    io.err(`error: no Pod in ${file}\n`);
    return 2;
  }

  const settings: Partial<EngineSettings> = {};
  if (values['sandbox-image']) settings.sandboxImage = values['sandbox-image'];
  const bi = seconds(values['backoff-initial'], '--backoff-initial');
  const bm = seconds(values['backoff-max'], '--backoff-max');
  if (bi !== undefined) settings.backoffInitialMs = bi * 1000;
  if (bm !== undefined) settings.backoffMaxMs = bm * 1000;
  if (values.nodes) settings.nodes = readNodes(values.nodes);
  if (values.step) settings.stepMode = true;

  const engine = await connect(settings, 'active');
  const names: [string, string][] = [];
  const table = new StreamingTable();
  const lastLine = new Map<string, string>();
  const json = !!values.json;
  let finishing = false;

  const onWatch = (e: WatchEvent) => {
    const now = Date.now();
    if (e.kind === 'Pod') {
      const key = `${e.object.metadata?.namespace}/${e.object.metadata?.name}`;
      if (!names.some(([ns, n]) => `${ns}/${n}` === key)) return;
      if (json) {
        if (e.type !== 'DELETED') io.out(`${JSON.stringify(e.object)}\n`);
        return;
      }
      const cells = podCells(e.object, now, false);
      // A new line when NAME, READY, STATUS or the restart count changes (not when "(Ns ago)" ticks).
      const sig = [...cells.slice(0, 3), cells[3]!.split(' ')[0]].join('|');
      if (lastLine.get(key) === sig) return;
      lastLine.set(key, sig);
      io.out(`${table.line(cells)}\n`);
    } else if (e.kind === 'Event' && e.type !== 'DELETED') {
      const obj = e.object.involvedObject;
      if (!names.some(([ns, n]) => ns === obj.namespace && n === obj.name)) return;
      io.out(json ? `${JSON.stringify(e.object)}\n` : eventLine(e.object, now));
    }
  };

  if (!json) {
    // Widen the columns for what is to come, so the header lines up with every later row.
    const longest = pods.reduce((n, p) => Math.max(n, (p.metadata?.name ?? '').length), 4);
    table.line(['x'.repeat(longest), '10/10', 'Init:CrashLoopBackOff', '10 (59m ago)', '59m']);
    io.out(`${table.line([...POD_COLUMNS])}\n`);
  }
  const sub = engine.watch(onWatch);
  // Step mode (a Pod Lab feature, not kubelet behaviour): Enter on stdin lets the next init container start.
  const stepSub = engine.onStepWaiting((key, container) => {
    io.err(`step mode: init container ${container} of pod ${key} is ready to start; press Enter to continue\n`);
  });
  const onStdin = () => names.forEach(([ns, n]) => engine.continueStep(ns, n));
  if (values.step) {
    process.stdin.on('data', onStdin);
    process.stdin.unref?.();
  }
  try {
    for (const p of pods) {
      const ns = p.metadata?.namespace ?? 'default';
      const name = p.metadata?.name ?? '';
      const existing = engine.getPod(ns, name);
      if (existing) {
        // Re-attach to a pod left running by an earlier `podlab run` of the same manifest.
        const same = JSON.stringify(existing.spec?.containers?.map((c) => [c.name, c.image, c.command, c.args])) === JSON.stringify(p.spec?.containers?.map((c) => [c.name, c.image, c.command, c.args]));
        if (!same || !engine.adopt(ns, name)) {
          io.err(`Error from server (AlreadyExists): pods "${name}" already exists\n`);
          await engine.close();
          return 1;
        }
        names.push([ns, name]);
        onWatch({ type: 'MODIFIED', kind: 'Pod', object: engine.getPod(ns, name)! });
        continue;
      }
      names.push([ns, name]);
      await engine.createPod(p);
    }
  } catch (e) {
    sub.dispose();
    await engine.close();
    throw e;
  }

  const code = await new Promise<number>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      if (finishing) return;
      const verdicts = names.map(([ns, n]) => verdict(engine.getPod(ns, n), until));
      if (verdicts.includes('unreachable')) {
        // For Terminal, wait until every pod has finished.
        if (until !== 'Terminal' || !verdicts.includes('waiting')) finish(1);
      } else if (verdicts.every((v) => v === 'reached')) finish(0);
    };
    const finish = (c: number) => {
      if (finishing) return;
      finishing = true;
      if (timer) clearTimeout(timer);
      checker.dispose();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(c);
    };
    const onSignal = () => {
      if (finishing) return;
      finishing = true;
      checker.dispose();
      if (timer) clearTimeout(timer);
      io.err('podlab: interrupted, deleting pods gracefully\n');
      void deleteAll(engine, names).then(() => resolve(130));
    };
    const checker = engine.watch((e) => {
      if (e.kind === 'Pod') setImmediate(check);
    });
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    if (timeout !== undefined) timer = setTimeout(() => finish(124), timeout * 1000);
    check();
  });

  if (values.rm && code !== 130) await deleteAll(engine, names);
  if (values.step) process.stdin.off('data', onStdin);
  stepSub.dispose();
  sub.dispose();
  await engine.close();
  if (code === 124) io.err(`error: timed out waiting for the condition (--until ${until})\n`);
  return code;
}

async function deleteAll(engine: Engine, names: [string, string][], grace?: number): Promise<void> {
  await Promise.all(names.filter(([ns, n]) => engine.getPod(ns, n)).map(([ns, n]) => engine.deletePod(ns, n, grace).catch((e) => io.err(`error: ${(e as Error).message}\n`))));
}

// ---- get / describe / logs / delete ------------------------------------------------------

async function get(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { output: { type: 'string', short: 'o' }, namespace: { type: 'string', short: 'n' } });
  const ns = values.namespace ?? 'default';
  const fmt = values.output;
  if (fmt !== undefined && fmt !== 'json' && fmt !== 'wide') throw new UsageError(`unable to match a printer suitable for the output format "${fmt}", allowed formats are: json,wide`);
  const engine = await connect({}, 'passive');
  try {
    let pods = engine.listPods().filter((p) => (p.metadata?.namespace ?? 'default') === ns);
    if (positionals[0]) {
      pods = pods.filter((p) => p.metadata?.name === positionals[0]);
      if (!pods.length) {
        io.err(`Error from server (NotFound): pods "${positionals[0]}" not found\n`);
        return 1;
      }
    }
    pods.sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
    if (fmt === 'json') {
      const body = positionals[0] ? pods[0] : { apiVersion: 'v1', kind: 'List', items: pods, metadata: { resourceVersion: '' } };
      io.out(`${JSON.stringify(body, null, 4)}\n`);
      return 0;
    }
    const text = getTable(pods, Date.now(), fmt === 'wide', ns);
    if (pods.length === 0) io.err(`${text.trimEnd()}\n`);
    else io.out(text.endsWith('\n') ? text : `${text}\n`);
    return 0;
  } finally {
    await engine.close();
  }
}

async function describe(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { namespace: { type: 'string', short: 'n' } });
  if (positionals.length !== 1) throw new UsageError('describe takes exactly one pod NAME');
  const engine = await connect({}, 'passive');
  try {
    const pod = engine.getPod(values.namespace ?? 'default', positionals[0]!);
    if (!pod) {
      io.err(`Error from server (NotFound): pods "${positionals[0]}" not found\n`);
      return 1;
    }
    io.out(describePod(pod, engine.listEvents({ uid: pod.metadata?.uid }), Date.now()));
    return 0;
  } finally {
    await engine.close();
  }
}

async function logs(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    container: { type: 'string', short: 'c' },
    previous: { type: 'boolean', short: 'p' },
    tail: { type: 'string' },
    namespace: { type: 'string', short: 'n' },
  });
  if (positionals.length !== 1) throw new UsageError('logs takes exactly one pod NAME');
  const engine = await connect({}, 'passive');
  try {
    const ns = values.namespace ?? 'default';
    const pod = engine.getPod(ns, positionals[0]!);
    if (!pod) {
      io.err(`Error from server (NotFound): pods "${positionals[0]}" not found\n`);
      return 1;
    }
    let container = values.container;
    if (!container) {
      const cs = pod.spec?.containers ?? [];
      if (cs.length > 1) {
        io.err(`error: a container name must be specified for pod ${positionals[0]}, choose one of: [${cs.map((c) => c.name).join(' ')}] or one of the init containers: [${(pod.spec?.initContainers ?? []).map((c) => c.name).join(' ')}]\n`);
        return 1;
      }
      container = cs[0]?.name ?? '';
    }
    const tail = values.tail === undefined ? undefined : Number(values.tail);
    const lines = await engine.logs(ns, positionals[0]!, container, { previous: !!values.previous, tail });
    for (const l of lines) io.out(`${l}\n`);
    return 0;
  } catch (e) {
    io.err(`error: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await engine.close();
  }
}

async function del(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { all: { type: 'boolean' }, 'grace-period': { type: 'string' }, namespace: { type: 'string', short: 'n' } });
  const grace = seconds(values['grace-period'], '--grace-period');
  if (!values.all && positionals.length === 0) throw new UsageError('delete takes a pod NAME or --all');
  const engine = await connect({}, 'passive');
  try {
    const ns = values.namespace ?? 'default';
    const targets: [string, string][] = values.all
      ? engine.listPods().filter((p) => (p.metadata?.namespace ?? 'default') === ns).map((p) => [ns, p.metadata?.name ?? ''])
      : positionals.map((n) => [ns, n]);
    let code = 0;
    await Promise.all(
      targets.map(async ([n, name]) => {
        if (!engine.getPod(n, name)) {
          io.err(`Error from server (NotFound): pods "${name}" not found\n`);
          code = 1;
          return;
        }
        await engine.deletePod(n, name, grace);
        io.out(`pod "${name}" deleted\n`);
      }),
    );
    return code;
  } finally {
    await engine.close();
  }
}
