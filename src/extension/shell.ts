// Open Shell: `docker exec -it <id> sh` into a running container, or — for an exited (failed init)
// container — a copy of its filesystem, like `kubectl debug --copy-to`: commit it to a temporary
// image, create a container from it running `sh` with the same mounts, attach a VS Code terminal,
// and remove the container and the image when the terminal closes.
import * as vscode from 'vscode';
import { execFile } from 'node:child_process';
import type { Lab } from './lab.js';
import { createDebugCopy } from './debug-copy.js';

export function docker(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('docker', args, { env: { ...process.env, ...env }, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`docker ${args[0]}: ${(stderr || err.message).trim()}`));
      else resolve(stdout.trim());
    });
  });
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

  /**
   * A shell in a running container of a real cluster: `kubectl exec -it` with the same kubeconfig
   * and context (the cluster's API, its authentication and RBAC — not the local Docker).
   */
  kubectlShell(t: { kubeconfig?: string; context: string; namespace: string; pod: string; container: string }): vscode.Terminal {
    const term = vscode.window.createTerminal({
      name: `${t.context}: ${t.pod}/${t.container}`,
      shellPath: 'kubectl',
      shellArgs: [...(t.kubeconfig ? ['--kubeconfig', t.kubeconfig] : []), '--context', t.context, '--namespace', t.namespace, 'exec', '-it', t.pod, '-c', t.container, '--', 'sh'],
      iconPath: new vscode.ThemeIcon('cloud'),
    });
    term.show();
    return term;
  }

  /** a shell in a copy of an exited container's filesystem, with the same mounts */
  async debugCopy(containerId: string, podName: string, container: string, sandboxId: string | undefined): Promise<vscode.Terminal> {
    const env = this.lab.dockerEnv();
    this.lab.log(`debug copy of ${podName}/${container} (${containerId.slice(0, 12)})`);
    const { name, image } = await createDebugCopy((args) => docker(args, env), { containerId, podName, container, sandboxId });
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
