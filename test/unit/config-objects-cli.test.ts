// The command line's grammar for ConfigMaps and Secrets: kubectl's resource arguments and JSON
// output (src/cli/args.ts), without Docker.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlJson, kubectlList, parseResourceArgs } from '../../src/cli/args.js';
import { sortKeysDeep } from '../../src/shared/go.js';

describe('parseResourceArgs reads kubectl\'s resource arguments', () => {
  const ok: [string, string[], unknown][] = [
    ['nothing names nothing (pods by default)', [], { targets: [] }],
    ['a bare NAME is a pod (today\'s podlab get NAME)', ['web'], { targets: [{ kind: 'Pod', name: 'web' }] }],
    ['several bare names are pods', ['a', 'b'], { targets: [{ kind: 'Pod', name: 'a' }, { kind: 'Pod', name: 'b' }] }],
    ['a name that only resembles a type is a pod', ['deployer'], { targets: [{ kind: 'Pod', name: 'deployer' }] }],
    ['the category all is the lab\'s pods (its discovery puts pods in it)', ['all'], { kinds: ['Pod'], targets: [] }],
    ['a plural TYPE alone lists the kind', ['configmaps'], { kinds: ['ConfigMap'], targets: [] }],
    ['cm is short for configmap and takes names', ['cm', 'x', 'y'], { kinds: ['ConfigMap'], targets: [{ kind: 'ConfigMap', name: 'x' }, { kind: 'ConfigMap', name: 'y' }] }],
    ['secret and Secrets are the Secret kind', ['Secrets', 's'], { kinds: ['Secret'], targets: [{ kind: 'Secret', name: 's' }] }],
    ['pod, pods and po are pods', ['po', 'p'], { kinds: ['Pod'], targets: [{ kind: 'Pod', name: 'p' }] }],
    ['TYPE,TYPE lists each kind, in the order given, once', ['pods,cm,po'], { kinds: ['Pod', 'ConfigMap'], targets: [] }],
    [
      'TYPE,TYPE with names looks each name up in each kind, kind by kind',
      ['cm,pods', 'a', 'b'],
      {
        kinds: ['ConfigMap', 'Pod'],
        targets: [
          { kind: 'ConfigMap', name: 'a' },
          { kind: 'ConfigMap', name: 'b' },
          { kind: 'Pod', name: 'a' },
          { kind: 'Pod', name: 'b' },
        ],
      },
    ],
    ['TYPE/NAME forms may mix kinds', ['configmap/a', 'secret/b', 'pod/c'], { targets: [{ kind: 'ConfigMap', name: 'a' }, { kind: 'Secret', name: 'b' }, { kind: 'Pod', name: 'c' }] }],
    // schema.ParseResourceArg: resource.version.group (two dots or more), else resource.group
    ['a fully qualified type, resource.version.group with the core group empty', ['pods.v1.'], { kinds: ['Pod'], targets: [] }],
    ['resource.group with the core group empty, in a list and in TYPE/NAME', ['configmaps.,secret.v1.', 'x'], { kinds: ['ConfigMap', 'Secret'], targets: [{ kind: 'ConfigMap', name: 'x' }, { kind: 'Secret', name: 'x' }] }],
    ['cm.v1./NAME', ['cm.v1./x'], { targets: [{ kind: 'ConfigMap', name: 'x' }] }],
    ['a dotted name whose first part is no type is a pod', ['web.v1'], { targets: [{ kind: 'Pod', name: 'web.v1' }] }],
    ['a dotted name whose first part is a type but whose rest is no version is a pod (podlab get NAME)', ['node.js'], { targets: [{ kind: 'Pod', name: 'node.js' }] }],
    ['the same for cm.app', ['cm.app'], { targets: [{ kind: 'Pod', name: 'cm.app' }] }],
    ['pods.. is resource pods of any version in the core group', ['pods..'], { kinds: ['Pod'], targets: [] }],
    ['the resource in any case (Pods.v1.), as the RESTMapper lowers it', ['Pods.v1.', 'x'], { kinds: ['Pod'], targets: [{ kind: 'Pod', name: 'x' }] }],
    ['and unqualified (POD)', ['POD'], { kinds: ['Pod'], targets: [] }],
    ['a short name drops the version it is given (po.V1., po.v2.: the shortcut expander keeps group and resource)', ['po.V1.', 'x'], { kinds: ['Pod'], targets: [{ kind: 'Pod', name: 'x' }] }],
    ['po.v2. too', ['po.v2.'], { kinds: ['Pod'], targets: [] }],
    ['cm.v1beta1. is the core group\'s configmaps', ['cm.v1beta1.'], { kinds: ['ConfigMap'], targets: [] }],
  ];
  for (const [name, args, want] of ok) test(name, () => assert.deepEqual(parseResourceArgs(args), want));

  const bad: [string, string[], string][] = [
    ['a TYPE before TYPE/NAME arguments is refused', ['cm', 'cm/a'], "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'podlab get resource/<resource_name>' instead of 'podlab get resource resource/<resource_name>'"],
    ['TYPE/NAME mixed with a bare name is refused', ['cm/a', 'b'], 'arguments in resource/name form must have a single resource and name'],
    ['an unknown TYPE in TYPE/NAME is refused', ['deployments/a'], 'the server doesn\'t have a resource type "deployments"'],
    ['TYPE/ without a name is refused', ['cm/'], 'arguments in resource/name form must have a single resource and name'],
    ['an unknown TYPE in a TYPE,TYPE list is refused (a pod\'s name has no comma)', ['pods,foo', 'x'], 'the server doesn\'t have a resource type "foo"'],
    ['a cluster\'s type the lab does not serve is refused, not taken for a pod\'s name', ['deployments'], 'the server doesn\'t have a resource type "deployments"'],
    ['a short name too, with names after it', ['svc', 'web'], 'the server doesn\'t have a resource type "svc"'],
    ['the lab\'s nodes are shown elsewhere', ['nodes'], "nodes are not listed here: podlab nodes lists the lab's nodes (kubectl get nodes too)"],
    ['the lab\'s events are shown elsewhere (ev is short for events)', ['ev'], 'events are not listed here: podlab describe pod NAME shows a pod\'s events (kubectl get events lists them all)'],
    ['node/NAME is refused as nodes are', ['node/podlab-node'], "nodes are not listed here: podlab nodes lists the lab's nodes (kubectl get nodes too)"],
    ['pods.v1 is resource pods of a group "v1", which no API serves', ['pods.v1'], 'the server doesn\'t have a resource type "pods"'],
    ['pods.v1.apps: no such version and group', ['pods.v1.apps', 'x'], 'the server doesn\'t have a resource type "pods"'],
    ['a version is matched as written: pods.V1. is none', ['pods.V1.'], 'the server doesn\'t have a resource type "pods"'],
    ['TYPE.GROUP of an API group: deployments.apps is a type, not a pod\'s name', ['deployments.apps'], 'the server doesn\'t have a resource type "deployments"'],
    ['pods of a group the lab does not serve', ['pods.apps'], 'the server doesn\'t have a resource type "pods"'],
    ['pods... has a group "."', ['pods...'], 'the server doesn\'t have a resource type "pods"'],
    ['a short name is matched as written: PO is none', ['PO'], 'the server doesn\'t have a resource type "PO"'],
    ['nor Po., CM.v1.', ['CM.v1.'], 'the server doesn\'t have a resource type "CM"'],
    ['NS is none either (not the lab\'s namespaces)', ['NS'], 'the server doesn\'t have a resource type "NS"'],
    ['a short name with a group', ['po.v1.apps'], 'the server doesn\'t have a resource type "po"'],
    ['an unknown dotted type in a list is named by its resource, as kubectl names it', ['pods,my.app'], 'the server doesn\'t have a resource type "my"'],
    ['and in TYPE/NAME', ['my.app/x'], 'the server doesn\'t have a resource type "my"'],
    ['a cluster type, qualified, is refused by its resource name', ['deployments.v1.apps'], 'the server doesn\'t have a resource type "deployments"'],
    ['nodes.v1. are shown elsewhere', ['nodes.v1.'], "nodes are not listed here: podlab nodes lists the lab's nodes (kubectl get nodes too)"],
    ['a TYPE,TYPE list before TYPE/NAME arguments is refused', ['pods,cm', 'cm/a'], "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'podlab get resource/<resource_name>' instead of 'podlab get resource resource/<resource_name>'"],
  ];
  for (const [name, args, want] of bad) {
    test(name, () => {
      let got: unknown;
      try {
        got = parseResourceArgs(args);
      } catch (e) {
        got = [(e as Error).constructor.name, (e as Error).message];
      }
      assert.deepEqual(got, ['UsageError', want]);
    });
  }
});

describe('kubectl -o json output', () => {
  test('keys are sorted at every level (arrays keep their order), undefined fields dropped', () => {
    assert.deepEqual(JSON.stringify(sortKeysDeep({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { uid: 'u', name: 'a', gone: undefined }, data: { b: '2', a: '1' }, list: [{ z: 1, y: 2 }] })), JSON.stringify({ apiVersion: 'v1', data: { a: '1', b: '2' }, kind: 'ConfigMap', list: [{ y: 2, z: 1 }], metadata: { name: 'a', uid: 'u' } }));
  });
  test('a List is printed with four-space indentation and a final newline', () => {
    assert.equal(
      kubectlJson(kubectlList([{ kind: 'Secret', apiVersion: 'v1' }])),
      '{\n    "apiVersion": "v1",\n    "items": [\n        {\n            "apiVersion": "v1",\n            "kind": "Secret"\n        }\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n',
    );
  });
  test('<, > and & are escaped as Go\'s json.MarshalIndent escapes them (kubectl prints "\\u003ch1\\u003e")', () => {
    assert.equal(kubectlJson({ data: { 'index.html': '<h1>a & b</h1>' } }), '{\n    "data": {\n        "index.html": "\\u003ch1\\u003ea \\u0026 b\\u003c/h1\\u003e"\n    }\n}\n');
  });
});

test('a usage error thrown by the separately bundled server side (another copy of the class) is still a usage error', async () => {
  const { isUsageError, UsageError } = await import('../../src/cli/args.js');
  class OtherBundleUsageError extends Error {
    override name = 'UsageError';
  }
  assert.deepEqual([isUsageError(new UsageError('x')), isUsageError(new OtherBundleUsageError('x')), isUsageError(new Error('x'))], [true, true, false]);
});
