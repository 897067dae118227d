// PODLAB_TRACE=1: logs every runtime call with its start time and duration (a debugging aid and
// the way to see where start-up time goes).
import type { RuntimeService } from './cri.js';

export function traceRuntime(rt: RuntimeService, log: (line: string) => void): RuntimeService {
  const t0 = performance.now();
  return new Proxy(rt, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        const start = performance.now();
        const r = (v as (...a: unknown[]) => unknown).apply(target, args);
        const done = () => log(`${(start - t0).toFixed(0).padStart(6)} ms +${(performance.now() - start).toFixed(0).padStart(4)} ms ${String(key)}`);
        if (r instanceof Promise) r.then(done, done);
        return r;
      };
    },
  });
}
