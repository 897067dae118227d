// The benchmark's baseline: the same pod as the engine makes (a pause sandbox and two busybox
// containers joined to its network and IPC), made with the fewest raw dockerode calls. Returns
// the milliseconds from the first call until all three containers run, then removes them.
import { randomBytes } from 'node:crypto';
import type Dockerode from 'dockerode';

export const RawSandboxImage = 'registry.k8s.io/pause:3.10';
export const RawBusyboxImage = 'busybox:1.35';

export async function rawDockerPod(docker: Dockerode): Promise<number> {
  const tag = randomBytes(4).toString('hex');
  const Labels = { 'io.podlab.managed': 'true', 'io.podlab.bench': 'raw-dockerode' };
  const created: Dockerode.Container[] = [];
  const t0 = performance.now();
  try {
    const sandbox = await docker.createContainer({
      name: `podlab-bench-raw-${tag}-pause`,
      Image: RawSandboxImage,
      Labels,
      HostConfig: { IpcMode: 'shareable', RestartPolicy: { Name: 'no' } },
    });
    created.push(sandbox);
    await sandbox.start();
    const ns = `container:${sandbox.id}`;
    // The kubelet starts app containers one after the other; so does the baseline.
    for (const name of ['one', 'two']) {
      const c = await docker.createContainer({
        name: `podlab-bench-raw-${tag}-${name}`,
        Image: RawBusyboxImage,
        Cmd: ['sleep', '3600'],
        Labels,
        HostConfig: { NetworkMode: ns, IpcMode: ns, RestartPolicy: { Name: 'no' } },
      });
      created.push(c);
      await c.start();
    }
    // `start` returns once the process runs, so all three are running now.
    return performance.now() - t0;
  } finally {
    await Promise.all(created.map((c) => c.remove({ force: true }).catch(() => undefined)));
  }
}
