import { describe } from 'node:test';
import { DNS_LABEL, runCases, type Obj } from './helpers.js';

const c0 = 'spec.containers[0]';
const vols = (...vs: Obj[]) => (p: Obj) => (p.spec.volumes = vs);
const withMounts = (vs: Obj[], ms: Obj[], extra: Obj = {}) => (p: Obj) => {
  p.spec.volumes = vs;
  Object.assign(p.spec.containers[0], { volumeMounts: ms }, extra);
};

describe('volumes', () => {
  runCases([
    { name: 'a volume without any source is defaulted to emptyDir', mutate: vols({ name: 'scratch' }), errors: [] },
    { name: 'a volume name with an underscore is not a DNS label', mutate: vols({ name: 'my_vol', emptyDir: {} }), errors: [['spec.volumes[0].name', 'Invalid value', `"my_vol": ${DNS_LABEL}`]] },
    { name: 'a volume without a name is required to have one', mutate: vols({ emptyDir: {} }), errors: [['spec.volumes[0].name', 'Required value', '']] },
    { name: 'a repeated volume name is a duplicate', mutate: vols({ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }), errors: [['spec.volumes[1].name', 'Duplicate value', '"v"']] },
    {
      name: 'a second source is forbidden at its own path',
      mutate: vols({ name: 'v', emptyDir: {}, hostPath: { path: '/tmp' } }),
      errors: [['spec.volumes[0].hostPath', 'Forbidden', 'may not specify more than 1 volume type']],
    },
    {
      name: 'a second source of kind downwardAPI carries the upstream misspelling downwarAPI',
      mutate: vols({ name: 'v', emptyDir: {}, downwardAPI: { items: [] } }),
      errors: [['spec.volumes[0].downwarAPI', 'Forbidden', 'may not specify more than 1 volume type']],
    },
    { name: 'a hostPath without a path is required to have one', mutate: vols({ name: 'v', hostPath: { path: '' } }), errors: [['spec.volumes[0].hostPath.path', 'Required value', '']] },
    { name: 'a hostPath path with .. is invalid', mutate: vols({ name: 'v', hostPath: { path: '/var/../etc' } }), errors: [['spec.volumes[0].hostPath.path', 'Invalid value', `"/var/../etc": must not contain '..'`]] },
    {
      name: 'an unknown hostPath type is not supported',
      mutate: vols({ name: 'v', hostPath: { path: '/tmp', type: 'Dir' } }),
      errors: [['spec.volumes[0].hostPath.type', 'Unsupported value', '"Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"']],
    },
    { name: 'a configMap volume without a name is required to have one', mutate: vols({ name: 'v', configMap: {} }), errors: [['spec.volumes[0].configMap.name', 'Required value', '']] },
    { name: 'a secret volume without secretName is required to have one', mutate: vols({ name: 'v', secret: {} }), errors: [['spec.volumes[0].secret.secretName', 'Required value', '']] },
    {
      name: 'a defaultMode above 0777 is invalid',
      mutate: vols({ name: 'v', secret: { secretName: 's', defaultMode: 1000 } }),
      errors: [['spec.volumes[0].secret.defaultMode', 'Invalid value', '1000: must be a number between 0 and 0777 (octal), both inclusive']],
    },
    {
      name: 'an absolute item path is invalid',
      mutate: vols({ name: 'v', configMap: { name: 'c', items: [{ key: 'k', path: '/etc/x' }] } }),
      errors: [['spec.volumes[0].configMap.items[0].path', 'Invalid value', '"/etc/x": must be a relative path']],
    },
    {
      name: 'an item path starting with .. but not ../ must not start with ..',
      mutate: vols({ name: 'v', configMap: { name: 'c', items: [{ key: 'k', path: '..data' }] } }),
      errors: [['spec.volumes[0].configMap.items[0].path', 'Invalid value', `"..data": must not start with '..'`]],
    },
    {
      name: 'a downwardAPI item with neither ref is reported without the item index',
      mutate: vols({ name: 'v', downwardAPI: { items: [{ path: 'x' }] } }),
      errors: [['spec.volumes[0].downwardAPI', 'Required value', 'one of fieldRef and resourceFieldRef is required']],
    },
    {
      name: 'a downwardAPI resourceFieldRef needs containerName in volumes',
      mutate: vols({ name: 'v', downwardAPI: { items: [{ path: 'x', resourceFieldRef: { resource: 'limits.cpu' } }] } }),
      errors: [['spec.volumes[0].downwardAPI.resourceFieldRef.containerName', 'Required value', '']],
    },
    {
      name: 'a downwardAPI fieldRef to status.podIP is not supported in volumes',
      mutate: vols({ name: 'v', downwardAPI: { items: [{ path: 'x', fieldRef: { fieldPath: 'status.podIP' } }] } }),
      errors: [['spec.volumes[0].downwardAPI.fieldRef.fieldPath', 'Unsupported value', '"status.podIP": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"']],
    },
    {
      name: 'a projected token shorter than ten minutes is invalid',
      mutate: (p) => {
        p.spec.serviceAccountName = 'sa';
        p.spec.volumes = [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 60 } }] } }];
      },
      errors: [['spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds', 'Invalid value', '60: may not specify a duration less than 10 minutes']],
    },
    {
      name: 'the same path from two projected sources conflicts',
      mutate: vols({ name: 'v', projected: { sources: [{ configMap: { name: 'a', items: [{ key: 'k', path: 'p' }] } }, { secret: { name: 'b', items: [{ key: 'k', path: 'p' }] } }] } }),
      errors: [['spec.volumes[0].projected', 'Invalid value', '"b": conflicting duplicate paths']],
    },
    { name: 'an nfs path must be absolute', mutate: vols({ name: 'v', nfs: { server: 's', path: 'data' } }), errors: [['spec.volumes[0].nfs.path', 'Invalid value', '"data": must be an absolute path']] },
    { name: 'a persistentVolumeClaim without claimName is required to have one', mutate: vols({ name: 'v', persistentVolumeClaim: {} }), errors: [['spec.volumes[0].persistentVolumeClaim.claimName', 'Required value', '']] },
    {
      name: 'a negative emptyDir sizeLimit is forbidden',
      mutate: vols({ name: 'v', emptyDir: { sizeLimit: '-1Gi' } }),
      errors: [['spec.volumes[0].emptyDir.sizeLimit', 'Forbidden', 'SizeLimit field must be a valid resource quantity']],
    },
  ]);
});

describe('volumeMounts and volumeDevices', () => {
  const v = { name: 'data', emptyDir: {} };
  runCases([
    { name: 'a mount of an undeclared volume is not found', mutate: withMounts([], [{ name: 'data', mountPath: '/d' }]), errors: [[`${c0}.volumeMounts[0].name`, 'Not found', '"data"']] },
    {
      name: 'a mount of an invalid volume is also not found, because the volume is not registered',
      mutate: withMounts([{ name: 'data', hostPath: { path: '' } }], [{ name: 'data', mountPath: '/d' }]),
      errors: [
        ['spec.volumes[0].hostPath.path', 'Required value', ''],
        [`${c0}.volumeMounts[0].name`, 'Not found', '"data"'],
      ],
    },
    { name: 'a mount without mountPath is required to have one', mutate: withMounts([v], [{ name: 'data' }]), errors: [[`${c0}.volumeMounts[0].mountPath`, 'Required value', '']] },
    { name: 'a relative mountPath is accepted by the API server', mutate: withMounts([v], [{ name: 'data', mountPath: 'rel' }]), errors: [] },
    {
      name: 'two mounts at one path must be unique',
      mutate: withMounts([v], [{ name: 'data', mountPath: '/d' }, { name: 'data', mountPath: '/d' }]),
      errors: [[`${c0}.volumeMounts[1].mountPath`, 'Invalid value', '"/d": must be unique']],
    },
    {
      name: 'an absolute subPath is reported on the unindexed subPath path',
      mutate: withMounts([v], [{ name: 'data', mountPath: '/d', subPath: '/abs' }]),
      errors: [[`${c0}.volumeMounts.subPath`, 'Invalid value', '"/abs": must be a relative path']],
    },
    {
      name: 'a subPath with a .. element is invalid, ..foo is fine',
      mutate: withMounts([v], [{ name: 'data', mountPath: '/d', subPath: 'a/../b' }, { name: 'data', mountPath: '/e', subPath: '..foo' }]),
      errors: [[`${c0}.volumeMounts.subPath`, 'Invalid value', `"a/../b": must not contain '..'`]],
    },
    {
      name: 'subPath and subPathExpr together are mutually exclusive',
      mutate: withMounts([v], [{ name: 'data', mountPath: '/d', subPath: 'a', subPathExpr: 'b' }]),
      errors: [[`${c0}.volumeMounts[0].subPathExpr`, 'Invalid value', '"b": subPathExpr and subPath are mutually exclusive']],
    },
    {
      name: 'Bidirectional propagation needs a privileged container',
      mutate: withMounts([v], [{ name: 'data', mountPath: '/d', mountPropagation: 'Bidirectional' }]),
      errors: [[`${c0}.volumeMounts.mountPropagation`, 'Forbidden', 'Bidirectional mount propagation is available only to privileged containers']],
    },
    {
      name: 'Bidirectional propagation is fine in a privileged container',
      mutate: withMounts([v], [{ name: 'data', mountPath: '/d', mountPropagation: 'Bidirectional' }], { securityContext: { privileged: true } }),
      errors: [],
    },
    {
      name: 'recursiveReadOnly Enabled without readOnly is forbidden',
      mutate: withMounts([v], [{ name: 'data', mountPath: '/d', recursiveReadOnly: 'Enabled' }]),
      errors: [[`${c0}.volumeMounts.recursiveReadOnly`, 'Forbidden', 'may only be specified when readOnly is true']],
    },
    {
      name: 'a volumeDevice on an emptyDir is not a block volume',
      mutate: (p) => {
        p.spec.volumes = [v];
        p.spec.containers[0].volumeDevices = [{ name: 'data', devicePath: '/dev/xvda' }];
      },
      errors: [[`${c0}.volumeDevices[0].name`, 'Invalid value', '"data": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode']],
    },
  ]);
});
