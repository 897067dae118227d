// Downward API field paths as the volume plugins read them (upstream pkg/fieldpath/fieldpath.go:
// ExtractFieldPathAsString, FormatMap, SplitMaybeSubscriptedPath) and Go's `%q` quoting
// (strconv.Quote), which FormatMap uses for values. Pure.
import type { Pod } from 'kubernetes-types/core/v1';

export { goQuote } from '../../../shared/go.js';
import { goQuote } from '../../../shared/go.js';

/** Go's string ordering: byte-wise over UTF-8. */
export function compareGoStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** fieldpath.FormatMap: `key="value"` lines (Go %q), sorted by key, joined by `\n`, no trailing newline. */
export function formatMap(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort(compareGoStrings);
  return keys.map((k) => `${k}=${goQuote(m![k]!)}`).join('\n');
}

/** SplitMaybeSubscriptedPath: `metadata.annotations['k']` → [`metadata.annotations`, `k`]. */
export function splitMaybeSubscriptedPath(fieldPath: string): { path: string; subscript: string; ok: boolean } {
  if (!fieldPath.endsWith("']")) return { path: fieldPath, subscript: '', ok: false };
  const s = fieldPath.slice(0, -2);
  const i = s.indexOf("['");
  if (i <= 0) return { path: fieldPath, subscript: '', ok: false };
  return { path: s.slice(0, i), subscript: s.slice(i + 2), ok: true };
}

/**
 * ExtractFieldPathAsString over a pod, as downwardAPI volume items use it: metadata.name,
 * namespace, uid, labels, annotations (whole maps through FormatMap, or one key with a subscript).
 * Returns the value or the upstream error text. (The API server has already checked subscript keys.)
 */
export function extractFieldPathAsString(pod: Pod, fieldPath: string): { value: string } | { error: string } {
  const md = pod.metadata ?? {};
  const sp = splitMaybeSubscriptedPath(fieldPath);
  if (sp.ok) {
    switch (sp.path) {
      case 'metadata.annotations':
        return { value: md.annotations?.[sp.subscript] ?? '' };
      case 'metadata.labels':
        return { value: md.labels?.[sp.subscript] ?? '' };
      default:
        return { error: `fieldPath ${goQuote(fieldPath)} does not support subscript` };
    }
  }
  switch (fieldPath) {
    case 'metadata.annotations':
      return { value: formatMap(md.annotations) };
    case 'metadata.labels':
      return { value: formatMap(md.labels) };
    case 'metadata.name':
      return { value: md.name ?? '' };
    case 'metadata.namespace':
      return { value: md.namespace ?? 'default' };
    case 'metadata.uid':
      return { value: md.uid ?? '' };
  }
  return { error: `unsupported fieldPath: ${fieldPath}` };
}
