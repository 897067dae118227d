// Go's base64 and JSON decoders as the API server runs them on Secret and ConfigMap payloads: the
// bytes, or the exact error text.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { goBase64Decode, goJSONSyntaxError, goJSONUnmarshalMapError, goPemDecode } from '../../../src/validation/go-codecs.js';

const b64 = (s: string) => {
  const r = goBase64Decode(s);
  return 'error' in r ? r : { text: Buffer.from(r.bytes).toString('latin1') };
};

describe('base64.StdEncoding.Decode', () => {
  const cases: [string, string, ReturnType<typeof b64>][] = [
    ['padded base64 decodes', 'YWRtaW4=', { text: 'admin' }],
    ['two padding characters decode one byte', 'YQ==', { text: 'a' }],
    ['the empty string is no bytes', '', { text: '' }],
    ['line breaks anywhere are skipped', 'YW\nRt\r\naW4=\n', { text: 'admin' }],
    ['plain text of five letters fails at the fifth byte (the unfinished quantum)', 'admin', { error: 'illegal base64 data at input byte 4' }],
    ['missing padding fails where the last quantum starts', 'YWRtaW4', { error: 'illegal base64 data at input byte 4' }],
    ['a space is not in the alphabet', 'a b', { error: 'illegal base64 data at input byte 1' }],
    ['a URL-safe character is not in the standard alphabet', 'ab-_', { error: 'illegal base64 data at input byte 2' }],
    ['a lone "=" after two characters wants a second one at the end', 'YQ=', { error: 'illegal base64 data at input byte 3' }],
    ['padding after one character is incorrect', 'Y===', { error: 'illegal base64 data at input byte 1' }],
    ['data after the padding is trailing garbage', 'YQ==YQ==', { error: 'illegal base64 data at input byte 4' }],
    ['the offset counts UTF-8 bytes', 'YWJjé', { error: 'illegal base64 data at input byte 4' }],
  ];
  for (const [name, input, want] of cases) test(name, () => assert.deepEqual(b64(input), want));
});

describe('json.Unmarshal into map[string]interface{}', () => {
  const cases: [string, string, string | undefined][] = [
    ['an object is accepted', '{"auths":{"r.example":{"auth":"eDp5"}}}', undefined],
    ['null is accepted (the map stays nil)', 'null', undefined],
    ['surrounding whitespace is accepted', ' \n{}\t', undefined],
    ['empty input ends too early', '', 'unexpected end of JSON input'],
    ['an unclosed object ends too early', '{"a":1', 'unexpected end of JSON input'],
    ['an array is the wrong type', '[1]', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['a string is the wrong type', '"x"', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
    ['a number is the wrong type', '12', 'json: cannot unmarshal number into Go value of type map[string]interface {}'],
    ['a boolean is the wrong type', 'true', 'json: cannot unmarshal bool into Go value of type map[string]interface {}'],
    ['an unquoted key', '{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['a trailing comma in an object', '{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['a missing colon', '{"a" 1}', "invalid character '1' after object key"],
    ['a missing comma between members', '{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ['a missing comma between elements', '{"a":[1 2]}', "invalid character '2' after array element"],
    ['a value that starts with nothing JSON knows', '{"a":x}', "invalid character 'x' looking for beginning of value"],
    ['a single quote is shown escaped', "{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['a raw newline inside a string', '{"a":"x\ny"}', "invalid character '\\n' in string literal"],
    ['an unknown escape', '{"a":"\\x"}', "invalid character 'x' in string escape code"],
    ['a bad \\u escape', '{"a":"\\u12g4"}', "invalid character 'g' in \\u hexadecimal character escape"],
    ['a number with a dot and no digit', '{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['a misspelt literal', '{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['a literal cut by the end of input', 'nul', "invalid character ' ' in literal null (expecting 'l')"],
    ['text after the value', '{} x', "invalid character 'x' after top-level value"],
    ['a non-ASCII byte is shown as its Latin-1 character', 'é', "invalid character 'Ã' looking for beginning of value"],
    ['a control byte is shown as \\x', '\u0001', "invalid character '\\x01' looking for beginning of value"],
  ];
  for (const [name, input, want] of cases) test(name, () => assert.equal(goJSONUnmarshalMapError(Buffer.from(input, 'utf8')), want));
  test('nesting deeper than 10000 levels is refused at the opening bracket', () => {
    assert.equal(goJSONSyntaxError(Buffer.from('['.repeat(10001))), "invalid character '[' exceeded max depth");
  });
});

describe('pem.Decode', () => {
  const blocks = (text: string) => {
    const out: [string, string][] = [];
    for (let r = goPemDecode(text); r; r = goPemDecode(r.rest)) {
      out.push([r.block.type, Buffer.from(r.block.bytes).toString('latin1')]);
      text = r.rest;
    }
    return out;
  };
  const cases: [string, string, [string, string][]][] = [
    ['a block at the start of the input', '-----BEGIN X-----\nYWJj\n-----END X-----\n', [['X', 'abc']]],
    ['text before the block and several blocks', 'junk\n-----BEGIN A-----\nYQ==\n-----END A-----\n-----BEGIN B-----\nYg==\n-----END B-----', [['A', 'a'], ['B', 'b']]],
    ['CRLF line ends and indentation in the body', '-----BEGIN X-----\r\n  YW\r\n\tJj\r\n-----END X-----\r\n', [['X', 'abc']]],
    ['headers are skipped', '-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\n\nYWJj\n-----END X-----\n', [['X', 'abc']]],
    ['an empty block', '-----BEGIN X-----\n-----END X-----\n', [['X', '']]],
    ['an end line of another type skips the block', '-----BEGIN X-----\nYWJj\n-----END Y-----\n', []],
    ['a body that is not base64 skips the block', '-----BEGIN X-----\nnot base64!\n-----END X-----\n', []],
    ['no PEM at all', 'hello', []],
  ];
  for (const [name, input, want] of cases) test(name, () => assert.deepEqual(blocks(input), want));
});
