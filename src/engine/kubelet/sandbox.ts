// Sandbox configuration: what the kubelet asks the runtime for when it creates a pod's sandbox
// (upstream pkg/kubelet/kuberuntime/kuberuntime_sandbox.go generatePodSandboxConfig, and
// kubelet_pods.go GeneratePodHostNameAndDomain). Pure.
import { join } from 'node:path';
import type { Pod } from 'kubernetes-types/core/v1';
import type { PodSandboxConfig } from '../../runtime/cri.js';
import * as L from '../../shared/labels.js';

/**
 * The node's address when the runtime does not report the host's address on the pods' network: host
 * ports are published on the Docker host, reachable there at loopback.
 */
export const NODE_IP = '127.0.0.1';
/** The lab's cluster domain (kubelet --cluster-domain). */
export const CLUSTER_DOMAIN = 'cluster.local';

export function podDir(stateDir: string, uid: string): string {
  return join(stateDir, 'pods', uid);
}

/** The DNS-1123 label limit for a hostname. */
const HOSTNAME_MAX = 63;

/** Cuts a hostname to 63 characters and trims trailing `-` and `.` (truncatePodHostnameIfNeeded). */
export function truncateHostname(name: string): string {
  if (name.length <= HOSTNAME_MAX) return name;
  return name.slice(0, HOSTNAME_MAX).replace(/[-.]+$/, '');
}

/** GeneratePodHostNameAndDomain: `spec.hostname` or the pod name; the domain from `subdomain`. */
export function podHostnameAndDomain(pod: Pod): { hostname: string; domain: string } {
  const hostname = truncateHostname(pod.spec?.hostname || pod.metadata?.name || '');
  const sub = pod.spec?.subdomain;
  const domain = sub ? `${sub}.${pod.metadata?.namespace ?? 'default'}.svc.${CLUSTER_DOMAIN}` : '';
  return { hostname, domain };
}

export function sandboxConfigFor(pod: Pod, attempt: number, lab: string): PodSandboxConfig {
  const md = pod.metadata ?? {};
  const spec = pod.spec!;
  const ports = [...(spec.initContainers ?? []), ...spec.containers].flatMap((c) =>
    (c.ports ?? [])
      .filter((p) => p.hostPort)
      .map((p) => ({ protocol: (p.protocol ?? 'TCP') as 'TCP' | 'UDP' | 'SCTP', containerPort: p.containerPort, hostPort: p.hostPort!, hostIp: p.hostIP })),
  );
  const { status: _status, ...manifest } = pod;
  const { hostname, domain } = podHostnameAndDomain(pod);
  return {
    metadata: { name: md.name ?? '', namespace: md.namespace ?? 'default', uid: md.uid ?? '', attempt },
    // setHostnameAsFQDN: the kernel hostname is the FQDN.
    hostname: spec.setHostnameAsFQDN && domain ? `${hostname}.${domain}`.slice(0, 64) : hostname,
    labels: { ...(md.labels ?? {}), [L.PodNameLabel]: md.name ?? '', [L.PodNamespaceLabel]: md.namespace ?? 'default', [L.PodUIDLabel]: md.uid ?? '', [L.ManagedLabel]: 'true', [L.LabLabel]: lab },
    annotations: { ...(md.annotations ?? {}) },
    portMappings: ports,
    hostNetwork: !!spec.hostNetwork,
    hostIPC: !!spec.hostIPC,
    hostPID: !!spec.hostPID,
    podManifest: JSON.stringify(manifest),
  };
}
