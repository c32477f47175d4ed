import { describe, expect, it } from 'vitest';
import { PodExpectations } from './owned-pods';

const pod = (uid: string) => ({ metadata: { uid, name: uid, namespace: 'default' } });

describe('PodExpectations (kube ControllerExpectations)', () => {
  it('is satisfied once every expected create and delete has been seen', () => {
    const exp = new PodExpectations();
    expect(exp.satisfied('default/web')).toBe(true);
    exp.expect('default/web', 2, ['old-1']);
    exp.observe('default/web', pod('new-1'), 'add');
    exp.observe('default/web', pod('new-1'), 'update');
    expect(exp.satisfied('default/web')).toBe(false);
    exp.observe('default/web', pod('new-2'), 'add');
    expect(exp.satisfied('default/web')).toBe(false);
    exp.observe('default/web', pod('old-1'), 'delete');
    expect(exp.satisfied('default/web')).toBe(true);
  });

  it('lets a sync lower what it expects for writes that failed, and forgets a deleted owner', () => {
    const exp = new PodExpectations();
    const record = exp.expect('default/web', 3);
    record.pendingAdds -= 3;
    expect(exp.satisfied('default/web')).toBe(true);
    exp.expect('default/web', 1);
    exp.forget('default/web');
    expect(exp.satisfied('default/web')).toBe(true);
  });
});
