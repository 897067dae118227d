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
