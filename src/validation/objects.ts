// ConfigMaps and Secrets as the API server takes them on CREATE: the v1 defaulting and conversion
// (pkg/apis/core/v1/defaults.go SetDefaults_Secret: `type` Opaque; conversion.go
// Convert_v1_Secret_To_core_Secret: `stringData` overwrites `data`), then ValidateConfigMap and
// ValidateSecret (pkg/apis/core/validation/validation.go). Findings are FieldErr values; documents.ts
// places them. Values of `data` (Secret) and `binaryData` (ConfigMap) arrive here as canonical base64
// (decode.ts has already refused invalid base64). Also the warning the secret strategy adds for a
// kubernetes.io/tls Secret whose certificate and key do not make a pair (pkg/registry/core/secret/
// strategy.go warningsForSecret: crypto/tls X509KeyPair's error). Pure.
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from './errors.js';
import { isConfigMapKey } from './formats.js';
import { goJSONUnmarshalMapError, goPemDecode, type PemBlock } from './go-codecs.js';
import { validateMetadata } from './rules/metadata.js';

/** core.MaxSecretSize: the limit of a Secret's data and of a ConfigMap's data + binaryData, in bytes. */
export const MAX_SECRET_SIZE = 1024 * 1024;

export const SECRET_TYPE = {
  opaque: 'Opaque',
  serviceAccountToken: 'kubernetes.io/service-account-token',
  dockercfg: 'kubernetes.io/dockercfg',
  dockerConfigJSON: 'kubernetes.io/dockerconfigjson',
  basicAuth: 'kubernetes.io/basic-auth',
  sshAuth: 'kubernetes.io/ssh-auth',
  tls: 'kubernetes.io/tls',
  bootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;
/** The built-in secret types (kubernetes.io/docs/concepts/configuration/secret/#secret-types); any other string is allowed too. */
export const SECRET_TYPES: string[] = Object.values(SECRET_TYPE);

const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';
const REDACTED = '<secret contents redacted>';

const byteLength = (b64: string) => Buffer.from(b64, 'base64').length;

/** Keys that only `stringData` holds (where their problems are shown after the merge). */
export function stringDataOnlyKeys(secret: Secret): Set<string> {
  const data = secret.data ?? {};
  return new Set(Object.keys(secret.stringData ?? {}).filter((k) => !(k in data)));
}

/** SetDefaults_Secret and the stringData merge, in place: data values stay base64 (the v1 form). */
export function defaultSecretInPlace(secret: Secret): Secret {
  if (!secret || typeof secret !== 'object') return secret;
  if (!secret.type) secret.type = SECRET_TYPE.opaque;
  const sd = secret.stringData;
  if (sd && typeof sd === 'object') {
    if (Object.keys(sd).length > 0) {
      const data = (secret.data ??= {});
      for (const [k, v] of Object.entries(sd)) data[k] = Buffer.from(String(v ?? ''), 'utf8').toString('base64');
    }
    delete secret.stringData;
  }
  return secret;
}

/** A defaulted deep copy of the secret (stringData merged into data). */
export function applySecretDefaults(secret: Secret): Secret {
  return defaultSecretInPlace(structuredClone(secret));
}

/** ValidateConfigMap. Go walks the maps in random order; here keys come in document order. */
export function validateConfigMap(cm: ConfigMap): FieldErr[] {
  const out = validateMetadata(cm);
  const data = cm.data ?? {};
  const binary = cm.binaryData ?? {};
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const m of isConfigMapKey(key)) out.push(F.invalid(`data[${key}]`, key, m, { at: 'key' }));
    if (key in binary) out.push(F.invalid(`data[${key}]`, key, 'duplicate of key present in binaryData', { at: 'key' }));
    total += Buffer.byteLength(String(value ?? ''), 'utf8');
  }
  for (const [key, value] of Object.entries(binary)) {
    for (const m of isConfigMapKey(key)) out.push(F.invalid(`binaryData[${key}]`, key, m, { at: 'key' }));
    total += byteLength(String(value ?? ''));
  }
  // the whole object: field.NewPath(""), which Go writes as `[]`
  if (total > MAX_SECRET_SIZE) out.push(F.tooLong('[]', MAX_SECRET_SIZE, { loc: cm.data ? 'data' : 'binaryData', at: 'key' }));
  return out;
}

/**
 * ValidateSecret on the merged secret. `fromStringData` are the keys only stringData wrote (their
 * problems point there); `written` says which of data / stringData the manifest has.
 */
export function validateSecret(secret: Secret, fromStringData: ReadonlySet<string> = new Set(), written: { data: boolean; stringData: boolean } = { data: true, stringData: false }): FieldErr[] {
  const out = validateMetadata(secret);
  const data = secret.data ?? {};
  const keyLoc = (key: string) => (fromStringData.has(key) ? `stringData[${key}]` : `data[${key}]`);
  const bag = written.data || !written.stringData ? 'data' : 'stringData';
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const m of isConfigMapKey(key)) out.push(F.invalid(`data[${key}]`, key, m, { loc: keyLoc(key), at: 'key' }));
    total += byteLength(String(value ?? ''));
  }
  if (total > MAX_SECRET_SIZE) out.push(F.tooLong('data', MAX_SECRET_SIZE, { loc: bag, at: 'key' }));
  // a required key that is missing (or empty): point at it, else at the bag that should hold it, else at `type`
  const missing = (key: string) => F.required(`data[${key}]`, '', { loc: key in data ? keyLoc(key) : written.data || written.stringData ? bag : 'type', at: 'key' });
  const json = (key: string) => {
    const err = goJSONUnmarshalMapError(Buffer.from(data[key] ?? '', 'base64'));
    if (err) out.push(F.invalid(`data[${key}]`, REDACTED, err, { loc: keyLoc(key), at: 'value' }));
  };
  switch (secret.type ?? '') {
    case SECRET_TYPE.serviceAccountToken:
      if (!secret.metadata?.annotations?.[SERVICE_ACCOUNT_NAME_KEY]) out.push(F.required(`metadata.annotations[${SERVICE_ACCOUNT_NAME_KEY}]`, '', { at: 'key' }));
      break;
    case SECRET_TYPE.dockercfg:
      if (!('.dockercfg' in data)) out.push(missing('.dockercfg'));
      else json('.dockercfg');
      break;
    case SECRET_TYPE.dockerConfigJSON:
      if (!('.dockerconfigjson' in data)) out.push(missing('.dockerconfigjson'));
      else json('.dockerconfigjson');
      break;
    case SECRET_TYPE.basicAuth:
      // either may be empty, but one must be present
      if (!('username' in data) && !('password' in data)) out.push(missing('username'), missing('password'));
      break;
    case SECRET_TYPE.sshAuth:
      if (!data['ssh-privatekey'] || byteLength(data['ssh-privatekey']) === 0) out.push(missing('ssh-privatekey'));
      break;
    case SECRET_TYPE.tls:
      if (!('tls.crt' in data)) out.push(missing('tls.crt'));
      if (!('tls.key' in data)) out.push(missing('tls.key'));
      break;
  }
  return out;
}

// ---- the API server's warning for TLS secrets ----

const ECDSA_CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1', 'secp224r1']);
const goList = (xs: string[]) => `[${xs.join(' ')}]`;

function pemBlocks(bytes: Uint8Array): PemBlock[] {
  const out: PemBlock[] = [];
  let rest = Buffer.from(bytes).toString('latin1');
  for (let next = goPemDecode(rest); next; next = goPemDecode(rest)) {
    out.push(next.block);
    rest = next.rest;
  }
  return out;
}

/** crypto/tls parsePrivateKey: PKCS #1, then PKCS #8 (RSA, ECDSA, Ed25519), then SEC 1. */
function parsePrivateKey(der: Buffer): KeyObject | string {
  const tryKey = (type: 'pkcs1' | 'pkcs8' | 'sec1'): KeyObject | undefined => {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch {
      return undefined;
    }
  };
  const pkcs1 = tryKey('pkcs1');
  if (pkcs1) return pkcs1;
  const pkcs8 = tryKey('pkcs8');
  const goCurve = (k: KeyObject) => k.asymmetricKeyType !== 'ec' || ECDSA_CURVES.has(String(k.asymmetricKeyDetails?.namedCurve));
  if (pkcs8) {
    if ((pkcs8.asymmetricKeyType === 'rsa' || pkcs8.asymmetricKeyType === 'ed25519' || pkcs8.asymmetricKeyType === 'ec') && goCurve(pkcs8)) return pkcs8;
    if (pkcs8.asymmetricKeyType === 'x25519') return 'tls: found unknown private key type in PKCS#8 wrapping';
  }
  const sec1 = tryKey('sec1');
  if (sec1 && goCurve(sec1)) return sec1;
  return 'tls: failed to parse private key';
}

/**
 * tls.X509KeyPair's error for a certificate and key (PEM), or undefined when they make a pair. A
 * certificate whose DER does not parse is not judged (Go's x509 parser words its many errors in
 * ways this does not reproduce).
 */
export function tlsKeyPairError(certPEM: Uint8Array, keyPEM: Uint8Array): string | undefined {
  const certBlocks = pemBlocks(certPEM);
  const certs = certBlocks.filter((b) => b.type === 'CERTIFICATE');
  if (certs.length === 0) {
    const skipped = certBlocks.map((b) => b.type);
    if (skipped.length === 0) return 'tls: failed to find any PEM data in certificate input';
    if (skipped.length === 1 && skipped[0]!.endsWith('PRIVATE KEY')) return 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched';
    return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${goList(skipped)}`;
  }
  const skipped: string[] = [];
  let keyBlock: PemBlock | undefined;
  let rest = Buffer.from(keyPEM).toString('latin1');
  for (let next = goPemDecode(rest); next; next = goPemDecode(rest)) {
    rest = next.rest;
    if (next.block.type === 'PRIVATE KEY' || next.block.type.endsWith(' PRIVATE KEY')) {
      keyBlock = next.block;
      break;
    }
    skipped.push(next.block.type);
  }
  if (!keyBlock) {
    if (skipped.length === 0) return 'tls: failed to find any PEM data in key input';
    if (skipped.length === 1 && skipped[0] === 'CERTIFICATE') return 'tls: found a certificate rather than a key in the PEM for the private key';
    return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${goList(skipped)}`;
  }
  let pub: KeyObject;
  try {
    pub = new X509Certificate(Buffer.from(certs[0]!.bytes)).publicKey;
  } catch {
    return undefined;
  }
  const priv = parsePrivateKey(Buffer.from(keyBlock.bytes));
  if (typeof priv === 'string') return priv;
  const pubType = pub.asymmetricKeyType;
  if (pubType !== 'rsa' && pubType !== 'ec' && pubType !== 'ed25519') return 'tls: unknown public key algorithm';
  if (priv.asymmetricKeyType !== pubType) return 'tls: private key type does not match public key type';
  const spki = (k: KeyObject) => k.export({ format: 'der', type: 'spki' });
  return spki(pub).equals(spki(createPublicKey(priv))) ? undefined : 'tls: private key does not match public key';
}

/** warningsForSecret: the API server's warnings for a Secret that passed validation. */
export function secretWarnings(secret: Secret, fromStringData: ReadonlySet<string> = new Set()): FieldErr[] {
  if (secret.type !== SECRET_TYPE.tls) return [];
  const data = secret.data ?? {};
  const bytes = (k: string) => Buffer.from(data[k] ?? '', 'base64');
  const err = tlsKeyPairError(bytes('tls.crt'), bytes('tls.key'));
  if (!err) return [];
  // a warning without a field (kubectl: `Warning: <text>`); shown at the certificate or the key
  const at = err.includes('certificate input') ? 'tls.crt' : 'tls.key';
  return [F.warning('', err, { loc: fromStringData.has(at) ? `stringData[${at}]` : `data[${at}]`, at: 'key' })];
}
