// `podlab`: a thin shell over the engine. This entry only dispatches: `validate` never loads the
// Docker or engine code, which lives in a separate bundle (dist/podlab-engine.js) loaded on demand.
import { runValidate } from './validate.js';

declare const __PODLAB_BUNDLED__: boolean | undefined;

const USAGE = `podlab: run and inspect Kubernetes pods on the local Docker, the way the kubelet would.

Usage:
  podlab run FILE [--json] [--until Running|Ready|Succeeded|Failed|Terminal] [--timeout SECONDS] [--rm]
                  [--sandbox-image IMAGE] [--backoff-initial SECONDS] [--backoff-max SECONDS] [--nodes FILE] [--step]
  podlab get [pods|configmaps|secrets] [NAME...] [-o json|wide] [-n NAMESPACE]
  podlab describe [pod|configmap|secret] NAME... [-n NAMESPACE]
  podlab logs NAME [-c CONTAINER] [--previous] [--tail N] [-f] [-n NAMESPACE]
  podlab delete [pod|configmap|secret] NAME...|--all [--grace-period SECONDS] [-n NAMESPACE]
  podlab validate FILE... [--json]
  podlab serve [--port N] [--sandbox-image IMAGE] [--backoff-initial SECONDS] [--backoff-max SECONDS] [--nodes FILE]
  podlab stop
  podlab status [--json]
  podlab kubeconfig [--merge [--file FILE]]

run creates a file's ConfigMaps, Secrets and Pods in file order (ConfigMaps and Secrets as
kubectl apply does: created, configured or unchanged). A bare NAME is a pod; TYPE/NAME works too
(cm is short for configmap). delete --all removes the lab's pods, ConfigMaps and Secrets.
Exit codes: 0 done, 1 failed or not found, 2 usage or invalid manifest, 124 timeout, 130 interrupted.

One lab server per state directory owns the pods and serves the Kubernetes API on 127.0.0.1; every
other command (and the VS Code extension) is its client and starts it in the background when none
runs. KUBECONFIG=$(podlab kubeconfig) kubectl get pods works against it. podlab stop stops it
(containers stay; the next server adopts them).

Docker: DOCKER_HOST or /var/run/docker.sock. State (the store, events, termination messages,
ConfigMaps and Secrets, the server's credentials): PODLAB_STATE_DIR.
`;

type EngineCommands = typeof import('./engine-commands.js');

function loadEngineCommands(): EngineCommands {
  // Bundled: a separate file next to this one. From source (tsx): the TypeScript module.
  if (typeof __PODLAB_BUNDLED__ !== 'undefined' && __PODLAB_BUNDLED__) {
    return require('./podlab-engine.js') as EngineCommands;
  }
  // A computed specifier keeps esbuild from pulling the engine into this bundle.
  const fromSource = ['.', 'engine-commands.js'].join('/');
  return require(fromSource) as EngineCommands;
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'validate':
      return runValidate(rest, process.stdout, process.stderr);
    case 'run':
    case 'get':
    case 'describe':
    case 'logs':
    case 'delete':
    case 'serve':
    case 'stop':
    case 'status':
    case 'kubeconfig':
      return loadEngineCommands().runCommand(cmd, rest);
    case undefined:
    case 'help':
    case '-h':
    case '--help':
      process.stdout.write(USAGE);
      return cmd === undefined ? 2 : 0;
    default:
      process.stderr.write(`podlab: unknown command "${cmd}"\n\n${USAGE}`);
      return 2;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`podlab: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
