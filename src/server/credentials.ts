// The lab server's credentials (the counterpart of kube-apiserver's serving certificate and of a
// kubeadm admin kubeconfig): per state directory, under `<stateDir>/server/` (0700, files 0600),
// a self-signed CA, a serving certificate it signs for 127.0.0.1 and localhost, and a random
// bearer token; the kubeconfig whose `podlab` context reaches the server with them.
import 'reflect-metadata';
import { createHash, randomBytes, timingSafeEqual, webcrypto } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { parseDocument, stringify } from 'yaml';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface LabCredentials {
  caPem: string;
  certPem: string;
  keyPem: string;
  token: string;
  dir: string;
}

const FILES = { ca: 'ca.crt', caKey: 'ca.key', cert: 'server.crt', key: 'server.key', token: 'token' } as const;
const DAY = 24 * 60 * 60 * 1000;
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function serial(): string {
  const b = randomBytes(16);
  b[0]! &= 0x7f;
  return b.toString('hex');
}

async function exportKey(k: CryptoKey): Promise<string> {
  return pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', k as webcrypto.CryptoKey));
}

async function importKey(keyPem: string): Promise<CryptoKey> {
  const der = Buffer.from(keyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return (await webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])) as unknown as CryptoKey;
}

async function newCa(now: Date): Promise<{ certPem: string; keyPem: string; keys: CryptoKeyPair }> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=podlab-ca',
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + 3650 * DAY),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: await exportKey(keys.privateKey), keys };
}

async function newServerCert(caCertPem: string, caKey: CryptoKey, now: Date): Promise<{ certPem: string; keyPem: string }> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const ca = new x509.X509Certificate(caCertPem);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: 'CN=podlab-server',
    issuer: ca.subject,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + 365 * DAY),
    signingKey: caKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'dns', value: 'localhost' },
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(ca, false),
    ],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: await exportKey(keys.privateKey) };
}

function read(dir: string): LabCredentials | undefined {
  try {
    const f = (n: string) => readFileSync(join(dir, n), 'utf8');
    return { caPem: f(FILES.ca), certPem: f(FILES.cert), keyPem: f(FILES.key), token: f(FILES.token).trim(), dir };
  } catch {
    return undefined;
  }
}

function writePrivate(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

/** Whether the serving certificate must be renewed: under 30 days left, or not signed by the CA. */
function needsRenewal(c: LabCredentials, now: Date): boolean {
  try {
    const cert = new x509.X509Certificate(c.certPem);
    const ca = new x509.X509Certificate(c.caPem);
    return cert.notAfter.getTime() - now.getTime() < 30 * DAY || cert.issuer !== ca.subject;
  } catch {
    return true;
  }
}

/**
 * The lab's credentials, created on first use. Two processes creating them at once agree: the
 * whole set is made in a temporary directory that is renamed into place, and the loser reads the
 * winner's. A serving certificate near its end is renewed with the same CA.
 */
export async function loadOrCreateCredentials(stateDir: string, now = new Date()): Promise<LabCredentials> {
  const dir = join(stateDir, 'server', 'credentials');
  mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
  let creds = read(dir);
  if (!creds) {
    const tmp = mkdtempSync(join(dirname(dir), '.credentials-'));
    chmodSync(tmp, 0o700);
    const ca = await newCa(now);
    const server = await newServerCert(ca.certPem, ca.keys.privateKey, now);
    writePrivate(join(tmp, FILES.ca), ca.certPem);
    writePrivate(join(tmp, FILES.caKey), ca.keyPem);
    writePrivate(join(tmp, FILES.cert), server.certPem);
    writePrivate(join(tmp, FILES.key), server.keyPem);
    writePrivate(join(tmp, FILES.token), `${randomBytes(32).toString('base64url')}\n`);
    try {
      renameSync(tmp, dir);
    } catch (e) {
      // Another process won the race: use its set.
      rmSync(tmp, { recursive: true, force: true });
      if (!['ENOTEMPTY', 'EEXIST'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
    }
    creds = read(dir);
    if (!creds) throw new Error(`cannot read the lab credentials in ${dir}`);
  }
  if (needsRenewal(creds, now)) {
    const caKey = await importKey(readFileSync(join(dir, FILES.caKey), 'utf8'));
    const server = await newServerCert(creds.caPem, caKey, now);
    writePrivate(join(dir, FILES.key), server.keyPem);
    writePrivate(join(dir, FILES.cert), server.certPem);
    creds = { ...creds, ...server };
  }
  return creds;
}

/** Checks `Authorization: Bearer <token>` in constant time (both sides hashed, so lengths leak nothing). */
export function tokenMatches(expected: string, header: string | undefined): boolean {
  const m = /^Bearer (.+)$/.exec(header ?? '');
  const given = m?.[1]?.trim() ?? '';
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && !!m && expected.length > 0;
}

/** The lab kubeconfig's content: cluster, user and context `podlab`, current. */
export function kubeconfigObject(creds: LabCredentials, port: number): object {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'podlab', cluster: { server: `https://127.0.0.1:${port}`, 'certificate-authority-data': Buffer.from(creds.caPem).toString('base64') } }],
    users: [{ name: 'podlab', user: { token: creds.token } }],
    contexts: [{ name: 'podlab', context: { cluster: 'podlab', user: 'podlab', namespace: 'default' } }],
    'current-context': 'podlab',
    preferences: {},
  };
}

/** Writes `<stateDir>/server/kubeconfig` (0600) and returns its path. */
export function writeKubeconfig(stateDir: string, creds: LabCredentials, port: number): string {
  const file = join(stateDir, 'server', 'kubeconfig');
  writePrivate(file, stringify(kubeconfigObject(creds, port)));
  return file;
}

type Named = { name?: string };

/**
 * Adds (or replaces) the `podlab` cluster, user and context of the lab kubeconfig in `target`,
 * keeping every other entry and the file's comments; creates the file (0600) when missing; sets
 * `current-context` only when the file had none.
 */
export function mergeKubeconfig(target: string, labKubeconfigPath: string): { added: boolean; path: string } {
  const lab = parseDocument(readFileSync(labKubeconfigPath, 'utf8')).toJS() as Record<string, Named[]>;
  const existed = existsSync(target);
  const mode = existed ? statSync(target).mode & 0o777 : 0o600;
  const doc = parseDocument(existed ? readFileSync(target, 'utf8') : 'apiVersion: v1\nkind: Config\n');
  if (!doc.contents || doc.errors.length) throw new Error(`${target} is not a kubeconfig: ${doc.errors[0]?.message ?? 'empty'}`);
  let added = true;
  for (const key of ['clusters', 'users', 'contexts'] as const) {
    const entry = lab[key]!.find((e) => e.name === 'podlab');
    const list = (doc.get(key) as { items?: { get(k: string): unknown }[] } | undefined)?.items;
    if (!list) {
      doc.set(key, doc.createNode([entry]));
      continue;
    }
    const i = list.findIndex((n) => n.get('name') === 'podlab');
    if (i >= 0) {
      added = false;
      list[i] = doc.createNode(entry) as never;
    } else list.push(doc.createNode(entry) as never);
  }
  if (!doc.get('current-context')) doc.set('current-context', 'podlab');
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(tmp, doc.toString(), { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, target);
  return { added, path: target };
}
