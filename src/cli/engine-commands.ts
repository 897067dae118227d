// The engine-backed commands of `podlab`: run, get, describe, logs, delete. Each connects to
// Docker, starts an engine (active for `run`, read-only otherwise) and prints kubectl-like output.
// Pods, ConfigMaps and Secrets: `run` creates a file's objects in file order (kubectl apply for the
// ConfigMaps and Secrets), `get`/`describe`/`delete` take kubectl's resource arguments (args.ts).
import { readFileSync } from 'node:fs';
import type { ConfigMap, Event as KEvent, Node, Pod, Secret } from 'kubernetes-types/core/v1';
import { parseAllDocuments } from 'yaml';
import { resolve as resolvePath } from 'node:path';
import { DEFAULT_NODE_NAME } from '../engine/node.js';
import type { RemoteEngine } from '../client/remote-engine.js';
import { connectLab, kubeconfig, status, stop, type ServerBundle, type ServerFlags } from './server-commands.js';
import { ApiStatusError } from '../client/connection.js';
import { exec, notFoundIn, portForwardCommand } from './stream-commands.js';
import type { ConfigObject, ConfigObjectKind, EngineSettings, WatchEvent } from '../engine/api.js';
import { configMapCells, CONFIGMAP_COLUMNS, formatTable, podCells, POD_COLUMNS, POD_WIDE_COLUMNS, SECRET_COLUMNS, secretCells, StreamingTable, translateTimestampSince } from '../engine/printer.js';
import { describePod } from '../engine/describe.js';
import { describeConfigMap, describeSecret } from '../engine/describe-config.js';
import { InvalidError, applyBody, kindLower, normalizeConfigObject, planApply, withApplyRecord } from '../engine/config-objects.js';
import { validateText, invalidObjectMessage, generateNameOf, documentFirstLine, isDuplicateField, type ValidatedDocument, type LabObject } from '../validation/index.js';
import { documentValue, writtenObject } from '../validation/documents.js';
import { RuntimeError } from '../runtime/cri.js';
import { RunLogs } from './log-streams.js';
import { allLogContainers, chooseLogsContainer, followLimitError, logRequest, logSourcePrefix, prefixLines, type LogRequest } from './pod-logs.js';
import { goQuote } from '../shared/go.js';
import { DeletionReporter } from './delete-reporter.js';
import { runningPodDifference, runningPodHint } from './reattach.js';
import { listenForInterrupt } from './interrupt.js';
import { nodes } from './nodes-command.js';
import { simulatedNodeNames } from '../shared/labels.js';
import { kubectlYaml } from '../shared/go-yaml.js';
import { klogFatal, sortByPath } from './sort-by.js';
import { customColumnRows, executeJsonPath, jsonPathError, parseCustomColumns, parseCustomColumnsTemplate, parseJsonPath, type CustomColumn } from '../shared/jsonpath.js';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector, type FieldSelector, type LabelSelector } from '../server/selectors.js';
import { UsageError, cannotRead, deleteGrace, goFileError, isUsageError, parse, podArg, seconds, kubectlJson, kubectlList, parseResourceArgs, type ResourceKind, type ResourceTarget } from './args.js';

type Out = { out: (s: string) => void; err: (s: string) => void };
const io: Out = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

export { UsageError };

const UNTIL = ['Running', 'Ready', 'Succeeded', 'Failed', 'Terminal'] as const;
export type Until = (typeof UNTIL)[number];

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

type Engine = RemoteEngine;

declare const __PODLAB_BUNDLED__: boolean | undefined;

/** The server side (serve, kubeconfig merge): bundled apart, loaded only by the commands that need it. */
function loadServerBundle(): ServerBundle {
  if (typeof __PODLAB_BUNDLED__ !== 'undefined' && __PODLAB_BUNDLED__) return require('./podlab-server.js') as ServerBundle;
  // A computed specifier keeps esbuild from pulling the server into this bundle.
  return require(['.', 'serve-command.js'].join('/')) as ServerBundle;
}

/** The lab server's engine API (a server is started in the background when none runs). */
async function connect(settings: Partial<EngineSettings>, nodesFile?: string): Promise<Engine> {
  const flags: ServerFlags = {};
  if (settings.sandboxImage) flags.sandboxImage = settings.sandboxImage;
  if (settings.backoffInitialMs !== undefined) flags.backoffInitialSeconds = settings.backoffInitialMs / 1000;
  if (settings.backoffMaxMs !== undefined) flags.backoffMaxSeconds = settings.backoffMaxMs / 1000;
  if (nodesFile) flags.nodesFile = resolvePath(nodesFile);
  return connectLab(io, flags, settings.nodes?.map((n) => n.metadata?.name ?? ''));
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
      case 'serve':
        return await loadServerBundle().serve(argv, io, readNodes);
      case 'stop':
        return await stop(argv, io);
      case 'status':
        return await status(argv, io);
      case 'kubeconfig':
        return await kubeconfig(argv, io, loadServerBundle);
      case 'exec':
        return await exec(argv, io, () => connect({}));
      case 'port-forward':
        return await portForwardCommand(argv, io, () => connect({}));
      case 'nodes':
        return await nodes(argv, io, () => connect({}));
    }
    throw new UsageError(`unknown command "${cmd}"`);
  } catch (e) {
    if (isUsageError(e)) {
      io.err(`error: ${e.message}\n`);
      return 2;
    }
    if (e instanceof ApiStatusError) {
      // As kubectl prints a Status error.
      io.err(e.reason === 'Invalid' ? `The ${e.message}\n` : `Error from server${e.reason ? ` (${e.reason})` : ''}: ${e.message}\n`);
      return 1;
    }
    if (e instanceof RuntimeError || (e instanceof Error && e.name === 'RuntimeError')) {
      io.err(`error: ${e.message}\n`);
      return 1;
    }
    io.err(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

// ---- run ---------------------------------------------------------------------------------

/**
 * Why a run ends with exit 1: each pod that can no longer reach `until` (with Terminal: each that
 * Failed), in the run's order.
 */
export function unreachableNote(until: Until, pods: readonly [name: string, pod: Pod | undefined][]): string {
  const why = pods.flatMap(([name, pod]) => (verdict(pod, until) === 'unreachable' ? [`pod "${name}" ${pod ? `is ${pod.status?.phase ?? 'Unknown'}` : 'was deleted'}`] : []));
  return until === 'Terminal' ? `error: ${why.join(', ')} (--until Terminal: every pod ended, not all Succeeded)` : `error: --until ${until} can no longer be reached: ${why.join(', ')}`;
}

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

/**
 * kubectl's client-side words for a document it cannot send (`error validating data: ...`): not a
 * mapping, or without apiVersion or kind; undefined for any other document.
 */
export function kindlessMessage(doc: Pick<ValidatedDocument, 'skipReason'>, errors: readonly { field: string; type: string }[]): string | undefined {
  if (doc.skipReason?.startsWith('not a Kubernetes object (the document is not a mapping)')) return 'invalid object to validate';
  const unset = ['apiVersion', 'kind'].filter((f) => errors.some((p) => p.field === f && p.type === 'Required value')).map((f) => `${f} not set`);
  // (an aggregate of one error is that error's text; of several, in brackets)
  return unset.length > 1 ? `[${unset.join(', ')}]` : unset[0];
}

/** `podlab run`'s line for an event; the message trimmed as kubectl describe trims it (a probe's output ends with a newline). */
export function eventLine(e: KEvent, now: number): string {
  const obj = `pod/${e.involvedObject.name}`;
  const count = (e.count ?? 1) > 1 ? ` (x${e.count})` : '';
  return `  ${translateTimestampSince(e.lastTimestamp, now).padEnd(5)} ${String(e.type).padEnd(8)} ${String(e.reason).padEnd(22)} ${obj}  ${(e.message ?? '').trim()}${count}\n`;
}

/**
 * The object `podlab run` creates for a validated document: the validator's defaulted object (a
 * Pod, a ConfigMap, or a Secret with stringData merged into data). The one place that knows the
 * validator's document shape.
 */
export function runnableObject(doc: ValidatedDocument): LabObject | undefined {
  return doc.runnable ? (doc.object ?? doc.pod) : undefined;
}

type RunItem = { kind: 'Pod'; pod: Pod } | { kind: ConfigObjectKind; object: ConfigObject };

/**
 * A document as kubectl would send it, checked again: its YAML (1.1, as kubectl reads it) as JSON,
 * each key's last value kept. The document keeps its place in the file.
 */
function asKubectlSends(text: string, doc: ValidatedDocument, options: Parameters<typeof validateText>[1]): ValidatedDocument {
  const v = documentValue(text, doc);
  if (v === undefined) return doc;
  const again = validateText(JSON.stringify(v), options).documents[0];
  return again ? { ...again, index: doc.index, offset: doc.offset, endOffset: doc.endOffset } : doc;
}

/**
 * The signals that end a run, each one a request to clean up: Ctrl-C, kill, the terminal closing
 * (SIGHUP: a closed window or a dropped SSH session) and Ctrl-\ (SIGQUIT).
 */
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;

/**
 * Those signals while `run` is up: counted, never fatal, so a signal cannot cut the clean-up short
 * and leave containers behind. Installed before the engine starts, removed after it is closed.
 */
class SignalGuard {
  count = 0;
  private readonly handler = () => {
    this.count++;
    this.onSignal(this.count);
  };
  constructor(private readonly onSignal: (count: number) => void) {
    for (const s of ENDING_SIGNALS) process.on(s, this.handler);
  }
  dispose(): void {
    for (const s of ENDING_SIGNALS) process.off(s, this.handler);
  }
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
    logs: { type: 'boolean' },
    filename: { type: 'string', short: 'f' },
  });
  // FILE, or -f FILE as kubectl apply takes it
  if (values.filename !== undefined) positionals.unshift(values.filename);
  if (positionals.length !== 1) throw new UsageError('run takes exactly one FILE (or -f FILE)');
  const until = (values.until ?? 'Terminal') as Until;
  if (!UNTIL.includes(until)) throw new UsageError(`--until must be one of ${UNTIL.join(', ')}, got "${values.until}"`);
  const timeout = seconds(values.timeout, '--timeout');
  const file = positionals[0]!;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`error: ${cannotRead(file, e)}\n`);
    return 2;
  }

  // The lab's nodes, so that a nodeName no virtual node has is warned about.
  const nodes = values.nodes ? readNodes(values.nodes) : undefined;
  // The same validator as the editor: an invalid object never reaches the engine.
  const options = { nodeNames: nodes ? nodes.map((n) => n.metadata?.name ?? '') : [DEFAULT_NODE_NAME] };
  const result = validateText(text, options);
  const items: RunItem[] = [];
  let invalid = false;
  for (const written of result.documents) {
    // A key written twice never reaches the API server from kubectl, whose YAML-to-JSON keeps the
    // last value: what is checked is what kubectl would send (no refusal for the duplicate, nor for
    // the value it drops), and Pod Lab says so.
    const twice = written.problems.filter(isDuplicateField);
    for (const d of twice) io.err(`Pod Lab warning: ${d.field} is written twice: the last value is used (kubectl sends only that one)\n`);
    const doc = twice.length ? asKubectlSends(text, written, options) : written;
    const errors = doc.problems.filter((p) => p.severity === 'error');
    // API server warnings as kubectl prints them; Pod Lab's own "cannot honour" warnings marked as such.
    for (const w of doc.problems.filter((p) => p.severity === 'warning')) io.err(`${w.source === 'podlab' ? 'Pod Lab warning' : 'Warning'}: ${w.message}\n`);
    if (errors.length) {
      invalid = true;
      const unset = !errors.some((p) => p.type === 'YAML syntax') ? kindlessMessage(doc, errors) : undefined;
      // A document that is no object, or names no kind: kubectl's own check refuses it before any request.
      if (unset) io.err(`error: error validating ${goQuote(file)}: error validating data: ${unset}\n`);
      else if (doc.kind === 'Pod' || doc.kind === 'ConfigMap' || doc.kind === 'Secret' || !doc.kind) io.err(`${invalidObjectMessage(doc.kind ?? 'Pod', doc.name ?? '', errors, file, documentFirstLine(text, doc.offset), generateNameOf(doc))}\n`);
      else io.err(`${file}: document ${doc.index + 1}: ${errors.map((p) => p.message).join('; ')}\n`);
      continue;
    }
    const obj = runnableObject(doc);
    if (!obj) {
      if (doc.kind) io.err(`${file}: document ${doc.index + 1} (${doc.kind}) skipped: ${doc.skipReason ?? 'Pod Lab runs Pods, ConfigMaps and Secrets only'}\n`);
      continue;
    }
    // A ConfigMap or Secret goes as the file wrote it (stringData too): kubectl apply records that, and merges it with what is stored.
    items.push(doc.kind === 'ConfigMap' || doc.kind === 'Secret' ? { kind: doc.kind, object: writtenObject(text, doc) ?? (obj as ConfigObject) } : { kind: 'Pod', pod: withApplyRecord(obj as Pod, writtenObject(text, doc)) });
  }
  if (invalid) return 2;
  if (items.length === 0) {
    io.err(`error: no Pod, ConfigMap or Secret in ${file}\n`);
    return 2;
  }
  const pods = items.flatMap((i) => (i.kind === 'Pod' ? [i.pod] : []));

  const settings: Partial<EngineSettings> = {};
  if (values['sandbox-image']) settings.sandboxImage = values['sandbox-image'];
  const bi = seconds(values['backoff-initial'], '--backoff-initial');
  const bm = seconds(values['backoff-max'], '--backoff-max');
  if (bi !== undefined) settings.backoffInitialMs = bi * 1000;
  if (bm !== undefined) settings.backoffMaxMs = bm * 1000;
  if (nodes) settings.nodes = nodes;

  // From here on a signal never kills the process: the first one stops what is under way and
  // deletes the pods gracefully; later ones only say that the deletion is being finished.
  let phase: 'starting' | 'creating' | 'waiting' | 'cleaning' | 'closing' = 'starting';
  let wake: (() => void) | undefined;
  const signals = new SignalGuard((count) => {
    if (phase === 'closing') return;
    if (count === 1) io.err('podlab: interrupted, deleting pods gracefully\n');
    else io.err('podlab: interrupted again; the pods are being deleted, podlab exits when they are gone\n');
    wake?.();
  });
  try {
    return await runAttached(values, until, timeout, items, pods, settings, signals, (p) => (phase = p), (w) => (wake = w), values.nodes);
  } finally {
    signals.dispose();
  }
}

type RunValues = { json?: boolean; rm?: boolean; step?: boolean; logs?: boolean };

async function runAttached(
  values: RunValues,
  until: Until,
  timeout: number | undefined,
  items: RunItem[],
  pods: Pod[],
  settings: Partial<EngineSettings>,
  signals: SignalGuard,
  setPhase: (p: 'creating' | 'waiting' | 'cleaning' | 'closing') => void,
  setWake: (w: (() => void) | undefined) => void,
  nodesFile?: string,
): Promise<number> {
  const engine = await connect(settings, nodesFile);
  try {
    return await runWith(engine, values, until, timeout, items, pods, signals, setPhase, setWake);
  } finally {
    // (however it ends, an error included: the client's watches and retries end with it)
    await engine.close();
  }
}

async function runWith(
  engine: Engine,
  values: RunValues,
  until: Until,
  timeout: number | undefined,
  items: RunItem[],
  pods: Pod[],
  signals: SignalGuard,
  setPhase: (p: 'creating' | 'waiting' | 'cleaning' | 'closing') => void,
  setWake: (w: (() => void) | undefined) => void,
): Promise<number> {
  const names: [string, string][] = [];
  /** ConfigMaps and Secrets this run created (not those it found): `--rm` removes them too. */
  const created: [ConfigObjectKind, string, string][] = [];
  const table = new StreamingTable();
  const lastLine = new Map<string, string>();
  const json = !!values.json;
  // --logs: every container's output, labelled, interleaved with the pod lines (JSON objects under --json).
  const podLogs = values.logs ? new RunLogs(engine, pods, io, json) : undefined;

  // kubectl apply refuses an update the API server's validation forbids: check every ConfigMap
  // and Secret first, and that every namespace the file names exists, so a refused file starts nothing.
  const refusals: string[] = [];
  const namespaces = [...new Set(items.map((i) => (i.kind === 'Pod' ? i.pod.metadata?.namespace : normalizeConfigObject(i.kind, i.object).metadata?.namespace) ?? 'default'))];
  for (const ns of namespaces) if (!(await engine.namespaceExists(ns))) refusals.push(`Error from server (NotFound): namespaces "${ns}" not found`);
  for (const item of items) {
    if (item.kind === 'Pod') continue;
    const { namespace = 'default', name = '' } = normalizeConfigObject(item.kind, item.object).metadata ?? {};
    const existing = engine.getObject(item.kind, namespace, name);
    try {
      // what the server will be sent (kubectl apply's merge with the stored object), as it will validate it
      planApply(item.kind, existing, normalizeConfigObject(item.kind, applyBody(item.kind, existing, item.object)), { now: Date.now(), uid: '', resourceVersion: '' });
    } catch (e) {
      if (!(e instanceof InvalidError)) throw e;
      refusals.push(e.message);
    }
  }
  if (refusals.length) {
    for (const r of refusals) io.err(`${r}\n`);
    setPhase('closing');
    await engine.close();
    return 1;
  }

  const onWatch = (e: WatchEvent) => {
    const now = Date.now();
    if (e.kind === 'Pod') {
      const key = `${e.object.metadata?.namespace}/${e.object.metadata?.name}`;
      if (!names.some(([ns, n]) => `${ns}/${n}` === key)) return;
      if (e.type !== 'DELETED') podLogs?.update(e.object);
      if (json) {
        if (e.type !== 'DELETED') io.out(`${JSON.stringify(e.object)}\n`);
        return;
      }
      const cells = podCells(e.object, now, false);
      // A new line when NAME, READY, STATUS or the restart count changes (not when "(Ns ago)" ticks).
      const sig = [...cells.slice(0, 3), cells[3]!.split(' ')[0]].join('|');
      if (lastLine.get(key) === sig) return;
      lastLine.set(key, sig);
      if (!headerShown) io.out(`${table.line([...POD_COLUMNS])}\n`);
      headerShown = true;
      io.out(`${table.line(cells)}\n`);
    } else if (e.kind === 'Event' && e.type !== 'DELETED') {
      const obj = e.object.involvedObject;
      if (!names.some(([ns, n]) => ns === obj.namespace && n === obj.name)) return;
      io.out(json ? `${JSON.stringify(e.object)}\n` : eventLine(e.object, now));
    }
  };

  // The header comes with the first pod line (not before an error that creates nothing), its columns
  // widened for what is to come, so it lines up with every later row.
  let headerShown = false;
  if (!json && pods.length) {
    const longest = pods.reduce((n, p) => Math.max(n, (p.metadata?.name ?? '').length), 4);
    table.line(['x'.repeat(longest), '10/10', 'Init:CrashLoopBackOff', '10 (59m ago)', '59m']);
  }
  const sub = engine.watch(onWatch);
  // The lab server going away (stopped, or died) is said, as is its return (the client follows a
  // server started again, by any podlab command, wherever it listens).
  const connSub = engine.onConnection((problem) => {
    if (problem) io.err(`podlab: the lab server does not answer (${problem.message}); waiting for it (any podlab command starts it again)\n`);
    else io.err('podlab: the lab server answers again\n');
  });
  // Step mode (a Pod Lab feature, not kubelet behaviour): Enter on stdin lets the next init container start.
  const stepSub = engine.onStepWaiting((key, container) => {
    io.err(`step mode: init container ${container} of pod ${key} is ready to start; press Enter to continue\n`);
  });
  const onStdin = () => names.forEach(([ns, n]) => engine.continueStep(ns, n));
  if (values.step) {
    process.stdin.on('data', onStdin);
    process.stdin.unref?.();
  }
  const closeAll = async () => {
    setPhase('closing');
    connSub.dispose();
    podLogs?.dispose();
    if (values.step) process.stdin.off('data', onStdin);
    stepSub.dispose();
    sub.dispose();
    await engine.close();
  };

  // Every object in file order: ConfigMaps and Secrets applied, Pods created (or re-attached).
  let code: number | undefined;
  let failure: unknown;
  setPhase('creating');
  try {
    for (const item of items) {
      if (signals.count > 0) break;
      if (item.kind !== 'Pod') {
        const r = await engine.applyObject(item.object);
        const md = r.object.metadata ?? {};
        if (r.outcome === 'created') created.push([item.kind, md.namespace ?? 'default', md.name ?? '']);
        if (!json) io.err(`${kindLower(item.kind)}/${md.name} ${r.outcome}\n`);
        continue;
      }
      const p = item.pod;
      const ns = p.metadata?.namespace ?? 'default';
      const name = p.metadata?.name ?? '';
      const existing = engine.getPod(ns, name);
      if (existing) {
        // Re-attach to a pod left running by an earlier `podlab run` of the same manifest.
        const difference = runningPodDifference(existing, p);
        if (difference !== undefined) {
          io.err(`Error from server (AlreadyExists): pods "${name}" already exists\n${runningPodHint(ns, name, difference)}\n`);
          code = 1;
          break;
        }
        names.push([ns, name]);
        onWatch({ type: 'MODIFIED', kind: 'Pod', object: engine.getPod(ns, name)! });
        continue;
      }
      names.push([ns, name]);
      await engine.createPod(p, values.step ? { stepMode: true } : {});
    }
  } catch (e) {
    // Another process changed an immutable object since the check above: the API server's refusal.
    if (e instanceof InvalidError) io.err(`${e.message}\n`);
    else failure = e;
    code = 1;
  }

  // Wait for the --until condition (unless a signal or a failure came first).
  let unreachable: string | undefined;
  if (code === undefined && signals.count === 0 && names.length > 0) {
    setPhase('waiting');
    code = await new Promise<number>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let done = false;
      const finish = (c: number) => {
        if (done) return;
        done = true;
        if (timer) clearTimeout(timer);
        checker.dispose();
        setWake(undefined);
        resolve(c);
      };
      const check = () => {
        if (done) return;
        const verdicts = names.map(([ns, n]) => verdict(engine.getPod(ns, n), until));
        if (verdicts.includes('unreachable')) {
          // For Terminal, wait until every pod has finished.
          if (until !== 'Terminal' || !verdicts.includes('waiting')) finish(1);
        } else if (verdicts.every((v) => v === 'reached')) finish(0);
      };
      const checker = engine.watch((e) => {
        if (e.kind === 'Pod') setImmediate(check);
      });
      setWake(() => finish(130));
      if (timeout !== undefined) timer = setTimeout(() => finish(124), timeout * 1000);
      check();
    });
    // Why it ends with 1, read before the clean-up deletes anything.
    if (code === 1) unreachable = unreachableNote(until, names.map(([ns, n]) => [n, engine.getPod(ns, n)]));
  }
  code ??= 0;
  // The last lines of the containers that finished, before the clean-up and the exit.
  if (podLogs && signals.count === 0) await podLogs.drain(LOG_DRAIN_MS);

  // Clean-up: after a signal the pods are deleted gracefully; --rm deletes them (and the ConfigMaps
  // and Secrets this run created) whatever the outcome. A signal during the clean-up only makes the
  // exit code 130: the deletion always finishes.
  setPhase('cleaning');
  const interrupted = () => signals.count > 0;
  if ((interrupted() || values.rm) && engine.connectionProblem) {
    // The clean-up must not be lost with the server: a lab server again (started if none runs),
    // which takes the pods over from Docker, then the deletion.
    io.err('podlab: the lab server does not answer: reaching it again for the clean-up\n');
    await engine.reconnect();
  }
  if (interrupted() || values.rm) await deleteAll(engine, names);
  if (values.rm) {
    for (const [kind, ns, name] of created) await engine.deleteObject(kind, ns, name).catch(() => undefined);
  }
  await closeAll();
  if (failure) throw failure;
  if (interrupted()) return 130;
  if (code === 124) io.err(`error: timed out waiting for the condition (--until ${until})\n`);
  if (unreachable) io.err(`${unreachable}\n`);
  return code;
}

/** How long `run --logs` waits, at the end, for the logs of finished containers to be read to their end. */
const LOG_DRAIN_MS = 5000;

async function deleteAll(engine: Engine, names: [string, string][], grace?: number): Promise<void> {
  await Promise.all(names.filter(([ns, n]) => engine.getPod(ns, n)).map(([ns, n]) => engine.deletePod(ns, n, grace).catch((e) => io.err(`error: ${(e as Error).message}\n`))));
}

// ---- get / describe / logs / delete ------------------------------------------------------

type AnyObject = Pod | ConfigObject;

const RESOURCE_PLURAL: Record<ResourceKind, string> = { Pod: 'pods', ConfigMap: 'configmaps', Secret: 'secrets' };
const notFound = (kind: ResourceKind, name: string) => `Error from server (NotFound): ${RESOURCE_PLURAL[kind]} "${name}" not found\n`;

/** kubectl's NotFound lines for named objects: where the namespace itself is missing, each says so (kubectl looks it up after a NotFound). */
async function inNamespace(engine: Engine, ns: string, missing: string[]): Promise<string[]> {
  if (missing.length === 0 || (await engine.namespaceExists(ns))) return missing;
  return missing.map(() => `Error from server (NotFound): namespaces "${ns}" not found\n`);
}
const nameOf = (o: AnyObject) => o.metadata?.name ?? '';
const byName = (a: AnyObject, b: AnyObject) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0);

function lookup(engine: Engine, kind: ResourceKind, ns: string, name: string): AnyObject | undefined {
  return kind === 'Pod' ? engine.getPod(ns, name) : engine.getObject(kind, ns, name);
}

/** The objects of a kind in a namespace by name; with no namespace (`-A`), of every namespace, by namespace then name. */
function listKind(engine: Engine, kind: ResourceKind, ns: string | undefined): AnyObject[] {
  const all: AnyObject[] = kind === 'Pod' ? engine.listPods() : engine.listObjects(kind);
  const nsOf = (o: AnyObject) => o.metadata?.namespace ?? 'default';
  if (ns === undefined) return [...all].sort((a, b) => (nsOf(a) < nsOf(b) ? -1 : nsOf(a) > nsOf(b) ? 1 : byName(a, b)));
  return all.filter((o) => nsOf(o) === ns).sort(byName);
}

/** `pod/web`, as `-o name` prints an object. */
const typeName = (kind: ResourceKind, o: AnyObject) => `${kind.toLowerCase()}/${nameOf(o)}`;

/** kubectl's line for a listing that found nothing (stderr): of the namespace, or of every one (`-A`). */
function noResourcesFound(namespace: string | undefined): void {
  io.err(namespace === undefined ? 'No resources found\n' : `No resources found in ${namespace} namespace.\n`);
}

/** Says what was not found (after the output, as kubectl does): exit 1 if anything was missing. */
function missingAfter(missing: readonly string[]): number {
  for (const line of missing) io.err(line);
  return missing.length ? 1 : 0;
}

/** The objects named, and the NotFound lines of those missing (kubectl prints them after what it found). */
function resolveTargets(engine: Engine, targets: ResourceTarget[], ns: string): { found: [ResourceKind, AnyObject][]; missing: string[] } {
  const found: [ResourceKind, AnyObject][] = [];
  const missing: string[] = [];
  for (const t of targets) {
    const o = lookup(engine, t.kind, ns, t.name);
    if (o) found.push([t.kind, o]);
    else missing.push(notFound(t.kind, t.name));
  }
  return { found, missing };
}

function tableOf(kind: ResourceKind, objects: AnyObject[], now: number, wide: boolean, withKind: boolean, simulated: ReadonlySet<string> = new Set(), withNamespace = false, extras: TableExtras = {}): string {
  return formatTable(withExtras(tableRows(kind, objects, now, wide, withKind, simulated, withNamespace), objects, extras));
}

/** get's --show-labels and --no-headers. */
interface TableExtras {
  showLabels?: boolean;
  noHeaders?: boolean;
}

/** --show-labels adds a LABELS column (`k=v,…` by key, or <none>: labels.FormatLabels); --no-headers drops the header row. */
function withExtras(rows: string[][], objects: readonly AnyObject[], extras: TableExtras): string[][] {
  const labels = (o: AnyObject) => {
    const l = o.metadata?.labels ?? {};
    const keys = Object.keys(l).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return keys.length ? keys.map((k) => `${k}=${l[k]}`).join(',') : '<none>';
  };
  const shown = extras.showLabels ? rows.map((r, i) => [...r, i === 0 ? 'LABELS' : labels(objects[i - 1]!)]) : rows;
  return extras.noHeaders ? shown.slice(1) : shown;
}

/**
 * `get -w`, as kubectl's: what is there now (a table with its header), then a row (a name, a JSON
 * document) per change of a selected object, its deletion included, in the widths the table had;
 * until SIGINT/SIGTERM (exit 0). An empty list prints nothing (no "No resources found": kubectl's
 * watch says nothing of it), and the header comes with the first row, as wide as it.
 * `--watch-only` (listFirst false) prints the changes alone, as -w does after an empty list; an
 * object there from the start that stops matching still leaves with its last row.
 */
async function watchObjects(
  engine: Engine,
  kind: ResourceKind,
  initial: AnyObject[],
  opts: { listFirst: boolean; namespace?: string; names?: ReadonlySet<string>; fmt?: string; jsonPath?: JsonPathTemplate; columns?: CustomColumn[]; matches?: (o: AnyObject) => boolean; extras?: TableExtras },
): Promise<number> {
  const table = new StreamingTable();
  const simulated = simulatedNodeNames(engine.listNodes());
  const withNamespace = opts.namespace === undefined;
  let headerShown = false;
  let printed = 0;
  /** The header and the objects' rows: kubectl's columns (with --show-labels), or the custom columns. */
  const rowsOf = (objects: AnyObject[]): string[][] | { error: string } => {
    if (!opts.columns) return withExtras(tableRows(kind, objects, Date.now(), opts.fmt === 'wide', false, simulated, withNamespace), objects, { ...opts.extras, noHeaders: false });
    const t = customColumnRows(opts.columns, objects);
    return t.error !== undefined ? { error: t.error } : t.rows;
  };
  /** Prints an object's row or document; an object the output cannot print is the error returned (nothing printed). */
  const print = (o: AnyObject): string | undefined => {
    if (opts.fmt === 'name') return void io.out(`${typeName(kind, o)}\n`);
    // each object by the template, nothing between them (as kubectl prints them)
    if (opts.jsonPath) {
      const r = executeJsonPath(opts.jsonPath.nodes, o, opts.jsonPath.asJson);
      return 'error' in r ? jsonPathError(opts.jsonPath.text, r.error, o) : void io.out(r.text);
    }
    if (opts.fmt === 'json') return void io.out(kubectlJson(o));
    // kubectl's YAML printer puts `---` before every object after the first; an object it cannot
    // print (a control character) is its error, not a silence
    if (opts.fmt === 'yaml') {
      let text: string;
      try {
        text = kubectlYaml(o);
      } catch (e) {
        return (e as Error).message;
      }
      return void io.out(`${printed++ ? '---\n' : ''}${text}`);
    }
    const rows = rowsOf([o]);
    if ('error' in rows) return rows.error;
    const [header, row] = rows;
    if (!headerShown && !opts.extras?.noHeaders) {
      // kubectl's printer writes the header with the first row, and its tab writer aligns the two.
      table.line(row!);
      io.out(`${table.line(header!)}\n`);
    }
    headerShown = true;
    io.out(`${table.line(row!)}\n`);
    return undefined;
  };
  // What is there now is one table, aligned as a whole (the widths then only grow, as kubectl's do).
  const listed = opts.listFirst ? initial : [];
  const tableOut = !opts.jsonPath && opts.fmt !== 'name' && opts.fmt !== 'json' && opts.fmt !== 'yaml';
  // An object of the first list that cannot be printed ends the command (kubectl: "unable to output
  // the provided object", exit 1); a table's rows are then not printed at all (kubectl's tab writer
  // holds them until it flushes).
  if (listed.length && tableOut) {
    const rows = rowsOf(listed);
    if ('error' in rows) return outputFailed(rows.error);
    for (const r of opts.extras?.noHeaders ? rows.slice(1) : rows) table.line(r);
  }
  for (const o of listed) {
    const error = print(o);
    if (error !== undefined) return outputFailed(error);
  }
  // The selected objects as last printed: one that stops matching the selectors leaves the watch as
  // the API server's watch cache ends it, with a DELETED event of its last matching state, which
  // kubectl prints as a row; one that starts matching comes as ADDED. An event's object that cannot
  // be printed ends the watch, silently and with exit 0, as kubectl's does (its watch's error is
  // not returned).
  const shown = new Map(initial.map((o) => [o.metadata?.uid ?? nameOf(o), o]));
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let ended = false;
  const sub = engine.watch((e) => {
    if (ended || e.kind !== kind) return;
    const o = e.object as AnyObject;
    if (opts.namespace !== undefined && (o.metadata?.namespace ?? 'default') !== opts.namespace) return;
    if (opts.names && !opts.names.has(nameOf(o))) return;
    const key = o.metadata?.uid ?? nameOf(o);
    const before = shown.get(key);
    let error: string | undefined;
    if (e.type !== 'DELETED' && (!opts.matches || opts.matches(o))) {
      shown.set(key, o);
      error = print(o);
    } else if (before) {
      shown.delete(key);
      error = print(e.type === 'DELETED' ? o : before);
    }
    if (error !== undefined) {
      ended = true;
      stop();
    }
  });
  const interrupt = listenForInterrupt();
  try {
    await Promise.race([interrupt.signalled, stopped]);
    return 0;
  } finally {
    interrupt.dispose();
    sub.dispose();
  }
}

/** The header and a row per object, in kubectl's columns (after a NAMESPACE column, with `-A`). */
function tableRows(kind: ResourceKind, objects: AnyObject[], now: number, wide: boolean, withKind: boolean, simulated: ReadonlySet<string>, withNamespace = false): string[][] {
  const rows = kindRows(kind, objects, now, wide, withKind, simulated);
  return withNamespace ? rows.map((row, i) => [i === 0 ? 'NAMESPACE' : (objects[i - 1]!.metadata?.namespace ?? 'default'), ...row]) : rows;
}

function kindRows(kind: ResourceKind, objects: AnyObject[], now: number, wide: boolean, withKind: boolean, simulated: ReadonlySet<string>): string[][] {
  const prefix = (cells: string[]) => (withKind ? [`${kind.toLowerCase()}/${cells[0]}`, ...cells.slice(1)] : cells);
  // -o wide: the NODE cell (the 7th) names a simulated node as such.
  const mark = (p: Pod, cells: string[]) => (wide && simulated.has(p.spec?.nodeName ?? '') ? cells.map((c, i) => (i === 6 ? `${c} (simulated)` : c)) : cells);
  if (kind === 'Pod') return [[...(wide ? POD_WIDE_COLUMNS : POD_COLUMNS)], ...objects.map((o) => prefix(mark(o as Pod, podCells(o as Pod, now, wide))))];
  if (kind === 'ConfigMap') return [[...CONFIGMAP_COLUMNS], ...objects.map((o) => prefix(configMapCells(o as ConfigObject, now)))];
  return [[...SECRET_COLUMNS], ...objects.map((o) => prefix(secretCells(o as ConfigObject, now)))];
}

/** kubectl's get -w when its printer fails on the first objects. */
function outputFailed(error: string): number {
  io.err(`error: unable to output the provided object: ${error}${error.endsWith('\n') ? '' : '\n'}`);
  return 1;
}

/** A --sort-by that cannot sort: kubectl's error, or for a value it cannot compare the klog line from its sorter; exit 1. */
function sortRefused(r: { error: string; fatal?: { line: number } }): number {
  io.err(r.fatal ? klogFatal(r.error, 'sorter.go', r.fatal.line, new Date(), process.pid) : `error: ${r.error}\n`);
  return 1;
}

/** `-o jsonpath=TEMPLATE`: the template as typed and parsed. */
interface JsonPathTemplate {
  text: string;
  /** `-o jsonpath-as-json`: what each action finds, as a JSON array. */
  asJson: boolean;
  nodes: Exclude<ReturnType<typeof parseJsonPath>, { error: string }>;
}

/** The template over an object's JSON, or kubectl's error for it (`error: error executing jsonpath ...`). */
function runJsonPath(t: JsonPathTemplate, o: unknown): { text: string } | { error: string } {
  const r = executeJsonPath(t.nodes, o, t.asJson);
  return 'error' in r ? { error: `error: ${jsonPathError(t.text, r.error, o)}` } : r;
}

/**
 * -l and --field-selector, parsed as the API server parses them for each type asked, in order (the
 * field labels a selector may name are the type's): the types they hold for, the refusals of the
 * others in kubectl's words (naming the resource and both selectors; said after what was found,
 * exit 1), and the match of an object of a type.
 */
function parseSelectors(asked: readonly ResourceKind[], labelText: string | undefined, fieldText: string | undefined): { kinds: ResourceKind[]; refusals: string[]; matches: (kind: ResourceKind) => (o: AnyObject) => boolean } {
  const refusal = (kind: ResourceKind, e: unknown) =>
    `Error from server (BadRequest): Unable to find "/v1, Resource=${RESOURCE_PLURAL[kind]}" that match label selector ${goQuote(labelText ?? '')}, field selector ${goQuote(fieldText ?? '')}: ${(e as Error).message}\n`;
  let selector: LabelSelector | undefined;
  let labelError: unknown;
  if (labelText !== undefined) {
    try {
      selector = parseLabelSelector(labelText);
    } catch (e) {
      labelError = e;
    }
  }
  const fields = new Map<ResourceKind, FieldSelector>();
  const kinds: ResourceKind[] = [];
  const refusals: string[] = [];
  for (const kind of asked) {
    try {
      if (labelError) throw labelError;
      if (fieldText !== undefined) fields.set(kind, parseFieldSelector(kind, fieldText));
      kinds.push(kind);
    } catch (e) {
      refusals.push(refusal(kind, e));
    }
  }
  return { kinds, refusals, matches: (kind) => (o) => (!selector || matchesLabels(selector, o.metadata?.labels)) && matchesFields(kind, fields.get(kind) ?? [], o) };
}

async function get(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    output: { type: 'string', short: 'o' },
    namespace: { type: 'string', short: 'n' },
    'all-namespaces': { type: 'boolean', short: 'A' },
    watch: { type: 'boolean', short: 'w' },
    'watch-only': { type: 'boolean' },
    selector: { type: 'string', short: 'l' },
    'field-selector': { type: 'string' },
    'sort-by': { type: 'string' },
    'show-labels': { type: 'boolean' },
    'no-headers': { type: 'boolean' },
  });
  const ns = values.namespace ?? 'default';
  const allNamespaces = !!values['all-namespaces'];
  const extras: TableExtras = { showLabels: !!values['show-labels'], noHeaders: !!values['no-headers'] };
  const fmt = values.output;
  // kubectl's get says, before it makes its printer, that a watch's rows are not sorted (those of
  // -w's first table are)
  const watching = !!values.watch || !!values['watch-only'];
  if (values['sort-by'] && watching) io.err(values.watch ? 'warning: --watch requested, --sort-by will be ignored for watch events received\n' : 'warning: --watch-only requested, --sort-by will be ignored\n');
  // -o jsonpath[-as-json|-file]=… and custom-columns[-file]=…: parsed before the server is asked, as kubectl makes its printer first
  const formatOf = <F extends string>(formats: readonly F[]) => formats.find((f) => fmt === f || fmt?.startsWith(`${f}=`));
  const jsonPathFormat = formatOf(['jsonpath', 'jsonpath-as-json', 'jsonpath-file']);
  const columnsFormat = formatOf(['custom-columns', 'custom-columns-file']);
  const templateValue = (f: string) => fmt!.slice(f.length + 1);
  if (jsonPathFormat && templateValue(jsonPathFormat) === '') throw new UsageError('template format specified but no template given');
  if (columnsFormat && templateValue(columnsFormat) === '') throw new UsageError('custom-columns format specified but no custom columns given');
  if (fmt !== undefined && !jsonPathFormat && !columnsFormat && fmt !== 'json' && fmt !== 'yaml' && fmt !== 'wide' && fmt !== 'name') {
    throw new UsageError(`unable to match a printer suitable for the output format "${fmt}", allowed formats are: custom-columns,custom-columns-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,wide,yaml`);
  }
  let columns: CustomColumn[] | undefined;
  if (columnsFormat) {
    let c: ReturnType<typeof parseCustomColumns>;
    if (columnsFormat === 'custom-columns-file') {
      const path = templateValue(columnsFormat);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (e) {
        // (os.Open; a directory opens, and its read ends the scan at once: no header line)
        if ((e as NodeJS.ErrnoException).code !== 'EISDIR') {
          io.err(`error: error reading template ${path}, ${goFileError('open', path, e)}\n`);
          return 1;
        }
        text = '';
      }
      c = parseCustomColumnsTemplate(text);
      // the file's printer has headers whatever --no-headers says (NewCustomColumnsPrinterFromTemplate)
      extras.noHeaders = false;
    } else c = parseCustomColumns(templateValue(columnsFormat));
    if ('error' in c) {
      // a column's template is parsed as kubectl prints: after the header
      if (c.headersFirst && !extras.noHeaders) io.out(formatTable([c.headersFirst]));
      io.err(`error: ${c.error}\n`);
      return 1;
    }
    columns = c.columns;
  }
  let jsonPath: JsonPathTemplate | undefined;
  if (jsonPathFormat) {
    let text = templateValue(jsonPathFormat);
    if (jsonPathFormat === 'jsonpath-file') {
      try {
        text = readFileSync(text, 'utf8');
      } catch (e) {
        // (os.ReadFile)
        io.err(`error: error reading --template ${text}, ${goFileError((e as NodeJS.ErrnoException).code === 'EISDIR' ? 'read' : 'open', text, e)}\n`);
        return 1;
      }
    }
    const t = parseJsonPath(text);
    if ('error' in t) {
      io.err(`error: error parsing jsonpath ${text}, ${t.error}\n`);
      return 1;
    }
    jsonPath = { text, nodes: t, asJson: jsonPathFormat === 'jsonpath-as-json' };
  }
  const args = parseResourceArgs(positionals);
  if (allNamespaces && args.targets.length) throw new UsageError('a resource cannot be retrieved by name across all namespaces');
  if (watching && new Set(args.kinds ?? args.targets.map((t) => t.kind)).size > 1) throw new UsageError('you may only specify a single resource type');
  // kubectl's builder trims the selectors and takes an empty one as none
  const labelText = values.selector?.trim() || undefined;
  const fieldText = values['field-selector']?.trim() || undefined;
  if ((labelText !== undefined || fieldText !== undefined) && args.targets.length) throw new UsageError('name cannot be provided when a selector is specified');
  const engine = await connect({});
  try {
    const listing = args.targets.length === 0;
    /** Said after what was found (exit 1): objects not found, types the selectors are refused for. */
    const missing: string[] = [];
    let groups: [ResourceKind, AnyObject[]][];
    const { kinds, refusals, matches } = parseSelectors(args.kinds ?? ['Pod'], labelText, fieldText);
    missing.push(...refusals);
    if (kinds.length === 0) return missingAfter(missing);
    const selected = (kind: ResourceKind, os: AnyObject[]) => os.filter(matches(kind));
    if (listing) groups = kinds.map((kind): [ResourceKind, AnyObject[]] => [kind, selected(kind, listKind(engine, kind, allNamespaces ? undefined : ns))]).filter(([, os], _, all) => os.length || all.length === 1);
    else {
      const r = resolveTargets(engine, args.targets, ns);
      missing.push(...(await inNamespace(engine, ns, r.missing)));
      groups = [];
      for (const [kind, o] of r.found) {
        const g = groups.find(([k]) => k === kind);
        if (g) g[1].push(o);
        else groups.push([kind, [o]]);
      }
    }
    /** Every object found, each with its type, in the order printed. */
    const withTypes = () => groups.flatMap(([kind, os]) => os.map((o): [ResourceKind, AnyObject] => [kind, o]));
    let found = withTypes();
    // --sort-by: a table's rows per type (when it has more than one, as kubectl's table sorter
    // runs), or the whole list of the other outputs (a single object named is no list)
    const sortBy = values['sort-by'];
    const tableOut = fmt === undefined || fmt === 'wide';
    if (sortBy && watching) {
      // kubectl's watch prints the first list's objects one by one, so only a table (the server's
      // Table, one object) is sorted, and only by -w (--watch-only prints none of it); a path the
      // sorter refuses is then the printer's error
      // (a watch is of one type: one group; a table of one row is not sorted, as below)
      if (values.watch && !values['watch-only'] && tableOut && (groups[0]?.[1].length ?? 0) > 1) {
        const r = sortByPath(groups[0]![1], sortBy, true);
        if ('error' in r) return r.fatal ? sortRefused(r) : outputFailed(r.error);
        groups[0]![1] = r;
        found = withTypes();
      }
    } else if (sortBy) {
      const tables = listing ? kinds.length : args.targets.length;
      if (tableOut && tables > 1) {
        // kubectl sorts what the server answered, here several Tables (one per type asked or per
        // NAME), as objects: the path is looked for in the Table objects themselves, and unless a
        // Table has it (its kind, its apiVersion) the command fails (kubernetes/kubernetes#104318)
        const table = { apiVersion: 'meta.k8s.io/v1', kind: 'Table', metadata: { resourceVersion: '' }, columnDefinitions: [], rows: [] };
        const r = sortByPath(Array.from({ length: tables }, () => table), sortBy, false);
        if ('error' in r) return sortRefused(r);
      } else if (tableOut) {
        // kubectl's get leaves out a table its sorter refuses (the printer's error is not checked):
        // with nothing else printed, it says "No resources found"
        for (const g of groups) {
          if (g[1].length < 2) continue;
          const r = sortByPath(g[1], sortBy, true);
          if ('error' in r && r.fatal) return sortRefused(r);
          g[1] = 'error' in r ? [] : r;
        }
        groups = groups.filter(([, os]) => os.length);
        if (groups.length === 0) {
          noResourcesFound(allNamespaces ? undefined : ns);
          return missingAfter(missing);
        }
        found = withTypes();
      } else if (listing || args.targets.length > 1) {
        const r = sortByPath(found, sortBy, false, ([, o]) => o);
        if ('error' in r) return sortRefused(r);
        found = r;
      }
    }
    const objects = found.map(([, o]) => o);
    if (watching) {
      if (missing.length) return missingAfter(missing);
      const kind = args.kinds?.[0] ?? args.targets[0]?.kind ?? 'Pod';
      return await watchObjects(engine, kind, objects, {
        // --watch-only (with -w too): the changes from now on, not what is there now
        listFirst: !values['watch-only'],
        namespace: allNamespaces ? undefined : ns,
        names: listing ? undefined : new Set(args.targets.map((t) => t.name)),
        fmt,
        jsonPath,
        columns,
        matches: matches(kind),
        extras,
      });
    }
    if (columns) {
      // one table of every object found, its header once (kubectl prints them as one List); an
      // object a column fails on ends it after the rows before it, with the error
      const t = customColumnRows(columns, objects);
      const rows = extras.noHeaders ? t.rows.slice(1) : t.rows;
      // (a list prints its header even when empty, and says nothing of it; named objects none of which was found print nothing)
      if (rows.length && (listing || objects.length)) io.out(formatTable(rows));
      if (t.error !== undefined) {
        io.err(`error: ${t.error}\n`);
        return 1;
      }
      return missingAfter(missing);
    }
    if (jsonPath) {
      const one = !listing && args.targets.length === 1;
      const target = one ? objects[0] : objects.length || listing ? kubectlList(objects) : undefined;
      if (target) {
        const r = runJsonPath(jsonPath, target);
        if ('error' in r) {
          io.err(r.error);
          return 1;
        }
        io.out(r.text);
      }
      return missingAfter(missing);
    }
    if (fmt === 'json' || fmt === 'yaml') {
      const print = fmt === 'json' ? kubectlJson : kubectlYaml;
      if (!listing && args.targets.length === 1) {
        if (objects[0]) io.out(print(objects[0]));
      } else if (objects.length || listing) io.out(print(kubectlList(objects)));
      return missingAfter(missing);
    }
    if (fmt === 'name') {
      for (const [kind, o] of found) io.out(`${typeName(kind, o)}\n`);
      return missingAfter(missing);
    }
    if (listing && objects.length === 0) {
      if (missing.length === 0) noResourcesFound(allNamespaces ? undefined : ns);
      return missingAfter(missing);
    }
    const now = Date.now();
    const simulated = simulatedNodeNames(engine.listNodes());
    // Several kinds (pods,cm listed, or named objects found of two kinds): each table names its kind in NAME, as kubectl's do.
    const withKind = listing ? kinds.length > 1 : groups.length > 1;
    io.out(groups.map(([kind, os]) => tableOf(kind, os, now, fmt === 'wide', withKind, simulated, allNamespaces, extras)).join('\n'));
    const onSimulated = groups.flatMap(([kind, os]) => (kind === 'Pod' ? os : [])).filter((p) => simulated.has((p as Pod).spec?.nodeName ?? '')).length;
    if (onSimulated && fmt !== 'wide') io.err(`note: ${onSimulated === 1 ? '1 pod runs' : `${onSimulated} pods run`} on simulated nodes (no containers); -o wide names the node\n`);
    return missingAfter(missing);
  } finally {
    await engine.close();
  }
}

/** `kubectl describe` of one object: a pod with its events (and its node said simulated when it is), a ConfigMap with its events, a Secret. */
function describeObject(engine: Engine, kind: ResourceKind, o: AnyObject, now: number): string {
  if (kind === 'Pod') return describePod(o as Pod, engine.listEvents({ uid: o.metadata?.uid }), now, { simulatedNode: simulatedNodeNames(engine.listNodes()).has((o as Pod).spec?.nodeName ?? '') });
  if (kind === 'ConfigMap') return describeConfigMap(o as ConfigMap, engine.listEvents({ uid: o.metadata?.uid }), now);
  return describeSecret(o as Secret);
}

async function describe(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { namespace: { type: 'string', short: 'n' }, 'all-namespaces': { type: 'boolean', short: 'A' } });
  const args = parseResourceArgs(positionals);
  if (args.targets.length === 0 && !args.kinds) throw new UsageError('describe takes a pod NAME, or a TYPE (pod, configmap, secret) and NAMEs');
  const allNamespaces = !!values['all-namespaces'];
  if (allNamespaces && args.targets.length) throw new UsageError('a resource cannot be retrieved by name across all namespaces');
  const ns = values.namespace ?? 'default';
  const engine = await connect({});
  try {
    let missing: string[] = [];
    let found: [ResourceKind, AnyObject][];
    if (args.targets.length === 0) {
      found = args.kinds!.flatMap((kind) => listKind(engine, kind, allNamespaces ? undefined : ns).map((o): [ResourceKind, AnyObject] => [kind, o]));
      if (found.length === 0) noResourcesFound(allNamespaces ? undefined : ns);
    } else {
      const r = resolveTargets(engine, args.targets, ns);
      found = r.found;
      missing.push(...(await inNamespace(engine, ns, r.missing)));
      // kubectl's DescribeMatchingResources: with two arguments and one object not found (two make
      // an aggregate error, which is no NotFound), the second is taken as a name prefix among the
      // objects the first names (a TYPE), all described if any match; else only what was not found
      // is said (nothing is described: `pod/a pod/nope`).
      if (missing.length === 1 && positionals.length === 2 && (args.kinds || positionals[0]!.includes('/'))) {
        if (args.kinds && args.kinds.length > 1) {
          io.err('error: you may only specify a single resource type\n');
          return 1;
        }
        const matching = args.kinds ? listKind(engine, args.kinds[0]!, ns).filter((o) => nameOf(o).startsWith(positionals[1]!)) : [];
        if (matching.length) {
          const now = Date.now();
          io.out(matching.map((o) => `${describeObject(engine, args.kinds![0]!, o, now)}\n`).join(''));
          return 0;
        }
        found = [];
      }
    }
    const now = Date.now();
    const texts = found.map(([kind, o]) => describeObject(engine, kind, o, now));
    io.out(texts.join('\n\n'));
    return missingAfter(missing);
  } finally {
    await engine.close();
  }
}

async function logs(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    container: { type: 'string', short: 'c' },
    previous: { type: 'boolean', short: 'p' },
    tail: { type: 'string' },
    follow: { type: 'boolean', short: 'f' },
    timestamps: { type: 'boolean' },
    since: { type: 'string' },
    'since-time': { type: 'string' },
    'limit-bytes': { type: 'string' },
    'all-containers': { type: 'boolean' },
    prefix: { type: 'boolean' },
    'max-log-requests': { type: 'string' },
    'ignore-errors': { type: 'boolean' },
    namespace: { type: 'string', short: 'n' },
  });
  if (positionals.length < 1 || positionals.length > 2) throw new UsageError('logs takes a pod NAME, and a CONTAINER after it or with -c');
  const name = podArg(positionals[0]!);
  const all = !!values['all-containers'];
  // kubectl reads its flags before it asks the server anything (and validates them once it found the pod).
  const request = logRequest({
    previous: values.previous,
    timestamps: values.timestamps,
    tail: values.tail,
    since: values.since,
    sinceTime: values['since-time'],
    limitBytes: values['limit-bytes'],
    maxLogRequests: values['max-log-requests'],
    containerTwice: values.container !== undefined && positionals.length === 2,
    allContainers: all,
    // (the inline CONTAINER is the one kubectl's options end up with)
    container: positionals[1] ?? values.container,
  });
  if ('error' in request && !request.validate) throw new UsageError(request.error);
  const engine = await connect({});
  try {
    const ns = values.namespace ?? 'default';
    const pod = engine.getPod(ns, name);
    if (!pod) {
      // kubectl logs' own wording (it looks the pod up through its resource builder, then the namespace)
      io.err(`error: error from server (NotFound): ${await notFoundIn(engine, ns, `pods "${name}" not found`)} in namespace "${ns}"\n`);
      return 1;
    }
    if ('error' in request) {
      io.err(`error: ${request.error}\n`);
      return 2;
    }
    let containers: string[];
    if (all) containers = allLogContainers(pod);
    else {
      // kubectl's choice: -c, the default-container annotation, else the first container (with its note).
      const choice = chooseLogsContainer(pod, values.container ?? positionals[1]);
      if ('error' in choice) {
        io.err(`error: ${choice.error}\n`);
        return 1;
      }
      for (const note of choice.notes) io.err(`${note}\n`);
      containers = [choice.container];
    }
    const prefixOf = (c: string) => (values.prefix ? logSourcePrefix(name, c) : '');
    const ignoreErrors = !!values['ignore-errors'];
    if (values.follow) {
      const limit = followLimitError(containers.length, request.maxLogRequests);
      if (limit) {
        io.err(`error: ${limit}\n`);
        return 1;
      }
      return await followEach(engine, ns, name, containers, request, prefixOf, ignoreErrors);
    }
    // One after the other, as kubectl reads them when it does not follow.
    for (const c of containers) {
      try {
        // As sent: a line --limit-bytes cut short ends without a newline, as kubectl prints it.
        io.out(prefixLines(await engine.logText(ns, name, c, request), prefixOf(c)));
      } catch (e) {
        if (!ignoreErrors || !(e instanceof ApiStatusError)) throw e;
        io.out(`error: ${e.message}\n`);
      }
    }
    return 0;
  } catch (e) {
    // The server's refusal, printed as kubectl prints a Status (`Error from server (BadRequest): …`).
    if (e instanceof ApiStatusError) throw e;
    io.err(`error: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await engine.close();
  }
}

/**
 * `logs -f`: every container's log followed at once (kubectl's parallelConsumeRequest for more than
 * one), each line whole, until every stream ended or SIGINT/SIGTERM (exit 0 either way, as
 * kubectl). A stream the server refuses (a container waiting to start) ends the others and the
 * command with its error, or with --ignore-errors is said as `error: …` among the lines.
 */
async function followEach(engine: RemoteEngine, ns: string, name: string, containers: readonly string[], request: LogRequest, prefixOf: (c: string) => string, ignoreErrors: boolean): Promise<number> {
  const interrupt = listenForInterrupt();
  const subs: { dispose(): void }[] = [];
  let done = false;
  try {
    await new Promise<void>((resolve, reject) => {
      void interrupt.signalled.then(resolve);
      let open = containers.length;
      const ended = () => {
        if (--open === 0) resolve();
      };
      for (const c of containers) {
        const prefix = prefixOf(c);
        engine.followLogs(ns, name, c, (l, unterminated) => void (done || io.out(`${prefix}${l}${unterminated ? '' : '\n'}`)), { ...request, onEnd: ended }).then(
          // a stream that opens after the command ended (another failed) is closed at once
          (s) => (done ? s.dispose() : subs.push(s)),
          (e: unknown) => {
            if (ignoreErrors && e instanceof ApiStatusError) {
              io.out(`error: ${e.message}\n`);
              ended();
            } else reject(e);
          },
        );
      }
    });
  } finally {
    done = true;
    interrupt.dispose();
    for (const s of subs) s.dispose();
  }
  return 0;
}

async function del(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    all: { type: 'boolean' },
    'grace-period': { type: 'string' },
    namespace: { type: 'string', short: 'n' },
    selector: { type: 'string', short: 'l' },
    'field-selector': { type: 'string' },
  });
  const grace = deleteGrace(values['grace-period']);
  const args = parseResourceArgs(positionals);
  // kubectl's builder trims the selectors and takes an empty one as none (`-l ''` selects nothing to delete)
  const labelText = values.selector?.trim() || undefined;
  const fieldText = values['field-selector']?.trim() || undefined;
  const selecting = labelText !== undefined || fieldText !== undefined;
  // kubectl's refusals, in its order
  if (selecting && args.targets.length) throw new UsageError('name cannot be provided when a selector is specified');
  if (selecting && values.all) throw new UsageError("setting 'all' parameter but found a non empty selector. ");
  if (selecting && !args.kinds) throw new UsageError('at least one resource must be specified to use a selector');
  if (values.all && args.targets.length) throw new UsageError('delete takes NAMEs or --all, not both');
  if (!values.all && !selecting && args.targets.length === 0) throw new UsageError(args.kinds ? `delete ${args.kinds.map((k) => RESOURCE_PLURAL[k]).join(',')} takes NAMEs, --all or a selector (-l, --field-selector)` : 'delete takes a pod NAME, a TYPE (pod, configmap, secret) and NAMEs, or --all');
  const engine = await connect({});
  let progress: DeletionReporter | undefined;
  try {
    const ns = values.namespace ?? 'default';
    let targets: ResourceTarget[] = args.targets;
    /** A type the selectors are refused for: said after the deletions, exit 1. */
    let refusals: string[] = [];
    if (values.all) {
      // --all without a TYPE: the lab's pods, ConfigMaps and Secrets of the namespace.
      targets = (args.kinds ?? (['Pod', 'ConfigMap', 'Secret'] as const)).flatMap((kind) => listKind(engine, kind, ns).map((o) => ({ kind, name: nameOf(o) })));
    } else if (selecting) {
      const sel = parseSelectors(args.kinds!, labelText, fieldText);
      refusals = sel.refusals;
      targets = sel.kinds.flatMap((kind) => listKind(engine, kind, ns).filter(sel.matches(kind)).map((o) => ({ kind, name: nameOf(o) })));
    }
    if ((values.all || selecting) && targets.length === 0) {
      if (refusals.length === 0) io.out('No resources found\n');
      return missingAfter(refusals);
    }
    // Pods terminate gracefully (in parallel), their progress on stderr; ConfigMaps and Secrets go at once.
    // Each `deleted` line comes once its object is gone, in argument order as kubectl prints them (a
    // pod gone sooner waits for the ones before it); what was not found is said at the end, as kubectl does.
    const reporter = (progress = new DeletionReporter(engine, io.err, process.stderr.isTTY ? { columns: process.stderr.columns || 80 } : undefined));
    // Every deletion settles (none is left running, none rejects unheard); the first failure is thrown once all are done.
    const deletions = targets.map(async (t): Promise<{ line?: string; failure?: unknown }> => {
      try {
        if (t.kind === 'Pod') {
          if (!engine.getPod(ns, t.name)) return {};
          reporter.track(ns, t.name);
          await engine.deletePod(ns, t.name, grace);
          return { line: `pod "${t.name}" deleted\n` };
        }
        await engine.deleteObject(t.kind, ns, t.name);
        return { line: `${kindLower(t.kind)} "${t.name}" deleted\n` };
      } catch (e) {
        return (e as Error).name === 'NotFound' ? {} : { failure: e };
      } finally {
        // its progress line goes as soon as it is gone (or failed)
        if (t.kind === 'Pod') reporter.finished(ns, t.name);
      }
    });
    const missing: ResourceTarget[] = [];
    let failure: unknown;
    for (const [i, deletion] of deletions.entries()) {
      const r = await deletion;
      if (r.failure !== undefined) failure ??= r.failure;
      else if (r.line === undefined) missing.push(targets[i]!);
      else reporter.above(() => io.out(r.line!));
    }
    for (const t of missing) reporter.above(() => io.err(notFound(t.kind, t.name)));
    for (const line of refusals) reporter.above(() => io.err(line));
    if (failure !== undefined) throw failure;
    return missing.length || refusals.length ? 1 : 0;
  } finally {
    progress?.dispose();
    await engine.close();
  }
}
