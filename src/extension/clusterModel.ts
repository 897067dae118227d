// The Clusters view's model as pure data (no `vscode`): one row per kubeconfig context with its
// connection state, and how a failure reads — an RBAC refusal is said to be one, in the API
// server's own words, not a generic "cannot connect". Also the confirmation before Run Pod sends
// a pod to a real cluster. The tree provider (cluster-tree.ts) only maps these to TreeItems.
import type { ConfigMap, Pod, Secret } from 'kubernetes-types/core/v1';
import type { Tone } from './podModel.js';

/** A kubeconfig context as src/client/cluster.ts lists it. */
export type { KubeContextInfo as ContextInfo } from '../client/cluster.js';
import type { KubeContextInfo as ContextInfo } from '../client/cluster.js';

export type ClusterState =
  | { kind: 'closed' }
  | { kind: 'connecting' }
  | { kind: 'connected'; pods: number }
  | { kind: 'failed'; problem: Problem }
  /** It worked, then the server stopped answering: the client retries (and the last pods are not shown as current). */
  | { kind: 'lost'; problem: Problem };

/** What went wrong, classified for the user. */
export interface Problem {
  kind: 'forbidden' | 'unauthorized' | 'unreachable' | 'tls' | 'other';
  /** One line for the tree (the API server's message verbatim when there is one). */
  text: string;
}

export interface ContextRow {
  id: string;
  label: string;
  description: string;
  tooltip: string;
  icon: string;
  tone: Tone;
  /** for `viewItem` when clauses: context.<state> */
  contextValue: string;
}

/**
 * The kubeconfig files the Clusters view reads, to watch them: the setting's file, else
 * KUBECONFIG's list and ~/.kube/config (read when none of the list exists), else ~/.kube/config.
 */
export function kubeconfigFiles(setting: string | undefined, kubeconfigEnv: string | undefined, home: string, delimiter = ':'): string[] {
  if (setting) return [setting];
  const fallback = `${home.replace(/\/+$/, '')}/.kube/config`;
  const list = (kubeconfigEnv ?? '').split(delimiter).filter(Boolean);
  return [...new Set([...list, fallback])];
}

/** The namespace shown for a context: the user's choice, else the context's own, else `default`. */
export function namespaceOf(info: ContextInfo, chosen: string | undefined): string {
  return chosen || info.namespace || 'default';
}

export function contextRow(info: ContextInfo, namespace: string, state: ClusterState): ContextRow {
  const base = `${info.current ? 'current context · ' : ''}namespace ${namespace}`;
  const lines = [`context ${info.name}`, `cluster ${info.cluster} (${info.server})`, `user ${info.user}`, `namespace ${namespace}`];
  switch (state.kind) {
    case 'closed':
      return { id: `ctx:${info.name}`, label: info.name, description: base, tooltip: [...lines, 'Expand to connect.'].join('\n'), icon: 'cloud', tone: 'idle', contextValue: 'context.closed' };
    case 'connecting':
      return { id: `ctx:${info.name}`, label: info.name, description: `${base} · connecting…`, tooltip: lines.join('\n'), icon: 'loading~spin', tone: 'progress', contextValue: 'context.connecting' };
    case 'connected':
      return {
        id: `ctx:${info.name}`,
        label: info.name,
        description: `${base} · ${state.pods === 1 ? '1 pod' : `${state.pods} pods`}`,
        tooltip: lines.join('\n'),
        icon: 'cloud',
        tone: 'ok',
        contextValue: 'context.connected',
      };
    case 'lost':
      return {
        id: `ctx:${info.name}`,
        label: info.name,
        description: `${base} · connection lost (${problemLabel(state.problem)}), retrying`,
        tooltip: [...lines, state.problem.text, LOST_NOTE].join('\n'),
        icon: 'debug-disconnect',
        tone: 'error',
        contextValue: 'context.lost',
      };
    case 'failed':
      return {
        id: `ctx:${info.name}`,
        label: info.name,
        description: `${base} · ${problemLabel(state.problem)}`,
        tooltip: [...lines, state.problem.text].join('\n'),
        icon: state.problem.kind === 'forbidden' ? 'lock' : 'warning',
        tone: 'error',
        contextValue: 'context.failed',
      };
  }
}

export const LOST_NOTE = 'Retrying with a growing pause; the pods are listed again when the server answers.';

export function problemLabel(p: Problem): string {
  switch (p.kind) {
    case 'forbidden':
      return 'forbidden by RBAC';
    case 'unauthorized':
      return 'credentials refused';
    case 'unreachable':
      return 'unreachable';
    case 'tls':
      return 'TLS error';
    default:
      return 'error';
  }
}

/** Classifies an error of the API client (an ApiStatusError carries `code` and the Status message). */
export function classify(e: unknown): Problem {
  const err = e as { code?: unknown; message?: unknown; reason?: unknown } | undefined;
  const message = typeof err?.message === 'string' ? err.message : String(e);
  if (err?.code === 403 || err?.reason === 'Forbidden') return { kind: 'forbidden', text: `RBAC refused: ${message}` };
  if (err?.code === 401 || err?.reason === 'Unauthorized') return { kind: 'unauthorized', text: `The server refused the credentials (401 Unauthorized): ${message}` };
  if (typeof err?.code === 'string' && /^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN)$/.test(err.code)) return { kind: 'unreachable', text: message };
  if (/certificate|self[- ]signed|SSL|TLS/i.test(message)) return { kind: 'tls', text: message };
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|socket hang up/.test(message)) return { kind: 'unreachable', text: message };
  return { kind: 'other', text: message };
}

/** What Run Pod in a context needs of the cluster's client. */
export interface ContextCreator {
  applyObject(o: ConfigMap | Secret): Promise<unknown>;
  createPod(p: Pod): Promise<unknown>;
}

/**
 * Run Pod in a context, once confirmed: the file's ConfigMaps and Secrets are applied, then its
 * pods created, each in its document's namespace or else the context's. A refusal is reported in
 * the words classify gives it (an RBAC refusal says so) and the rest go on, as `kubectl apply -f`
 * goes on past an object it cannot create. The documents given are not changed.
 */
export async function createInContext(
  engine: ContextCreator,
  configs: readonly (ConfigMap | Secret)[],
  pods: readonly Pod[],
  context: string,
  namespace: string,
): Promise<{ created: Pod[]; problems: string[] }> {
  const inNs = <T extends { metadata?: { namespace?: string } }>(o: T): T => {
    const c = structuredClone(o);
    return { ...c, metadata: { ...c.metadata, namespace: c.metadata?.namespace ?? namespace } };
  };
  const problems: string[] = [];
  const refused = (what: string, e: unknown) => problems.push(`cannot create ${what} in context "${context}": ${classify(e).text}`);
  for (const o of configs) {
    try {
      await engine.applyObject(inNs(o));
    } catch (e) {
      refused(`${o.kind ?? 'object'} "${o.metadata?.name ?? ''}"`, e);
    }
  }
  const created: Pod[] = [];
  for (const p of pods) {
    const pod = inNs(p);
    try {
      await engine.createPod(pod);
      created.push(pod);
    } catch (e) {
      refused(`pod "${pod.metadata?.name ?? ''}"`, e);
    }
  }
  return { created, problems };
}

/** The modal question before Run Pod creates a pod on a real cluster: it names the context. */
export function runInContextQuestion(pods: readonly string[], info: ContextInfo, namespace: string): { message: string; detail: string; confirm: string } {
  const what = pods.length === 1 ? `pod "${pods[0]}"` : `${pods.length} pods`;
  return {
    message: `Create ${what} in context "${info.name}"?`,
    detail: `Cluster ${info.cluster} at ${info.server}, namespace ${namespace}, as user ${info.user}.\n\nThis is a real cluster, not the lab: its scheduler and kubelet run the pod, and the lab's step mode and Restart now are not available there.`,
    confirm: `Create in ${info.name}`,
  };
}
