// kubectl's resource arguments and JSON output for `podlab get|describe|delete` (kubectl's
// resource.Builder ResourceTypeOrNameArgs and the JSON printer of k8s.io/cli-runtime/pkg/printers),
// pure, so the command line's grammar is tested without Docker. A first argument that names a
// resource type (`pods`, `configmaps`/`cm`, `secrets`, singular or plural) selects that kind;
// `TYPE/NAME` arguments name objects of several kinds; a bare NAME is a pod (Pod Lab's shorthand),
// unless it is the name of another resource type (`deployments`, `nodes`), which is refused.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { goJsonMarshal, goParseInt, goQuote } from '../shared/go.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** A usage error, also when thrown by the separately bundled server side (another copy of the class). */
export const isUsageError = (e: unknown): e is UsageError => e instanceof Error && e.name === 'UsageError';

export type ResourceKind = 'Pod' | 'ConfigMap' | 'Secret';

/** The names kubectl resolves for the kinds Pod Lab stores (plural, singular, short name). */
export const RESOURCE_ALIASES: Readonly<Record<string, ResourceKind>> = {
  pods: 'Pod',
  pod: 'Pod',
  po: 'Pod',
  configmaps: 'ConfigMap',
  configmap: 'ConfigMap',
  cm: 'ConfigMap',
  secrets: 'Secret',
  secret: 'Secret',
};

export interface ResourceTarget {
  kind: ResourceKind;
  name: string;
}

export interface ResourceArgs {
  /** The kinds named by a leading TYPE (or TYPE,TYPE) argument, each once; undefined for bare pod names, TYPE/NAME forms or nothing. */
  kinds?: ResourceKind[];
  /** The objects named, in argument order. */
  targets: ResourceTarget[];
}

/**
 * A dotted type argument as schema.ParseResourceArg reads it: `resource.version.group` (two dots or
 * more), else `resource.group`. `core`: it names the core group's v1 (`pods.v1.`, `pods..`,
 * `pods.`), where the lab's kinds are; anything else (`pods.v1` is resource pods of a group "v1",
 * `pods.V1.` a version "V1", `deployments.apps` the apps group) no API here serves.
 */
function qualifiedType(type: string): { resource: string; core: boolean } | undefined {
  const dot = type.indexOf('.');
  if (dot < 0) return undefined;
  const rest = type.slice(dot + 1);
  // schema.ParseResourceArg: with two dots or more, resource.version.group (SplitN 3), else resource.group
  const second = rest.indexOf('.');
  const version = second < 0 ? undefined : rest.slice(0, second);
  const group = second < 0 ? undefined : rest.slice(second + 1);
  // Pod Lab's shorthand takes a bare NAME for a pod: only `TYPE.`, `TYPE.<version>[.<group>]` (the
  // version possibly empty) and `TYPE.<an API group>` are types (`node.js`, `cm.app` are pods'
  // names, where kubectl would look for a group)
  const versionLike = (v: string) => /^v\d+(?:(?:alpha|beta)\d+)?$/i.test(v);
  const versioned = version !== undefined && (version === '' || versionLike(version));
  if (rest !== '' && !versioned && !versionLike(rest) && !API_GROUPS.has(rest)) return undefined;
  const written = type.slice(0, dot);
  // A short name is matched as written, and the shortcut expander keeps only its group: any version
  // of the core group. A plural or singular name in any case (the RESTMapper lowers it), with the
  // core group's version as written (`v1`, or none).
  if (SHORT_NAMES.has(written.toLowerCase())) return { resource: written, core: written === written.toLowerCase() && (rest === '' || (versioned && group === '')) };
  const core = rest === '' || (versioned && group === '' && (version === '' || version === 'v1'));
  return { resource: written.toLowerCase(), core };
}

/** The short names the lab server's discovery gives its kinds (kubectl matches them as written). */
const SHORT_NAMES = new Set(['po', 'cm', 'ev', 'ns', 'no']);

/** A name of a lab kind as kubectl resolves it: a short name as written, a plural or singular in any case. */
function aliasOf(type: string): string | undefined {
  const lower = type.toLowerCase();
  return SHORT_NAMES.has(lower) && type !== lower ? undefined : lower;
}

/** The API groups of a cluster, for `TYPE.GROUP` arguments (`deployments.apps`). */
const API_GROUPS = new Set(
  (
    'apps batch autoscaling policy admissionregistration.k8s.io apiextensions.k8s.io apiregistration.k8s.io authentication.k8s.io ' +
    'authorization.k8s.io certificates.k8s.io coordination.k8s.io discovery.k8s.io events.k8s.io flowcontrol.apiserver.k8s.io ' +
    'networking.k8s.io node.k8s.io rbac.authorization.k8s.io resource.k8s.io scheduling.k8s.io storage.k8s.io metrics.k8s.io'
  ).split(' '),
);

function kindOf(type: string): ResourceKind | undefined {
  const alias = aliasOf(type);
  const q = alias && RESOURCE_ALIASES[alias] ? undefined : qualifiedType(type);
  return q ? (q.core ? RESOURCE_ALIASES[q.resource] : undefined) : alias === undefined ? undefined : RESOURCE_ALIASES[alias];
}

/**
 * The lab server's other kinds, which these commands leave to others: where to find them instead.
 * A first argument naming one is refused, not taken for a pod's name.
 */
const LAB_ELSEWHERE: Readonly<Record<string, string>> = {
  nodes: "nodes are not listed here: podlab nodes lists the lab's nodes (kubectl get nodes too)",
  events: "events are not listed here: podlab describe pod NAME shows a pod's events (kubectl get events lists them all)",
  namespaces: 'namespaces are not listed here: kubectl get namespaces lists them',
};
const LAB_ELSEWHERE_ALIASES: Readonly<Record<string, string>> = { node: 'nodes', no: 'nodes', nodes: 'nodes', event: 'events', ev: 'events', events: 'events', namespace: 'namespaces', ns: 'namespaces', namespaces: 'namespaces' };

/**
 * The resource types of a cluster (plural, singular and short names, as kubectl api-resources lists
 * them) that the lab does not serve: kubectl, asking the lab server, says it has no such type.
 */
const CLUSTER_ONLY_TYPES = new Set(
  (
    'bindings binding componentstatuses componentstatus cs endpoints ep limitranges limitrange limits persistentvolumeclaims persistentvolumeclaim pvc ' +
    'persistentvolumes persistentvolume pv podtemplates podtemplate replicationcontrollers replicationcontroller rc resourcequotas resourcequota quota ' +
    'serviceaccounts serviceaccount sa services service svc controllerrevisions controllerrevision daemonsets daemonset ds deployments deployment deploy ' +
    'replicasets replicaset rs statefulsets statefulset sts cronjobs cronjob cj jobs job horizontalpodautoscalers horizontalpodautoscaler hpa ' +
    'ingresses ingress ing ingressclasses ingressclass networkpolicies networkpolicy netpol poddisruptionbudgets poddisruptionbudget pdb roles role ' +
    'rolebindings rolebinding clusterroles clusterrole clusterrolebindings clusterrolebinding storageclasses storageclass sc csidrivers csidriver csinodes ' +
    'csinode csistoragecapacities csistoragecapacity volumeattachments volumeattachment priorityclasses priorityclass pc leases lease endpointslices ' +
    'endpointslice customresourcedefinitions customresourcedefinition crd crds mutatingwebhookconfigurations mutatingwebhookconfiguration ' +
    'validatingwebhookconfigurations validatingwebhookconfiguration runtimeclasses runtimeclass certificatesigningrequests certificatesigningrequest csr ' +
    'apiservices apiservice flowschemas flowschema prioritylevelconfigurations prioritylevelconfiguration validatingadmissionpolicies ' +
    'validatingadmissionpolicy validatingadmissionpolicybindings validatingadmissionpolicybinding resourceclaims resourceclaim ' +
    'resourceclaimtemplates resourceclaimtemplate resourceslices resourceslice deviceclasses deviceclass ipaddresses ipaddress servicecidrs servicecidr'
  ).split(' '),
);

/** kubectl's refusal of a type no API serves, naming its resource (`my.app` is resource my of a group app). */
const noSuchType = (type: string) => `the server doesn't have a resource type "${type.split('.')[0]}"`;

/** Why a type argument these commands do not take is refused; undefined when it is no resource type (a pod's name). */
function otherTypeRefusal(type: string): string | undefined {
  const q = qualifiedType(type);
  if (q) {
    // a qualified type whose resource is one kubectl knows: served in the core group, or not at all
    const r = q.resource.toLowerCase();
    const known = RESOURCE_ALIASES[r] || LAB_ELSEWHERE_ALIASES[r] || CLUSTER_ONLY_TYPES.has(r);
    if (!known) return undefined;
    if (q.core && LAB_ELSEWHERE_ALIASES[q.resource]) return LAB_ELSEWHERE[LAB_ELSEWHERE_ALIASES[q.resource]!];
    return noSuchType(type);
  }
  // (a lab short name in capitals names nothing kubectl knows: `PO`, `NS`)
  const alias = aliasOf(type);
  if (alias === undefined) return noSuchType(type);
  const elsewhere = LAB_ELSEWHERE_ALIASES[alias];
  if (elsewhere) return LAB_ELSEWHERE[elsewhere];
  if (CLUSTER_ONLY_TYPES.has(type.toLowerCase())) return `the server doesn't have a resource type "${type}"`;
  return undefined;
}

/** Why FILE could not be read, in words (the reason the system gives for the common cases). */
export function cannotRead(file: string, e: unknown): string {
  return `cannot read ${file}: ${errnoText(e)}`;
}

/** The system's words for a file error (strerror, as Go prints a syscall error); else Node's message. */
const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
};
export function errnoText(e: unknown): string {
  return ERRNO_TEXT[(e as NodeJS.ErrnoException).code ?? ''] ?? (e as Error).message;
}

/** Go's *PathError text for a failed file operation (`open FILE: no such file or directory`). */
export function goFileError(op: 'open' | 'read', path: string, e: unknown): string {
  return `${op} ${path}: ${errnoText(e)}`;
}

/** A `--flag SECONDS` value: a non-negative number, or a usage error naming the flag. */
export function seconds(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a non-negative number of seconds, got "${v}"`);
  return n;
}

/**
 * delete's --grace-period, as kubectl reads it: a negative value is ignored (the pod's own), and 0 is
 * taken as 1, as kubectl does without --force ("to prevent accidental data loss"): podlab has no
 * force deletion.
 */
export function deleteGrace(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  // an int flag: strconv.ParseInt(v, 0, 64), pflag's message when it fails
  const n = goParseInt(v, 0);
  if (typeof n !== 'number') throw new UsageError(`invalid argument ${goQuote(v)} for "--grace-period" flag: ${n.error}`);
  return n < 0 ? undefined : n === 0 ? 1 : n;
}

/**
 * The kinds of a TYPE argument: one type, or a comma-separated list (`pods,cm`: a pod's name has
 * no comma), each kind once; undefined when the argument is no type (a pod's name). An unknown
 * type in a list is refused, as kubectl refuses it.
 */
function kindsOf(arg: string): ResourceKind[] | undefined {
  if (!arg.includes(',')) {
    const kind = kindOf(arg);
    if (kind) return [kind];
    // the category `all`: of the lab's kinds, pods (as the lab server's discovery says to kubectl)
    if (arg.toLowerCase() === 'all') return ['Pod'];
    const refusal = otherTypeRefusal(arg);
    if (refusal) throw new UsageError(refusal);
    return undefined;
  }
  const kinds: ResourceKind[] = [];
  for (const type of arg.split(',')) {
    const kind = kindOf(type);
    if (!kind) throw new UsageError(otherTypeRefusal(type) ?? noSuchType(type));
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}

/** Splits `get|describe|delete` arguments into kinds and the objects they name. */
export function parseResourceArgs(positionals: readonly string[]): ResourceArgs {
  if (positionals.length === 0) return { targets: [] };
  if (positionals.some((p) => p.includes('/'))) {
    if (!positionals[0]!.includes('/') && kindsOf(positionals[0]!)) {
      throw new UsageError(
        "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'podlab get resource/<resource_name>' instead of 'podlab get resource resource/<resource_name>'",
      );
    }
    return {
      targets: positionals.map((p) => {
        const [type, name, ...rest] = p.split('/');
        if (!p.includes('/') || !name || rest.length) throw new UsageError('arguments in resource/name form must have a single resource and name');
        const kind = kindOf(type!);
        if (!kind) throw new UsageError(otherTypeRefusal(type!) ?? noSuchType(type!));
        return { kind, name };
      }),
    };
  }
  const kinds = kindsOf(positionals[0]!);
  if (kinds) return { kinds, targets: kinds.flatMap((kind) => positionals.slice(1).map((name) => ({ kind, name }))) };
  return { targets: positionals.map((name) => ({ kind: 'Pod' as const, name })) };
}

/** `kubectl get -o json`: sorted keys, four-space indentation, a newline at the end. */
export function kubectlJson(v: unknown): string {
  return `${goJsonMarshal(v, 4)}\n`;
}

/** The `List` kubectl prints for several objects (`-o json` without a NAME). */
export function kubectlList(items: readonly unknown[]): { apiVersion: 'v1'; items: unknown[]; kind: 'List'; metadata: { resourceVersion: '' } } {
  return { apiVersion: 'v1', items: [...items], kind: 'List', metadata: { resourceVersion: '' } };
}

/** An option as node:util's parseArgs declares it. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
}

/** Go's strconv.ParseBool. */
const GO_BOOL: Readonly<Record<string, boolean>> = { '1': true, t: true, T: true, TRUE: true, true: true, True: true, '0': false, f: false, F: false, FALSE: false, false: false, False: false };

/**
 * The command line as kubectl's flag parser (spf13/pflag) reads it, rewritten for node:util's
 * parseArgs, or pflag's error: `-o=json` is `-o json`; a string flag takes the next argument even
 * when it starts with `-` (`--tail -5`); a boolean flag may say `=true` or `=false`; an unknown flag
 * is `unknown flag: --x` (`unknown shorthand flag: 'x' in -x`); a string flag at the end is `flag
 * needs an argument`. Arguments after `--` are left alone.
 */
export function pflagArgv(argv: readonly string[], options: Readonly<Record<string, FlagSpec>>): string[] {
  const byShort = new Map(Object.entries(options).flatMap(([name, o]) => (o.short ? [[o.short, name] as const] : [])));
  const flagName = (name: string) => (options[name]?.short ? `-${options[name]!.short}, --${name}` : `--${name}`);
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    let name: string | undefined;
    let value: string | undefined;
    let shown = a;
    const long = /^--([^=]+)(?:=(.*))?$/s.exec(a);
    const short = long ? null : /^-([^-])(?:=?(.*))?$/s.exec(a);
    if (long) {
      name = long[1]!;
      value = long[2];
      if (!options[name]) throw new UsageError(`unknown flag: --${name}`);
    } else if (short && a.length > 1) {
      name = byShort.get(short[1]!);
      if (!name) throw new UsageError(`unknown shorthand flag: '${short[1]}' in ${a}`);
      value = short[2] === '' && !a.includes('=') ? undefined : short[2];
      shown = `-${short[1]}`;
      // -it: shorthands together, booleans, then perhaps one that takes the rest (or the next argument) as its value
      if (options[name]!.type === 'boolean' && value !== undefined && !a.includes('=')) {
        const group = a.slice(1);
        for (let j = 0; j < group.length; j++) {
          const c = group[j]!;
          const n = byShort.get(c);
          if (!n) throw new UsageError(`unknown shorthand flag: '${c}' in ${a}`);
          if (options[n]!.type === 'boolean') {
            out.push(`--${n}`);
            continue;
          }
          const rest = group.slice(j + 1);
          if (rest === '' && i + 1 >= argv.length) throw new UsageError(`flag needs an argument: '${c}' in ${a}`);
          out.push(`--${n}=${rest === '' ? argv[++i]! : rest}`);
          break;
        }
        continue;
      }
    } else {
      out.push(a);
      continue;
    }
    const spec = options[name]!;
    if (spec.type === 'boolean') {
      if (value === undefined) out.push(`--${name}`);
      else {
        const b = GO_BOOL[value];
        if (b === undefined) throw new UsageError(`invalid argument ${JSON.stringify(value)} for "${flagName(name)}" flag: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
        if (b) out.push(`--${name}`);
      }
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(shown.startsWith('--') ? `flag needs an argument: ${shown}` : `flag needs an argument: '${shown.slice(1)}' in ${shown}`);
      value = argv[++i]!;
    }
    out.push(`--${name}=${value}`);
  }
  return out;
}

/** A command's flags and arguments as kubectl reads them (pflagArgv), then parsed; a usage error otherwise. */
export function parse<const O extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: O) {
  const args = pflagArgv(argv, options as Record<string, FlagSpec>);
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** A pod argument of logs, exec and port-forward as kubectl takes it: NAME, or pod/NAME (pods/, po/). */
export function podArg(arg: string): string {
  const slash = arg.indexOf('/');
  if (slash < 0) return arg;
  const type = arg.slice(0, slash);
  const name = arg.slice(slash + 1);
  const kind = kindOf(type);
  if (!kind) throw new UsageError(noSuchType(type));
  if (kind !== 'Pod' || !name || name.includes('/')) throw new UsageError(`only pods have containers: give NAME or pod/NAME, not ${arg}`);
  return name;
}
