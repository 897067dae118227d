// The lab server's credentials (CA, serving certificate, token), the bearer token check and the
// kubeconfig written and merged for kubectl.
import 'reflect-metadata';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as x509 from '@peculiar/x509';
import { parse as parseYaml } from 'yaml';
import {
  bearerToken,
  caProblem,
  labKubeconfig,
  loadOrCreateCredentials,
  mergeKubeconfig,
  servingCertProblem,
  tokenMatches,
  writeKubeconfig,
  type LabCredentials,
} from '../../../src/server/credentials.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-01-01T00:00:00Z');
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

let root: string;
let seq = 0;
const fresh = () => join(root, `s${++seq}`);
let A: LabCredentials;
let B: LabCredentials;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'podlab-credentials-'));
  A = await loadOrCreateCredentials(join(root, 'a'), NOW);
  B = await loadOrCreateCredentials(join(root, 'b'), NOW);
});
after(() => rmSync(root, { recursive: true, force: true }));

/** Every entry under `dir` with its permission bits. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      out[relative(dir, p)] = (st.mode & 0o777).toString(8);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

test('a fresh state directory gets a private server directory holding the CA, its key, the serving pair and the token, and nothing else', () => {
  assert.deepEqual(modes(join(root, 'a')), {
    server: '700',
    'server/credentials': '700',
    'server/credentials/ca.crt': '600',
    'server/credentials/ca.key': '600',
    'server/credentials/server.pem': '600',
    'server/credentials/token': '600',
  });
  const dir = join(root, 'a', 'server', 'credentials');
  assert.deepEqual(
    {
      ca: readFileSync(join(dir, 'ca.crt'), 'utf8'),
      pair: readFileSync(join(dir, 'server.pem'), 'utf8'),
      token: readFileSync(join(dir, 'token'), 'utf8'),
      dir: A.dir,
    },
    { ca: A.caPem, pair: A.certPem + A.keyPem, token: `${A.token}\n`, dir },
  );
});

test('a second call returns the same credentials', async () => {
  assert.deepEqual(await loadOrCreateCredentials(join(root, 'a'), at(1)), A);
});

test('the token is 32 random bytes in base64url and differs per state directory', () => {
  assert.deepEqual(
    { a: /^[A-Za-z0-9_-]{43}$/.test(A.token), bytes: Buffer.from(A.token, 'base64url').length, distinct: A.token !== B.token },
    { a: true, bytes: 32, distinct: true },
  );
});

test('the serving certificate is an ECDSA P-256 leaf for IP:127.0.0.1 and DNS:localhost, serverAuth and digitalSignature, signed by the CA, valid a year', async () => {
  const cert = new x509.X509Certificate(A.certPem);
  const ca = new x509.X509Certificate(A.caPem);
  const describe = async (c: x509.X509Certificate, issuer: x509.X509Certificate) => ({
    subject: c.subject.replace(/@\d+$/, '@<time>'),
    issuer: c.issuer.replace(/@\d+$/, '@<time>'),
    signedByIssuer: await c.verify({ publicKey: issuer.publicKey, signatureOnly: true }),
    keyAlgorithm: { name: c.publicKey.algorithm.name, namedCurve: (c.publicKey.algorithm as EcKeyAlgorithm).namedCurve },
    signatureAlgorithm: { name: c.signatureAlgorithm.name, hash: (c.signatureAlgorithm as EcdsaParams).hash },
    validFrom: c.notBefore.toISOString(),
    validTo: c.notAfter.toISOString(),
    basicConstraints: (({ ca, critical }) => ({ ca, critical }))(c.getExtension(x509.BasicConstraintsExtension)!),
    keyUsage: (({ usages, critical }) => ({ usages, critical }))(c.getExtension(x509.KeyUsagesExtension)!),
    extendedKeyUsage: ((u) => u && [...u])(c.getExtension(x509.ExtendedKeyUsageExtension)?.usages),
    subjectAltNames: c.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON(),
  });
  assert.deepEqual(await describe(cert, ca), {
    subject: 'CN=podlab@<time>',
    issuer: 'CN=podlab-ca@<time>',
    signedByIssuer: true,
    keyAlgorithm: { name: 'ECDSA', namedCurve: 'P-256' },
    signatureAlgorithm: { name: 'ECDSA', hash: { name: 'SHA-256' } },
    validFrom: '2025-12-31T23:00:00.000Z',
    validTo: '2027-01-01T00:00:00.000Z',
    basicConstraints: { ca: false, critical: true },
    keyUsage: { usages: x509.KeyUsageFlags.digitalSignature, critical: true },
    extendedKeyUsage: [x509.ExtendedKeyUsage.serverAuth],
    subjectAltNames: [
      { type: 'ip', value: '127.0.0.1' },
      { type: 'dns', value: 'localhost' },
    ],
  });
  assert.deepEqual(await describe(ca, ca), {
    subject: 'CN=podlab-ca@<time>',
    issuer: 'CN=podlab-ca@<time>',
    signedByIssuer: true,
    keyAlgorithm: { name: 'ECDSA', namedCurve: 'P-256' },
    signatureAlgorithm: { name: 'ECDSA', hash: { name: 'SHA-256' } },
    validFrom: '2025-12-31T23:00:00.000Z',
    validTo: '2035-12-30T00:00:00.000Z',
    basicConstraints: { ca: true, critical: true },
    keyUsage: { usages: x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, critical: true },
    extendedKeyUsage: undefined,
    subjectAltNames: undefined,
  });
});

test('calls racing on a fresh state directory all return the same credentials and leave no temporary directory', async () => {
  const dir = fresh();
  const all = await Promise.all(Array.from({ length: 4 }, () => loadOrCreateCredentials(dir, NOW)));
  assert.deepEqual(all, [all[0], all[0], all[0], all[0]]);
  assert.deepEqual(await loadOrCreateCredentials(dir, NOW), all[0]);
  assert.deepEqual(Object.keys(modes(dir)), ['server', 'server/credentials', 'server/credentials/ca.crt', 'server/credentials/ca.key', 'server/credentials/server.pem', 'server/credentials/token']);
});

for (const [sentence, days, renewed] of [
  ['a serving certificate with 31 days left is kept', 365 - 31, false],
  ['a serving certificate with 29 days left is replaced, keeping the CA and the token', 365 - 29, true],
  ['an expired serving certificate is replaced, keeping the CA and the token', 400, true],
] as const) {
  test(sentence, async () => {
    const dir = fresh();
    cpSync(join(root, 'a'), dir, { recursive: true });
    const later = await loadOrCreateCredentials(dir, at(days));
    assert.deepEqual(
      { ca: later.caPem, token: later.token, certChanged: later.certPem !== A.certPem, keyChanged: later.keyPem !== A.keyPem, problem: servingCertProblem(later.caPem, later.certPem, later.keyPem, at(days)) },
      { ca: A.caPem, token: A.token, certChanged: renewed, keyChanged: renewed, problem: undefined },
    );
    assert.deepEqual(await loadOrCreateCredentials(dir, at(days)), later);
  });
}

test('when the CA was replaced the serving certificate is signed anew by the new CA, keeping the token', async () => {
  const dir = fresh();
  cpSync(join(root, 'a'), dir, { recursive: true });
  for (const f of ['ca.crt', 'ca.key']) cpSync(join(root, 'b', 'server', 'credentials', f), join(dir, 'server', 'credentials', f));
  const got = await loadOrCreateCredentials(dir, NOW);
  assert.deepEqual(
    { ca: got.caPem, token: got.token, certChanged: got.certPem !== A.certPem, problem: servingCertProblem(B.caPem, got.certPem, got.keyPem, NOW) },
    { ca: B.caPem, token: A.token, certChanged: true, problem: undefined },
  );
});

test('a set whose token was removed is replaced whole', async () => {
  const dir = fresh();
  cpSync(join(root, 'a'), dir, { recursive: true });
  rmSync(join(dir, 'server', 'credentials', 'token'));
  const got = await loadOrCreateCredentials(dir, NOW);
  assert.deepEqual(
    { caChanged: got.caPem !== A.caPem, tokenChanged: got.token !== A.token, problem: servingCertProblem(got.caPem, got.certPem, got.keyPem, NOW), files: Object.keys(modes(dir)) },
    { caChanged: true, tokenChanged: true, problem: undefined, files: ['server', 'server/credentials', 'server/credentials/ca.crt', 'server/credentials/ca.key', 'server/credentials/server.pem', 'server/credentials/token'] },
  );
});

test('servingCertProblem names why a serving certificate must be replaced', () => {
  const cases: [string, () => string | undefined][] = [
    ['a fresh certificate signed by its CA needs nothing', () => servingCertProblem(A.caPem, A.certPem, A.keyPem, NOW)],
    ['one with under 30 days left is expiring', () => servingCertProblem(A.caPem, A.certPem, A.keyPem, at(336))],
    ['one used before its start is not valid yet', () => servingCertProblem(A.caPem, A.certPem, A.keyPem, at(-1))],
    ['one checked against another CA is not signed by the CA', () => servingCertProblem(B.caPem, A.certPem, A.keyPem, NOW)],
    ['one with another key does not match its key', () => servingCertProblem(A.caPem, A.certPem, B.keyPem, NOW)],
    ['garbage is unreadable', () => servingCertProblem(A.caPem, 'nonsense', A.keyPem, NOW)],
  ];
  assert.deepEqual(Object.fromEntries(cases.map(([s, f]) => [s, f()])), {
    'a fresh certificate signed by its CA needs nothing': undefined,
    'one with under 30 days left is expiring': 'expiring',
    'one used before its start is not valid yet': 'not valid yet',
    'one checked against another CA is not signed by the CA': 'not signed by the CA',
    'one with another key does not match its key': 'not matching its key',
    'garbage is unreadable': 'unreadable',
  });
});

test('caProblem names why a CA cannot serve on', () => {
  const key = (c: LabCredentials) => readFileSync(join(c.dir, 'ca.key'), 'utf8');
  assert.deepEqual(
    {
      good: caProblem(A.caPem, key(A), NOW),
      expiring: caProblem(A.caPem, key(A), at(3650 - 29)),
      otherKey: caProblem(A.caPem, key(B), NOW),
      leafAsCa: caProblem(A.certPem, A.keyPem, NOW),
      garbage: caProblem('nonsense', key(A), NOW),
    },
    { good: undefined, expiring: 'expiring', otherKey: 'not matching its key', leafAsCa: 'not a CA', garbage: 'unreadable' },
  );
});

// ---- the bearer token ----

for (const [sentence, expected, header, matches] of [
  ['the right token matches', 'tok-123', 'Bearer tok-123', true],
  ['the scheme is matched in any case, as the API server does', 'tok-123', 'bearer tok-123', true],
  ['surrounding whitespace is trimmed, as the API server does', 'tok-123', '  Bearer tok-123  ', true],
  ['a third space-separated field is ignored, as the API server does', 'tok-123', 'Bearer tok-123 extra', true],
  ['a missing header does not match', 'tok-123', undefined, false],
  ['an empty header does not match', 'tok-123', '', false],
  ['another scheme does not match', 'tok-123', 'Basic tok-123', false],
  ['the bare token without a scheme does not match', 'tok-123', 'tok-123', false],
  ['an empty bearer token does not match', 'tok-123', 'Bearer ', false],
  ['two spaces leave an empty token, which does not match', 'tok-123', 'Bearer  tok-123', false],
  ['a wrong token of the same length does not match', 'tok-123', 'Bearer tok-124', false],
  ['a shorter token (a prefix) does not match', 'tok-123', 'Bearer tok-12', false],
  ['a longer token does not match', 'tok-123', 'Bearer tok-123x', false],
  ['an empty expected token matches nothing', '', 'Bearer ', false],
] as const) {
  test(`tokenMatches: ${sentence}`, () => {
    assert.equal(tokenMatches(expected, header), matches);
  });
}

test('bearerToken reads the token as bearertoken.go does', () => {
  assert.deepEqual(
    ['Bearer abc', 'BEARER abc def', 'Bearer', 'Bearer  abc', 'Token abc', undefined].map((h) => bearerToken(h)),
    ['abc', 'abc', undefined, undefined, undefined, undefined],
  );
});

// ---- the kubeconfig ----

const caData = () => Buffer.from(A.caPem).toString('base64');

test('writeKubeconfig writes a private kubeconfig whose podlab context reaches 127.0.0.1:<port> with the CA and the token', () => {
  const dir = fresh();
  const path = writeKubeconfig(dir, A, 6443);
  assert.deepEqual(
    { path, mode: (statSync(path).mode & 0o777).toString(8), dirMode: (statSync(join(dir, 'server')).mode & 0o777).toString(8), config: parseYaml(readFileSync(path, 'utf8')) },
    {
      path: join(dir, 'server', 'kubeconfig'),
      mode: '600',
      dirMode: '700',
      config: {
        apiVersion: 'v1',
        clusters: [{ cluster: { 'certificate-authority-data': caData(), server: 'https://127.0.0.1:6443' }, name: 'podlab' }],
        contexts: [{ context: { cluster: 'podlab', namespace: 'default', user: 'podlab' }, name: 'podlab' }],
        'current-context': 'podlab',
        kind: 'Config',
        preferences: {},
        users: [{ name: 'podlab', user: { token: A.token } }],
      },
    },
  );
  assert.equal(Buffer.from(caData(), 'base64').toString(), A.caPem);
  writeKubeconfig(dir, A, 7000);
  assert.deepEqual(readdirSync(join(dir, 'server')), ['kubeconfig']);
});

const podlabCluster = (port: number) => `- cluster:\n    certificate-authority-data: ${caData()}\n    server: https://127.0.0.1:${port}\n  name: podlab\n`;
const podlabContext = '- context:\n    cluster: podlab\n    namespace: default\n    user: podlab\n  name: podlab\n';
const podlabUser = () => `- name: podlab\n  user:\n    token: ${A.token}\n`;

const OTHER = `# my clusters
apiVersion: v1
clusters:
- cluster:
    server: https://prod.example:6443 # prod API
  name: prod
contexts:
# the production context
- context:
    cluster: prod
    user: admin
  name: prod
current-context: prod
kind: Config
preferences: {}
users:
- name: admin
  user:
    token: abc
`;

const STALE = `apiVersion: v1
clusters:
# the lab, written by an older run
- cluster:
    certificate-authority-data: b2xk
    server: https://127.0.0.1:1111
  name: podlab
- cluster:
    server: https://prod.example:6443
  name: prod
contexts:
- context:
    cluster: podlab
    user: podlab
  name: podlab
- context:
    cluster: prod
    user: admin
  name: prod
current-context: prod
kind: Config
users:
- name: podlab
  user:
    token: old
- name: admin
  user:
    token: abc
`;

for (const [sentence, before, mode, after, added] of [
  [
    'merging into a file with another context adds the podlab entries after the others, keeping the comments, the current context and the mode',
    OTHER,
    0o640,
    () =>
      OTHER.replace('  name: prod\ncontexts:', `  name: prod\n${podlabCluster(6443)}contexts:`)
        .replace('  name: prod\ncurrent-context', `  name: prod\n${podlabContext}current-context`)
        .concat(podlabUser()),
    true,
  ],
  [
    'a stale podlab entry is replaced where it stands, keeping the comment above it',
    STALE,
    0o600,
    () =>
      STALE.replace(/- cluster:\n {4}certificate-authority-data: b2xk\n.*\n {2}name: podlab\n/, podlabCluster(6443))
        .replace('- context:\n    cluster: podlab\n    user: podlab\n  name: podlab\n', podlabContext)
        .replace('- name: podlab\n  user:\n    token: old\n', podlabUser()),
    false,
  ],
  [
    'an empty current-context is set to podlab; indented lists stay indented',
    'apiVersion: v1\nkind: Config\nclusters:\n  - name: x\n    cluster:\n      server: https://x\ncurrent-context: ""\n',
    0o600,
    () =>
      `apiVersion: v1\nkind: Config\nclusters:\n  - name: x\n    cluster:\n      server: https://x\n${podlabCluster(6443).replace(/^(?=.)/gm, '  ')}current-context: podlab\nusers:\n  ${podlabUser().trimEnd().replace(/\n/g, '\n  ')}\ncontexts:\n  ${podlabContext.trimEnd().replace(/\n/g, '\n  ')}\n`,
    true,
  ],
  [
    'an empty file gets the lab kubeconfig as kubectl would write it',
    '',
    0o600,
    () => readFileSync(writeKubeconfig(fresh(), A, 6443), 'utf8'),
    true,
  ],
] as const) {
  test(sentence, () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    const target = join(dir, 'config');
    writeFileSync(target, before);
    chmodSync(target, mode);
    const lab = writeKubeconfig(dir, A, 6443);
    const result = mergeKubeconfig(target, lab);
    assert.deepEqual(
      { result, text: readFileSync(target, 'utf8'), mode: (statSync(target).mode & 0o777).toString(8), files: readdirSync(dir).sort() },
      { result: { added, path: target }, text: after(), mode: mode.toString(8), files: ['config', 'server'] },
    );
    assert.deepEqual(mergeKubeconfig(target, lab), { added: false, path: target });
    assert.equal(readFileSync(target, 'utf8'), after());
  });
}

test('a missing kubeconfig is created private, with its directory, holding exactly the lab kubeconfig', () => {
  const dir = fresh();
  const lab = writeKubeconfig(dir, A, 6443);
  const target = join(dir, 'home', '.kube', 'config');
  const result = mergeKubeconfig(target, lab);
  assert.deepEqual(
    { result, config: parseYaml(readFileSync(target, 'utf8')), mode: (statSync(target).mode & 0o777).toString(8), dirMode: (statSync(join(dir, 'home', '.kube')).mode & 0o777).toString(8) },
    { result: { added: true, path: target }, config: labKubeconfig(A, 6443), mode: '600', dirMode: '700' },
  );
});

test('a kubeconfig that is a symlink is written through to the file it names', () => {
  const dir = fresh();
  mkdirSync(dir, { recursive: true });
  const real = join(dir, 'real-config');
  writeFileSync(real, OTHER, { mode: 0o600 });
  symlinkSync(real, join(dir, 'config'));
  mergeKubeconfig(join(dir, 'config'), writeKubeconfig(dir, A, 6443));
  const parsed = parseYaml(readFileSync(real, 'utf8')) as { contexts: { name: string }[] };
  assert.deepEqual(
    { link: statSync(join(dir, 'config')).ino === statSync(real).ino, contexts: parsed.contexts.map((c) => c.name) },
    { link: true, contexts: ['prod', 'podlab'] },
  );
});

test('a file that is not a kubeconfig is left alone with an error', () => {
  const dir = fresh();
  mkdirSync(dir, { recursive: true });
  const target = join(dir, 'config');
  writeFileSync(target, 'clusters: {a: 1}\n');
  assert.throws(() => mergeKubeconfig(target, writeKubeconfig(dir, A, 6443)), { message: `${target} is not a kubeconfig: clusters is not a list` });
  assert.equal(readFileSync(target, 'utf8'), 'clusters: {a: 1}\n');
});
