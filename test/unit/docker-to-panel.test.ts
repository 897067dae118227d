// The e2e suite's Docker-event → panel matching (test/support/docker-to-panel.ts).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { dockerToPanel, parseDockerEvent, parsePanelLines, type PanelLine, type RuntimeEvent } from '../support/docker-to-panel.js';

describe('docker events of lab containers', () => {
  const line = (name: string, action = 'start') =>
    `{"status":"${action}","id":"80","Type":"container","Action":"${action}","Actor":{"ID":"80","Attributes":{"name":"${name}"}},"scope":"local","time":1795431337,"timeNano":1795431337343761252}`;
  const cases: [string, string, RuntimeEvent | undefined][] = [
    ['an app container start keeps the nanoseconds beyond a double', line('k8s_app_web_default_uid-1_2'), { at: 1795431337343.761252, pod: 'default/web', container: 'app', attempt: 2, action: 'start' }],
    ['a die is a die', line('k8s_app_web_default_uid-1_0', 'die'), { at: 1795431337343.761252, pod: 'default/web', container: 'app', attempt: 0, action: 'die' }],
    ['the sandbox is no container of the panel', line('k8s_POD_web_default_uid-1_0'), undefined],
    ['another container of the daemon is left out', line('festive_babbage'), undefined],
    ['other actions are left out', line('k8s_app_web_default_uid-1_0', 'create'), undefined],
    ['a line that is no JSON is left out', 'oops', undefined],
  ];
  for (const [name, text, want] of cases) test(name, () => assert.deepEqual(parseDockerEvent(text), want));
});

describe('panel update lines of the output channel', () => {
  test('a sample line (painted, or shown by an older webview), a line not caused by an engine event, and other lines left out', () => {
    const log = [
      '2026-11-23 04:51:45.300 [info] lifecycle default/web: update #2 [header] painted 40.2 ms after the engine event (acknowledged after 70.0 ms, 3.1 ms in the extension host, 12.5 ms in the webview, painted at 1795431337343.2); containers: server waiting#0',
      '2026-11-23 04:51:45.420 [info] lifecycle default/web: update #3 [events, timeline] shown 97.4 ms after the engine event (3.1 ms in the extension host, 12.5 ms in the webview); containers: server running#0, probe-client waiting#1',
      '2026-11-23 04:51:45.500 [info] lifecycle default/web: update #4 [header, containers] shown (not caused by an engine event); containers: none',
      '2026-11-23 04:51:45.600 [info] activated in 7 ms',
    ].join('\n');
    const at = (ms: number) => new Date(2026, 10, 23, 4, 51, 45, ms).getTime();
    assert.deepEqual(parsePanelLines(log), [
      { at: 1795431337343.2, pod: 'default/web', seq: 2, sample: true, afterEngineMs: 40.2, containers: new Map([['server', 'waiting#0']]) },
      { at: at(420), pod: 'default/web', seq: 3, sample: true, afterEngineMs: 97.4, containers: new Map([['server', 'running#0'], ['probe-client', 'waiting#1']]) },
      { at: at(500), pod: 'default/web', seq: 4, sample: false, containers: new Map() },
    ]);
  });
});

describe('matching runtime events with the first update that shows them', () => {
  const ev = (at: number, action: 'start' | 'die', attempt = 0, container = 'app'): RuntimeEvent => ({ at, pod: 'default/web', container, attempt, action });
  // Each sample line was painted 30 ms after the engine event reached the extension host.
  const ln = (at: number, seq: number, state: string, sample = true, pod = 'default/web'): PanelLine => ({ at, pod, seq, sample, ...(sample ? { afterEngineMs: 30 } : {}), containers: new Map([['app', state]]) });
  const cases: [string, RuntimeEvent[], PanelLine[], { ms: number[]; updates: number[]; toEngine: number[]; unmatched: number }][] = [
    ['a start is measured to the first update showing the container running', [ev(1000, 'start')], [ln(900, 1, 'waiting#0'), ln(1030, 2, 'waiting#0'), ln(1045, 3, 'running#0')], { ms: [45], updates: [45], toEngine: [15], unmatched: 0 }],
    ['a restart needs the new instance running, not the old one', [ev(1000, 'start', 1)], [ln(900, 1, 'running#0'), ln(1020, 2, 'terminated#0'), ln(1070, 3, 'running#1')], { ms: [70], updates: [70], toEngine: [40], unmatched: 0 }],
    ['a die is measured to the first update where that instance no longer runs', [ev(1000, 'die', 0)], [ln(900, 1, 'running#0'), ln(1060, 2, 'terminated#0')], { ms: [60], updates: [60], toEngine: [30], unmatched: 0 }],
    ['an event before the panel showed the pod is left out', [ev(1000, 'start')], [ln(1500, 1, 'running#0')], { ms: [], updates: [], toEngine: [], unmatched: 1 }],
    ['an event the panel already showed is left out', [ev(1000, 'start')], [ln(990, 1, 'running#0'), ln(1100, 2, 'running#0')], { ms: [], updates: [], toEngine: [], unmatched: 1 }],
    ['a snapshot before the change shows it is no sample', [ev(1000, 'start')], [ln(900, 1, 'waiting#0'), ln(1300, 2, 'running#0', false), ln(1400, 3, 'running#0')], { ms: [], updates: [], toEngine: [], unmatched: 1 }],
    ['another pod\'s lines do not count', [ev(1000, 'start')], [ln(900, 1, 'waiting#0'), ln(1010, 1, 'running#0', true, 'default/other'), ln(1080, 2, 'running#0')], { ms: [80], updates: [80], toEngine: [50], unmatched: 0 }],
    ['a container that started and died between two updates: both events are shown by the update with it terminated', [ev(1000, 'start'), ev(1030, 'die')], [ln(900, 1, 'waiting#0'), ln(1090, 2, 'terminated#0')], { ms: [90, 60], updates: [60], toEngine: [30], unmatched: 0 }],
    ['a crash-looping init container: the next attempt waiting shows the last one died', [ev(1000, 'die', 1)], [ln(900, 1, 'running#1'), ln(1050, 2, 'waiting#2')], { ms: [50], updates: [50], toEngine: [20], unmatched: 0 }],
    [
      'an instance that started and died between two updates is shown by the back-off after it (the restart count stays its attempt)',
      [ev(1000, 'start', 1), ev(1050, 'die', 1)],
      [ln(900, 1, 'terminated#0'), ln(1100, 2, 'terminated#0'), ln(1160, 3, 'waiting:CrashLoopBackOff#1'), ln(3000, 4, 'terminated#2')],
      { ms: [160, 110], updates: [110], toEngine: [80], unmatched: 0 },
    ],
    ['an instance waiting for another reason has not run yet', [ev(1000, 'start', 1)], [ln(900, 1, 'terminated#0'), ln(1040, 2, 'waiting:PodInitializing#1'), ln(1090, 3, 'running#1')], { ms: [90], updates: [90], toEngine: [60], unmatched: 0 }],
    ['a start the panel shows only once an earlier instance is seen is not matched by an older instance', [ev(1000, 'start', 2)], [ln(900, 1, 'waiting#1'), ln(1040, 2, 'terminated#1')], { ms: [], updates: [], toEngine: [], unmatched: 1 }],
    [
      'two containers started in one sync: each event measured, the update from the later one',
      [ev(1000, 'start', 0, 'a'), ev(1200, 'start', 0, 'b')],
      [
        { at: 900, pod: 'default/web', seq: 1, sample: true, afterEngineMs: 30, containers: new Map([['a', 'waiting#0'], ['b', 'waiting#0']]) },
        { at: 1290, pod: 'default/web', seq: 2, sample: true, afterEngineMs: 30, containers: new Map([['a', 'running#0'], ['b', 'running#0']]) },
      ],
      { ms: [290, 90], updates: [90], toEngine: [60], unmatched: 0 },
    ],
  ];
  test('an update from a webview that gave no engine time adds no share', () =>
    assert.deepEqual(dockerToPanel([ev(1000, 'start')], [ln(900, 1, 'waiting#0'), { at: 1045, pod: 'default/web', seq: 2, sample: true, containers: new Map([['app', 'running#0']]) }]), { ms: [45], updates: [45], toEngine: [], unmatched: 0 }));
  for (const [name, events, lines, want] of cases) test(name, () => assert.deepEqual(dockerToPanel(events, lines), want));
});
