// Name and key syntax checks from k8s.io/apimachinery/pkg/util/validation, returning the same
// message strings (each message becomes the detail of an Invalid field error).

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** Upstream's RegexError, including its odd `'a',  or 'b'` spacing. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) s += ' or ';
    s += `'${ex}', `;
  });
  return `${s}regex used for validation is '${fmt}')`;
}

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
export const DNS1123_LABEL_MAX = 63;

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!DNS1123_LABEL_RE.test(value)) errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
export const DNS1123_SUBDOMAIN_MAX = 253;

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!DNS1035_LABEL_RE.test(value)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

const WILDCARD_FMT = `\\*\\.${DNS1123_SUBDOMAIN_FMT}`;
const WILDCARD_MSG = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const WILDCARD_RE = new RegExp(`^${WILDCARD_FMT}$`);

export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!WILDCARD_RE.test(value)) errs.push(regexError(WILDCARD_MSG, WILDCARD_FMT, '*.example.com'));
  return errs;
}

const QNAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QNAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QNAME_RE = new RegExp(`^${QNAME_FMT}$`);
const QNAME_MAX = 63;

/** Names found qualified (label and annotation keys, resource names repeat on every write): checked once each. */
const qualifiedNames = new Set<string>();

/** Label keys, annotation keys (lower-cased first), finalizers: `[prefix/]name`. */
export function isQualifiedName(value: string): string[] {
  if (qualifiedNames.has(value)) return [];
  const errs = qualifiedNameErrors(value);
  if (errs.length === 0 && qualifiedNames.size < 8192) qualifiedNames.add(value);
  return errs;
}

function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [
      `a qualified name ${regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (name.length > QNAME_MAX) errs.push(`name part ${maxLenError(QNAME_MAX)}`);
  if (!QNAME_RE.test(name)) errs.push(`name part ${regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

const LABEL_VALUE_FMT = `(${QNAME_FMT})?`;
const LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > QNAME_MAX) errs.push(maxLenError(QNAME_MAX));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

const CONFIG_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const CONFIG_KEY_RE = new RegExp(`^${CONFIG_KEY_FMT}$`);

function chDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** Keys of ConfigMap data/binaryData and Secret data. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!CONFIG_KEY_RE.test(value)) errs.push(regexError(CONFIG_KEY_MSG, CONFIG_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  errs.push(...chDirPrefix(value));
  return errs;
}

const ENV_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_NAME_MSG = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const ENV_NAME_RE = new RegExp(`^${ENV_NAME_FMT}$`);

export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!ENV_NAME_RE.test(value)) errs.push(regexError(ENV_NAME_MSG, ENV_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  errs.push(...chDirPrefix(value));
  return errs;
}

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IANA_SVC_NAME as v1.23 words it. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter or number (a-z, 0-9)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

const PERCENT_FMT = '[0-9]+%';
export function isValidPercent(value: string): string[] {
  return /^[0-9]+%$/.test(value) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%')];
}

/** Names of RBAC objects (path.IsValidPathSegmentName); `prefix` is the generateName variant. */
export function isValidPathSegmentName(name: string, prefix = false): string[] {
  if (!prefix) {
    for (const bad of ['.', '..']) if (name === bad) return [`may not be '${bad}'`];
  }
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

export function isValidIPv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
}

export function isValidIP(value: string): boolean {
  if (isValidIPv4(value)) return true;
  // IPv6: at most one '::', 1-4 hex digit groups, optional trailing dotted quad.
  if (!/^[0-9a-fA-F:.]+$/.test(value) || !value.includes(':')) return false;
  const halves = value.split('::');
  if (halves.length > 2) return false;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const all = [...groups(halves[0]), ...(halves.length === 2 ? groups(halves[1]) : [])];
  let count = 0;
  for (let i = 0; i < all.length; i++) {
    const g = all[i];
    if (i === all.length - 1 && g.includes('.')) {
      if (!isValidIPv4(g)) return false;
      count += 2;
    } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count < 8 : count === 8;
}

export type NameRule = 'subdomain' | 'label' | 'dns1035-label' | 'path-segment' | 'none';

/**
 * Upstream's ValidateNameFunc(name, prefix): with prefix (generateName) a trailing '-' is masked
 * the way maskTrailingDash does it (the last two characters become "a").
 */
export function validateName(rule: NameRule, name: string, prefix: boolean): string[] {
  const masked = prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
  switch (rule) {
    case 'subdomain':
      return isDNS1123Subdomain(masked);
    case 'label':
      return isDNS1123Label(masked);
    case 'dns1035-label':
      return isDNS1035Label(masked);
    case 'path-segment':
      return isValidPathSegmentName(name, prefix);
    case 'none':
      return [];
  }
}
