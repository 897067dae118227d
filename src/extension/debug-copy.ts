// The debug copy of an exited container (Open Shell on a failed init container, like
// `kubectl debug --copy-to`): the `docker create` arguments, pure so their shape is tested.
// `docker commit` carries every label of the source container into the image, and a container
// inherits its image's labels: the copy must blank the kubelet's labels, or the kubelet would
// take it for another instance of the container it copies. Lab tools are invisible to the kubelet.
import { LabLabel, ManagedLabel } from '../shared/labels.js';

/** Labels of the source that the copy must not carry (set to the empty value, which no selector matches). */
export function labelsToBlank(sourceLabels: Record<string, string>): string[] {
  return Object.keys(sourceLabels)
    .filter((k) => k.startsWith('io.kubernetes.') || k.startsWith('annotation.') || k === LabLabel)
    .sort();
}

export function debugCopyCreateArgs(opts: {
  name: string;
  image: string;
  sourceId: string;
  podName: string;
  container: string;
  networkFrom?: string;
  /** The source container's labels (docker inspect .Config.Labels). */
  sourceLabels?: Record<string, string>;
}): string[] {
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
  ];
  for (const k of labelsToBlank(opts.sourceLabels ?? {})) args.push('--label', `${k}=`);
  args.push('--volumes-from', opts.sourceId, '--entrypoint', 'sh');
  if (opts.networkFrom) args.push('--network', `container:${opts.networkFrom}`);
  else args.push('--network', 'none');
  args.push(opts.image);
  return args;
}

/** Runs one docker CLI command and resolves to its trimmed stdout. */
export type DockerCli = (args: string[]) => Promise<string>;

function sanitize(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9_.-]/g, '-').slice(0, 40);
}

/**
 * Commits the exited container to a temporary image and creates the copy (not started) from it.
 * Returns the names to start and to clean up; on failure nothing is left behind.
 */
export async function createDebugCopy(
  docker: DockerCli,
  opts: { containerId: string; podName: string; container: string; sandboxId?: string },
): Promise<{ name: string; image: string }> {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const image = `podlab-debug/${sanitize(opts.podName)}-${sanitize(opts.container)}:${stamp}`;
  const name = `podlab-debug-${sanitize(opts.podName)}-${sanitize(opts.container)}-${stamp}`;
  const labels = JSON.parse((await docker(['inspect', '-f', '{{json .Config.Labels}}', opts.containerId])) || '{}') as Record<string, string>;
  await docker(['commit', '--change', `LABEL ${ManagedLabel}=true`, opts.containerId, image]);
  let sandboxRunning = false;
  if (opts.sandboxId) sandboxRunning = (await docker(['inspect', '-f', '{{.State.Running}}', opts.sandboxId]).catch(() => 'false')) === 'true';
  try {
    await docker(
      debugCopyCreateArgs({ name, image, sourceId: opts.containerId, podName: opts.podName, container: opts.container, networkFrom: sandboxRunning ? opts.sandboxId : undefined, sourceLabels: labels }),
    );
  } catch (e) {
    await docker(['rmi', '-f', image]).catch(() => undefined);
    throw e;
  }
  return { name, image };
}
