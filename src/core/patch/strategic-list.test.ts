import { describe, expect, it } from 'vitest';
import { ApiError } from '../meta/status';
import { goValue, StrategicPatchError } from './strategic-errors';
import { mergeList, normalizeElementOrder, sliceElementKind, validatePatchWithSetOrderList, type Obj } from './strategic-list';
import { applyStrategicMergePatch } from './strategic';

/** A merge that records calls, so the tests see which elements were merged element-wise. */
const merges: string[] = [];
const mergeElement = (o: Obj, p: Obj): Obj => {
  merges.push(String(o.name));
  return { ...o, ...p };
};
const keep = (v: unknown) => v;

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof StrategicPatchError) return `${e.errorClass}: ${e.message}`;
    throw e;
  }
  return 'no error';
}

describe('goValue (Go %v of decoded JSON)', () => {
  it.each([
    [{ b: 1, a: 'x' }, 'map[a:x b:1]'],
    [{ image: 'httpd', ports: [{ containerPort: 80 }] }, 'map[image:httpd ports:[map[containerPort:80]]]'],
    [[1, 'a', true, null], '[1 a true <nil>]'],
    [{}, 'map[]'],
    [1.5, '1.5'],
    [0.00001, '1e-05'],
    [1234567.5, '1.2345675e+06'],
    [2 ** 60, '1152921504606846976'],
  ])('%j → %s', (v, want) => {
    expect(goValue(v)).toBe(want);
  });
});

describe('StrategicPatchError.toApiError', () => {
  it('maps each error class to the status kube-apiserver sends', () => {
    const bad = new StrategicPatchError('BadRequest', 'invalid patch format of retainKeys').toApiError();
    expect([bad.code, bad.reason, bad.message]).toEqual([400, 'BadRequest', 'invalid patch format of retainKeys']);
    const unprocessable = new StrategicPatchError('Unprocessable', 'lists of lists are not supported').toApiError();
    expect([unprocessable.code, unprocessable.reason, unprocessable.message]).toEqual([422, 'Invalid', 'the server rejected our request due to an error in our request']);
    const internal = new StrategicPatchError('Internal', 'boom').toApiError();
    expect(internal).toBeInstanceOf(ApiError);
    expect([internal.code, internal.reason, internal.message, internal.details]).toEqual([500, '', 'boom', undefined]);
  });
});

describe('sliceElementKind', () => {
  it('classifies and rejects mixed lists', () => {
    expect(sliceElementKind([[{ a: 1 }], [{ b: 2 }]])).toBe('map');
    expect(sliceElementKind([['a'], []])).toBe('scalar');
    expect(message(() => sliceElementKind([[], []]))).toBe('Internal: no elements in any of the given slices');
    expect(message(() => sliceElementKind([[['x']]]))).toBe('Unprocessable: lists of lists are not supported');
    expect(message(() => sliceElementKind([['a'], [1]]))).toBe('Internal: list element types are not identical: [[a] [1]]');
    expect(message(() => sliceElementKind([[1], [1.5]]))).toBe('Internal: list element types are not identical: [[1] [1.5]]');
  });
});

describe('mergeList', () => {
  it('merges matching elements, appends new ones first, keeps live order for the rest', () => {
    merges.length = 0;
    const live = [{ name: 'a', v: 1 }, { name: 'b', v: 1 }, { name: 'c', v: 1 }];
    const out = mergeList(live, [{ name: 'c', v: 2 }, { name: 'new' }, { name: 'a', v: 2 }], undefined, 'name', false, mergeElement, keep);
    expect(merges).toEqual(['c', 'a']);
    // Patch elements keep the patch's order (c, new, a); b stays ahead of c, as it was live.
    expect(out).toEqual([{ name: 'b', v: 1 }, { name: 'c', v: 2 }, { name: 'new' }, { name: 'a', v: 2 }]);
  });

  it('deletes every element with the merge key, and errors on elements without it', () => {
    const live = [{ name: 'a' }, { name: 'b' }, { name: 'a', dup: true }];
    expect(mergeList(live, [{ $patch: 'delete', name: 'a' }], undefined, 'name', false, mergeElement, keep)).toEqual([{ name: 'b' }]);
    expect(message(() => mergeList([{ image: 'x' }], [{ name: 'a' }], undefined, 'name', false, mergeElement, keep))).toBe(
      'Internal: map: map[image:x] does not contain declared merge key: name',
    );
    expect(message(() => mergeList([{ a: 1 }], [{ a: 2 }], undefined, '', false, mergeElement, keep))).toBe('Internal: cannot merge lists without merge key for struct');
  });

  it('unions scalars and applies deletion lists', () => {
    expect(mergeList(['a', 'b'], ['b', 'c', 'c'], undefined, '', false, mergeElement, keep)).toEqual(['a', 'b', 'c']);
    expect(mergeList(['a', 'b', 'a'], ['a'], undefined, '', true, mergeElement, keep)).toEqual(['b']);
    expect(mergeList([], [], undefined, '', false, mergeElement, keep)).toEqual([]);
  });
});

describe('normalizeElementOrder', () => {
  it('interleaves live-only elements by their live position', () => {
    const live = ['a', 'b', 'c', 'd'];
    // Patch mentions d then a; b and c are live-only and were live before d, so they go first.
    expect(normalizeElementOrder(['a', 'd'], ['b', 'c'], ['d', 'a'], live, '', 'scalar')).toEqual(['b', 'c', 'd', 'a']);
    expect(normalizeElementOrder(['c'], ['a', 'b', 'd'], ['c'], live, '', 'scalar')).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('validatePatchWithSetOrderList', () => {
  it('accepts subsets in order, ignores deletions, rejects out-of-order patches', () => {
    const order = [{ name: 'a' }, { name: 'b' }, { name: 'c' }];
    expect(message(() => validatePatchWithSetOrderList([{ name: 'a' }, { $patch: 'delete', name: 'z' }, { name: 'c' }], order, 'name'))).toBe('no error');
    expect(message(() => validatePatchWithSetOrderList([{ name: 'c' }, { name: 'a' }], order, 'name'))).toBe(
      "Internal: The order in patch list:\n[map[name:c] map[name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b] map[name:c]]\n",
    );
    expect(message(() => validatePatchWithSetOrderList([3, 1], [1, 2, 3], ''))).toBe("Internal: The order in patch list:\n[3 1]\n doesn't match $setElementOrder list:\n[1 2 3]\n");
    expect(message(() => validatePatchWithSetOrderList(['x'], [{ name: 'a' }], 'name'))).toBe('Internal: expected a map[string]interface {}, but received a string');
  });
});

describe('Go quirks kept on purpose', () => {
  it('a deletion list on a list without merge strategy replaces that list, as in Go', () => {
    const pod = { spec: { containers: [{ name: 'c', args: ['a', 'b'] }] } };
    const out = applyStrategicMergePatch(pod, { spec: { containers: [{ name: 'c', '$deleteFromPrimitiveList/args': ['a'] }] } }, 'io.k8s.api.core.v1.Pod');
    expect(out).toEqual({ spec: { containers: [{ name: 'c', args: ['a'] }] } });
  });

  it('list-type map without a patch strategy is replaced (resources.claims)', () => {
    const pod = { spec: { containers: [{ name: 'c', resources: { claims: [{ name: 'x' }, { name: 'y' }] } }] } };
    const out = applyStrategicMergePatch(pod, { spec: { containers: [{ name: 'c', resources: { claims: [{ name: 'z' }] } }] } }, 'io.k8s.api.core.v1.Pod');
    expect(out).toEqual({ spec: { containers: [{ name: 'c', resources: { claims: [{ name: 'z' }] } }] } });
  });

  it('directive-like keys in free-form maps are ordinary keys', () => {
    const out = applyStrategicMergePatch({ metadata: { name: 'x' } }, { data: { '$setElementOrder/k': 'v' } }, 'io.k8s.api.core.v1.ConfigMap');
    expect(out).toEqual({ metadata: { name: 'x' }, data: { '$setElementOrder/k': 'v' } });
  });
});
