// `podlab`: a thin shell over the engine. This entry only dispatches (src/cli/program.ts, with
// commander): `validate` never loads the Docker or engine code, which lives in a separate bundle
// (dist/podlab-engine.js) loaded on demand.
import { runValidate } from './validate.js';
import { runCli } from './program.js';

declare const __PODLAB_BUNDLED__: boolean | undefined;
declare const __PODLAB_VERSION__: string | undefined;

/** package.json's version, defined by the build (scripts/build.mjs); `dev` from source. */
export const PODLAB_VERSION = typeof __PODLAB_VERSION__ !== 'undefined' ? __PODLAB_VERSION__ : 'dev';

type EngineCommands = typeof import('./engine-commands.js');

function loadEngineCommands(): EngineCommands {
  // Bundled: a separate file next to this one. From source (tsx): the TypeScript module.
  if (typeof __PODLAB_BUNDLED__ !== 'undefined' && __PODLAB_BUNDLED__) {
    return require('./podlab-engine.js') as EngineCommands;
  }
  // A computed specifier keeps esbuild from pulling the engine into this bundle.
  const fromSource = ['.', 'engine-commands.js'].join('/');
  return require(fromSource) as EngineCommands;
}

export async function main(argv: string[]): Promise<number> {
  return runCli(
    argv,
    { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
    {
      validate: (rest) => runValidate(rest, process.stdout, process.stderr),
      engine: (cmd, rest) => loadEngineCommands().runCommand(cmd, rest),
    },
    { version: PODLAB_VERSION },
  );
}

if (require.main === module) {
  // A reader that went away (`podlab run ... | head`, EPIPE) or a terminal that closed (EIO, after
  // SIGHUP) is not a crash: output stops, the command (and its --rm clean-up) goes on.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE' && e.code !== 'EIO') throw e;
    });
  }
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`podlab: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
