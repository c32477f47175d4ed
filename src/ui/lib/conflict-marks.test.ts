import { describe, expect, it } from 'vitest';
import { conflictMarks, conflictOwner } from './conflict-marks';

const config = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 5
  template:
    spec:
      containers:
      - name: sidecar
        image: envoy
      - name: web
        image: nginx:2
      tolerations:
      - key: a
`;
const live = { spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image: 'nginx:1' }] } } } };

describe('conflict marks', () => {
  it("mark each conflicting field's line with both values and the owner the 409 names", () => {
    const causes = [
      { reason: 'FieldManagerConflict', field: '.spec.template.spec.containers[name="web"].image', message: 'conflict with "bob" using apps/v1' },
      { reason: 'FieldManagerConflict', field: '.spec.replicas', message: 'conflict with "alice" using apps/v1' },
      { reason: 'FieldManagerConflict', field: '.spec.template.spec.containers[name="web"]', message: 'conflict with "kubectl-client-side-apply" using apps/v1' },
    ];
    expect(conflictMarks(config, live, causes)).toEqual([
      { line: 6, field: '.spec.replicas', yours: '5', live: '2', owner: 'alice', message: 'yours: 5 / live: 2, owned by alice' },
      { line: 12, field: '.spec.template.spec.containers[name="web"]', yours: '{"name":"web","image":"nginx:2"}', live: '{"name":"web","image":"nginx:1"}', owner: 'kubectl-client-side-apply', message: 'yours: {"name":"web","image":"nginx:2"} / live: {"name":"web","image":"nginx:1"}, owned by kubectl-client-side-apply' },
      { line: 13, field: '.spec.template.spec.containers[name="web"].image', yours: 'nginx:2', live: 'nginx:1', owner: 'bob', message: 'yours: nginx:2 / live: nginx:1, owned by bob' },
    ]);
  });

  it('leave out what the text does not have, and survive odd input', () => {
    expect(conflictMarks(config, live, [{ field: '.spec.paused', message: 'conflict with "x" using v1' }, { field: 'not a path' }, {}])).toEqual([]);
    expect(conflictMarks('a: [unclosed', live, [{ field: '.a' }])).toEqual([]);
    expect(conflictMarks('', live, [{ field: '.spec.replicas' }])).toEqual([]);
    expect(conflictMarks(config, undefined, [{ field: '.spec.template.spec.tolerations[0]' }])[0]).toMatchObject({ line: 15, yours: '{"key":"a"}', live: '(not set)', owner: '', message: 'yours: {"key":"a"} / live: (not set)' });
    expect(conflictOwner('conflict with "a \\"quoted\\" name" with subresource "scale" using v1')).toBe('a \\"quoted\\" name');
  });
});
