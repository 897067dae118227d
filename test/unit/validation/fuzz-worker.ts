// One share of the fuzz run, in its own process: `node --import tsx fuzz-worker.ts SEED COUNT` prints JSON.
import { runFuzz } from './fuzz-cases.js';

process.stdout.write(JSON.stringify(runFuzz(Number(process.argv[2]), Number(process.argv[3]))));
