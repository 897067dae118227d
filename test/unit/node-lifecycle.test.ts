// The node lifecycle controller's NoSchedule tainting of a cordoned node (pkg/controller/
// nodelifecycle doNoScheduleTaintingPass, SwapNodeControllerTaint): while spec.unschedulable is
// true the node carries node.kubernetes.io/unschedulable:NoSchedule with the time it was added
// (kubectl describe node: `Taints: node.kubernetes.io/unschedulable:NoSchedule`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Taint } from 'kubernetes-types/core/v1';
import { unschedulableTaints } from '../../src/engine/node.js';
import { fakeLab } from '../support/fake-engine.js';

const T = Date.parse('2026-11-25T10:00:00Z');
const node = (spec: Node['spec']): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec });
const other: Taint = { key: 'gpu', value: 'true', effect: 'NoSchedule' };
const cordonTaint: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2026-11-25T10:00:00Z' };

test('the taints a node should carry for its unschedulable flag (undefined: they stay as they are)', () => {
  const cases: [string, Node['spec'], Taint[] | undefined][] = [
    ['schedulable, no taint: nothing to do', {}, undefined],
    ['cordoned: the taint is added with the time', { unschedulable: true }, [cordonTaint]],
    ['cordoned with another taint: added after it', { unschedulable: true, taints: [other] }, [other, cordonTaint]],
    ['cordoned and tainted already: nothing to do', { unschedulable: true, taints: [{ ...cordonTaint, timeAdded: '2026-11-25T09:00:00Z' }] }, undefined],
    ['uncordoned: the taint goes, the others stay', { taints: [other, cordonTaint] }, [other]],
    ['uncordoned, the taint alone: none left', { unschedulable: false, taints: [cordonTaint] }, []],
  ];
  const got = cases.map(([name, spec]) => [name, unschedulableTaints(node(spec), T)]);
  assert.deepEqual(got, cases.map(([name, , want]) => [name, want]));
});

test('kubectl cordon then uncordon: the lab node is tainted, then not (no empty taints list left)', async () => {
  const lab = await fakeLab();
  const name = lab.engine.listNodes()[0]!.metadata!.name!;
  const taints = () => lab.engine.listNodes()[0]!.spec?.taints;
  const setUnschedulable = (v: boolean) => (lab.engine as unknown as { store: { update(k: 'Node', ns: undefined, n: string, f: (o: Node) => void): void } }).store.update('Node', undefined, name, (o) => void ((o as { spec: Node['spec'] }).spec = { ...o.spec, unschedulable: v }));
  setUnschedulable(true);
  await lab.clock.advanceAsync(10);
  const cordoned = taints();
  setUnschedulable(false);
  await lab.clock.advanceAsync(10);
  assert.deepEqual([cordoned?.map((t) => `${t.key}:${t.effect} ${!!t.timeAdded}`), taints()], [['node.kubernetes.io/unschedulable:NoSchedule true'], undefined]);
  await lab.close();
});
