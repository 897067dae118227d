// Go's parsers whose results and error texts the lab reproduces (src/shared/go.ts): time.Parse
// with the RFC 3339 layout, strconv.ParseInt, time.ParseDuration. The expected texts are what Go
// prints (kubectl 1.33 printed the RFC 3339 and ParseInt ones for `kubectl logs --since-time` and
// `--tail`).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { goParseInt, parseGoDuration, parseGoRfc3339 } from '../../src/shared/go.js';

describe('time.Parse(time.RFC3339, …)', () => {
  const err = (value: string, rest: string, elem: string) => ({ error: `parsing time "${value}" as "2006-01-02T15:04:05Z07:00": cannot parse "${rest}" as "${elem}"` });
  const cases: [string, string, number | { error: string }][] = [
    ['UTC with Z', '2026-11-24T05:07:00Z', Date.UTC(2026, 10, 24, 5, 7, 0)],
    ['an offset is applied', '2026-11-24T05:07:00+01:00', Date.UTC(2026, 10, 24, 4, 7, 0)],
    ['a negative offset', '2026-11-24T05:07:00-02:30', Date.UTC(2026, 10, 24, 7, 37, 0)],
    ['a fraction after the seconds is accepted though the layout has none', '2026-11-24T05:07:00.123456789Z', Date.UTC(2026, 10, 24, 5, 7, 0, 123)],
    ['a comma may start the fraction', '2026-11-24T05:07:00,5Z', Date.UTC(2026, 10, 24, 5, 7, 0, 500)],
    ['a one-digit hour is accepted', '2026-11-24T5:07:00Z', Date.UTC(2026, 10, 24, 5, 7, 0)],
    ['a word fails at the year', 'yesterday', err('yesterday', 'yesterday', '2006')],
    ['a date alone fails at the T', '2026-11-24', err('2026-11-24', '', 'T')],
    ['a lower-case t fails at the T', '2026-11-24t05:07:00z', err('2026-11-24t05:07:00z', 't05:07:00z', 'T')],
    ['a one-digit month fails at the month', '2026-1-24T05:07:00Z', err('2026-1-24T05:07:00Z', '1-24T05:07:00Z', '01')],
    ['a missing zone fails at Z07:00', '2026-11-24T05:07:00', err('2026-11-24T05:07:00', '', 'Z07:00')],
    ['a zone without a colon fails at Z07:00', '2026-11-24T05:07:00+0100', err('2026-11-24T05:07:00+0100', '+0100', 'Z07:00')],
    ['month 13 is out of range', '2026-13-01T00:00:00Z', { error: 'parsing time "2026-13-01T00:00:00Z": month out of range' }],
    ['hour 24 is out of range', '2026-11-24T24:00:00Z', { error: 'parsing time "2026-11-24T24:00:00Z": hour out of range' }],
    ['the 31st of November is out of range', '2026-11-31T00:00:00Z', { error: 'parsing time "2026-11-31T00:00:00Z": day out of range' }],
    ['the 29th of February of a leap year is a day', '2028-02-29T00:00:00Z', Date.UTC(2028, 1, 29)],
    ['text after the zone is extra', '2026-11-24T05:07:00Zabc', { error: 'parsing time "2026-11-24T05:07:00Zabc": extra text: "abc"' }],
  ];
  for (const [name, value, want] of cases) test(name, () => assert.deepEqual(parseGoRfc3339(value), want));
});

describe('strconv.ParseInt(…, base, 64)', () => {
  const syntax = (v: string) => ({ error: `strconv.ParseInt: parsing "${v}": invalid syntax` });
  const cases: [string, string, 0 | 10, number | { error: string }][] = [
    ['decimal', '42', 10, 42],
    ['a sign', '+3', 10, 3],
    ['negative', '-2', 10, -2],
    ['a fraction is invalid syntax', '3.5', 10, syntax('3.5')],
    ['a word is invalid syntax', 'abc', 10, syntax('abc')],
    ['empty is invalid syntax', '', 10, syntax('')],
    ['base 10 takes no hexadecimal prefix', '0x10', 10, syntax('0x10')],
    ['base 0: hexadecimal', '0x10', 0, 16],
    ['base 0: a leading zero is octal', '010', 0, 8],
    ['base 0: 08 is no octal number', '08', 0, syntax('08')],
    ['base 0: binary', '0b101', 0, 5],
    ['base 0: underscores between digits', '1_000', 0, 1000],
    ['base 0: a trailing underscore is invalid', '1000_', 0, syntax('1000_')],
    ['base 10: no underscores', '1_000', 10, syntax('1_000')],
    ['beyond int64 is out of range', '9223372036854775808', 10, { error: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' }],
  ];
  for (const [name, value, base, want] of cases) test(name, () => assert.deepEqual(goParseInt(value, base), want));
});

describe('time.ParseDuration, in milliseconds', () => {
  const cases: [string, string, number | { error: string }][] = [
    ['hours and minutes', '1h30m', 5_400_000],
    ['a fraction of a second', '1.5s', 1500],
    ['milliseconds', '400ms', 400],
    ['a bare number other than 0 has no unit', '5', { error: 'time: missing unit in duration "5"' }],
    ['a word is invalid', 'abc', { error: 'time: invalid duration "abc"' }],
    ['an unknown unit', '5d', { error: 'time: unknown unit "d" in duration "5d"' }],
  ];
  for (const [name, value, want] of cases) test(name, () => assert.deepEqual(parseGoDuration(value), want));
});
