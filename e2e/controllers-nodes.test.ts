// Nodes, storage and scheduling with the real kubectl 1.34 against the Node host: drain and
// uncordon, a claim bound through the default StorageClass, a node whose kubelet stops turning
// NotReady with the node lifecycle controller's taints, and (over HTTPS with RBAC) a client
// certificate request approved with kubectl and signed by the cluster's CA. The cluster clock runs 20 times faster,
// so the 40 s grace period passes in two seconds.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderKubeconfig } from '../src/hosts/node/kubeconfig';
import { type Cluster, eventually, kubectlOk, startCluster } from './harness';
import { startSecureServer } from './secure-server';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster(['--kubelet-delay', '200ms', '--clock-speed', '20']);
});
afterAll(async () => {
  await c?.stop();
});

const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;
const json = async (args: string[]): Promise<any> => JSON.parse(await ok([...args, '-o', 'json']));

describe('nodes, storage and scheduling', () => {
  it('kubectl drain evicts the pods, the Deployment replaces them on other nodes; uncordon opens the node again', async () => {
    await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const before = await json(['get', 'pods', '-l', 'app=web']);
    const onNode1 = before.items.filter((p: any) => p.spec.nodeName === 'node-1').map((p: any) => p.metadata.name);
    expect(onNode1.length).toBeGreaterThan(0);

    const drain = await kubectlOk(c, ['drain', 'node-1', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=60s']);
    expect(drain.stdout).toContain('node/node-1 cordoned');
    for (const name of onNode1) expect(drain.stdout).toContain(`pod/${name} evicted`);
    expect(drain.stdout).toContain('node/node-1 drained');

    await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const after = await eventually(async () => {
      const pods = await json(['get', 'pods', '-l', 'app=web']);
      expect(pods.items.filter((p: any) => p.status.phase === 'Running')).toHaveLength(3);
      return pods;
    });
    expect(after.items.every((p: any) => p.spec.nodeName !== 'node-1')).toBe(true);
    // The node lifecycle controller taints a cordoned node; kubectl shows it as SchedulingDisabled.
    await eventually(async () => expect((await json(['get', 'node', 'node-1'])).spec.taints).toEqual([{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]));
    expect(await ok(['get', 'node', 'node-1', '--no-headers'])).toMatch(/^node-1\s+Ready,SchedulingDisabled\s/);

    expect((await ok(['uncordon', 'node-1'])).trim()).toBe('node/node-1 uncordoned');
    await eventually(async () => expect((await json(['get', 'node', 'node-1'])).spec.taints).toBeUndefined());
    expect(await ok(['get', 'node', 'node-1', '--no-headers'])).toMatch(/^node-1\s+Ready\s/);
  });

  it('a PersistentVolumeClaim of the default StorageClass is provisioned and Bound once a pod uses it', async () => {
    expect(await ok(['get', 'storageclass', '--no-headers'])).toMatch(/^standard \(default\)\s+kube-playground\.io\/hostpath\s+Delete\s+WaitForFirstConsumer\s+false\s/);
    const manifest = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
---
apiVersion: v1
kind: Pod
metadata:
  name: app
spec:
  containers:
  - name: app
    image: nginx
    volumeMounts:
    - name: data
      mountPath: /data
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: data
`;
    await ok(['apply', '-f', '-'], manifest);
    expect(await ok(['wait', '--for=jsonpath={.status.phase}=Bound', 'pvc/data', '--timeout=30s'])).toContain('persistentvolumeclaim/data condition met');
    await ok(['wait', '--for=condition=Ready', 'pod/app', '--timeout=30s']);
    const claim = await json(['get', 'pvc', 'data']);
    const pod = await json(['get', 'pod', 'app']);
    expect(claim.spec.storageClassName).toBe('standard');
    expect(claim.metadata.annotations['volume.kubernetes.io/selected-node']).toBe(pod.spec.nodeName);
    const pv = await json(['get', 'pv', claim.spec.volumeName]);
    expect(pv.status.phase).toBe('Bound');
    expect(pv.spec.claimRef).toMatchObject({ namespace: 'default', name: 'data', uid: claim.metadata.uid });
    expect(await ok(['get', 'pvc', 'data', '--no-headers'])).toMatch(new RegExp(`^data\\s+Bound\\s+${claim.spec.volumeName}\\s+1Gi\\s+RWO\\s+standard\\s`));
  });

  it('a node whose kubelet stops turns NotReady with the unreachable taints, and recovers when it comes back', async () => {
    await ok(['annotate', 'node', 'node-3', 'kube-playground.io/kubelet=stopped']);
    const node = await eventually(async () => {
      const n = await json(['get', 'node', 'node-3']);
      expect(n.status.conditions.find((x: any) => x.type === 'Ready')).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
      expect(n.spec.taints?.map((t: any) => `${t.key}:${t.effect}`)).toEqual(['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute']);
      return n;
    }, 20_000);
    expect(node.spec.taints[1].timeAdded).toMatch(/Z$/);
    expect(await ok(['get', 'node', 'node-3', '--no-headers'])).toMatch(/^node-3\s+NotReady\s/);
    const events = await ok(['get', 'events', '--field-selector', 'involvedObject.name=node-3', '-o', 'jsonpath={range .items[*]}{.reason}{"\\n"}{end}']);
    expect(events.split('\n')).toContain('NodeNotReady');

    await ok(['annotate', 'node', 'node-3', 'kube-playground.io/kubelet-']);
    await eventually(async () => {
      const n = await json(['get', 'node', 'node-3']);
      expect(n.status.conditions.find((x: any) => x.type === 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
      expect(n.spec.taints).toBeUndefined();
    }, 20_000);
  });
});

describe('certificate signing over HTTPS with RBAC', () => {
  it('kubectl certificate approve, then csrsigning issues a certificate the server accepts', async () => {
    const secure = await startSecureServer('');
    try {
      const key = join(secure.dir, 'dave.key');
      const req = join(secure.dir, 'dave.csr');
      await promisify(execFile)('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', req, '-subj', '/O=devs/CN=dave']);
      const request = Buffer.from(await readFile(req)).toString('base64');
      const manifest = JSON.stringify({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'dave' }, spec: { request, signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], expirationSeconds: 86400 } });
      expect((await secure.kubectl(['create', '-f', '-'], manifest)).code).toBe(0);
      expect((await secure.kubectl(['certificate', 'approve', 'dave'])).stdout.trim()).toBe('certificatesigningrequest.certificates.k8s.io/dave approved');
      const certificate = await eventually(async () => {
        const r = await secure.kubectl(['get', 'csr', 'dave', '-o', 'jsonpath={.status.certificate}']);
        expect(r.stdout).not.toBe('');
        return Buffer.from(r.stdout, 'base64').toString();
      });
      expect((await secure.kubectl(['get', 'csr', 'dave', '--no-headers'])).stdout).toMatch(/\sApproved,Issued\s*$/);
      // The certificate authenticates dave, in group devs: RBAC then refuses him by name.
      const admin = await readFile(secure.kubeconfig, 'utf8');
      const server = JSON.parse(/server: (".*")/.exec(admin)![1]) as string;
      const caCertPem = await readFile(join(secure.dir, 'data', 'ca.crt'), 'utf8');
      const daveConfig = join(secure.dir, 'dave.kubeconfig');
      await writeFile(daveConfig, renderKubeconfig(server, { caCertPem, clientCert: { cert: certificate, key: await readFile(key, 'utf8') } }), { mode: 0o600 });
      const asDave = await secure.kubectl(['get', 'pods'], undefined, daveConfig);
      expect(asDave.stderr).toContain('User "dave" cannot list resource "pods"');
    } finally {
      await secure.stop();
    }
  });
});
