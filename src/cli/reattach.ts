// `podlab run` of a file whose pod already runs: the run re-attaches to it when the running pod is
// the file's (the same containers, images, commands and arguments), else it stops with the API
// server's AlreadyExists and says what differs, so the learner knows to delete the pod first. Pure;
// no kubectl counterpart (kubectl create only says AlreadyExists, kubectl apply tries an update).
import type { Container, Pod } from 'kubernetes-types/core/v1';

const FIELDS = ['image', 'command', 'args'] as const;
const WORDS: Record<(typeof FIELDS)[number], string> = { image: 'another image', command: 'another command', args: 'other arguments' };

function containersOf(pod: Pod): [string, Container[]][] {
  return [
    ['init containers', pod.spec?.initContainers ?? []],
    ['containers', pod.spec?.containers ?? []],
  ];
}

/** What differs between the running pod and the file's, in words; undefined when the run may re-attach. */
export function runningPodDifference(running: Pod, file: Pod): string | undefined {
  const theirs = new Map(containersOf(running));
  for (const [what, mine] of containersOf(file)) {
    const have = theirs.get(what) ?? [];
    const names = (cs: Container[]) => cs.map((c) => c.name).join(', ') || 'none';
    if (names(have) !== names(mine)) return `its ${what} are ${names(have)}, the file's ${names(mine)}`;
    for (const [i, c] of mine.entries()) {
      const field = FIELDS.find((f) => JSON.stringify(have[i]![f] ?? null) !== JSON.stringify(c[f] ?? null));
      if (field) return `container "${c.name}" has ${WORDS[field]} in the file`;
    }
  }
  return undefined;
}

/** The note after AlreadyExists. */
export function runningPodHint(namespace: string, name: string, difference: string): string {
  const del = `podlab delete ${name}${namespace === 'default' ? '' : ` -n ${namespace}`}`;
  return `podlab: pod "${name}" runs from another spec (${difference}): delete it first (${del}) to run the file's`;
}
