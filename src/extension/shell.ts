// Open Shell: `docker exec -it <id> sh` into a running container, or — for an exited (failed init)
// container — a copy of its filesystem, like `kubectl debug --copy-to`: commit it to a temporary
// image, create a container from it running `sh` with the same mounts, attach a VS Code terminal,
// and remove the container and the image when the terminal closes.
import * as vscode from 'vscode';
import { execFile } from 'node:child_process';
import type { Lab } from './lab.js';
import { ManagedLabel } from '../shared/labels.js';

export function docker(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('docker', args, { env: { ...process.env, ...env }, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`docker ${args[0]}: ${(stderr || err.message).trim()}`));
      else resolve(stdout.trim());
    });
  });
}

/** The arguments of the debug copy (pure, so the shape is tested): same mounts, same working dir, `sh`. */
export function debugCopyCreateArgs(opts: { name: string; image: string; sourceId: string; podName: string; container: string; networkFrom?: string }): string[] {
  const args = [
    'create',
    '--name',
    opts.name,
    '-it',
    '--label',
    `${ManagedLabel}=true`,
    '--label',
    'io.podlab.debug-copy=true',
    '--label',
    `io.podlab.debug-copy.of=${opts.podName}/${opts.container}`,
    '--volumes-from',
    opts.sourceId,
    '--entrypoint',
    'sh',
  ];
  if (opts.networkFrom) args.push('--network', `container:${opts.networkFrom}`);
  else args.push('--network', 'none');
  args.push(opts.image);
  return args;
}

export class Shells implements vscode.Disposable {
  private readonly cleanups = new Map<vscode.Terminal, () => Promise<void>>();
  private readonly sub: vscode.Disposable;

  constructor(private readonly lab: Lab) {
    this.sub = vscode.window.onDidCloseTerminal((t) => {
      const c = this.cleanups.get(t);
      if (c) {
        this.cleanups.delete(t);
        void c();
      }
    });
  }

  /** exec into a running container */
  execShell(containerId: string, label: string): vscode.Terminal {
    const t = vscode.window.createTerminal({
      name: `Pod Lab: ${label}`,
      shellPath: 'docker',
      shellArgs: ['exec', '-it', containerId, 'sh'],
      env: this.lab.dockerEnv(),
      iconPath: new vscode.ThemeIcon('terminal'),
    });
    t.show();
    return t;
  }

  /** a shell in a copy of an exited container's filesystem, with the same mounts */
  async debugCopy(containerId: string, podName: string, container: string, sandboxId: string | undefined): Promise<vscode.Terminal> {
    const env = this.lab.dockerEnv();
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const image = `podlab-debug/${sanitize(podName)}-${sanitize(container)}:${stamp}`;
    const name = `podlab-debug-${sanitize(podName)}-${sanitize(container)}-${stamp}`;
    this.lab.log(`debug copy of ${podName}/${container} (${containerId.slice(0, 12)}): committing to ${image}`);
    await docker(['commit', '--change', `LABEL ${ManagedLabel}=true`, containerId, image], env);
    let sandboxRunning = false;
    if (sandboxId) {
      sandboxRunning = (await docker(['inspect', '-f', '{{.State.Running}}', sandboxId], env).catch(() => 'false')) === 'true';
    }
    try {
      await docker(debugCopyCreateArgs({ name, image, sourceId: containerId, podName, container, networkFrom: sandboxRunning ? sandboxId : undefined }), env);
    } catch (e) {
      await docker(['rmi', '-f', image], env).catch(() => undefined);
      throw e;
    }
    const t = vscode.window.createTerminal({
      name: `Pod Lab: ${podName}/${container} (debug copy)`,
      shellPath: 'docker',
      shellArgs: ['start', '-ai', name],
      env,
      iconPath: new vscode.ThemeIcon('debug'),
      message: `A copy of the exited container ${container} of pod ${podName}: its filesystem as it ended, the same mounts. It is removed with its temporary image when this terminal closes.`,
    });
    const cleanup = async () => {
      await docker(['rm', '-f', name], env).catch((e: unknown) => this.lab.out.warn(String(e)));
      await docker(['rmi', '-f', image], env).catch((e: unknown) => this.lab.out.warn(String(e)));
      this.lab.log(`debug copy ${name} and image ${image} removed`);
    };
    this.cleanups.set(t, cleanup);
    t.show();
    return t;
  }

  async dispose(): Promise<void> {
    this.sub.dispose();
    const all = [...this.cleanups.values()];
    this.cleanups.clear();
    await Promise.all(all.map((c) => c()));
  }
}

function sanitize(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9_.-]/g, '-').slice(0, 40);
}
