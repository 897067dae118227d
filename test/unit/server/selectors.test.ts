// Label and field selectors parse, fail and match as a v1.33 API server's do
// (k8s.io/apimachinery/pkg/labels/selector.go, pkg/fields/selector.go, the core/v1 field label
// conversion funcs and the registries' selectable fields).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kind } from '../../../src/engine/store.js';
import {
  SelectorError,
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
  selectableFields,
  type FieldSelector,
  type LabelSelector,
} from '../../../src/server/selectors.js';

/** The parse result, or the error's class name and message. */
function outcome<T>(f: () => T): T | { error: string; message: string } {
  try {
    return f();
  } catch (e) {
    return { error: (e as Error).name, message: (e as Error).message };
  }
}
const fail = (message: string) => ({ error: 'SelectorError', message });

const KEY_REGEX_TEXT = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_REGEX_TEXT = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('label selectors parse as labels.Parse parses them', () => {
  const cases: [string, string, LabelSelector | ReturnType<typeof fail>][] = [
    ['an empty selector selects everything', '', []],
    ['blanks alone select everything', '  \t', []],
    ['= is an exact match', 'app=web', [{ key: 'app', operator: '=', values: ['web'] }]],
    ['== is kept as its own operator', 'app==web', [{ key: 'app', operator: '==', values: ['web'] }]],
    ['!= is an exclusion', 'app!=web', [{ key: 'app', operator: '!=', values: ['web'] }]],
    ['in takes a set, sorted and without duplicates', 'tier in (z, y,y)', [{ key: 'tier', operator: 'in', values: ['y', 'z'] }]],
    ['notin takes a set', 'tier notin (x)', [{ key: 'tier', operator: 'notin', values: ['x'] }]],
    ['a bare key requires the label to exist', 'app', [{ key: 'app', operator: 'exists', values: [] }]],
    ['!key requires the label to be absent', '!app', [{ key: 'app', operator: '!', values: [] }]],
    ['> is the gt operator, valid in a list selector', 'replicas>1', [{ key: 'replicas', operator: 'gt', values: ['1'] }]],
    ['< is the lt operator', 'replicas<10', [{ key: 'replicas', operator: 'lt', values: ['10'] }]],
    [
      'requirements are sorted by key and blanks around them ignored',
      ' z=1 , a in (b) , !c ',
      [
        { key: 'a', operator: 'in', values: ['b'] },
        { key: 'c', operator: '!', values: [] },
        { key: 'z', operator: '=', values: ['1'] },
      ],
    ],
    ['a missing value is the empty value', 'app=', [{ key: 'app', operator: '=', values: [''] }]],
    ['an empty set is the empty value', 'app in ()', [{ key: 'app', operator: 'in', values: [''] }]],
    ['a leading comma in a set adds the empty value', 'app in (,b)', [{ key: 'app', operator: 'in', values: ['', 'b'] }]],
    ['in and notin are identifiers where a key or value is expected', 'in in (notin)', [{ key: 'in', operator: 'in', values: ['notin'] }]],
    ['a key may carry a DNS subdomain prefix', 'app.example.com/name=web', [{ key: 'app.example.com/name', operator: '=', values: ['web'] }]],
    ['blanks between a key and a value are allowed', 'app = web', [{ key: 'app', operator: '=', values: ['web'] }]],
    ['a word after a key is not an operator', 'app web', fail("unable to parse requirement: found 'web', expected: in, notin, =, ==, !=, gt, lt")],
    ['a selector cannot start with a comma', ',', fail("found ',', expected: !, identifier, or 'end of string'")],
    ['a trailing comma needs a requirement after it', 'app,', fail("found '', expected: identifier after ','")],
    ['!key takes no operator', '!app=web', fail("found '=', expected: ',' or 'end of string'")],
    ['in needs a parenthesis', 'app in web', fail("unable to parse requirement: found 'web' expected: '('")],
    ['an unclosed set', 'app in (web', fail("unable to parse requirement: found '', expected: ',' or ')'")],
    ['an operator inside a set', 'app in (=)', fail("unable to parse requirement: found '=', expected: ',', ')' or identifier")],
    ['an operator after a comma in a set', 'app in (a,=)', fail("unable to parse requirement: found '=', expected: ',', or identifier")],
    ['an exact match needs an identifier', 'app=(web)', fail("unable to parse requirement: found '(', expected: identifier")],
    ['a lone ! needs a key', '!', fail("unable to parse requirement: found '', expected: identifier")],
    ['an invalid key is reported on the parser\'s nil path', 'App_=web', fail(`unable to parse requirement: <nil>: Invalid value: "App_": name part ${KEY_REGEX_TEXT}`)],
    [
      'a key with two slashes is not a qualified name',
      'a/b/c',
      fail(`unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name ${KEY_REGEX_TEXT} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`),
    ],
    [
      'an upper-case prefix is not a DNS subdomain',
      'Example.com/app',
      fail(
        "unable to parse requirement: <nil>: Invalid value: \"Example.com/app\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ),
    ],
    ['an empty prefix', '/app', fail('unable to parse requirement: <nil>: Invalid value: "/app": prefix part must be non-empty')],
    ['an invalid value is reported under values[i][key]', 'app=web_', fail(`unable to parse requirement: values[0][app]: Invalid value: "web_": ${VALUE_REGEX_TEXT}`)],
    [
      'a long value names the limit in characters',
      `app=${'x'.repeat(64)}`,
      fail(`unable to parse requirement: values[0][app]: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`),
    ],
    [
      'several invalid values are aggregated in brackets, in sorted order',
      'app in (_y,-x)',
      fail(`unable to parse requirement: [values[0][app]: Invalid value: "-x": ${VALUE_REGEX_TEXT}, values[1][app]: Invalid value: "_y": ${VALUE_REGEX_TEXT}]`),
    ],
    ['gt needs an integer', 'replicas>x', fail("unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer")],
  ];
  for (const [behaviour, input, expected] of cases) {
    test(behaviour, () => assert.deepEqual(outcome(() => parseLabelSelector(input)), expected));
  }
});

test('a selector error is a 400 BadRequest Status', () => {
  const e = outcome(() => {
    try {
      parseLabelSelector(',');
    } catch (err) {
      if (err instanceof SelectorError) return { code: err.code, reason: err.reason, response: err.response };
      throw err;
    }
    return undefined;
  });
  assert.deepEqual(e, {
    code: 400,
    reason: 'BadRequest',
    response: {
      code: 400,
      body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: "found ',', expected: !, identifier, or 'end of string'", reason: 'BadRequest', code: 400 },
    },
  });
});

describe('label selectors match as Requirement.Matches does', () => {
  const labels = { app: 'web', tier: 'front', replicas: '3', odd: 'x3' };
  const cases: [string, string, Record<string, string> | undefined, boolean][] = [
    ['= matches the equal value', 'app=web', labels, true],
    ['= does not match an absent label', 'team=a', labels, false],
    ['!= matches an absent label', 'team!=a', labels, true],
    ['!= does not match the equal value', 'app!=web', labels, false],
    ['in matches one of the values', 'tier in (back,front)', labels, true],
    ['notin matches an absent label', 'team notin (a)', labels, true],
    ['notin does not match a listed value', 'tier notin (front)', labels, false],
    ['exists matches a present label', 'app', labels, true],
    ['! matches an absent label', '!team', labels, true],
    ['! does not match a present label', '!app', labels, false],
    ['gt compares integers', 'replicas>2', labels, true],
    ['lt compares integers', 'replicas<3', labels, false],
    ['gt does not match a label that is not an integer', 'odd>1', labels, false],
    ['gt does not match an absent label', 'team>1', labels, false],
    ['every requirement must match', 'app=web,tier=back', labels, false],
    ['an object without labels matches only absence requirements', '!app,team!=x', undefined, true],
    ['the empty selector matches everything', '', undefined, true],
  ];
  for (const [behaviour, sel, ls, expected] of cases) {
    test(behaviour, () => assert.equal(matchesLabels(parseLabelSelector(sel), ls), expected));
  }
});

describe('field selectors parse as fields.ParseSelector and the field label conversion funcs do', () => {
  const cases: [string, Kind, string, FieldSelector | ReturnType<typeof fail>][] = [
    ['an empty selector selects everything', 'Pod', '', []],
    [
      'terms are sorted; = and == both become =',
      'Pod',
      'status.phase==Running,spec.nodeName=n1',
      [
        { field: 'spec.nodeName', operator: '=', value: 'n1' },
        { field: 'status.phase', operator: '=', value: 'Running' },
      ],
    ],
    ['!= with no value excludes the empty value', 'Pod', 'spec.nodeName!=', [{ field: 'spec.nodeName', operator: '!=', value: '' }]],
    ['spec.host is converted to spec.nodeName for old clients', 'Pod', 'spec.host=n1', [{ field: 'spec.nodeName', operator: '=', value: 'n1' }]],
    ['status.podIPs is an accepted Pod field', 'Pod', 'status.podIPs=10.0.0.1', [{ field: 'status.podIPs', operator: '=', value: '10.0.0.1' }]],
    ['escaped commas, equals and backslashes are data', 'Pod', 'metadata.name=a\\,b\\=c\\\\d', [{ field: 'metadata.name', operator: '=', value: 'a,b=c\\d' }]],
    ['an empty term is skipped', 'Pod', 'metadata.name=x,', [{ field: 'metadata.name', operator: '=', value: 'x' }]],
    [
      'the Event fields are accepted',
      'Event',
      'involvedObject.name=p,reason=Started,source=kubelet,reportingComponent=kubelet,type=Normal',
      [
        { field: 'involvedObject.name', operator: '=', value: 'p' },
        { field: 'reason', operator: '=', value: 'Started' },
        { field: 'reportingComponent', operator: '=', value: 'kubelet' },
        { field: 'source', operator: '=', value: 'kubelet' },
        { field: 'type', operator: '=', value: 'Normal' },
      ],
    ],
    ['a Secret selects on its type', 'Secret', 'type=Opaque', [{ field: 'type', operator: '=', value: 'Opaque' }]],
    ['a Node selects on spec.unschedulable', 'Node', 'spec.unschedulable=true', [{ field: 'spec.unschedulable', operator: '=', value: 'true' }]],
    ['a Namespace selects on status.phase', 'Namespace', 'status.phase=Active', [{ field: 'status.phase', operator: '=', value: 'Active' }]],
    ['a ConfigMap selects on its namespace', 'ConfigMap', 'metadata.namespace=default', [{ field: 'metadata.namespace', operator: '=', value: 'default' }]],
    ['a term without an operator', 'Pod', 'metadata.name', fail("invalid selector: 'metadata.name'; can't understand 'metadata.name'")],
    ['a bare = in a value is its rune number', 'Pod', 'metadata.name=a=b', fail('invalid field selector: unescaped character in value: 61')],
    ['an unknown escape', 'Pod', 'metadata.name=a\\x', fail('invalid field selector: invalid escape sequence: \\x')],
    ['a trailing backslash', 'Pod', 'metadata.name=a\\', fail('invalid field selector: invalid escape sequence: \\')],
    ['an unsupported Pod field', 'Pod', 'spec.foo=x', fail('field label not supported: spec.foo')],
    ['blanks are part of the field label', 'Pod', 'status.phase = Running', fail('field label not supported: status.phase ')],
    ['the first unsupported field in sorted order is reported', 'Pod', 'zzz=1,aaa=2', fail('field label not supported: aaa')],
    ['every term is parsed before any label is converted', 'Pod', 'bogus=1,zzz', fail("invalid selector: 'bogus=1,zzz'; can't understand 'zzz'")],
    ['a Node has no metadata.namespace field', 'Node', 'metadata.namespace=x', fail('field label not supported: metadata.namespace')],
    ['a Namespace does not accept its legacy name field', 'Namespace', 'name=x', fail('field label not supported: name')],
    ['an unsupported Event field', 'Event', 'message=x', fail('field label not supported: message')],
    ['an unsupported Secret field', 'Secret', 'data=x', fail('field label not supported: data')],
    [
      'a ConfigMap, with no conversion func, gets the default conversion error',
      'ConfigMap',
      'data.x=1',
      fail('"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"'),
    ],
  ];
  for (const [behaviour, kind, input, expected] of cases) {
    test(behaviour, () => assert.deepEqual(outcome(() => parseFieldSelector(kind, input)), expected));
  }
});

describe('selectable fields are computed as the registries compute them', () => {
  const cases: [string, Kind, object, Record<string, string>][] = [
    [
      'a Pod: hostNetwork as a boolean, podIP from podIPs, the deprecated serviceAccount as fallback; no podIPs field',
      'Pod',
      {
        metadata: { name: 'p', namespace: 'ns' },
        spec: { nodeName: 'n1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccount: 'old', containers: [] },
        status: { phase: 'Running', podIP: '10.0.0.9', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], nominatedNodeName: 'n2' },
      },
      {
        'spec.nodeName': 'n1',
        'spec.restartPolicy': 'Always',
        'spec.schedulerName': 'default-scheduler',
        'spec.serviceAccountName': 'old',
        'spec.hostNetwork': 'false',
        'status.phase': 'Running',
        'status.podIP': '10.0.0.1',
        'status.nominatedNodeName': 'n2',
        'metadata.name': 'p',
        'metadata.namespace': 'ns',
      },
    ],
    [
      'a Pod without podIPs falls back to podIP; hostNetwork true',
      'Pod',
      { metadata: { name: 'p', namespace: 'ns' }, spec: { hostNetwork: true, serviceAccountName: 'sa' }, status: { podIP: '10.0.0.9' } },
      {
        'spec.nodeName': '',
        'spec.restartPolicy': '',
        'spec.schedulerName': '',
        'spec.serviceAccountName': 'sa',
        'spec.hostNetwork': 'true',
        'status.phase': '',
        'status.podIP': '10.0.0.9',
        'status.nominatedNodeName': '',
        'metadata.name': 'p',
        'metadata.namespace': 'ns',
      },
    ],
    [
      'an Event: source falls back to reportingComponent',
      'Event',
      {
        metadata: { name: 'p.1', namespace: 'ns' },
        involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec.containers{c}' },
        reason: 'Pulled',
        type: 'Normal',
        source: {},
        reportingComponent: 'kubelet',
      },
      {
        'involvedObject.kind': 'Pod',
        'involvedObject.namespace': 'ns',
        'involvedObject.name': 'p',
        'involvedObject.uid': 'u',
        'involvedObject.apiVersion': 'v1',
        'involvedObject.resourceVersion': '7',
        'involvedObject.fieldPath': 'spec.containers{c}',
        reason: 'Pulled',
        reportingComponent: 'kubelet',
        source: 'kubelet',
        type: 'Normal',
        'metadata.name': 'p.1',
        'metadata.namespace': 'ns',
      },
    ],
    ['a Node: unschedulable as a boolean', 'Node', { metadata: { name: 'n1' }, spec: { unschedulable: true } }, { 'metadata.name': 'n1', 'spec.unschedulable': 'true' }],
    ['a Namespace: phase and the legacy name', 'Namespace', { metadata: { name: 'ns' }, status: { phase: 'Active' } }, { 'metadata.name': 'ns', 'status.phase': 'Active', name: 'ns' }],
    ['a Secret: its type', 'Secret', { metadata: { name: 's', namespace: 'ns' }, type: 'Opaque' }, { 'metadata.name': 's', 'metadata.namespace': 'ns', type: 'Opaque' }],
    ['a ConfigMap: name and namespace only', 'ConfigMap', { metadata: { name: 'c', namespace: 'ns' }, data: { a: 'b' } }, { 'metadata.name': 'c', 'metadata.namespace': 'ns' }],
  ];
  for (const [behaviour, kind, obj, expected] of cases) {
    test(behaviour, () => assert.deepEqual(selectableFields(kind, obj), expected));
  }
});

describe('field selectors match on the selectable fields', () => {
  const pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n1' }, status: { phase: 'Running', podIPs: [{ ip: '10.0.0.1' }] } };
  const cases: [string, Kind, string, object, boolean][] = [
    ['= matches the value', 'Pod', 'status.phase=Running', pod, true],
    ['!= excludes the value', 'Pod', 'status.phase!=Running', pod, false],
    ['an empty nodeName is selected by spec.nodeName=', 'Pod', 'spec.nodeName=', { metadata: { name: 'q' } }, true],
    ['status.podIP reads the first of podIPs', 'Pod', 'status.podIP=10.0.0.1', pod, true],
    ['status.podIPs is accepted but never holds a value', 'Pod', 'status.podIPs=10.0.0.1', pod, false],
    ['status.podIPs!= therefore matches every pod', 'Pod', 'status.podIPs!=10.0.0.1', pod, true],
    ['spec.hostNetwork=false matches a pod that does not set it', 'Pod', 'spec.hostNetwork=false', pod, true],
    ['spec.host selects on the node name', 'Pod', 'spec.host=n1', pod, true],
    ['every term must match', 'Pod', 'status.phase=Running,metadata.namespace=other', pod, false],
    ['an Event matches its source through reportingComponent', 'Event', 'source=kubelet', { metadata: { name: 'e' }, reportingComponent: 'kubelet' }, true],
    ['a Node matches spec.unschedulable=false by default', 'Node', 'spec.unschedulable=false', { metadata: { name: 'n' }, spec: {} }, true],
  ];
  for (const [behaviour, kind, sel, obj, expected] of cases) {
    test(behaviour, () => assert.equal(matchesFields(kind, parseFieldSelector(kind, sel), obj), expected));
  }
});
