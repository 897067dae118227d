// One lab server per state directory: the lock is atomic and released by the kernel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { acquireLock, lockHeld, LockedError } from '../../../src/server/lock.js';

test('a second acquire of the same state directory fails with LockedError until the first is released', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'podlab-lock-'));
  try {
    assert.equal(await lockHeld(dir), false);
    const first = await acquireLock(dir);
    assert.equal(await lockHeld(dir), true);
    await assert.rejects(acquireLock(dir), (e: unknown) => e instanceof LockedError && e.message === `a lab server already runs for ${dir} (podlab status says where; podlab stop stops it)`);
    first.release();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(await lockHeld(dir), false);
    const again = await acquireLock(dir);
    again.release();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('of many acquires racing at once exactly one wins', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'podlab-lock-'));
  try {
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => acquireLock(dir)));
    const won = results.filter((r) => r.status === 'fulfilled');
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? 'won' : (r.reason as Error).name)).sort(),
      ['LockedError', 'LockedError', 'LockedError', 'LockedError', 'LockedError', 'LockedError', 'LockedError', 'won'],
    );
    for (const w of won) (w as PromiseFulfilledResult<{ release(): void }>).value.release();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a holder killed with SIGKILL leaves no stale lock', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'podlab-lock-'));
  const lockModule = join(__dirname, '..', '..', '..', 'src', 'server', 'lock.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(lockModule)}).then(async (m) => { await (m.acquireLock ?? m.default.acquireLock)(${JSON.stringify(dir)}); console.log('held'); setInterval(() => {}, 1000); })`], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
      child.once('exit', (code) => reject(new Error(`the lock holder exited early (${code})`)));
    });
    assert.equal(await lockHeld(dir), true);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    assert.equal(await lockHeld(dir), false);
    (await acquireLock(dir)).release();
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
