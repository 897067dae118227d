// Format checks of k8s.io/apimachinery/pkg/util/validation (and api/validate/content), returning the
// upstream message list (empty when valid). Messages are the v1.35 texts.

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = msg + ' (e.g. ';
  examples.forEach((ex, i) => {
    if (i > 0) s += ' or ';
    s += `'${ex}', `;
  });
  return s + `regex used for validation is '${fmt}')`;
}
const maxLen = (n: number) => `must be no more than ${n} characters`;
const maxLenBytes = (n: number) => `must be no more than ${n} bytes`;

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
export const DNS1123_LABEL_MSG = regexError(
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
  dns1123LabelFmt,
  'my-name',
  '123-abc',
);
const dns1123SubdomainMsg = regexError(
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
  dns1123SubdomainFmt,
  'example.com',
);

export function isDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!dns1123LabelRe.test(v)) errs.push(dns1123SubdomainRe.test(v) ? 'must not contain dots' : DNS1123_LABEL_MSG);
  return errs;
}
export function isDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLen(253));
  if (!dns1123SubdomainRe.test(v)) errs.push(dns1123SubdomainMsg);
  return errs;
}
const subdomainUnderscoreFmt = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*';
const subdomainUnderscoreRe = new RegExp(`^${subdomainUnderscoreFmt}$`);
export function isDNS1123SubdomainWithUnderscore(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLen(253));
  if (!subdomainUnderscoreRe.test(v))
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
        subdomainUnderscoreFmt,
        'example.com',
      ),
    );
  return errs;
}

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export function isQualifiedName(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push('prefix part ' + m);
  } else {
    return [
      'a valid label key ' +
        regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part ' + maxLenBytes(63));
  if (!qualifiedNameRe.test(name)) errs.push('name part ' + regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc'));
  return errs;
}

const labelValueFmt = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';
const labelValueRe = new RegExp(`^${labelValueFmt}$`);
export function isValidLabelValue(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLenBytes(63));
  if (!labelValueRe.test(v))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        labelValueFmt,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  return errs;
}

export function isRelaxedEnvVarName(v: string): string[] {
  const errs: string[] = [];
  if (v.length === 0) errs.push('environment variable name must be non-empty');
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c > 0x7e || c < 0x20 || c === 0x3d) {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

const configKeyFmt = '[-._a-zA-Z0-9]+';
const configKeyRe = /^[-._a-zA-Z0-9]+$/;
export function isConfigMapKey(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLen(253));
  if (!configKeyRe.test(v))
    errs.push(
      regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", configKeyFmt, 'key.name', 'KEY_NAME', 'key-name'),
    );
  if (v === '.') errs.push("must not be '.'");
  else if (v === '..') errs.push("must not be '..'");
  else if (v.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

export const PORT_RANGE_MSG = 'must be between 1 and 65535, inclusive';
export function isValidPortNum(n: number): string[] {
  return n >= 1 && n <= 65535 ? [] : [PORT_RANGE_MSG];
}
export function isValidPortName(p: string): string[] {
  const errs: string[] = [];
  if (p.length > 15) errs.push(maxLen(15));
  if (!/^[-a-z0-9]+$/.test(p)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(p)) errs.push('must contain at least one letter (a-z)');
  if (p.includes('--')) errs.push('must not contain consecutive hyphens');
  if (p.length > 0 && (p[0] === '-' || p[p.length - 1] === '-')) errs.push('must not begin or end with a hyphen');
  return errs;
}
export const ID_RANGE_MSG = 'must be between 0 and 2147483647, inclusive';
export const isValidID = (n: number) => n >= 0 && n <= 2147483647;

const httpHeaderRe = /^[-A-Za-z0-9]+$/;
export function isHTTPHeaderName(v: string): string[] {
  return httpHeaderRe.test(v)
    ? []
    : [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", '[-A-Za-z0-9]+', 'X-Header-Name')];
}

const sysctlFmt = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';
const sysctlRe = new RegExp(sysctlFmt);
export const SYSCTL_MSG = `must have at most 253 characters and match regex ${sysctlFmt}`;
export const isValidSysctlName = (n: string) => n.length <= 253 && sysctlRe.test(n);

export const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
/** netutils.ParseIPSloppy: IPv4 dotted quad (leading zeros allowed) or IPv6. */
export function isIP(s: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(s)) return s.split('.').every((p) => Number(p) <= 255);
  if (!s.includes(':') || /[^0-9a-fA-F:.]/.test(s)) return false;
  let v = s;
  let groupsAllowed = 8;
  const lastColon = v.lastIndexOf(':');
  const tail = v.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIP(tail) || tail.includes(':')) return false;
    v = v.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = v.split('::');
  if (dbl.length > 2) return false;
  const groups = (x: string) => (x === '' ? [] : x.split(':'));
  const all = dbl.flatMap(groups);
  if (all.some((g) => g.length === 0 || g.length > 4)) return false;
  if (dbl.length === 2) return all.length < groupsAllowed;
  return all.length === groupsAllowed;
}

export const FILE_MODE_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';

/** validation.IsValidPathSegmentName-like relative path checks used by volumes (validateLocalDescendingPath). */
export function relativePathErrors(p: string): string[] {
  const errs: string[] = [];
  if (p.startsWith('/')) errs.push('must be a relative path');
  errs.push(...noBacksteps(p));
  return errs;
}
/** validatePathNoBacksteps: any `..` element */
export function noBacksteps(p: string): string[] {
  const parts = p.split('/');
  return parts.includes('..') ? ["must not contain '..'"] : [];
}

/** apimachinery NameIsDNSSubdomain(name, prefix): with prefix, a trailing dash is masked (upstream drops two characters and appends 'a'). */
export function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  let n = name;
  if (prefix && n.length > 1 && n.endsWith('-')) n = n.slice(0, -2) + 'a';
  return isDNS1123Subdomain(n);
}

/** ValidateLocalNonReservedPath: relative, no `..` element, not starting with `..`. */
export function localNonReservedPathErrors(p: string): string[] {
  const errs = relativePathErrors(p);
  if (p.startsWith('..') && !p.startsWith('../')) errs.push("must not start with '..'");
  return errs;
}
