// `podlab exec` and `podlab port-forward`: kubectl's commands of the same names for users without
// kubectl, over the lab server's streaming subresources (src/client/streams.ts).
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { execInteractive, forwardConnection, portForwardCheck } from '../client/streams.js';
import type { RemoteEngine } from '../client/remote-engine.js';
import { ApiStatusError } from '../client/connection.js';
import { UsageError, parse, podArg } from './args.js';
import { chooseExecContainer } from './pod-logs.js';
import { listenForInterrupt, type Interrupt } from './interrupt.js';
import { joinHostPort, listenErrorText, listenVerdict, parseAddresses, parsePorts, portsText, resolvePodPorts, type ListenAddress } from './port-forward.js';

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

/** A pod's NotFound message, or the namespace's when that is what is missing (kubectl looks it up after a NotFound). */
export async function notFoundIn(engine: RemoteEngine, ns: string, message: string): Promise<string> {
  return (await engine.namespaceExists(ns)) ? message : `namespaces "${ns}" not found`;
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
      const notFound = (e as { notFound?: boolean }).notFound;
      io.err(notFound ? `Error from server (NotFound): ${await notFoundIn(engine, ns, (e as Error).message)}\n` : `error: ${(e as Error).message}\n`);
      return 1;
    }
    // As kubectl's: a TTY only with stdin (-t alone is dropped without a word), and only on a terminal.
    const tty = !!values.tty && !!values.stdin && !!process.stdin.isTTY;
    if (values.tty && values.stdin && !process.stdin.isTTY) io.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
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

/**
 * `podlab port-forward POD PORT... [--address A,...]`: kubectl's port-forward — named ports, several
 * ports, 127.0.0.1 and ::1 by default, `Handling connection for N` per connection — until
 * SIGINT/SIGTERM (exit 0), or until a connection's forwarding fails: then, as kubectl does since
 * client-go ends the session on an error from the pod's side, `error: lost connection to pod` (exit 1).
 */
export async function portForwardCommand(argv: string[], io: Io, connect: () => Promise<RemoteEngine>): Promise<number> {
  const { values, positionals } = parse(argv, { namespace: { type: 'string', short: 'n' }, address: { type: 'string', multiple: true } });
  if (positionals.length < 2) throw new UsageError('TYPE/NAME and list of ports are required for port-forward');
  const ns = values.namespace ?? 'default';
  const name = podArg(positionals[0]!);
  const fail = (message: string) => (io.err(`error: ${message}\n`), 1);
  const engine = await connect();
  const listeners: Server[] = [];
  const sockets = new Set<Socket>();
  let interrupt: Interrupt | undefined;
  try {
    const pod = engine.getPod(ns, name);
    if (!pod) {
      io.err(`Error from server (NotFound): ${await notFoundIn(engine, ns, `pods "${name}" not found`)}\n`);
      return 1;
    }
    const resolved = resolvePodPorts(positionals.slice(1), pod);
    if ('error' in resolved) return fail(resolved.error);
    // kubectl's own check before it asks for the stream
    if (pod.status?.phase !== 'Running') return fail(`unable to forward port because pod is not running. Current status=${pod.status?.phase ?? ''}`);
    const addresses = parseAddresses((values.address ?? ['localhost']).flatMap((a) => a.split(',')));
    if ('error' in addresses) return fail(addresses.error);
    const ports = parsePorts(resolved);
    if ('error' in ports) return fail(ports.error);
    // SIGINT/SIGTERM from here on end it cleanly (exit 0), also while it is still setting up.
    interrupt = listenForInterrupt();
    try {
      await portForwardCheck(engine.conn, ns, name);
    } catch (e) {
      return fail(`error upgrading connection: ${(e as Error).message}`);
    }
    let lost: (message: string) => void = () => undefined;
    const lostConnection = new Promise<string>((resolve) => (lost = resolve));
    let listening = false;
    for (const port of ports) {
      const results: { addr: ListenAddress; error?: string }[] = [];
      for (const addr of addresses) {
        const server = createServer((sock) => {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          io.out(`Handling connection for ${port.local}\n`);
          forwardConnection(engine.conn, ns, name, port.remote, sock, (message) => lost(`an error occurred forwarding ${port.local} -> ${port.remote}: ${message}`));
        });
        const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
          server.once('error', resolve);
          server.listen({ host: addr.address, port: port.local, ipv6Only: addr.family === 6 }, () => resolve(undefined));
        });
        if (error) {
          results.push({ addr, error: listenErrorText(addr, port.local, error) });
          continue;
        }
        // (an error of the listening socket later, such as too many open files, is said and the others go on)
        server.on('error', (e: Error) => io.err(`error accepting connection on port ${port.local}: ${e.message}\n`));
        listeners.push(server);
        port.local = (server.address() as AddressInfo).port;
        io.out(`Forwarding from ${joinHostPort(addr.address, port.local)} -> ${port.remote}\n`);
        results.push({ addr });
      }
      const refused = listenVerdict(results);
      if (refused === undefined) listening = true;
      else io.err(`Unable to listen on port ${port.local}: ${refused}\n`);
    }
    if (interrupt.fired) return 0;
    if (!listening) return fail(`unable to listen on any of the requested ports: ${portsText(ports)}`);
    const why = await Promise.race([lostConnection, interrupt.signalled]);
    if (why === undefined) return 0;
    io.err(`${why}\n`);
    return fail('lost connection to pod');
  } finally {
    interrupt?.dispose();
    for (const l of listeners) l.close();
    for (const s of sockets) s.destroy();
    await engine.close();
  }
}
