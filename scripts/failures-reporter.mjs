// A node:test reporter that prints, once the run ends, every failed test with its suite path,
// file and line and the first lines of its error. The TAP stream before it is long: CI logs are
// often read from the end, and this makes the failures the last thing printed.
const MAX_LINES = 12;

export default async function* failuresReporter(source) {
  const path = [];
  const failures = [];
  for await (const e of source) {
    if (e.type === 'test:start') path[e.data.nesting] = e.data.name;
    if (e.type !== 'test:fail') continue;
    const err = e.data.details?.error;
    if (err?.failureType === 'subtestsFailed') continue; // its failed subtests are listed
    const where = e.data.file ? `${e.data.file.replace(`${process.cwd()}/`, '')}${e.data.line ? `:${e.data.line}` : ''}` : '';
    const msg = String(err?.cause?.stack ?? err?.cause?.message ?? err?.message ?? err).split('\n').slice(0, MAX_LINES);
    failures.push([`✖ ${[...path.slice(0, e.data.nesting), e.data.name].join(' › ')}`, where && `  at ${where}`, ...msg.map((l) => `    ${l}`)].filter(Boolean).join('\n'));
  }
  if (failures.length === 0) return;
  yield `\n# ${failures.length} failed test(s):\n${failures.join('\n\n')}\n`;
}
