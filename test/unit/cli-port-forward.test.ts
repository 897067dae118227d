// podlab port-forward's decisions, as kubectl makes them: the pod's named and UDP ports
// (kubectl/pkg/cmd/portforward), the port and address grammar and the listen verdicts
// (client-go/tools/portforward), each case compared whole.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { listenErrorText, listenVerdict, parseAddresses, parsePorts, portsText, resolvePodPorts, type ListenAddress } from '../../src/cli/port-forward.js';

const pod: Pod = {
  metadata: { name: 'web' },
  spec: {
    initContainers: [{ name: 'setup', image: 'busybox', ports: [{ name: 'init-port', containerPort: 7000 }] }],
    containers: [
      { name: 'app', image: 'busybox', ports: [{ name: 'http', containerPort: 8080 }, { containerPort: 9090 }, { name: 'dns', containerPort: 53, protocol: 'UDP' }] },
      { name: 'side', image: 'busybox', ports: [{ name: 'both', containerPort: 5353, protocol: 'UDP' }, { name: 'both-tcp', containerPort: 5353, protocol: 'TCP' }] },
    ],
  },
};

describe("port-forward's port arguments against the pod (kubectl's named ports and UDP check)", () => {
  const cases: [string, string[], string[] | { error: string }][] = [
    ['a number stays as written', ['8080'], ['8080']],
    ['LOCAL:REMOTE and :REMOTE stay as written', ['18080:8080', ':9090'], ['18080:8080', ':9090']],
    ['a named REMOTE becomes its number, LOCAL kept', ['18080:http'], ['18080:8080']],
    ['a bare name is the remote port only (LOCAL is taken from it later)', ['http'], ['8080']],
    ['an empty REMOTE (the UDP check before finds the port without a name)', ['1:'], { error: 'remote port cannot be empty' }],
    ['a name the app containers do not declare', ['nope'], { error: "Pod 'web' does not have a named port 'nope'" }],
    ['an init container\'s port name is not looked up', ['init-port'], { error: "Pod 'web' does not have a named port 'init-port'" }],
    ['a port declared for UDP only, by number', ['53'], { error: 'UDP protocol is not supported for 53' }],
    ['a port declared for UDP only, by name', ['5300:dns'], { error: 'UDP protocol is not supported for dns' }],
    ['a port declared for UDP and TCP is forwarded', ['both'], ['5353']],
    ['three parts read as the first part twice, as kubectl splits them', ['1:2:3'], ['1']],
    ['the UDP check covers every argument before any is converted', ['http', '53'], { error: 'UDP protocol is not supported for 53' }],
  ];
  for (const [name, specs, want] of cases) test(name, () => assert.deepEqual(resolvePodPorts(specs, pod), want));
});

describe("port-forward's port grammar (client-go parsePorts)", () => {
  const cases: [string, string[], ReturnType<typeof parsePorts>][] = [
    ['one number is both ports', ['8080'], [{ local: 8080, remote: 8080 }]],
    ['LOCAL:REMOTE', ['18080:80'], [{ local: 18080, remote: 80 }]],
    [':REMOTE and 0:REMOTE pick a free port', [':80', '0:81'], [{ local: 0, remote: 80 }, { local: 0, remote: 81 }]],
    ['three parts', ['1:2:3'], { error: "invalid port format '1:2:3'" }],
    ['a local port that is not a number', ['x:80'], { error: 'error parsing local port \'x\': strconv.ParseUint: parsing "x": invalid syntax' }],
    ['a sign is not a port', ['+80'], { error: 'error parsing local port \'+80\': strconv.ParseUint: parsing "+80": invalid syntax' }],
    ['a remote port beyond 16 bits', ['80:70000'], { error: 'error parsing remote port \'70000\': strconv.ParseUint: parsing "70000": value out of range' }],
    ['remote port 0', ['80:0'], { error: 'remote port must be > 0' }],
  ];
  for (const [name, specs, want] of cases) test(name, () => assert.deepEqual(parsePorts(specs), want));
  test('the ports as Go prints them in "unable to listen on any of the requested ports"', () => assert.equal(portsText([{ local: 8080, remote: 80 }, { local: 0, remote: 90 }]), '[{8080 80} {0 90}]'));
});

describe("port-forward's --address (client-go parseAddresses)", () => {
  const cases: [string, string[], ReturnType<typeof parseAddresses>][] = [
    [
      'localhost is 127.0.0.1 and ::1, either enough',
      ['localhost'],
      [
        { address: '127.0.0.1', family: 4, failureMode: 'all' },
        { address: '::1', family: 6, failureMode: 'all' },
      ],
    ],
    [
      'IPs must each listen; sorted by their text; a repeat counts once',
      ['::1', '0.0.0.0', 'localhost', '0.0.0.0'],
      [
        { address: '0.0.0.0', family: 4, failureMode: 'any' },
        { address: '127.0.0.1', family: 4, failureMode: 'all' },
        { address: '::1', family: 6, failureMode: 'any' },
      ],
    ],
    ['a host name other than localhost', ['example.com'], { error: 'example.com is not a valid IP' }],
  ];
  for (const [name, list, want] of cases) test(name, () => assert.deepEqual(parseAddresses(list), want));
});

describe('port-forward listen failures, in the words of Go and client-go', () => {
  const v4: ListenAddress = { address: '127.0.0.1', family: 4, failureMode: 'all' };
  const v6: ListenAddress = { address: '::1', family: 6, failureMode: 'all' };
  const any: ListenAddress = { address: '0.0.0.0', family: 4, failureMode: 'any' };
  const inUse = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
  const e4 = listenErrorText(v4, 8080, inUse);
  const e6 = listenErrorText(v6, 8080, Object.assign(new Error('listen EADDRNOTAVAIL'), { code: 'EADDRNOTAVAIL' }));
  test('the listener errors', () =>
    assert.deepEqual([e4, e6], ['unable to create listener: Error listen tcp4 127.0.0.1:8080: bind: address already in use', 'unable to create listener: Error listen tcp6 [::1]:8080: bind: cannot assign requested address']));
  const cases: [string, { addr: ListenAddress; error?: string }[], string | undefined][] = [
    ['both localhost addresses listen', [{ addr: v4 }, { addr: v6 }], undefined],
    ['::1 fails but 127.0.0.1 listens: no message', [{ addr: v4 }, { addr: v6, error: e6 }], undefined],
    ['neither localhost address listens', [{ addr: v4, error: e4 }, { addr: v6, error: e6 }], `Listeners failed to create with the following errors: [${e4} ${e6}]`],
    ['an address given by IP fails while localhost listens', [{ addr: any, error: 'x' }, { addr: v4 }, { addr: v6 }], 'Listeners failed to create with the following errors: [x]'],
  ];
  for (const [name, results, want] of cases) test(name, () => assert.equal(listenVerdict(results), want));
});
