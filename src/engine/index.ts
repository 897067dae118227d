// Entry point for shells (the VS Code extension): connect to Docker and start an active engine
// that adopts every pod of its lab nobody else owns.
import type { EngineApi, EngineSettings } from './api.js';
import { Engine } from './engine.js';
import { connectDocker } from '../runtime/docker/docker-runtime.js';

export interface StartEngineOptions {
  settings?: Partial<EngineSettings>;
  docker?: { socketPath?: string; host?: string };
  log?: (line: string) => void;
}

/** Throws an Error with one clear message when Docker is down. */
export async function startEngine(opts: StartEngineOptions = {}): Promise<EngineApi & Engine> {
  const runtime = await connectDocker(opts.docker ?? {});
  try {
    return await Engine.start({ runtime, settings: opts.settings, log: opts.log });
  } catch (e) {
    runtime.close();
    throw e;
  }
}

export { Engine, defaultSettings, defaultStateDir } from './engine.js';
export type { EngineApi, EngineSettings, PodDebugInfo, WatchEvent } from './api.js';
