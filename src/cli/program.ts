// The `podlab` command line's top level, with commander: the commands, their dispatch, `--version`,
// and the help of each (`podlab COMMAND --help`, `podlab help [COMMAND]`). Counterpart of kubectl's
// root command (staging/src/k8s.io/kubectl/pkg/cmd/cmd.go, NewKubectlCommand) and the help of its
// subcommands. A command's own flags stay parsed, strictly, by the command (engine-commands.ts,
// server-commands.ts, validate.ts): commander hands the raw arguments on, so every usage error keeps
// its text (`error: <message>`, exit 2). The options listed here are the help's; test/unit/cli-program
// checks them against those parsers. No engine code is loaded here: commands go to `handlers`.
import { Command, CommanderError, Help, Option } from 'commander';
import { nearest } from '../validation/near.js';

/** `podlab`, `podlab help` and `podlab --help`: the overview of every command. */
export const USAGE = `podlab: run and inspect Kubernetes pods on the local Docker, the way the kubelet would.

Usage:
  podlab run FILE [--json] [--logs] [--until Running|Ready|Succeeded|Failed|Terminal] [--timeout SECONDS] [--rm]
                  [--sandbox-image IMAGE] [--backoff-initial SECONDS] [--backoff-max SECONDS] [--nodes FILE] [--step]
  podlab get [pods|configmaps|secrets[,...]] [NAME...] [-o json|yaml|name|wide|jsonpath[-as-json]=TEMPLATE|jsonpath-file=FILE|custom-columns=SPEC|custom-columns-file=FILE] [-n NAMESPACE | -A] [-l SELECTOR]
             [--field-selector SELECTOR] [--sort-by PATH] [-w]
  podlab describe [pod|configmap|secret[,...]] NAME... [-n NAMESPACE] | describe TYPE [-n NAMESPACE | -A]
  podlab logs NAME [CONTAINER | -c CONTAINER | --all-containers] [--previous] [--tail N] [--since D|--since-time T] [--timestamps]
              [--limit-bytes N] [--prefix] [-f [--max-log-requests N]] [--ignore-errors] [-n NAMESPACE]
  podlab delete [pod|configmap|secret[,...]] NAME...|--all [--grace-period SECONDS] [-n NAMESPACE]
  podlab delete pod|configmap|secret[,...] -l SELECTOR|--field-selector SELECTOR [--grace-period SECONDS] [-n NAMESPACE]
  podlab exec NAME [-c CONTAINER] [-i] [-t] [-n NAMESPACE] -- COMMAND [ARG...]
  podlab port-forward NAME [LOCAL:]REMOTE... [--address ADDR] [-n NAMESPACE]
  podlab nodes [list] | nodes add --simulated N [--prefix P] [--cpu Q] [--memory Q] [--pods N] [--zones A,B]
                      [--taint KEY[=VALUE]:EFFECT] [--start-delay DURATION] | nodes delete NAME...|--all
  podlab validate FILE... [--json]
  podlab serve [--port N] [--sandbox-image IMAGE] [--backoff-initial SECONDS] [--backoff-max SECONDS] [--nodes FILE]
  podlab stop
  podlab status [--json]
  podlab kubeconfig [--merge [--file FILE]]
  podlab COMMAND --help | podlab help [COMMAND] | podlab --version

run creates a file's ConfigMaps, Secrets and Pods in file order (ConfigMaps and Secrets as
kubectl apply does: created, configured or unchanged). A bare NAME is a pod (pod/NAME when the name
is a resource type's); TYPE/NAME works too (cm is short for configmap). delete --all removes the
lab's pods, ConfigMaps and Secrets.
Exit codes: 0 done, 1 failed or not found, 2 usage or invalid manifest, 3 no lab server (status),
124 timeout, 130 interrupted.

One lab server per state directory owns the pods and serves the Kubernetes API on 127.0.0.1; every
other command (and the VS Code extension) is its client and starts it in the background when none
runs. KUBECONFIG=$(podlab kubeconfig) kubectl get pods works against it. podlab stop stops it
(containers stay; the next server adopts them).

Docker: DOCKER_HOST or /var/run/docker.sock. State (the store, events, termination messages,
ConfigMaps and Secrets, the server's credentials): PODLAB_STATE_DIR.
`;

/** The commands served by the engine bundle (dist/podlab-engine.js, engine-commands.ts `runCommand`). */
export const ENGINE_COMMANDS = ['run', 'get', 'describe', 'logs', 'delete', 'exec', 'port-forward', 'nodes', 'serve', 'stop', 'status', 'kubeconfig'] as const;
export type EngineCommandName = (typeof ENGINE_COMMANDS)[number];
export type CommandName = EngineCommandName | 'validate';

/** One option as its help lists it: commander's flags syntax (`-o, --output <format>`), one line of description. */
export interface OptionHelp {
  flags: string;
  description: string;
  choices?: readonly string[];
  default?: string | number;
}

/** One command's help: `podlab NAME SYNOPSIS`, a summary for lists, a description, its options. */
export interface CommandHelp {
  name: CommandName;
  synopsis: string;
  summary: string;
  description: string;
  options: readonly OptionHelp[];
}

const NAMESPACE: OptionHelp = { flags: '-n, --namespace <namespace>', description: 'the namespace', default: 'default' };
const SERVER_SETTINGS =
  'Server settings apply when this command starts the lab server; a running server with other settings is reported (podlab stop first to change them).';

/** Every command, in the order of USAGE. */
export const COMMANDS: readonly CommandHelp[] = [
  {
    name: 'run',
    synopsis: 'FILE [options]',
    summary: "create a file's ConfigMaps, Secrets and Pods and follow the pods",
    description: `Validate FILE as the API server would, then create its ConfigMaps and Secrets (as kubectl apply does: created, configured or unchanged) and its Pods in file order, and print a line per pod change and the pods' events until --until is reached (a pod left running by an earlier run of the same file is re-attached). With --logs, every container's output too, as it comes (init containers as each starts, then app containers and sidecars, a restarted container's new instance as well), each line labelled like docker compose's: \"wait-for-db | line\"; with --json as well, each log line is a JSON object of its own among the pods and events: {\"kind\":\"Log\",\"namespace\":…,\"pod\":…,\"container\":…,\"containerID\":…,\"line\":…}. Exit 0 when reached, 1 when it no longer can be, 2 for an invalid manifest, 124 on --timeout, 130 after SIGINT/SIGTERM (the pods are deleted gracefully first). ${SERVER_SETTINGS}`,
    options: [
      { flags: '-f, --filename <file>', description: 'FILE, as kubectl apply -f takes it' },
      { flags: '--json', description: 'print the pods and events as JSON lines' },
      { flags: '--logs', description: "also print every container's output (NAME | line)" },
      { flags: '--until <condition>', description: 'wait for this (Terminal: every pod finished)', choices: ['Running', 'Ready', 'Succeeded', 'Failed', 'Terminal'], default: 'Terminal' },
      { flags: '--timeout <seconds>', description: 'give up after this long, exit 124' },
      { flags: '--rm', description: 'delete what this run created before exiting' },
      { flags: '--sandbox-image <image>', description: 'the pod sandbox (pause) image (server setting)' },
      { flags: '--backoff-initial <seconds>', description: 'first crash-loop back-off delay (server setting)' },
      { flags: '--backoff-max <seconds>', description: 'crash-loop back-off cap (server setting)' },
      { flags: '--nodes <file>', description: 'YAML file of v1 Nodes to use (server setting)' },
      { flags: '--step', description: 'pause before each init container until Enter' },
    ],
  },
  {
    name: 'get',
    synopsis: '[pods|configmaps|secrets[,...]] [NAME...] [options]',
    summary: "list pods, ConfigMaps or Secrets in kubectl's columns",
    description:
      "List the lab's pods (or ConfigMaps, or Secrets) in kubectl's columns, or the objects named. A bare NAME is a pod; TYPE/NAME works too (cm is short for configmap, po for pod), and so do several types at once (pods,cm: a table per type, as kubectl prints them). Exit 1 when a named object is not found.",
    options: [
      { flags: '-o, --output <format>', description: "json, yaml (kubectl's), name (TYPE/NAME lines), wide (the wide table), jsonpath=TEMPLATE (kubectl's JSONPath: {.items[*].metadata.name}, {range .items[*]}…{end}) or custom-columns=HEADER:PATH,... (NAME:.metadata.name,PHASE:.status.phase)" },
      NAMESPACE,
      { flags: '-A, --all-namespaces', description: 'every namespace (a NAMESPACE column)' },
      { flags: '-w, --watch', description: 'then a row per change, until interrupted (one type)' },
      { flags: '--watch-only', description: 'a row per change from now on, without the list first (one type)' },
      { flags: '-l, --selector <selector>', description: 'only objects whose labels match (a=b, a!=b, a in (x,y), a, !a; comma-separated)' },
      { flags: '--field-selector <selector>', description: "only objects whose fields match (status.phase=Running, spec.nodeName!=x; a type's own fields)" },
      { flags: '--sort-by <path>', description: 'order by the value a JSONPath finds (.metadata.name, {.status.phase}; quantities as quantities; a watch sorts only its first list)' },
      { flags: '--show-labels', description: 'a LABELS column' },
      { flags: '--no-headers', description: 'no header row' },
    ],
  },
  {
    name: 'describe',
    synopsis: '[pod|configmap|secret[,...]] NAME... [options]',
    summary: 'show objects in detail with their events, as kubectl describe',
    description:
      "Show the objects named in detail with their events, as kubectl describe does (a Secret's sizes, never its values). A TYPE without NAMEs describes every object of that kind. Exit 1 when an object is not found.",
    options: [NAMESPACE, { flags: '-A, --all-namespaces', description: 'with a TYPE and no NAME: every namespace' }],
  },
  {
    name: 'logs',
    synopsis: 'NAME [CONTAINER] [options]',
    summary: "print the logs of a pod's container",
    description:
      "Print the logs of a pod's container, as kubectl logs does: the one -c (or CONTAINER after NAME) names, else the one the kubectl.kubernetes.io/default-container annotation names, else the first, with kubectl's note on stderr when the pod has others (Defaulted container \"app\" out of: app, sidecar, init-a (init)). With --all-containers, every container's log: one after the other in the order they start (kubectl's own order changes from run to run), or with -f all followed at once, each line whole. A log the server refuses (a container still waiting to start) ends the command with its error, as kubectl's does, unless --ignore-errors.",
    options: [
      { flags: '-c, --container <name>', description: 'the container (default: the first)' },
      { flags: '-p, --previous', description: "the container's previous attempt" },
      { flags: '--tail <lines>', description: 'only the last lines (-1: all)' },
      { flags: '--since <duration>', description: 'only lines newer than a Go duration (5s, 2m, 1h30m), rounded to whole seconds' },
      { flags: '--since-time <time>', description: 'only lines from an RFC 3339 time on (2026-11-24T05:07:00Z)' },
      { flags: '--timestamps', description: "each line with the runtime's RFC 3339 timestamp" },
      { flags: '--limit-bytes <bytes>', description: 'at most this many bytes' },
      { flags: '-f, --follow', description: 'stream the logs until the container stops' },
      { flags: '--all-containers', description: "every container's log, init containers first (kubectl's order varies from run to run)" },
      { flags: '--prefix', description: 'each line labelled with its source, [pod/NAME/CONTAINER]' },
      { flags: '--max-log-requests <n>', description: 'most logs followed at once', default: 5 },
      { flags: '--ignore-errors', description: 'a log that cannot be read is said among the lines; the others go on' },
      NAMESPACE,
    ],
  },
  {
    name: 'delete',
    synopsis: '[pod|configmap|secret[,...]] NAME...|--all [options]',
    summary: 'delete pods, ConfigMaps or Secrets',
    description:
      'Delete the objects named (pods terminate gracefully, in parallel), or with --all every lab pod, ConfigMap and Secret of the namespace (of TYPE only, when given), or the objects of TYPE a selector matches (-l, --field-selector, as get takes them). While a pod terminates, stderr says which containers it waits for and how much of the grace period is left (updated in place on a terminal; elsewhere one line when the wait starts). Exit 1 when an object is not found.',
    options: [
      { flags: '--all', description: 'all pods, ConfigMaps and Secrets (or of TYPE)' },
      { flags: '-l, --selector <selector>', description: 'the objects of TYPE whose labels match' },
      { flags: '--field-selector <selector>', description: 'the objects of TYPE whose fields match (status.phase=Failed)' },
      { flags: '--grace-period <seconds>', description: "time to stop (default, or negative: the pod's own; 0 is taken as 1, as kubectl does without --force)" },
      NAMESPACE,
    ],
  },
  {
    name: 'exec',
    synopsis: 'NAME [options] -- COMMAND [ARG...]',
    summary: 'run a command in a container of a pod',
    description: "Run a command in a running container of a pod (the first container when -c is not given, with kubectl's \"Defaulted container\" note), as kubectl exec does; exits with the command's exit code.",
    options: [
      { flags: '-c, --container <name>', description: 'the container' },
      { flags: '-i, --stdin', description: "pass this terminal's stdin to the command" },
      { flags: '-t, --tty', description: 'allocate a terminal (with -i, an interactive shell)' },
      NAMESPACE,
    ],
  },
  {
    name: 'port-forward',
    synopsis: 'NAME [LOCAL:]REMOTE... [options]',
    summary: "forward local ports to a pod's ports",
    description:
      "Listen on LOCAL (a free port when LOCAL is empty or 0; REMOTE alone: the same number) of 127.0.0.1 and ::1 and forward each connection to the pod's port REMOTE (a number, or the name of an app container's port), as kubectl port-forward does, until interrupted. A connection the pod's port refuses ends the command with \"lost connection to pod\", as it ends kubectl's.",
    options: [
      { flags: '--address <addr>', description: 'the addresses to listen on, comma-separated IPs or localhost (default: localhost)' },
      NAMESPACE,
    ],
  },
  {
    name: 'nodes',
    synopsis: '[list] | add --simulated N [options] | delete NAME...|--all',
    summary: "list the lab's nodes; add and delete simulated ones",
    description:
      "List the lab's nodes (the Docker node and the simulated ones) with their pods and size. add --simulated N creates N simulated nodes (v1 Nodes annotated lab.podlab.dev/simulated=true, named PREFIX-1, PREFIX-2, …): the scheduler places pods on them as on any node, and a simulated kubelet moves their pods to Running without starting containers. delete removes simulated nodes by name, or all of them with --all.",
    options: [
      { flags: '--simulated <n>', description: 'add: how many simulated nodes' },
      { flags: '--prefix <prefix>', description: 'add: name prefix', default: 'sim' },
      { flags: '--cpu <quantity>', description: 'add: each node’s CPU', default: '4' },
      { flags: '--memory <quantity>', description: 'add: each node’s memory', default: '16Gi' },
      { flags: '--pods <n>', description: 'add: each node’s pod capacity', default: '110' },
      { flags: '--zones <list>', description: 'add: comma-separated topology.kubernetes.io/zone values, given round-robin' },
      { flags: '--taint <taint>', description: 'add: KEY[=VALUE]:EFFECT, repeatable' },
      { flags: '--start-delay <duration>', description: 'add: how long pods stay ContainerCreating (Go duration)', default: '1s' },
      { flags: '--all', description: 'delete: every simulated node' },
    ],
  },
  {
    name: 'validate',
    synopsis: 'FILE... [options]',
    summary: 'validate manifests as the API server would, without Docker',
    description:
      'Validate the files as the API server would, and warn about fields the lab cannot honour, printing file:line:column: severity: message. Loads no Docker code. Exit 0 when valid, 1 on errors, 2 when a file cannot be read.',
    options: [{ flags: '--json', description: 'print the problems as one JSON array' }],
  },
  {
    name: 'serve',
    synopsis: '[options]',
    summary: "run the state directory's lab server in the foreground",
    description:
      'Run the lab server of the state directory (PODLAB_STATE_DIR) in the foreground until SIGINT/SIGTERM: it owns the pods and serves the Kubernetes API on 127.0.0.1. Every other command starts it in the background when none runs. Its containers stay when it stops.',
    options: [
      { flags: '--port <port>', description: "port on 127.0.0.1 (default: last run's, or any)" },
      { flags: '--sandbox-image <image>', description: 'the pod sandbox (pause) image', default: 'registry.k8s.io/pause:3.10' },
      { flags: '--backoff-initial <seconds>', description: 'first crash-loop back-off delay', default: 10 },
      { flags: '--backoff-max <seconds>', description: 'crash-loop back-off cap', default: 300 },
      { flags: '--nodes <file>', description: 'v1 Nodes YAML file (default: one like the host)' },
    ],
  },
  {
    name: 'stop',
    synopsis: '',
    summary: "stop the state directory's lab server",
    description: "Stop the state directory's lab server. Its containers stay as they are; the next server adopts them.",
    options: [],
  },
  {
    name: 'status',
    synopsis: '[options]',
    summary: 'whether the lab server runs, where, and how many pods it has',
    description: "Whether the state directory's lab server runs, where, since when, and how many pods it manages. Exit 0 when it runs, 3 when none does.",
    options: [{ flags: '--json', description: 'print it as one JSON object' }],
  },
  {
    name: 'kubeconfig',
    synopsis: '[--merge [--file FILE]]',
    summary: "the lab's kubeconfig, for kubectl",
    description:
      "Print the path of the lab's kubeconfig (starting the lab server when none runs), as in KUBECONFIG=$(podlab kubeconfig) kubectl get pods; with --merge, add its podlab context to your kubeconfig instead (the first file of KUBECONFIG, else ~/.kube/config; other contexts stay).",
    options: [
      { flags: '--merge', description: 'add the podlab context to your kubeconfig' },
      { flags: '--file <file>', description: 'with --merge: the kubeconfig file to change' },
    ],
  },
];

const HELP_OPTION: OptionHelp = { flags: '-h, --help', description: 'print this help' };

export interface CliIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

/** Where the commands go; `engine` loads the engine bundle, so `validate` never does. */
export interface CliHandlers {
  validate: (argv: string[]) => Promise<number>;
  engine: (cmd: EngineCommandName, argv: string[]) => Promise<number>;
}

export interface CliOptions {
  version: string;
  /** Width the help is wrapped to; by default the terminal's (80 when not a terminal). */
  helpWidth?: number;
}

const toOption = (o: OptionHelp): Option => {
  const opt = new Option(o.flags, o.description);
  if (o.choices) opt.choices(o.choices);
  if (o.default !== undefined) opt.default(o.default);
  return opt;
};

const HELP_FLAGS = new Set(['-h', '--help']);

/** `-h`/`--help` among a command's arguments, before any `--` (after it, arguments are operands). */
export function helpRequested(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (HELP_FLAGS.has(a)) return true;
  }
  return false;
}

/** kubectl's commands that podlab has not: the real kubectl works against the lab for them. */
const KUBECTL_ONLY = new Set(['apply', 'create', 'edit', 'patch', 'replace', 'label', 'annotate', 'top', 'scale', 'rollout', 'expose', 'cp', 'attach', 'debug', 'explain', 'auth', 'config', 'wait', 'diff', 'set', 'proxy', 'cluster-info', 'api-resources', 'api-versions', 'events', 'cordon', 'uncordon', 'drain', 'taint']);

/**
 * An unknown command, with a hint: for one of kubectl's, how to run the real kubectl against the
 * lab (and `run` for apply and create); else the nearest podlab command, if one is near; then the usage.
 */
function unknownCommand(cmd: string): string {
  let hint = '';
  if (KUBECTL_ONLY.has(cmd)) {
    hint = `\n${cmd === 'apply' || cmd === 'create' ? 'podlab run FILE validates a file and creates what it holds. ' : ''}"${cmd}" is kubectl's: the real kubectl works against the lab, as in KUBECONFIG=$(podlab kubeconfig) kubectl ${cmd} ...`;
  } else {
    const near = nearest(cmd, [...COMMANDS.map((c) => c.name), 'help'], cmd.length <= 5 ? 1 : 2, 1)[0];
    if (near) hint = `\nDid you mean "${near.name}"?`;
  }
  return `podlab: unknown command "${cmd}"${hint}\n\n${USAGE}`;
}

/**
 * Runs `podlab ARGV` and returns its exit code. The first argument decides: a command (its raw
 * arguments go on to it), `-h`/`--help`/`help [COMMAND]` (exit 0), `-V`/`--version` (exit 0),
 * nothing (the usage, exit 2), anything else (`podlab: unknown command "x"`, exit 2).
 */
export async function runCli(argv: readonly string[], io: CliIo, handlers: CliHandlers, opts: CliOptions): Promise<number> {
  const args = [...argv];
  let code: number | undefined;
  const program = new Command('podlab');
  const commands = new Map<string, Command>();
  const optionsOf = new Map<Command, Option[]>();

  // The top level when the first argument is not a command: help, nothing, or an unknown command.
  const topLevel = (): number => {
    const first = args[0];
    if (first === undefined) {
      io.out(USAGE);
      return 2;
    }
    if (HELP_FLAGS.has(first)) {
      io.out(USAGE);
      return 0;
    }
    io.err(unknownCommand(first));
    return 2;
  };

  program
    .enablePositionalOptions()
    // Parsing stops at the first argument that is not -h/-V: only the first argument decides.
    .passThroughOptions()
    .helpCommand(false)
    .helpOption(false)
    .addOption(new Option('-h, --help', 'print the usage'))
    .version(opts.version, '-V, --version', 'print the version of podlab')
    .allowUnknownOption()
    .allowExcessArguments()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
      ...(opts.helpWidth !== undefined ? { getOutHelpWidth: () => opts.helpWidth!, getErrHelpWidth: () => opts.helpWidth! } : {}),
    })
    .configureHelp({
      // The root's help is USAGE; a command's is commander's, over the options its own parser takes.
      formatHelp: (cmd: Command, helper: Help) => (cmd.parent ? Help.prototype.formatHelp.call(helper, cmd, helper) : USAGE),
      commandUsage: (cmd: Command) => ['podlab', cmd.name(), cmd.usage()].filter(Boolean).join(' '),
      visibleOptions: (cmd: Command) => optionsOf.get(cmd) ?? [],
    })
    .action(() => {
      code = topLevel();
    });

  for (const spec of COMMANDS) {
    const cmd = program
      .command(spec.name)
      .usage(spec.synopsis)
      .summary(spec.summary)
      .description(spec.description)
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(async () => {
        // Reached from `podlab -h run` or `podlab -- run` too (commander drops the `--`): not the command.
        if (args[0] !== spec.name) code = topLevel();
        else if (helpRequested(args.slice(1))) {
          io.out(cmd.helpInformation());
          code = 0;
        } else code = spec.name === 'validate' ? await handlers.validate(args.slice(1)) : await handlers.engine(spec.name, args.slice(1));
      });
    optionsOf.set(cmd, [...spec.options, HELP_OPTION].map(toOption));
    commands.set(spec.name, cmd);
  }

  const help = program
    .command('help')
    .usage('[COMMAND]')
    .summary('print the usage, or a command\'s help')
    .description("Print the usage, or the help of COMMAND: its synopsis, a description and its options.")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      if (args[0] !== 'help') code = topLevel();
      else {
        const target = commands.get(args[1] ?? '');
        if (args[1] === undefined) {
          io.out(USAGE);
          code = 0;
        } else if (target) {
          io.out(target.helpInformation());
          code = 0;
        } else {
          io.err(unknownCommand(args[1]));
          code = 2;
        }
      }
    });
  optionsOf.set(help, []);
  commands.set('help', help);

  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    // --version (and any help commander prints itself) exits 0; anything else is a usage error,
    // which commander has printed as `error: <message>`.
    return e.exitCode === 0 ? 0 : 2;
  }
  return code ?? 2;
}
