// spec.volumes (pod-validation-rules.md §9): names, exactly one source, the common sources in detail
// and the required fields of the others. A volume with any error is not registered, so its mounts
// also get "Not found".
import type { DownwardAPIVolumeFile, KeyToPath, Pod, Volume } from 'kubernetes-types/core/v1';
import { F, type FieldErr } from '../errors.js';
import { FILE_MODE_MSG, isDNS1123Label, localNonReservedPathErrors, nameIsDNSSubdomain, noBacksteps, relativePathErrors } from '../formats.js';
import { parseQuantity } from '../quantity.js';
import { validateFieldRef, validateResourceFieldRef, VOLUME_FIELD_PATHS } from './env.js';

type Obj = Record<string, unknown>;
type Check = (src: Obj, path: string, v: Volume, pod: Pod) => FieldErr[];

export const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

const str = (o: Obj, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
const required = (...keys: string[]): Check => (src, path) => keys.filter((k) => !src[k] || (Array.isArray(src[k]) && (src[k] as unknown[]).length === 0)).map((k) => F.required(`${path}.${k}`));
const mode = (m: unknown, path: string): FieldErr[] => (typeof m === 'number' && (m > 0o777 || m < 0) ? [F.invalid(path, m, FILE_MODE_MSG)] : []);
const range = (n: unknown, lo: number, hi: number, path: string, min = lo): FieldErr[] =>
  typeof n === 'number' && (n < lo || n > hi) ? [F.invalid(path, n, `must be between ${min} and ${hi}, inclusive`)] : [];

function keyToPath(kp: KeyToPath, path: string): FieldErr[] {
  const out: FieldErr[] = [];
  if (!kp.key) out.push(F.required(`${path}.key`));
  if (!kp.path) out.push(F.required(`${path}.path`));
  for (const m of localNonReservedPathErrors(kp.path ?? '')) out.push(F.invalid(`${path}.path`, kp.path ?? '', m));
  out.push(...mode(kp.mode, `${path}.mode`));
  return out;
}

/** validateDownwardAPIVolumeFile: the item index is NOT part of the path (upstream quirk). */
function downwardFile(f: DownwardAPIVolumeFile, path: string, loc: string): FieldErr[] {
  const out: FieldErr[] = [];
  const o = { loc };
  if (!f.path) out.push(F.required(`${path}.path`, '', { loc: `${loc}.path` }));
  for (const m of localNonReservedPathErrors(f.path ?? '')) out.push(F.invalid(`${path}.path`, f.path ?? '', m, { loc: `${loc}.path` }));
  if (f.fieldRef) {
    out.push(...validateFieldRef(f.fieldRef, VOLUME_FIELD_PATHS, `${path}.fieldRef`).map((e) => ({ ...e, loc: e.field.replace(path, loc) })));
    if (f.resourceFieldRef) out.push(F.invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously', o));
  } else if (f.resourceFieldRef) {
    out.push(...validateResourceFieldRef(f.resourceFieldRef, `${path}.resourceFieldRef`, true).map((e) => ({ ...e, loc: e.field.replace(path, loc) })));
  } else out.push(F.required(path, 'one of fieldRef and resourceFieldRef is required', o));
  out.push(...mode(f.mode, `${path}.mode`).map((e) => ({ ...e, loc: `${loc}.mode` })));
  return out;
}

const items = (list: unknown, path: string): FieldErr[] => (Array.isArray(list) ? list.flatMap((kp, i) => keyToPath((kp ?? {}) as KeyToPath, `${path}.items[${i}]`)) : []);

function projected(src: Obj, path: string, _v: Volume, pod: Pod): FieldErr[] {
  const out: FieldErr[] = [...mode(src.defaultMode, `${path}.defaultMode`)];
  const seen = new Set<string>();
  const track = (p: string | undefined, value: unknown, loc: string) => {
    if (!p) return;
    if (seen.has(p)) out.push(F.invalid(path, value, 'conflicting duplicate paths', { loc }));
    seen.add(p);
  };
  const sources = Array.isArray(src.sources) ? (src.sources as Obj[]) : [];
  sources.forEach((s0, i) => {
    const s = (s0 ?? {}) as Obj;
    const sp = `${path}.sources[${i}]`;
    let n = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const o = s[kind] as Obj | undefined;
      if (!o) continue;
      n++;
      if (!o.name) out.push(F.required(`${sp}.${kind}.name`));
      ((o.items as KeyToPath[] | undefined) ?? []).forEach((kp, k) => {
        out.push(...keyToPath(kp ?? {}, `${sp}.${kind}.items[${k}]`));
        track(kp?.path, o.name ?? '', `${sp}.${kind}.items[${k}].path`);
      });
    }
    const d = s.downwardAPI as Obj | undefined;
    if (d) {
      n++;
      ((d.items as DownwardAPIVolumeFile[] | undefined) ?? []).forEach((f, k) => {
        out.push(...downwardFile(f ?? {}, `${sp}.downwardAPI`, `${sp}.downwardAPI.items[${k}]`));
        track(f?.path, f?.path, `${sp}.downwardAPI.items[${k}].path`);
      });
    }
    const t = s.serviceAccountToken as Obj | undefined;
    if (t) {
      n++;
      const exp = typeof t.expirationSeconds === 'number' ? t.expirationSeconds : 0;
      const ep = `${sp}.serviceAccountToken.expirationSeconds`;
      if (exp < 600) out.push(F.invalid(ep, exp, 'may not specify a duration less than 10 minutes'));
      if (exp > 2 ** 32) out.push(F.invalid(ep, exp, 'may not specify a duration larger than 2^32 seconds'));
      const tp = `${sp}.serviceAccountToken.path`;
      if (!t.path) out.push(F.required(`${path}.path`, '', { loc: tp }));
      else for (const m of localNonReservedPathErrors(String(t.path))) out.push(F.invalid(`${path}.path`, t.path, m, { loc: tp }));
      if (!pod.spec?.serviceAccountName) out.push(F.forbidden(`${sp}.serviceAccountToken`, 'must not be specified when serviceAccountName is not set'));
    }
    if (s.clusterTrustBundle) {
      n++;
      const c = s.clusterTrustBundle as Obj;
      if (!c.path) out.push(F.required(`${sp}.clusterTrustBundle.path`));
    }
    if (s.podCertificate) n++;
    if (n > 1) out.push(F.forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return out;
}

/** Volume sources in upstream order: [json key, path segment used by the validator, checks]. */
const SOURCES: [string, string, Check][] = [
  ['emptyDir', 'emptyDir', (s, p) => {
    const q = s.sizeLimit === undefined ? undefined : parseQuantity(String(s.sizeLimit));
    return q && typeof q !== 'string' && q.nano < 0n ? [F.forbidden(`${p}.sizeLimit`, 'SizeLimit field must be a valid resource quantity')] : [];
  }],
  ['hostPath', 'hostPath', (s, p) => {
    if (!s.path) return [F.required(`${p}.path`)];
    const out = noBacksteps(str(s, 'path')).map((m) => F.invalid(`${p}.path`, s.path, m));
    if (typeof s.type === 'string' && !HOST_PATH_TYPES.includes(s.type)) out.push(F.notSupported(`${p}.type`, s.type, HOST_PATH_TYPES));
    return out;
  }],
  ['gitRepo', 'gitRepo', (s, p) => [...required('repository')(s, p, {} as Volume, {}), ...relativePathErrors(str(s, 'directory')).map((m) => F.invalid(`${p}.directory`, str(s, 'directory'), m))]],
  ['gcePersistentDisk', 'persistentDisk', (s, p) => [...required('pdName')(s, p, {} as Volume, {}), ...range(s.partition, 0, 255, `${p}.partition`, 1)]],
  ['awsElasticBlockStore', 'awsElasticBlockStore', (s, p) => [...required('volumeID')(s, p, {} as Volume, {}), ...range(s.partition, 0, 255, `${p}.partition`, 1)]],
  ['secret', 'secret', (s, p) => [...required('secretName')(s, p, {} as Volume, {}), ...mode(s.defaultMode, `${p}.defaultMode`), ...items(s.items, p)]],
  ['nfs', 'nfs', (s, p) => [...required('server', 'path')(s, p, {} as Volume, {}), ...(str(s, 'path').startsWith('/') ? [] : [F.invalid(`${p}.path`, str(s, 'path'), 'must be an absolute path')])]],
  ['iscsi', 'iscsi', (s, p) => [...required('targetPortal', 'iqn')(s, p, {} as Volume, {}), ...range(s.lun, 0, 255, `${p}.lun`)]],
  ['glusterfs', 'glusterfs', required('endpoints', 'path')],
  ['flocker', 'flocker', (s, p) => (!s.datasetName && !s.datasetUUID ? [F.required(p, 'one of datasetName and datasetUUID is required')] : [])],
  ['persistentVolumeClaim', 'persistentVolumeClaim', required('claimName')],
  ['rbd', 'rbd', required('monitors', 'image')],
  ['cinder', 'cinder', required('volumeID')],
  ['cephfs', 'cephfs', required('monitors')],
  ['quobyte', 'quobyte', required('registry', 'volume')],
  ['downwardAPI', 'downwardAPI', (s, p) => [
    ...mode(s.defaultMode, `${p}.defaultMode`),
    ...((s.items as DownwardAPIVolumeFile[] | undefined) ?? []).flatMap((f, i) => downwardFile(f ?? {}, p, `${p}.items[${i}]`)),
  ]],
  ['fc', 'fc', (s, p) => {
    const t = (s.targetWWNs as unknown[] | undefined) ?? [];
    const w = (s.wwids as unknown[] | undefined) ?? [];
    const out: FieldErr[] = [];
    if (!t.length && !w.length) out.push(F.required(`${p}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both'));
    if (t.length && w.length) out.push(F.invalid(`${p}.targetWWNs`, t, 'targetWWNs and wwids can not be specified simultaneously'));
    if (t.length && s.lun === undefined) out.push(F.required(`${p}.lun`, 'lun is required if targetWWNs is specified'));
    else if (t.length) out.push(...range(s.lun, 0, 255, `${p}.lun`));
    return out;
  }],
  ['flexVolume', 'flexVolume', required('driver')],
  ['configMap', 'configMap', (s, p) => [...required('name')(s, p, {} as Volume, {}), ...mode(s.defaultMode, `${p}.defaultMode`), ...items(s.items, p)]],
  ['azureFile', 'azureFile', required('secretName', 'shareName')],
  ['vsphereVolume', 'vsphereVolume', required('volumePath')],
  ['photonPersistentDisk', 'photonPersistentDisk', required('pdID')],
  ['portworxVolume', 'portworxVolume', required('volumeID')],
  ['azureDisk', 'azureDisk', required('diskName', 'diskURI')],
  ['storageos', 'storageos', required('volumeName')],
  ['projected', 'projected', projected],
  ['scaleIO', 'scaleIO', required('gateway', 'system', 'volumeName')],
  ['csi', 'csi', required('driver')],
  ['ephemeral', 'ephemeral', (s, p, v, pod) => {
    if (!s.volumeClaimTemplate) return [F.required(`${p}.volumeClaimTemplate`)];
    const podName = pod.metadata?.name;
    if (!podName || !v.name) return [];
    const pvc = `${podName}-${v.name}`;
    return nameIsDNSSubdomain(pvc, false).map((m) => F.invalid(p.replace(/\.ephemeral$/, '.name'), v.name, `PVC name ${JSON.stringify(pvc)}: ${m}`));
  }],
  ['image', 'image', (s, p) => {
    const out = s.reference ? [] : [F.required(`${p}.reference`)];
    if (typeof s.pullPolicy === 'string' && s.pullPolicy && !['Always', 'IfNotPresent', 'Never'].includes(s.pullPolicy)) {
      out.push(F.notSupported(`${p}.pullPolicy`, s.pullPolicy, ['Always', 'IfNotPresent', 'Never']));
    }
    return out;
  }],
];
/** The Forbidden "more than 1 volume type" path segments where they differ from the JSON key. */
const SECOND_SOURCE_SEGMENT: Record<string, string> = { downwardAPI: 'downwarAPI', cephfs: 'cephFS' };

/** ValidateVolumes: returns the registered volumes (by name) and the errors. */
export function validateVolumes(pod: Pod): { volumes: Map<string, Volume>; errs: FieldErr[] } {
  const volumes = new Map<string, Volume>();
  const errs: FieldErr[] = [];
  const podName = pod.metadata?.name;
  const createdPVCs = new Set<string>();
  const list = pod.spec?.volumes ?? [];
  if (podName) for (const v of list) if (v?.ephemeral) createdPVCs.add(`${podName}-${v.name ?? ''}`);
  const names = new Set<string>();
  list.forEach((v, i) => {
    if (!v) return;
    const at = `spec.volumes[${i}]`;
    const el: FieldErr[] = [];
    let n = 0;
    for (const [key, seg, check] of SOURCES) {
      const src = (v as unknown as Obj)[key];
      if (src === undefined || src === null) continue;
      if (n > 0) {
        const seg2 = SECOND_SOURCE_SEGMENT[key] ?? key;
        el.push(F.forbidden(`${at}.${seg2}`, 'may not specify more than 1 volume type', { loc: `${at}.${key}`, at: 'key' }));
        continue;
      }
      n++;
      const found = check((src ?? {}) as Obj, `${at}.${seg}`, v, pod);
      el.push(...(seg === key ? found : found.map((e) => ({ ...e, loc: e.loc ?? e.field.replace(`${at}.${seg}`, `${at}.${key}`) }))));
    }
    if (n === 0) el.push(F.required(at, 'must specify a volume type'));
    if (!v.name) el.push(F.required(`${at}.name`));
    else for (const m of isDNS1123Label(v.name)) el.push(F.invalid(`${at}.name`, v.name, m));
    if (names.has(v.name ?? '')) el.push(F.duplicate(`${at}.name`, v.name ?? ''));
    if (el.length === 0) {
      names.add(v.name ?? '');
      volumes.set(v.name ?? '', v);
    } else errs.push(...el);
    const claim = v.persistentVolumeClaim?.claimName;
    if (claim && createdPVCs.has(claim)) {
      errs.push(F.invalid(`${at}.persistentVolumeClaim.claimName`, claim, 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { volumes, errs };
}
