// Where describe, live YAML and logs documents open: the group that already has one of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outputGroup, type GroupView } from '../../../src/extension/output-group.js';

const OURS = ['podlab-describe', 'podlab-yaml', 'podlab-logs'];
const manifest = { scheme: 'file', active: true };
const panel = { active: true };

const cases: { name: string; groups: GroupView[]; want: number | undefined }[] = [
  { name: 'no document of ours anywhere: none (beside the active group)', groups: [{ viewColumn: 1, tabs: [manifest] }, { viewColumn: 2, tabs: [panel] }], want: undefined },
  { name: 'a describe shown in the third group: the third', groups: [{ viewColumn: 1, tabs: [manifest] }, { viewColumn: 2, tabs: [panel] }, { viewColumn: 3, tabs: [{ scheme: 'podlab-describe', active: true }] }], want: 3 },
  {
    name: 'a logs tab behind the lifecycle panel in the second group: the second, not a new group',
    groups: [{ viewColumn: 1, tabs: [manifest] }, { viewColumn: 2, tabs: [{ scheme: 'podlab-logs', active: false }, panel] }],
    want: 2,
  },
  {
    name: 'one group shows ours, another holds one behind a tab: the one that shows it',
    groups: [{ viewColumn: 1, tabs: [manifest, { scheme: 'podlab-yaml', active: false }] }, { viewColumn: 2, tabs: [{ scheme: 'podlab-describe', active: true }] }],
    want: 2,
  },
  { name: 'two groups hold ours behind other tabs: the leftmost', groups: [{ viewColumn: 1, tabs: [manifest] }, { viewColumn: 2, tabs: [{ scheme: 'podlab-yaml', active: false }, panel] }, { viewColumn: 3, tabs: [{ scheme: 'podlab-logs', active: false }, { scheme: 'file', active: true }] }], want: 2 },
  { name: 'a file of another scheme is not ours', groups: [{ viewColumn: 1, tabs: [manifest] }, { viewColumn: 2, tabs: [{ scheme: 'untitled', active: true }] }], want: undefined },
];
for (const c of cases) test(c.name, () => assert.equal(outputGroup(c.groups, OURS), c.want));
