// Finding, starting and stopping the lab server of a state directory (the shells' side of
// src/server/serve.ts). A client that finds no server starts one in the background — detached,
// its output in `<stateDir>/server/server.log` — and waits until it answers. Two clients racing on
// a fresh lab both end up on the one server that won the lock; the other exits at once.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { lockHeld } from '../server/lock.js';
import { readEndpoint, type Endpoint } from '../server/endpoint.js';
import { LabConnection, NoAnswerError, readLabKubeconfig } from './connection.js';

/** How to run `podlab serve`: the Node binary, the CLI script, and the serve flags. */
export interface ServerCommand {
  execPath: string;
  /** Node options the script needs (e.g. `--import tsx` from source). */
  execArgv?: string[];
  script: string;
  args: string[];
  /** Extra environment (e.g. DOCKER_HOST from the extension's settings). */
  env?: Record<string, string>;
}

export const serverLog = (stateDir: string) => join(stateDir, 'server', 'server.log');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a server has to answer `/readyz` (a stopped or hung one never does). */
const READY_TIMEOUT_MS = 5000;

/** The running server's endpoint, when its lock is held and it answers `/readyz`. */
export async function runningServer(stateDir: string): Promise<Endpoint | undefined> {
  const found = await serverState(stateDir);
  return found?.answering ? found.endpoint : undefined;
}

/**
 * The server that holds the state directory's lock and has published its endpoint, and whether it
 * answers `/readyz` (why not, when it does not: a stopped or hung process, a server going down).
 */
export async function serverState(stateDir: string): Promise<{ endpoint: Endpoint; answering: true } | { endpoint: Endpoint; answering: false; problem: string } | undefined> {
  if (!(await lockHeld(stateDir))) return undefined;
  const ep = readEndpoint(stateDir);
  if (!ep) return undefined;
  try {
    const conn = new LabConnection(readLabKubeconfig(ep.kubeconfig));
    try {
      await conn.request('GET', '/readyz', undefined, {}, { timeoutMs: READY_TIMEOUT_MS });
    } finally {
      conn.close();
    }
    return { endpoint: ep, answering: true };
  } catch (e) {
    // Only a server that keeps the connection without answering is a hung one; a refused connection
    // is a server starting or stopping (its endpoint file may be an older server's).
    return e instanceof NoAnswerError ? { endpoint: ep, answering: false, problem: e.message } : undefined;
  }
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * The lab server of the state directory: the running one, or one started now in the background.
 * Throws with the server's own last words when it cannot start (Docker down, port taken...).
 */
export async function ensureServer(stateDir: string, cmd: ServerCommand, opts: { timeoutMs?: number; onStart?: () => void } = {}): Promise<Endpoint & { started: boolean }> {
  const now = await runningServer(stateDir);
  if (now) return { ...now, started: false };
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  // A server may be starting (lock held, no endpoint yet): wait for it rather than start another.
  if (!(await lockHeld(stateDir))) {
    mkdirSync(join(stateDir, 'server'), { recursive: true, mode: 0o700 });
    const log = serverLog(stateDir);
    const logStart = (() => {
      try {
        return statSync(log).size;
      } catch {
        return 0;
      }
    })();
    const fd = openSync(log, 'a', 0o600);
    opts.onStart?.();
    const child = spawn(cmd.execPath, [...(cmd.execArgv ?? []), cmd.script, 'serve', ...cmd.args], {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: { ...process.env, ...cmd.env, PODLAB_STATE_DIR: stateDir, ELECTRON_RUN_AS_NODE: '1' },
    });
    closeSync(fd);
    let exited: number | null | undefined;
    child.once('exit', (code) => (exited = code));
    child.unref();
    while (Date.now() < deadline) {
      const ep = await runningServer(stateDir);
      if (ep) return { ...ep, started: ep.pid === child.pid };
      if (exited !== undefined && !(await lockHeld(stateDir))) {
        // The server's own last word (e.g. `error: Cannot connect to Docker at ...`) says why.
        const said = readFileSync(log, 'utf8').slice(logStart).trim().split('\n').filter(Boolean).pop();
        throw new Error(said ? said.replace(/^(podlab serve: |error: )/, '') : `the lab server did not start (exit code ${exited}); its log: ${log}`);
      }
      await sleep(100);
    }
  } else {
    while (Date.now() < deadline) {
      const ep = await runningServer(stateDir);
      if (ep) return { ...ep, started: false };
      await sleep(100);
    }
  }
  throw new Error(`the lab server for ${stateDir} did not answer within ${Math.round((opts.timeoutMs ?? 60_000) / 1000)}s; its log: ${serverLog(stateDir)}\n${tail(serverLog(stateDir), 5)}`);
}

/** Stops the state directory's server (SIGTERM, then waits for its lock); false when none ran. */
export async function stopServer(stateDir: string, timeoutMs = 60_000): Promise<boolean> {
  if (!(await lockHeld(stateDir))) return false;
  const ep = readEndpoint(stateDir);
  if (!ep) throw new Error(`a lab server holds ${stateDir} but has not published its endpoint yet; try again`);
  try {
    process.kill(ep.pid, 'SIGTERM');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await lockHeld(stateDir))) return true;
    await sleep(100);
  }
  throw new Error(`the lab server (pid ${ep.pid}) did not stop within ${timeoutMs / 1000}s`);
}
