// The pod's DNS policy as the kubelet's DNS configurer reads it (upstream
// pkg/kubelet/network/dns/dns.go getPodDNSType and GetPodDNS). The lab's kubelet has no cluster
// DNS (no `clusterDNS` address: the lab runs no DNS server), so a pod whose policy asks for the
// cluster's DNS falls back to the Default policy, and GetPodDNS says so each time it runs, with a
// Warning on the node and one on the pod. The resolv.conf the containers get is then Docker's, the
// node's (Default), which is what the lab's sandboxes already have.
import type { Pod } from 'kubernetes-types/core/v1';
import { goQuote } from '../../shared/go.js';
import { formatPod } from '../events.js';

/** podDNSType: whose resolver a pod uses. */
export type PodDNSType = 'cluster' | 'host' | 'none';

/** getPodDNSType: ClusterFirst on the host's network means Default; an unknown policy is refused by validation first. */
export function podDNSType(pod: Pod): PodDNSType {
  const policy = pod.spec?.dnsPolicy ?? 'ClusterFirst';
  switch (policy) {
    case 'None':
      return 'none';
    case 'ClusterFirstWithHostNet':
      return 'cluster';
    case 'ClusterFirst':
      return pod.spec?.hostNetwork ? 'host' : 'cluster';
    default:
      return 'host';
  }
}

/** The MissingClusterDNS Warnings GetPodDNS records, on the node and on the pod. */
export interface MissingClusterDNS {
  node: string;
  pod: string;
}

/** The node's message: upstream's %q of v1.DNSClusterFirst and v1.DNSDefault. */
const NODE_MESSAGE = `kubelet does not have ClusterDNS IP configured and cannot create Pod using ${goQuote('ClusterFirst')} policy. Falling back to ${goQuote('Default')} policy.`;

/**
 * What one GetPodDNS call of a kubelet without cluster DNS records for this pod: nothing unless its
 * policy asks for the cluster's DNS.
 */
export function missingClusterDNS(pod: Pod): MissingClusterDNS | undefined {
  if (podDNSType(pod) !== 'cluster') return undefined;
  return { node: NODE_MESSAGE, pod: `pod: ${goQuote(formatPod(pod))}. ${NODE_MESSAGE}` };
}
