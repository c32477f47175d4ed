import { describe, expect, it } from 'vitest';
import { compareGroupPriority, compareVersionPriority } from './versions';

describe('compareVersionPriority', () => {
  it('orders GA, then beta, then alpha, higher numbers first, others last', () => {
    const versions = ['v1alpha1', 'v2beta1', 'foo', 'v1', 'v1beta1', 'v2', 'v2beta2', 'v10', 'bar', 'v1alpha2'];
    expect(versions.sort(compareVersionPriority)).toEqual(['v10', 'v2', 'v1', 'v2beta2', 'v2beta1', 'v1beta1', 'v1alpha2', 'v1alpha1', 'bar', 'foo']);
  });
});

describe('compareGroupPriority', () => {
  it('puts built-in groups in kube-apiserver order and custom groups after, alphabetically', () => {
    const groups = ['zeta.example.com', 'batch', 'apps', 'alpha.example.com', 'apiregistration.k8s.io', 'flowcontrol.apiserver.k8s.io'];
    expect(groups.sort(compareGroupPriority)).toEqual(['apiregistration.k8s.io', 'apps', 'batch', 'flowcontrol.apiserver.k8s.io', 'alpha.example.com', 'zeta.example.com']);
  });
});
