// Helpers of the integration tests that run the built CLI and the real kubectl against a lab.
import { execFileSync, spawn } from 'node:child_process';

/** Runs a command to its end with `env` added; killed after 30 s (a port-forward that succeeds runs until stopped), the code then null. */
export function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, timeout: 30_000 });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end();
  });
}

/** How many pod sandboxes a lab has on Docker (the lab label is on sandboxes). */
export const labContainers = (stateDir: string): number =>
  execFileSync('docker', ['ps', '-aq', '--filter', `label=io.podlab.lab=${stateDir}`], { encoding: 'utf8' }).split('\n').filter(Boolean).length;
