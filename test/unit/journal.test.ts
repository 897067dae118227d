// The store's journal: what a restarted lab server finds, and resourceVersions that only grow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/engine/store.js';
import { StoreJournal, EVENT_TTL_MS } from '../../src/engine/journal.js';
import { FakeClock } from '../../src/engine/clock.js';

const names = (store: Store) => ({
  Pod: store.list('Pod').map((p) => `${p.metadata?.name}@${p.metadata?.resourceVersion}`),
  Event: store.list('Event').map((e) => e.metadata?.name),
  Node: store.list('Node').map((n) => n.metadata?.name),
  Namespace: store.list('Namespace').map((n) => n.metadata?.name),
});

const tick = () => new Promise((r) => setImmediate(r));

test('a reopened store holds the objects as last written, deletions applied, and hands out larger resourceVersions', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'podlab-journal-'));
  try {
    const clock = new FakeClock(Date.parse('2026-11-23T01:00:00Z'));
    const a = new Store(clock);
    const ja = new StoreJournal(a, dir, clock.now());
    a.create('Namespace', { metadata: { name: 'default' } });
    a.create('Node', { metadata: { name: 'podlab-node' } });
    a.create('Pod', { metadata: { name: 'web', namespace: 'default' }, spec: { containers: [] } });
    a.create('Pod', { metadata: { name: 'gone', namespace: 'default' }, spec: { containers: [] } });
    a.update('Pod', 'default', 'web', (p) => void (p.status = { phase: 'Running' }));
    a.delete('Pod', 'default', 'gone');
    a.create('Event', { metadata: { name: 'web.1', namespace: 'default' }, involvedObject: {}, lastTimestamp: '2026-11-23T01:00:00Z' });
    await tick();
    const lastRv = Number(a.currentResourceVersion());
    ja.close();

    const b = new Store(clock);
    const jb = new StoreJournal(b, dir, clock.now());
    assert.deepEqual(names(b), { Pod: ['web@5'], Event: ['web.1'], Node: ['podlab-node'], Namespace: ['default'] });
    assert.equal(b.get('Pod', 'default', 'web')?.status?.phase, 'Running');
    assert.equal(lastRv, 7);
    assert.equal(b.create('Pod', { metadata: { name: 'next', namespace: 'default' }, spec: { containers: [] } }).metadata?.resourceVersion, '8');
    jb.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a torn last line is skipped and events past the TTL are dropped at load', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'podlab-journal-'));
  try {
    const clock = new FakeClock(Date.parse('2026-11-23T01:00:00Z'));
    const a = new Store(clock);
    const ja = new StoreJournal(a, dir, clock.now());
    a.create('Event', { metadata: { name: 'old', namespace: 'default' }, involvedObject: {}, lastTimestamp: '2026-11-23T01:00:00Z' });
    a.create('Event', { metadata: { name: 'new', namespace: 'default' }, involvedObject: {}, lastTimestamp: new Date(clock.now() + EVENT_TTL_MS - 1000).toISOString() });
    await tick();
    ja.close();
    appendFileSync(join(dir, 'journal.jsonl'), '{"t":"put","k":"Pod","o":{"metadata":{"na');
    const b = new Store(clock);
    new StoreJournal(b, dir, clock.now() + EVENT_TTL_MS).close();
    assert.deepEqual(names(b), { Pod: [], Event: ['new'], Node: [], Namespace: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a running lab drops events an hour after their last occurrence, as the API server\'s event TTL does, with a DELETED watch event', async () => {
  const { fakeLab } = await import('../support/fake-engine.js');
  const lab = await fakeLab();
  try {
    const t0 = lab.clock.now();
    lab.engine.store.create('Event', { metadata: { name: 'old.1', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'x' }, reason: 'Started', lastTimestamp: new Date(t0).toISOString() });
    lab.engine.store.create('Event', { metadata: { name: 'new.1', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'x' }, reason: 'Started', lastTimestamp: new Date(t0 + 30 * 60_000).toISOString() });
    const deleted: string[] = [];
    lab.engine.watch((e) => e.kind === 'Event' && e.type === 'DELETED' && deleted.push(e.object.metadata?.name ?? ''));
    await lab.clock.advanceAsync(EVENT_TTL_MS + 2 * 60_000);
    assert.deepEqual({ deleted, left: lab.engine.store.list('Event').map((e) => e.metadata?.name) }, { deleted: ['old.1'], left: ['new.1'] });
  } finally {
    await lab.close();
  }
});
