// `kubectl describe configmap` and `kubectl describe secret` (staging/src/k8s.io/kubectl/pkg/describe/
// describe.go: ConfigMapDescriber.Describe, describeSecret, printLabelsMultiline,
// printAnnotationsMultiline, DescribeEvents). Pure: the object (and a ConfigMap's events) in, the
// text out, aligned like kubectl's tabwriter (minwidth 0, padding 2) after its terminal escaping
// (cli-runtime printers.WriteEscaped: ESC → `^[`, CR → `\r`). A Secret's values are never printed,
// only their sizes in bytes. No Node APIs: the extension's views may use it too.
import type { ConfigMap, Event, Secret } from 'kubernetes-types/core/v1';
import { DESCRIBE_TAB, tabwrite, timeMs } from './printer.js';
import { annotationsText, eventAge } from './describe.js';
import { LAST_APPLIED } from './config-objects.js';

const escapeTerminal = (s: string) => s.replace(/\x1b/g, '^[').replace(/\r/g, '\\r');
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortedKeys = (m: Record<string, unknown> | undefined) => Object.keys(m ?? {}).sort(byteOrder);

/** The byte length of a base64 value (Go decodes `data` and `binaryData` to []byte). */
export function base64ByteLength(v: string | undefined): number {
  const s = (v ?? '').replace(/[\s]/g, '');
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((s.length * 3) / 4) - pad);
}

function labelsMultiline(title: string, labels: Record<string, string> | undefined): string {
  const keys = sortedKeys(labels);
  if (keys.length === 0) return `${title}:\t<none>\n`;
  return keys.map((k, i) => `${i === 0 ? `${title}:\t` : '\t'}${k}=${labels![k]}\n`).join('');
}

function header(o: ConfigMap | Secret): string {
  return `Name:\t${o.metadata?.name ?? ''}\nNamespace:\t${o.metadata?.namespace ?? ''}\n${labelsMultiline('Labels', o.metadata?.labels)}${annotationsText(o.metadata?.annotations)}`;
}

/** event.SortableEvents' time. */
function eventTime(e: Event): number {
  if (e.series?.lastObservedTime) return timeMs(e.series.lastObservedTime);
  if (e.lastTimestamp) return timeMs(e.lastTimestamp);
  return timeMs(e.eventTime);
}

/** DescribeEvents: `Events:  <none>` or the table. */
function describeEvents(events: readonly Event[], now: number): string {
  if (events.length === 0) return 'Events:\t<none>\n';
  let out = 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n  ----\t------\t----\t----\t-------\n';
  for (const e of [...events].sort((a, b) => eventTime(a) - eventTime(b))) {
    const from = e.source?.component || e.reportingComponent || '';
    const message = e.involvedObject?.fieldPath ? `${e.involvedObject.fieldPath}: ${(e.message ?? '').trim()}` : (e.message ?? '').trim();
    out += `  ${e.type ?? ''}\t${e.reason ?? ''}\t${eventAge(e, now)}\t${from}\t${message}\n`;
  }
  return out;
}

/** `kubectl describe configmap NAME`: the data values as they are, binary data as sizes, then the events. */
export function describeConfigMap(cm: ConfigMap, events: readonly Event[], now: number): string {
  let text = header(cm);
  text += '\nData\n====\n';
  for (const k of sortedKeys(cm.data)) text += `${k}:\n----\n${cm.data![k]}\n\n`;
  text += '\nBinaryData\n====\n';
  for (const k of sortedKeys(cm.binaryData)) text += `${k}: ${base64ByteLength(cm.binaryData![k])} bytes\n`;
  text += '\n';
  text += describeEvents(events, now);
  return tabwrite(escapeTerminal(text), DESCRIBE_TAB);
}

/** `kubectl describe secret NAME`: the type and each key's size, never a value (but a service-account token's). */
export function describeSecret(secret: Secret): string {
  let text = header(secret);
  text += `\nType:\t${secret.type ?? ''}\n`;
  text += '\nData\n====\n';
  for (const k of sortedKeys(secret.data)) {
    const v = secret.data![k];
    if (k === 'token' && secret.type === 'kubernetes.io/service-account-token') text += `${k}:\t${decodeBase64Text(v)}\n`;
    else text += `${k}:\t${base64ByteLength(v)} bytes\n`;
  }
  return tabwrite(escapeTerminal(text), DESCRIBE_TAB);
}

/** A base64 value as UTF-8 text (for the one value kubectl shows: a service-account token). */
function decodeBase64Text(v: string | undefined): string {
  const bin = atob((v ?? '').replace(/\s/g, ''));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}
