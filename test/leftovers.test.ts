// Runs last in `npm test`: every suite must have removed the containers it made.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';

test('no lab container made by the test suites is left in Docker', () => {
  const out = execFileSync('docker', ['ps', '-a', '--filter', 'label=io.podlab.managed=true', '--format', '{{.Names}}\t{{.Label "io.podlab.lab"}}\t{{.Label "io.podlab.test-run"}}'], { encoding: 'utf8' });
  const fromTests = out
    .split('\n')
    .filter(Boolean)
    .filter((line) => {
      const [, lab, run] = line.split('\t');
      return !!run || (lab ?? '').startsWith(tmpdir()) || (!!process.env.PODLAB_STATE_DIR && lab === process.env.PODLAB_STATE_DIR);
    });
  assert.deepEqual(fromTests, []);
});

test('no lab server started by the test suites is left running', () => {
  // A lab server is `podlab serve` (dist/cli.js or src/cli/main.ts); its state directory is in its environment.
  const { readdirSync, readFileSync } = require('node:fs') as typeof import('node:fs');
  const left: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let cmd = '';
    let environ = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue;
    }
    if (!/(cli\.js|main\.ts) serve\b/.test(cmd)) continue;
    const dir = /(?:^|\0)PODLAB_STATE_DIR=([^\0]*)/.exec(environ)?.[1] ?? '';
    if (dir.startsWith(tmpdir())) left.push(`${pid}: ${cmd.trim()} (${dir})`);
  }
  assert.deepEqual(left, []);
});
