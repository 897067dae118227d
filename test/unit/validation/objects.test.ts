// ConfigMaps and Secrets as first-class documents: strict decoding (unknown fields, type errors,
// base64), the API server's defaulting and stringData merge, ValidateConfigMap / ValidateSecret with
// exact paths and wording, positions, and kubectl's refusal messages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { documentRefusal, invalidObjectMessage, validateText, type ValidatedDocument } from '../../../src/validation/index.js';
import { DNS_SUBDOMAIN } from './helpers.js';

const cm = (body: string, name = 'cfg') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${body}`;
const secret = (body: string, name = 's') => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\n${body}`;
type F = [severity: string, field: string, type: string, detail: string];
const findings = (text: string): F[] => validateText(text).problems.map((p) => [p.severity, p.field, p.type, p.detail]);
const err = (field: string, type: string, detail: string): F => ['error', field, type, detail];
const doc = (text: string): ValidatedDocument => validateText(text).documents[0]!;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

const CONFIG_KEY =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const SA_WARNING = 'Pod Lab does not fill service-account-token Secrets: the lab has no token controller to add a token';

describe('decoding a ConfigMap or a Secret', () => {
  const cases: [string, string, F[]][] = [
    ['an unknown top-level field of a ConfigMap is a strict decoding error', cm('spec: {}\n'), [err('spec', 'Unknown field', 'unknown field "spec"')]],
    [
      'a number as a ConfigMap data value is a type mismatch naming ConfigMap.data',
      cm('data:\n  port: 8080\n'),
      [err('data[port]', 'Type mismatch', 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string')],
    ],
    [
      'a list as ConfigMap data is a type mismatch of the whole map',
      cm('data:\n  - a\n'),
      [err('data', 'Type mismatch', 'json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string')],
    ],
    ['immutable as a string is a type mismatch', cm('immutable: "true"\n'), [err('immutable', 'Type mismatch', 'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool')]],
    [
      'a data key written twice is a duplicate field (and an unquoted y is a YAML 1.1 boolean)',
      cm('data:\n  a: x\n  a: y\n'),
      [err('data[a]', 'YAML syntax', 'duplicate field "data[a]"'), err('data[a]', 'Type mismatch', 'json: cannot unmarshal bool into Go struct field ConfigMap.data of type string')],
    ],
    ['a Secret data value that is not base64 fails decoding at its first bad byte', secret('data:\n  user: admin\n'), [err('data[user]', 'Type mismatch', 'illegal base64 data at input byte 4')]],
    ['ConfigMap binaryData is base64 too', cm('binaryData:\n  blob: "a b"\n'), [err('binaryData[blob]', 'Type mismatch', 'illegal base64 data at input byte 1')]],
    [
      'a number as a Secret data value is a type mismatch of []uint8',
      secret('data:\n  num: 12\n'),
      [err('data[num]', 'Type mismatch', 'json: cannot unmarshal number into Go struct field Secret.data of type []uint8')],
    ],
    [
      'a list as Secret data is a type mismatch of map[string][]uint8',
      secret('data:\n  - a\n'),
      [err('data', 'Type mismatch', 'json: cannot unmarshal array into Go struct field Secret.data of type map[string][]uint8')],
    ],
    ['a number as the Secret type names the Go type v1.SecretType', secret('type: 1\n'), [err('type', 'Type mismatch', 'json: cannot unmarshal number into Go struct field Secret.type of type v1.SecretType')]],
    [
      'a stringData value must be a string',
      secret('stringData:\n  num: 1\n'),
      [err('stringData[num]', 'Type mismatch', 'json: cannot unmarshal number into Go struct field Secret.stringData of type string')],
    ],
    [
      'a kind in the wrong case is no match, with the right spelling suggested',
      'apiVersion: v1\nkind: configmap\nmetadata:\n  name: c\n',
      [err('kind', 'Invalid value', '"configmap": no matches for kind "configmap" in version "v1" (did you mean "ConfigMap"?)')],
    ],
    [
      'a misspelt kind (a near miss of a v1 kind) is no match, with the nearest suggested',
      'apiVersion: v1\nkind: Pdo\nmetadata:\n  name: c\n',
      [err('kind', 'Invalid value', '"Pdo": no matches for kind "Pdo" in version "v1" (did you mean "Pod"?)')],
    ],
    ['a misspelt kind that Pod Lab does not run is no match either', 'apiVersion: v1\nkind: Servce\nmetadata:\n  name: c\n', [err('kind', 'Invalid value', '"Servce": no matches for kind "Servce" in version "v1" (did you mean "Service"?)')]],
    ['a v1 kind Pod Lab does not run is no error (it is skipped)', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: c\n', []],
    ['a kind far from every v1 kind gets no guess', 'apiVersion: v1\nkind: Widget\nmetadata:\n  name: c\n', []],
    [
      'a Secret in another API version is no match',
      'apiVersion: apps/v1\nkind: Secret\nmetadata:\n  name: c\n',
      [err('apiVersion', 'Invalid value', '"apps/v1": no matches for kind "Secret" in version "apps/v1"')],
    ],
    ['a Secret without apiVersion is refused before any request', 'kind: Secret\nmetadata:\n  name: c\n', [err('apiVersion', 'Required value', 'apiVersion not set')]],
  ];
  for (const [name, text, want] of cases) test(name, () => assert.deepEqual(findings(text), want));

  test('a document that fails decoding is runnable in kind but carries no object', () => {
    const d = doc(secret('data:\n  user: admin\n'));
    assert.deepEqual([d.kind, d.runnable, d.object, d.pod], ['Secret', true, undefined, undefined]);
  });
  test('a misspelt kind is not runnable', () => {
    const d = doc('apiVersion: v1\nkind: configmap\nmetadata:\n  name: c\n');
    assert.deepEqual([d.runnable, d.skipReason, d.object], [false, 'not a v1 ConfigMap', undefined]);
  });
});

describe('defaulting', () => {
  const cases: [string, string, unknown][] = [
    [
      'a ConfigMap is stored as written',
      cm('immutable: true\ndata:\n  a: "1"\nbinaryData:\n  b: AAE=\n'),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, immutable: true, data: { a: '1' }, binaryData: { b: 'AAE=' } },
    ],
    [
      'a Secret without type is Opaque; stringData is merged into data as base64, overriding an equal key, then dropped',
      secret(`data:\n  user: ${b64('admin')}\n  keep: ${b64('k')}\nstringData:\n  user: root\n  pass: "p@ss wörd"\n`),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { user: b64('root'), keep: b64('k'), pass: b64('p@ss wörd') }, type: 'Opaque' },
    ],
    [
      'a Secret with only stringData gets a data map',
      secret('type: kubernetes.io/basic-auth\nstringData:\n  username: admin\n'),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/basic-auth', data: { username: b64('admin') } },
    ],
    [
      'base64 data is kept in canonical form (line breaks dropped)',
      secret('data:\n  cert: |\n    YWRt\n    aW4=\n'),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { cert: b64('admin') }, type: 'Opaque' },
    ],
    ['an empty stringData is dropped', secret('stringData: {}\n'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque' }],
  ];
  for (const [name, text, want] of cases) {
    test(name, () => {
      const d = doc(text);
      assert.deepEqual(d.problems, []);
      assert.deepEqual([d.runnable, d.object, d.pod], [true, want, undefined]);
    });
  }
  test('an object with validation errors still carries its defaulted object (as a Pod does)', () => {
    const d = doc(secret('type: kubernetes.io/tls\n'));
    assert.deepEqual(d.object, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/tls' });
  });
});

const big = (n: number) => 'x'.repeat(n);

describe('ValidateConfigMap', () => {
  const cases: [string, string, F[]][] = [
    ['a ConfigMap with data, binaryData and immutable is valid', cm('immutable: true\ndata:\n  app.properties: a=1\n  KEY_NAME: v\nbinaryData:\n  blob: AAE=\n'), []],
    ['a ConfigMap without a name is refused', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    a: b\n', [err('metadata.name', 'Required value', 'name or generateName is required')]],
    ['the name must be a DNS subdomain', cm('', 'Web_Config'), [err('metadata.name', 'Invalid value', `"Web_Config": ${DNS_SUBDOMAIN}`)]],
    ['a data key with a space is not a config key', cm('data:\n  bad key: x\n'), [err('data[bad key]', 'Invalid value', `"bad key": ${CONFIG_KEY}`)]],
    ['a key ".." matches the regex but is refused', cm('data:\n  "..": x\n'), [err('data[..]', 'Invalid value', `"..": must not be '..'`)]],
    ['a key starting with ".." is refused', cm('data:\n  ..a: x\n'), [err('data[..a]', 'Invalid value', `"..a": must not start with '..'`)]],
    ['a key longer than 253 characters is refused', cm(`data:\n  ${'k'.repeat(254)}: x\n`), [err(`data[${'k'.repeat(254)}]`, 'Invalid value', `"${'k'.repeat(254)}": must be no more than 253 characters`)]],
    ['a binaryData key is checked too', cm('binaryData:\n  a/b: AA==\n'), [err('binaryData[a/b]', 'Invalid value', `"a/b": ${CONFIG_KEY}`)]],
    ['a key in both data and binaryData is refused on the data side', cm('data:\n  k: x\nbinaryData:\n  k: AA==\n'), [err('data[k]', 'Invalid value', '"k": duplicate of key present in binaryData')]],
    [
      'more than 1 MiB in data and binaryData together is too long, on the whole object (an empty path, which Go writes as [])',
      cm(`data:\n  a: ${big(524288)}\nbinaryData:\n  b: ${Buffer.alloc(524289).toString('base64')}\n`),
      [err('[]', 'Too long', 'may not be more than 1048576 bytes')],
    ],
    ['exactly 1 MiB is accepted', cm(`data:\n  a: ${big(1048576)}\n`), []],
  ];
  for (const [name, text, want] of cases) test(name, () => assert.deepEqual(findings(text), want));
});

describe('ValidateSecret', () => {
  const cases: [string, string, F[]][] = [
    ['an Opaque secret with data and stringData is valid', secret(`type: Opaque\nimmutable: true\ndata:\n  a: ${b64('1')}\nstringData:\n  b: "2"\n`), []],
    ['a type of its own is accepted', secret('type: example.com/widget\n'), []],
    ['a data key with a slash is not a config key', secret('data:\n  a/b: AA==\n'), [err('data[a/b]', 'Invalid value', `"a/b": ${CONFIG_KEY}`)]],
    ['a stringData key is checked as a data key after the merge', secret('stringData:\n  bad key: x\n'), [err('data[bad key]', 'Invalid value', `"bad key": ${CONFIG_KEY}`)]],
    ['more than 1 MiB of data is too long on data', secret(`stringData:\n  a: ${big(1048577)}\n`), [err('data', 'Too long', 'may not be more than 1048576 bytes')]],
    ['exactly 1 MiB of data is accepted', secret(`stringData:\n  a: ${big(1048576)}\n`), []],
    ['a TLS secret needs tls.crt and tls.key', secret('type: kubernetes.io/tls\n'), [err('data[tls.crt]', 'Required value', ''), err('data[tls.key]', 'Required value', '')]],
    [
      'a TLS secret with both keys is valid (even empty), with the warning the API server adds',
      secret('type: kubernetes.io/tls\nstringData:\n  tls.crt: ""\n  tls.key: ""\n'),
      [['warning', '', 'Invalid value', 'tls: failed to find any PEM data in certificate input']],
    ],
    ['a basic-auth secret needs a username or a password', secret('type: kubernetes.io/basic-auth\ndata: {}\n'), [err('data[username]', 'Required value', ''), err('data[password]', 'Required value', '')]],
    ['a basic-auth secret with only a password is valid', secret('type: kubernetes.io/basic-auth\nstringData:\n  password: x\n'), []],
    ['an ssh-auth secret needs ssh-privatekey', secret('type: kubernetes.io/ssh-auth\n'), [err('data[ssh-privatekey]', 'Required value', '')]],
    ['an ssh-auth secret with an empty ssh-privatekey is refused as well', secret('type: kubernetes.io/ssh-auth\nstringData:\n  ssh-privatekey: ""\n'), [err('data[ssh-privatekey]', 'Required value', '')]],
    ['a dockerconfigjson secret needs .dockerconfigjson', secret('type: kubernetes.io/dockerconfigjson\n'), [err('data[.dockerconfigjson]', 'Required value', '')]],
    [
      'a .dockerconfigjson that is not JSON is refused with Go\'s error, the contents redacted',
      secret("type: kubernetes.io/dockerconfigjson\nstringData:\n  .dockerconfigjson: \"{auths: {}}\"\n"),
      [err('data[.dockerconfigjson]', 'Invalid value', '"<secret contents redacted>": invalid character \'a\' looking for beginning of object key string')],
    ],
    [
      'a .dockerconfigjson holding a JSON array is refused',
      secret(`type: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: ${b64('[]')}\n`),
      [err('data[.dockerconfigjson]', 'Invalid value', '"<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}')],
    ],
    ['a well-formed .dockerconfigjson is valid', secret(`type: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: ${b64('{"auths":{}}')}\n`), []],
    [
      'a dockercfg secret checks .dockercfg the same way',
      secret('type: kubernetes.io/dockercfg\nstringData:\n  .dockercfg: ""\n'),
      [err('data[.dockercfg]', 'Invalid value', '"<secret contents redacted>": unexpected end of JSON input')],
    ],
    [
      'a service-account-token secret needs the service account name annotation (and the lab cannot fill it)',
      secret('type: kubernetes.io/service-account-token\n'),
      [err('metadata.annotations[kubernetes.io/service-account.name]', 'Required value', ''), ['warning', 'type', 'Lab warning', SA_WARNING]],
    ],
    [
      'with the annotation only the lab warning remains',
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: t\n  annotations:\n    kubernetes.io/service-account.name: default\ntype: kubernetes.io/service-account-token\n',
      [['warning', 'type', 'Lab warning', SA_WARNING]],
    ],
  ];
  for (const [name, text, want] of cases) test(name, () => assert.deepEqual(findings(text), want));
});

const where = (text: string) => validateText(text).problems.map((p) => [p.field, p.line, p.column, text.slice(p.offset, p.endOffset)]);

describe('positions', () => {
  test('a key error points at the key', () => assert.deepEqual(where(cm('data:\n  ok: x\n  bad key: x\n')), [['data[bad key]', 7, 3, 'bad key']]));
  test('a key error of a key only stringData wrote points at the stringData key', () => {
    assert.deepEqual(where(secret(`data:\n  a: ${b64('1')}\nstringData:\n  bad key: x\n`)), [['data[bad key]', 8, 3, 'bad key']]);
  });
  test('a base64 error points at the value', () => assert.deepEqual(where(secret('data:\n  user: admin\n')), [['data[user]', 6, 9, 'admin']]));
  test('a missing required key points at data, or at stringData when only it is written', () => {
    assert.deepEqual(where(secret(`type: kubernetes.io/tls\ndata:\n  tls.crt: ${b64('c')}\n`)), [['data[tls.key]', 6, 1, 'data']]);
    assert.deepEqual(where(secret('type: kubernetes.io/tls\nstringData:\n  tls.key: k\n')), [['data[tls.crt]', 6, 1, 'stringData']]);
  });
  test('a missing required key with neither data nor stringData points at type', () => {
    assert.deepEqual(where(secret('type: kubernetes.io/ssh-auth\n')), [['data[ssh-privatekey]', 5, 1, 'type']]);
  });
  test('an empty required key points at the key', () => {
    assert.deepEqual(where(secret('type: kubernetes.io/ssh-auth\nstringData:\n  ssh-privatekey: ""\n')), [['data[ssh-privatekey]', 7, 3, 'ssh-privatekey']]);
  });
  test('an invalid .dockerconfigjson points at its value', () => {
    assert.deepEqual(where(secret('type: kubernetes.io/dockerconfigjson\nstringData:\n  .dockerconfigjson: "[]"\n')), [['data[.dockerconfigjson]', 7, 22, '"[]"']]);
  });
  test('the ConfigMap size error (empty path) points at data', () => {
    assert.deepEqual(where(cm(`data:\n  a: ${big(1048577)}\n`)), [['[]', 5, 1, 'data']]);
  });
  test('the ConfigMap duplicate key points at the data key', () => {
    assert.deepEqual(where(cm('binaryData:\n  k: AA==\ndata:\n  k: x\n')), [['data[k]', 8, 3, 'k']]);
  });
});

describe("kubectl's refusal of a ConfigMap or Secret", () => {
  const refusal = (text: string, file?: string) => documentRefusal(doc(text), file);
  test('one field error is shown inline with the kind', () => {
    assert.equal(refusal(cm('data:\n  bad key: x\n')), `The ConfigMap "cfg" is invalid: data[bad key]: Invalid value: "bad key": ${CONFIG_KEY}`);
  });
  test('several are listed', () => {
    assert.equal(refusal(secret('type: kubernetes.io/tls\n')), 'The Secret "s" is invalid: \n* data[tls.crt]: Required value\n* data[tls.key]: Required value');
  });
  test('an error on the whole ConfigMap keeps the empty field before the colon', () => {
    assert.equal(refusal(cm(`data:\n  a: ${big(1048577)}\n`)), 'The ConfigMap "cfg" is invalid: []: Too long: may not be more than 1048576 bytes');
  });
  test('bad base64 is a 400 decoding error', () => {
    assert.equal(
      refusal(secret('data:\n  user: admin\n'), 's.yaml'),
      'Error from server (BadRequest): error when creating "s.yaml": Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 4',
    );
  });
  test('unknown fields are a strict decoding error naming the kind', () => {
    assert.equal(
      refusal(cm('date:\n  a: b\n')),
      'Error from server (BadRequest): ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "date"',
    );
  });
  test('a document with warnings only is not refused', () => {
    const text = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: t\n  annotations:\n    kubernetes.io/service-account.name: default\ntype: kubernetes.io/service-account-token\n';
    assert.deepEqual([doc(text).problems.length, refusal(text)], [1, undefined]);
  });
  test('invalidObjectMessage builds the same text from problems', () => {
    const d = doc(cm('data:\n  bad key: x\n'));
    assert.equal(invalidObjectMessage('ConfigMap', 'cfg', d.problems), documentRefusal(d));
  });
});

// a self-signed P-256 certificate, its key, another P-256 key and an Ed25519 key (test fixtures)
const CERT = `-----BEGIN CERTIFICATE-----
MIIBdDCCARmgAwIBAgIUa3TiHuOqGZV33IjvvCkduKA3jaIwCgYIKoZIzj0EAwIw
DjEMMAoGA1UEAwwDbGFiMCAXDTI2MTEyMjIyNTQzM1oYDzIxMjYxMDI5MjI1NDMz
WjAOMQwwCgYDVQQDDANsYWIwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATx1FkU
N0PNtO7Qi5VHxJy+j1DErAWlHL4XHhZpOMbF+T1fvc4jkA9bcf28e0KSu4G43eH4
D1EeSebflk+IxvKvo1MwUTAdBgNVHQ4EFgQUReOT+TnbPycIY8hvypeGfMnKbvAw
HwYDVR0jBBgwFoAUReOT+TnbPycIY8hvypeGfMnKbvAwDwYDVR0TAQH/BAUwAwEB
/zAKBggqhkjOPQQDAgNJADBGAiEAmGcB2St/sNvQSSAqKeTMWpUit7MaeX96BLLB
vLqtFHwCIQDDqw9Lf4d4TPMHoi6BWPiNxA2iW80Ggtv+Y9JvDA/RYg==
-----END CERTIFICATE-----
`;
const KEY = `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIBu/r4m3qdFYa+4l0hJELCnccfAh2wojI7mriPeeM6G9oAoGCCqGSM49
AwEHoUQDQgAE8dRZFDdDzbTu0IuVR8Scvo9QxKwFpRy+Fx4WaTjGxfk9X73OI5AP
W3H9vHtCkruBuN3h+A9RHknm35ZPiMbyrw==
-----END EC PRIVATE KEY-----
`;
const OTHER_KEY = `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIO37kE48HsXLwcf84TPcEOri3Hu0tGHC4XxP0DA/+EVcoAoGCCqGSM49
AwEHoUQDQgAEDrsO1Ekk0sNe4C6lQV2iUe6DJXzmFI4ZuBVYQlpyP4cvmEV9pi9h
Ox2uwM01JMyi1WPejA/ozkXKGOZjD/1j7Q==
-----END EC PRIVATE KEY-----
`;
const ED_KEY = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIOdrcwb7d86bGT0qBppazLEldn6PXlEhdwERKdafGGw/
-----END PRIVATE KEY-----
`;

describe("the API server's warning for a TLS secret (tls.X509KeyPair)", () => {
  const tls = (crt: string, key: string) => secret(`type: kubernetes.io/tls\ndata:\n  tls.crt: ${b64(crt)}\n  tls.key: ${b64(key)}\n`);
  const cases: [string, string, string, string | undefined][] = [
    ['a certificate and its own key make a pair: no warning', CERT, KEY, undefined],
    ['text that is not PEM', 'not a certificate', KEY, 'tls: failed to find any PEM data in certificate input'],
    ['the key where the certificate belongs', KEY, CERT, 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched'],
    ['other PEM blocks only', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n', KEY, 'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [PUBLIC KEY]'],
    ['no key at all', CERT, '', 'tls: failed to find any PEM data in key input'],
    ['the certificate where the key belongs', CERT, CERT, 'tls: found a certificate rather than a key in the PEM for the private key'],
    ['another key of the same type', CERT, OTHER_KEY, 'tls: private key does not match public key'],
    ['a key of another type', CERT, ED_KEY, 'tls: private key type does not match public key type'],
    ['a PRIVATE KEY block that holds no key', CERT, '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', 'tls: failed to parse private key'],
  ];
  for (const [name, crt, key, want] of cases) {
    test(name, () => assert.deepEqual(findings(tls(crt, key)), want ? [['warning', '', 'Invalid value', want]] : []));
  }
  test('the warning is shown without a field, as kubectl prints it, at the key it is about', () => {
    const text = secret(`type: kubernetes.io/tls\nstringData:\n  tls.crt: x\n  tls.key: k\n`);
    assert.deepEqual(
      validateText(text).problems.map((p) => [p.message, text.slice(p.offset, p.endOffset)]),
      [['tls: failed to find any PEM data in certificate input', 'tls.crt']],
    );
  });
  test('a TLS secret that fails decoding gets no warning', () => {
    assert.deepEqual(findings(secret('type: kubernetes.io/tls\nstringData:\n  tls.crt: x\n  tls.key: yes\n')), [
      err('stringData[tls.key]', 'Type mismatch', 'json: cannot unmarshal bool into Go struct field Secret.stringData of type string'),
    ]);
  });
  test('a TLS secret that fails validation gets no warning (the API server stops before)', () => {
    assert.deepEqual(findings(secret('type: kubernetes.io/tls\nstringData:\n  tls.crt: x\n')), [err('data[tls.key]', 'Required value', '')]);
  });
});
