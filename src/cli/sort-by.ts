// `kubectl get --sort-by=PATH` (staging/src/k8s.io/kubectl/pkg/cmd/get/sorter.go: TableSorter for
// tables, RuntimeSort for the other outputs): the objects in the order of the value the path finds
// first in each, compared as kubectl's isLess compares unstructured values. Pure.
import { goTypeName, jsonPathResults, parseJsonPath, relaxedJsonPath } from '../shared/jsonpath.js';
import { cmpQ, parseQuantity } from '../validation/quantity.js';
import { goQuote } from '../shared/go.js';

class Unsortable extends Error {}

/** Go's string comparison: byte by byte in UTF-8. */
const goLess = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0;

const isInt64 = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 63;

/**
 * isLess for two values of unstructured objects (each an interface{}): nil first; int64 with int64,
 * float64 with float64; strings as quantities when both parse as one (`100m` < `1`), else byte by
 * byte; anything else is unsortable.
 */
function isLess(i: unknown, j: unknown): boolean {
  if (i === null && j === null) return false;
  if (i === null) return true;
  if (j === null) return false;
  if (typeof i === 'number') {
    const iInt = isInt64(i);
    if (typeof j === 'number' && isInt64(j) === iInt) return i < j;
  } else if (typeof i === 'string') {
    if (typeof j === 'string') {
      const qi = parseQuantity(i);
      const qj = typeof qi === 'string' ? qi : parseQuantity(j);
      if (typeof qi === 'string' || typeof qj === 'string') return goLess(i, j);
      return cmpQ(qi, qj) < 0;
    }
  } else throw new Unsortable(`unsortable type: ${goTypeName(i as Parameters<typeof goTypeName>[0])}`);
  throw new Unsortable('unsortable interface: interface');
}

/**
 * The objects sorted by the path (`.metadata.name`, `{.status.phase}`), as kubectl sorts a table's
 * rows (`table`) or a list's items: Go's sort.Sort, whose insertion sort handles up to 12 items —
 * used here for any number (beyond 12 kubectl's pdqsort may order equal values otherwise). An object
 * without the value sorts before the others. Or kubectl's error; `fatal`: kubectl exits through
 * klog from sorter.go at that line (an unsortable value).
 */
export function sortByPath<T>(objects: readonly T[], path: string, table: boolean, objectOf: (x: T) => unknown = (x) => x): T[] | { error: string; fatal?: { line: number } } {
  let field = relaxedJsonPath(path);
  if (typeof field !== 'string') {
    if (!table) return field;
    // the table sorter takes the path as written when it is not a relaxed one
    field = path;
  }
  const template = parseJsonPath(field);
  if ('error' in template) return { error: table ? `sorting error: ${template.error}` : template.error };
  const keys: unknown[][][] = [];
  for (const o of objects) {
    const r = jsonPathResults(template, objectOf(o));
    if ('error' in r) return { error: table ? `Failed to get values for [][]reflect.Value(nil) using ${field} (&errors.errorString{s:${goQuote(r.error)}})` : r.error };
    keys.push(r);
  }
  if (objects.length && !keys.some((k) => k.length > 0 && k[0]!.length > 0)) return { error: `couldn't find any field with path "${field}" in the list of objects` };
  const items = objects.map((o, ix) => ({ o, k: keys[ix]! }));
  const less = (a: (typeof items)[number], b: (typeof items)[number]) => {
    if (a.k.length === 0 || a.k[0]!.length === 0) return true;
    if (b.k.length === 0 || b.k[0]!.length === 0) return false;
    return isLess(a.k[0]![0], b.k[0]![0]);
  };
  try {
    for (let i = 1; i < items.length; i++) {
      for (let j = i; j > 0 && less(items[j]!, items[j - 1]!); j--) [items[j], items[j - 1]] = [items[j - 1]!, items[j]!];
    }
  } catch (e) {
    if (!(e instanceof Unsortable)) throw e;
    // kubectl ends with klog.Exitf from inside the sort (TableSorter.Less or RuntimeSort.Less)
    return { error: `Field ${field} in ${table ? '[][][]reflect.Value' : '*unstructured.Unstructured'} is an unsortable type: interface, err: ${e.message}`, fatal: { line: table ? 375 : 329 } };
  }
  return items.map((x) => x.o);
}

/** klog's line for Exitf (`F1124 14:25:13.829092   18144 sorter.go:375] message`), in local time. */
export function klogFatal(message: string, file: string, line: number, now: Date, pid: number): string {
  const p2 = (n: number) => String(n).padStart(2, '0');
  const micros = String(now.getMilliseconds() * 1000).padStart(6, '0');
  return `F${p2(now.getMonth() + 1)}${p2(now.getDate())} ${p2(now.getHours())}:${p2(now.getMinutes())}:${p2(now.getSeconds())}.${micros} ${String(pid).padStart(7)} ${file}:${line}] ${message}\n`;
}
