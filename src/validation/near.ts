// Near misses by edit distance: what a misspelt word probably meant (a field name, an enum value,
// a kind, a command). A leaf module, pure.

/**
 * The optimal-string-alignment Damerau–Levenshtein distance: insertions, deletions, substitutions
 * and transpositions of two adjacent characters each cost 1 (`comand`→`command` 1, `evn`→`env` 1).
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur.push(d);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** How far a word may be from a candidate to count as a near miss: 1 up to 4 characters, 2 up to 8, 3 beyond. */
export const nearMissLimit = (word: string) => (word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3);

export interface Near {
  name: string;
  /** distance ignoring case (0: the same word in another case) */
  distance: number;
}

/**
 * The candidates within `max` (default nearMissLimit) of `word`, nearest first: by the distance
 * ignoring case, then by the distance with case, then in the candidates' order; at most `limit`.
 */
export function nearest(word: string, candidates: readonly string[], max = nearMissLimit(word), limit = 3): Near[] {
  const lw = word.toLowerCase();
  return candidates
    .map((name, i) => ({ name, distance: editDistance(lw, name.toLowerCase()), exact: editDistance(word, name), i }))
    .filter((c) => c.distance <= max && c.name !== word)
    .sort((x, y) => x.distance - y.distance || x.exact - y.exact || x.i - y.i)
    .slice(0, limit)
    .map(({ name, distance }) => ({ name, distance }));
}

