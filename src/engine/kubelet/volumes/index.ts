// The kubelet's volume manager and its pure parts (upstream pkg/kubelet/volumemanager and
// pkg/volume/*): what the kubelet's SyncPod uses.
export {
  VolumeManager,
  FailedMountReason,
  PluginDirs,
  SandboxVolumeDir,
  VolumeNameLabel,
  tmpfsVolumeName,
  volumeDir,
  volumeKind,
  type MountedVolume,
  type PodVolumesStatus,
  type VolumeKind,
  type VolumeManagerDeps,
} from './volume-manager.js';
export {
  DefaultMode,
  configMapPayload,
  secretPayload,
  downwardAPIPayload,
  projectedPayload,
  type FileProjection,
  type ObjectLookup,
  type Payload,
  type PayloadResult,
  type VolumeFacts,
} from './payload.js';
export { writePayload, DataDirName, timestampPrefix } from './atomic-writer.js';
export { formatMap, goQuote } from './fieldpath.js';
export type { ResourceList } from './resource.js';
