// The tag the API server's defaulting reads from an image (SetDefaults_Container through the
// kubelet's parsers.ParseImageName, over distribution's ParseNormalizedNamed): "latest" defaults
// imagePullPolicy to Always; a reference that does not parse has no tag (IfNotPresent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageTag } from '../../../src/validation/defaults.js';
import { defaultPullPolicy } from '../../../src/engine/kubelet/images.js';

const HEX64 = 'a'.repeat(64);
const cases: [string, string, string][] = [
  ['no tag', 'busybox', 'latest'],
  ['a tag', 'busybox:1.35', '1.35'],
  ['the tag latest', 'nginx:latest', 'latest'],
  ['a registry with a port and no tag', 'localhost:5000/tools', 'latest'],
  ['a registry with a port and a tag', 'registry.example.com:5000/team/app:v2', 'v2'],
  ['a digest only', `busybox@sha256:${HEX64}`, ''],
  ['the tag latest and a digest (the tag counts)', `busybox:latest@sha256:${HEX64}`, 'latest'],
  ['an upper-case domain is a domain', 'MyRegistry/app', 'latest'],
  ['an upper-case path does not parse', 'myregistry/MyApp', ''],
  ['an upper-case name does not parse', 'Busybox', ''],
  ['an empty tag does not parse', 'nginx:', ''],
  ['a tag with a character outside [\\w.-] does not parse', 'nginx:v1+2', ''],
  ['a 64-hex identifier is refused', HEX64, ''],
  ['a short digest does not parse', 'busybox@sha256:abc', ''],
  ['an unknown digest algorithm does not parse', `busybox@md5:${'a'.repeat(32)}`, ''],
  ['a leading separator in a path component does not parse', 'team/-app', ''],
];
for (const [name, image, want] of cases) {
  test(`${name}: ${image} → ${JSON.stringify(want)}, pull policy ${want === 'latest' ? 'Always' : 'IfNotPresent'}`, () => {
    assert.deepEqual([imageTag(image), defaultPullPolicy(image)], [want, want === 'latest' ? 'Always' : 'IfNotPresent']);
  });
}
