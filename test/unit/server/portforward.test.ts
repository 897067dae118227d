import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';
import WebSocket from 'ws';
import {
  forwardErrorMessage,
  handlePortForward,
  parseWebSocketPorts,
  requestIdOf,
  validatePortForwardStream,
} from '../../../src/server/portforward.js';
import { encodeFrame, encodeHeaderBlock, FrameParser, HeaderCompressor, type Frame, type SpdyHeaders } from '../../../src/server/spdy.js';

describe("port-forward streams are checked as the kubelet's httpStreamReceived checks them", () => {
  const cases: [string, SpdyHeaders, string | null][] = [
    ['an error stream with a port is accepted', { streamtype: ['error'], port: ['8080'], requestid: ['0'] }, null],
    ['a data stream with a port is accepted', { streamtype: ['data'], port: ['1'] }, null],
    ['the port header is required', { streamtype: ['data'] }, '"port" header is required'],
    ['a port that is not a number is refused', { streamtype: ['data'], port: ['http'] }, 'unable to parse "http" as a port: strconv.ParseUint: parsing "http": invalid syntax'],
    ['a port above 65535 is refused', { streamtype: ['data'], port: ['70000'] }, 'unable to parse "70000" as a port: strconv.ParseUint: parsing "70000": value out of range'],
    ['port 0 is refused', { streamtype: ['data'], port: ['0'] }, 'port "0" must be > 0'],
    ['the streamType header is required', { port: ['80'] }, '"streamType" header is required'],
    ['only error and data streams exist', { streamtype: ['stdin'], port: ['80'] }, 'invalid stream type "stdin"'],
  ];
  for (const [name, headers, want] of cases) test(name, () => assert.deepEqual(validatePortForwardStream(headers), want));
});

describe('request ids pair the error and data streams', () => {
  const cases: [string, SpdyHeaders, number, string][] = [
    ['the requestID header names the pair', { streamtype: ['data'], requestid: ['7'] }, 9, '7'],
    ["an old client's error stream is its own stream id", { streamtype: ['error'] }, 5, '5'],
    ["an old client's data stream is the stream id less two", { streamtype: ['data'] }, 7, '5'],
  ];
  for (const [name, headers, id, want] of cases) test(name, () => assert.deepEqual(requestIdOf(headers, id), want));
});

describe('the legacy WebSocket port-forward reads its ports from the query (NewV4Options)', () => {
  const cases: [string, string, number[] | string][] = [
    ['one port', '?ports=8080', [8080]],
    ['repeated and comma-separated ports', '?ports=80,443&ports=9000', [80, 443, 9000]],
    ["the kubelet's own name, port, is read too", '?port=81', [81]],
    ['a port is required', '', 'query parameter "port" is required'],
    ['an empty value is refused', '?ports=', 'query parameter "port" cannot be empty'],
    ['a bad port is refused', '?ports=80,x', 'unable to parse "80,x" as a port: strconv.ParseUint: parsing "x": invalid syntax'],
    ['port 0 is refused', '?ports=0', 'port "0" must be > 0'],
  ];
  for (const [name, search, want] of cases) test(name, () => assert.deepEqual(parseWebSocketPorts(new URL(`http://x/pf${search}`)), want));
});

test('the forwarding error names the port, the pod and the uid', () =>
  assert.deepEqual(forwardErrorMessage(8080, 'abc', '', 'connect ECONNREFUSED 172.17.0.2:8080'), 'error forwarding port 8080 to pod abc, uid : connect ECONNREFUSED 172.17.0.2:8080'));

// ---- loopback: a TCP echo "pod" behind the handler, a client speaking SPDY directly or inside WebSocket ----

async function listen<T extends Server | NetServer>(s: T): Promise<number> {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return (s.address() as AddressInfo).port;
}

/** An echo server that upper-cases what it gets and closes its side when the client has. */
async function echoPod(): Promise<{ server: NetServer; port: number }> {
  const server = createNetServer({ allowHalfOpen: true }, (s) => {
    s.on('data', (d: Buffer) => s.write(d.toString().toUpperCase()));
    s.on('end', () => s.end());
  });
  return { server, port: await listen(server) };
}

async function portForwardServer(podPort: number): Promise<{ server: Server; port: number }> {
  const server = createHttpServer();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) =>
    handlePortForward(req, socket, head, {
      pod: async () => 'sandbox1',
      connect: (port) =>
        new Promise<Duplex>((resolve, reject) => {
          const s = connect({ host: '127.0.0.1', port: port === 8080 ? podPort : 1, allowHalfOpen: true }, () => resolve(s));
          s.once('error', reject);
        }),
    }),
  );
  return { server, port: await listen(server) };
}

/** Runs one forwarded connection the way client-go's handleConnection does; returns what came back per stream. */
function forwardedConnection(send: (f: Frame) => void, port: number, requestId: number, ids: [number, number], deflate: HeaderCompressor, payload: string) {
  const headers = (type: string) => deflate.compress(encodeHeaderBlock({ streamtype: [type], port: [String(port)], requestid: [String(requestId)] }));
  send({ type: 'syn_stream', streamId: ids[0], associatedId: 0, priority: 0, slot: 0, fin: false, unidirectional: false, headerBlock: headers('error') });
  send({ type: 'data', streamId: ids[0], fin: true, data: Buffer.alloc(0) });
  send({ type: 'syn_stream', streamId: ids[1], associatedId: 0, priority: 0, slot: 0, fin: false, unidirectional: false, headerBlock: headers('data') });
  send({ type: 'data', streamId: ids[1], fin: true, data: Buffer.from(payload) });
}

/** Collects, per stream, the replies, the data and the FIN. */
function collector() {
  const parser = new FrameParser();
  const per = new Map<number, string[]>();
  const note = (id: number, s: string) => per.set(id, [...(per.get(id) ?? []), s]);
  return {
    push: (buf: Buffer) => {
      for (const f of parser.push(buf)) {
        if (f.type === 'syn_reply') note(f.streamId, 'reply');
        else if (f.type === 'data') {
          if (f.data.length) note(f.streamId, f.data.toString());
          if (f.fin) note(f.streamId, 'FIN');
        } else if (f.type === 'rst_stream') note(f.streamId, `RST ${f.status}`);
      }
    },
    result: () => Object.fromEntries([...per.entries()].sort(([a], [b]) => a - b)),
  };
}

/** Waits until every stream in `ids` has its FIN. */
function until(c: ReturnType<typeof collector>, ids: number[]): Promise<void> {
  return new Promise((resolve) => {
    const t = setInterval(() => {
      const r = c.result() as Record<number, string[]>;
      if (ids.every((id) => r[id]?.includes('FIN'))) {
        clearInterval(t);
        resolve();
      }
    }, 10);
  });
}

describe('port-forward over SPDY/3.1 (kubectl up to 1.30)', () => {
  test('two forwarded connections reach the pod and come back; each ends with FIN on its data and error streams', async () => {
    const pod = await echoPod();
    const pf = await portForwardServer(pod.port);
    const sock = connect(pf.port, '127.0.0.1');
    const c = collector();
    let head = '';
    const deflate = new HeaderCompressor();
    const send = (f: Frame) => sock.write(encodeFrame(f));
    sock.write('POST /pf HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: portforward.k8s.io\r\nContent-Length: 0\r\n\r\n');
    sock.on('data', (d: Buffer) => {
      if (!head) {
        const i = d.indexOf('\r\n\r\n');
        head = d.subarray(0, i).toString().split('\r\n').filter((l) => !l.startsWith('Date:')).join('\n');
        d = d.subarray(i + 4);
        forwardedConnection(send, 8080, 0, [1, 3], deflate, 'hello');
        forwardedConnection(send, 8080, 1, [5, 7], deflate, 'world');
      }
      c.push(d);
    });
    await until(c, [1, 3, 5, 7]);
    sock.destroy();
    pf.server.close();
    pod.server.close();
    assert.deepEqual(
      { head, streams: c.result() },
      {
        head: 'HTTP/1.1 101 Switching Protocols\nConnection: Upgrade\nUpgrade: SPDY/3.1\nX-Stream-Protocol-Version: portforward.k8s.io',
        streams: { 1: ['reply', 'FIN'], 3: ['reply', 'HELLO', 'FIN'], 5: ['reply', 'FIN'], 7: ['reply', 'WORLD', 'FIN'] },
      },
    );
  });
  test('a port nothing listens on is reported on the error stream, then both streams close', async () => {
    const pf = await portForwardServer(0);
    const sock = connect(pf.port, '127.0.0.1');
    const c = collector();
    let head = false;
    const deflate = new HeaderCompressor();
    sock.write('POST /pf HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: portforward.k8s.io\r\nContent-Length: 0\r\n\r\n');
    sock.on('data', (d: Buffer) => {
      if (!head) {
        head = true;
        d = d.subarray(d.indexOf('\r\n\r\n') + 4);
        forwardedConnection((f) => sock.write(encodeFrame(f)), 9, 0, [1, 3], deflate, 'x');
      }
      c.push(d);
    });
    await until(c, [1, 3]);
    sock.destroy();
    pf.server.close();
    assert.deepEqual(c.result(), {
      1: ['reply', 'error forwarding port 9 to pod sandbox1, uid : connect ECONNREFUSED 127.0.0.1:1', 'FIN'],
      3: ['reply', 'FIN'],
    });
  });
  test('a stream without a port is reset', async () => {
    const pf = await portForwardServer(0);
    const sock = connect(pf.port, '127.0.0.1');
    const c = collector();
    let head = false;
    sock.write('POST /pf HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: portforward.k8s.io\r\nContent-Length: 0\r\n\r\n');
    const done = new Promise<void>((resolve) =>
      sock.on('data', (d: Buffer) => {
        if (!head) {
          head = true;
          d = d.subarray(d.indexOf('\r\n\r\n') + 4);
          const block = new HeaderCompressor().compress(encodeHeaderBlock({ streamtype: ['data'] }));
          sock.write(encodeFrame({ type: 'syn_stream', streamId: 1, associatedId: 0, priority: 0, slot: 0, fin: false, unidirectional: false, headerBlock: block }));
        }
        c.push(d);
        if (Object.keys(c.result()).length) resolve();
      }),
    );
    await done;
    sock.destroy();
    pf.server.close();
    assert.deepEqual(c.result(), { 1: ['RST 5'] });
  });
  test('a client without portforward.k8s.io is refused with 403', async () => {
    const pf = await portForwardServer(0);
    const sock = connect(pf.port, '127.0.0.1');
    sock.write('POST /pf HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\nContent-Length: 0\r\n\r\n');
    const text = await new Promise<string>((resolve) => {
      let all = '';
      sock.on('data', (d) => (all += d.toString()));
      sock.on('close', () => resolve(all));
    });
    pf.server.close();
    assert.deepEqual(text.split('\r\n'), [
      'HTTP/1.1 403 Forbidden',
      'X-Accepted-Stream-Protocol-Versions: portforward.k8s.io',
      'Content-Type: text/plain; charset=utf-8',
      'X-Content-Type-Options: nosniff',
      'Content-Length: 122',
      'Connection: close',
      '',
      'unable to upgrade: unable to negotiate protocol: client supports [v4.channel.k8s.io], server accepts [portforward.k8s.io]\n',
    ]);
  });
});

/**
 * A bare WebSocket client (the ws client refuses "SPDY/3.1+portforward.k8s.io": a "/" is not a
 * token character, yet gorilla/websocket sends it): the handshake, masked binary frames out, and
 * the server's binary messages in.
 */
async function rawWebSocket(port: number, path: string, protocol: string, onMessage: (m: Buffer) => void) {
  const sock = connect(port, '127.0.0.1');
  sock.write(
    `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n` +
      `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: ${protocol}\r\n\r\n`,
  );
  let head: string | null = null;
  let pending = Buffer.alloc(0);
  const opened = new Promise<string>((resolve) => {
    sock.on('data', (d: Buffer) => {
      pending = Buffer.concat([pending, d]);
      if (head === null) {
        const i = pending.indexOf('\r\n\r\n');
        if (i < 0) return;
        head = pending.subarray(0, i).toString();
        pending = pending.subarray(i + 4);
        resolve(head);
      }
      for (;;) {
        if (pending.length < 2) return;
        let len = pending[1] & 0x7f;
        let off = 2;
        if (len === 126) {
          if (pending.length < 4) return;
          len = pending.readUInt16BE(2);
          off = 4;
        } else if (len === 127) {
          if (pending.length < 10) return;
          len = Number(pending.readBigUInt64BE(2));
          off = 10;
        }
        if (pending.length < off + len) return;
        if ((pending[0] & 0x0f) === 2) onMessage(pending.subarray(off, off + len));
        pending = pending.subarray(off + len);
      }
    });
  });
  const send = (payload: Buffer) => {
    const mask = Buffer.from([1, 2, 3, 4]);
    const len = payload.length;
    const head2 = len < 126 ? Buffer.from([0x82, 0x80 | len]) : len < 65536 ? Buffer.from([0x82, 0x80 | 126, len >> 8, len & 0xff]) : Buffer.concat([Buffer.from([0x82, 0x80 | 127]), Buffer.from(BigInt(len).toString(16).padStart(16, '0'), 'hex')]);
    sock.write(Buffer.concat([head2, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))]));
  };
  return { sock, send, opened };
}

describe('port-forward with SPDY tunnelled in WebSocket (kubectl 1.31+)', () => {
  test('the subprotocol SPDY/3.1+portforward.k8s.io is accepted and SPDY frames travel as binary messages', async () => {
    const pod = await echoPod();
    const pf = await portForwardServer(pod.port);
    const c = collector();
    const ws = await rawWebSocket(pf.port, '/pf', 'SPDY/3.1+portforward.k8s.io', (m) => c.push(m));
    const head = (await ws.opened).split('\r\n').filter((l) => !l.startsWith('Sec-WebSocket-Accept'));
    const deflate = new HeaderCompressor();
    forwardedConnection((f) => ws.send(encodeFrame(f)), 8080, 0, [1, 3], deflate, 'tunnel');
    await until(c, [1, 3]);
    ws.sock.destroy();
    pf.server.close();
    pod.server.close();
    assert.deepEqual(
      { head, streams: c.result() },
      {
        head: ['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Protocol: SPDY/3.1+portforward.k8s.io'],
        streams: { 1: ['reply', 'FIN'], 3: ['reply', 'TUNNEL', 'FIN'] },
      },
    );
  });
});

describe('the legacy WebSocket port-forward (v4.channel.k8s.io)', () => {
  test('each channel opens with the port, data goes through channel 0 and an error would come on channel 1', async () => {
    const pod = await echoPod();
    const pf = await portForwardServer(pod.port);
    const ws = new WebSocket(`ws://127.0.0.1:${pf.port}/pf?ports=8080`, ['v4.channel.k8s.io']);
    const got: string[] = [];
    ws.on('message', (m: Buffer) => got.push(`${m[0]}:${m.subarray(1).toString('hex')}`));
    await new Promise((r) => ws.on('open', r));
    ws.send(Buffer.from([0, ...Buffer.from('ab')]));
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (got.length >= 3) {
          clearInterval(t);
          resolve();
        }
      }, 10);
    });
    ws.terminate();
    pf.server.close();
    pod.server.close();
    assert.deepEqual(got, ['0:901f', '1:901f', `0:${Buffer.from('AB').toString('hex')}`]);
  });
});
