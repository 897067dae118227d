// One lab server per state directory (no upstream counterpart: a kubelet and an API server are
// one per node and cluster by deployment). The lock is a Unix socket bound in Linux's abstract
// namespace, named after the state directory: binding is atomic (exactly one process wins, no
// check-then-write), and the kernel releases the name the moment the holder dies, even by kill -9,
// so a crash never leaves a stale lock. Elsewhere (macOS) the socket is a file in the state
// directory; a file left by a dead server is detected by a refused connection and replaced.
import { createHash } from 'node:crypto';
import { createConnection, createServer, type Server } from 'node:net';
import { existsSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class LockedError extends Error {
  constructor(readonly stateDir: string) {
    super(`a lab server already runs for ${stateDir} (podlab status says where; podlab stop stops it)`);
    this.name = 'LockedError';
  }
}

/** The socket's address for a state directory. */
export function lockAddress(stateDir: string): string {
  let dir = resolve(stateDir);
  try {
    dir = realpathSync(dir);
  } catch {
    // not created yet: the resolved path names it
  }
  if (process.platform === 'linux') return `\0podlab-lab-${createHash('sha256').update(dir).digest('hex').slice(0, 32)}`;
  return join(dir, 'server.lock.sock');
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((res, rej) => {
    const onError = (e: Error) => rej(e);
    server.once('error', onError);
    server.listen(address, () => {
      server.off('error', onError);
      res();
    });
  });
}

function refusesConnection(address: string): Promise<boolean> {
  return new Promise((res) => {
    const s = createConnection(address);
    s.once('connect', () => {
      s.destroy();
      res(false);
    });
    s.once('error', () => res(true));
  });
}

/** Whether a server holds the lock for this state directory right now. */
export async function lockHeld(stateDir: string): Promise<boolean> {
  const address = lockAddress(stateDir);
  if (process.platform !== 'linux' && !existsSync(address)) return false;
  return !(await refusesConnection(address));
}

/**
 * Takes the lab's lock, or throws a LockedError when another process holds it. The lock is held
 * until `release()` or the process's end. Connections to the socket are closed at once (the socket
 * only says "held").
 */
export async function acquireLock(stateDir: string): Promise<{ release(): void }> {
  const address = lockAddress(stateDir);
  const server = createServer((c) => c.destroy());
  server.unref();
  try {
    await listen(server, address);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    // A socket file (not Linux) left by a server that died: replace it.
    if (process.platform !== 'linux' && (await refusesConnection(address))) {
      rmSync(address, { force: true });
      await listen(server, address).catch((err: NodeJS.ErrnoException) => {
        throw err.code === 'EADDRINUSE' ? new LockedError(stateDir) : err;
      });
    } else {
      throw new LockedError(stateDir);
    }
  }
  return { release: () => server.close() };
}
