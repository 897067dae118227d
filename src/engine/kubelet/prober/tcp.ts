// The tcpSocket probe (upstream pkg/probe/tcp/tcp.go DoTCPProbe): a TCP connection to host:port
// opened within the timeout and closed at once. A failed dial is a failure whose output is Go's
// net.Dial error text.
import net from 'node:net';
import { realClock, type Clock } from '../../clock.js';
import { goDialError, joinHostPort } from './go-text.js';
import type { ProbeOutcome } from './worker.js';

export function doTCPProbe(host: string, port: number, timeoutMs: number, clock: Clock = realClock): Promise<ProbeOutcome> {
  const hostPort = joinHostPort(host, port);
  return new Promise((resolve) => {
    const sock = net.connect({ host: host || '127.0.0.1', port });
    const timer = clock.setTimeout(() => {
      sock.destroy();
      resolve({ result: 'failure', output: `dial tcp ${hostPort}: i/o timeout` });
    }, timeoutMs);
    sock.once('connect', () => {
      timer.cancel();
      sock.destroy();
      resolve({ result: 'success', output: '' });
    });
    sock.once('error', (e: NodeJS.ErrnoException) => {
      timer.cancel();
      resolve({ result: 'failure', output: goDialError(hostPort, host, e) });
    });
  });
}
