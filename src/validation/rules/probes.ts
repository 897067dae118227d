// Probes and lifecycle hooks (pod-validation-rules.md §10): exactly one handler, handler contents,
// thresholds, successThreshold 1 for liveness/startup, no terminationGracePeriodSeconds on readiness.
import type { Container, Lifecycle, LifecycleHandler, Probe } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { isHTTPHeaderName, isValidPortName, isValidPortNum } from '../formats.js';

type Handler = { exec?: { command?: string[] }; httpGet?: LifecycleHandler['httpGet']; tcpSocket?: LifecycleHandler['tcpSocket']; grpc?: { port?: number }; sleep?: { seconds?: number } };

export const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const NONNEG = 'must be greater than or equal to 0';

/** ValidatePortNumOrName: an int must be a port number, a string (even "8080") a port name. */
export function portNumOrName(port: number | string | undefined, path: string): FieldErr[] {
  if (typeof port === 'string') return isValidPortName(port).map((m) => F.invalid(path, port, m));
  const n = port ?? 0;
  return isValidPortNum(n).map((m) => F.invalid(path, n, m));
}

function handlerContents(kind: keyof Handler, h: Handler, path: string, grace: number | undefined): FieldErr[] {
  const out: FieldErr[] = [];
  switch (kind) {
    case 'exec':
      if (!h.exec?.command?.length) out.push(F.required(`${path}.command`));
      break;
    case 'httpGet': {
      const g = h.httpGet!;
      if (!g.path) out.push(F.required(`${path}.path`));
      out.push(...portNumOrName(g.port, `${path}.port`));
      const scheme = g.scheme ?? '';
      if (!HTTP_SCHEMES.includes(scheme)) out.push(F.notSupported(`${path}.scheme`, scheme, HTTP_SCHEMES));
      (g.httpHeaders ?? []).forEach((hd, i) => {
        for (const m of isHTTPHeaderName(hd?.name ?? '')) out.push(F.invalid(`${path}.httpHeaders`, hd?.name ?? '', m, { loc: `${path}.httpHeaders[${i}].name` }));
      });
      break;
    }
    case 'tcpSocket':
      out.push(...portNumOrName(h.tcpSocket!.port, `${path}.port`));
      break;
    case 'grpc':
      out.push(...portNumOrName(h.grpc!.port ?? 0, `${path}.port`));
      break;
    case 'sleep': {
      const s = h.sleep!.seconds ?? 0;
      if (grace !== undefined && (s < 0 || s > grace)) {
        out.push(F.invalid(path, s, `must be non-negative and less than terminationGracePeriodSeconds (${grace})`));
      }
      break;
    }
  }
  return out;
}

/** validateHandler: every handler after the first is Forbidden; none at all is Required. */
export function validateHandler(h: Handler, kinds: (keyof Handler)[], path: string, grace: number | undefined): FieldErr[] {
  const out: FieldErr[] = [];
  let n = 0;
  for (const k of kinds) {
    if (h[k] === undefined || h[k] === null) continue;
    if (n > 0) out.push(F.forbidden(`${path}.${k}`, 'may not specify more than 1 handler type', { at: 'key' }));
    else {
      n++;
      out.push(...handlerContents(k, h, `${path}.${k}`, grace));
    }
  }
  if (n === 0) out.push(F.required(path, 'must specify a handler type', { at: 'key' }));
  return out;
}

const PROBE_HANDLERS: (keyof Handler)[] = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const HOOK_HANDLERS: (keyof Handler)[] = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

export type ProbeKind = 'livenessProbe' | 'readinessProbe' | 'startupProbe';

export function validateProbe(p: Probe | undefined, kind: ProbeKind, path: string, grace: number | undefined): FieldErr[] {
  if (!p) return [];
  const out = validateHandler(p as Handler, PROBE_HANDLERS, path, grace);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    const v = p[f] ?? 0;
    if (v < 0) out.push(F.invalid(`${path}.${f}`, v, NONNEG));
  }
  if (p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds <= 0) {
    out.push(F.invalid(`${path}.terminationGracePeriodSeconds`, p.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
  if (kind !== 'readinessProbe' && (p.successThreshold ?? 0) !== 1) out.push(F.invalid(`${path}.successThreshold`, p.successThreshold ?? 0, 'must be 1'));
  if (kind === 'readinessProbe' && p.terminationGracePeriodSeconds !== undefined) {
    out.push(F.invalid(`${path}.terminationGracePeriodSeconds`, p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return out;
}

export function validateLifecycle(l: Lifecycle | undefined, path: string, grace: number | undefined): FieldErr[] {
  if (!l) return [];
  const out: FieldErr[] = [];
  if (l.postStart) out.push(...validateHandler(l.postStart as Handler, HOOK_HANDLERS, `${path}.postStart`, grace));
  if (l.preStop) out.push(...validateHandler(l.preStop as Handler, HOOK_HANDLERS, `${path}.preStop`, grace));
  return out;
}

/** Lifecycle and the three probes of a regular container or a sidecar, in upstream order. */
export function validateProbesAndLifecycle(c: Container, path: string, grace: number | undefined): FieldErr[] {
  return [
    ...validateLifecycle(c.lifecycle, `${path}.lifecycle`, grace),
    ...validateProbe(c.livenessProbe, 'livenessProbe', `${path}.livenessProbe`, grace),
    ...validateProbe(c.readinessProbe, 'readinessProbe', `${path}.readinessProbe`, grace),
    ...validateProbe(c.startupProbe, 'startupProbe', `${path}.startupProbe`, grace),
  ];
}
