// `podlab exec` and `podlab port-forward`: kubectl's commands of the same names for users without
// kubectl, over the lab server's streaming subresources (src/client/streams.ts).
import type { AddressInfo } from 'node:net';
import { execInteractive, portForward } from '../client/streams.js';
import type { RemoteEngine } from '../client/remote-engine.js';
import { ApiStatusError } from '../client/connection.js';
import { UsageError, parse, podArg } from './args.js';
import { chooseExecContainer } from './pod-logs.js';

type Io = { out: (s: string) => void; err: (s: string) => void };

/** The pod's container kubectl exec would pick (pod-logs.ts chooseExecContainer), its note on stderr. */
function pickContainer(engine: RemoteEngine, ns: string, pod: string, container: string | undefined, io: Io): string {
  const p = engine.getPod(ns, pod);
  if (!p) throw Object.assign(new Error(`pods "${pod}" not found`), { notFound: true });
  const choice = chooseExecContainer(p, container);
  if ('error' in choice) throw new Error(choice.error);
  for (const note of choice.notes) io.err(`${note}\n`);
  return choice.container;
}

/** `podlab exec POD [-c C] [-i] [-t] -- COMMAND [ARGS...]`: exit code of the command. */
export async function exec(argv: string[], io: Io, connect: () => Promise<RemoteEngine>): Promise<number> {
  const dash = argv.indexOf('--');
  if (dash < 0) throw new UsageError('exec needs a command after --, e.g. podlab exec POD -- sh');
  const command = argv.slice(dash + 1);
  if (!command.length) throw new UsageError('you must specify at least one command for the container');
  const { values, positionals } = parse(argv.slice(0, dash), { container: { type: 'string', short: 'c' }, stdin: { type: 'boolean', short: 'i' }, tty: { type: 'boolean', short: 't' }, namespace: { type: 'string', short: 'n' } });
  if (positionals.length !== 1) throw new UsageError('exec takes exactly one pod NAME');
  const name = podArg(positionals[0]!);
  const ns = values.namespace ?? 'default';
  const engine = await connect();
  try {
    let container: string;
    try {
      container = pickContainer(engine, ns, name, values.container, io);
    } catch (e) {
      io.err((e as { notFound?: boolean }).notFound ? `Error from server (NotFound): ${(e as Error).message}\n` : `error: ${(e as Error).message}\n`);
      return 1;
    }
    const tty = !!values.tty && !!process.stdin.isTTY;
    if (values.tty && !process.stdin.isTTY) io.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
    try {
      const code = await execInteractive(engine.conn, ns, name, container, command, { stdin: !!values.stdin, tty }, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
      // kubectl says so when the command failed, and exits with its code
      if (code !== 0) io.err(`command terminated with exit code ${code}\n`);
      return code;
    } catch (e) {
      // The server's refusal as kubectl prints a Status: `Error from server (BadRequest): container x is not valid for pod y`.
      if (e instanceof ApiStatusError && e.reason) io.err(`Error from server (${e.reason}): ${e.message}\n`);
      else io.err(`error: ${(e as Error).message}\n`);
      return 1;
    }
  } finally {
    await engine.close();
  }
}

/** `podlab port-forward POD [LOCAL:]REMOTE`: forwards until SIGINT/SIGTERM. */
export async function portForwardCommand(argv: string[], io: Io, connect: () => Promise<RemoteEngine>): Promise<number> {
  const { values, positionals } = parse(argv, { namespace: { type: 'string', short: 'n' } });
  if (positionals.length !== 2) throw new UsageError('port-forward takes a pod NAME and a port: [LOCAL:]REMOTE (LOCAL empty or 0 picks a free port)');
  const m = /^(\d*):?(\d+)$/.exec(positionals[1]!);
  const spec = positionals[1]!.includes(':') ? /^(\d*):(\d+)$/.exec(positionals[1]!) : m && [m[0], m[2], m[2]];
  if (!spec) throw new UsageError(`invalid port specification "${positionals[1]}"`);
  const local = spec[1] === '' ? 0 : Number(spec[1]);
  const remote = Number(spec[2]);
  const ns = values.namespace ?? 'default';
  const name = podArg(positionals[0]!);
  const engine = await connect();
  let server;
  try {
    const pod = engine.getPod(ns, name);
    if (!pod) throw Object.assign(new Error(`pods "${name}" not found`), { notFound: true });
    // kubectl's own check before it asks for the stream
    if (pod.status?.phase !== 'Running') throw new Error(`unable to forward port because pod is not running. Current status=${pod.status?.phase ?? ''}`);
    server = await portForward(engine.conn, ns, name, local, remote, (l) => io.err(`${l}\n`));
  } catch (e) {
    await engine.close();
    io.err((e as { notFound?: boolean }).notFound ? `Error from server (NotFound): ${(e as Error).message}\n` : `error: ${(e as Error).message}\n`);
    return 1;
  }
  io.out(`Forwarding from 127.0.0.1:${(server.address() as AddressInfo).port} -> ${remote}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  server.close();
  await engine.close();
  return 0;
}
