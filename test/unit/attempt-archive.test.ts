// The attempt archive's log tail (src/engine/kubelet/container-gc.ts): kept with the runtime's
// timestamps, read with or without them as `kubectl logs [--timestamps]` would print the lines.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { archivedLogs, withoutTimestamp, type ArchivedAttempt } from '../../src/engine/kubelet/container-gc.js';

const attempt = (logs: string[], timestamped?: boolean): ArchivedAttempt => ({
  id: 'c1',
  name: 'check',
  restartCount: 0,
  exitCode: 1,
  reason: 'Error',
  createdAt: 1,
  startedAt: 2,
  finishedAt: 3,
  logs,
  ...(timestamped !== undefined ? { timestamped } : {}),
});

const stamped = ['2026-11-23T10:00:00.123456789Z checking db', '2026-11-23T10:00:01.5+01:00 cannot reach db: connection refused', '2026-11-23T10:00:02Z '];

test('an archived log tail is read as kubectl logs prints it, with or without the runtime timestamps', () => {
  const cases: Record<string, string[]> = {
    'without timestamps': archivedLogs(attempt(stamped, true)),
    'with timestamps': archivedLogs(attempt(stamped, true), { timestamps: true }),
    'the last line, without': archivedLogs(attempt(stamped, true), { tail: 1 }),
    'an archive from before timestamps were kept, as it is either way': archivedLogs(attempt(['checking db 2026-11-23T10:00:00Z'], undefined), { timestamps: true }),
  };
  assert.deepEqual(cases, {
    'without timestamps': ['checking db', 'cannot reach db: connection refused', ''],
    'with timestamps': stamped,
    'the last line, without': [''],
    'an archive from before timestamps were kept, as it is either way': ['checking db 2026-11-23T10:00:00Z'],
  });
});

test('only a leading RFC 3339 timestamp is taken off a line', () => {
  assert.deepEqual(
    ['2026-11-23T10:00:00.1Z a b', 'a 2026-11-23T10:00:00Z b', 'no stamp here', '2026-11-23 10:00:00 not RFC 3339'].map(withoutTimestamp),
    ['a b', 'a 2026-11-23T10:00:00Z b', 'no stamp here', '2026-11-23 10:00:00 not RFC 3339'],
  );
});
