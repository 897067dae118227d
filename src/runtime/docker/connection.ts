// Where Docker is: explicit options, else DOCKER_HOST, else /var/run/docker.sock. Pure.
import type Dockerode from 'dockerode';

export interface DockerConnectionOptions {
  /** Unix socket path, e.g. /var/run/docker.sock. Wins over `host`. */
  socketPath?: string;
  /** A DOCKER_HOST-style address: unix:///path, tcp://host:port, http(s)://host:port. */
  host?: string;
}

export const DefaultDockerSocket = '/var/run/docker.sock';

export interface ResolvedConnection {
  /** Options for `new Dockerode(...)`. */
  dockerOptions: Dockerode.DockerOptions;
  /** Human description for messages: the socket path or the URL. */
  target: string;
}

export function resolveConnection(opts: DockerConnectionOptions, env: Record<string, string | undefined>): ResolvedConnection {
  // `host: undefined` is explicit so that docker-modem's own DOCKER_HOST defaults cannot override a socket.
  const unix = (socketPath: string): ResolvedConnection => ({
    dockerOptions: { socketPath, host: undefined },
    target: socketPath,
  });
  if (opts.socketPath) return unix(opts.socketPath);
  const addr = opts.host || env.DOCKER_HOST;
  if (!addr) return unix(DefaultDockerSocket);
  if (addr.startsWith('unix://')) return unix(addr.slice('unix://'.length) || DefaultDockerSocket);
  if (addr.startsWith('/')) return unix(addr);
  const withScheme = addr.includes('://') ? addr : `tcp://${addr}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { dockerOptions: { socketPath: undefined, host: addr }, target: addr };
  }
  const tls = url.protocol === 'https:' || env.DOCKER_TLS_VERIFY === '1' || url.port === '2376';
  const protocol: Dockerode.DockerOptions['protocol'] = url.protocol === 'ssh:' ? 'ssh' : tls ? 'https' : 'http';
  const port = url.port || (protocol === 'https' ? '2376' : protocol === 'ssh' ? '22' : '2375');
  const dockerOptions: Dockerode.DockerOptions = { socketPath: undefined, host: url.hostname, port, protocol };
  if (protocol === 'ssh' && url.username) dockerOptions.username = url.username;
  return { dockerOptions, target: withScheme };
}
