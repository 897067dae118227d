// The shells' way in: the lab server of a state directory (started in the background when none
// runs) and the engine API over it.
import { ensureServer, type ServerCommand } from './launch.js';
import { LabConnection, readLabKubeconfig } from './connection.js';
import { RemoteEngine } from './remote-engine.js';
import type { Endpoint } from '../server/endpoint.js';

export async function openLab(stateDir: string, cmd: ServerCommand, opts: { onStart?: () => void } = {}): Promise<{ engine: RemoteEngine; endpoint: Endpoint; started: boolean }> {
  const ep = await ensureServer(stateDir, cmd, opts);
  const conn = new LabConnection(readLabKubeconfig(ep.kubeconfig));
  try {
    return { engine: await RemoteEngine.connect(conn, ep, stateDir), endpoint: ep, started: ep.started };
  } catch (e) {
    conn.close();
    throw e;
  }
}

export { RemoteEngine } from './remote-engine.js';
export { stopServer, runningServer, type ServerCommand } from './launch.js';
