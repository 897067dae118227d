// The lab server process (`podlab serve`): takes the lab's lock, connects to Docker, starts the
// engine (store with its journal, scheduler, kubelet), serves the API, writes the kubeconfig and
// the endpoint file, and on SIGINT/SIGTERM stops serving and leaves every container as it is (the
// next server adopts them). There is one per state directory.
import { mkdirSync, rmSync } from 'node:fs';
import type { EngineSettings } from '../engine/api.js';
import { Engine } from '../engine/engine.js';
import type { RuntimeService } from '../runtime/cri.js';
import { acquireLock } from './lock.js';
import { loadOrCreateCredentials, writeKubeconfig } from './credentials.js';
import { LabServer } from './server.js';
import { endpointFile, readEndpoint, writeEndpoint, type Endpoint } from './endpoint.js';

export interface ServeOptions {
  stateDir: string;
  settings: Partial<EngineSettings>;
  runtime: RuntimeService;
  /** Port to listen on; by default the port of the previous run (so kubeconfigs keep working), else any. */
  port?: number;
  version: string;
  log: (line: string) => void;
}

export interface RunningServer {
  server: LabServer;
  engine: Engine;
  endpoint: Endpoint;
  /** Stops serving and the engine (containers stay), removes the endpoint file, releases the lock. */
  stop(): Promise<void>;
}

/** Starts a lab server; throws a LockedError when one already runs for the state directory. */
export async function startLabServer(o: ServeOptions): Promise<RunningServer> {
  mkdirSync(o.stateDir, { recursive: true });
  const lock = await acquireLock(o.stateDir);
  let engine: Engine | undefined;
  try {
    const credentials = await loadOrCreateCredentials(o.stateDir);
    engine = await Engine.start({ runtime: o.runtime, settings: { ...o.settings, stateDir: o.stateDir }, log: o.log });
    const server = new LabServer({ engine, credentials, log: o.log });
    const previous = readEndpoint(o.stateDir)?.port;
    let port: number;
    try {
      port = await server.listen(o.port ?? previous ?? 0);
    } catch (e) {
      if (o.port !== undefined || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      port = await server.listen(0);
    }
    const kubeconfig = writeKubeconfig(o.stateDir, credentials, port);
    const s = engine.settings;
    const endpoint: Endpoint = {
      pid: process.pid,
      port,
      startedAt: server.startedAt,
      kubeconfig,
      version: o.version,
      settings: { sandboxImage: s.sandboxImage, backoffInitialMs: s.backoffInitialMs, backoffMaxMs: s.backoffMaxMs, stepMode: s.stepMode, nodes: engine.listNodes().map((n) => n.metadata?.name ?? '') },
    };
    writeEndpoint(o.stateDir, endpoint);
    const eng = engine;
    let stopping: Promise<void> | undefined;
    return {
      server,
      engine: eng,
      endpoint,
      stop: () =>
        (stopping ??= (async () => {
          await server.close().catch(() => undefined);
          await eng.close();
          if (readEndpoint(o.stateDir)?.pid === process.pid) rmSync(endpointFile(o.stateDir), { force: true });
          lock.release();
        })()),
    };
  } catch (e) {
    await engine?.close().catch(() => undefined);
    lock.release();
    throw e;
  }
}
