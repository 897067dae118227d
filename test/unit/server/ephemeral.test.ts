// The pods/ephemeralcontainers subresource's update path (src/server/ephemeral.ts) on an engine
// with the fake runtime: what kubectl debug's strategic merge patch stores, that only
// spec.ephemeralContainers is taken from a request, and the API server's refusals as whole Status objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EphemeralContainer } from 'kubernetes-types/core/v1';
import { fakeLab, podOf, type FakeLab } from '../../support/fake-engine.js';
import { patchEphemeralContainers, updateEphemeralContainers } from '../../../src/server/ephemeral.js';
import { ApiError, type FieldValidation } from '../../../src/server/resources.js';

const SMP = 'application/strategic-merge-patch+json';
/** The patch kubectl debug (1.27 and 1.33) sends for `kubectl debug web --image=busybox:1.35 -c dbg --target=app -- sh -c 'echo hi'`. */
const KUBECTL_DEBUG = '{"spec":{"ephemeralContainers":[{"command":["sh","-c","echo hi"],"image":"busybox:1.35","name":"dbg","resources":{},"targetContainerName":"app","terminationMessagePolicy":"File"}]}}';
const STORED_DBG: EphemeralContainer = {
  command: ['sh', '-c', 'echo hi'],
  image: 'busybox:1.35',
  name: 'dbg',
  resources: {},
  targetContainerName: 'app',
  terminationMessagePolicy: 'File',
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePath: '/dev/termination-log',
};

type Request = { patch: string; type?: string } | { put: (pod: Record<string, any>) => void };
type Outcome = { stored: { ephemeral: unknown; image: unknown }; warnings: string[] } | { status: unknown };

async function send(lab: FakeLab, req: Request, opts: { fieldValidation?: FieldValidation; dryRun?: boolean } = {}): Promise<Outcome> {
  try {
    let next: unknown;
    if ('patch' in req) next = patchEphemeralContainers(lab.engine, 'default', 'web', req.patch, req.type ?? SMP);
    else {
      const pod = structuredClone(lab.pod('web')) as Record<string, any>;
      req.put(pod);
      next = JSON.stringify(pod);
    }
    const r = await updateEphemeralContainers(lab.engine, 'default', 'web', next, { fieldValidation: opts.fieldValidation ?? 'Warn', dryRun: opts.dryRun ?? false });
    const p = lab.pod('web');
    return { stored: { ephemeral: p?.spec?.ephemeralContainers, image: p?.spec?.containers[0]?.image }, warnings: r.warnings };
  } catch (e) {
    if (e instanceof ApiError) return { status: e.response };
    throw e;
  }
}

const invalid = (message: string, causes: { reason: string; message: string; field: string }[]) => ({
  status: {
    code: 422,
    body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Pod "web" is invalid: ${message}`, reason: 'Invalid', details: { name: 'web', kind: 'Pod', causes }, code: 422 },
  },
});
const FORBIDDEN = 'cannot be set for an Ephemeral Container';

const cases: { name: string; before?: string; req: Request; opts?: { fieldValidation?: FieldValidation; dryRun?: boolean }; want: Outcome }[] = [
  {
    name: "kubectl debug's strategic merge patch adds the container, defaulted, with no warning",
    req: { patch: KUBECTL_DEBUG },
    want: { stored: { ephemeral: [STORED_DBG], image: 'busybox:1.35' }, warnings: [] },
  },
  {
    name: "a second debug container goes after the first, in the order of kubectl's $setElementOrder directive",
    before: KUBECTL_DEBUG,
    req: { patch: '{"spec":{"$setElementOrder/ephemeralContainers":[{"name":"dbg"},{"name":"two"}],"ephemeralContainers":[{"name":"two","image":"busybox:1.35","stdin":true,"tty":true}]}}' },
    want: {
      stored: {
        ephemeral: [STORED_DBG, { name: 'two', image: 'busybox:1.35', stdin: true, tty: true, resources: {}, imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
        image: 'busybox:1.35',
      },
      warnings: [],
    },
  },
  {
    name: "a PUT's changes outside spec.ephemeralContainers are dropped (dropNonEphemeralContainerUpdates)",
    req: { put: (p) => ((p.spec.containers[0].image = 'busybox:1.36'), (p.spec.ephemeralContainers = [{ name: 'dbg', image: 'busybox:1.35', command: ['sh', '-c', 'echo hi'], resources: {}, targetContainerName: 'app', terminationMessagePolicy: 'File' }])) },
    want: { stored: { ephemeral: [STORED_DBG], image: 'busybox:1.35' }, warnings: [] },
  },
  {
    name: 'a dry run answers but stores nothing',
    req: { patch: KUBECTL_DEBUG },
    opts: { dryRun: true },
    want: { stored: { ephemeral: undefined, image: 'busybox:1.35' }, warnings: [] },
  },
  {
    name: 'an unknown field is a 400 strict decoding error with fieldValidation=Strict',
    req: { patch: '{"spec":{"ephemeralContainers":[{"name":"dbg","image":"busybox:1.35","colour":"red"}]}}' },
    opts: { fieldValidation: 'Strict' },
    want: {
      status: {
        code: 400,
        body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.ephemeralContainers[0].colour"', reason: 'BadRequest', code: 400 },
      },
    },
  },
  {
    name: 'ports and a readiness probe are refused with 422, every cause listed',
    req: { patch: '{"spec":{"ephemeralContainers":[{"name":"dbg","image":"busybox:1.35","ports":[{"containerPort":80}],"readinessProbe":{"exec":{"command":["true"]}}}]}}' },
    want: invalid(`[spec.ephemeralContainers[0].ports: Forbidden: ${FORBIDDEN}, spec.ephemeralContainers[0].readinessProbe: Forbidden: ${FORBIDDEN}]`, [
      { reason: 'FieldValueForbidden', message: `Forbidden: ${FORBIDDEN}`, field: 'spec.ephemeralContainers[0].ports' },
      { reason: 'FieldValueForbidden', message: `Forbidden: ${FORBIDDEN}`, field: 'spec.ephemeralContainers[0].readinessProbe' },
    ]),
  },
  {
    name: "a name taken by the pod's container is a duplicate",
    req: { patch: '{"spec":{"ephemeralContainers":[{"name":"app","image":"busybox:1.35"}]}}' },
    want: invalid('spec.ephemeralContainers[0].name: Duplicate value: "app"', [{ reason: 'FieldValueDuplicate', message: 'Duplicate value: "app"', field: 'spec.ephemeralContainers[0].name' }]),
  },
  {
    name: 'removing an existing ephemeral container is forbidden',
    before: KUBECTL_DEBUG,
    req: { patch: '[{"op":"remove","path":"/spec/ephemeralContainers/0"}]', type: 'application/json-patch+json' },
    want: invalid('spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be removed\n', [
      { reason: 'FieldValueForbidden', message: 'Forbidden: existing ephemeral containers "dbg" may not be removed\n', field: 'spec.ephemeralContainers' },
    ]),
  },
  {
    name: 'a PUT with a stale resourceVersion is a conflict',
    req: { put: (p) => (p.metadata.resourceVersion = '1') },
    want: {
      status: {
        code: 409,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'Operation cannot be fulfilled on pods "web": the object has been modified; please apply your changes to the latest version and try again',
          reason: 'Conflict',
          details: { name: 'web', kind: 'pods' },
          code: 409,
        },
      },
    },
  },
  {
    name: 'a patch in an unknown media type is a 415',
    req: { patch: KUBECTL_DEBUG, type: 'application/apply-patch+yaml' },
    want: {
      status: {
        code: 415,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
          reason: 'UnsupportedMediaType',
          code: 415,
        },
      },
    },
  },
];

for (const c of cases) {
  test(c.name, async () => {
    const lab = await fakeLab();
    try {
      await lab.engine.createPod(podOf({ containers: [{ name: 'app', command: ['sleep', '3600'] }] }, 'web'));
      if (c.before) await send(lab, { patch: c.before });
      assert.deepEqual(await send(lab, c.req, c.opts), c.want);
    } finally {
      await lab.close();
    }
  });
}
