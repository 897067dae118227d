// Helpers of the integration tests that run the built CLI and the real kubectl against a lab.
import { execFileSync, spawn } from 'node:child_process';

/** What a command printed and its exit code (null when killed). */
export interface CommandRun {
  code: number | null;
  out: string;
  err: string;
}

/**
 * Runs a command asynchronously with `input` on its stdin, sent `signal` after `timeoutMs` (a lab
 * server living in the test's process would starve under a blocking spawn).
 */
export function runProcess(file: string, args: string[], env: NodeJS.ProcessEnv, input = '', timeoutMs = 60_000, signal: NodeJS.Signals = 'SIGKILL'): Promise<CommandRun> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill(signal), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
    child.stdin.end(input);
  });
}

/** Runs a command to its end with `env` added; stopped after 30 s (a port-forward that succeeds runs until stopped), the code then null. */
export function run(cmd: string, args: string[], env: Record<string, string>): Promise<CommandRun> {
  return runProcess(cmd, args, { ...process.env, ...env }, '', 30_000, 'SIGTERM');
}

/** How many pod sandboxes a lab has on Docker (the lab label is on sandboxes). */
export const labContainers = (stateDir: string): number =>
  execFileSync('docker', ['ps', '-aq', '--filter', `label=io.podlab.lab=${stateDir}`], { encoding: 'utf8' }).split('\n').filter(Boolean).length;
