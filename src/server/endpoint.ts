// The endpoint file a running lab server publishes (`<stateDir>/server/endpoint.json`): its pid,
// port, kubeconfig and settings. A leaf module: clients read it without loading the engine.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineSettings } from '../engine/api.js';

/** What a running server publishes about itself in `<stateDir>/server/endpoint.json`. */
export interface Endpoint {
  pid: number;
  port: number;
  /** epoch ms */
  startedAt: number;
  kubeconfig: string;
  version: string;
  /** The engine settings it runs with (a client asking for others is told). */
  settings: Pick<EngineSettings, 'sandboxImage' | 'backoffInitialMs' | 'backoffMaxMs' | 'stepMode'> & { nodes: string[] };
}

export const endpointFile = (stateDir: string) => join(stateDir, 'server', 'endpoint.json');

export function readEndpoint(stateDir: string): Endpoint | undefined {
  try {
    return JSON.parse(readFileSync(endpointFile(stateDir), 'utf8')) as Endpoint;
  } catch {
    return undefined;
  }
}

export function writeEndpoint(stateDir: string, e: Endpoint): void {
  const file = endpointFile(stateDir);
  mkdirSync(join(stateDir, 'server'), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(e, null, 2), { mode: 0o600 });
  renameSync(tmp, file);
}

