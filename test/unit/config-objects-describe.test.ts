// `kubectl describe configmap|secret` as Pod Lab prints it: exact text (describe-config.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigMap, Event, Secret } from 'kubernetes-types/core/v1';
import { base64ByteLength, describeConfigMap, describeSecret } from '../../src/engine/describe-config.js';

const T0 = Date.UTC(2024, 0, 1, 10, 0, 0);
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('describeConfigMap prints kubectl describe configmap', () => {
  const cases: [string, ConfigMap, Event[], string][] = [
    [
      'data values in key order with their separators, binary data as sizes, no events',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'web-config', namespace: 'default', labels: { tier: 'web', app: 'demo' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', note: 'hi' } },
        data: { 'index.html': '<h1>Hello</h1>\n', STYLE: 'shout' },
        binaryData: { logo: b64('\x00\x01\x02\x03\x04') },
      },
      [],
      [
        'Name:         web-config',
        'Namespace:    default',
        'Labels:       app=demo',
        '              tier=web',
        'Annotations:  note: hi',
        '',
        'Data',
        '====',
        'STYLE:',
        '----',
        'shout',
        '',
        'index.html:',
        '----',
        '<h1>Hello</h1>',
        '',
        '',
        '',
        'BinaryData',
        '====',
        'logo: 5 bytes',
        '',
        'Events:  <none>',
        '',
      ].join('\n'),
    ],
    [
      'an empty ConfigMap still has both sections; terminal escapes in values are neutralised',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'e', namespace: 'dev' } },
      [],
      ['Name:         e', 'Namespace:    dev', 'Labels:       <none>', 'Annotations:  <none>', '', 'Data', '====', '', 'BinaryData', '====', '', 'Events:  <none>', ''].join('\n'),
    ],
    [
      'escape and carriage-return characters are shown as ^[ and \\r',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' }, data: { k: 'a\x1b[31mred\r' } },
      [],
      ['Name:         x', 'Namespace:    default', 'Labels:       <none>', 'Annotations:  <none>', '', 'Data', '====', 'k:', '----', 'a^[[31mred\\r', '', '', 'BinaryData', '====', '', 'Events:  <none>', ''].join('\n'),
    ],
    [
      'events about the ConfigMap are listed like kubectl\'s DescribeEvents',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } },
      [
        {
          metadata: { name: 'x.1' },
          involvedObject: { kind: 'ConfigMap', name: 'x' },
          type: 'Warning',
          reason: 'Odd',
          message: 'something',
          source: { component: 'podlab' },
          firstTimestamp: new Date(T0 - 30_000).toISOString(),
          lastTimestamp: new Date(T0 - 30_000).toISOString(),
          count: 1,
        },
      ],
      [
        'Name:         x',
        'Namespace:    default',
        'Labels:       <none>',
        'Annotations:  <none>',
        '',
        'Data',
        '====',
        '',
        'BinaryData',
        '====',
        '',
        'Events:',
        '  Type     Reason  Age   From    Message',
        '  ----     ------  ----  ----    -------',
        '  Warning  Odd     30s   podlab  something',
        '',
      ].join('\n'),
    ],
  ];
  for (const [name, cm, events, want] of cases) test(name, () => assert.equal(describeConfigMap(cm, events, T0), want));
});

describe('describeSecret prints kubectl describe secret, never the values', () => {
  const cases: [string, Secret, string][] = [
    [
      'type, then each key with its size in bytes, in key order',
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'web-secret', namespace: 'default' }, type: 'Opaque', data: { username: b64('admin'), greeting: b64('hello, learner'), 'a.key': b64('') } },
      [
        'Name:         web-secret',
        'Namespace:    default',
        'Labels:       <none>',
        'Annotations:  <none>',
        '',
        'Type:  Opaque',
        '',
        'Data',
        '====',
        'a.key:     0 bytes',
        'greeting:  14 bytes',
        'username:  5 bytes',
        '',
      ].join('\n'),
    ],
    [
      'a service-account token is the one value shown',
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sa', namespace: 'default', annotations: { 'kubernetes.io/service-account.name': 'default' } }, type: 'kubernetes.io/service-account-token', data: { token: b64('eyJabc'), 'ca.crt': b64('CERT') } },
      [
        'Name:         sa',
        'Namespace:    default',
        'Labels:       <none>',
        'Annotations:  kubernetes.io/service-account.name: default',
        '',
        'Type:  kubernetes.io/service-account-token',
        '',
        'Data',
        '====',
        'ca.crt:  4 bytes',
        'token:   eyJabc',
        '',
      ].join('\n'),
    ],
    [
      'no data: an empty Data section',
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'e', namespace: 'default' }, type: 'Opaque' },
      ['Name:         e', 'Namespace:    default', 'Labels:       <none>', 'Annotations:  <none>', '', 'Type:  Opaque', '', 'Data', '====', ''].join('\n'),
    ],
  ];
  for (const [name, s, want] of cases) test(name, () => assert.equal(describeSecret(s), want));
});

describe('base64ByteLength counts decoded bytes', () => {
  const cases: [string, string, number][] = [
    ['empty', '', 0],
    ['two padding characters', b64('a'), 1],
    ['one padding character', b64('ab'), 2],
    ['no padding', b64('abc'), 3],
    ['line breaks are ignored', `${b64('hello, learner').slice(0, 8)}\n${b64('hello, learner').slice(8)}`, 14],
  ];
  for (const [name, v, want] of cases) test(name, () => assert.equal(base64ByteLength(v), want));
});

describe("annotations in kubectl describe's bytes (kubectl 1.33 printed these against the lab)", () => {
  // Go's len counts bytes: 70 × é is 140 bytes, so with its key it passes 140 and goes below the key,
  // cut at 138 bytes (69 × é); a cut inside a character shows as U+FFFD where kubectl writes the
  // partial bytes; a 136-byte ASCII value with a 6-byte key (144) goes below too, whole.
  const cm = (annotations: Record<string, string>): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'annlen', namespace: 'default', annotations }, data: { x: 'y' } });
  const head = (c: ConfigMap) => describeConfigMap(c, [], 0).split('\nData\n')[0];
  test('values measured and cut in bytes', () =>
    assert.equal(
      head(cm({ e70: 'é'.repeat(70), cut: `${'a'.repeat(137)}é${'b'.repeat(10)}`, len136: 'x'.repeat(136), short: 'é'.repeat(10) })),
      `Name:         annlen
Namespace:    default
Labels:       <none>
Annotations:  cut:
                ${'a'.repeat(137)}\ufffd...
              e70:
                ${'é'.repeat(69)}...
              len136:
                ${'x'.repeat(136)}
              short: ${'é'.repeat(10)}
`,
    ));
});
