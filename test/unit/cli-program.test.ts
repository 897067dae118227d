// The `podlab` top level (src/cli/program.ts, commander): dispatch with the raw arguments, help,
// --version, unknown commands and their exit codes, with fake command handlers (no Docker, no
// engine). And the help's options checked against the options the commands' own parsers take
// (engine-commands.ts, server-commands.ts), read from their source with the TypeScript compiler.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { Option } from 'commander';
import { COMMANDS, ENGINE_COMMANDS, USAGE, helpRequested, runCli } from '../../src/cli/program.js';
import { cannotRead, deleteGrace, pflagArgv, podArg } from '../../src/cli/args.js';
import { eventLine, kindlessMessage, unreachableNote, type Until } from '../../src/cli/engine-commands.js';
import { kubeconfig, status, stop } from '../../src/cli/server-commands.js';
import { serve } from '../../src/cli/serve-command.js';
import { nodes } from '../../src/cli/nodes-command.js';
import { runValidate } from '../../src/cli/validate.js';
import { listenForInterrupt } from '../../src/cli/interrupt.js';
import type { Pod } from 'kubernetes-types/core/v1';

interface Result {
  code: number;
  out: string;
  err: string;
  calls: unknown[];
}

/** `podlab ARGV` with handlers that record their calls and exit with `handlerCode`. */
async function podlab(argv: string[], handlerCode = 0): Promise<Result> {
  const r: Result = { code: -1, out: '', err: '', calls: [] };
  r.code = await runCli(
    argv,
    { out: (s) => (r.out += s), err: (s) => (r.err += s) },
    {
      validate: async (args) => (r.calls.push(['validate', args]), handlerCode),
      engine: async (cmd, args) => (r.calls.push([cmd, args]), handlerCode),
    },
    { version: '1.2.3-test', helpWidth: 80 },
  );
  return r;
}

const HELP_HELP = ['Usage: podlab help [COMMAND]', '', "Print the usage, or the help of COMMAND: its synopsis, a description and its", 'options.', ''].join('\n');
const usage = (code: number): Result => ({ code, out: USAGE, err: '', calls: [] });
const unknown = (cmd: string): Result => ({ code: 2, out: '', err: `podlab: unknown command "${cmd}"\n\n${USAGE}`, calls: [] });

describe('podlab dispatches on its first argument', () => {
  const cases: [string, string[], Result][] = [
    ['no argument prints the usage on stdout and exits 2', [], usage(2)],
    ['help prints the usage and exits 0', ['help'], usage(0)],
    ['--help prints the usage and exits 0', ['--help'], usage(0)],
    ['-h prints the usage and exits 0, whatever follows', ['-h', 'run', 'x.yaml'], usage(0)],
    ['help of an unknown command says so, with the usage on stderr, exit 2', ['help', 'bogus'], unknown('bogus')],
    ['help of help prints its help', ['help', 'help'], { code: 0, out: HELP_HELP, err: '', calls: [] }],
    ['an unknown command is refused with the usage on stderr, exit 2', ['bogus'], unknown('bogus')],
    ['an unknown flag in first place is an unknown command', ['--bogus'], unknown('--bogus')],
    ['a help flag after an unknown first argument does not rescue it', ['--bogus', '-h'], unknown('--bogus')],
    ['--version after an unknown command is not read', ['foo', '--version'], unknown('foo')],
    ['a lone -- is an unknown command', ['--'], unknown('--')],
    ['a command after -- is not run', ['--', 'run', 'x.yaml'], unknown('--')],
    ['attach is not a podlab command: the real kubectl is named for it', ['attach', 'p'], { ...unknown('attach'), err: `podlab: unknown command "attach"\n"attach" is kubectl's: the real kubectl works against the lab, as in KUBECONFIG=$(podlab kubeconfig) kubectl attach ...\n\n${USAGE}` }],
    [
      'apply: run is named beside the real kubectl',
      ['apply', '-f', 'x.yaml'],
      { ...unknown('apply'), err: `podlab: unknown command "apply"\npodlab run FILE validates a file and creates what it holds. "apply" is kubectl's: the real kubectl works against the lab, as in KUBECONFIG=$(podlab kubeconfig) kubectl apply ...\n\n${USAGE}` },
    ],
    ['a near miss of a command is suggested', ['lgos', 'p'], { ...unknown('lgos'), err: `podlab: unknown command "lgos"\nDid you mean "logs"?\n\n${USAGE}` }],
    ['version is not a command (--version is)', ['version'], unknown('version')],
    ['commands are case-sensitive (the right case is suggested)', ['Run', 'x.yaml'], { ...unknown('Run'), err: `podlab: unknown command "Run"\nDid you mean "run"?\n\n${USAGE}` }],
    ['--version prints the version and exits 0', ['--version'], { code: 0, out: '1.2.3-test\n', err: '', calls: [] }],
    ['-V prints the version and exits 0', ['-V'], { code: 0, out: '1.2.3-test\n', err: '', calls: [] }],
    ['run gets its raw arguments, flags and all, in order', ['run', 'x.yaml', '--until', 'Ready', '--json', '--rm'], { code: 0, out: '', err: '', calls: [['run', ['x.yaml', '--until', 'Ready', '--json', '--rm']]] }],
    ['run without FILE still goes to run, which says what is missing', ['run'], { code: 0, out: '', err: '', calls: [['run', []]] }],
    ['an unknown flag goes on to the command, whose parser refuses it', ['get', '--bogus'], { code: 0, out: '', err: '', calls: [['get', ['--bogus']]] }],
    ['--version after a command belongs to the command', ['run', '--version'], { code: 0, out: '', err: '', calls: [['run', ['--version']]] }],
    ['-- and what follows reach the command unchanged', ['get', '-n', 'x', '--', '--help'], { code: 0, out: '', err: '', calls: [['get', ['-n', 'x', '--', '--help']]] }],
    ['short flags and values in one argument reach the command unchanged', ['logs', 'web', '-pf', '-cinit', '--tail=5'], { code: 0, out: '', err: '', calls: [['logs', ['web', '-pf', '-cinit', '--tail=5']]] }],
    ['describe, delete, serve, stop, status and kubeconfig go to the engine', ['delete', 'cm/a', '--grace-period', '0'], { code: 0, out: '', err: '', calls: [['delete', ['cm/a', '--grace-period', '0']]] }],
    ['stop goes to the engine with its arguments', ['stop'], { code: 0, out: '', err: '', calls: [['stop', []]] }],
    ['validate goes to the validator, never to the engine', ['validate', 'a.yaml', '--json', 'b.yaml'], { code: 0, out: '', err: '', calls: [['validate', ['a.yaml', '--json', 'b.yaml']]] }],
    ['validate passes unknown flags on to the validator', ['validate', '--bogus'], { code: 0, out: '', err: '', calls: [['validate', ['--bogus']]] }],
  ];
  for (const [name, argv, want] of cases) test(name, async () => assert.deepEqual(await podlab(argv), want));

  const codes: [string, number][] = [
    ['a failure (1)', 1],
    ['a usage error or an invalid manifest (2)', 2],
    ['status without a server (3)', 3],
    ['a timeout (124)', 124],
    ['an interruption (130)', 130],
  ];
  for (const [name, code] of codes) {
    test(`the command's exit code is podlab's: ${name}`, async () => {
      assert.deepEqual(await podlab(['status'], code), { code, out: '', err: '', calls: [['status', []]] });
      assert.deepEqual(await podlab(['validate', 'f'], code), { code, out: '', err: '', calls: [['validate', ['f']]] });
    });
  }
});

describe('a command\'s help', () => {
  test('status --help prints its synopsis, description and options on stdout, exit 0, running nothing', async () => {
    assert.deepEqual(await podlab(['status', '--help']), {
      code: 0,
      out: [
        'Usage: podlab status [options]',
        '',
        "Whether the state directory's lab server runs, where, since when, and how many",
        'pods it manages. Exit 0 when it runs, 3 when none does.',
        '',
        'Options:',
        '  --json      print it as one JSON object',
        '  -h, --help  print this help',
        '',
      ].join('\n'),
      err: '',
      calls: [],
    });
  });

  test('stop --help has no stray space after the command name', async () => {
    assert.deepEqual(await podlab(['stop', '--help']), {
      code: 0,
      out: ['Usage: podlab stop', '', "Stop the state directory's lab server. Its containers stay as they are; the next", 'server adopts them.', '', 'Options:', '  -h, --help  print this help', ''].join('\n'),
      err: '',
      calls: [],
    });
  });

  const optionTerms = (help: string): string[] =>
    help
      .slice(help.indexOf('\nOptions:\n') + '\nOptions:\n'.length)
      .split('\n')
      .filter((l) => /^ {2}-/.test(l))
      .map((l) => l.trim().split(/ {2,}/)[0]!);

  for (const spec of COMMANDS) {
    test(`${spec.name} --help, -h and help ${spec.name} print the same help, listing every option of ${spec.name}`, async () => {
      const long = await podlab([spec.name, '--help']);
      const usageLine = `Usage: podlab ${spec.name}${spec.synopsis ? ` ${spec.synopsis}` : ''}\n`;
      assert.deepEqual(
        { code: long.code, first: long.out.slice(0, usageLine.length), options: optionTerms(long.out), err: long.err, calls: long.calls },
        { code: 0, first: usageLine, options: [...spec.options.map((o) => o.flags), '-h, --help'], err: '', calls: [] },
      );
      assert.deepEqual(await podlab([spec.name, '-h']), long);
      assert.deepEqual(await podlab(['help', spec.name]), long);
      // A help flag anywhere before `--` wins over the command's other arguments.
      assert.deepEqual(await podlab([spec.name, 'x', '--bogus', '-h']), long);
    });
  }
});

describe('helpRequested: -h or --help before any --', () => {
  const cases: [string, string[], boolean][] = [
    ['no arguments ask for nothing', [], false],
    ['-h asks for help', ['-h'], true],
    ['--help after operands and flags asks for help', ['x', '-o', 'json', '--help'], true],
    ['--help after -- is an operand', ['--', '--help'], false],
    ['-h after -- is an operand', ['x', '--', '-h'], false],
    ['a flag that only starts like help is not help', ['--helpful', '-hx'], false],
  ];
  for (const [name, args, want] of cases) test(name, () => assert.equal(helpRequested(args), want));
});

describe('the help agrees with the commands and their parsers', () => {
  test('USAGE lists the commands of COMMANDS, in order; all but validate are the engine\'s', () => {
    const listed = [...new Set([...USAGE.matchAll(/^ {2}podlab ([a-z-]+)/gm)].map((m) => m[1]))];
    assert.deepEqual(
      { listed, engine: COMMANDS.map((c) => c.name).filter((n) => n !== 'validate') },
      { listed: COMMANDS.map((c) => c.name), engine: [...ENGINE_COMMANDS] },
    );
  });

  /** The options of every `parse(argv, {...})` / `parseArgs({ options: {...} })` call in a function of a file. */
  function parserOptions(file: string): Map<string, string[]> {
    const src = ts.createSourceFile(file, readFileSync(join(__dirname, '../../src/cli', file), 'utf8'), ts.ScriptTarget.ES2022, true);
    const byFunction = new Map<string, string[]>();
    const optionsLiteral = (call: ts.CallExpression): ts.ObjectLiteralExpression | undefined => {
      const callee = call.expression.getText(src);
      if (callee === 'parse' && call.arguments[1] && ts.isObjectLiteralExpression(call.arguments[1])) return call.arguments[1];
      if (callee === 'parseArgs' && call.arguments[0] && ts.isObjectLiteralExpression(call.arguments[0])) {
        const p = call.arguments[0].properties.find((q) => q.name?.getText(src) === 'options');
        if (p && ts.isPropertyAssignment(p) && ts.isObjectLiteralExpression(p.initializer)) return p.initializer;
      }
      return undefined;
    };
    const visit = (node: ts.Node, fn: string | undefined): void => {
      if (ts.isFunctionDeclaration(node) && node.name) fn = node.name.text;
      if (fn && ts.isCallExpression(node)) {
        const lit = optionsLiteral(node);
        // (a parser without options counts: it takes no flag)
        if (lit && !byFunction.has(fn)) byFunction.set(fn, []);
        for (const p of lit?.properties ?? []) {
          if (!ts.isPropertyAssignment(p) || !ts.isObjectLiteralExpression(p.initializer)) continue;
          const config = p.initializer;
          const field = (k: string) => {
            const f = config.properties.find((q) => q.name?.getText(src) === k);
            return f && ts.isPropertyAssignment(f) && ts.isStringLiteral(f.initializer) ? f.initializer.text : undefined;
          };
          const name = ts.isStringLiteral(p.name) ? p.name.text : p.name.getText(src);
          const short = field('short');
          byFunction.set(fn, [...(byFunction.get(fn) ?? []), `${short ? `-${short}, ` : ''}--${name}${field('type') === 'string' ? ' <value>' : ''}`]);
        }
      }
      ts.forEachChild(node, (c) => visit(c, fn));
    };
    visit(src, undefined);
    return byFunction;
  }

  test('every command lists exactly the flags, short flags and value-taking flags its parser takes', () => {
    const engine = parserOptions('engine-commands.ts');
    const server = parserOptions('server-commands.ts');
    const streams = parserOptions('stream-commands.ts');
    const parsed: Record<string, string[] | undefined> = {
      run: engine.get('run'),
      get: engine.get('get'),
      describe: engine.get('describe'),
      logs: engine.get('logs'),
      delete: engine.get('del'),
      exec: streams.get('exec'),
      'port-forward': streams.get('portForwardCommand'),
      nodes: parserOptions('nodes-command.ts').get('nodes'),
      serve: parserOptions('serve-command.ts').get('serve'),
      stop: server.get('stop'),
      status: server.get('status'),
      kubeconfig: server.get('kubeconfig'),
      validate: parserOptions('validate.ts').get('runValidate'),
    };
    const key = (flags: string[] | undefined) => [...(flags ?? ['(no parser found)'])].sort();
    const listed = Object.fromEntries(
      COMMANDS.map((c) => [
        c.name,
        key(
          c.options.map((o) => {
            const opt = new Option(o.flags);
            return `${opt.short ? `${opt.short}, ` : ''}${opt.long}${opt.required ? ' <value>' : ''}`;
          }),
        ),
      ]),
    );
    assert.deepEqual(listed, Object.fromEntries(COMMANDS.map((c) => [c.name, key(parsed[c.name])])));
  });
});

describe('a file that cannot be read is named with the reason in words, the same in every command', () => {
  const err = (code: string | undefined, message: string) => Object.assign(new Error(message), code ? { code } : {});
  const cases: [string, Error, string][] = [
    ['a missing file', err('ENOENT', "ENOENT: no such file or directory, open 'x.yaml'"), 'cannot read x.yaml: no such file or directory'],
    ['a directory', err('EISDIR', 'EISDIR: illegal operation on a directory, read'), 'cannot read x.yaml: is a directory'],
    ['a file without read permission', err('EACCES', "EACCES: permission denied, open 'x.yaml'"), 'cannot read x.yaml: permission denied'],
    ['a path through a file', err('ENOTDIR', "ENOTDIR: not a directory, open 'x.yaml'"), 'cannot read x.yaml: not a directory'],
    ['a symbolic link loop', err('ELOOP', "ELOOP: too many symbolic links encountered, open 'x.yaml'"), 'cannot read x.yaml: too many levels of symbolic links'],
    ['anything else: the system\'s message', err('EIO', 'EIO: i/o error, read'), 'cannot read x.yaml: EIO: i/o error, read'],
  ];
  for (const [name, e, want] of cases) test(name, () => assert.equal(cannotRead('x.yaml', e), want));
});

describe('run says why it exits 1: the pods that can no longer reach --until', () => {
  const p = (phase: string, ready = false): Pod => ({ metadata: { name: 'x' }, spec: { containers: [] }, status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
  const cases: [string, Until, [string, Pod | undefined][], string][] = [
    ['a pod that Failed cannot Succeed', 'Succeeded', [['a', p('Succeeded')], ['b', p('Failed')]], 'error: --until Succeeded can no longer be reached: pod "b" is Failed'],
    ['a pod that ended cannot become Ready; a deleted one is named as such', 'Ready', [['a', p('Succeeded')], ['b', undefined], ['c', p('Running')]], 'error: --until Ready can no longer be reached: pod "a" is Succeeded, pod "b" was deleted'],
    ['Terminal: each pod that Failed, once every pod ended', 'Terminal', [['a', p('Failed')], ['b', p('Succeeded')]], 'error: pod "a" is Failed (--until Terminal: every pod ended, not all Succeeded)'],
  ];
  for (const [name, until, pods, want] of cases) test(name, () => assert.equal(unreachableNote(until, pods), want));
});

describe("delete's --grace-period as kubectl reads it: negative is ignored, 0 is taken as 1 without --force (podlab has no force deletion)", () => {
  const cases: [string, string | undefined, number | undefined][] = [
    ['not given: the pod\'s own', undefined, undefined],
    ['-1 (kubectl\'s default): the pod\'s own', '-1', undefined],
    ['0: one second', '0', 1],
    ['5: five seconds', '5', 5],
    ['0x10: an int as pflag reads it, 16 seconds', '0x10', 16],
  ];
  for (const [name, given, want] of cases) test(name, () => assert.equal(deleteGrace(given), want));
  test("a value that is not a whole number is pflag's usage error", () =>
    assert.deepEqual(
      ['soon', '1.5'].map((v) => {
        try {
          return deleteGrace(v);
        } catch (e) {
          return [(e as Error).name, (e as Error).message];
        }
      }),
      [
        ['UsageError', 'invalid argument "soon" for "--grace-period" flag: strconv.ParseInt: parsing "soon": invalid syntax'],
        ['UsageError', 'invalid argument "1.5" for "--grace-period" flag: strconv.ParseInt: parsing "1.5": invalid syntax'],
      ],
    ));
});

describe("the command line as kubectl's flag parser (pflag) reads it", () => {
  const opts = { output: { type: 'string', short: 'o' }, tail: { type: 'string' }, follow: { type: 'boolean', short: 'f' }, stdin: { type: 'boolean', short: 'i' }, tty: { type: 'boolean', short: 't' }, container: { type: 'string', short: 'c' } } as const;
  const read = (argv: string[]) => {
    try {
      return pflagArgv(argv, opts);
    } catch (e) {
      return { error: (e as Error).message };
    }
  };
  const cases: [string, string[], string[] | { error: string }][] = [
    ['-o=json is -o json', ['get', '-o=json'], ['get', '--output=json']],
    ['-ojson too', ['-ojson'], ['--output=json']],
    ['--output json and --output=json', ['--output', 'json', '--output=wide'], ['--output=json', '--output=wide']],
    ['a string flag takes the next argument even when it starts with -', ['--tail', '-5'], ['--tail=-5']],
    ['a boolean flag may say =true', ['-f=true', '--follow=true'], ['--follow', '--follow']],
    ['=false leaves it unset', ['--follow=false'], []],
    ['a boolean flag with another value is pflag\'s error', ['--follow=yes'], { error: 'invalid argument "yes" for "-f, --follow" flag: strconv.ParseBool: parsing "yes": invalid syntax' }],
    ['boolean shorthands together', ['-it', 'web'], ['--stdin', '--tty', 'web']],
    ['a group that ends with a string shorthand takes the next argument', ['-ic', 'app'], ['--stdin', '--container=app']],
    ['or the rest of the group', ['-icapp'], ['--stdin', '--container=app']],
    ['a group ending with a string shorthand and nothing after it', ['-ic'], { error: "flag needs an argument: 'c' in -ic" }],
    ['an unknown flag', ['--bogus'], { error: 'unknown flag: --bogus' }],
    ['an unknown shorthand', ['-l', 'app=web'], { error: "unknown shorthand flag: 'l' in -l" }],
    ['a string flag at the end needs its argument', ['--tail'], { error: 'flag needs an argument: --tail' }],
    ['a shorthand string flag at the end too', ['-c'], { error: "flag needs an argument: 'c' in -c" }],
    ['everything after -- is left alone', ['web', '--', 'sh', '-c', '--bogus'], ['web', '--', 'sh', '-c', '--bogus']],
    ['a lone - is an argument', ['-'], ['-']],
  ];
  for (const [name, argv, want] of cases) test(name, () => assert.deepEqual(read(argv), want));
});

describe('the pod argument of logs, exec and port-forward, as kubectl takes it', () => {
  const read = (a: string) => {
    try {
      return podArg(a);
    } catch (e) {
      return { error: (e as Error).message };
    }
  };
  const cases: [string, string, string | { error: string }][] = [
    ['a bare NAME', 'web', 'web'],
    ['pod/NAME', 'pod/web', 'web'],
    ['pods/NAME and po/NAME', 'po/web', 'web'],
    ['a type the server does not have', 'deployment/web', { error: 'the server doesn\'t have a resource type "deployment"' }],
    ['a ConfigMap has no containers', 'cm/web', { error: 'only pods have containers: give NAME or pod/NAME, not cm/web' }],
    ['pod/ without a name', 'pod/', { error: 'only pods have containers: give NAME or pod/NAME, not pod/' }],
  ];
  for (const [name, arg, want] of cases) test(name, () => assert.deepEqual(read(arg), want));
});

describe("podlab run's event lines", () => {
  const now = Date.parse('2026-11-24T09:00:10Z');
  const ev = (message: string, count: number) => ({
    metadata: { name: 'e' },
    involvedObject: { kind: 'Pod', name: 'web' },
    type: 'Warning',
    reason: 'Unhealthy',
    message,
    count,
    lastTimestamp: '2026-11-24T09:00:00Z',
  });
  test("a probe's output ends with a newline: the count stays on the line, as kubectl describe trims the message", () =>
    assert.deepEqual(
      [eventLine(ev("Readiness probe failed: cat: can't open '/tmp/nope'\n", 2), now), eventLine(ev('Started container app', 1), now)],
      ["  10s   Warning  Unhealthy              pod/web  Readiness probe failed: cat: can't open '/tmp/nope' (x2)\n", '  10s   Warning  Unhealthy              pod/web  Started container app\n'],
    ));
});

describe('every command reads its flags as kubectl does, with the same errors (none parses before failing)', () => {
  const io = { out: () => undefined, err: () => undefined };
  const refusal = async (f: () => Promise<unknown>) => {
    try {
      await f();
      return 'no error';
    } catch (e) {
      return [(e as Error).name, (e as Error).message];
    }
  };
  const cases: [string, () => Promise<unknown>, unknown][] = [
    ['status --foo', () => status(['--foo'], io), ['UsageError', 'unknown flag: --foo']],
    ['status with an argument', () => status(['x'], io), ['UsageError', 'status takes no arguments']],
    ['stop --x', () => stop(['--x'], io), ['UsageError', 'unknown flag: --x']],
    ['kubeconfig --bad', () => kubeconfig(['--bad'], io, () => { throw new Error('not reached'); }), ['UsageError', 'unknown flag: --bad']],
    ['kubeconfig --file without a value', () => kubeconfig(['--merge', '--file'], io, () => { throw new Error('not reached'); }), ['UsageError', 'flag needs an argument: --file']],
    ['nodes --x', () => nodes(['--x'], io, () => { throw new Error('not reached'); }), ['UsageError', 'unknown flag: --x']],
    ['serve -z', () => serve(['-z'], io, () => []), ['UsageError', "unknown shorthand flag: 'z' in -z"]],
  ];
  for (const [name, f, want] of cases) test(name, async () => assert.deepEqual(await refusal(f), want));
  test('validate -o json and validate without FILE: the same one-line errors as every other command', async () => {
    const run = async (argv: string[]) => {
      let err = '';
      const sink = { write: (s: string) => ((err += s), true) } as unknown as NodeJS.WritableStream;
      return { code: await runValidate(argv, sink, sink), err };
    };
    assert.deepEqual([await run(['-o', 'json']), await run([]), await run(['--json=false', '--bogus'])], [
      { code: 2, err: "error: unknown shorthand flag: 'o' in -o\n" },
      { code: 2, err: 'error: validate takes at least one FILE\n' },
      { code: 2, err: 'error: unknown flag: --bogus\n' },
    ]);
  });
});

describe("run's refusal of a document that is no object or names no kind, in kubectl's client-side words", () => {
  const cases: [string, Parameters<typeof kindlessMessage>, string | undefined][] = [
    ['a string or a list is no object', [{ skipReason: 'not a Kubernetes object (the document is not a mapping)' }, [{ field: '', type: 'Type mismatch' }]], 'invalid object to validate'],
    [
      'a mapping without apiVersion and kind',
      [{ skipReason: 'not a Kubernetes object (kind is not set)' }, [{ field: 'kind', type: 'Required value' }, { field: 'apiVersion', type: 'Required value' }]],
      '[apiVersion not set, kind not set]',
    ],
    ['without kind only: one error, no brackets', [{ skipReason: 'not a Kubernetes object (kind is not set)' }, [{ field: 'kind', type: 'Required value' }]], 'kind not set'],
    ['a Pod without apiVersion', [{ skipReason: 'not a v1 Pod' }, [{ field: 'apiVersion', type: 'Required value' }]], 'apiVersion not set'],
    ['any other refusal is the API server\'s', [{}, [{ field: 'spec.containers', type: 'Required value' }]], undefined],
  ];
  for (const [name, args, want] of cases) test(name, () => assert.equal(kindlessMessage(...args), want));
});

describe('validate says what it did not check (on stderr), as run says what it skips', () => {
  test('an empty file, a Deployment, and a Pod beside a Service', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podlab-validate-'));
    try {
      const f = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
      const empty = f('empty.yaml', '');
      const dep = f('dep.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n');
      const mixed = f('mixed.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: app\n      image: busybox\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n');
      let out = '';
      let err = '';
      const code = await runValidate([empty, dep, mixed], { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream, { write: (s: string) => ((err += s), true) } as unknown as NodeJS.WritableStream);
      assert.deepEqual({ code, out, err }, {
        code: 0,
        out: '',
        err: `${empty}: no Kubernetes object in it: nothing checked\n${dep}: document 1 (Deployment) not checked: Pod Lab checks Pods, ConfigMaps and Secrets only\n${mixed}: document 2 (Service) not checked: Pod Lab checks Pods, ConfigMaps and Secrets only\n`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the commands that run until stopped end at the first SIGINT or SIGTERM, and let go of signals after', () => {
  test('fired once signalled; no listener left after dispose', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    const i = listenForInterrupt();
    const states: unknown[] = [i.fired, [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]];
    process.emit('SIGTERM');
    await i.signalled;
    i.dispose();
    states.push(i.fired, [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]);
    assert.deepEqual(states, [false, [before[0]! + 1, before[1]! + 1], true, before]);
  });
});
