// Pure model of an image pull's per-layer progress (Docker's JSON stream, as PullProgress).

export interface Layer {
  status: string;
  current?: number;
  total?: number;
}

/** Overall fraction (0..1) of a pull from its layers' byte counts. */
export function pullFraction(layers: Iterable<Layer>): number {
  let cur = 0;
  let tot = 0;
  let done = 0;
  let n = 0;
  for (const l of layers) {
    n++;
    if (/^(Pull complete|Already exists|Download complete)$/.test(l.status)) {
      done++;
      continue;
    }
    if (l.total && l.total > 0) {
      cur += Math.min(l.current ?? 0, l.total);
      tot += l.total;
    }
  }
  if (n === 0) return 0;
  const byteShare = tot > 0 ? cur / tot : 0;
  return Math.min(1, (done + byteShare * (n - done)) / n);
}

function mb(n: number | undefined): string {
  return n === undefined ? '?' : (n / 1e6).toFixed(1);
}

export function pullMessage(image: string, layers: Map<string, Layer>, lastStatus: string): string {
  const total = layers.size;
  const done = [...layers.values()].filter((l) => /^(Pull complete|Already exists)$/.test(l.status)).length;
  const active = [...layers.entries()].find(([, l]) => l.status === 'Downloading' || l.status === 'Extracting');
  const layerPart = total > 0 ? ` — ${done}/${total} layers` : '';
  const activePart = active ? ` · ${active[0].slice(0, 12)} ${active[1].status} ${mb(active[1].current)}/${mb(active[1].total)} MB` : lastStatus ? ` · ${lastStatus}` : '';
  return `${image}${layerPart}${activePart}`;
}

