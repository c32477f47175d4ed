import { describe, expect, it } from 'vitest';
import {
  configMapPrinter,
  endpointsPrinter,
  namespacePrinter,
  nodePrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  resourceQuotaPrinter,
  secretPrinter,
  serviceAccountPrinter,
  servicePrinter,
} from './core';

const NOW = Date.parse('2024-01-03T12:00:00Z');
const meta = (name: string) => ({ name, namespace: 'default', creationTimestamp: '2024-01-01T09:00:00Z' });

describe('core printers', () => {
  it('configmap, secret, namespace, serviceaccount', () => {
    expect(configMapPrinter.print({ metadata: meta('cm'), data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }, NOW).cells).toEqual(['cm', 3, '2d3h']);
    expect(configMapPrinter.print({ metadata: meta('empty') }, NOW).cells).toEqual(['empty', 0, '2d3h']);
    expect(secretPrinter.columns.map((c) => c.name)).toEqual(['Name', 'Type', 'Data', 'Age']);
    expect(secretPrinter.print({ metadata: meta('s'), type: 'Opaque', data: { k: 'dg==' } }, NOW).cells).toEqual(['s', 'Opaque', 1, '2d3h']);
    expect(namespacePrinter.print({ metadata: meta('ns1'), status: { phase: 'Terminating' } }, NOW).cells).toEqual(['ns1', 'Terminating', '2d3h']);
    expect(serviceAccountPrinter.print({ metadata: meta('default'), secrets: [{ name: 'tok' }] }, NOW).cells).toEqual(['default', 1, '2d3h']);
  });

  it('service ClusterIP and NodePort', () => {
    const svc = {
      metadata: meta('web'),
      spec: { type: 'ClusterIP', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], selector: { app: 'web' } },
    };
    expect(servicePrinter.print(svc, NOW).cells).toEqual(['web', 'ClusterIP', '10.96.0.10', '<none>', '80/TCP,53/UDP', '2d3h', 'app=web']);
    const np = { metadata: meta('np'), spec: { type: 'NodePort', clusterIPs: ['10.96.1.1'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] } };
    expect(servicePrinter.print(np, NOW).cells).toEqual(['np', 'NodePort', '10.96.1.1', '<none>', '80:30080/TCP', '2d3h', '<none>']);
  });

  it('service LoadBalancer pending/assigned, ExternalName and headless', () => {
    const lb = { metadata: meta('lb'), spec: { type: 'LoadBalancer', clusterIPs: ['10.96.2.2'], ports: [{ port: 443, nodePort: 31443, protocol: 'TCP' }] } };
    expect(servicePrinter.print(lb, NOW).cells[3]).toBe('<pending>');
    const assigned = { ...lb, status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }, { hostname: 'lb.example.com' }, { ip: '203.0.113.1' }] } } };
    expect(servicePrinter.print(assigned, NOW).cells[3]).toBe('203.0.113.1,203.0.113.9,lb.example.com');
    const withExternal = { ...assigned, spec: { ...lb.spec, externalIPs: ['198.51.100.7'] } };
    expect(servicePrinter.print(withExternal, NOW).cells[3]).toBe('203.0.113.1,203.0.113.9,lb.example.com,198.51.100.7');
    const ext = { metadata: meta('ext'), spec: { type: 'ExternalName', externalName: 'db.example.com' } };
    expect(servicePrinter.print(ext, NOW).cells).toEqual(['ext', 'ExternalName', '<none>', 'db.example.com', '<none>', '2d3h', '<none>']);
    const headless = { metadata: meta('h'), spec: { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'], ports: [{ port: 5432, protocol: 'TCP' }] } };
    expect(servicePrinter.print(headless, NOW).cells.slice(1, 5)).toEqual(['ClusterIP', 'None', '<none>', '5432/TCP']);
  });

  it('endpoints: ip:port list capped at three', () => {
    const ep = {
      metadata: meta('web'),
      subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }, { ip: 'fd00::3' }, { ip: '10.0.0.4' }], ports: [{ port: 8080 }] }],
    };
    expect(endpointsPrinter.print(ep, NOW).cells).toEqual(['web', '10.0.0.1:8080,10.0.0.2:8080,[fd00::3]:8080 + 1 more...', '2d3h']);
    expect(endpointsPrinter.print({ metadata: meta('none') }, NOW).cells[1]).toBe('<none>');
  });

  it('node status, roles and wide columns', () => {
    const node = {
      metadata: { ...meta('n1'), labels: { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/master': '', 'kubernetes.io/role': 'edge' } },
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'True' }],
        addresses: [{ type: 'Hostname', address: 'n1' }, { type: 'InternalIP', address: '172.18.0.2' }],
        nodeInfo: { kubeletVersion: 'v1.23.17', osImage: 'Ubuntu 22.04', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.6.8' },
      },
    };
    expect(nodePrinter.print(node, NOW).cells).toEqual([
      'n1', 'Ready,SchedulingDisabled', 'control-plane,edge,master', '2d3h', 'v1.23.17', '172.18.0.2', '<none>', 'Ubuntu 22.04', '6.1.0', 'containerd://1.6.8',
    ]);
    expect(nodePrinter.print({ metadata: meta('n2'), status: {} }, NOW).cells.slice(1, 3)).toEqual(['Unknown', '<none>']);
  });

  it('persistent volumes and claims', () => {
    const pv = {
      metadata: meta('pv1'),
      spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', claimRef: { namespace: 'default', name: 'data' }, storageClassName: 'standard', volumeMode: 'Filesystem' },
      status: { phase: 'Bound' },
    };
    expect(persistentVolumePrinter.print(pv, NOW).cells).toEqual(['pv1', '10Gi', 'RWO,ROX', 'Retain', 'Bound', 'default/data', 'standard', '', '2d3h', 'Filesystem']);
    const pending = { metadata: meta('data'), spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard' }, status: { phase: 'Pending' } };
    expect(persistentVolumeClaimPrinter.print(pending, NOW).cells).toEqual(['data', 'Pending', '', '', '', 'standard', '2d3h', '<unset>']);
    const bound = {
      metadata: { ...meta('data'), annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' }, deletionTimestamp: '2024-01-03T11:00:00Z' },
      spec: { volumeName: 'pv1', volumeMode: 'Block', storageClassName: 'standard' },
      status: { phase: 'Bound', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOncePod'] },
    };
    expect(persistentVolumeClaimPrinter.print(bound, NOW).cells).toEqual(['data', 'Terminating', 'pv1', '10Gi', 'RWOP', 'fast', '2d3h', 'Block']);
  });

  it('resource quota splits requests and limits', () => {
    const rq = {
      metadata: meta('q'),
      status: {
        hard: { 'requests.cpu': '1', pods: '10', 'limits.memory': '2Gi', 'limits.cpu': '2' },
        used: { 'requests.cpu': '500m', pods: '3', 'limits.cpu': '1' },
      },
    };
    expect(resourceQuotaPrinter.columns.map((c) => c.name)).toEqual(['Name', 'Age', 'Request', 'Limit']);
    expect(resourceQuotaPrinter.print(rq, NOW).cells).toEqual(['q', '2d3h', 'pods: 3/10, requests.cpu: 500m/1', 'limits.cpu: 1/2, limits.memory: 0/2Gi']);
  });
});
