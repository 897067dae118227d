// podlab run of a file whose pod already runs: re-attach when the running pod is the file's, else
// say what differs (src/cli/reattach.ts), each case compared whole.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { runningPodDifference, runningPodHint } from '../../src/cli/reattach.js';

const pod = (spec: Pod['spec']): Pod => ({ metadata: { name: 'web' }, spec });
const app = { name: 'app', image: 'busybox:1.35', command: ['sh', '-c', 'echo hi'] };

describe('whether podlab run re-attaches to a running pod of the same name', () => {
  const running = pod({ initContainers: [{ name: 'setup', image: 'busybox:1.35' }], containers: [app], restartPolicy: 'Always', nodeName: 'podlab-node' });
  const cases: [string, Pod, string | undefined][] = [
    ['the same containers, images, commands and arguments: re-attach (defaults and the node do not count)', pod({ initContainers: [{ name: 'setup', image: 'busybox:1.35' }], containers: [app] }), undefined],
    ['another command', pod({ initContainers: [{ name: 'setup', image: 'busybox:1.35' }], containers: [{ ...app, command: ['sh', '-c', 'echo hello'] }] }), 'container "app" has another command in the file'],
    ['arguments added', pod({ initContainers: [{ name: 'setup', image: 'busybox:1.35' }], containers: [{ ...app, args: ['x'] }] }), 'container "app" has other arguments in the file'],
    ['another image of an init container', pod({ initContainers: [{ name: 'setup', image: 'busybox:1.36' }], containers: [app] }), 'container "setup" has another image in the file'],
    ['an init container fewer', pod({ containers: [app] }), "its init containers are setup, the file's none"],
    ['a container more', pod({ initContainers: [{ name: 'setup', image: 'busybox:1.35' }], containers: [app, { name: 'side', image: 'busybox:1.35' }] }), "its containers are app, the file's app, side"],
  ];
  for (const [name, file, want] of cases) test(name, () => assert.equal(runningPodDifference(running, file), want));
  test('the hint names the command that makes room, with the namespace when it is not default', () =>
    assert.deepEqual(
      [runningPodHint('default', 'web', 'x'), runningPodHint('lab', 'web', 'x')],
      ['podlab: pod "web" runs from another spec (x): delete it first (podlab delete web) to run the file\'s', 'podlab: pod "web" runs from another spec (x): delete it first (podlab delete web -n lab) to run the file\'s'],
    ));
});
