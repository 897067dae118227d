// securityContext at pod and container level, host namespaces, sysctls, seccomp/AppArmor profiles
// and the os.name restrictions (pod-validation-rules.md §12, §14). `privileged: true` is accepted:
// the API server only refuses it with --allow-privileged=false, which kubeadm, kind and minikube do not set.
import type { Container, PodSpec, SecurityContext } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { ID_RANGE_MSG, isValidID, isValidSysctlName, nameIsDNSSubdomain, relativePathErrors, SYSCTL_MSG } from '../formats.js';

type Obj = Record<string, unknown>;
export const PROFILE_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

const id = (v: number | undefined, path: string): FieldErr[] => (v !== undefined && !isValidID(v) ? [F.invalid(path, v, ID_RANGE_MSG)] : []);

export function seccompProfile(sp: { type?: string; localhostProfile?: string } | undefined, path: string): FieldErr[] {
  if (!sp) return [];
  const out: FieldErr[] = [];
  const t = sp.type ?? '';
  if (!t) out.push(F.required(`${path}.type`, 'type is required when seccompProfile is set'));
  else if (!PROFILE_TYPES.includes(t)) out.push(F.notSupported(`${path}.type`, t, PROFILE_TYPES));
  if (t === 'Localhost') {
    if (sp.localhostProfile === undefined) out.push(F.required(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else for (const m of relativePathErrors(sp.localhostProfile)) out.push(F.invalid(`${path}.localhostProfile`, sp.localhostProfile, m));
  } else if (sp.localhostProfile !== undefined) out.push(F.invalid(`${path}.localhostProfile`, sp, 'can only be set when seccomp type is Localhost'));
  return out;
}

export function appArmorProfile(p: { type?: string; localhostProfile?: string } | undefined, path: string): FieldErr[] {
  if (!p) return [];
  const lp = p.localhostProfile;
  switch (p.type ?? '') {
    case 'Localhost': {
      if (lp === undefined) return [F.required(`${path}.localhostProfile`, 'must be set when AppArmor type is Localhost')];
      const out: FieldErr[] = [];
      if (lp.trim() !== lp) out.push(F.invalid(`${path}.localhostProfile`, lp, 'must not be padded with whitespace'));
      else if (lp === '') out.push(F.required(`${path}.localhostProfile`, 'must be set when AppArmor type is Localhost'));
      if (lp.length > 4095) out.push(F.tooLong(`${path}.localhostProfile`, 4095));
      return out;
    }
    case 'RuntimeDefault':
    case 'Unconfined':
      return lp !== undefined ? [F.invalid(`${path}.localhostProfile`, lp, 'can only be set when AppArmor type is Localhost')] : [];
    case '':
      return [F.required(`${path}.type`, 'type is required when appArmorProfile is set')];
    default:
      return [F.notSupported(`${path}.type`, p.type, PROFILE_TYPES)];
  }
}

function windowsOptions(w: { gmsaCredentialSpecName?: string; runAsUserName?: string } | undefined, path: string): FieldErr[] {
  if (!w) return [];
  const out: FieldErr[] = [];
  if (w.gmsaCredentialSpecName !== undefined) {
    for (const m of nameIsDNSSubdomain(w.gmsaCredentialSpecName, false)) out.push(F.invalid(`${path}.gmsaCredentialSpecName`, w.gmsaCredentialSpecName, m));
  }
  if (w.runAsUserName !== undefined && w.runAsUserName === '') out.push(F.invalid(`${path}.runAsUserName`, '', 'runAsUserName cannot be an empty string'));
  return out;
}

const NET_SYSCTL = (n: string) => n.startsWith('net.') || n.startsWith('net/');
const IPC_SYSCTL = (n: string) => /^kernel[./](shm|msg)/.test(n) || n === 'kernel.sem' || n === 'kernel/sem' || /^fs[./]mqueue[./]/.test(n);

/** validatePodSpecSecurityContext (the v1 hostNetwork/hostPID/hostIPC/shareProcessNamespace fields live here internally). */
export function validatePodSecurityContext(spec: PodSpec): FieldErr[] {
  const sc = (spec.securityContext ?? {}) as NonNullable<PodSpec['securityContext']> & Obj;
  const p = 'spec.securityContext';
  const out: FieldErr[] = [...id(sc.fsGroup, `${p}.fsGroup`), ...id(sc.runAsUser, `${p}.runAsUser`), ...id(sc.runAsGroup, `${p}.runAsGroup`)];
  (sc.supplementalGroups ?? []).forEach((g, i) => out.push(...id(g, `${p}.supplementalGroups[${i}]`)));
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    out.push(F.invalid(`${p}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled', { loc: 'spec.shareProcessNamespace' }));
  }
  const names = new Set<string>();
  (sc.sysctls ?? []).forEach((s, i) => {
    const at = `${p}.sysctls[${i}].name`;
    const n = s?.name ?? '';
    if (!n) out.push(F.required(at));
    else if (!isValidSysctlName(n)) out.push(F.invalid(at, n, SYSCTL_MSG));
    else if (names.has(n)) out.push(F.duplicate(at, n));
    if (spec.hostNetwork && NET_SYSCTL(n)) out.push(F.invalid(at, n, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC && IPC_SYSCTL(n)) out.push(F.invalid(at, n, "may not be specified when 'hostIPC' is true"));
    names.add(n);
  });
  if (sc.fsGroupChangePolicy !== undefined && !['Always', 'OnRootMismatch'].includes(sc.fsGroupChangePolicy)) {
    out.push(F.notSupported(`${p}.fsGroupChangePolicy`, sc.fsGroupChangePolicy, ['Always', 'OnRootMismatch']));
  }
  out.push(...seccompProfile(sc.seccompProfile, `${p}.seccompProfile`));
  out.push(...windowsOptions(sc.windowsOptions, `${p}.windowsOptions`));
  out.push(...appArmorProfile(sc.appArmorProfile as { type?: string; localhostProfile?: string } | undefined, `${p}.appArmorProfile`));
  const sgp = sc.supplementalGroupsPolicy as string | undefined;
  if (sgp !== undefined && !['Merge', 'Strict'].includes(sgp)) out.push(F.notSupported(`${p}.supplementalGroupsPolicy`, sgp, ['Merge', 'Strict']));
  const slp = sc.seLinuxChangePolicy as string | undefined;
  if (slp !== undefined && !['MountOption', 'Recursive'].includes(slp)) out.push(F.notSupported(`${p}.seLinuxChangePolicy`, slp, ['MountOption', 'Recursive']));
  return out;
}

/** Go's JSON of an internal SecurityContext (field order of the Go struct, omitempty). */
function scJSON(sc: SecurityContext): string {
  const o: Obj = {};
  for (const k of ['capabilities', 'privileged', 'seLinuxOptions', 'windowsOptions', 'runAsUser', 'runAsGroup', 'runAsNonRoot', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'procMount', 'seccompProfile', 'appArmorProfile']) {
    const v = (sc as Obj)[k];
    if (v !== undefined) o[k] = v;
  }
  return JSON.stringify(o);
}

/** ValidateSecurityContext of one container. */
export function validateContainerSecurityContext(c: Container, path: string, hostUsers: boolean): FieldErr[] {
  const sc = c.securityContext;
  if (!sc) return [];
  const p = `${path}.securityContext`;
  const out: FieldErr[] = [...id(sc.runAsUser, `${p}.runAsUser`), ...id(sc.runAsGroup, `${p}.runAsGroup`)];
  if (sc.procMount !== undefined) {
    if (!['Default', 'Unmasked'].includes(sc.procMount)) out.push(F.notSupported(`${p}.procMount`, sc.procMount, ['Default', 'Unmasked']));
    if (hostUsers && sc.procMount === 'Unmasked') out.push(F.invalid(`${p}.procMount`, sc.procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  out.push(...seccompProfile(sc.seccompProfile, `${p}.seccompProfile`));
  if (sc.allowPrivilegeEscalation === false) {
    const shown = { toJSON: () => JSON.parse(scJSON(sc)) as unknown };
    if (sc.privileged === true) out.push(F.invalid(p, shown, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true', { at: 'key' }));
    for (const cap of sc.capabilities?.add ?? []) {
      if (cap === 'CAP_SYS_ADMIN') out.push(F.invalid(p, shown, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN', { at: 'key' }));
    }
  }
  out.push(...windowsOptions(sc.windowsOptions, `${p}.windowsOptions`));
  out.push(...appArmorProfile((sc as Obj).appArmorProfile as { type?: string; localhostProfile?: string } | undefined, `${p}.appArmorProfile`));
  return out;
}

/** validateHostUsers: hostUsers false with a host namespace (hostNetwork allowed only behind a 1.35 alpha gate). */
export function validateHostUsers(spec: PodSpec): FieldErr[] {
  if (spec.hostUsers !== false) return [];
  const out: FieldErr[] = [];
  const d = 'when `pod.Spec.HostUsers` is false';
  if (spec.hostNetwork) out.push(F.forbidden('spec.hostNetwork', d));
  if (spec.hostPID) out.push(F.forbidden('spec.HostPID', d, { loc: 'spec.hostPID' }));
  if (spec.hostIPC) out.push(F.forbidden('spec.HostIPC', d, { loc: 'spec.hostIPC' }));
  return out;
}

const WIN_POD = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'fsGroup', 'fsGroupChangePolicy', 'runAsUser', 'runAsGroup', 'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy'];
const WIN_CONTAINER = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'];

function visitContainers(spec: PodSpec, fn: (c: Container, path: string) => void): void {
  (spec.initContainers ?? []).forEach((c, i) => c && fn(c, `spec.initContainers[${i}]`));
  (spec.containers ?? []).forEach((c, i) => c && fn(c, `spec.containers[${i}]`));
  ((spec.ephemeralContainers ?? []) as Container[]).forEach((c, i) => c && fn(c, `spec.ephemeralContainers[${i}]`));
}

/** spec.os: name required and linux/windows; then the per-OS restrictions. */
export function validateOS(spec: PodSpec): FieldErr[] {
  if (!spec.os) return [];
  const name = spec.os.name ?? '';
  if (!name) return [F.required('spec.os.name')];
  if (name !== 'linux' && name !== 'windows') return [F.notSupported('spec.os', name, ['linux', 'windows'], { loc: 'spec.os.name' })];
  const out: FieldErr[] = [];
  const psc = (spec.securityContext ?? {}) as Obj;
  if (name === 'linux') {
    if (psc.windowsOptions) out.push(F.forbidden('spec.securityContext.windowsOptions', 'windows options cannot be set for a linux pod'));
    visitContainers(spec, (c, p) => {
      if (c.securityContext?.windowsOptions) out.push(F.forbidden(`${p}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    });
    return out;
  }
  const w = 'cannot be set for a windows pod';
  for (const k of WIN_POD.slice(0, 2)) if (psc[k] !== undefined) out.push(F.forbidden(`spec.securityContext.${k}`, w));
  if (spec.hostUsers !== undefined) out.push(F.forbidden('spec.hostUsers', w));
  if (spec.hostPID) out.push(F.forbidden('spec.hostPID', w));
  if (spec.hostIPC) out.push(F.forbidden('spec.hostIPC', w));
  for (const k of ['seccompProfile', 'fsGroup', 'fsGroupChangePolicy']) if (psc[k] !== undefined) out.push(F.forbidden(`spec.securityContext.${k}`, w));
  if (Array.isArray(psc.sysctls) && psc.sysctls.length) out.push(F.forbidden('spec.securityContext.sysctls', w));
  if (spec.shareProcessNamespace !== undefined) out.push(F.forbidden('spec.shareProcessNamespace', w));
  for (const k of ['runAsUser', 'runAsGroup', 'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy']) if (psc[k] !== undefined) out.push(F.forbidden(`spec.securityContext.${k}`, w));
  visitContainers(spec, (c, p) => {
    const sc = (c.securityContext ?? {}) as Obj;
    for (const k of WIN_CONTAINER) if (sc[k] !== undefined) out.push(F.forbidden(`${p}.securityContext.${k}`, w));
  });
  return out;
}
