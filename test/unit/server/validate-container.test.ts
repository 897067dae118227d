// The API server's validateContainer, which logs, exec and attach share: a named container must be
// one of the pod's (init, regular or ephemeral); without a name, the pod's only container, else a
// 400 that names the choices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { validateContainer } from '../../../src/server/server.js';

const pod = (containers: string[], init: string[] = [], ephemeral: string[] = []): Pod => ({
  metadata: { name: 'web' },
  spec: {
    containers: containers.map((name) => ({ name, image: 'busybox:1.35' })),
    ...(init.length ? { initContainers: init.map((name) => ({ name, image: 'busybox:1.35' })) } : {}),
    ...(ephemeral.length ? { ephemeralContainers: ephemeral.map((name) => ({ name, image: 'busybox:1.35' })) } : {}),
  },
});
const answer = (r: ReturnType<typeof validateContainer>) => (typeof r === 'string' ? r : `${r.code} ${r.body.reason}: ${r.body.message}`);

const cases: [string, Pod, string, string][] = [
  ['no name, one container: that one', pod(['app']), '', 'app'],
  ['no name, two containers: choose one of them', pod(['app', 'side']), '', '400 BadRequest: a container name must be specified for pod web, choose one of: [app side]'],
  ['no name, two containers and init containers: those too', pod(['app', 'side'], ['setup']), '', '400 BadRequest: a container name must be specified for pod web, choose one of: [app side] or one of the init containers: [setup]'],
  ['an init container by name', pod(['app'], ['setup']), 'setup', 'setup'],
  ['an ephemeral container by name', pod(['app'], [], ['debugger']), 'debugger', 'debugger'],
  ['a name the pod does not have', pod(['app']), 'nope', '400 BadRequest: container nope is not valid for pod web'],
];
for (const [name, p, container, want] of cases) test(name, () => assert.equal(answer(validateContainer(p, container)), want));
