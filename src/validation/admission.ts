// The default admission chain's mutations of a created pod that the lab makes (and the Priority
// plugin's refusal, priorityRefusal), after defaulting and before validation (pod-validation-rules.md §1 step 4; upstream plugin/pkg/admission/serviceaccount,
// defaulttolerationseconds and priority). Lab decisions: no ServiceAccount objects exist, so the named
// account is not looked up and no kube-api-access volume is added (there is no token or CA to
// project); no PriorityClasses exist, so a pod naming one keeps no priority (the lab warns).
import type { Pod, Toleration } from 'kubernetes-types/core/v1';

const DEFAULT_TOLERATION_SECONDS = 300;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

/** Whether one of the pod's tolerations already tolerates a NoExecute taint with this key. */
function tolerates(list: readonly Toleration[], key: string): boolean {
  return list.some((t) => (t.key === key || !t.key) && (!t.effect || t.effect === 'NoExecute'));
}

/**
 * The Priority plugin's refusal of a created pod (admission.NewForbidden's error, a 403 `pods "x"
 * is forbidden: …`), if any. With no class named and no default class it computes priority 0 and
 * PreemptLowerPriority; a pod that gives another priority, then another policy, is refused. A pod
 * naming a class is not checked (the lab has no PriorityClasses to resolve, and warns instead).
 */
export function priorityRefusal(pod: Pod): { field: 'spec.priority' | 'spec.preemptionPolicy'; detail: string } | undefined {
  const spec = pod?.spec;
  if (!spec || typeof spec !== 'object' || spec.priorityClassName) return undefined;
  if (typeof spec.priority === 'number' && spec.priority !== 0) {
    return { field: 'spec.priority', detail: `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name` };
  }
  if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== 'PreemptLowerPriority') {
    return {
      field: 'spec.preemptionPolicy',
      detail: `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name`,
    };
  }
  return undefined;
}

/** Applies the admission mutations to the pod in place and returns it. */
export function admitPod(pod: Pod): Pod {
  const spec = pod?.spec;
  if (!spec || typeof spec !== 'object') return pod;
  // ServiceAccount: the default account when none is named (the v1 API mirrors the name in the deprecated field).
  const account = spec.serviceAccountName || spec.serviceAccount || 'default';
  spec.serviceAccountName = account;
  spec.serviceAccount = account;
  // Priority: no class named and no default class, so priority 0 and the default preemption policy.
  if (!spec.priorityClassName) {
    spec.priority ??= 0;
    spec.preemptionPolicy ??= 'PreemptLowerPriority';
  }
  // DefaultTolerationSeconds: tolerate a not-ready or unreachable node for five minutes.
  if (spec.tolerations !== undefined && !Array.isArray(spec.tolerations)) return pod;
  const tolerations = spec.tolerations ?? [];
  const added = [NOT_READY, UNREACHABLE]
    .filter((key) => !tolerates(tolerations, key))
    .map((key): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS }));
  if (added.length) spec.tolerations = [...tolerations, ...added];
  return pod;
}
