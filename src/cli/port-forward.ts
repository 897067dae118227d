// `podlab port-forward`'s decisions, as kubectl makes them (k8s.io/kubectl/pkg/cmd/portforward:
// checkUDPPortInPod, convertPodNamedPortToNumber; k8s.io/client-go/tools/portforward: parsePorts,
// parseAddresses, the listen and error texts), pure, so the grammar and the messages are tested
// without a server. The forwarding itself is in stream-commands.ts and src/client/streams.ts.
import type { Pod } from 'kubernetes-types/core/v1';
import { isIPv4, isIPv6 } from 'node:net';
import { goQuote } from '../shared/go.js';

/** A LOCAL:REMOTE pair; LOCAL 0 until a listener picked a free port. */
export interface ForwardedPort {
  local: number;
  remote: number;
}

/**
 * An address to listen on. `localhost` stands for 127.0.0.1 and ::1 together ("all": an error only
 * when neither listens); an address given by IP must listen ("any").
 */
export interface ListenAddress {
  address: string;
  family: 4 | 6;
  failureMode: 'all' | 'any';
}

/** kubectl's splitPort: `L:R` into its parts; anything else (one part, or three) is its first part twice. */
function splitPort(spec: string): [string, string] {
  const parts = spec.split(':');
  return parts.length === 2 ? [parts[0]!, parts[1]!] : [parts[0]!, parts[0]!];
}

/** strconv.Atoi: a signed decimal integer. */
const isAtoi = (s: string) => /^[+-]?[0-9]+$/.test(s) && Math.abs(Number(s)) <= Number.MAX_SAFE_INTEGER;

/** util.LookupContainerPortNumberByName: the app containers' ports only, a port without a name being named "". */
function portByName(pod: Pod, name: string): number | { error: string } {
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) if ((p.name ?? '') === name) return p.containerPort;
  }
  return { error: `Pod '${pod.metadata?.name ?? ''}' does not have a named port '${name}'` };
}

/**
 * kubectl's Complete for a pod: the UDP check (a port the containers declare for UDP only cannot be
 * forwarded), then each REMOTE that is a name replaced by its number. The result is the port
 * arguments parsePorts reads next.
 */
export function resolvePodPorts(specs: readonly string[], pod: Pod): string[] | { error: string } {
  const udp = new Set<number>();
  const tcp = new Set<number>();
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      const protocol = p.protocol ?? 'TCP';
      if (protocol === 'UDP') udp.add(p.containerPort);
      else if (protocol === 'TCP') tcp.add(p.containerPort);
    }
  }
  for (const spec of specs) {
    const [, remote] = splitPort(spec);
    let port: number;
    if (isAtoi(remote)) port = Number(remote);
    else {
      const named = portByName(pod, remote);
      if (typeof named !== 'number') return named;
      port = named;
    }
    if (udp.has(port) && !tcp.has(port)) return { error: `UDP protocol is not supported for ${remote}` };
  }
  const out: string[] = [];
  for (const spec of specs) {
    const [local, remote] = splitPort(spec);
    if (remote === '') return { error: 'remote port cannot be empty' };
    let number = remote;
    if (!isAtoi(remote)) {
      const named = portByName(pod, remote);
      if (typeof named !== 'number') return named;
      number = String(named);
    }
    out.push(local !== remote ? `${local}:${number}` : number);
  }
  return out;
}

/** strconv.ParseUint(s, 10, 16), or Go's error text. */
function parseUint16(s: string): number | string {
  if (!/^[0-9]+$/.test(s)) return `strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`;
  const n = Number(s);
  if (n > 65535) return `strconv.ParseUint: parsing ${goQuote(s)}: value out of range`;
  return n;
}

/** client-go's parsePorts: `R`, `L:R`, `:R` or `0:R` (a free local port). */
export function parsePorts(specs: readonly string[]): ForwardedPort[] | { error: string } {
  const out: ForwardedPort[] = [];
  for (const spec of specs) {
    const parts = spec.split(':');
    if (parts.length > 2) return { error: `invalid port format '${spec}'` };
    const localText = parts.length === 1 ? parts[0]! : parts[0] || '0';
    const remoteText = parts.length === 1 ? parts[0]! : parts[1]!;
    const local = parseUint16(localText);
    if (typeof local === 'string') return { error: `error parsing local port '${localText}': ${local}` };
    const remote = parseUint16(remoteText);
    if (typeof remote === 'string') return { error: `error parsing remote port '${remoteText}': ${remote}` };
    if (remote === 0) return { error: 'remote port must be > 0' };
    out.push({ local, remote });
  }
  return out;
}

/** client-go's parseAddresses: `localhost` or IPs, each once, in the order of their text. */
export function parseAddresses(list: readonly string[]): ListenAddress[] | { error: string } {
  const parsed = new Map<string, ListenAddress>();
  for (const address of list) {
    if (address === 'localhost') {
      if (!parsed.has('127.0.0.1')) parsed.set('127.0.0.1', { address: '127.0.0.1', family: 4, failureMode: 'all' });
      if (!parsed.has('::1')) parsed.set('::1', { address: '::1', family: 6, failureMode: 'all' });
    } else if (isIPv4(address)) parsed.set(address, { address, family: 4, failureMode: 'any' });
    else if (isIPv6(address)) parsed.set(address, { address, family: /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? 4 : 6, failureMode: 'any' });
    else return { error: `${address} is not a valid IP` };
  }
  return [...parsed.values()].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

/** net.JoinHostPort. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Go's `%v` of the ports: `[{8080 80} {0 90}]`. */
export function portsText(ports: readonly ForwardedPort[]): string {
  return `[${ports.map((p) => `{${p.local} ${p.remote}}`).join(' ')}]`;
}

/** getListener's error for a failed listen, in Go's words (`... bind: address already in use`). */
export function listenErrorText(addr: ListenAddress, port: number, err: NodeJS.ErrnoException): string {
  const why =
    {
      EADDRINUSE: 'bind: address already in use',
      EACCES: 'bind: permission denied',
      EADDRNOTAVAIL: 'bind: cannot assign requested address',
      EAFNOSUPPORT: 'socket: address family not supported by protocol',
    }[err.code ?? ''] ?? err.message;
  return `unable to create listener: Error listen tcp${addr.family} ${joinHostPort(addr.address, port)}: ${why}`;
}

/**
 * listenOnPort's verdict for one port, from each address's listen error (undefined: it listens):
 * the text kubectl prints after `Unable to listen on port N: `, or undefined when the port counts
 * as forwarded.
 */
export function listenVerdict(results: readonly { addr: ListenAddress; error?: string }[]): string | undefined {
  const errors = results.filter((r) => r.error !== undefined);
  const okAll = results.some((r) => r.error === undefined && r.addr.failureMode === 'all');
  const failedAll = errors.some((r) => r.addr.failureMode === 'all');
  const failedAny = errors.some((r) => r.addr.failureMode === 'any');
  if ((!okAll && failedAll) || failedAny) return `Listeners failed to create with the following errors: [${errors.map((r) => r.error).join(' ')}]`;
  return undefined;
}
