// CRI configs -> Docker create options, as dockershim built them (docker_sandbox.go
// makeSandboxDockerConfig, docker_container.go CreateContainer, security_context.go,
// helpers_linux.go). Pure: no Docker access.
import type Dockerode from 'dockerode';
import { RuntimeError, type ContainerConfig, type Mount, type PodSandboxConfig, type PortMapping, type TmpfsVolumeConfig } from '../cri.js';
import { ContainerTerminationMessagePathAnnotation, ManagedLabel } from '../../shared/labels.js';
import { containerLabels, makeContainerName, makeSandboxName, sandboxLabels } from './naming.js';

/** dockershim: the sandbox's OOM score (qos.PodInfraOOMAdj). */
export const PodInfraOOMAdj = -998;
/** dockershim: the sandbox's CPU shares (minShares). */
export const SandboxCPUShares = 2;
/** dockershim defaultSandboxGracePeriod: seconds `docker stop` waits for the pause container. */
export const DefaultSandboxGracePeriod = 10;
export const DefaultTerminationMessagePath = '/dev/termination-log';

type HostConfig = NonNullable<Dockerode.ContainerCreateOptions['HostConfig']>;

/** `"<containerPort>/<tcp|udp|sctp>"` */
export function portKey(p: Pick<PortMapping, 'containerPort' | 'protocol'>): string {
  return `${p.containerPort}/${(p.protocol ?? 'TCP').toLowerCase()}`;
}

/** PortBindings and ExposedPorts for the sandbox: only mappings with a hostPort (dockershim makePortsAndBindings). */
export function portBindings(mappings: PortMapping[]): {
  ExposedPorts: Record<string, Record<string, never>>;
  PortBindings: Record<string, { HostPort: string; HostIp: string }[]>;
} {
  const ExposedPorts: Record<string, Record<string, never>> = {};
  const PortBindings: Record<string, { HostPort: string; HostIp: string }[]> = {};
  for (const m of mappings) {
    if (!m.hostPort) continue;
    const key = portKey(m);
    ExposedPorts[key] = {};
    (PortBindings[key] ??= []).push({ HostPort: String(m.hostPort), HostIp: m.hostIp ?? '' });
  }
  return { ExposedPorts, PortBindings };
}

/** Create options for the sandbox ("pause") container. */
export function sandboxCreateOptions(config: PodSandboxConfig, sandboxImage: string): Dockerode.ContainerCreateOptions {
  const { ExposedPorts, PortBindings } = portBindings(config.portMappings);
  const hostConfig: HostConfig = {
    NetworkMode: config.hostNetwork ? 'host' : 'default',
    IpcMode: config.hostIPC ? 'host' : 'shareable',
    OomScoreAdj: PodInfraOOMAdj,
    CpuShares: SandboxCPUShares,
    RestartPolicy: { Name: 'no' },
  };
  if (config.hostPID) hostConfig.PidMode = 'host';
  if (Object.keys(PortBindings).length > 0) hostConfig.PortBindings = PortBindings;
  if (config.mounts?.length) hostConfig.Binds = config.mounts.map(mountSpec);
  const opts: Dockerode.ContainerCreateOptions = {
    name: makeSandboxName(config.metadata),
    Image: sandboxImage,
    Labels: sandboxLabels(config.metadata, config.labels, config.annotations, config.podManifest),
    HostConfig: hostConfig,
  };
  // The kubelet leaves the hostname empty for host-network pods (Docker refuses both together).
  if (!config.hostNetwork && config.hostname) opts.Hostname = config.hostname;
  if (Object.keys(ExposedPorts).length > 0) opts.ExposedPorts = ExposedPorts;
  return opts;
}

/** `host:ctr[:ro]` */
export function bindSpec(hostPath: string, containerPath: string, readonly?: boolean): string {
  return `${hostPath}:${containerPath}${readonly ? ':ro' : ''}`;
}

/**
 * One `Binds` entry: a bind of `hostPath`, or for a runtime-managed tmpfs volume
 * `volume:ctr:[ro,]nocopy` (nocopy: the image's files at the mount path are not copied into the
 * volume; the kubelet's mount hides them too).
 */
export function mountSpec(m: Mount): string {
  if (m.tmpfsVolume) return `${m.tmpfsVolume}:${m.containerPath}:${m.readonly ? 'ro,' : ''}nocopy`;
  return bindSpec(m.hostPath, m.containerPath, m.readonly);
}

/** `docker volume create --driver local --opt type=tmpfs --opt device=tmpfs --opt o=size=<bytes>`, labelled as the lab's. */
export function tmpfsVolumeCreateOptions(config: TmpfsVolumeConfig): Dockerode.VolumeCreateOptions {
  const DriverOpts: Record<string, string> = { type: 'tmpfs', device: 'tmpfs' };
  if (config.sizeBytes && config.sizeBytes > 0) DriverOpts.o = `size=${config.sizeBytes}`;
  return { Name: config.name, Driver: 'local', DriverOpts, Labels: { ...config.labels, [ManagedLabel]: 'true' } };
}

/** Docker's `User`: `uid[:gid]` (dockershim modifyContainerConfig). */
export function userSpec(runAsUser?: number, runAsGroup?: number): string | undefined {
  if (runAsUser === undefined || runAsUser === null) {
    if (runAsGroup !== undefined && runAsGroup !== null) {
      throw new RuntimeError('runAsGroup is specified without a runAsUser', 'CreateFailed');
    }
    return undefined;
  }
  return runAsGroup === undefined || runAsGroup === null ? String(runAsUser) : `${runAsUser}:${runAsGroup}`;
}

/** Create options for an app/init container joining the sandbox's namespaces. */
export function containerCreateOptions(
  sandboxId: string,
  config: ContainerConfig,
  sandboxConfig: PodSandboxConfig,
): Dockerode.ContainerCreateOptions {
  const binds = config.mounts.map(mountSpec);
  if (config.terminationMessageHostPath) {
    const ctrPath = config.annotations[ContainerTerminationMessagePathAnnotation] || DefaultTerminationMessagePath;
    binds.push(bindSpec(config.terminationMessageHostPath, ctrPath));
  }
  const ns = `container:${sandboxId}`;
  const hostConfig: HostConfig = {
    NetworkMode: ns,
    IpcMode: ns,
    RestartPolicy: { Name: 'no' },
  };
  if (sandboxConfig.hostPID) hostConfig.PidMode = 'host';
  else if (config.pidTargetId) hostConfig.PidMode = `container:${config.pidTargetId}`;
  else if (config.sharePid) hostConfig.PidMode = ns;
  if (sandboxConfig.hostNetwork) hostConfig.UTSMode = 'host';
  if (binds.length > 0) hostConfig.Binds = binds;
  const r = config.resources;
  if (r?.memoryLimitInBytes) {
    hostConfig.Memory = r.memoryLimitInBytes;
    hostConfig.MemorySwap = r.memoryLimitInBytes;
  }
  if (r?.cpuShares) hostConfig.CpuShares = r.cpuShares;
  if (r?.cpuPeriod) hostConfig.CpuPeriod = r.cpuPeriod;
  if (r?.cpuQuota) hostConfig.CpuQuota = r.cpuQuota;
  if (config.privileged) hostConfig.Privileged = true;

  const opts: Dockerode.ContainerCreateOptions = {
    name: makeContainerName(sandboxConfig.metadata, config.metadata),
    Image: config.image,
    Env: config.envs.map((e) => `${e.key}=${e.value}`),
    Labels: containerLabels(sandboxId, sandboxConfig.metadata, config.metadata, config.labels, config.annotations),
    HostConfig: hostConfig,
  };
  if (config.command.length > 0) opts.Entrypoint = config.command;
  if (config.args.length > 0) opts.Cmd = config.args;
  if (config.workingDir) opts.WorkingDir = config.workingDir;
  if (config.tty) opts.Tty = true;
  if (config.stdin) opts.OpenStdin = true;
  if (config.stdinOnce) opts.StdinOnce = true;
  const user = userSpec(config.runAsUser, config.runAsGroup);
  if (user !== undefined) opts.User = user;
  return opts;
}
