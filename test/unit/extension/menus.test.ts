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

// Keybindings (contributes.keybindings): Run Pod and Show Lifecycle have keys in a YAML editor, as
// the README says (Ctrl+Alt+R, Ctrl+Alt+L; Cmd on a Mac); Run Pod's is not bound in a read-only
// editor (a pod's live YAML), where it could only fail.
test('Run Pod and Show Lifecycle are bound to the keys the README names, in YAML editors', () => {
  const p = pkg as unknown as { contributes: { keybindings: { command: string; key: string; mac?: string; when?: string }[]; commands: { command: string }[] } };
  const bound = p.contributes.keybindings.map((k) => ({ command: k.command, key: k.key, mac: k.mac, when: k.when }));
  assert.deepEqual(bound, [
    { command: 'podlab.runPod', key: 'ctrl+alt+r', mac: 'cmd+alt+r', when: 'editorLangId == yaml && !editorReadonly' },
    { command: 'podlab.showLifecycle', key: 'ctrl+alt+l', mac: 'cmd+alt+l', when: 'editorLangId == yaml' },
  ]);
  const commands = new Set(p.contributes.commands.map((c) => c.command));
  for (const k of bound) assert.ok(commands.has(k.command), `${k.command} is a contributed command`);
  const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
  assert.match(readme, /Ctrl\+Alt\+R runs the Pod file in the editor, Ctrl\+Alt\+L shows its lifecycle/);
});
