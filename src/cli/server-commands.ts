// `podlab serve | stop | status | kubeconfig`, and how the other commands reach the lab server:
// `connectLab` finds the state directory's server, or starts one in the background, and returns
// the engine API over it (src/client/remote-engine.ts).
import { parseArgs } from 'node:util';
import type { EngineSettings } from '../engine/api.js';
import { defaultStateDir } from '../engine/engine.js';
import { connectDocker } from '../runtime/docker/docker-runtime.js';
import { traceRuntime } from '../runtime/trace.js';
import { ensureServer, runningServer, serverLog, stopServer, type ServerCommand } from '../client/launch.js';
import { LabConnection, readLabKubeconfig } from '../client/connection.js';
import { RemoteEngine } from '../client/remote-engine.js';
import { LockedError } from '../server/lock.js';
import { startLabServer } from '../server/serve.js';
import { mergeKubeconfig } from '../server/credentials.js';
import { humanDuration } from '../engine/printer.js';
import { UsageError } from './args.js';

type Io = { out: (s: string) => void; err: (s: string) => void };

declare const __PODLAB_VERSION__: string | undefined;
export const PODLAB_VERSION = typeof __PODLAB_VERSION__ !== 'undefined' ? __PODLAB_VERSION__ : 'dev';

/** The engine settings a client may ask a new server for, as `podlab serve` flags. */
export interface ServerFlags {
  sandboxImage?: string;
  backoffInitialSeconds?: number;
  backoffMaxSeconds?: number;
  nodesFile?: string;
}

function serveArgs(f: ServerFlags): string[] {
  const a: string[] = [];
  if (f.sandboxImage) a.push('--sandbox-image', f.sandboxImage);
  if (f.backoffInitialSeconds !== undefined) a.push('--backoff-initial', String(f.backoffInitialSeconds));
  if (f.backoffMaxSeconds !== undefined) a.push('--backoff-max', String(f.backoffMaxSeconds));
  if (f.nodesFile) a.push('--nodes', f.nodesFile);
  return a;
}

/** This CLI, to run `podlab serve` in the background (bundled: dist/cli.js; from source: through tsx). */
function serverCommand(flags: ServerFlags): ServerCommand {
  return { execPath: process.execPath, execArgv: process.execArgv.filter((a) => !a.startsWith('--inspect')), script: process.argv[1] ?? '', args: serveArgs(flags) };
}

/** Differences between what a command asked for and what the running server has. */
function settingsMismatch(want: ServerFlags, have: EngineSettings, nodes: string[], wantNodes?: string[]): string[] {
  const out: string[] = [];
  if (want.sandboxImage && want.sandboxImage !== have.sandboxImage) out.push(`--sandbox-image ${have.sandboxImage}`);
  if (want.backoffInitialSeconds !== undefined && want.backoffInitialSeconds * 1000 !== have.backoffInitialMs) out.push(`--backoff-initial ${have.backoffInitialMs / 1000}`);
  if (want.backoffMaxSeconds !== undefined && want.backoffMaxSeconds * 1000 !== have.backoffMaxMs) out.push(`--backoff-max ${have.backoffMaxMs / 1000}`);
  if (wantNodes && wantNodes.join(',') !== nodes.join(',')) out.push(`nodes ${nodes.join(', ')}`);
  return out;
}

/** The engine API of the state directory's lab server, started in the background when none runs. */
export async function connectLab(io: Io, flags: ServerFlags = {}, wantNodes?: string[]): Promise<RemoteEngine> {
  const stateDir = defaultStateDir();
  const ep = await ensureServer(stateDir, serverCommand(flags), { onStart: () => (process.env.PODLAB_QUIET_SERVER ? undefined : io.err(`podlab: starting the lab server for ${stateDir}\n`)) });
  const conn = new LabConnection(readLabKubeconfig(ep.kubeconfig));
  const engine = await RemoteEngine.connect(conn, ep, stateDir);
  if (!ep.started) {
    const diff = settingsMismatch(flags, engine.settings, ep.settings.nodes, wantNodes);
    if (diff.length) io.err(`podlab: the lab server already runs with ${diff.join(', ')}; run \`podlab stop\` first to change its settings\n`);
  }
  return engine;
}

const seconds = (v: string | undefined, flag: string): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a non-negative number of seconds, got "${v}"`);
  return n;
};

/** `podlab serve`: the lab server in the foreground until SIGINT/SIGTERM. */
export async function serve(argv: string[], io: Io, readNodes: (file: string) => EngineSettings['nodes']): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: 'string' }, 'sandbox-image': { type: 'string' }, 'backoff-initial': { type: 'string' }, 'backoff-max': { type: 'string' }, nodes: { type: 'string' } },
    strict: true,
  });
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

/** `podlab stop` */
export async function stop(io: Io): Promise<number> {
  const stateDir = defaultStateDir();
  const stopped = await stopServer(stateDir);
  io.out(stopped ? `lab server for ${stateDir} stopped (containers left as they are)\n` : `no lab server runs for ${stateDir}\n`);
  return 0;
}

/** `podlab status`: whether the server runs, where, since when, and how many pods it manages. */
export async function status(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true });
  const stateDir = defaultStateDir();
  const ep = await runningServer(stateDir);
  if (!ep) {
    if (values.json) io.out(`${JSON.stringify({ running: false, stateDir })}\n`);
    else io.out(`no lab server runs for ${stateDir}\n`);
    return 3;
  }
  const conn = new LabConnection(readLabKubeconfig(ep.kubeconfig));
  try {
    const pods = await conn.json<{ items: unknown[] }>('GET', '/api/v1/pods');
    const info = { running: true, stateDir, pid: ep.pid, server: `https://127.0.0.1:${ep.port}`, startedAt: new Date(ep.startedAt).toISOString(), pods: pods.items.length, kubeconfig: ep.kubeconfig, log: serverLog(stateDir), version: ep.version };
    if (values.json) io.out(`${JSON.stringify(info)}\n`);
    else {
      io.out(
        [
          `lab server for ${stateDir}: running (pid ${ep.pid})`,
          `  server:     ${info.server}`,
          `  since:      ${info.startedAt} (${humanDuration(Date.now() - ep.startedAt)} ago)`,
          `  pods:       ${info.pods}`,
          `  kubeconfig: ${ep.kubeconfig}`,
          `  log:        ${info.log}`,
        ].join('\n') + '\n',
      );
    }
  } finally {
    conn.close();
  }
  return 0;
}

/** `podlab kubeconfig [--merge [FILE]]`: the lab kubeconfig's path, or the podlab context merged into ~/.kube/config. */
export async function kubeconfig(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { merge: { type: 'boolean' }, file: { type: 'string' } }, strict: true });
  const stateDir = defaultStateDir();
  const ep = await ensureServer(stateDir, serverCommand({}), { onStart: () => io.err(`podlab: starting the lab server for ${stateDir}\n`) });
  if (!values.merge) {
    io.out(`${ep.kubeconfig}\n`);
    return 0;
  }
  const target = values.file ?? process.env.KUBECONFIG?.split(':')[0] ?? `${process.env.HOME ?? ''}/.kube/config`;
  const r = mergeKubeconfig(target, ep.kubeconfig);
  io.out(`${r.added ? 'added' : 'updated'} the podlab context in ${r.path} (kubectl --context podlab ...)\n`);
  return 0;
}
