// volumeMounts and volumeDevices of a container (pod-validation-rules.md §9). Several paths carry no
// mount index upstream (`volumeMounts.subPath`, `.subPathExpr`, `.mountPropagation`, `.recursiveReadOnly`);
// `loc` keeps the indexed path so the problem still points at the right line.
import type { Container, Volume } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { noBacksteps, relativePathErrors } from '../formats.js';

export const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
export const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];

export function validateVolumeMounts(c: Container, volumes: Map<string, Volume>, path: string): FieldErr[] {
  const out: FieldErr[] = [];
  const mountpoints = new Set<string>();
  const devices = new Map<string, string>();
  for (const d of c.volumeDevices ?? []) if (d) devices.set(d.name ?? '', d.devicePath ?? '');
  const devicePaths = new Set(devices.values());
  const privileged = c.securityContext?.privileged === true;
  (c.volumeMounts ?? []).forEach((m, i) => {
    if (!m) return;
    const at = `${path}[${i}]`;
    const name = m.name ?? '';
    const mountPath = m.mountPath ?? '';
    const noIdx = (seg: string) => ({ loc: `${at}.${seg}` });
    if (!name) out.push(F.required(`${at}.name`));
    if (!volumes.has(name)) out.push(F.notFound(`${at}.name`, name));
    if (!mountPath) out.push(F.required(`${at}.mountPath`));
    if (mountpoints.has(mountPath)) out.push(F.invalid(`${at}.mountPath`, mountPath, 'must be unique'));
    mountpoints.add(mountPath);
    if (devices.has(name)) out.push(F.invalid(`${at}.name`, name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath)) out.push(F.invalid(`${at}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    if ((volumes.get(name) as { image?: unknown } | undefined)?.image) {
      if (m.subPath) out.push(F.invalid(`${at}.subPath`, m.subPath, 'not allowed in image volume sources'));
      if (m.subPathExpr) out.push(F.invalid(`${at}.subPathExpr`, m.subPathExpr, 'not allowed in image volume sources'));
    }
    if (m.subPath) for (const msg of relativePathErrors(m.subPath)) out.push(F.invalid(`${path}.subPath`, m.subPath, msg, noIdx('subPath')));
    if (m.subPathExpr) {
      if (m.subPath) out.push(F.invalid(`${at}.subPathExpr`, m.subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      for (const msg of relativePathErrors(m.subPathExpr)) out.push(F.invalid(`${path}.subPathExpr`, m.subPathExpr, msg, noIdx('subPathExpr')));
    }
    if (m.mountPropagation !== undefined) {
      const mp = m.mountPropagation;
      if (!MOUNT_PROPAGATIONS.includes(mp)) out.push(F.notSupported(`${path}.mountPropagation`, mp, MOUNT_PROPAGATIONS, noIdx('mountPropagation')));
      if (mp === 'Bidirectional' && !privileged) {
        out.push(F.forbidden(`${path}.mountPropagation`, 'Bidirectional mount propagation is available only to privileged containers', noIdx('mountPropagation')));
      }
    }
    const rro = (m as { recursiveReadOnly?: string }).recursiveReadOnly;
    if (rro !== undefined && rro !== 'Disabled') {
      const o = noIdx('recursiveReadOnly');
      if (rro === 'Enabled' || rro === 'IfPossible') {
        if (!m.readOnly) out.push(F.forbidden(`${path}.recursiveReadOnly`, 'may only be specified when readOnly is true', o));
        if (m.mountPropagation !== undefined && m.mountPropagation !== 'None') {
          out.push(F.forbidden(`${path}.recursiveReadOnly`, 'may only be specified when mountPropagation is None or not specified', o));
        }
      } else out.push(F.notSupported(`${path}.recursiveReadOnly`, rro, RECURSIVE_READ_ONLY, o));
    }
  });
  return out;
}

export function validateVolumeDevices(c: Container, volumes: Map<string, Volume>, path: string): FieldErr[] {
  const out: FieldErr[] = [];
  const mounts = new Map<string, string>();
  for (const m of c.volumeMounts ?? []) if (m) mounts.set(m.name ?? '', m.mountPath ?? '');
  const mountPaths = new Set(mounts.values());
  const paths = new Set<string>();
  const names = new Set<string>();
  (c.volumeDevices ?? []).forEach((d, i) => {
    if (!d) return;
    const at = `${path}[${i}]`;
    const name = d.name ?? '';
    const devPath = d.devicePath ?? '';
    const v = volumes.get(name);
    if (!name) out.push(F.required(`${at}.name`));
    if (names.has(name)) out.push(F.invalid(`${at}.name`, name, 'must be unique'));
    if (v && !v.persistentVolumeClaim && !v.ephemeral) {
      out.push(F.invalid(`${at}.name`, name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (!v) out.push(F.notFound(`${at}.name`, name));
    if (!devPath) out.push(F.required(`${at}.devicePath`));
    if (paths.has(devPath)) out.push(F.invalid(`${at}.devicePath`, devPath, 'must be unique'));
    if (devPath && noBacksteps(devPath).length) out.push(F.invalid(`${at}.devicePath`, devPath, "can not contain backsteps ('..')"));
    else paths.add(devPath);
    if (mounts.has(name)) out.push(F.invalid(`${at}.name`, name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devPath)) out.push(F.invalid(`${at}.devicePath`, devPath, 'must not already exist as a path in volumeMounts'));
    if (name) names.add(name);
  });
  return out;
}
