// The kubelet's image manager (EnsureImageExists): pull policy, the per-image pull back-off, and
// the Pulling / Pulled / Failed / BackOff / ErrImageNeverPull events with their upstream texts.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { PullProgress, RuntimeService } from '../../runtime/cri.js';
import type { Backoff } from './backoff.js';
import { goDuration } from './backoff.js';
import type { StartFailure } from './types.js';
import { imageTag } from '../../validation/defaults.js';

export type ImageResult = { imageRef: string } | { failure: StartFailure };

export interface ImageEvents {
  normal(reason: string, message: string): void;
  warning(reason: string, message: string): void;
}

/** Docker's reference grammar, loosely: [host[:port]/]path[:tag][@digest], lower-case path. */
const refRe = /^(?:[a-zA-Z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

/** applyDefaultImageTag: a reference without tag or digest gets `:latest`. Returns an error text for a bad reference. */
export function applyDefaultImageTag(image: string): { image: string } | { error: string } {
  if (!refRe.test(image)) {
    return { error: `Failed to apply default image tag "${image}": couldn't parse image name "${image}": invalid reference format` };
  }
  const lastSlash = image.lastIndexOf('/');
  const hasTag = image.slice(lastSlash + 1).includes(':');
  const hasDigest = image.includes('@');
  return { image: hasTag || hasDigest ? image : `${image}:latest` };
}

/** The API server's default (for a pod that reached the kubelet without one): Always for the tag `latest` or none, IfNotPresent otherwise. */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  return imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}

export function shouldPullImage(policy: string, present: boolean): boolean {
  if (policy === 'Never') return false;
  if (policy === 'Always') return true;
  return !present;
}

/** The image manager's memory: per-image pull back-off and the last pull error of each key. */
export interface PullState {
  backoff: Backoff;
  lastError: Map<string, string>;
}

export async function ensureImageExists(
  rt: RuntimeService,
  pod: Pod,
  c: Container,
  pulls: PullState,
  now: () => number,
  ev: ImageEvents,
  onProgress?: (p: PullProgress) => void,
): Promise<ImageResult> {
  const spec = c.image ?? '';
  const tagged = applyDefaultImageTag(spec);
  if ('error' in tagged) {
    ev.warning('InspectFailed', tagged.error);
    return { failure: { reason: 'InvalidImageName', message: tagged.error } };
  }
  const image = tagged.image;
  let present: Awaited<ReturnType<RuntimeService['imageStatus']>>;
  try {
    present = await rt.imageStatus(image);
  } catch (e) {
    const msg = `Failed to inspect image "${image}": ${(e as Error).message}`;
    ev.warning('InspectFailed', msg);
    return { failure: { reason: 'ImageInspectError', message: msg } };
  }
  const policy = c.imagePullPolicy ?? defaultPullPolicy(spec);
  if (!shouldPullImage(policy, !!present)) {
    if (present) {
      ev.normal('Pulled', `Container image "${spec}" already present on machine`);
      return { imageRef: present.id };
    }
    const msg = `Container image "${spec}" is not present with pull policy of Never`;
    ev.warning('ErrImageNeverPull', msg);
    return { failure: { reason: 'ErrImageNeverPull', message: msg } };
  }
  const key = `${pod.metadata?.uid}_${spec}`;
  if (pulls.backoff.isInBackOffSinceUpdate(key, now())) {
    const msg = `Back-off pulling image "${spec}"`;
    ev.normal('BackOff', msg);
    const prev = pulls.lastError.get(key);
    return { failure: { reason: 'ImagePullBackOff', message: prev ? `${msg}: ErrImagePull: ${prev}` : msg } };
  }
  ev.normal('Pulling', `Pulling image "${spec}"`);
  const started = now();
  try {
    const ref = await rt.pullImage(image, onProgress);
    pulls.lastError.delete(key);
    const took = goDuration(now() - started);
    const size = (await rt.imageStatus(image))?.size ?? 0;
    ev.normal('Pulled', `Successfully pulled image "${spec}" in ${took} (${took} including waiting). Image size: ${size} bytes.`);
    return { imageRef: ref };
  } catch (e) {
    const err = (e as Error).message;
    ev.warning('Failed', `Failed to pull image "${spec}": ${err}`);
    pulls.backoff.next(key, now());
    pulls.lastError.set(key, err);
    return { failure: { reason: 'ErrImagePull', message: err } };
  }
}
