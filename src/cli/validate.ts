// `podlab validate FILE... [--json]`: the editor's validator on the command line. Exit 0 when
// every Pod is valid, 1 when any error, 2 when a file cannot be read. Loads no Docker code.
import { readFileSync } from 'node:fs';
import { validateText, type Problem } from '../validation/index.js';
import { cannotRead, parse } from './args.js';

interface JsonProblem {
  file: string;
  document: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: 'error' | 'warning';
  field: string;
  type: string;
  detail: string;
  message: string;
  /** `podlab` for Pod Lab's own warnings (fields the lab cannot honour); `admission` for the admission chain's refusal (a 403); absent for validation's. */
  source?: string;
}

const toJson = (file: string, p: Problem): JsonProblem => ({
  file,
  document: p.document,
  line: p.line,
  column: p.column,
  endLine: p.endLine,
  endColumn: p.endColumn,
  severity: p.severity,
  field: p.field,
  type: p.type,
  detail: p.detail,
  message: p.message,
  ...(p.source ? { source: p.source } : {}),
});

export async function runValidate(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv, { json: { type: 'boolean' } });
  } catch (e) {
    err.write(`error: ${(e as Error).message}\n`);
    return 2;
  }
  const json = !!parsed.values.json;
  const files = parsed.positionals;
  if (files.length === 0) {
    err.write('error: validate takes at least one FILE\n');
    return 2;
  }
  const all: JsonProblem[] = [];
  let unreadable = false;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      err.write(`error: ${cannotRead(file, e)}\n`);
      unreadable = true;
      continue;
    }
    const result = validateText(text);
    for (const p of result.problems) all.push(toJson(file, p));
    // What was not checked is said (on stderr), as run says what it skips: silence would read as "valid".
    const objects = result.documents.filter((d) => d.skipReason !== 'empty document');
    if (objects.length === 0) err.write(`${file}: no Kubernetes object in it: nothing checked\n`);
    for (const d of objects) {
      if (d.kind && d.kind !== 'Pod' && d.kind !== 'ConfigMap' && d.kind !== 'Secret' && !d.problems.some((p) => p.severity === 'error')) {
        err.write(`${file}: document ${d.index + 1} (${d.kind}) not checked: Pod Lab checks Pods, ConfigMaps and Secrets only\n`);
      }
    }
  }
  if (json) out.write(`${JSON.stringify(all)}\n`);
  else for (const p of all) out.write(`${p.file}:${p.line}:${p.column}: ${p.source === 'podlab' ? 'lab warning' : p.severity}: ${p.message}\n`);
  if (unreadable) return 2;
  return all.some((p) => p.severity === 'error') ? 1 : 0;
}
