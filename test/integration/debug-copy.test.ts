// Open Shell's debug copy on the real Docker: the copy of a failed init container must be
// invisible to the kubelet (no io.kubernetes.* label survives docker commit into the copy).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { connectDocker } from '../../src/runtime/docker/docker-runtime.js';
import { createDebugCopy } from '../../src/extension/debug-copy.js';
import { PodUIDLabel } from '../../src/shared/labels.js';
import { busyboxContainer, podSandboxConfig, removeTestContainers, SandboxImage, waitFor } from './docker-helpers.js';

const cli = (args: string[]) =>
  new Promise<string>((resolve, reject) => execFile('docker', args, (err, stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve(stdout.trim()))));

after(() => removeTestContainers());

test('the debug copy of a failed init container is not listed among the pod containers the kubelet sees', async () => {
  const rt = await connectDocker();
  const sb = podSandboxConfig('copy-test');
  const sandboxId = await rt.runPodSandbox(sb, SandboxImage);
  const id = await rt.createContainer(sandboxId, busyboxContainer('init1', ['sh', '-c', 'exit 3']), sb);
  await rt.startContainer(id);
  await waitFor('the init container to exit', async () => ((await rt.containerStatus(id))?.state === 'CONTAINER_EXITED' ? true : undefined));
  const copy = await createDebugCopy(cli, { containerId: id, podName: 'copy-test', container: 'init1', sandboxId });
  try {
    const seen = await rt.listContainers({ labelSelector: { [PodUIDLabel]: sb.metadata.uid } });
    assert.deepEqual(seen.map((c) => c.id), [id]);
  } finally {
    await cli(['rm', '-f', copy.name]).catch(() => undefined);
    await cli(['rmi', '-f', copy.image]).catch(() => undefined);
    rt.close();
  }
});
