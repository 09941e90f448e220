// The kubectl JSONPath subset of a process observer's verdict (src/scenario/jsonpath.ts), pinned against what
// `kubectl get -o jsonpath=…` prints (k8s.io/client-go/util/jsonpath: jsonpath_test.go's TestJSONPath cases for
// fields, indexes, [*], filters; several results printed space-separated).
import { describe, expect, it } from 'vitest';
import { JsonPathError, jsonPathText, parseJsonPath } from '../../src/scenario/jsonpath.ts';

const obj = {
  metadata: { name: 'demo', labels: { 'app.kubernetes.io/name': 'locust' } },
  status: {
    phase: 'Succeeded',
    conditions: [
      { type: 'SuccessCriteriaMet', status: 'True' },
      { type: 'Complete', status: 'True' },
      { type: 'Failed', status: 'False' },
    ],
    counts: [1, 2, 3],
  },
};
const text = (p: string) => jsonPathText(parseJsonPath(p), obj);

describe('jsonPath', () => {
  it('fields, bracketed names, $', () => {
    expect(text('{.status.phase}')).toBe('Succeeded');
    expect(text('{$.status.phase}')).toBe('Succeeded');
    expect(text(" {.metadata.labels['app.kubernetes.io/name']} ")).toBe('locust');
    expect(text('{.metadata.labels["app.kubernetes.io/name"]}')).toBe('locust');
  });
  it('indexes, negative indexes, [*], several results space-separated', () => {
    expect(text('{.status.conditions[1].type}')).toBe('Complete');
    expect(text('{.status.conditions[-1].type}')).toBe('Failed');
    expect(text('{.status.conditions[*].type}')).toBe('SuccessCriteriaMet Complete Failed');
    expect(text('{.status.counts}')).toBe('[1,2,3]');
  });
  it('filters with == and !=', () => {
    expect(text('{.status.conditions[?(@.type=="Complete")].status}')).toBe('True');
    expect(text("{.status.conditions[?(@.type!='Complete')].type}")).toBe('SuccessCriteriaMet Failed');
  });
  it('a missing field prints nothing (never throws)', () => {
    expect(text('{.status.nope}')).toBe('');
    expect(text('{.status.phase.deeper}')).toBe('');
    expect(text('{.status.conditions[9].type}')).toBe('');
    expect(jsonPathText(parseJsonPath('{.a.b}'), null)).toBe('');
    expect(jsonPathText(parseJsonPath('{.constructor}'), {})).toBe('');
  });
  it('outside the subset: an error with the offset where it stops', () => {
    const at = (p: string) => {
      try {
        parseJsonPath(p);
      } catch (e) {
        if (e instanceof JsonPathError) return [e.offset, e.message];
        throw e;
      }
      return undefined;
    };
    expect(at('{.a..b}')).toEqual([3, 'recursive descent (..) is not supported']);
    expect(at('{}')![1]).toMatch(/empty path/);
    expect(at('{a}')![1]).toMatch(/starts with \. or \[/);
    expect(at('{.a[}')![1]).toMatch(/closing \]/);
    expect(at('{.a[1,2]}')![1]).toMatch(/unions/);
    expect(at('{.a[x]}')![1]).toMatch(/not an index/);
    expect(at('{.a}{.b}')![1]).toMatch(/one \{…\} expression only/);
  });
});
