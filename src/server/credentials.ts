// The lab server's credentials and kubeconfig. Upstream counterparts: the self-signed serving
// certificate kube-apiserver makes when it is given none (k8s.io/client-go/util/cert
// GenerateSelfSignedCertKey: a CA `<host>-ca@<unix time>` signing a serving certificate
// `<host>@<unix time>`), the cert+key-in-one-file store of rotated certificates
// (k8s.io/client-go/util/certificate/certificate_store.go), the bearer token authenticator
// (k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go) and the kubeconfig
// file (k8s.io/client-go/tools/clientcmd/api/v1/types.go, written the way clientcmd writes it).
//
// Layout, per state directory (directories 0700, files 0600):
//   <stateDir>/server/credentials/ca.crt      self-signed CA, ECDSA P-256, 10 years
//   <stateDir>/server/credentials/ca.key      its PKCS#8 key
//   <stateDir>/server/credentials/server.pem  serving certificate (IP:127.0.0.1, DNS:localhost,
//                                             serverAuth, 1 year) followed by its PKCS#8 key
//   <stateDir>/server/credentials/token       32 random bytes, base64url
//   <stateDir>/server/kubeconfig              context `podlab` reaching the server with them
// The `credentials` directory is created whole in a temporary directory and renamed into place,
// so two processes creating it at once agree on the first one's set.
import 'reflect-metadata';
import {
  createHash,
  createPrivateKey,
  randomBytes,
  timingSafeEqual,
  webcrypto,
  X509Certificate as NodeX509Certificate,
} from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { isMap, isScalar, isSeq, parse as parseYaml, parseDocument, stringify, type Document } from 'yaml';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface LabCredentials {
  caPem: string;
  certPem: string;
  keyPem: string;
  token: string;
  /** The directory holding them: `<stateDir>/server/credentials`. */
  dir: string;
}

const FILES = { ca: 'ca.crt', caKey: 'ca.key', serving: 'server.pem', token: 'token' } as const;
const DAY = 24 * 60 * 60 * 1000;
const CA_VALIDITY = 3650 * DAY;
const SERVING_VALIDITY = 365 * DAY;
/** A certificate with less than this left is replaced. */
const RENEW_BEFORE = 30 * DAY;
/** Like GenerateSelfSignedCertKey: valid from an hour ago, so a clock slightly behind accepts it. */
const BACKDATE = 60 * 60 * 1000;
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export const credentialsDir = (stateDir: string): string => join(stateDir, 'server', 'credentials');
export const kubeconfigFile = (stateDir: string): string => join(stateDir, 'server', 'kubeconfig');

// ---- certificates ------------------------------------------------------------------------------

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

/** A random positive 128-bit serial number. */
function serial(): string {
  const b = randomBytes(16);
  b[0] = (b[0]! & 0x7f) | 0x01;
  return b.toString('hex');
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
}

async function exportKey(k: CryptoKey): Promise<string> {
  return pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', k as webcrypto.CryptoKey));
}

async function importKey(keyPem: string): Promise<CryptoKey> {
  const der = createPrivateKey(keyPem).export({ type: 'pkcs8', format: 'der' });
  return (await webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])) as unknown as CryptoKey;
}

async function newCa(now: Date): Promise<{ certPem: string; keyPem: string }> {
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=podlab-ca@${Math.floor(now.getTime() / 1000)}`,
    notBefore: new Date(now.getTime() - BACKDATE),
    notAfter: new Date(now.getTime() + CA_VALIDITY),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: `${cert.toString('pem')}\n`, keyPem: await exportKey(keys.privateKey) };
}

/**
 * A leaf certificate signed by the CA with a new key: backdated like GenerateSelfSignedCertKey,
 * never valid past the CA, for one extended key usage (plus any further extensions).
 */
async function signLeaf(
  caPem: string,
  caKeyPem: string,
  now: Date,
  leaf: { subject: string; validityMs: number; usage: string; extensions?: x509.Extension[] },
): Promise<{ certPem: string; keyPem: string }> {
  const keys = await newKeys();
  const ca = new x509.X509Certificate(caPem);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: leaf.subject,
    issuer: ca.subject,
    notBefore: new Date(now.getTime() - BACKDATE),
    notAfter: new Date(Math.min(now.getTime() + leaf.validityMs, ca.notAfter.getTime())),
    signingKey: await importKey(caKeyPem),
    publicKey: keys.publicKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([leaf.usage]),
      ...(leaf.extensions ?? []),
      await x509.AuthorityKeyIdentifierExtension.create(ca, false),
    ],
  });
  return { certPem: `${cert.toString('pem')}\n`, keyPem: await exportKey(keys.privateKey) };
}

/** A serving certificate for 127.0.0.1 and localhost signed by the CA, valid a year (never past the CA). */
async function newServingCert(caPem: string, caKeyPem: string, now: Date): Promise<{ certPem: string; keyPem: string }> {
  const out = await signLeaf(caPem, caKeyPem, now, {
    subject: `CN=podlab@${Math.floor(now.getTime() / 1000)}`,
    validityMs: SERVING_VALIDITY,
    usage: x509.ExtendedKeyUsage.serverAuth,
    extensions: [
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'dns', value: 'localhost' },
      ]),
    ],
  });
  if (servingCertProblem(caPem, out.certPem, out.keyPem, now) !== undefined) throw new Error('the lab CA key (ca.key) does not match its certificate (ca.crt)');
  return out;
}

/**
 * A client certificate signed by the lab's CA, for kube-apiserver's x509 authentication: the user
 * is the subject's CN and the groups its O values (k8s.io/apiserver pkg/authentication/request/x509
 * CommonNameUserConversion). The CA key is read from the credentials directory.
 */
export async function issueClientCertificate(creds: Pick<LabCredentials, 'caPem' | 'dir'>, who: { user: string; groups?: string[] }, now: Date = new Date(), validityDays = 365): Promise<{ certPem: string; keyPem: string }> {
  const caKeyPem = readFileSync(join(creds.dir, FILES.caKey), 'utf8');
  const escape = (v: string) => v.replace(/([,+="\\<>;#])/g, '\\$1');
  const subject = [...(who.groups ?? []).map((g) => `O=${escape(g)}`), `CN=${escape(who.user)}`].join(', ');
  return signLeaf(creds.caPem, caKeyPem, now, { subject, validityMs: validityDays * DAY, usage: x509.ExtendedKeyUsage.clientAuth });
}

/**
 * Why the serving certificate must be replaced, or undefined when it is good: not signed by the
 * CA (the CA changed), not matching its key, not valid yet, or under 30 days left.
 */
export function servingCertProblem(caPem: string, certPem: string, keyPem: string, now: Date): string | undefined {
  let cert: NodeX509Certificate;
  let ca: NodeX509Certificate;
  try {
    cert = new NodeX509Certificate(certPem);
    ca = new NodeX509Certificate(caPem);
  } catch {
    return 'unreadable';
  }
  if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) return 'not signed by the CA';
  try {
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return 'not matching its key';
  } catch {
    return 'not matching its key';
  }
  const { notBefore, notAfter } = new x509.X509Certificate(certPem);
  if (notBefore.getTime() > now.getTime()) return 'not valid yet';
  if (notAfter.getTime() - now.getTime() < RENEW_BEFORE) return 'expiring';
  return undefined;
}

/** Why the CA (with its key) cannot serve on, or undefined: unreadable, not a CA, key mismatch, under 30 days left. */
export function caProblem(caPem: string, caKeyPem: string, now: Date): string | undefined {
  try {
    const ca = new NodeX509Certificate(caPem);
    if (!ca.ca) return 'not a CA';
    if (!ca.checkPrivateKey(createPrivateKey(caKeyPem))) return 'not matching its key';
    const { notAfter } = new x509.X509Certificate(caPem);
    if (notAfter.getTime() - now.getTime() < RENEW_BEFORE) return 'expiring';
    return undefined;
  } catch {
    return 'unreadable';
  }
}

// ---- the credentials directory ------------------------------------------------------------------

/** Splits server.pem (certificate, then key) into its two PEM blocks. */
function splitServing(text: string): { certPem: string; keyPem: string } | undefined {
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(text)?.[0];
  const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n?/.exec(text)?.[0];
  return cert && key ? { certPem: cert, keyPem: key } : undefined;
}

interface StoredSet {
  caPem: string;
  caKeyPem: string;
  token: string;
  serving?: { certPem: string; keyPem: string };
}

/** The set in `dir`: undefined when there is none, 'broken' when its CA, CA key or token is unusable. */
function readSet(dir: string, now: Date): StoredSet | 'broken' | undefined {
  const f = (n: string) => readFileSync(join(dir, n), 'utf8');
  try {
    statSync(dir);
  } catch {
    return undefined;
  }
  let set: StoredSet;
  try {
    set = { caPem: f(FILES.ca), caKeyPem: f(FILES.caKey), token: f(FILES.token).trim() };
  } catch {
    return 'broken';
  }
  if (!set.token || caProblem(set.caPem, set.caKeyPem, now) !== undefined) return 'broken';
  try {
    set.serving = splitServing(f(FILES.serving));
  } catch {
    // missing: made anew below
  }
  return set;
}

function writeNew(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
}

/** Writes `file` (mode 0600 unless `mode`) through a temporary file renamed over it. */
function writeAtomic(file: string, text: string, mode = 0o600): void {
  const tmp = join(dirname(file), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, text, { mode, flag: 'wx' });
    chmodSync(tmp, mode);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Removes temporary set directories left by processes that died while creating one (older than 10 minutes). */
function removeLeftovers(serverDir: string): void {
  for (const name of readdirSync(serverDir)) {
    if (!name.startsWith('.credentials-')) continue;
    const p = join(serverDir, name);
    try {
      if (Date.now() - statSync(p).mtimeMs > 10 * 60 * 1000) rmSync(p, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/** Creates a whole set in a temporary directory and renames it into place; when another process was first, its set is used. */
async function installSet(dir: string, now: Date): Promise<void> {
  const serverDir = dirname(dir);
  removeLeftovers(serverDir); // against the files' real mtimes, not the `now` the certificates are made for
  const tmp = mkdtempSync(join(serverDir, '.credentials-'));
  try {
    chmodSync(tmp, 0o700);
    const ca = await newCa(now);
    const serving = await newServingCert(ca.certPem, ca.keyPem, now);
    writeNew(join(tmp, FILES.ca), ca.certPem);
    writeNew(join(tmp, FILES.caKey), ca.keyPem);
    writeNew(join(tmp, FILES.serving), serving.certPem + serving.keyPem);
    writeNew(join(tmp, FILES.token), `${randomBytes(32).toString('base64url')}\n`);
    renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    // ENOTEMPTY / EEXIST: another process renamed its set into place first.
    if (!['ENOTEMPTY', 'EEXIST'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
  }
}

/**
 * The lab's credentials, created on first use under `<stateDir>/server/credentials` and read
 * afterwards. Two processes creating them at once end up with the same set. A serving
 * certificate that expires within 30 days, is not signed by the CA or does not match its key is
 * replaced (same CA and token); a set whose CA or token is unusable or whose CA expires within
 * 30 days is replaced whole.
 */
export async function loadOrCreateCredentials(stateDir: string, now: Date = new Date()): Promise<LabCredentials> {
  const serverDir = join(stateDir, 'server');
  mkdirSync(serverDir, { recursive: true, mode: 0o700 });
  chmodSync(serverDir, 0o700);
  const dir = credentialsDir(stateDir);
  let set = readSet(dir, now);
  if (set === 'broken') {
    const aside = join(serverDir, `.credentials-broken-${randomBytes(6).toString('hex')}`);
    try {
      renameSync(dir, aside);
      rmSync(aside, { recursive: true, force: true });
    } catch {
      // another process moved it first
    }
    set = undefined;
  }
  if (set === undefined) {
    await installSet(dir, now);
    set = readSet(dir, now);
    if (set === undefined || set === 'broken') throw new Error(`cannot read the lab credentials in ${dir}`);
  }
  const current = set.serving;
  if (!current || servingCertProblem(set.caPem, current.certPem, current.keyPem, now) !== undefined) {
    const renewed = await newServingCert(set.caPem, set.caKeyPem, now);
    writeAtomic(join(dir, FILES.serving), renewed.certPem + renewed.keyPem);
    // Another process renewing at the same time may have renamed its pair over ours: serve what is on disk.
    let onDisk: { certPem: string; keyPem: string } | undefined;
    try {
      onDisk = splitServing(readFileSync(join(dir, FILES.serving), 'utf8'));
    } catch {
      onDisk = undefined;
    }
    set.serving = onDisk && servingCertProblem(set.caPem, onDisk.certPem, onDisk.keyPem, now) === undefined ? onDisk : renewed;
  }
  return { caPem: set.caPem, certPem: set.serving!.certPem, keyPem: set.serving!.keyPem, token: set.token, dir };
}

// ---- authentication ------------------------------------------------------------------------------

/** The token of an `Authorization` header as bearertoken.go reads it (`Bearer` in any case, the second space-separated field), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const auth = (header ?? '').trim();
  if (auth === '') return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  return parts[1] === '' ? undefined : parts[1];
}

/** Whether `Authorization: Bearer <token>` carries the expected token; compared in constant time over SHA-256 digests, so lengths leak nothing. */
export function tokenMatches(expected: string, header: string | undefined): boolean {
  const given = bearerToken(header);
  const a = createHash('sha256').update(given ?? '').digest();
  const b = createHash('sha256').update(expected).digest();
  const same = timingSafeEqual(a, b);
  return same && given !== undefined && expected !== '';
}

// ---- kubeconfig ------------------------------------------------------------------------------------

export const CONTEXT = 'podlab';

interface NamedEntry {
  name: string;
  [k: string]: unknown;
}

export interface Kubeconfig {
  apiVersion: 'v1';
  clusters: NamedEntry[];
  contexts: NamedEntry[];
  'current-context': string;
  kind: 'Config';
  preferences: Record<string, never>;
  users: NamedEntry[];
}

/** The lab kubeconfig: cluster, user and context `podlab`, current; keys in the order clientcmd writes them. */
export function labKubeconfig(creds: Pick<LabCredentials, 'caPem' | 'token'>, port: number): Kubeconfig {
  return {
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': Buffer.from(creds.caPem).toString('base64'), server: `https://127.0.0.1:${port}` }, name: CONTEXT }],
    contexts: [{ context: { cluster: CONTEXT, namespace: 'default', user: CONTEXT }, name: CONTEXT }],
    'current-context': CONTEXT,
    kind: 'Config',
    preferences: {},
    users: [{ name: CONTEXT, user: { token: creds.token } }],
  };
}

/** Writes `<stateDir>/server/kubeconfig` (0600, atomically) and returns its path. */
export function writeKubeconfig(stateDir: string, creds: LabCredentials, port: number): string {
  const file = kubeconfigFile(stateDir);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeAtomic(file, stringify(labKubeconfig(creds, port), { indentSeq: false, lineWidth: 0 }));
  return file;
}

const LISTS = ['clusters', 'users', 'contexts'] as const;

/**
 * Adds or replaces the `podlab` cluster, user and context of the lab kubeconfig in `target`,
 * keeping every other entry, its order and the comments; creates the file (0600, and its
 * directory) when missing; sets `current-context` only when the file had none. `added` is false
 * when `target` already had a podlab entry. Writes atomically (through a symlink, to the file it
 * names) and keeps the file's mode.
 */
export function mergeKubeconfig(target: string, labKubeconfigPath: string): { added: boolean; path: string } {
  const lab = parseYaml(readFileSync(labKubeconfigPath, 'utf8')) as Partial<Record<(typeof LISTS)[number], NamedEntry[]>>;
  const entries = LISTS.map((key) => {
    const e = lab?.[key]?.find((x) => x?.name === CONTEXT);
    if (!e) throw new Error(`${labKubeconfigPath} has no ${CONTEXT} entry in ${key}`);
    return e;
  });

  let file = target;
  try {
    file = realpathSync(target);
  } catch {
    // missing: created below
  }
  let text: string | undefined;
  let mode = 0o600;
  try {
    text = readFileSync(file, 'utf8');
    mode = statSync(file).mode & 0o7777;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }

  const doc: Document = parseDocument(text ?? '');
  if (doc.errors.length) throw new Error(`${target} is not a kubeconfig: ${doc.errors[0]!.message}`);
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    // A missing or empty file: start from clientcmd's empty Config, so the result reads like kubectl's.
    doc.contents = doc.createNode({ apiVersion: 'v1', clusters: [], contexts: [], 'current-context': '', kind: 'Config', preferences: {}, users: [] }) as never;
  }
  const root = doc.contents;
  if (!isMap(root)) throw new Error(`${target} is not a kubeconfig: not a mapping`);

  let added = true;
  LISTS.forEach((key, i) => {
    const fresh = doc.createNode(entries[i]);
    const list = root.get(key, true);
    if (list === undefined || list === null || (isScalar(list) && list.value === null)) {
      root.set(key, doc.createNode([entries[i]]));
      return;
    }
    if (!isSeq(list)) throw new Error(`${target} is not a kubeconfig: ${key} is not a list`);
    const at = list.items.findIndex((n) => isMap(n) && n.get('name') === CONTEXT);
    if (at < 0) {
      list.items.push(fresh);
      return;
    }
    added = false;
    const old = list.items[at] as { commentBefore?: string | null; comment?: string | null; spaceBefore?: boolean };
    Object.assign(fresh, { commentBefore: old.commentBefore, comment: old.comment, spaceBefore: old.spaceBefore });
    list.items[at] = fresh;
  });
  const current = root.get('current-context');
  if (current === undefined || current === null || current === '') root.set('current-context', doc.createNode(CONTEXT)); // a new (plain) node: `""` must not keep its quotes

  // Keep the file's sequence style: clientcmd writes list items at their key's indentation.
  const indentSeq = text !== undefined && !/^-[ \t\n]/m.test(text) && /^[ \t]+-[ \t\n]/m.test(text);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeAtomic(file, doc.toString({ indentSeq, lineWidth: 0 }), mode);
  return { added, path: target };
}
