// kubectl's `-o yaml` text (src/shared/go-yaml.ts): sigs.k8s.io/yaml over go-yaml v2. Every
// expected text is what kubectl 1.33 printed for the same value (`kubectl create configmap
// --from-file … --dry-run=client -o yaml` for the strings, `kubectl create -f … --dry-run=client
// -o yaml` for the structures). test/integration/kubectl-yaml.test.ts compares generated values
// with kubectl itself; test/integration/cli.test.ts compares `podlab get -o yaml` with kubectl's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlYaml } from '../../src/shared/go-yaml.js';

describe('a string value, as kubectl prints it under a key', () => {
  const cases: [string, string, string][] = [
  ["a word stays plain", "hello", "  k: hello\n"],
  ["an empty string is double-quoted", "", "  k: \"\"\n"],
  ["a YAML 1.1 boolean word is double-quoted", "yes", "  k: \"yes\"\n"],
  ["a number is double-quoted", "8080", "  k: \"8080\"\n"],
  ["a leading-zero number that is no octal is double-quoted (it reads as a float)", "08", "  k: \"08\"\n"],
  ["a hexadecimal number is double-quoted", "0x1F", "  k: \"0x1F\"\n"],
  ["a number with underscores is double-quoted", "1_000", "  k: \"1_000\"\n"],
  ["a number out of float range stays plain", "1e400", "  k: 1e400\n"],
  ["an RFC 3339 time is double-quoted", "2026-11-24T11:09:00Z", "  k: \"2026-11-24T11:09:00Z\"\n"],
  ["a date that does not exist stays plain", "2026-02-30", "  k: 2026-02-30\n"],
  ["a sexagesimal number is double-quoted", "1:20", "  k: \"1:20\"\n"],
  ["null and ~ are double-quoted", "~", "  k: \"~\"\n"],
  ["\": \" makes single quotes", "a: b", "  k: 'a: b'\n"],
  ["a colon without a space stays plain", "a:b", "  k: a:b\n"],
  ["\" #\" makes single quotes", "a #b", "  k: 'a #b'\n"],
  ["a leading indicator makes single quotes", "*star", "  k: '*star'\n"],
  ["\"- \" at the start makes single quotes", "- item", "  k: '- item'\n"],
  ["a single quote inside single quotes is doubled", "'it's'", "  k: '''it''s'''\n"],
  ["leading and trailing spaces make single quotes", " padded ", "  k: ' padded '\n"],
  ["a tab makes double quotes with \\t", "tab\there", "  k: \"tab\\there\"\n"],
  ["a line break makes a literal block with |-", "line1\nline2", "  k: |-\n    line1\n    line2\n"],
  ["a final line break makes | (clip)", "line1\nline2\n", "  k: |\n    line1\n    line2\n"],
  ["two final line breaks make |+", "line1\n\n", "  k: |+\n    line1\n\n"],
  ["a leading space in a block gives an indentation indicator", " indented\nnext\n", "  k: |2\n     indented\n    next\n"],
  ["a space before a line break makes double quotes", "trailing \nspace", "  k: \"trailing \\nspace\"\n"],
  ["a tab in a multi-line string makes double quotes with \\n", "a\tb\nc", "  k: \"a\\tb\\nc\"\n"],
  ["an emoji is escaped as \\U", "emoji 😀", "  k: \"emoji \\U0001F600\"\n"],
  ["a byte order mark escapes every character after it", "﻿bom", "  k: \"\\uFEFF\\x62\\x6F\\x6D\"\n"],
  ["a long plain string folds at the first space past column 80", "word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word", "  k: word word word word word word word word word word word word word word word word\n    word word word word word word word word word word word word word word\n"],
  ["a long string without spaces does not fold", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "  k: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"],
  ["a long single-quoted string folds too", "a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b", "  k: 'a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a: b a:\n    b a: b a: b a: b a: b a: b a: b a: b a: b a: b'\n"],
  ["a long double-quoted string folds, escaping a second space", "tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  tab\t  end", "  k: \"tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  tab\\t\n    \\ tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  tab\\t  end\"\n"],
  ["NEL reads back as a space", "ab", "  k: a b\n"],
  ["two NELs read back as one line break", "a  b", "  k: |-\n    a\n    b\n"],
  ["a comma before the fraction still makes a time", "2026-11-24T11:09:00,5Z", "  k: \"2026-11-24T11:09:00,5Z\"\n"],
  ["a zone hour past 24 is no time", "2026-1-2t1:2:3+25:00", "  k: 2026-1-2t1:2:3+25:00\n"],
  ];
  for (const [name, value, want] of cases) test(name, () => assert.equal(kubectlYaml({ data: { k: value } }), `data:\n${want}`));
});

describe('structures', () => {
  test('keys in go-yaml\'s order, unindented sequences under keys, flow {} and [], numbers as Go formats them', () => {
    const value = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 's', namespace: 'default' },
      extra: { seqOfSeq: [[1, 2], [], ['a', { k: 'v' }]], seqOfMaps: [{ b: 1, a: [true, false, null] }, {}], nums: [0, -1, 1.5, 0.0001, 1e-5, 123456.5, 1234567.5, 1e21], emptyMap: {}, emptyList: [], nested: { deeper: { deepest: 'x' } }, a10: 1, a9: 2, A: 3, _: 4 },
    };
    assert.equal(
      kubectlYaml(value),
      `apiVersion: v1
extra:
  _: 4
  A: 3
  a9: 2
  a10: 1
  emptyList: []
  emptyMap: {}
  nested:
    deeper:
      deepest: x
  nums:
  - 0
  - -1
  - 1.5
  - 0.0001
  - 1e-05
  - 123456.5
  - 1.2345675e+06
  - 1e+21
  seqOfMaps:
  - a:
    - true
    - false
    - null
    b: 1
  - {}
  seqOfSeq:
  - - 1
    - 2
  - []
  - - a
    - k: v
kind: ConfigMap
metadata:
  name: s
  namespace: default
`,
    );
  });

  test('a key longer than 128 bytes is a complex key (? then :); a multi-line value beside it is a block', () => {
    const long = 'k'.repeat(129);
    assert.equal(kubectlYaml({ data: { [long]: 'v', b: 'multi\nline' } }), `data:\n  b: |-\n    multi\n    line\n  ? ${long}\n  : v\n`);
  });

  test('undefined fields are left out and an empty object is {}', () => {
    assert.equal(kubectlYaml({ a: undefined, b: {} }), 'b: {}\n');
    assert.equal(kubectlYaml({}), '{}\n');
  });

  test('an integer past 2^53 keeps its digits (go-yaml reads Go\'s JSON digits back as an int), past uint64 it is a float', () => {
    assert.equal(kubectlYaml({ big: 10000000000000000000, huge: 1e21, neg: -9007199254740993 }), 'big: 10000000000000000000\nhuge: 1e+21\nneg: -9007199254740992\n');
  });
  test('a document that is one scalar ends without `...` (go-yaml ends the stream implicitly)', () => {
    assert.equal(kubectlYaml('x'), 'x\n');
  });
  test('a lone surrogate is U+FFFD, as Go\'s JSON writes it', () => {
    assert.equal(kubectlYaml({ k: 'a\ud800b' }), 'k: a\ufffdb\n');
  });

  test('DEL, a C1 control other than NEL, U+FFFE or U+FFFF: kubectl\'s error', () => {
    for (const bad of ['a\u007fb', 'a\u0080b', 'a\u009fb', 'a\ufffeb', 'a\uffffb']) assert.throws(() => kubectlYaml({ k: bad }), { message: 'yaml: control characters are not allowed' }, JSON.stringify(bad));
    assert.throws(() => kubectlYaml({ ['bad\u0080key']: 'v' }), { message: 'yaml: control characters are not allowed' });
  });
});
