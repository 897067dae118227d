import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { PassThrough, type Duplex } from 'node:stream';
import WebSocket from 'ws';
import type { StreamOptions, StreamSession } from '../../../src/runtime/cri.js';
import {
  decodeChannelFrame,
  effectiveStreams,
  encodeChannelFrame,
  encodeStatus,
  finalStatus,
  handleRemoteCommand,
  parseStreamQuery,
  RemoteCommandWebSocketProtocols,
  ResizeDecoder,
  type ChannelMessage,
  type RemoteStatus,
  type StreamQuery,
  type TerminalSize,
} from '../../../src/server/remotecommand.js';
import { clientStreamProtocols, isSpdyUpgradeRequest, isWebSocketRequest, selectSubprotocol, spdyHandshake, type HandshakeResult } from '../../../src/server/httpstream.js';
import { encodeFrame, encodeHeaderBlock, FrameParser, HeaderCompressor, type Frame } from '../../../src/server/spdy.js';

describe('the exec/attach query is read as the API server converts PodExecOptions', () => {
  const cases: [string, string, StreamQuery][] = [
    [
      'kubectl exec: repeated command, container, stdout and stderr true',
      '?command=sh&command=-c&command=echo+hi&container=c&stderr=true&stdout=true',
      { command: ['sh', '-c', 'echo hi'], container: 'c', stdin: false, stdout: true, stderr: true, tty: false },
    ],
    ['"1" is true, as the kubelet writes it', '?stdin=1&tty=1', { command: [], container: '', stdin: true, stdout: false, stderr: false, tty: true }],
    ['"0" and "FALSE" are false', '?stdin=0&stdout=FALSE', { command: [], container: '', stdin: false, stdout: false, stderr: false, tty: false }],
    ['any other value, even empty, is true (Convert_Slice_string_To_bool)', '?stdin=&stdout=yes', { command: [], container: '', stdin: true, stdout: true, stderr: false, tty: false }],
    ['the first of repeated values counts', '?tty=false&tty=true', { command: [], container: '', stdin: false, stdout: false, stderr: false, tty: false }],
  ];
  for (const [name, search, want] of cases) test(name, () => assert.deepEqual(parseStreamQuery(new URL(`http://x/p${search}`)), want));
});

describe("the kubelet's stream options", () => {
  const cases: [string, Parameters<typeof effectiveStreams>[0], ReturnType<typeof effectiveStreams>][] = [
    ['stderr is dropped with a tty', { stdin: true, stdout: true, stderr: true, tty: true }, { stdin: true, stdout: true, stderr: false, tty: true }],
    ['without a tty every asked stream stays', { stdin: false, stdout: true, stderr: true, tty: false }, { stdin: false, stdout: true, stderr: true, tty: false }],
    ['no stream at all is refused', { stdin: false, stdout: false, stderr: false, tty: false }, 'you must specify at least 1 of stdin, stdout, stderr'],
    ['stderr alone with a tty is no stream', { stdin: false, stdout: false, stderr: true, tty: true }, 'you must specify at least 1 of stdin, stdout, stderr'],
  ];
  for (const [name, input, want] of cases) test(name, () => assert.deepEqual(effectiveStreams(input), want));
});

describe('the final status on the error stream (ServeExec / ServeAttach)', () => {
  const cases: [string, RemoteStatus, string][] = [
    ['an exec that exits 0 is Success', finalStatus('exec', { kind: 'exit', code: 0 }), '{"metadata":{},"status":"Success"}'],
    [
      'a non-zero exit is NonZeroExitCode with the ExitCode cause kubectl exits with',
      finalStatus('exec', { kind: 'exit', code: 3 }),
      '{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: Error executing in Docker Container: 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}',
    ],
    [
      'a runtime failure of exec is an InternalError',
      finalStatus('exec', { kind: 'error', message: 'container not running (abc)' }),
      '{"metadata":{},"status":"Failure","message":"Internal error occurred: error executing command in container: container not running (abc)","reason":"InternalError","details":{"causes":[{"message":"error executing command in container: container not running (abc)"}]},"code":500}',
    ],
    ['an attach ends in Success whatever the exit code', finalStatus('attach', { kind: 'exit', code: 1 }), '{"metadata":{},"status":"Success"}'],
    [
      'a runtime failure of attach is an InternalError',
      finalStatus('attach', { kind: 'error', message: 'boom' }),
      '{"metadata":{},"status":"Failure","message":"Internal error occurred: error attaching to container: boom","reason":"InternalError","details":{"causes":[{"message":"error attaching to container: boom"}]},"code":500}',
    ],
  ];
  for (const [name, status, json] of cases) test(name, () => assert.deepEqual(JSON.stringify(status), json));

  const encoded: [string, RemoteStatus, boolean, string | null][] = [
    ['v4 writes the json Status, even for Success', finalStatus('exec', { kind: 'exit', code: 0 }), true, '{"metadata":{},"status":"Success"}'],
    ['v1–v3 write nothing on Success', finalStatus('exec', { kind: 'exit', code: 0 }), false, null],
    [
      'v1–v3 write the message of a failure',
      finalStatus('exec', { kind: 'exit', code: 2 }),
      false,
      'command terminated with non-zero exit code: Error executing in Docker Container: 2',
    ],
  ];
  for (const [name, status, json, want] of encoded) test(name, () => assert.deepEqual(encodeStatus(status, json)?.toString() ?? null, want));
});

describe('WebSocket channel frames (wsstream)', () => {
  const v5 = RemoteCommandWebSocketProtocols['v5.channel.k8s.io'];
  const v4 = RemoteCommandWebSocketProtocols['v4.channel.k8s.io'];
  const b64 = RemoteCommandWebSocketProtocols['v4.base64.channel.k8s.io'];
  test('binary protocols prefix the channel byte', () => assert.deepEqual(encodeChannelFrame(1, Buffer.from('hi'), true), Buffer.from([1, 0x68, 0x69])));
  test('base64 protocols prefix the channel digit and encode the data', () => assert.deepEqual(encodeChannelFrame(2, Buffer.from('foo\n'), false), '2Zm9vCg=='));
  test('the empty "connected" message is the channel alone', () => assert.deepEqual(encodeChannelFrame(1, Buffer.alloc(0), true), Buffer.from([1])));
  const decoded: [string, Buffer, typeof v5, ChannelMessage | null][] = [
    ['stdin data on channel 0', Buffer.from([0, 0x61]), v5, { channel: 0, data: Buffer.from('a') }],
    ['v5: [255, 0] closes stdin', Buffer.from([255, 0]), v5, { close: 0 }],
    ['v5: a close signal of another length is ignored', Buffer.from([255, 0, 1]), v5, null],
    ['before v5, 255 is just a channel number', Buffer.from([255, 0]), v4, { channel: 255, data: Buffer.from([0]) }],
    ['base64: the channel digit and the decoded data', Buffer.from('0Zm9vCg=='), b64, { channel: 0, data: Buffer.from('foo\n') }],
    ['base64: invalid data is dropped', Buffer.from('0Zm9v!'), b64, null],
    ['an empty message is nothing', Buffer.alloc(0), v5, null],
  ];
  for (const [name, msg, p, want] of decoded) test(name, () => assert.deepEqual(decodeChannelFrame(msg, p), want));
});

describe('resize messages are decoded like a json.Decoder of TerminalSize', () => {
  const cases: [string, string[], TerminalSize[]][] = [
    ['one object per message', ['{"Width":80,"Height":24}'], [{ width: 80, height: 24 }]],
    ['an object split across messages', ['{"Width":1', '00,"Height":30}\n'], [{ width: 100, height: 30 }]],
    ['several objects in one message', ['{"Width":1,"Height":2}\n{"Width":3,"Height":4}\n'], [{ width: 1, height: 2 }, { width: 3, height: 4 }]],
    ['field names match case-insensitively; a missing one is 0', ['{"width":5}'], [{ width: 5, height: 0 }]],
    ['decoding stops at the first bad value, as the kubelet stops reading', ['{"Width":"x","Height":1}', '{"Width":1,"Height":1}'], []],
    ['a value that is not an object stops it too', ['[1]{"Width":1,"Height":1}'], []],
  ];
  for (const [name, chunks, want] of cases) {
    test(name, () => {
      const d = new ResizeDecoder();
      assert.deepEqual(chunks.flatMap((c) => d.push(Buffer.from(c))), want);
    });
  }
});

describe('upgrade negotiation (httpstream.Handshake, wsstream handshake)', () => {
  const handshakes: [string, Record<string, string>, HandshakeResult][] = [
    ["the client's first supported version wins", { 'x-stream-protocol-version': 'v5.channel.k8s.io, v4.channel.k8s.io, v3.channel.k8s.io' }, { ok: true, protocol: 'v4.channel.k8s.io' }],
    ['no version header is a 400', {}, { ok: false, code: 400, message: 'unable to upgrade: X-Stream-Protocol-Version is required', headers: [] }],
    [
      'no common version is a 403 listing what the server accepts',
      { 'x-stream-protocol-version': 'v9.channel.k8s.io' },
      {
        ok: false,
        code: 403,
        message: 'unable to upgrade: unable to negotiate protocol: client supports [v9.channel.k8s.io], server accepts [v4.channel.k8s.io channel.k8s.io]',
        headers: [
          ['X-Accepted-Stream-Protocol-Versions', 'v4.channel.k8s.io'],
          ['X-Accepted-Stream-Protocol-Versions', 'channel.k8s.io'],
        ],
      },
    ],
  ];
  for (const [name, headers, want] of handshakes) test(name, () => assert.deepEqual(spdyHandshake(headers, ['v4.channel.k8s.io', 'channel.k8s.io']), want));
  test('repeated X-Stream-Protocol-Version lines (joined by Node) are all read', () =>
    assert.deepEqual(clientStreamProtocols({ 'x-stream-protocol-version': 'v4.channel.k8s.io, v3.channel.k8s.io,channel.k8s.io' }), ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'channel.k8s.io']));
  const kinds: [string, Record<string, string>, { ws: boolean; spdy: boolean }][] = [
    ['a WebSocket upgrade', { upgrade: 'websocket', connection: 'Upgrade' }, { ws: true, spdy: false }],
    ['a SPDY upgrade', { upgrade: 'SPDY/3.1', connection: 'Upgrade' }, { ws: false, spdy: true }],
    ['a Connection header listing upgrade among others', { upgrade: 'WebSocket', connection: 'keep-alive, Upgrade' }, { ws: true, spdy: false }],
    ['no Connection: upgrade is no upgrade', { upgrade: 'websocket', connection: 'keep-alive' }, { ws: false, spdy: false }],
  ];
  for (const [name, headers, want] of kinds) test(name, () => assert.deepEqual({ ws: isWebSocketRequest(headers), spdy: isSpdyUpgradeRequest(headers) }, want));
  const subs: [string, string[], string | null][] = [
    ['the first offered subprotocol the server has', ['v5.channel.k8s.io', 'v4.channel.k8s.io'], 'v5.channel.k8s.io'],
    ['none offered is the unnamed protocol', [], ''],
    ['nothing in common is refused', ['v9.channel.k8s.io'], null],
  ];
  for (const [name, offered, want] of subs) test(name, () => assert.deepEqual(selectSubprotocol(offered, ['', 'v4.channel.k8s.io', 'v5.channel.k8s.io']), want));
});

// ---- loopback sessions (no Docker): a fake process that echoes stdin, writes "err" and exits 3 ----

function fakeSession(o: StreamOptions, code: number, seen: string[]): StreamSession {
  const stdout = new PassThrough();
  const stderr = o.tty ? undefined : new PassThrough();
  const stdin = o.stdin ? new PassThrough() : undefined;
  let resolveExit!: (n: number) => void;
  const exitCode = new Promise<number>((r) => (resolveExit = r));
  const finish = () => {
    stderr?.end('err');
    stdout.end();
    resolveExit(code);
  };
  if (stdin) {
    stdin.on('data', (c: Buffer) => stdout.write(c));
    stdin.on('end', finish);
  } else setImmediate(finish);
  return {
    stdin,
    stdout,
    stderr,
    exitCode,
    resize: async (w, h) => void seen.push(`resize ${w}x${h}`),
    close: () => seen.push('close'),
  };
}

async function serve(kind: 'exec' | 'attach', code: number, seen: string[], fail?: string): Promise<Server> {
  const server = createServer();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    const q = parseStreamQuery(new URL(req.url ?? '/', 'http://x'));
    handleRemoteCommand(req, socket, head, {
      kind,
      stdin: q.stdin,
      stdout: q.stdout,
      stderr: q.stderr,
      tty: q.tty,
      start: async (o) => {
        seen.push(`start ${JSON.stringify(o)}`);
        if (fail) throw new Error(fail);
        return fakeSession(o, code, seen);
      },
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return server;
}

describe('exec over WebSocket v5, as kubectl 1.30+ does it', () => {
  test('stdin is echoed, the [255, 0] close ends stdin, and the exit code comes back as a Status', async () => {
    const seen: string[] = [];
    const server = await serve('exec', 3, seen);
    const port = (server.address() as AddressInfo).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/exec?command=cat&stdin=true&stdout=true&stderr=true`, ['v5.channel.k8s.io']);
    const got: string[] = [];
    const closed = new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    ws.on('message', (m: Buffer) => got.push(`${m[0]}:${m.subarray(1).toString()}`));
    await new Promise((r) => ws.on('open', r));
    ws.send(Buffer.from([4, ...Buffer.from('{"Width":80,"Height":24}')]));
    ws.send(Buffer.from([0, ...Buffer.from('abc')]));
    ws.send(Buffer.from([255, 0]));
    const code = await closed;
    server.close();
    assert.deepEqual(
      { protocol: ws.protocol, got, code, seen },
      {
        protocol: 'v5.channel.k8s.io',
        got: [
          '1:',
          '1:abc',
          '2:err',
          '3:{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: Error executing in Docker Container: 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}',
        ],
        code: 1000,
        seen: ['start {"stdin":true,"tty":false,"stdout":true,"stderr":true}', 'resize 80x24', 'close'],
      },
    );
  });
  test('the base64 protocol of v4 encodes every message, and a Success status ends it', async () => {
    const seen: string[] = [];
    const server = await serve('exec', 0, seen);
    const port = (server.address() as AddressInfo).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/exec?command=true&stdout=1&stderr=1`, ['v4.base64.channel.k8s.io']);
    const got: string[] = [];
    const closed = new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    ws.on('message', (m: Buffer) => got.push(m.toString()));
    const code = await closed;
    server.close();
    assert.deepEqual({ got, code }, { got: ['1', '2ZXJy', `3${Buffer.from('{"metadata":{},"status":"Success"}').toString('base64')}`], code: 1000 });
  });
  const statusCases: [string, 'exec' | 'attach', number, string | undefined, RemoteStatus][] = [
    ['an attach whose container exits 1 still ends in Success', 'attach', 1, undefined, finalStatus('attach', { kind: 'exit', code: 1 })],
    ['a session the runtime cannot start ends in an InternalError', 'exec', 0, 'container not running (abc)', finalStatus('exec', { kind: 'error', message: 'container not running (abc)' })],
  ];
  for (const [name, kind, code, fail, want] of statusCases) {
    test(name, async () => {
      const server = await serve(kind, code, [], fail);
      const port = (server.address() as AddressInfo).port;
      const ws = new WebSocket(`ws://127.0.0.1:${port}/x?stdout=true`, ['v5.channel.k8s.io']);
      const got: string[] = [];
      ws.on('message', (m: Buffer) => got.push(`${m[0]}:${m.subarray(1).toString()}`));
      await new Promise((resolve) => ws.on('close', resolve));
      server.close();
      assert.deepEqual(got, ['1:', `3:${JSON.stringify(want)}`]);
    });
  }
  test('a subprotocol the server does not speak is refused before the upgrade', async () => {
    const server = await serve('exec', 0, []);
    const port = (server.address() as AddressInfo).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/exec?command=true&stdout=1`, ['v9.channel.k8s.io']);
    ws.on('error', () => undefined);
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    ws.terminate();
    server.close();
    assert.deepEqual(status, 403);
  });
});

/** A bare SPDY client: the HTTP upgrade, SYN_STREAMs with our compressor, and every frame that comes back. */
async function spdyClient(port: number, path: string, streams: [number, string][], after: (send: (f: Frame) => void) => void): Promise<{ head: string; frames: object[] }> {
  const sock = connect(port, '127.0.0.1');
  const deflate = new HeaderCompressor();
  const parser = new FrameParser();
  let head = '';
  let pending = Buffer.alloc(0);
  const frames: object[] = [];
  sock.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\nX-Stream-Protocol-Version: channel.k8s.io\r\nContent-Length: 0\r\n\r\n`);
  const send = (f: Frame) => sock.write(encodeFrame(f));
  let replies = 0;
  await new Promise<void>((resolve) => {
    sock.on('data', (d: Buffer) => {
      if (!head) {
        pending = Buffer.concat([pending, d]);
        const i = pending.indexOf('\r\n\r\n');
        if (i < 0) return;
        head = pending.subarray(0, i).toString().replace(/\r\nDate: [^\r]*/, '');
        d = pending.subarray(i + 4);
        for (const [id, type] of streams) send({ type: 'syn_stream', streamId: id, associatedId: 0, priority: 0, slot: 0, fin: false, unidirectional: false, headerBlock: deflate.compress(encodeHeaderBlock({ streamtype: [type] })) });
      }
      for (const f of parser.push(d)) {
        if (f.type === 'syn_reply') {
          frames.push({ type: 'syn_reply', streamId: f.streamId });
          if (++replies === streams.length) after(send);
        } else frames.push(f.type === 'data' ? { ...f, data: f.data.toString() } : f);
      }
    });
    sock.on('close', () => resolve());
  });
  return { head, frames };
}

describe('exec over SPDY/3.1 v4, as kubectl up to 1.29 does it', () => {
  test('the streams are answered, stdin is echoed, and the exit-code Status closes the error stream before GOAWAY', async () => {
    const seen: string[] = [];
    const server = await serve('exec', 3, seen);
    const port = (server.address() as AddressInfo).port;
    const res = await spdyClient(port, '/exec?command=cat&stdin=true&stdout=true&stderr=true', [[1, 'error'], [3, 'stdin'], [5, 'stdout'], [7, 'stderr']], (send) => {
      send({ type: 'data', streamId: 3, fin: true, data: Buffer.from('abc') });
    });
    server.close();
    const status = JSON.stringify(finalStatus('exec', { kind: 'exit', code: 3 }));
    assert.deepEqual(res, {
      head: 'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io',
      frames: [
        { type: 'syn_reply', streamId: 1 },
        { type: 'syn_reply', streamId: 3 },
        { type: 'syn_reply', streamId: 5 },
        { type: 'syn_reply', streamId: 7 },
        { type: 'data', streamId: 5, fin: false, data: 'abc' },
        { type: 'data', streamId: 7, fin: false, data: 'err' },
        { type: 'data', streamId: 5, fin: true, data: '' },
        { type: 'data', streamId: 7, fin: true, data: '' },
        { type: 'data', streamId: 1, fin: false, data: status },
        { type: 'data', streamId: 1, fin: true, data: '' },
        { type: 'goaway', lastGoodStreamId: 7, status: 0 },
      ],
    });
  });
  test('a request that upgrades to neither is answered 400 "Upgrade request required"', async () => {
    const server = await serve('exec', 0, []);
    const port = (server.address() as AddressInfo).port;
    const sock = connect(port, '127.0.0.1');
    sock.write('POST /exec?command=true&stdout=1 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n');
    const text = await new Promise<string>((resolve) => {
      let all = '';
      sock.on('data', (d) => (all += d.toString()));
      sock.on('close', () => resolve(all));
    });
    server.close();
    assert.deepEqual(
      text.split('\r\n\r\n'),
      [
        'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: 138\r\nConnection: close',
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Upgrade request required","reason":"BadRequest","code":400}',
      ],
    );
  });
});
