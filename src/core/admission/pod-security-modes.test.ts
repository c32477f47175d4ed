import { describe, expect, it } from 'vitest';
import { isSignificantPodUpdate } from './pod-security-modes';
import { policyFromLabels, violationText } from './pod-security';

const pod = (image: string, extra: Record<string, unknown> = {}) => ({ metadata: { name: 'p', labels: {}, annotations: {} }, spec: { containers: [{ name: 'c', image }], ...extra } });

describe('PodSecurity on pod updates', () => {
  it('checks only updates that change images, containers or seccomp annotations', () => {
    expect(isSignificantPodUpdate(pod('a'), pod('a'))).toBe(false);
    expect(isSignificantPodUpdate({ ...pod('a'), metadata: { name: 'p', labels: { x: 'y' } } }, pod('a'))).toBe(false);
    expect(isSignificantPodUpdate(pod('a', { activeDeadlineSeconds: 5 }), pod('a'))).toBe(false);
    expect(isSignificantPodUpdate(pod('b'), pod('a'))).toBe(true);
    expect(isSignificantPodUpdate({ ...pod('a'), metadata: { annotations: { 'container.seccomp.security.alpha.kubernetes.io/c': 'unconfined' } } }, pod('a'))).toBe(true);
    expect(isSignificantPodUpdate(pod('a', { ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }), pod('a'))).toBe(true);
  });
});

describe('namespace policy', () => {
  it('reads levels and versions per mode, privileged:latest by default', () => {
    const p = policyFromLabels({ 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/warn-version': 'v1.23', 'pod-security.kubernetes.io/enforce': 'bogus' });
    expect(p.warn).toEqual({ level: 'restricted', version: 'v1.23' });
    expect(p.enforce).toEqual({ level: 'privileged', version: 'latest' });
    expect(violationText(p.warn, { containers: [{ name: 'c', image: 'x', securityContext: { privileged: true } }] })).toContain('privileged (container "c" must not set securityContext.privileged=true)');
    expect(violationText(p.audit, { hostNetwork: true, containers: [] })).toBeUndefined();
  });
});
