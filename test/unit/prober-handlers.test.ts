// The probe handlers against real local servers on 127.0.0.1 (http, tcp, h2c gRPC health) and a
// stub ExecSync on the fake clock: outcomes and the exact Go-worded outputs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { FakeClock } from '../../src/engine/clock.js';
import { RuntimeError, type ExecResult, type RuntimeService } from '../../src/runtime/cri.js';
import { execProbe, runProbeOnce, runProbeWithRetries, type ProbeRequest } from '../../src/engine/kubelet/prober/handlers.js';
import { doHTTPProbe, newRequestForHTTPGetAction } from '../../src/engine/kubelet/prober/http.js';
import { doTCPProbe } from '../../src/engine/kubelet/prober/tcp.js';
import { decodeHealthCheckResponse, doGRPCProbe, encodeHealthCheckRequest } from '../../src/engine/kubelet/prober/grpc.js';
import { goDuration } from '../../src/engine/kubelet/prober/go-text.js';
import { withProbeDefaults } from '../../src/engine/kubelet/prober/defaults.js';

const closers: (() => void)[] = [];
after(() => closers.forEach((c) => c()));

async function listen(server: net.Server | http.Server | http2.Http2Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => server.close());
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const app: Container = { name: 'app', image: 'busybox:1.35', ports: [{ name: 'http', containerPort: 0 }] };
const withPort = (port: number): Container => ({ ...app, ports: [{ name: 'http', containerPort: port }] });

// ---- httpGet ----------------------------------------------------------------------------------

const seenHeaders: http.IncomingHttpHeaders[] = [];
const web = http.createServer((req, res) => {
  const url = req.url ?? '/';
  seenHeaders.push(req.headers);
  if (url === '/ok') return void res.end('ok body');
  if (url === '/missing') return void res.writeHead(404).end('nope');
  if (url === '/elsewhere') return void res.writeHead(302, { location: 'http://0.0.0.0/' }).end('<a href="http://0.0.0.0/">Found</a>.');
  if (url === '/hop') return void res.writeHead(302, { location: '/ok' }).end('moved');
  if (url.startsWith('/loop')) return void res.writeHead(302, { location: `/loop${Number(url.slice(5) || 0) + 1}` }).end();
  if (url === '/big') return void res.end('x'.repeat(20_000));
  if (url === '/hangup') return void req.socket.destroy();
  if (url === '/silent') return; // never answers
  res.end();
});
let webPort = 0;

before(async () => {
  webPort = await listen(web);
});

// A throwaway self-signed certificate for the HTTPS case (the probe does not verify certificates).
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgIvWbf2cNBvCOI2dp
/h6c4BlqY9ItfiyRRol59O0S3/mhRANCAAR3l1za5mcoJ2TFU9/y+uDRqbEIUq41
atIEFcZej9lVPBbPBHU3x3mn/EHl6/fswt4S3YuDFKJHNr58FwrWZeax
-----END PRIVATE KEY-----`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBjjCCATWgAwIBAgIUB1GJLQHevXvfvapiMKNMscdPEhUwCgYIKoZIzj0EAwIw
HDEaMBgGA1UEAwwRcG9kbGFiLXByb2JlLXRlc3QwIBcNMjYxMTIyMjI1NTQ4WhgP
MjEyNjEwMjkyMjU1NDhaMBwxGjAYBgNVBAMMEXBvZGxhYi1wcm9iZS10ZXN0MFkw
EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEd5dc2uZnKCdkxVPf8vrg0amxCFKuNWrS
BBXGXo/ZVTwWzwR1N8d5p/xB5ev37MLeEt2LgxSiRza+fBcK1mXmsaNTMFEwHQYD
VR0OBBYEFMk1TpRWgSkajUPPM894sUFG6F+xMB8GA1UdIwQYMBaAFMk1TpRWgSka
jUPPM894sUFG6F+xMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDRwAwRAIg
H4lp/MHTdjxPTVbgQvZOTRM/WEF6EpNKncj9hG9rRocCIDW0KQ0iy0U7dDDoLTlF
Nq5jSpFQLi14C/yY3V1DfulY
-----END CERTIFICATE-----`;

const get = (path: string, extra: Partial<Parameters<typeof newRequestForHTTPGetAction>[0]> = {}, timeoutMs = 1000) =>
  doHTTPProbe(newRequestForHTTPGetAction({ port: 'http', path, ...extra }, withPort(webPort), '127.0.0.1'), timeoutMs);

test('httpGet: the outcome and output of each kind of answer', async (t) => {
  const refused = await closedPort();
  const cases: { name: string; run: () => Promise<unknown>; want: unknown }[] = [
    { name: '200 is a success whose output is the body', run: () => get('/ok'), want: { result: 'success', output: 'ok body' } },
    { name: '404 is a failure with the status code only', run: () => get('/missing'), want: { result: 'failure', output: 'HTTP probe failed with statuscode: 404' } },
    {
      name: 'a redirect to another host is not followed: a warning with the redirect body',
      run: () => get('/elsewhere'),
      want: { result: 'warning', output: 'Probe terminated redirects, Response body: <a href="http://0.0.0.0/">Found</a>.' },
    },
    { name: 'a redirect to the same host is followed', run: () => get('/hop'), want: { result: 'success', output: 'ok body' } },
    { name: 'the tenth same-host redirect is an error naming its Location', run: () => get('/loop'), want: { result: 'failure', output: 'Get "/loop10": stopped after 10 redirects' } },
    { name: 'the body is read up to 10 KiB', run: async () => ((await get('/big')) as { output: string }).output.length, want: 10240 },
    {
      name: 'a refused connection is a failure with Go dial text',
      run: () => doHTTPProbe(newRequestForHTTPGetAction({ port: refused, path: '/' }, app, '127.0.0.1'), 1000),
      want: { result: 'failure', output: `Get "http://127.0.0.1:${refused}/": dial tcp 127.0.0.1:${refused}: connect: connection refused` },
    },
    {
      name: 'a server that never answers times out awaiting headers',
      run: () => get('/silent', {}, 300),
      want: { result: 'failure', output: `Get "http://127.0.0.1:${webPort}/silent": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` },
    },
    { name: 'a connection closed without an answer is EOF', run: () => get('/hangup'), want: { result: 'failure', output: `Get "http://127.0.0.1:${webPort}/hangup": EOF` } },
    {
      name: 'https skips certificate verification (a self-signed certificate is accepted)',
      run: async () => {
        const port = await listen(https.createServer({ key: TEST_KEY, cert: TEST_CERT }, (_q, r) => r.end('secure')));
        return doHTTPProbe(newRequestForHTTPGetAction({ port, path: '/', scheme: 'HTTPS' }, app, '127.0.0.1'), 1000);
      },
      want: { result: 'success', output: 'secure' },
    },
    {
      name: 'https to a plain HTTP server says so, as Go does',
      run: () => get('/ok', { scheme: 'HTTPS' }),
      want: { result: 'failure', output: `Get "https://127.0.0.1:${webPort}/ok": http: server gave HTTP response to HTTPS client` },
    },
  ];
  for (const c of cases) await t.test(c.name, async () => assert.deepEqual(await c.run(), c.want));
});

test('httpGet: request headers — kube-probe User-Agent, Accept */*, Host host:port, httpHeaders canonicalised; an empty Accept removes it; Host honoured', async () => {
  seenHeaders.length = 0;
  await get('/ok');
  await get('/ok', { httpHeaders: [{ name: 'accept', value: '' }, { name: 'x-custom', value: 'a' }, { name: 'X-Custom', value: 'b' }, { name: 'host', value: 'example.com' }] });
  const pick = (h: http.IncomingHttpHeaders) => ({ host: h.host, 'user-agent': h['user-agent'], accept: h.accept, 'x-custom': h['x-custom'], connection: h.connection });
  assert.deepEqual(seenHeaders.map(pick), [
    { host: `127.0.0.1:${webPort}`, 'user-agent': 'kube-probe/1.33', accept: '*/*', 'x-custom': undefined, connection: 'close' },
    { host: 'example.com', 'user-agent': 'kube-probe/1.33', accept: undefined, 'x-custom': 'a, b', connection: 'close' },
  ]);
});

test("httpGet: the request's header lines in the order Go's net/http writes them (Host, User-Agent, the others sorted by name, then the transport's Connection: close)", async () => {
  const lines: string[][] = [];
  const raw = net.createServer((sock) => {
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      lines.push(buf.slice(0, end).split('\r\n'));
      sock.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
    });
  });
  const port = await listen(raw as unknown as http.Server);
  try {
    const probe = (g: Parameters<typeof newRequestForHTTPGetAction>[0]) => doHTTPProbe(newRequestForHTTPGetAction(g, app, '127.0.0.1'), 1000);
    await probe({ port, path: '/healthz', httpHeaders: [{ name: 'X-Custom', value: 'a' }, { name: 'x-custom', value: 'b' }, { name: 'Authorization', value: 'Bearer t' }] });
    await probe({ port, path: '/', httpHeaders: [{ name: 'User-Agent', value: 'me' }, { name: 'Host', value: 'example.com' }] });
  } finally {
    raw.close();
  }
  assert.deepEqual(lines, [
    ['GET /healthz HTTP/1.1', `Host: 127.0.0.1:${port}`, 'User-Agent: kube-probe/1.33', 'Accept: */*', 'Authorization: Bearer t', 'X-Custom: a', 'X-Custom: b', 'Connection: close'],
    ['GET / HTTP/1.1', 'Host: example.com', 'User-Agent: me', 'Accept: */*', 'Connection: close'],
  ]);
});

test('newRequestForHTTPGetAction: URL parts from host or pod IP, named port, scheme and path', () => {
  const c: Container = { name: 'app', ports: [{ name: 'web', containerPort: 8080 }] };
  assert.deepEqual(
    [
      newRequestForHTTPGetAction({ port: 'web', path: '/healthz' }, c, '10.1.0.5'),
      newRequestForHTTPGetAction({ port: 8443, path: 'ready?x=1', scheme: 'HTTPS', host: 'example.com', httpHeaders: [{ name: 'user-agent', value: 'me' }] }, c, '10.1.0.5'),
    ],
    [
      { scheme: 'http', host: '10.1.0.5', port: 8080, path: '/healthz', headers: [['User-Agent', ['kube-probe/1.33']], ['Accept', ['*/*']]], hostHeader: '' },
      { scheme: 'https', host: 'example.com', port: 8443, path: 'ready?x=1', headers: [['User-Agent', ['me']], ['Accept', ['*/*']]], hostHeader: '' },
    ],
  );
  assert.throws(() => newRequestForHTTPGetAction({ port: 'metrics' }, c, '10.1.0.5'), { message: 'port "metrics" not found' });
});

// ---- tcpSocket --------------------------------------------------------------------------------

test('tcpSocket: a listener is a success, a closed port and a timeout are failures with Go dial text', async () => {
  const port = await listen(net.createServer((s) => s.end()));
  const refused = await closedPort();
  const clock = new FakeClock();
  const timingOut = doTCPProbe('127.0.0.1', port, 1000, clock);
  clock.advance(1000); // the deadline passes before the connection can complete
  assert.deepEqual(
    [await doTCPProbe('127.0.0.1', port, 1000), await doTCPProbe('127.0.0.1', refused, 1000), await timingOut],
    [
      { result: 'success', output: '' },
      { result: 'failure', output: `dial tcp 127.0.0.1:${refused}: connect: connection refused` },
      { result: 'failure', output: `dial tcp 127.0.0.1:${port}: i/o timeout` },
    ],
  );
});

// ---- grpc -------------------------------------------------------------------------------------

test('grpc: the health protocol messages encode and decode', () => {
  assert.deepEqual(
    [encodeHealthCheckRequest('').toString('hex'), encodeHealthCheckRequest('db').toString('hex'), decodeHealthCheckResponse(Buffer.from([0x08, 0x02])), decodeHealthCheckResponse(Buffer.alloc(0))],
    ['0000000000', '00000000040a026462', 2, 0],
  );
});

const grpcRequests: string[] = [];
const health = http2.createServer();
health.on('stream', (stream, headers) => {
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => {
    const body = Buffer.concat(chunks);
    const service = body.length > 7 ? body.subarray(7).toString() : '';
    grpcRequests.push(`${headers[':path']} ${headers['content-type']} ${headers['user-agent']} te=${headers.te} service=${JSON.stringify(service)}`);
    if (service === 'silent') return;
    if (service === 'legacy') {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12', 'grpc-message': 'unknown service grpc.health.v1.Health' }, { endStream: true });
      return;
    }
    if (service === 'nope') {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5', 'grpc-message': 'unknown service' }, { endStream: true });
      return;
    }
    const status = service === '' ? 1 : 2;
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    const msg = Buffer.from([0x08, status]);
    const head = Buffer.alloc(5);
    head.writeUInt32BE(msg.length, 1);
    stream.end(Buffer.concat([head, msg]));
  });
});

test('grpc: SERVING, NOT_SERVING, unknown service, no health service, RPC timeout and connection timeout', async () => {
  const port = await listen(health);
  const refused = await closedPort();
  const results = [
    await doGRPCProbe('127.0.0.1', '', port, 1000),
    await doGRPCProbe('127.0.0.1', 'db', port, 1000),
    await doGRPCProbe('127.0.0.1', 'nope', port, 1000),
    await doGRPCProbe('127.0.0.1', 'legacy', port, 1000),
    await doGRPCProbe('127.0.0.1', 'silent', port, 300),
    await doGRPCProbe('127.0.0.1', '', refused, 300),
  ];
  assert.deepEqual(
    { results, requests: grpcRequests },
    {
      results: [
        { result: 'success', output: 'service healthy' },
        { result: 'failure', output: 'service unhealthy (responded with "NOT_SERVING")' },
        { result: 'failure', output: 'error: health rpc probe failed: rpc error: code = NotFound desc = unknown service' },
        { result: 'failure', output: 'error: this server does not implement the grpc health protocol (grpc.health.v1.Health): unknown service grpc.health.v1.Health' },
        { result: 'failure', output: 'timeout: health rpc did not complete within 300ms' },
        { result: 'failure', output: `timeout: failed to connect service "127.0.0.1:${refused}" within 300ms: context deadline exceeded` },
      ],
      requests: ['', 'db', 'nope', 'legacy', 'silent'].map(
        (s) => `/grpc.health.v1.Health/Check application/grpc kube-probe/1.33 te=trailers service=${JSON.stringify(s)}`,
      ),
    },
  );
});

test('grpc: an HTTP/1 server never becomes a gRPC connection: the dial times out', async () => {
  const port = await listen(http.createServer((_q, r) => r.end('hi')));
  assert.deepEqual(await doGRPCProbe('127.0.0.1', '', port, 300), {
    result: 'failure',
    output: `timeout: failed to connect service "127.0.0.1:${port}" within 300ms: context deadline exceeded`,
  });
});

// ---- exec -------------------------------------------------------------------------------------

function stubRuntime(exec: (cmd: string[]) => Promise<ExecResult>, calls: string[] = []): RuntimeService {
  return {
    execSync: (id: string, cmd: string[], timeoutSeconds?: number) => {
      calls.push(`${id} ${cmd.join(' ')} ${timeoutSeconds}`);
      return exec(cmd);
    },
  } as unknown as RuntimeService;
}

test('exec: exit 0 success and exit ≠ 0 failure carry stdout+stderr, cut at 10 KiB; a timeout is a failure; other errors are prober errors', async () => {
  const clock = new FakeClock();
  const never = new Promise<ExecResult>(() => undefined);
  const rt = stubRuntime(async (cmd) => {
    if (cmd[2] === 'sleep 5') return never;
    if (cmd[2] === 'deadline') throw new RuntimeError('command ["sh","-c","deadline"] timed out after 1s', 'Other');
    if (cmd[2] === 'gone') throw new RuntimeError('No such container: c1', 'NotFound');
    if (cmd[2] === 'big') return { exitCode: 0, stdout: 'y'.repeat(8000), stderr: 'z'.repeat(8000) };
    return { exitCode: cmd[2] === 'exit 0' ? 0 : 1, stdout: 'out\n', stderr: 'err\n' };
  });
  const sh = (s: string) => ['sh', '-c', s];
  const timedOut = execProbe(rt, 'c1', sh('sleep 5'), 1000, clock);
  clock.advance(1000);
  const big = await execProbe(rt, 'c1', sh('big'), 1000, clock);
  assert.deepEqual(
    [
      await execProbe(rt, 'c1', sh('exit 0'), 1000, clock),
      await execProbe(rt, 'c1', sh('exit 1'), 1000, clock),
      await timedOut,
      await execProbe(rt, 'c1', sh('deadline'), 1000, clock),
      await execProbe(rt, 'c1', sh('gone'), 1000, clock),
      { result: big.result, length: big.output.length, tail: big.output.slice(-3) },
    ],
    [
      { result: 'success', output: 'out\nerr\n' },
      { result: 'failure', output: 'out\nerr\n' },
      { result: 'failure', output: 'command "sh -c sleep 5" timed out' },
      { result: 'failure', output: 'command "sh -c deadline" timed out' },
      { result: 'unknown', output: '', error: 'No such container: c1' },
      { result: 'success', length: 10240, tail: 'zzz' },
    ],
  );
});

const podOf = (c: Container): Pod => ({ metadata: { name: 'web', namespace: 'default', uid: 'uid-1' }, spec: { containers: [c] } });
const requestFor = (c: Container, probe: ProbeRequest['probe']): ProbeRequest => ({ probeType: 'liveness', probe, pod: podOf(c), container: c, containerId: 'c1', podIP: '127.0.0.1' });

test('runProbeWithRetries: a prober error is retried up to three times; a failure is not retried', async () => {
  const calls: string[] = [];
  const rt = stubRuntime(async (cmd) => {
    if (cmd[0] === 'gone') throw new RuntimeError('No such container: c1', 'NotFound');
    return { exitCode: 1, stdout: '', stderr: '' };
  }, calls);
  const c: Container = { name: 'app' };
  const errored = await runProbeWithRetries(requestFor(c, withProbeDefaults({ exec: { command: ['gone'] } })), { runtime: rt });
  const failed = await runProbeWithRetries(requestFor(c, withProbeDefaults({ exec: { command: ['false'] }, timeoutSeconds: 5 })), { runtime: rt });
  assert.deepEqual(
    { errored, failed, calls },
    {
      errored: { result: 'unknown', output: '', error: 'No such container: c1' },
      failed: { result: 'failure', output: '' },
      calls: ['c1 gone 1', 'c1 gone 1', 'c1 gone 1', 'c1 false 5'],
    },
  );
});

test('runProbeOnce: named ports, unknown ports and a probe without a handler', async () => {
  const port = await listen(net.createServer((s) => s.end()));
  const c: Container = { name: 'app', ports: [{ name: 'svc', containerPort: port }] };
  const rt = stubRuntime(async () => ({ exitCode: 0, stdout: '', stderr: '' }));
  assert.deepEqual(
    [
      await runProbeOnce(requestFor(c, withProbeDefaults({ tcpSocket: { port: 'svc' } })), { runtime: rt }),
      await runProbeOnce(requestFor(c, withProbeDefaults({ tcpSocket: { port: 'nope' } })), { runtime: rt }),
      await runProbeOnce(requestFor(c, withProbeDefaults({ httpGet: { port: 0 } })), { runtime: rt }),
      await runProbeOnce(requestFor(c, withProbeDefaults({})), { runtime: rt }),
    ],
    [
      { result: 'success', output: '' },
      { result: 'unknown', output: '', error: 'port "nope" not found' },
      { result: 'unknown', output: '', error: 'invalid port number: 0' },
      { result: 'unknown', output: '', error: 'missing probe handler for web_default(uid-1):app' },
    ],
  );
});

test('defaults and durations: SetDefaults_Probe and time.Duration text', () => {
  assert.deepEqual(
    {
      defaults: withProbeDefaults({ httpGet: { port: 80 } }),
      durations: [1000, 300, 1500, 90_000, 120_000, 3_600_000].map(goDuration),
    },
    {
      defaults: { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, initialDelaySeconds: 0 },
      durations: ['1s', '300ms', '1.5s', '1m30s', '2m0s', '1h0m0s'],
    },
  );
});
