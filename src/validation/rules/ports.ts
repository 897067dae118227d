// Container ports, hostPort conflicts and hostNetwork (pod-validation-rules.md §7).
import type { Container, ContainerPort, PodSpec } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { isValidPortName, isValidPortNum } from '../formats.js';

export const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** validateContainerPorts: names (IANA_SVC_NAME, unique per container), numbers, protocol. */
export function validateContainerPorts(ports: ContainerPort[] | undefined, path: string): FieldErr[] {
  const out: FieldErr[] = [];
  const names = new Set<string>();
  (ports ?? []).forEach((p, i) => {
    const at = `${path}[${i}]`;
    if (!p) return;
    if (p.name) {
      const msgs = isValidPortName(p.name);
      if (msgs.length) for (const m of msgs) out.push(F.invalid(`${at}.name`, p.name, m));
      else if (names.has(p.name)) out.push(F.duplicate(`${at}.name`, p.name));
      else names.add(p.name);
    }
    if (!p.containerPort) out.push(F.required(`${at}.containerPort`));
    else for (const m of isValidPortNum(p.containerPort)) out.push(F.invalid(`${at}.containerPort`, p.containerPort, m));
    if (p.hostPort) for (const m of isValidPortNum(p.hostPort)) out.push(F.invalid(`${at}.hostPort`, p.hostPort, m));
    if (!p.protocol) out.push(F.required(`${at}.protocol`));
    else if (!PROTOCOLS.includes(p.protocol)) out.push(F.notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  });
  return out;
}

/**
 * AccumulateUniqueHostPorts: `<protocol>/<hostIP>/<hostPort>` used twice → Duplicate on the later port.
 * `path` is the list path (`spec.containers`); `first` is the index the first container gets in the path
 * (init containers are checked one at a time, so their index is always 0 — an upstream quirk).
 */
export function hostPortConflicts(containers: Container[], path: string, locFirst?: number): FieldErr[] {
  const out: FieldErr[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    (c?.ports ?? []).forEach((p, pi) => {
      if (!p?.hostPort) return;
      const key = `${p.protocol ?? ''}/${p.hostIP ?? ''}/${p.hostPort}`;
      if (seen.has(key)) {
        const field = `${path}[${ci}].ports[${pi}].hostPort`;
        out.push(F.duplicate(field, key, locFirst === undefined ? undefined : { loc: `${path}[${locFirst}].ports[${pi}].hostPort` }));
      } else seen.add(key);
    });
  });
  return out;
}

/** validatePodHostNetworkDeps: with hostNetwork, every regular container's hostPort must equal containerPort. */
export function validateHostNetworkPorts(spec: PodSpec): FieldErr[] {
  if (!spec.hostNetwork) return [];
  const out: FieldErr[] = [];
  (spec.containers ?? []).forEach((c, ci) =>
    (c?.ports ?? []).forEach((p, pi) => {
      if (!p) return;
      if ((p.hostPort ?? 0) !== (p.containerPort ?? 0)) {
        out.push(F.invalid(`spec.containers[${ci}].ports[${pi}].hostPort`, p.hostPort ?? 0, 'must match `containerPort` when `hostNetwork` is true'));
      }
    }),
  );
  return out;
}

/** API server warnings about ports (pkg/api/pod/warnings.go): hostIP without hostPort, duplicate/overlapping ports. */
export function portWarnings(spec: PodSpec): FieldErr[] {
  const out: FieldErr[] = [];
  const all = new Map<string, { field: string; port: ContainerPort }[]>();
  const visit = (list: Container[] | undefined, base: string) =>
    (list ?? []).forEach((c, ci) =>
      (c?.ports ?? []).forEach((port, pi) => {
        if (!port) return;
        const field = `${base}[${ci}].ports[${pi}]`;
        if (port.hostIP && !port.hostPort) out.push(F.warning(field, `hostIP set without hostPort: ${goPortStruct(port)}`));
        const k = `${port.containerPort ?? 0}/${port.protocol ?? ''}`;
        const others = all.get(k);
        if (others) {
          for (const o of others) {
            const hp = port.hostPort ?? 0;
            const ohp = o.port.hostPort ?? 0;
            const a = !port.hostIP;
            const b = !o.port.hostIP;
            if ((port.hostIP ?? '') === (o.port.hostIP ?? '') && hp === ohp) out.push(F.warning(field, `duplicate port definition with ${o.field}`));
            else if (hp === 0 || ohp === 0) out.push(F.warning(field, `overlapping port definition with ${o.field}`));
            else if (hp === ohp && (a || b) && !(a && b)) out.push(F.warning(field, `dangerously ambiguous port definition with ${o.field}`));
          }
          others.push({ field, port });
        } else all.set(k, [{ field, port }]);
      }),
    );
  visit(spec.initContainers, 'spec.initContainers');
  visit(spec.containers, 'spec.containers');
  return out;
}

/** Go's %+v of an api.ContainerPort. */
function goPortStruct(p: ContainerPort): string {
  return `{Name:${p.name ?? ''} HostPort:${p.hostPort ?? 0} ContainerPort:${p.containerPort ?? 0} Protocol:${p.protocol ?? ''} HostIP:${p.hostIP ?? ''}}`;
}
