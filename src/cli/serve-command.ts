// `podlab serve` (the lab server in the foreground) and the kubeconfig merge: the server side of
// the CLI, bundled apart (dist/podlab-server.js) so that client commands never load the engine,
// the Docker client or the certificate code.
import type { EngineSettings } from '../engine/api.js';
import { defaultStateDir } from '../shared/state-dir.js';
import { connectDocker } from '../runtime/docker/docker-runtime.js';
import { traceRuntime } from '../runtime/trace.js';
import { LockedError } from '../server/lock.js';
import { startLabServer } from '../server/serve.js';
import { UsageError, parse, seconds } from './args.js';
import { PODLAB_VERSION } from './server-commands.js';

export { mergeKubeconfig } from '../server/credentials.js';

type Io = { out: (s: string) => void; err: (s: string) => void };

/** `podlab serve`: the lab server in the foreground until SIGINT/SIGTERM. */
export async function serve(argv: string[], io: Io, readNodes: (file: string) => EngineSettings['nodes']): Promise<number> {
  const { values, positionals } = parse(argv, { port: { type: 'string' }, 'sandbox-image': { type: 'string' }, 'backoff-initial': { type: 'string' }, 'backoff-max': { type: 'string' }, nodes: { type: 'string' } });
  if (positionals.length) throw new UsageError('serve takes no arguments');
  const settings: Partial<EngineSettings> = {};
  if (values['sandbox-image']) settings.sandboxImage = values['sandbox-image'];
  const bi = seconds(values['backoff-initial'], '--backoff-initial');
  const bm = seconds(values['backoff-max'], '--backoff-max');
  if (bi !== undefined) settings.backoffInitialMs = bi * 1000;
  if (bm !== undefined) settings.backoffMaxMs = bm * 1000;
  if (values.nodes) settings.nodes = readNodes(values.nodes);
  const port = values.port !== undefined ? Number(values.port) : undefined;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError(`--port must be a port number, got "${values.port}"`);
  const stateDir = defaultStateDir();
  const log = (l: string) => io.err(`${new Date().toISOString()} ${l}\n`);
  const docker = await connectDocker({});
  const runtime = process.env.PODLAB_TRACE ? traceRuntime(docker, (l) => log(`[runtime] ${l}`)) : docker;
  let running;
  try {
    running = await startLabServer({ stateDir, settings, runtime, port, version: PODLAB_VERSION, log: process.env.PODLAB_DEBUG ? log : () => undefined });
  } catch (e) {
    runtime.close();
    if (e instanceof LockedError) {
      io.err(`podlab serve: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  log(`lab server for ${stateDir} on https://127.0.0.1:${running.endpoint.port} (pid ${process.pid}); kubeconfig ${running.endpoint.kubeconfig}`);
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (sig: string) => {
      if (stopping) return;
      stopping = true;
      log(`${sig}: stopping; containers stay as they are`);
      void running.stop().then(
        () => resolve(0),
        (e: Error) => {
          log(`stopping: ${e.message}`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGHUP', () => stop('SIGHUP'));
  });
}

