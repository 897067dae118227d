// The kubelet-managed /etc/hosts (upstream pkg/kubelet/kubelet_pods.go managedHostsFileContent,
// hostsEntriesFromHostAliases, nodeHostsFileContent). Pure: the pod, its IPs and (for host
// networking) the node's own hosts file in, the file's text out.
import type { Pod } from 'kubernetes-types/core/v1';
import { podHostnameAndDomain } from './sandbox.js';

function aliasLines(pod: Pod): string[] {
  const aliases = pod.spec?.hostAliases ?? [];
  if (aliases.length === 0) return [];
  const out = ['', '# Entries added by HostAliases.'];
  for (const a of aliases) out.push(`${a.ip}\t${(a.hostnames ?? []).join('\t')}`);
  return out;
}

/**
 * The content of `<podDir>/etc-hosts`. `nodeHosts` is the node's /etc/hosts, used only with
 * hostNetwork. Every line ends with `\n`.
 */
export function managedHostsFileContent(pod: Pod, podIPs: readonly string[], nodeHosts = ''): string {
  let lines: string[];
  if (pod.spec?.hostNetwork) {
    lines = ['# Kubernetes-managed hosts file (host network).', ...nodeHosts.split('\n').filter((l, i, all) => !(i === all.length - 1 && l === ''))];
  } else {
    const { hostname, domain } = podHostnameAndDomain(pod);
    lines = [
      '# Kubernetes-managed hosts file.',
      '127.0.0.1\tlocalhost',
      '::1\tlocalhost ip6-localhost ip6-loopback',
      'fe00::0\tip6-localnet',
      'fe00::0\tip6-mcastprefix',
      'fe00::1\tip6-allnodes',
      'fe00::2\tip6-allrouters',
    ];
    for (const ip of podIPs) lines.push(domain ? `${ip}\t${hostname}.${domain}\t${hostname}` : `${ip}\t${hostname}`);
  }
  lines.push(...aliasLines(pod));
  return lines.map((l) => `${l}\n`).join('');
}
