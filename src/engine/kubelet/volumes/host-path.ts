// hostPath volumes (upstream pkg/volume/hostpath/host_path.go: hostPathMounter.SetUp,
// checkTypeInternal, makeDir, makeFile): the path is used as given; its `type` is checked (and
// DirectoryOrCreate / FileOrCreate create it) with the upstream error texts. Filesystem shell.
import { closeSync, constants, mkdirSync, openSync, statSync, type Stats } from 'node:fs';
import type { HostPathVolumeSource } from 'kubernetes-types/core/v1';

/** A Node filesystem error as Go's *PathError prints it: `<op> <path>: <description>`. */
export function goPathError(e: unknown, op: string, path: string): string {
  const err = e as NodeJS.ErrnoException;
  const m = /^[A-Z]+: ([^,]+)/.exec(err?.message ?? '');
  return `${op} ${err?.path ?? path}: ${m ? m[1] : String(err?.message ?? e)}`;
}

function stat(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** validation.ValidatePathNoBacksteps */
function hasBacksteps(path: string): boolean {
  return path.split('/').includes('..');
}

/** SetUp of a hostPath volume: undefined when fine, else the error text. */
export function setUpHostPath(source: HostPathVolumeSource): string | undefined {
  const path = source.path;
  if (hasBacksteps(path)) return `invalid HostPath \`${path}\`: must not contain '..'`;
  const type = source.type ?? '';
  if (type === '') return undefined;
  const st = stat(path);
  const notDir = `hostPath type check failed: ${path} is not a directory`;
  const notFile = `hostPath type check failed: ${path} is not a file`;
  switch (type) {
    case 'DirectoryOrCreate':
      if (st) return st.isDirectory() ? undefined : notDir;
      try {
        mkdirSync(path, { recursive: true, mode: 0o755 });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return goPathError(e, 'mkdir', path);
      }
      return undefined;
    case 'Directory':
      return st?.isDirectory() ? undefined : notDir;
    case 'FileOrCreate':
      if (st) return st.isDirectory() ? notFile : undefined;
      try {
        closeSync(openSync(path, constants.O_CREAT | constants.O_RDONLY, 0o644));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return goPathError(e, 'open', path);
      }
      return undefined;
    case 'File':
      return st && !st.isDirectory() ? undefined : notFile;
    case 'Socket':
      return st?.isSocket() ? undefined : `hostPath type check failed: ${path} is not a socket file`;
    case 'CharDevice':
      return st?.isCharacterDevice() ? undefined : `hostPath type check failed: ${path} is not a character device`;
    case 'BlockDevice':
      return st?.isBlockDevice() ? undefined : `hostPath type check failed: ${path} is not a block device`;
    default:
      return `${type} is an invalid volume type`;
  }
}
