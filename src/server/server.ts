// The lab server's HTTP side: the Kubernetes REST API on 127.0.0.1 over HTTPS (the counterpart
// of kube-apiserver's handler chain, k8s.io/apiserver/pkg/server + endpoints/handlers), in front of
// one engine. The chain: refuse a browser (an `Origin` header) or a non-loopback `Host`, check
// the bearer token in constant time, then route: discovery and OpenAPI, the resources
// (list/get/create/update/patch/delete/watch, the status and binding subresources, logs),
// authorization reviews, the streaming subresources (exec, attach, port-forward over WebSocket
// and SPDY) and Pod Lab's own API (lab-api.ts).
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { connect as netConnect } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { ContainerNotRunningError, type Engine } from '../engine/engine.js';
import { goQuote } from '../shared/go.js';
import { podContainerNames } from '../shared/pod-containers.js';
import type { Pod } from 'kubernetes-types/core/v1';
import type { WatchEvent } from '../engine/api.js';
import type { Kind } from '../engine/store.js';
import type { LabCredentials } from './credentials.js';
import { tokenMatches } from './credentials.js';
import type { TLSSocket } from 'node:tls';
import { OWNER, authorize, forbiddenFor, requestAttributes, rulesFor, upgradeAttributes, type UserInfo } from './authz.js';
import { apiGroup, apiGroupList, apiVersions, authorizationV1Resources, coreV1Resources, labV1alpha1Resources, versionInfo } from './discovery.js';
import { openapiResponse } from './openapi.js';
import { acceptsTable, objectTable, parseIncludeObject, tableWatchEvent, toTable, type IncludeObject, type TableKind } from './tables.js';
import * as S from './status.js';
import { applyPatch, patchTypeOf, PatchError } from './patch.js';
import { parseFieldSelector, parseLabelSelector } from './selectors.js';
import { WatchCache, filterEvent, matchesFilter, bookmark, nextBookmarkTime, type WatchFilter } from './watch-cache.js';
import { ApiError, badRequest, notFound, parseBody, Registry, RESOURCES, type FieldValidation, type ResourceInfo } from './resources.js';
import { LAB_GROUP, LAB_VERSION } from './lab-api.js';
import { decodeProtobufBody, isProtobuf } from './protobuf.js';
import { handleRemoteCommand, parseStreamQuery } from './remotecommand.js';
import { handlePortForward } from './portforward.js';
import { simulatedPodRefusal } from '../shared/labels.js';
import { patchEphemeralContainers, updateEphemeralContainers } from './ephemeral.js';
import { parsePodLogQuery } from './log-options.js';
import type { LogLines } from '../runtime/cri.js';

export interface LabServerOptions {
  engine: Engine;
  credentials: LabCredentials;
  log?: (line: string) => void;
  now?: () => number;
}

type Filter = WatchFilter & { kind: Kind };

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  body?: string;
}

const JSON_TYPE = 'application/json';
const MAX_BODY = 8 * 1024 * 1024;

/** The loopback names a request may carry in its Host header. */
function hostAllowed(host: string | undefined, port: number): boolean {
  if (!host) return false;
  return [`127.0.0.1:${port}`, `localhost:${port}`, '127.0.0.1', 'localhost'].includes(host.toLowerCase());
}

const routeNotFound = () => new ApiError(S.routeNotFound());

export class LabServer {
  readonly https: Server;
  private readonly registry: Registry;
  private readonly cache: WatchCache;
  private readonly wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => [...protocols][0] ?? false });
  private readonly closers = new Set<() => void>();
  private readonly log: (line: string) => void;
  private readonly now: () => number;
  private readonly sub: { dispose(): void };
  port = 0;
  readonly startedAt = Date.now();

  constructor(private readonly opts: LabServerOptions) {
    this.log = opts.log ?? (() => undefined);
    this.now = opts.now ?? Date.now;
    this.registry = new Registry(opts.engine, this.now);
    this.registry.ensureSystemNamespaces();
    this.cache = new WatchCache();
    const store = opts.engine.store;
    for (const k of ['Pod', 'Event', 'Node', 'ConfigMap', 'Secret', 'Namespace'] as const) this.cache.seed(k, store.list(k), Number(store.currentResourceVersion()));
    this.sub = store.watch((e) => void this.cache.record(e));
    const { certPem, keyPem } = opts.credentials;
    // Client certificates are asked for, not required: one signed by the lab's CA authenticates its
    // CN as the user and its O values as groups (kube-apiserver's x509 authenticator); the token works as before.
    this.https = createServer(
      { cert: certPem, key: keyPem, minVersion: 'TLSv1.2', ca: this.opts.credentials.caPem, requestCert: true, rejectUnauthorized: false },
      (req, res) => void this.handle(req, res),
    );
    this.https.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(req, socket, head));
    this.https.keepAliveTimeout = 65_000;
  }

  /** Listens on 127.0.0.1 (port 0: any free port). Resolves with the port. */
  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (e: Error) => reject(e);
      this.https.once('error', onError);
      this.https.listen(port, '127.0.0.1', () => {
        this.https.off('error', onError);
        const addr = this.https.address();
        this.port = typeof addr === 'object' && addr ? addr.port : port;
        resolve(this.port);
      });
    });
  }

  async close(): Promise<void> {
    this.sub.dispose();
    for (const c of [...this.closers]) c();
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((r) => this.https.close(() => r()));
    this.https.closeAllConnections?.();
  }

  // ---- the handler chain -----------------------------------------------------------------

  /** The checks every request passes first; an error Status when it fails. */
  private refuse(req: IncomingMessage, upgrade = false): S.StatusResponse | undefined {
    // A web page may send requests to 127.0.0.1 (with an Origin) or through DNS rebinding (another Host): never serve them.
    if (req.headers.origin !== undefined) return S.genericServerResponse(403, 'requests from a web browser (with an Origin header) are refused by the Pod Lab server');
    if (!hostAllowed(req.headers.host, this.port)) return S.genericServerResponse(403, `the Pod Lab server answers only to the Host 127.0.0.1:${this.port}`);
    const user = this.authenticate(req);
    if (!user) return S.unauthorized();
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const attrs = upgrade ? upgradeAttributes(url) : requestAttributes(req.method ?? 'GET', url);
    if (!authorize(user, attrs)) return forbiddenFor(user, attrs);
    return undefined;
  }

  /**
   * As kube-apiserver's union authenticator: a client certificate signed by the lab's CA for
   * client authentication (CN user, O groups) first, then the bearer token (the lab's owner).
   */
  private authenticate(req: IncomingMessage): UserInfo | undefined {
    const socket = req.socket as TLSSocket;
    if (socket.authorized) {
      const cert = socket.getPeerCertificate();
      const subject = cert?.subject as { CN?: string | string[]; O?: string | string[] } | undefined;
      const cn = Array.isArray(subject?.CN) ? subject.CN[0] : subject?.CN;
      // x509.Verifier requires the clientAuth usage: the lab's serving certificate is no user.
      const clientAuth = (cert as { ext_key_usage?: string[] } | undefined)?.ext_key_usage?.includes('1.3.6.1.5.5.7.3.2') ?? false;
      if (cn && clientAuth) {
        const o = subject?.O === undefined ? [] : Array.isArray(subject.O) ? subject.O : [subject.O];
        return { name: cn, groups: [...o, 'system:authenticated'] };
      }
    }
    return tokenMatches(this.opts.credentials.token, req.headers.authorization) ? OWNER : undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const ctx: Ctx = { req, res, url, method: req.method ?? 'GET' };
    try {
      const refused = this.refuse(req);
      if (refused) return this.sendJson(res, refused.code, refused.body);
      if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) ctx.body = bodyText(await readBody(req), req.headers['content-type'] ?? '');
      await this.route(ctx);
    } catch (e) {
      this.sendError(res, e);
    }
  }

  private sendError(res: ServerResponse, e: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const r = this.statusOf(e);
    this.sendJson(res, r.code, r.body, e instanceof ApiError ? warningHeaders(e.warnings) : {});
  }

  /** The Status answering an error thrown while serving. */
  private statusOf(e: unknown): S.StatusResponse {
    if (e instanceof ApiError) return e.response;
    if (e instanceof PatchError) {
      if (e.detail) this.log(`patch: ${e.detail}`);
      const { reason: _r, ...rest } = S.badRequest(e.message).body;
      return { code: e.status, body: { ...rest, ...(e.reason ? { reason: e.reason } : {}), code: e.status } as S.StatusObject };
    }
    const err = e as { name?: string; message?: string };
    if (err?.name === 'SelectorError') return S.badRequest(err.message ?? '');
    this.log(`internal error: ${(e as Error)?.stack ?? String(e)}`);
    return S.internal(e);
  }

  private sendJson(res: ServerResponse, code: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(code, { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-cache, private', ...headers });
    res.end(text);
  }

  private async route(ctx: Ctx): Promise<void> {
    const segs = ctx.url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const get = ctx.method === 'GET' || ctx.method === 'HEAD';
    const [a, b, c] = segs;
    if (get && segs.length === 1 && a === 'version') return this.sendJson(ctx.res, 200, versionInfo());
    if (get && segs.length === 1 && (a === 'healthz' || a === 'livez' || a === 'readyz')) {
      ctx.res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void ctx.res.end('ok');
    }
    if (a === 'openapi') return this.openapi(ctx);
    if (a === 'api') {
      if (segs.length === 1 && get) return this.sendJson(ctx.res, 200, apiVersions(`127.0.0.1:${this.port}`));
      if (b !== 'v1') throw routeNotFound();
      if (segs.length === 2 && get) return this.sendJson(ctx.res, 200, coreV1Resources());
      return this.core(ctx, segs.slice(2));
    }
    if (a === 'apis') {
      if (segs.length === 1 && get) return this.sendJson(ctx.res, 200, apiGroupList());
      if (b === 'authorization.k8s.io' && c === 'v1') return this.authorization(ctx, segs.slice(3));
      if (b === LAB_GROUP && c === LAB_VERSION) return this.lab(ctx, segs.slice(3));
      // No CustomResourceDefinitions exist, and the list says so: kubectl lists them to decide how to
      // validate a kind the OpenAPI does not know, and then names the kind it cannot map (a refused
      // list would make its error about the list instead).
      if (b === 'apiextensions.k8s.io' && c === 'v1' && segs[3] === 'customresourcedefinitions' && segs.length === 4 && get) {
        return this.sendJson(ctx.res, 200, { kind: 'CustomResourceDefinitionList', apiVersion: 'apiextensions.k8s.io/v1', metadata: { resourceVersion: String(this.cache.resourceVersion()) }, items: [] });
      }
      const group = segs.length === 2 && get ? apiGroup(b ?? '') : undefined;
      if (group) return this.sendJson(ctx.res, 200, group);
    }
    throw routeNotFound();
  }

  private openapi(ctx: Ctx): void {
    const r = openapiResponse(
      {
        method: ctx.method,
        path: ctx.url.pathname,
        query: ctx.url.search.slice(1),
        accept: ctx.req.headers.accept,
        ifNoneMatch: ctx.req.headers['if-none-match'],
        ifModifiedSince: ctx.req.headers['if-modified-since'],
      },
      { lastModified: new Date(this.startedAt), now: new Date(this.now()), gitVersion: versionInfo().gitVersion },
    );
    if (!r) throw routeNotFound();
    ctx.res.writeHead(r.status, r.headers);
    ctx.res.end(r.body);
  }

  // ---- core/v1 -----------------------------------------------------------------------------

  private async core(ctx: Ctx, segs: string[]): Promise<void> {
    // /api/v1/{resource}[/{name}[/{sub}]] and /api/v1/namespaces/{ns}/{resource}[/{name}[/{sub}]]
    let ns: string | undefined;
    let rest = segs;
    if (segs[0] === 'namespaces' && segs.length >= 3) {
      ns = segs[1];
      rest = segs.slice(2);
    }
    const [resource, name, sub] = rest;
    if (resource === 'bindings' && ns && ctx.method === 'POST' && !name) {
      const b = parseBody(ctx.body ?? '') as { metadata?: { name?: string } };
      return this.sendJson(ctx.res, 201, this.registry.bind(ns, b.metadata?.name ?? '', ctx.body ?? ''));
    }
    const info = RESOURCES[resource ?? ''];
    if (!info || rest.length > 3) throw routeNotFound();
    if (ns !== undefined && !info.namespaced) throw routeNotFound();
    if (name === undefined) return this.collection(ctx, info, ns);
    if (sub === undefined) return this.item(ctx, info, ns ?? (info.namespaced ? 'default' : undefined), name);
    return this.subresource(ctx, info, ns ?? 'default', name, sub);
  }

  private fieldValidation(ctx: Ctx): FieldValidation {
    const v = ctx.url.searchParams.get('fieldValidation');
    if (v === 'Strict' || v === 'Ignore') return v;
    return 'Warn';
  }

  private dryRun(ctx: Ctx): boolean {
    return ctx.url.searchParams.getAll('dryRun').includes('All');
  }

  /** Sends a written object, with the warnings as `Warning: 299 - "..."` headers. */
  private sendWritten(ctx: Ctx, code: number, kind: Kind, object: object, warnings: string[]): void {
    const headers = warningHeaders(warnings);
    this.sendJson(ctx.res, code, this.present(kind, object), headers);
  }

  /** An object as the API returns it: kind and apiVersion first; a Secret's stringData never. */
  private present(kind: Kind, o: object): object {
    const { apiVersion: _a, kind: _k, ...rest } = o as Record<string, unknown>;
    if (kind === 'Secret') delete rest.stringData;
    return { kind, apiVersion: 'v1', ...rest };
  }

  private filterOf(ctx: Ctx, info: ResourceInfo, ns: string | undefined): Filter {
    const q = ctx.url.searchParams;
    const label = q.get('labelSelector') ? parseLabelSelector(q.get('labelSelector')!) : undefined;
    const field = q.get('fieldSelector') ? parseFieldSelector(info.kind, q.get('fieldSelector')!) : undefined;
    return { kind: info.kind, ...(ns !== undefined ? { namespace: ns } : {}), ...(label ? { labelSelector: label } : {}), ...(field ? { fieldSelector: field } : {}) };
  }

  private matches(f: Filter, o: object): boolean {
    return matchesFilter(f.kind, f, o);
  }

  private async collection(ctx: Ctx, info: ResourceInfo, ns: string | undefined): Promise<void> {
    const q = ctx.url.searchParams;
    switch (ctx.method) {
      case 'GET': {
        const filter = this.filterOf(ctx, info, ns);
        if (q.get('watch') === 'true' || q.get('watch') === '1') return this.watch(ctx, info, filter);
        const items = this.registry.list(info, ns, filter.fieldSelector).filter((o) => this.matches(filter, o));
        const rv = this.opts.engine.store.currentResourceVersion();
        const tv = acceptsTable(ctx.req.headers.accept);
        if (tv) return this.sendJson(ctx.res, 200, toTable(info.kind as TableKind, items, this.now(), { includeObject: this.includeObject(ctx), listMeta: { resourceVersion: rv }, version: tv }));
        return this.sendJson(ctx.res, 200, {
          kind: `${info.kind}List`,
          apiVersion: 'v1',
          metadata: { resourceVersion: rv },
          items: items.map((o) => this.present(info.kind, o)),
        });
      }
      case 'POST': {
        if (!info.namespaced && ns) throw badRequest('not namespaced');
        const { object, warnings } = await this.registry.create(info, ns ?? (info.namespaced ? 'default' : undefined), ctx.body ?? '', { fieldValidation: this.fieldValidation(ctx), dryRun: this.dryRun(ctx) });
        return this.sendWritten(ctx, 201, info.kind, object, warnings);
      }
      case 'DELETE': {
        // deletecollection
        const filter = this.filterOf(ctx, info, ns);
        const items = this.registry.list(info, ns, filter.fieldSelector).filter((o) => this.matches(filter, o));
        const grace = this.gracePeriod(ctx);
        const out: object[] = [];
        for (const o of items) {
          const md = (o as { metadata?: { namespace?: string; name?: string } }).metadata;
          out.push((await this.registry.delete(info, md?.namespace, md?.name ?? '', { gracePeriodSeconds: grace, dryRun: this.dryRun(ctx) })).object);
        }
        return this.sendJson(ctx.res, 200, { kind: `${info.kind}List`, apiVersion: 'v1', metadata: { resourceVersion: this.opts.engine.store.currentResourceVersion() }, items: out.map((o) => this.present(info.kind, o)) });
      }
    }
    throw new ApiError(S.routeMethodNotAllowed());
  }

  private includeObject(ctx: Ctx): IncludeObject {
    const v = parseIncludeObject(ctx.url.searchParams.get('includeObject'));
    if (typeof v === 'object') throw badRequest(v.error);
    return v;
  }

  private gracePeriod(ctx: Ctx): number | undefined {
    const q = ctx.url.searchParams.get('gracePeriodSeconds');
    let body: { gracePeriodSeconds?: number; preconditions?: { uid?: string; resourceVersion?: string } } = {};
    if (ctx.body && ctx.body.trim()) {
      try {
        body = JSON.parse(ctx.body) as typeof body;
      } catch {
        throw badRequest('the body of the DeleteOptions could not be decoded');
      }
    }
    if (q !== null && q !== '') return Number(q);
    return body.gracePeriodSeconds ?? undefined;
  }

  private preconditions(ctx: Ctx): { uid?: string; resourceVersion?: string } {
    if (!ctx.body?.trim()) return {};
    try {
      return (JSON.parse(ctx.body) as { preconditions?: { uid?: string; resourceVersion?: string } }).preconditions ?? {};
    } catch {
      return {};
    }
  }

  private async item(ctx: Ctx, info: ResourceInfo, ns: string | undefined, name: string): Promise<void> {
    switch (ctx.method) {
      case 'GET': {
        const o = this.registry.get(info, ns, name);
        const tv = acceptsTable(ctx.req.headers.accept);
        if (tv) return this.sendJson(ctx.res, 200, objectTable(info.kind as TableKind, o, this.now(), { includeObject: this.includeObject(ctx), version: tv }));
        return this.sendJson(ctx.res, 200, this.present(info.kind, o));
      }
      case 'PUT': {
        const { object, warnings } = await this.registry.update(info, ns, name, ctx.body ?? '', { fieldValidation: this.fieldValidation(ctx), dryRun: this.dryRun(ctx) });
        return this.sendWritten(ctx, 200, info.kind, object, warnings);
      }
      case 'PATCH':
        return this.patch(ctx, info, ns, name);
      case 'DELETE': {
        const pre = this.preconditions(ctx);
        const { object, gone } = await this.registry.delete(info, ns, name, { gracePeriodSeconds: this.gracePeriod(ctx), dryRun: this.dryRun(ctx), ...pre });
        // Pods answer with the object (being terminated, or gone); the other kinds with a Success Status.
        if (info.kind !== 'Pod' && info.kind !== 'Namespace') return this.sendJson(ctx.res, 200, S.success({ name, kind: info.resource, uid: (object as { metadata?: { uid?: string } }).metadata?.uid }).body);
        return this.sendJson(ctx.res, gone ? 200 : 202, this.present(info.kind, object));
      }
    }
    throw new ApiError(S.routeMethodNotAllowed());
  }

  private async patch(ctx: Ctx, info: ResourceInfo, ns: string | undefined, name: string, sub?: 'status'): Promise<void> {
    const type = patchTypeOf(ctx.req.headers['content-type'] ?? '');
    if (!type) {
      throw new ApiError(S.unsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']));
    }
    const cur = this.registry.get(info, ns, name);
    let patchBody: unknown;
    try {
      patchBody = JSON.parse(ctx.body ?? '');
    } catch (e) {
      throw badRequest(`error decoding patch: ${(e as Error).message}`);
    }
    const patched = applyPatch(this.present(info.kind, cur), patchBody, type, info.kind) as { metadata?: { resourceVersion?: string } };
    // A patch never carries a stale resourceVersion unless the client put one in.
    const explicitRv = JSON.stringify(patchBody).includes('"resourceVersion"');
    if (!explicitRv && patched.metadata) patched.metadata.resourceVersion = (cur as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
    const { object, warnings } = await this.registry.update(info, ns, name, JSON.stringify(patched), { fieldValidation: this.fieldValidation(ctx), dryRun: this.dryRun(ctx), ...(sub ? { sub } : {}) });
    return this.sendWritten(ctx, 200, info.kind, object, warnings);
  }

  private async subresource(ctx: Ctx, info: ResourceInfo, ns: string, name: string, sub: string): Promise<void> {
    if (sub === 'status' && (info.kind === 'Pod' || info.kind === 'Node' || info.kind === 'Namespace')) {
      const scopedNs = info.namespaced ? ns : undefined;
      if (ctx.method === 'GET') return this.sendJson(ctx.res, 200, this.present(info.kind, this.registry.get(info, scopedNs, name)));
      if (ctx.method === 'PUT') {
        const { object } = await this.registry.update(info, scopedNs, name, ctx.body ?? '', { fieldValidation: 'Ignore', dryRun: this.dryRun(ctx), sub: 'status' });
        return this.sendJson(ctx.res, 200, this.present(info.kind, object));
      }
      if (ctx.method === 'PATCH') return this.patch(ctx, info, scopedNs, name, 'status');
    }
    if (info.kind === 'Pod') {
      if (sub === 'binding' && ctx.method === 'POST') return this.sendJson(ctx.res, 201, this.registry.bind(ns, name, ctx.body ?? ''));
      if (sub === 'eviction' && ctx.method === 'POST') return this.sendJson(ctx.res, 201, await this.registry.evict(ns, name, ctx.body ?? '', this.dryRun(ctx)));
      if (sub === 'log' && ctx.method === 'GET') return this.podLog(ctx, ns, name);
      if (sub === 'ephemeralcontainers') {
        if (ctx.method === 'GET') return this.sendJson(ctx.res, 200, this.present('Pod', this.registry.get(info, ns, name)));
        const next = ctx.method === 'PUT' ? (ctx.body ?? '') : ctx.method === 'PATCH' ? patchEphemeralContainers(this.opts.engine, ns, name, ctx.body ?? '', ctx.req.headers['content-type'] ?? '') : undefined;
        if (next === undefined) throw new ApiError(S.routeMethodNotAllowed());
        const { object, warnings } = await updateEphemeralContainers(this.opts.engine, ns, name, next, { fieldValidation: this.fieldValidation(ctx), dryRun: this.dryRun(ctx) });
        return this.sendWritten(ctx, 200, 'Pod', object, warnings);
      }
      if (sub === 'exec' || sub === 'attach' || sub === 'portforward') {
        throw badRequest(`Upgrade request required`);
      }
    }
    throw routeNotFound();
  }

  // ---- logs --------------------------------------------------------------------------------

  /** kubectl logs: the container (the only one, else required), previous, tailLines, sinceSeconds/sinceTime, timestamps, limitBytes, follow. */
  private async podLog(ctx: Ctx, ns: string, name: string): Promise<void> {
    // The options are decoded and validated before the pod is looked up, as the API server does.
    const opts = parsePodLogQuery(ctx.url.searchParams, name);
    if ('body' in opts) throw new ApiError(opts);
    const pod = this.opts.engine.getPod(ns, name);
    if (!pod) throw notFound('pods', name);
    // (kubectl names the container itself: the default-container annotation, else the first)
    const container = validateContainer(pod, opts.container ?? '');
    if (typeof container !== 'string') throw new ApiError(container);
    // LogLocation: a pod with no node gives no location, and the answer is 204 with no log
    if (!pod.spec?.nodeName) {
      ctx.res.writeHead(204, { 'Cache-Control': 'no-cache, private' });
      return void ctx.res.end();
    }
    const { previous, timestamps, tailLines: tail } = opts;
    const since = opts.sinceSeconds !== undefined ? this.now() - opts.sinceSeconds * 1000 : opts.sinceTime;
    let limit = opts.limitBytes ?? Infinity;
    const format = (line: string): string | undefined => {
      // Lines come with the runtime's RFC 3339 timestamp; it filters sinceSeconds and is dropped unless asked for.
      const sp = line.indexOf(' ');
      const ts = sp > 0 ? line.slice(0, sp) : '';
      if (since !== undefined && Date.parse(ts) < since) return undefined;
      return timestamps ? line : line.slice(sp + 1);
    };
    const emit = (text: string): boolean => {
      if (limit <= 0) return false;
      const b = Buffer.from(text);
      const out = b.length > limit ? b.subarray(0, limit) : b;
      limit -= out.length;
      ctx.res.write(out);
      return limit > 0;
    };
    const engineError = (e: unknown) => {
      const m = (e as Error).message;
      if (/not found$/.test(m) && m.startsWith('pods ')) return notFound('pods', name);
      return badRequest(m);
    };
    if (!opts.follow) {
      let lines: LogLines;
      try {
        lines = await this.opts.engine.logs(ns, name, container, { previous, tail, timestamps: true });
      } catch (e) {
        throw engineError(e);
      }
      ctx.res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
      // the bytes as written: no newline after a last line the container ended without one
      for (const [i, l] of lines.entries()) {
        const f = format(l);
        if (f !== undefined && !emit(lines.unterminated && i === lines.length - 1 ? f : `${f}\n`)) break;
      }
      return void ctx.res.end();
    }
    let sub: { dispose(): void } | undefined;
    const end = () => {
      sub?.dispose();
      this.closers.delete(end);
      ctx.res.end();
    };
    try {
      sub = await this.opts.engine.followLogs(
        ns,
        name,
        container,
        (l, unterminated) => {
          if (!ctx.res.headersSent) ctx.res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
          const f = format(l);
          if (f !== undefined && !emit(unterminated ? f : `${f}\n`)) end();
        },
        { previous, tail, timestamps: true, onEnd: () => end() },
      );
    } catch (e) {
      throw engineError(e);
    }
    if (!ctx.res.headersSent) {
      ctx.res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
      ctx.res.flushHeaders();
    }
    this.closers.add(end);
    ctx.req.socket.once('close', end);
  }

  // ---- watch -------------------------------------------------------------------------------

  /**
   * Where a watch request starts: its initial events (or the failure). Computed before the
   * response starts, since an invalid resourceVersion fails the request itself.
   */
  private watchStart(url: URL, info: ResourceInfo, filter: Filter) {
    const q = url.searchParams;
    const start = this.cache.initialEvents(info.kind, q.get('resourceVersion') ?? '', this.registry.list(info, filter.namespace, filter.fieldSelector), filter, {
      ...(q.has('sendInitialEvents') ? { sendInitialEvents: q.get('sendInitialEvents') === 'true' } : {}),
      allowWatchBookmarks: q.get('allowWatchBookmarks') === 'true',
    });
    if ('error' in start && !start.inStream) throw new ApiError(start.status);
    return start;
  }

  /** Streams a watch: the initial events (or an ERROR event), then live ones, filtered; bookmarks; the timeout. */
  private startWatch(url: URL, info: ResourceInfo, filter: Filter, start: ReturnType<LabServer['watchStart']>, send: (type: string, object: object) => boolean, done: () => void): () => void {
    const q = url.searchParams;
    const bookmarks = q.get('allowWatchBookmarks') === 'true';
    const timeoutMs = q.get('timeoutSeconds') ? Number(q.get('timeoutSeconds')) * 1000 : 30 * 60 * 1000;
    const deadline = this.now() + timeoutMs;
    let closed = false;
    let bm: NodeJS.Timeout | undefined;
    let live: { dispose(): void } | undefined;
    const stop = () => {
      if (closed) return;
      closed = true;
      live?.dispose();
      clearTimeout(timer);
      clearTimeout(bm);
      this.closers.delete(stop);
      done();
    };
    const timer = setTimeout(stop, timeoutMs);
    this.closers.add(stop);
    if ('error' in start) {
      send('ERROR', start.status.body);
      stop();
      return stop;
    }
    for (const ev of start.events) if (!send(ev.type, ev.object)) return (stop(), stop);
    live = this.cache.subscribe((e) => {
      if (closed || e.kind !== info.kind || e.resourceVersion <= start.after) return;
      const out = filterEvent(e, e.prevObject, filter);
      if (out && !send(out.type, out.object)) stop();
    });
    const scheduleBookmark = () => {
      const at = nextBookmarkTime(this.now(), deadline);
      if (at === undefined || closed) return;
      bm = setTimeout(() => {
        send('BOOKMARK', bookmark(info.kind, this.opts.engine.store.currentResourceVersion()));
        scheduleBookmark();
      }, at - this.now());
    };
    if (bookmarks) scheduleBookmark();
    return stop;
  }

  private watch(ctx: Ctx, info: ResourceInfo, filter: Filter): void {
    const tv = acceptsTable(ctx.req.headers.accept);
    const includeObject = this.includeObject(ctx);
    const start = this.watchStart(ctx.url, info, filter);
    ctx.res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    ctx.res.flushHeaders();
    const send = (type: string, object: object): boolean => {
      if (ctx.res.destroyed) return false;
      const plain = type === 'ERROR' || type === 'BOOKMARK';
      const ev = tv && !plain ? tableWatchEvent(type as 'ADDED', info.kind as TableKind, object, this.now(), { includeObject, version: tv }) : { type, object: plain ? object : this.present(info.kind, object) };
      ctx.res.write(`${JSON.stringify(ev)}\n`);
      return true;
    };
    const stop = this.startWatch(ctx.url, info, filter, start, send, () => ctx.res.end());
    ctx.req.socket.once('close', stop);
  }

  // ---- authorization -------------------------------------------------------------------------

  private authorization(ctx: Ctx, segs: string[]): void {
    if (segs.length === 0 && ctx.method === 'GET') return this.sendJson(ctx.res, 200, authorizationV1Resources());
    if (ctx.method !== 'POST' || segs.length !== 1) throw routeNotFound();
    const review = parseBody(ctx.body ?? '') as {
      spec?: { resourceAttributes?: { verb?: string; group?: string; resource?: string; subresource?: string; namespace?: string; name?: string }; nonResourceAttributes?: { verb?: string; path?: string } };
    };
    const user = this.authenticate(ctx.req) ?? { name: 'system:anonymous', groups: [] };
    if (segs[0] === 'selfsubjectaccessreviews') {
      const r = review.spec?.resourceAttributes;
      const n = review.spec?.nonResourceAttributes;
      const attrs = r
        ? { resourceRequest: true, verb: r.verb ?? '', apiGroup: r.group ?? '', resource: r.resource ?? '', subresource: r.subresource ?? '', namespace: r.namespace ?? '', name: r.name ?? '', path: '' }
        : { resourceRequest: false, verb: n?.verb ?? '', apiGroup: '', resource: '', subresource: '', namespace: '', name: '', path: n?.path ?? '' };
      const allowed = authorize(user, attrs);
      const reason = user.groups.includes('system:masters') ? 'Pod Lab: system:masters may do everything' : allowed ? 'Pod Lab: authenticated users may read' : '';
      return this.sendJson(ctx.res, 201, { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: review.spec ?? {}, status: { allowed, ...(reason ? { reason } : {}) } });
    }
    if (segs[0] === 'selfsubjectrulesreviews') {
      return this.sendJson(ctx.res, 201, {
        kind: 'SelfSubjectRulesReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: review.spec ?? {},
        status: { ...rulesFor(user), incomplete: false },
      });
    }
    throw routeNotFound();
  }

  // ---- Pod Lab's API ------------------------------------------------------------------------

  private async lab(ctx: Ctx, segs: string[]): Promise<void> {
    const engine = this.opts.engine;
    if (segs.length === 0 && ctx.method === 'GET') return this.sendJson(ctx.res, 200, labV1alpha1Resources());
    if (segs[0] === 'attemptlogs' && segs.length === 2 && ctx.method === 'GET') {
      const tail = ctx.url.searchParams.get('tailLines');
      const timestamps = ctx.url.searchParams.get('timestamps') === 'true';
      const lines = await engine.attemptLogs(segs[1]!, tail ? Number(tail) : undefined, timestamps).catch((e: Error) => {
        throw notFound('attemptlogs', `${segs[1]}: ${e.message}`);
      });
      ctx.res.writeHead(200, { 'Content-Type': 'text/plain' });
      return void ctx.res.end(lines.map((l) => `${l}\n`).join(''));
    }
    if (segs[0] === 'pullprogress' && segs.length === 1 && ctx.method === 'GET') {
      ctx.res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Transfer-Encoding': 'chunked' });
      ctx.res.flushHeaders();
      const sub = engine.onPullProgress((p) => ctx.res.write(`${JSON.stringify(p)}\n`));
      const step = engine.onStepWaiting((pod, container) => ctx.res.write(`${JSON.stringify({ stepWaiting: { pod, container } })}\n`));
      const stop = () => {
        sub.dispose();
        step.dispose();
        this.closers.delete(stop);
        ctx.res.end();
      };
      this.closers.add(stop);
      ctx.req.socket.once('close', stop);
      return;
    }
    if (segs[0] === 'namespaces' && segs[2] === 'poddebugs' && segs.length === 3 && ctx.method === 'GET') {
      const watch = ctx.url.searchParams.get('watch');
      if (watch !== 'true' && watch !== '1') throw badRequest('poddebugs are read one pod at a time (GET .../poddebugs/NAME) or watched (?watch=true&fieldSelector=metadata.name=NAME)');
      return this.watchPodDebug(ctx, segs[1]!);
    }
    if (segs[0] === 'namespaces' && segs[2] === 'poddebugs' && segs[3]) {
      const ns = segs[1]!;
      const name = segs[3];
      if (!engine.getPod(ns, name)) throw notFound('pods', name);
      if (segs.length === 4 && ctx.method === 'GET') {
        const info = await engine.debugInfo(ns, name);
        return this.sendJson(ctx.res, 200, { kind: 'PodDebug', apiVersion: `${LAB_GROUP}/${LAB_VERSION}`, metadata: { name, namespace: ns }, ...info });
      }
      if (segs.length === 5 && segs[4] === 'continue' && ctx.method === 'POST') {
        engine.continueStep(ns, name);
        return this.sendJson(ctx.res, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
      }
      if (segs.length === 5 && segs[4] === 'restart' && ctx.method === 'POST') {
        const container = ctx.url.searchParams.get('container') ?? '';
        if (!container) throw badRequest('the container query parameter is required');
        engine.restartNow(ns, name, container);
        return this.sendJson(ctx.res, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
      }
    }
    throw routeNotFound();
  }

  /**
   * A watch of one pod's PodDebug (fieldSelector metadata.name=NAME): ADDED with its state, then
   * MODIFIED on every change the kubelet makes, DELETED when the pod goes, ADDED again for a new
   * pod of that name. Not resumable: there is no history, so resourceVersion is ignored and a
   * client that reconnects gets the current state first.
   */
  private watchPodDebug(ctx: Ctx, namespace: string): void {
    const selector = ctx.url.searchParams.get('fieldSelector') ?? '';
    const m = /^metadata\.name==?([^,=]+)$/.exec(selector);
    if (!m) throw badRequest(`watching poddebugs needs fieldSelector=metadata.name=<pod>, got ${JSON.stringify(selector)}`);
    const name = m[1]!;
    const q = ctx.url.searchParams;
    const timeoutMs = q.get('timeoutSeconds') ? Number(q.get('timeoutSeconds')) * 1000 : 30 * 60 * 1000;
    ctx.res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    ctx.res.flushHeaders();
    let present = false;
    let rv = 0;
    const sub = this.opts.engine.watchDebug(namespace, name, (info) => {
      if (ctx.res.destroyed) return;
      const type = !info ? 'DELETED' : present ? 'MODIFIED' : 'ADDED';
      if (!info && !present) return;
      present = !!info;
      const object = { kind: 'PodDebug', apiVersion: `${LAB_GROUP}/${LAB_VERSION}`, metadata: { name, namespace, resourceVersion: String(++rv) }, ...info };
      ctx.res.write(`${JSON.stringify({ type, object })}\n`);
    });
    const stop = () => {
      sub.dispose();
      clearTimeout(timer);
      this.closers.delete(stop);
      ctx.res.end();
    };
    const timer = setTimeout(stop, timeoutMs);
    this.closers.add(stop);
    ctx.req.socket.once('close', stop);
  }

  // ---- upgrades: exec, attach, port-forward, watch over WebSocket ---------------------------------

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const answer = (r: S.StatusResponse) => {
      const body = JSON.stringify(r.body);
      socket.end(`HTTP/1.1 ${r.code} ${r.body.reason ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    };
    const fail = (code: number, _reason: string, message: string) => answer(code === 404 ? S.notFound('pods', message) : S.badRequest(message));
    try {
      const refused = this.refuse(req, true);
      if (refused) return answer(refused);
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      const segs = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      // /api/v1/namespaces/{ns}/pods/{name}/{exec|attach|portforward}
      if (segs[0] === 'api' && segs[1] === 'v1' && segs[2] === 'namespaces' && segs[4] === 'pods' && segs.length === 7) {
        const ns = segs[3]!;
        const name = segs[5]!;
        const sub = segs[6]!;
        const pod = this.opts.engine.getPod(ns, name);
        if (!pod) return answer(S.notFound('pods', name));
        const nodeName = pod.spec?.nodeName;
        // The API server reaches a pod's containers through its node's kubelet: a node that is gone
        // (a deleted simulated node leaves its pods bound) answers as kube-apiserver's node lookup does.
        const nodeGone = !!nodeName && !this.opts.engine.store.get('Node', undefined, nodeName);
        if (sub === 'exec' || sub === 'attach') {
          const q = parseStreamQuery(url);
          // streamLocation: the container (named, or the only one), then the node
          const container = validateContainer(pod, q.container);
          if (typeof container !== 'string') return answer(container);
          if (!nodeName) return fail(400, 'BadRequest', `pod ${name} does not have a host assigned`);
          if (nodeGone) return answer(S.notFound('nodes', nodeName));
          const target = await this.opts.engine.runningContainer(ns, name, container, sub).catch((e: Error) => e);
          // The kubelet's GetExec/GetAttach find no running instance: its refusal, which kubectl
          // reports as "unable to upgrade connection: …" (handleRemoteCommand: how it comes back).
          const refusal = target instanceof ContainerNotRunningError ? (sub === 'exec' ? `container not found (${goQuote(container)})` : `container ${container} not found in pod ${name}_${ns}`) : undefined;
          if (target instanceof Error && refusal === undefined) return fail(400, 'BadRequest', target.message);
          if (sub === 'exec' && !q.command.length) return fail(400, 'BadRequest', 'you must specify at least 1 command');
          const runtime = this.opts.engine.runtime;
          return handleRemoteCommand(req, socket, head, {
            kind: sub,
            stdin: q.stdin,
            stdout: q.stdout,
            stderr: q.stderr,
            tty: q.tty,
            log: this.log,
            start: (o) => (sub === 'exec' ? runtime.execStream!(target as string, q.command, o) : runtime.attachStream!(target as string, o)),
            ...(refusal !== undefined ? { refusal } : {}),
          });
        }
        if (nodeGone) return answer(S.notFound('nodes', nodeName));
        if (sub === 'portforward') {
          // A simulated pod's IP is made up (10.244.0.0/14 may be a real network here): never dial it.
          const simulated = this.opts.engine.simulatedNodeOf(ns, name);
          if (simulated) return fail(400, 'BadRequest', simulatedPodRefusal(name, simulated, 'listen on no port'));
          const ip = pod.status?.podIP;
          if (!ip) return fail(400, 'BadRequest', `pod ${name} does not have a host assigned`);
          return handlePortForward(req, socket, head, {
            // The CRI streaming server names the pod by its sandbox's id (and passes no uid): looked up when an error needs it.
            pod: async () => (await this.opts.engine.debugInfo(ns, name))?.sandboxes.find((s) => s.state === 'ready')?.id ?? '',
            log: this.log,
            connect: (port: number) =>
              new Promise<Duplex>((resolve, reject) => {
                const s = netConnect({ host: ip, port }, () => resolve(s));
                s.once('error', reject);
              }),
          });
        }
      }
      // A watch over WebSocket (client-go's websocket watch): each event a text message.
      if (segs[0] === 'api' && segs[1] === 'v1' && (url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1')) {
        let ns: string | undefined;
        let rest = segs.slice(2);
        if (rest[0] === 'namespaces' && rest.length >= 3) {
          ns = rest[1];
          rest = rest.slice(2);
        }
        const info = RESOURCES[rest[0] ?? ''];
        if (info && rest.length === 1) {
          const filter = this.filterOf({ req, res: undefined as unknown as ServerResponse, url, method: 'GET' }, info, ns);
          const start = this.watchStart(url, info, filter);
          return this.wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
            const send = (type: string, object: object) => {
              if (ws.readyState !== ws.OPEN) return false;
              ws.send(JSON.stringify({ type, object: type === 'ERROR' || type === 'BOOKMARK' ? object : this.present(info.kind, object) }));
              return true;
            };
            const stop = this.startWatch(url, info, filter, start, send, () => ws.close());
            ws.on('close', stop);
          });
        }
      }
      answer(S.routeNotFound());
    } catch (e) {
      answer(this.statusOf(e));
    }
  }
}

/**
 * A request body as JSON text: kubectl ≥ 1.32 sends some bodies as protobuf (create configmap,
 * secret, namespace; auth can-i; DeleteOptions), decoded here into the JSON it stands for.
 */
function bodyText(body: Buffer, contentType: string): string {
  if (!isProtobuf(contentType)) return body.toString('utf8');
  try {
    return JSON.stringify(decodeProtobufBody(body).object);
  } catch (e) {
    throw new ApiError(S.badRequest(`the object provided is unrecognized: ${(e as Error).message}`));
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new ApiError({ code: 413, body: { ...S.badRequest('Request entity too large: limit is 3145728').body, reason: 'RequestEntityTooLarge', code: 413 } }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Warnings as the API server's `Warning: 299 - "..."` headers. */
function warningHeaders(warnings: readonly string[]): Record<string, string[]> {
  return warnings.length ? { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`) } : {};
}

/**
 * The API server's validateContainer for logs, exec and attach: a named container must be one of
 * the pod's; without a name, the pod's only container, else a 400 naming the choices.
 */
export function validateContainer(pod: Pod, container: string): string | S.StatusResponse {
  const name = pod.metadata?.name ?? '';
  if (container) return podContainerNames(pod).includes(container) ? container : S.badRequest(`container ${container} is not valid for pod ${name}`);
  const all = (pod.spec?.containers ?? []).map((c) => c.name);
  if (all.length === 1) return all[0]!;
  if (all.length === 0) return S.badRequest(`pod ${name} does not have a container`);
  const init = (pod.spec?.initContainers ?? []).map((c) => c.name);
  return S.badRequest(`a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]${init.length ? ` or one of the init containers: [${init.join(' ')}]` : ''}`);
}
