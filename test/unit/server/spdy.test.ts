import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import {
  adler32,
  decodeHeaderBlock,
  encodeFrame,
  encodeHeaderBlock,
  FrameParser,
  HeaderCompressor,
  HeaderDecompressor,
  SPDY3_DICTIONARY,
  SpdyConnection,
  SpdyProtocolError,
  type Frame,
  type SpdyHeaders,
  type SpdyStream,
} from '../../../src/server/spdy.js';

describe('the SPDY/3 header dictionary is the one spdystream compresses with', () => {
  test('it is 1423 bytes with the SPDY/3 dictionary id 0xe3c6a7c2 as its Adler-32', () => {
    assert.deepEqual({ length: SPDY3_DICTIONARY.length, id: adler32(SPDY3_DICTIONARY).toString(16) }, { length: 1423, id: 'e3c6a7c2' });
  });
  test('it starts with the length-prefixed "options" and ends with the tail text', () => {
    assert.deepEqual(
      [SPDY3_DICTIONARY.subarray(0, 11).toString('latin1'), SPDY3_DICTIONARY.subarray(-10).toString('latin1')],
      ['\0\0\0\x07options', '-,*,enq=0.'],
    );
  });
});

const hb = Buffer.from([1, 2, 3]);
const frames: [string, Frame, string][] = [
  ['a DATA frame is the stream id, the FIN flag and the length, then the bytes', { type: 'data', streamId: 5, fin: true, data: Buffer.from('hi') }, '00000005010000026869'],
  ['an empty DATA frame without FIN is eight bytes', { type: 'data', streamId: 1, fin: false, data: Buffer.alloc(0) }, '0000000100000000'],
  [
    'a SYN_STREAM carries the associated stream, the priority in the top three bits and the slot',
    { type: 'syn_stream', streamId: 3, associatedId: 0, priority: 2, slot: 0, fin: false, unidirectional: true, headerBlock: hb },
    '800300010200000d000000030000000040' + '00' + '010203',
  ],
  ['a SYN_REPLY is the stream id then the header block', { type: 'syn_reply', streamId: 3, fin: false, headerBlock: hb }, '80030002000000070000000301' + '0203'],
  ['a HEADERS frame with FIN', { type: 'headers', streamId: 7, fin: true, headerBlock: hb }, '80030008010000070000000701' + '0203'],
  ['a RST_STREAM is the stream id and the status', { type: 'rst_stream', streamId: 9, status: 5 }, '80030003000000080000000900000005'],
  [
    'a SETTINGS frame lists flag, id and value per entry',
    { type: 'settings', clear: false, entries: [{ flags: 1, id: 7, value: 65536 }] },
    '800300040000000c000000010100000700010000',
  ],
  ['a PING is its id', { type: 'ping', id: 1 }, '800300060000000400000001'],
  ['a GOAWAY is the last good stream id and the status', { type: 'goaway', lastGoodStreamId: 7, status: 0 }, '80030007000000080000000700000000'],
  ['a WINDOW_UPDATE is the stream id and the delta', { type: 'window_update', streamId: 1, delta: 1024 }, '80030009000000080000000100000400'],
  ['an unknown control type is kept as it came', { type: 'unknown', version: 3, controlType: 0x0a, flags: 0, payload: Buffer.from([9]) }, '8003000a0000000109'],
];

describe('SPDY/3 frames are encoded as spdystream/spdy/write.go writes them', () => {
  for (const [name, frame, hex] of frames) {
    test(name, () => assert.deepEqual(encodeFrame(frame).toString('hex'), hex));
  }
});

describe('SPDY/3 frames decode to what was encoded, however the bytes are split', () => {
  for (const [name, frame] of frames) {
    test(name, () => {
      const whole = new FrameParser().push(encodeFrame(frame));
      const p = new FrameParser();
      const bytewise = [...encodeFrame(frame)].flatMap((b) => p.push(Buffer.from([b])));
      assert.deepEqual({ whole, bytewise }, { whole: [frame], bytewise: [frame] });
    });
  }
  test('several frames in one chunk come out in order', () => {
    const chunk = Buffer.concat([encodeFrame(frames[0][1]), encodeFrame(frames[7][1]), encodeFrame(frames[8][1])]);
    assert.deepEqual(new FrameParser().push(chunk), [frames[0][1], frames[7][1], frames[8][1]]);
  });
  const bad: [string, string, string][] = [
    ['a control frame of another SPDY version is refused', '800200060000000400000001', 'unsupported SPDY version 2'],
    ['a DATA frame for stream 0 is refused', '0000000000000000', 'stream id zero is disallowed'],
    ['a RST_STREAM shorter than eight bytes is refused', '80030003000000040000000900', 'invalid RST_STREAM frame: 4 bytes'],
  ];
  for (const [name, hex, message] of bad) {
    test(name, () => assert.throws(() => new FrameParser().push(Buffer.from(hex, 'hex')), new SpdyProtocolError(message)));
  }
});

describe('SPDY name/value header blocks', () => {
  const blocks: [string, SpdyHeaders, string][] = [
    ['an empty block is a zero count', {}, '00000000'],
    ['each name and value goes behind its 32-bit length', { streamtype: ['error'] }, '000000010000000a73747265616d7479706500000005' + '6572726f72'],
    ['several values of a name are NUL-separated', { a: ['1', '2'] }, '000000010000000161000000033100' + '32'],
  ];
  for (const [name, headers, hex] of blocks) {
    test(`${name} (encoded)`, () => assert.deepEqual(encodeHeaderBlock(headers).toString('hex'), hex));
    test(`${name} (decoded)`, () => assert.deepEqual(decodeHeaderBlock(Buffer.from(hex + 'ff', 'hex')), { headers, length: hex.length / 2 }));
  }
  test('names are lower-cased both ways, as http.Header.Get finds them', () => {
    const raw = encodeHeaderBlock({ StreamType: ['data'] });
    assert.deepEqual(decodeHeaderBlock(raw), { headers: { streamtype: ['data'] }, length: raw.length });
  });
  test('a block cut anywhere is not decoded yet', () => {
    const raw = encodeHeaderBlock({ streamtype: ['error'], port: ['8080'] });
    const cuts = Array.from({ length: raw.length }, (_, i) => decodeHeaderBlock(raw.subarray(0, i)));
    assert.deepEqual(cuts, Array.from({ length: raw.length }, () => null));
  });
});

describe('our header blocks are a stored-block zlib stream with the SPDY dictionary', () => {
  test('the first block starts with the zlib header naming the dictionary and ends with the sync-flush marker', () => {
    const c = new HeaderCompressor();
    assert.deepEqual(
      [c.compress(encodeHeaderBlock({})).toString('hex'), c.compress(encodeHeaderBlock({})).toString('hex')],
      ['7820e3c6a7c2' + '000400fbff' + '00000000' + '000000ffff', '000400fbff' + '00000000' + '000000ffff'],
    );
  });
  test('a block larger than 64 KiB is split into stored blocks', () => {
    const raw = encodeHeaderBlock({ big: ['x'.repeat(70_000)] });
    const out = new HeaderCompressor().compress(raw);
    assert.deepEqual(zlib.inflateSync(out, { dictionary: SPDY3_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH }), raw);
  });
  test('zlib inflates the stream of blocks with the dictionary to the blocks, in order', () => {
    const c = new HeaderCompressor();
    const raws = [encodeHeaderBlock({}), encodeHeaderBlock({ streamtype: ['stdout'] }), encodeHeaderBlock({ port: ['80'], requestid: ['0'] })];
    const stream = Buffer.concat(raws.map((r) => c.compress(r)));
    assert.deepEqual(zlib.inflateSync(stream, { dictionary: SPDY3_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH }), Buffer.concat(raws));
  });
});

/** Header blocks as Go's spdystream writes them: one deflate context with the dictionary, a sync flush per block. */
async function goStyleBlocks(blocks: SpdyHeaders[]): Promise<Buffer[]> {
  const d = zlib.createDeflate({ dictionary: SPDY3_DICTIONARY });
  const out: Buffer[] = [];
  for (const b of blocks) {
    const chunks: Buffer[] = [];
    const onData = (c: Buffer) => chunks.push(c);
    d.on('data', onData);
    d.write(encodeHeaderBlock(b));
    await new Promise<void>((r) => d.flush(zlib.constants.Z_SYNC_FLUSH, () => r()));
    await new Promise((r) => setImmediate(r));
    d.off('data', onData);
    out.push(Buffer.concat(chunks));
  }
  d.destroy();
  return out;
}

describe('the peer header blocks are inflated with one zlib context, in order', () => {
  test('blocks compressed by one deflate context with sync flushes decode one by one', async () => {
    const blocks: SpdyHeaders[] = [{ streamtype: ['error'], port: ['8080'], requestid: ['0'] }, { streamtype: ['data'], port: ['8080'], requestid: ['0'] }, {}];
    const compressed = await goStyleBlocks(blocks);
    const d = new HeaderDecompressor();
    const got = await Promise.all(compressed.map((c) => new Promise((resolve) => d.decode(c, (err, h) => resolve({ err, h })))));
    d.close();
    assert.deepEqual(got, blocks.map((h) => ({ err: null, h })));
  });
  test('our own stored blocks decode too', async () => {
    const c = new HeaderCompressor();
    const blocks = [{ streamtype: ['stdin'] }, { streamtype: ['resize'] }];
    const d = new HeaderDecompressor();
    const got = await Promise.all(blocks.map((b) => new Promise((resolve) => d.decode(c.compress(encodeHeaderBlock(b)), (err, h) => resolve({ err, h })))));
    d.close();
    assert.deepEqual(got, blocks.map((h) => ({ err: null, h })));
  });
});

/** A SPDY server connection on an in-memory transport, with a client side that speaks our codec. */
function harness(opts: { validate?: (h: SpdyHeaders) => string | null } = {}) {
  const out: Frame[] = [];
  const parser = new FrameParser();
  const streams: SpdyStream[] = [];
  const events: string[] = [];
  const clientDeflate = new HeaderCompressor();
  const conn = new SpdyConnection(
    {
      write: (buf) => {
        out.push(...parser.push(buf));
        return true;
      },
      end: () => events.push('transport end'),
      destroy: () => events.push('transport destroy'),
      pauseInput: () => events.push('pause'),
      resumeInput: () => events.push('resume'),
    },
    {
      validate: opts.validate ? (h) => opts.validate!(h) : undefined,
      onStream: (s) => {
        streams.push(s);
        events.push(`stream ${s.id} ${JSON.stringify(s.headers)}`);
      },
      onClose: () => events.push('closed'),
    },
  );
  const syn = (streamId: number, headers: SpdyHeaders, fin = false) =>
    conn.receive(encodeFrame({ type: 'syn_stream', streamId, associatedId: 0, priority: 0, slot: 0, fin, unidirectional: false, headerBlock: clientDeflate.compress(encodeHeaderBlock(headers)) }));
  const settle = () => new Promise((r) => setTimeout(r, 20));
  /** Our frames with the SYN_REPLY header blocks decoded (they must all be empty). */
  const frames = () =>
    out.map((f) => {
      if (f.type !== 'syn_reply') return f.type === 'data' ? { ...f, data: f.data.toString() } : f;
      return { type: f.type, streamId: f.streamId, fin: f.fin };
    });
  return { conn, out, streams, events, syn, settle, frames };
}

describe('the SPDY server connection, as spdystream serves kubectl', () => {
  test('a new stream is answered with an empty SYN_REPLY and handed over with its headers', async () => {
    const h = harness();
    h.syn(1, { streamtype: ['error'] });
    h.syn(3, { streamtype: ['stdout'] });
    await h.settle();
    assert.deepEqual(
      { frames: h.frames(), events: h.events },
      {
        frames: [
          { type: 'syn_reply', streamId: 1, fin: false },
          { type: 'syn_reply', streamId: 3, fin: false },
        ],
        events: ['stream 1 {"streamtype":["error"]}', 'stream 3 {"streamtype":["stdout"]}'],
      },
    );
  });
  test('our SYN_REPLY header blocks are empty blocks of one zlib stream', async () => {
    const h = harness();
    h.syn(1, { streamtype: ['error'] });
    h.syn(3, { streamtype: ['stdout'] });
    await h.settle();
    const blocks = h.out.map((f) => (f.type === 'syn_reply' ? f.headerBlock : Buffer.alloc(0)));
    const raw = zlib.inflateSync(Buffer.concat(blocks), { dictionary: SPDY3_DICTIONARY, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    assert.deepEqual(raw, Buffer.concat([encodeHeaderBlock({}), encodeHeaderBlock({})]));
  });
  test('DATA frames are read from the stream, FIN ends it; writes become DATA frames and end() a FIN', async () => {
    const h = harness();
    h.syn(1, { streamtype: ['data'] });
    await h.settle();
    const s = h.streams[0];
    const read: string[] = [];
    s.on('data', (c: Buffer) => read.push(c.toString()));
    s.on('end', () => read.push('<end>'));
    h.conn.receive(encodeFrame({ type: 'data', streamId: 1, fin: false, data: Buffer.from('ab') }));
    h.conn.receive(encodeFrame({ type: 'data', streamId: 1, fin: true, data: Buffer.from('c') }));
    s.write('xyz');
    s.end();
    await h.settle();
    assert.deepEqual(
      { read, frames: h.frames().slice(1) },
      {
        read: ['ab', 'c', '<end>'],
        frames: [
          { type: 'data', streamId: 1, fin: false, data: 'xyz' },
          { type: 'data', streamId: 1, fin: true, data: '' },
        ],
      },
    );
  });
  test('a SYN_STREAM with FIN is a stream the peer will not write to', async () => {
    const h = harness();
    h.syn(1, { streamtype: ['error'] }, true);
    await h.settle();
    const ended = await new Promise((resolve) => {
      h.streams[0].on('end', () => resolve(true));
      h.streams[0].resume();
    });
    assert.deepEqual(ended, true);
  });
  test("the client's pings (odd ids) are answered; even ids (ours) are not", async () => {
    const h = harness();
    h.conn.receive(encodeFrame({ type: 'ping', id: 1 }));
    h.conn.receive(encodeFrame({ type: 'ping', id: 2 }));
    await h.settle();
    assert.deepEqual(h.frames(), [{ type: 'ping', id: 1 }]);
  });
  test('SETTINGS and WINDOW_UPDATE are ignored (no flow control, as spdystream)', async () => {
    const h = harness();
    h.conn.receive(encodeFrame({ type: 'settings', clear: false, entries: [{ flags: 0, id: 7, value: 1 }] }));
    h.conn.receive(encodeFrame({ type: 'window_update', streamId: 1, delta: 10 }));
    await h.settle();
    assert.deepEqual({ frames: h.frames(), events: h.events }, { frames: [], events: [] });
  });
  test('a refused stream gets RST_STREAM CANCEL and is not handed over', async () => {
    const h = harness({ validate: (hd) => (hd.port ? null : '"port" header is required') });
    h.syn(1, { streamtype: ['data'] });
    await h.settle();
    assert.deepEqual({ frames: h.frames(), events: h.events }, { frames: [{ type: 'rst_stream', streamId: 1, status: 5 }], events: [] });
  });
  test('a stream id that is even or does not increase is a protocol error', async () => {
    const h = harness();
    h.syn(2, { streamtype: ['data'] });
    h.syn(5, { streamtype: ['data'] });
    h.syn(3, { streamtype: ['data'] });
    await h.settle();
    assert.deepEqual(h.frames(), [
      { type: 'rst_stream', streamId: 2, status: 1 },
      { type: 'syn_reply', streamId: 5, fin: false },
      { type: 'rst_stream', streamId: 3, status: 1 },
    ]);
  });
  test("the peer's RST_STREAM destroys the stream", async () => {
    const h = harness();
    h.syn(1, { streamtype: ['data'] });
    await h.settle();
    h.conn.receive(encodeFrame({ type: 'rst_stream', streamId: 1, status: 5 }));
    assert.deepEqual(h.streams[0].destroyed, true);
  });
  test('close() sends GOAWAY naming the last stream, ends the transport and closes the streams', async () => {
    const h = harness();
    h.syn(1, { streamtype: ['data'] });
    h.syn(3, { streamtype: ['data'] });
    await h.settle();
    h.conn.close();
    assert.deepEqual(
      { last: h.frames().at(-1), events: h.events.slice(2), destroyed: h.streams.map((s) => s.destroyed) },
      { last: { type: 'goaway', lastGoodStreamId: 3, status: 0 }, events: ['transport end', 'closed'], destroyed: [true, true] },
    );
  });
  test('a reader that falls behind pauses the transport until it reads again', async () => {
    const h = harness();
    h.syn(1, { streamtype: ['data'] });
    await h.settle();
    h.conn.receive(encodeFrame({ type: 'data', streamId: 1, fin: false, data: Buffer.alloc(64 * 1024) }));
    const paused = [...h.events];
    h.streams[0].resume();
    await h.settle();
    assert.deepEqual({ paused: paused.slice(1), after: h.events.slice(1) }, { paused: ['pause'], after: ['pause', 'resume'] });
  });
  test('an undecodable header block ends the connection with a protocol-error GOAWAY', async () => {
    const h = harness();
    h.conn.receive(encodeFrame({ type: 'syn_stream', streamId: 1, associatedId: 0, priority: 0, slot: 0, fin: false, unidirectional: false, headerBlock: Buffer.from('not zlib') }));
    await h.settle();
    assert.deepEqual({ frames: h.frames(), events: h.events }, { frames: [{ type: 'goaway', lastGoodStreamId: 0, status: 1 }], events: ['transport destroy', 'closed'] });
  });
});
