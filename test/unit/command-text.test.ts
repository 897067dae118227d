// The panel's command and args labels say what the container really runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argsText, commandText } from '../../webview/command-text.js';

for (const [name, command, args, want] of [
  ['neither set: the image ENTRYPOINT and CMD run', [], [], ['(image ENTRYPOINT)', '(image CMD)']],
  ['only args set: the image ENTRYPOINT runs with these args', [], ['-v'], ['(image ENTRYPOINT)', '["-v"]']],
  ['command set without args: the image CMD is ignored, there are no args', ['sh', '-c', 'exit 1'], [], ['["sh","-c","exit 1"]', '(none: command is set, so the image CMD is not used)']],
  ['both set: both as given', ['sh', '-c'], ['echo hi'], ['["sh","-c"]', '["echo hi"]']],
] as const) {
  test(`command text: ${name}`, () => assert.deepEqual([commandText(command), argsText(command, args)], want));
}
