// Go's wording for what the probe handlers report: net.JoinHostPort, time.Duration.String,
// textproto.CanonicalMIMEHeaderKey and the net package's dial errors (as the kubelet's probes,
// written in Go, print them). Pure.

/** net.JoinHostPort: IPv6 literals in brackets. */
export function joinHostPort(host: string, port: number | string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export { goDuration } from '../../../shared/go.js';

const isToken = (s: string) => /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(s);

/** textproto.CanonicalMIMEHeaderKey: `user-agent` → `User-Agent`; invalid keys are left as they are. */
export function canonicalHeaderKey(k: string): string {
  if (!isToken(k)) return k;
  let upper = true;
  let out = '';
  for (const ch of k) {
    out += upper ? ch.toUpperCase() : ch.toLowerCase();
    upper = ch === '-';
  }
  return out;
}

/** The net package's text for a failed dial of `hostPort` ("dial tcp 10.1.0.5:8080: connect: connection refused"). */
export function goDialError(hostPort: string, host: string, e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${hostPort}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `dial tcp ${hostPort}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${hostPort}: connect: network is unreachable`;
    case 'ETIMEDOUT':
      return `dial tcp ${hostPort}: connect: connection timed out`;
    case 'EADDRNOTAVAIL':
      return `dial tcp ${hostPort}: connect: cannot assign requested address`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return `dial tcp: lookup ${host}: no such host`;
    default:
      return `dial tcp ${hostPort}: ${e.message}`;
  }
}

/** Whether a Node socket error happened while connecting (a dial error in Go's terms). */
export function isDialError(e: NodeJS.ErrnoException): boolean {
  return ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL'].includes(e.code ?? '');
}
