// Pure helpers over Pod manifests and settings for the extension shell (no `vscode` import, so
// they are unit-tested with node:test): which pod a manifest names, what in it needs the user's
// explicit consent before it runs, how the extension's settings map onto the engine's.
import type { Pod, Node } from 'kubernetes-types/core/v1';
import { parseAllDocuments } from 'yaml';
import { allContainers } from '../shared/pod-containers.js';

export interface PodRef {
  namespace: string;
  name: string;
}

/** The namespace/name a manifest will get once created (namespace defaults to "default"). */
export function podRefOf(obj: unknown): PodRef | undefined {
  if (!obj || typeof obj !== 'object') return undefined;
  const md = (obj as { metadata?: { name?: unknown; namespace?: unknown } }).metadata;
  if (!md || typeof md.name !== 'string' || md.name === '') return undefined;
  const ns = typeof md.namespace === 'string' && md.namespace !== '' ? md.namespace : 'default';
  return { namespace: ns, name: md.name };
}

export function refKey(ref: PodRef): string {
  return `${ref.namespace}/${ref.name}`;
}

/**
 * What in a pod reaches past its own sandbox into the host, and so asks for a confirmation
 * before it runs: hostPath volumes, privileged containers and the host's namespaces.
 * Each entry is a sentence fragment for the confirmation dialog.
 */
export function hostAccessOf(pod: Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.hostPath) out.push(`volume "${v.name}" mounts the host path ${v.hostPath.path}`);
  }
  for (const c of allContainers(pod)) {
    if (c.securityContext?.privileged === true) out.push(`container "${c.name}" is privileged`);
  }
  if (pod.spec?.hostNetwork === true) out.push('the pod uses the host network (hostNetwork: true)');
  if (pod.spec?.hostPID === true) out.push('the pod shares the host PID namespace (hostPID: true)');
  if (pod.spec?.hostIPC === true) out.push('the pod shares the host IPC namespace (hostIPC: true)');
  return out;
}

/** The extension's `podlab.*` settings, as read from the configuration. */
export interface PodLabConfig {
  sandboxImage?: string;
  backoffInitialSeconds?: number;
  backoffMaxSeconds?: number;
  nodesFile?: string;
  dockerSocketPath?: string;
  dockerHost?: string;
  stepMode?: boolean;
}

export interface EngineStartOptions {
  settings: Partial<{
    sandboxImage: string;
    backoffInitialMs: number;
    backoffMaxMs: number;
    nodes: Node[];
    stepMode: boolean;
    stateDir: string;
  }>;
  docker?: { socketPath?: string; host?: string };
}

/** Maps settings onto `startEngine` options; empty values keep the engine's defaults. */
export function engineOptionsFrom(cfg: PodLabConfig, nodes: Node[] | undefined, stateDir: string | undefined): EngineStartOptions {
  const settings: EngineStartOptions['settings'] = {};
  if (cfg.sandboxImage && cfg.sandboxImage.trim() !== '') settings.sandboxImage = cfg.sandboxImage.trim();
  if (isPositive(cfg.backoffInitialSeconds)) settings.backoffInitialMs = Math.round(cfg.backoffInitialSeconds * 1000);
  if (isPositive(cfg.backoffMaxSeconds)) settings.backoffMaxMs = Math.round(cfg.backoffMaxSeconds * 1000);
  if (settings.backoffInitialMs !== undefined && settings.backoffMaxMs !== undefined && settings.backoffMaxMs < settings.backoffInitialMs) {
    settings.backoffMaxMs = settings.backoffInitialMs;
  }
  if (nodes && nodes.length > 0) settings.nodes = nodes;
  if (cfg.stepMode !== undefined) settings.stepMode = cfg.stepMode;
  if (stateDir) settings.stateDir = stateDir;
  const out: EngineStartOptions = { settings };
  const host = cfg.dockerHost?.trim();
  const socketPath = cfg.dockerSocketPath?.trim();
  if (host) out.docker = { host };
  else if (socketPath) out.docker = { socketPath };
  return out;
}

function isPositive(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0;
}

/**
 * How the extension starts the lab server when none runs: the bundled CLI (dist/cli.js) under the
 * extension host's Node (ELECTRON_RUN_AS_NODE), with the settings as `podlab serve` flags and the
 * Docker daemon of the settings in its environment.
 */
export function serverCommandFor(extensionPath: string, cfg: PodLabConfig, nodesFile: string | undefined): { execPath: string; script: string; args: string[]; env: Record<string, string> } {
  const o = engineOptionsFrom(cfg, undefined, undefined).settings;
  const args: string[] = [];
  if (o.sandboxImage) args.push('--sandbox-image', o.sandboxImage);
  if (o.backoffInitialMs !== undefined) args.push('--backoff-initial', String(o.backoffInitialMs / 1000));
  if (o.backoffMaxMs !== undefined) args.push('--backoff-max', String(o.backoffMaxMs / 1000));
  if (nodesFile) args.push('--nodes', nodesFile);
  return { execPath: process.execPath, script: `${extensionPath}/dist/cli.js`, args, env: dockerCliEnv(cfg) };
}

/** Environment for the `docker` CLI (terminals, commit) so it talks to the same daemon as the engine. */
export function dockerCliEnv(cfg: PodLabConfig): Record<string, string> {
  const host = cfg.dockerHost?.trim();
  if (host) return { DOCKER_HOST: host };
  const socketPath = cfg.dockerSocketPath?.trim();
  if (socketPath) return { DOCKER_HOST: `unix://${socketPath}` };
  return {};
}

/** Node objects of a nodes file (every document of kind Node; a NodeList's items too). */
export function parseNodesYaml(text: string): { nodes: Node[]; errors: string[] } {
  const nodes: Node[] = [];
  const errors: string[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) {
      errors.push(...doc.errors.map((e) => e.message));
      continue;
    }
    const obj = doc.toJS() as { kind?: string; items?: unknown[]; metadata?: { name?: string } } | null;
    if (!obj) continue;
    if (obj.kind === 'Node') {
      if (!obj.metadata?.name) errors.push('a Node without metadata.name');
      else nodes.push(obj as Node);
    } else if (obj.kind === 'NodeList' && Array.isArray(obj.items)) {
      for (const it of obj.items) if ((it as { metadata?: { name?: string } })?.metadata?.name) nodes.push(it as Node);
    } else {
      errors.push(`a document of kind ${JSON.stringify(obj.kind ?? '')} (expected Node)`);
    }
  }
  return { nodes, errors };
}

/** Cheap test: does this YAML text look like Kubernetes manifests (so Pod Lab should validate it)? */
export function looksLikeKubernetes(text: string): boolean {
  return /^\s*apiVersion\s*:/m.test(text) && /^\s*kind\s*:/m.test(text);
}

export { runtimeId } from '../shared/labels.js';
