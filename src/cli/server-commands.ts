// `podlab serve | stop | status | kubeconfig`, and how the other commands reach the lab server:
// `connectLab` finds the state directory's server, or starts one in the background, and returns
// the engine API over it (src/client/remote-engine.ts).
import type { EngineSettings } from '../engine/api.js';
import { defaultStateDir } from '../shared/state-dir.js';
import { ensureServer, runningServer, serverLog, serverState, stopServer, type ServerCommand } from '../client/launch.js';
import { LabConnection, readLabKubeconfig } from '../client/connection.js';
import { RemoteEngine } from '../client/remote-engine.js';
import { humanDuration } from '../engine/printer.js';
import { UsageError, parse } from './args.js';

type Io = { out: (s: string) => void; err: (s: string) => void };

/** The server side of the CLI (dist/podlab-server.js): `serve`, and the kubeconfig merge. Loaded only when needed. */
export type ServerBundle = typeof import('./serve-command.js');

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
  const ensure = () => ensureServer(stateDir, serverCommand(flags), { onStart: () => (process.env.PODLAB_QUIET_SERVER ? undefined : io.err(`podlab: starting the lab server for ${stateDir}\n`)) });
  const ep = await ensure();
  const conn = new LabConnection(readLabKubeconfig(ep.kubeconfig));
  // Where the lab's server runs now, should this one go away: the one its endpoint file names (or,
  // asked to, a new one, as any command starts it).
  const find = async (start: boolean) => {
    const now = start ? await ensure() : await runningServer(stateDir);
    return now ? { conn: new LabConnection(readLabKubeconfig(now.kubeconfig)), endpoint: now } : undefined;
  };
  const engine = await RemoteEngine.connect(conn, ep, stateDir, find);
  if (!ep.started) {
    const diff = settingsMismatch(flags, engine.settings, ep.settings.nodes, wantNodes);
    if (diff.length) io.err(`podlab: the lab server already runs with ${diff.join(', ')}; run \`podlab stop\` first to change its settings\n`);
  }
  return engine;
}

/** `podlab stop` */
export async function stop(argv: string[], io: Io): Promise<number> {
  noArguments('stop', parse(argv, {}).positionals);
  const stateDir = defaultStateDir();
  const stopped = await stopServer(stateDir);
  io.out(stopped ? `lab server for ${stateDir} stopped (containers left as they are)\n` : `no lab server runs for ${stateDir}\n`);
  return 0;
}

function noArguments(command: string, positionals: readonly string[]): void {
  if (positionals.length) throw new UsageError(`${command} takes no arguments`);
}

/** `podlab status`: whether the server runs, where, since when, and how many pods it manages. */
export async function status(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } });
  noArguments('status', positionals);
  const stateDir = defaultStateDir();
  const found = await serverState(stateDir);
  if (found && !found.answering) {
    const pid = found.endpoint.pid;
    if (values.json) io.out(`${JSON.stringify({ running: true, answering: false, stateDir, pid, problem: found.problem })}\n`);
    else io.out(`the lab server for ${stateDir} (pid ${pid}) holds the lab but does not answer (${found.problem}): resume it (kill -CONT ${pid}) or end it (kill ${pid}; its containers stay for the next server)\n`);
    return 1;
  }
  const ep = found?.endpoint;
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

/** `podlab kubeconfig [--merge [--file FILE]]`: the lab kubeconfig's path, or the podlab context merged into ~/.kube/config. */
export async function kubeconfig(argv: string[], io: Io, server: () => ServerBundle): Promise<number> {
  const { values, positionals } = parse(argv, { merge: { type: 'boolean' }, file: { type: 'string' } });
  noArguments('kubeconfig', positionals);
  const stateDir = defaultStateDir();
  const ep = await ensureServer(stateDir, serverCommand({}), { onStart: () => io.err(`podlab: starting the lab server for ${stateDir}\n`) });
  if (!values.merge) {
    io.out(`${ep.kubeconfig}\n`);
    return 0;
  }
  const target = values.file ?? process.env.KUBECONFIG?.split(':')[0] ?? `${process.env.HOME ?? ''}/.kube/config`;
  const r = server().mergeKubeconfig(target, ep.kubeconfig);
  io.out(`${r.added ? 'added' : 'updated'} the podlab context in ${r.path} (kubectl --context podlab ...)\n`);
  return 0;
}
