// Probe defaults (upstream pkg/apis/core/v1/defaults.go SetDefaults_Probe, SetDefaults_HTTPGetAction)
// and the probe type names the prober writes into events (pkg/kubelet/prober/prober_manager.go
// probeType.String). The validator's defaulting has usually applied the defaults already; the
// prober applies them again so a pod object that skipped defaulting probes the same way.
import type { Container, Probe } from 'kubernetes-types/core/v1';

export type ProbeType = 'liveness' | 'readiness' | 'startup';

/** The order in which upstream AddPod creates a container's workers. */
export const PROBE_TYPES: readonly ProbeType[] = ['startup', 'readiness', 'liveness'];

/** probeType.String(): the word that starts every probe event message. */
export function probeTypeString(t: ProbeType): 'Liveness' | 'Readiness' | 'Startup' {
  return t === 'liveness' ? 'Liveness' : t === 'readiness' ? 'Readiness' : 'Startup';
}

/** A probe with SetDefaults_Probe applied: every timing field is a number. */
export type DefaultedProbe = Probe & {
  timeoutSeconds: number;
  periodSeconds: number;
  successThreshold: number;
  failureThreshold: number;
  initialDelaySeconds: number;
};

/** SetDefaults_Probe + SetDefaults_HTTPGetAction: a copy with the defaults filled in (zero counts as unset, as in Go). */
export function withProbeDefaults(p: Probe): DefaultedProbe {
  const out: DefaultedProbe = {
    ...p,
    timeoutSeconds: p.timeoutSeconds || 1,
    periodSeconds: p.periodSeconds || 10,
    successThreshold: p.successThreshold || 1,
    failureThreshold: p.failureThreshold || 3,
    initialDelaySeconds: p.initialDelaySeconds ?? 0,
  };
  if (p.httpGet) out.httpGet = { ...p.httpGet, path: p.httpGet.path || '/', scheme: p.httpGet.scheme || 'HTTP' };
  return out;
}

/** The container's probe of a type, or undefined. */
export function probeOf(c: Container, t: ProbeType): Probe | undefined {
  return t === 'liveness' ? c.livenessProbe : t === 'readiness' ? c.readinessProbe : c.startupProbe;
}
