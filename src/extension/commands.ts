// The commands, as a table (id → handler). Each handler resolves its target (URI, CodeLens arg,
// tree node, or a pick), connects to the engine lazily, and reports failures as messages.
import * as vscode from 'vscode';
import type { Pod } from '../engine/api.js';
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1';
import type { Lab } from './lab.js';
import type { Diagnostics } from './language.js';
import { YAML_SCHEME, type LabDocuments } from './documents.js';
import type { Shells } from './shell.js';
import type { PodTree } from './tree.js';
import { fileFromArg, pickPod, podFromArg, type PodTarget } from './targets.js';
import type { Clusters } from './clusters.js';
import type { ClusterTree } from './cluster-tree.js';
import { classify, createInContext, runInContextQuestion, type ContextInfo } from './clusterModel.js';
import { hostAccessOf, refKey, runtimeId, type PodRef } from './manifest.js';
import { countOf, deleteAllQuestion, deletePodQuestion, notStartedShellMessage } from './podModel.js';
import { docAt, refusal, loadValidator, type DocInfo } from './validator.js';
import { noticeWhileSlow, SLOW_NOTICE_MS } from './slow-notice.js';
import { withApplyRecord } from '../shared/apply-record.js';

export interface Services {
  lab: Lab;
  diags: Diagnostics;
  docs: LabDocuments;
  shells: Shells;
  tree: PodTree;
  clusters: Clusters;
  clusterTree: ClusterTree;
  /** `context`: a kubeconfig context (a pod of a real cluster); absent for the lab. */
  showPanel(namespace: string, name: string, context?: string): Promise<void>;
}

type Handler = (s: Services, ...args: unknown[]) => unknown;

export const commandTable: Record<string, Handler> = {
  'podlab.runPod': (s, arg, all) => runPod(s, arg, all, false),
  'podlab.runPodStepMode': (s, arg, all) => runPod(s, arg, all, true),
  'podlab.deletePod': (s, arg) => deletePod(s, arg),
  'podlab.showLifecycle': (s, arg) => showLifecycle(s, arg),
  'podlab.showLogs': (s, arg) => showLogs(s, arg),
  'podlab.describePod': (s, arg) => describe(s, arg),
  'podlab.showYaml': (s, arg) => showYaml(s, arg),
  'podlab.openShell': (s, arg) => openShell(s, arg),
  'podlab.restartNow': (s, arg) => restartNow(s, arg),
  'podlab.continueStep': (s, arg) => continueStep(s, arg),
  'podlab.deleteAllPods': (s) => deleteAll(s),
  'podlab.reconnect': (s) => reconnect(s),
  'podlab.refresh': (s) => s.tree.refresh(),
  'podlab.runPodInContext': (s, arg) => runPodInContext(s, arg),
  'podlab.chooseNamespace': (s, arg) => chooseNamespace(s, arg),
  'podlab.refreshClusters': (s) => s.clusterTree.refresh(),
  'podlab.reconnectContext': (s, arg) => reconnectContext(s, arg),
  'podlab.showOutput': (s) => s.lab.out.show(true),
};

export function registerCommands(s: Services): void {
  for (const [id, handler] of Object.entries(commandTable)) {
    s.lab.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await handler(s, ...args);
        } catch (e) {
          const msg = e instanceof Error ? e.message : String(e);
          s.lab.out.error(`${id}: ${msg}`);
          void vscode.window.showErrorMessage(`Pod Lab: ${msg}`);
          return undefined;
        }
      }),
    );
  }
}

async function engineOrExplain(s: Services) {
  try {
    return await s.lab.getEngine();
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const choice = await vscode.window.showErrorMessage(`Pod Lab cannot reach Docker: ${msg}`, 'Retry', 'Show Log');
    if (choice === 'Retry') return s.lab.reconnect();
    if (choice === 'Show Log') s.lab.out.show(true);
    return undefined;
  }
}

/** The engine of a pod's place: the lab, or the API client of its kubeconfig context. */
async function engineOf(s: Services, ref: PodTarget) {
  if (ref.context !== undefined) return s.clusters.engine(ref.context);
  return engineOrExplain(s);
}

/** Where a pod is, for messages: `in the lab` or `in context "x"`. */
function placeOf(ref: PodTarget): string {
  return ref.context !== undefined ? `in context "${ref.context}"` : 'in the lab';
}

/** Lab features (step mode, Restart now, the debug copy) are refused on a real cluster, saying why. */
function labOnly(ref: PodTarget, what: string): boolean {
  if (ref.context === undefined) return false;
  void vscode.window.showInformationMessage(`Pod Lab: ${what} is a lab feature; a real cluster's kubelet cannot be told to do it (context "${ref.context}").`);
  return true;
}

/** The pod of the document under the cursor in the active YAML editor (a live YAML document's own pod), if any. */
async function podAtCursor(s: Services): Promise<PodTarget | undefined> {
  const ed = vscode.window.activeTextEditor;
  if (ed && ed.document.uri.scheme === YAML_SCHEME) {
    const q = new URLSearchParams(ed.document.uri.query);
    const context = q.get('context') ?? undefined;
    return { namespace: q.get('ns') ?? 'default', name: q.get('pod') ?? '', ...(context !== undefined ? { context } : {}) };
  }
  if (!ed || ed.document.languageId !== 'yaml') return undefined;
  const a = await s.diags.analyze(ed.document);
  if (!a) return undefined;
  const d = docAt(a, ed.document.offsetAt(ed.selection.active)) ?? a.docs.find((x) => x.isPod);
  return d?.isPod ? d.ref : undefined;
}

interface Runnable {
  /** `written`: the pod as its file wrote it, for kubectl apply's record. */
  toRun: { d: DocInfo; file: vscode.Uri; written?: object }[];
  /** The file's ConfigMaps and Secrets: applied before its pods, as `podlab run` does. */
  configs: { d: DocInfo; file: vscode.Uri }[];
}

/** The pods (and ConfigMaps/Secrets) a Run command was invoked on, validated; undefined when there is nothing to run. */
async function collectRunnable(s: Services, arg: unknown, all: unknown): Promise<Runnable | undefined> {
  if (!vscode.workspace.isTrusted) {
    const choice = await vscode.window.showWarningMessage(
      'Pod Lab: this workspace is not trusted, so its pods cannot run (running a pod starts containers on your Docker). Manifests are still validated.',
      'Manage Workspace Trust',
    );
    if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
    return undefined;
  }
  const targets: { uri: vscode.Uri; docIndex?: number }[] = [];
  if (Array.isArray(all) && all.length > 1 && all.every((u) => u instanceof vscode.Uri)) for (const u of all as vscode.Uri[]) targets.push({ uri: u });
  else {
    const t = fileFromArg(arg);
    if (t) targets.push(t);
  }
  if (targets.length === 0) {
    void vscode.window.showInformationMessage('Pod Lab: open a Pod manifest (YAML) to run it.');
    return undefined;
  }
  const toRun: Runnable['toRun'] = [];
  const configs: { d: DocInfo; file: vscode.Uri }[] = [];
  const v = await loadValidator();
  for (const t of targets) {
    const doc = await vscode.workspace.openTextDocument(t.uri);
    const a = await s.diags.analyze(doc);
    for (const d of a?.docs ?? []) {
      if ((d.raw.kind === 'ConfigMap' || d.raw.kind === 'Secret') && d.raw.runnable && d.raw.object) {
        const refused = refusal(v, d);
        if (refused) void vscode.window.showErrorMessage(refused);
        else configs.push({ d, file: t.uri });
      }
    }
    const pods = (a?.docs ?? []).filter((d) => d.isPod && (t.docIndex === undefined || d.index === t.docIndex));
    if (pods.length === 0) {
      void vscode.window.showWarningMessage(`Pod Lab: ${vscode.workspace.asRelativePath(t.uri)} has no Pod manifest to run.`);
      continue;
    }
    for (const d of pods) {
      const refused = refusal(v, d);
      if (refused) {
        s.lab.out.warn(`refused to run ${vscode.workspace.asRelativePath(t.uri)} document ${d.index}: ${refused}`);
        void vscode.window.showErrorMessage(refused, 'Show Problems').then((c) => c && vscode.commands.executeCommand('workbench.actions.view.problems'));
        continue;
      }
      toRun.push({ d, file: t.uri, written: v.writtenObject(doc.getText(), d.raw) });
    }
  }
  return toRun.length === 0 ? undefined : { toRun, configs };
}

async function runPod(s: Services, arg: unknown, all: unknown, stepModeRun: boolean): Promise<void> {
  const r = await collectRunnable(s, arg, all);
  if (!r) return;
  const { toRun, configs } = r;
  if (configs.length > 0) {
    const engine = await engineOrExplain(s);
    if (!engine) return;
    for (const { d, file } of configs) {
      try {
        const r = await engine.applyObject(structuredClone(d.raw.object as ConfigMap | Secret));
        s.lab.log(`${String(d.raw.kind).toLowerCase()}/${d.raw.name ?? ''} ${r.outcome} from ${vscode.workspace.asRelativePath(file)}`);
      } catch (e) {
        void vscode.window.showErrorMessage(`Pod Lab: ${(e as Error).message}`);
        return;
      }
    }
  }
  for (const { d, file, written } of toRun) {
    const pod = d.object as Pod;
    const risky = hostAccessOf(pod);
    if (risky.length > 0) {
      const ok = await vscode.window.showWarningMessage(
        `Run pod "${d.ref?.name ?? ''}" with access to this machine?`,
        { modal: true, detail: `This manifest reaches past its sandbox into the host:\n• ${risky.join('\n• ')}\n\nContainers of this pod can read or change your machine.` },
        'Run Anyway',
      );
      if (ok !== 'Run Anyway') continue;
    }
    const engine = await engineOrExplain(s);
    if (!engine) return;
    const stepMode = stepModeRun || s.lab.config().stepMode === true;
    const ref = d.ref!;
    if (engine.getPod(ref.namespace, ref.name)) {
      const c = await vscode.window.showWarningMessage(`Pod Lab: pod "${refKey(ref)}" already exists in the lab.`, 'Show Lifecycle', 'Delete and Run Again');
      if (c === 'Show Lifecycle') await s.showPanel(ref.namespace, ref.name);
      if (c !== 'Delete and Run Again') continue;
      await whileDeleting(`Pod Lab: deleting pod ${ref.name}`, engine.deletePod(ref.namespace, ref.name));
    }
    // as kubectl apply creates it: a later `kubectl apply` of the file finds nothing to change
    const created = await engine.createPod(withApplyRecord(structuredClone(pod), written), { stepMode });
    s.lab.log(`pod ${refKey(ref)} created from ${vscode.workspace.asRelativePath(file)}${stepMode ? ' (step mode)' : ''}`);
    await s.showPanel(ref.namespace, ref.name);
    void vscode.window.setStatusBarMessage(`$(play) Pod Lab: pod ${ref.name} created`, 4000);
  }
}

/** A deletion, with a progress notification once it has taken SLOW_NOTICE_MS (the views show the pod Terminating from the start). */
function whileDeleting<T>(title: string, deletion: Promise<T>): Promise<T> {
  return noticeWhileSlow(deletion, SLOW_NOTICE_MS, (until) => void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, () => until));
}

async function deletePod(s: Services, arg: unknown): Promise<void> {
  const ref = await pickPod(s.lab, arg, 'Pod to delete', () => podAtCursor(s));
  if (!ref) return;
  const engine = await engineOf(s, ref);
  if (!engine) return;
  const pod = engine.getPod(ref.namespace, ref.name);
  if (!pod) {
    void vscode.window.showInformationMessage(`Pod Lab: pod "${refKey(ref)}" is not ${placeOf(ref)}.`);
    return;
  }
  const q = deletePodQuestion(pod, ref.context, vscode.workspace.getConfiguration('podlab').get<boolean>('confirmDelete', true));
  if (q && (await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, q.confirm)) !== q.confirm) return;
  await whileDeleting(`Pod Lab: deleting pod ${ref.name} (graceful)`, engine.deletePod(ref.namespace, ref.name));
  s.lab.log(`pod ${refKey(ref)} deleted ${placeOf(ref)}`);
}

async function deleteAll(s: Services): Promise<void> {
  const engine = await engineOrExplain(s);
  if (!engine) return;
  const pods = engine.listPods();
  if (pods.length === 0) {
    void vscode.window.showInformationMessage('Pod Lab: there are no lab pods.');
    return;
  }
  const q = deleteAllQuestion(pods.map((p) => p.metadata?.name ?? ''));
  const ok = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, 'Delete All');
  if (ok !== 'Delete All') return;
  await whileDeleting(
    `Pod Lab: deleting ${countOf(pods.length, 'pod')}`,
    Promise.all(pods.map((p) => engine.deletePod(p.metadata?.namespace ?? 'default', p.metadata?.name ?? ''))),
  );
  s.lab.log(`deleted ${countOf(pods.length, 'pod')}`);
}

async function showLifecycle(s: Services, arg: unknown): Promise<void> {
  const ref: PodTarget | undefined = podFromArg(arg) ?? (await podAtCursor(s)) ?? (await pickPod(s.lab, undefined, 'Pod to show'));
  if (!ref) return;
  await s.showPanel(ref.namespace, ref.name, ref.context);
}

/** A pod's read-only document (describe, live YAML): the pod asked for, at the cursor, or picked; opened once its engine answers. */
async function openPodDocument(s: Services, arg: unknown, placeHolder: string, open: (ref: PodTarget) => Promise<void>): Promise<void> {
  const ref = await pickPod(s.lab, arg, placeHolder, () => podAtCursor(s));
  if (!ref) return;
  const engine = await engineOf(s, ref);
  if (!engine) return;
  await open(ref);
}

function describe(s: Services, arg: unknown): Promise<void> {
  return openPodDocument(s, arg, 'Pod to describe', (ref) => s.docs.openDescribe(ref.namespace, ref.name, ref.context));
}

function showYaml(s: Services, arg: unknown): Promise<void> {
  return openPodDocument(s, arg, 'Pod whose live YAML to show', (ref) => s.docs.openYaml(ref.namespace, ref.name, ref.context));
}

interface ContainerChoice extends vscode.QuickPickItem {
  container: string;
}

function containersOf(pod: Pod): { name: string; kind: string; restarts: number; state: string }[] {
  const out: { name: string; kind: string; restarts: number; state: string }[] = [];
  const st = (list: { name: string; restartCount?: number; state?: { running?: object; waiting?: { reason?: string }; terminated?: { reason?: string } } }[] | undefined, name: string) => {
    const cs = list?.find((x) => x.name === name);
    const state = cs?.state?.running ? 'Running' : (cs?.state?.waiting?.reason ?? cs?.state?.terminated?.reason ?? 'not created');
    return { restarts: cs?.restartCount ?? 0, state };
  };
  for (const c of pod.spec?.initContainers ?? []) out.push({ name: c.name, kind: c.restartPolicy === 'Always' ? 'sidecar' : 'init', ...st(pod.status?.initContainerStatuses, c.name) });
  for (const c of pod.spec?.containers ?? []) out.push({ name: c.name, kind: 'app', ...st(pod.status?.containerStatuses, c.name) });
  return out;
}

async function pickContainer(pod: Pod, given: string | undefined, placeHolder: string, prefer?: (c: { name: string; state: string }) => boolean): Promise<string | undefined> {
  const list = containersOf(pod);
  if (given && list.some((c) => c.name === given)) return given;
  if (list.length === 1) return list[0]!.name;
  const preferred = prefer ? list.filter(prefer) : [];
  if (preferred.length === 1) return preferred[0]!.name;
  const pick = await vscode.window.showQuickPick<ContainerChoice>(
    list.map((c) => ({ label: c.name, description: `${c.kind} · ${c.state}`, detail: c.restarts > 0 ? `${c.restarts} restart(s)` : undefined, container: c.name })),
    { placeHolder },
  );
  return pick?.container;
}

/** A time of day as the panel writes it (24-hour HH:MM:SS, the machine's zone), not the locale's 2:20:34 PM. */
function hms(t: number): string {
  const d = new Date(t);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

async function showLogs(s: Services, arg: unknown): Promise<void> {
  const ref = await pickPod(s.lab, arg, 'Pod whose logs to show', () => podAtCursor(s));
  if (!ref) return;
  const engine = await engineOf(s, ref);
  if (!engine) return;
  const pod = engine.getPod(ref.namespace, ref.name);
  if (!pod) throw new Error(`pod "${refKey(ref)}" is not ${placeOf(ref)}`);
  const container = await pickContainer(pod, ref.container, 'Container');
  if (!container) return;
  const info = await engine.debugInfo(ref.namespace, ref.name);
  const cs = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].find((c) => c.name === container);
  const attempts = (info?.attempts ?? []).filter((a) => a.containerName === container).sort((a, b) => b.attempt - a.attempt);
  type AttemptPick = vscode.QuickPickItem & { attempt: string; label2?: string };
  const items: AttemptPick[] = [{ label: '$(debug-start) Current attempt', description: 'follows the pod', attempt: 'current' }];
  if (attempts.length > 1 || (!info && cs?.lastState?.terminated)) items.push({ label: '$(history) Previous attempt', description: 'kubectl logs --previous', attempt: 'previous' });
  for (const a of attempts) {
    const when = a.finishedAt ? hms(a.finishedAt) : a.startedAt ? `since ${hms(a.startedAt)}` : '';
    items.push({
      label: `Attempt ${a.attempt}`,
      description: `${a.state}${a.exitCode !== undefined && a.state === 'exited' ? ` · exit ${a.exitCode}` : ''}${a.reason ? ` · ${a.reason}` : ''}`,
      detail: `${a.id.slice(0, 12)} ${when}`,
      attempt: a.id,
      label2: `attempt ${a.attempt}`,
    });
  }
  const pick = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { placeHolder: `Logs of ${container}: which attempt?` });
  if (!pick) return;
  await s.docs.openLogs(ref.namespace, ref.name, container, pick.attempt, pick.label2, ref.context);
}

async function openShell(s: Services, arg: unknown): Promise<void> {
  const ref = await pickPod(s.lab, arg, 'Pod to open a shell in', () => podAtCursor(s));
  if (!ref) return;
  const engine = await engineOf(s, ref);
  if (!engine) return;
  const pod = engine.getPod(ref.namespace, ref.name);
  if (!pod) throw new Error(`pod "${refKey(ref)}" is not ${placeOf(ref)}`);
  const container = await pickContainer(pod, ref.container, 'Container to open a shell in');
  if (!container) return;
  const all = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const cs = all.find((c) => c.name === container);
  if (ref.context !== undefined) {
    // A real cluster: kubectl exec with the same kubeconfig and context (the API's exec, not Docker's).
    if (!cs?.state?.running) {
      labOnly(ref, `A shell in a copy of the exited container "${container}"`);
      return;
    }
    s.shells.kubectlShell({ kubeconfig: s.clusters.kubeconfig(), context: ref.context, namespace: ref.namespace, pod: ref.name, container });
    return;
  }
  const runningId = cs?.state?.running ? runtimeId(cs.containerID) : undefined;
  if (runningId) {
    s.shells.execShell(runningId, `${ref.name}/${container}`);
    return;
  }
  // exited: the newest exited instance, from status or the lab's attempt list
  let exitedId = runtimeId(cs?.state?.terminated?.containerID) ?? runtimeId(cs?.lastState?.terminated?.containerID);
  const info = await engine.debugInfo(ref.namespace, ref.name);
  if (!exitedId) {
    const attempts = (info?.attempts ?? []).filter((a) => a.containerName === container && a.state === 'exited').sort((a, b) => b.attempt - a.attempt);
    exitedId = attempts[0]?.id;
  }
  if (!exitedId) {
    void vscode.window.showInformationMessage(notStartedShellMessage(container, cs));
    return;
  }
  const sandbox = info?.sandboxes.find((x) => x.state === 'ready')?.id;
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Pod Lab: copying the filesystem of ${container}` }, () =>
    s.shells.debugCopy(exitedId!, ref.name, container, sandbox),
  );
}

async function restartNow(s: Services, arg: unknown): Promise<void> {
  const ref = await pickPod(s.lab, arg, 'Pod whose container to restart now', () => podAtCursor(s));
  if (!ref || labOnly(ref, 'Restart now')) return;
  const engine = await engineOrExplain(s);
  if (!engine) return;
  const pod = engine.getPod(ref.namespace, ref.name);
  if (!pod) throw new Error(`pod "${refKey(ref)}" is not in the lab`);
  const container = await pickContainer(pod, ref.container, 'Container to restart now (skipping its back-off)', (c) => c.state === 'CrashLoopBackOff');
  if (!container) return;
  engine.restartNow(ref.namespace, ref.name, container);
  s.lab.log(`restart now: ${refKey(ref)} container ${container} (back-off skipped, a lab feature)`);
}

async function continueStep(s: Services, arg: unknown): Promise<void> {
  const ref = await pickPod(s.lab, arg, 'Pod to continue (step mode)', () => podAtCursor(s));
  if (!ref || labOnly(ref, 'Step mode')) return;
  const engine = await engineOrExplain(s);
  if (!engine) return;
  engine.continueStep(ref.namespace, ref.name);
  s.lab.log(`continue: ${refKey(ref)} (step mode)`);
}

/** The context a command was invoked on (a Clusters view node), or a pick of the kubeconfig's contexts. */
async function pickContext(s: Services, arg: unknown, placeHolder: string): Promise<ContextInfo | undefined> {
  const a = arg as { type?: unknown; info?: ContextInfo } | undefined;
  if (a?.type === 'context' && a.info) return a.info;
  const contexts = await s.clusters.contexts();
  if (contexts.length === 0) {
    void vscode.window.showInformationMessage('Pod Lab: the kubeconfig has no contexts.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    contexts.map((c) => ({ label: c.name, description: `${c.current ? 'current · ' : ''}${c.server}`, detail: `cluster ${c.cluster} · user ${c.user} · namespace ${s.clusters.namespace(c)}`, info: c })),
    { placeHolder },
  );
  return pick?.info;
}

/** Run Pod on a real cluster: the file's pods (and its ConfigMaps/Secrets) after a confirmation that names the context. */
async function runPodInContext(s: Services, arg: unknown): Promise<void> {
  const r = await collectRunnable(s, arg, undefined);
  if (!r) return;
  const info = await pickContext(s, undefined, 'Context to create the pod in');
  if (!info) return;
  const namespace = s.clusters.namespace(info);
  const q = runInContextQuestion(r.toRun.map((x) => x.d.ref?.name ?? ''), info, namespace);
  const configs = r.configs.length ? `\n\nThe file's ${r.configs.map((c) => `${String(c.d.raw.kind)} "${c.d.raw.name ?? ''}"`).join(', ')} will be created or replaced there too.` : '';
  const ok = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail + configs }, q.confirm);
  if (ok !== q.confirm) return;
  let engine;
  try {
    engine = await s.clusters.engine(info.name);
  } catch (e) {
    void vscode.window.showErrorMessage(`Pod Lab: cannot reach context "${info.name}": ${classify(e).text}`);
    return;
  }
  const { created, problems } = await createInContext(
    engine,
    r.configs.map(({ d }) => d.raw.object as ConfigMap | Secret),
    r.toRun.map(({ d }) => d.object as Pod),
    info.name,
    namespace,
  );
  for (const p of problems) void vscode.window.showErrorMessage(`Pod Lab: ${p}`);
  for (const pod of created) {
    const file = r.toRun.find(({ d }) => (d.object as Pod).metadata?.name === pod.metadata?.name)?.file;
    s.lab.log(`pod ${pod.metadata?.namespace}/${pod.metadata?.name} created in context ${info.name}${file ? ` from ${vscode.workspace.asRelativePath(file)}` : ''}`);
    await s.showPanel(pod.metadata?.namespace ?? namespace, pod.metadata?.name ?? '', info.name);
  }
}

async function chooseNamespace(s: Services, arg: unknown): Promise<void> {
  const info = await pickContext(s, arg, 'Context whose namespace to choose');
  if (!info) return;
  const ns = await vscode.window.showInputBox({
    title: `Namespace of context ${info.name}`,
    value: s.clusters.namespace(info),
    prompt: 'The namespace whose pods the Clusters view lists',
    validateInput: (v) => (/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v) && v.length <= 63 ? undefined : 'a lowercase RFC 1123 label (a-z, 0-9, "-"; at most 63 characters)'),
  });
  if (!ns) return;
  await s.clusters.setNamespace(info.name, ns);
}

async function reconnectContext(s: Services, arg: unknown): Promise<void> {
  const info = await pickContext(s, arg, 'Context to reconnect');
  if (!info) return;
  await s.clusters.close(info.name);
  await s.clusters.engine(info.name).catch(() => undefined);
}

async function reconnect(s: Services): Promise<void> {
  try {
    const e = await s.lab.reconnect();
    void vscode.window.setStatusBarMessage(`$(check) Pod Lab: connected to Docker, ${e.listPods().length} lab pod(s)`, 4000);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const c = await vscode.window.showErrorMessage(`Pod Lab cannot reach Docker: ${msg}`, 'Retry', 'Show Log');
    if (c === 'Retry') await reconnect(s);
    if (c === 'Show Log') s.lab.out.show(true);
  }
}
