// The kubelet's prober (upstream pkg/kubelet/prober, pkg/probe): what the kubelet wires in.
export { ProberManager, type ProberManagerOptions, type ProbeHistory, type ProbeRun, type ProbeUpdate, type WorkerSnapshot } from './manager.js';
export { PROBE_TYPES, probeTypeString, withProbeDefaults, type DefaultedProbe, type ProbeType } from './defaults.js';
export { probeRunner, runProbeOnce, runProbeWithRetries, expandCommandOnlyStatic, type HandlerDeps, type ProbeRequest, type ProbeRunner } from './handlers.js';
export type { ProbeOutcome, ProbeStatus, Result } from './worker.js';
