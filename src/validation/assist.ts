// Editor assistance over the same schema and validator: hover docs for any key, completion of the
// keys valid at the cursor and of enum values, and quick fixes for the common mistakes.
import { pathAt } from './index.js';
import { refAtPath, typeSpec } from './schema.js';
import type { Problem } from './documents.js';

export interface Hover {
  markdown: string;
  offset: number;
  endOffset: number;
  path: (string | number)[];
  document: number;
}

export interface Completion {
  label: string;
  kind: 'field' | 'value';
  detail?: string;
  documentation?: string;
  insertText: string;
  /** insertText is a snippet (${1:placeholder} syntax). */
  snippet?: boolean;
  /** Range to replace; the word at the cursor when absent. */
  offset?: number;
  endOffset?: number;
}

export interface QuickFix {
  title: string;
  isPreferred?: boolean;
  edits: { offset: number; endOffset: number; newText: string }[];
}

/** Values the API server accepts for enum-like fields (the validator's Unsupported value lists). */
export const ENUMS: Record<string, string[]> = {
  restartPolicy: ['Always', 'OnFailure', 'Never'],
  dnsPolicy: ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'],
  imagePullPolicy: ['Always', 'IfNotPresent', 'Never'],
  terminationMessagePolicy: ['File', 'FallbackToLogsOnError'],
  protocol: ['TCP', 'UDP', 'SCTP'],
  operator: ['Exists', 'Equal', 'In', 'NotIn', 'DoesNotExist', 'Gt', 'Lt'],
  effect: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
  scheme: ['HTTP', 'HTTPS'],
};

/** Short lab notes of our own: what the kubelet does with the fields learners meet first. */
export const LAB_NOTES: Record<string, string> = {
  'PodSpec.initContainers': 'The kubelet runs init containers one at a time, in order; each must exit 0 before the next starts, and app containers start only after the last one. A failing one is restarted with back-off unless restartPolicy is Never (then the pod fails).',
  'PodSpec.containers': 'App containers start in spec order once every init container has succeeded. They share the pod sandbox\'s network and IPC namespaces: they reach each other on localhost.',
  'PodSpec.restartPolicy': 'Applies to every container of the pod. Always (default): restart whatever exits. OnFailure: restart on a non-zero exit. Never: the pod ends Succeeded or Failed. Restarts wait 10s, 20s, 40s… up to 5m (CrashLoopBackOff).',
  'PodSpec.terminationGracePeriodSeconds': 'On deletion the kubelet sends the stop signal and waits this long (at least 2 s) before killing the containers.',
  'PodSpec.shareProcessNamespace': 'With true, every container joins the sandbox\'s PID namespace: PID 1 is the pause process and containers see each other\'s processes.',
  'Container.image': 'Pulled according to imagePullPolicy: a missing image shows ErrImagePull, then ImagePullBackOff while the kubelet waits to retry.',
  'Container.imagePullPolicy': 'Defaults to Always for :latest or no tag, IfNotPresent otherwise. Never only uses an image already on the node (ErrImageNeverPull otherwise).',
  'Container.command': 'Replaces the image\'s ENTRYPOINT; $(VAR) references to the container\'s env are expanded by the kubelet.',
  'Container.args': 'Replaces the image\'s CMD; $(VAR) references are expanded.',
  'Container.restartPolicy': 'Only for init containers: Always makes it a sidecar, started in order but kept running beside the app containers.',
  'Container.ports': 'Informational, except hostPort: the kubelet publishes that port on the node (here: the Docker host).',
  'Container.resources': 'limits.memory becomes the container\'s memory limit (exceeding it: OOMKilled); requests are what the scheduler counts against the node.',
};

const API_REF = 'https://kubernetes.io/docs/reference/kubernetes-api/';
const REF_PAGES: Record<string, string> = {
  Pod: 'workload-resources/pod-v1/',
  PodSpec: 'workload-resources/pod-v1/#PodSpec',
  Container: 'workload-resources/pod-v1/#Container',
  ObjectMeta: 'common-definitions/object-meta/#ObjectMeta',
  Volume: 'config-and-storage-resources/volume/#Volume',
  Probe: 'workload-resources/pod-v1/#Probe',
};

function ownerAndField(path: (string | number)[]): { owner?: string; field?: string } {
  const keys = path.slice();
  while (typeof keys[keys.length - 1] === 'number') keys.pop();
  const field = keys[keys.length - 1];
  if (typeof field !== 'string') return {};
  const ownerRef = refAtPath(keys.slice(0, -1));
  const owner = ownerRef?.replace(/^(\[\]|\{\})+/, '');
  return { owner, field };
}

function typeLabel(ref: string): string {
  if (ref.startsWith('[]')) return `${typeLabel(ref.slice(2))}[]`;
  if (ref.startsWith('{}')) return `map[string]${typeLabel(ref.slice(2))}`;
  return ref;
}

export function hoverAt(text: string, offset: number): Hover | undefined {
  const at = pathAt(text, offset);
  if (!at || !at.onKey) return undefined;
  const { owner, field } = ownerAndField(at.path);
  if (!owner || !field) return undefined;
  const spec = typeSpec(owner)?.fields.get(field);
  if (!spec) return undefined;
  const lines = [`**${field}** \`${typeLabel(spec.type)}\`${spec.required ? ' — required' : ''}`, ''];
  const enumValues = ENUMS[field];
  if (enumValues) lines.push(`Allowed values: ${enumValues.map((v) => `\`${v}\``).join(', ')}`, '');
  const note = LAB_NOTES[`${owner}.${field}`];
  if (note) lines.push(`*Pod Lab:* ${note}`, '');
  if (spec.doc) lines.push(spec.doc, '');
  const page = REF_PAGES[owner] ?? REF_PAGES.Pod;
  lines.push(`[${owner} API reference](${API_REF}${page})`);
  return { markdown: lines.join('\n'), offset: at.offset, endOffset: at.endOffset, path: at.path, document: at.document };
}

/** Keys of the object at the cursor's indentation (not already present) and enum values. */
export function completionsAt(text: string, offset: number): Completion[] {
  const at = pathAt(text, offset);
  if (at && !at.onKey) {
    const { field } = ownerAndField(at.path);
    return (field && ENUMS[field] ? ENUMS[field] : []).map((v) => ({ label: v, kind: 'value', insertText: v }));
  }
  const path = at ? at.path.slice(0, -1) : [];
  const ref = refAtPath(path)?.replace(/^(\[\]|\{\})+/, '');
  const t = ref ? typeSpec(ref) : typeSpec('Pod');
  if (!t) return [];
  const present = new Set(at ? [at.path[at.path.length - 1]] : []);
  return [...t.fields.entries()]
    .filter(([k]) => !present.has(k))
    .map(([k, f]) => ({ label: k, kind: 'field' as const, detail: typeLabel(f.type), documentation: f.doc, insertText: `${k}: ` }));
}

const LABEL_RE = /[^a-z0-9-]/g;

export function quickFixesFor(text: string, problem: Problem): QuickFix[] {
  const value = text.slice(problem.offset, problem.endOffset);
  const fixes: QuickFix[] = [];
  if (problem.type === 'Invalid value' && /\.name$/.test(problem.field) && /RFC 1123/.test(problem.detail)) {
    const quoted = /^["']/.test(value);
    const raw = quoted ? value.slice(1, -1) : value;
    const fixed = raw.toLowerCase().replace(LABEL_RE, '-').replace(/^-+|-+$/g, '') || 'name';
    if (fixed !== raw) fixes.push({ title: `Change the name to "${fixed}"`, edits: [{ offset: problem.offset, endOffset: problem.endOffset, newText: quoted ? `"${fixed}"` : fixed }] });
  }
  if (problem.type === 'Unsupported value') {
    const m = /supported values: (.*)$/.exec(problem.detail);
    for (const v of m ? [...m[1]!.matchAll(/"([^"]*)"/g)].map((x) => x[1]!) : []) {
      fixes.push({ title: `Use "${v}"`, edits: [{ offset: problem.offset, endOffset: problem.endOffset, newText: v }] });
    }
  }
  if (problem.type === 'Duplicate value' && /\.name$/.test(problem.field)) {
    const raw = value.replace(/^["']|["']$/g, '');
    let n = 2;
    while (text.includes(`name: ${raw}-${n}`)) n++;
    fixes.push({ title: `Rename to "${raw}-${n}"`, edits: [{ offset: problem.offset, endOffset: problem.endOffset, newText: `${raw}-${n}` }] });
  }
  if (problem.type === 'Required value' && /\.image$/.test(problem.field)) {
    const lineStart = text.lastIndexOf('\n', problem.offset - 1) + 1;
    const indent = /^\s*(?:-\s+)?/.exec(text.slice(lineStart))![0].replace('-', ' ');
    const lineEnd = text.indexOf('\n', problem.offset);
    const at = lineEnd < 0 ? text.length : lineEnd;
    fixes.push({ title: 'Add image: busybox:1.35', edits: [{ offset: at, endOffset: at, newText: `\n${indent}image: busybox:1.35` }] });
  }
  return fixes;
}
