import { describe, expect, it } from 'vitest';
import { WriteHooks } from './write-hooks';
import type { RegistryContext } from './context';
import type { ServedResource } from './catalog';

const ctx = {} as RegistryContext;
const r = {} as ServedResource;

describe('WriteHooks', () => {
  it('never replaces: hooks added for one kind all run, in the order they were added', async () => {
    const ran: string[] = [];
    const hooks = new WriteHooks();
    hooks.add('/Pod', { afterCreate: () => void ran.push('own'), validate: () => [{ type: 'FieldValueInvalid', field: 'a', detail: 'own' }] });
    hooks.add('/Pod', { afterCreate: async () => void ran.push('follower'), validate: () => [{ type: 'FieldValueInvalid', field: 'b', detail: 'follower' }] });
    await hooks.get('/Pod')!.afterCreate!(ctx, r, {});
    expect(ran).toEqual(['own', 'follower']);
    expect(hooks.get('/Pod')!.validate!(ctx, r, {}, undefined).map((e) => e.field)).toEqual(['a', 'b']);
    expect(hooks.get('/Service')).toBeUndefined();
  });

  it('gives back what an earlier beforeCreate reserved when a later one refuses', async () => {
    const undone: string[] = [];
    const hooks = new WriteHooks();
    hooks.add('/Service', { beforeCreate: () => ({ undo: () => void undone.push('ip') }) });
    hooks.add('/Service', {
      beforeCreate: () => {
        throw new Error('refused');
      },
    });
    await expect(hooks.get('/Service')!.beforeCreate!(ctx, r, {})).rejects.toThrow('refused');
    expect(undone).toEqual(['ip']);
  });

  it('undoes and commits both reservations of two beforeUpdate hooks', () => {
    const seen: string[] = [];
    const hooks = new WriteHooks();
    hooks.add('/Service', { beforeUpdate: () => ({ undo: () => void seen.push('undo a'), commit: () => void seen.push('commit a') }) });
    hooks.add('/Service', { beforeUpdate: () => ({ undo: () => void seen.push('undo b') }) });
    const held = hooks.get('/Service')!.beforeUpdate!(ctx, r, {}, {});
    held!.commit!();
    held!.undo();
    expect(seen).toEqual(['commit a', 'undo b', 'undo a']);
  });

  it('refuses a second way to mark deletions of one kind', () => {
    const hooks = new WriteHooks();
    hooks.add('apiextensions.k8s.io/CustomResourceDefinition', { markDeleted: () => undefined });
    expect(() => hooks.add('apiextensions.k8s.io/CustomResourceDefinition', { markDeleted: () => undefined })).toThrow('two hooks mark deletions');
  });

  it('refuses a key spelled group/resource, which would never match a write', () => {
    expect(() => new WriteHooks().add('/pods', { afterCreate: () => undefined })).toThrow('write hooks are keyed group/Kind');
  });
});
