// Where a lab keeps its state (a leaf module: the shells and the server agree on it without
// loading the engine): $PODLAB_STATE_DIR, else $XDG_STATE_HOME/podlab, else ~/.local/state/podlab.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultStateDir(): string {
  if (process.env.PODLAB_STATE_DIR) return process.env.PODLAB_STATE_DIR;
  const base = process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'podlab');
}
