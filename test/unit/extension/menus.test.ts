// The editor's menus (package.json contributes.menus): Run Pod is offered on manifests the user
// edits, not on the read-only live YAML of a pod (scheme podlab-yaml), where it could only fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { contributes: { menus: Record<string, { command: string; when?: string }[]> } };

test('every editor menu entry of Run Pod and Run Pod in Step Mode leaves out the live YAML documents', () => {
  const entries = Object.entries(pkg.contributes.menus)
    .filter(([menu]) => menu.startsWith('editor/'))
    .flatMap(([menu, items]) => items.filter((i) => i.command === 'podlab.runPod' || i.command === 'podlab.runPodStepMode').map((i) => ({ menu, command: i.command, when: i.when ?? '' })));
  assert.ok(entries.length >= 2, JSON.stringify(entries));
  assert.deepEqual(
    entries.filter((e) => !/resourceScheme != podlab-yaml/.test(e.when)),
    [],
  );
});
