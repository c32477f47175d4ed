// kubectl 1.34's typed commands send their bodies as application/vnd.kubernetes.protobuf with no
// JSON fallback (../shared/kubectl-wire/logs/04): each `kubectl create <kind>` must print its
// "created" line, and reading the object back must show the fields survived the protobuf decode.
// Also the review endpoints kubectl calls: auth can-i (and --list), auth whoami, create token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, kubectlOk, startCluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

const NS = ['-n', 'pb'];

/** Runs kubectl and fails with its output when the exit code is not 0. */
const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;

/** `kubectl get <kind> <name> -o jsonpath=...` (in namespace pb unless cluster-scoped). */
function read(kind: string, name: string, path: string, namespaced = true): Promise<string> {
  return ok(['get', kind, name, ...(namespaced ? NS : []), '-o', `jsonpath=${path}`]);
}

async function readJson(kind: string, name: string, namespaced = true): Promise<any> {
  return JSON.parse(await ok(['get', kind, name, ...(namespaced ? NS : []), '-o', 'json']));
}

describe('kubectl create <kind> sends protobuf bodies', () => {
  // The namespace comes first: every namespaced command below uses it.
  it('create namespace', async () => {
    expect(await ok(['create', 'namespace', 'pb'])).toBe('namespace/pb created\n');
    expect(await read('namespace', 'pb', '{.status.phase}', false)).toBe('Active');
    const again = await c.kubectl(['create', 'namespace', 'pb']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Error from server (AlreadyExists): namespaces "pb" already exists');
  });

  it('create configmap', async () => {
    expect(await ok(['create', 'configmap', 'c1', ...NS, '--from-literal=a=b', '--from-literal=empty='])).toBe('configmap/c1 created\n');
    expect(JSON.parse(await read('configmap', 'c1', '{.data}'))).toEqual({ a: 'b', empty: '' });
  });

  it('create secret generic: the bytes round-trip', async () => {
    expect(await ok(['create', 'secret', 'generic', 's1', ...NS, '--from-literal=user=admin', '--from-literal=pass=s3cr=t!'])).toBe('secret/s1 created\n');
    const s = await readJson('secret', 's1');
    expect(s.type).toBe('Opaque');
    expect(s.data).toEqual({ user: btoa('admin'), pass: btoa('s3cr=t!') });
  });

  it('create serviceaccount', async () => {
    expect(await ok(['create', 'serviceaccount', 'sa1', ...NS])).toBe('serviceaccount/sa1 created\n');
    expect(await read('serviceaccount', 'sa1', '{.metadata.name}')).toBe('sa1');
  });

  it('create deployment --replicas=0 keeps the explicit zero', async () => {
    expect(await ok(['create', 'deployment', 'd0', ...NS, '--image=nginx:1.25', '--replicas=0', '--port=8080'])).toBe('deployment.apps/d0 created\n');
    const d = await readJson('deployment', 'd0');
    expect(d.spec.replicas).toBe(0);
    expect(d.spec.selector).toEqual({ matchLabels: { app: 'd0' } });
    expect(d.spec.template.metadata.labels).toEqual({ app: 'd0' });
    expect(d.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 8080, protocol: 'TCP' }] });
  });

  it('create deployment with replicas 3', async () => {
    expect(await ok(['create', 'deployment', 'web', ...NS, '--image=nginx', '--replicas=3'])).toBe('deployment.apps/web created\n');
    expect(await read('deployment', 'web', '{.spec.replicas}')).toBe('3');
  });

  it('create job', async () => {
    expect(await ok(['create', 'job', 'j1', ...NS, '--image=busybox', '--', 'echo', 'hi'])).toBe('job.batch/j1 created\n');
    const j = await readJson('job', 'j1');
    expect(j.spec.template.spec.containers[0]).toMatchObject({ name: 'j1', image: 'busybox', command: ['echo', 'hi'] });
    expect(j.spec.template.spec.restartPolicy).toBe('Never');
  });

  it('create cronjob', async () => {
    expect(await ok(['create', 'cronjob', 'cj1', ...NS, '--image=busybox', '--schedule=*/5 * * * *'])).toBe('cronjob.batch/cj1 created\n');
    const cj = await readJson('cronjob', 'cj1');
    expect(cj.spec.schedule).toBe('*/5 * * * *');
    expect(cj.spec.jobTemplate.spec.template.spec.containers[0]).toMatchObject({ name: 'cj1', image: 'busybox' });
    expect(cj.spec.jobTemplate.spec.template.spec.restartPolicy).toBe('OnFailure');
  });

  it('create service clusterip', async () => {
    expect(await ok(['create', 'service', 'clusterip', 'svc1', ...NS, '--tcp=80:8080'])).toBe('service/svc1 created\n');
    const s = await readJson('service', 'svc1');
    expect(s.spec.type).toBe('ClusterIP');
    expect(s.spec.selector).toEqual({ app: 'svc1' });
    // targetPort is an IntOrString: the int form must survive the decode.
    expect(s.spec.ports).toEqual([{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }]);
  });

  it('create role and rolebinding', async () => {
    expect(await ok(['create', 'role', 'r1', ...NS, '--verb=get,list', '--resource=pods,deployments.apps'])).toBe('role.rbac.authorization.k8s.io/r1 created\n');
    const role = await readJson('role', 'r1');
    expect(role.rules).toEqual([
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'] },
    ]);
    expect(await ok(['create', 'rolebinding', 'rb1', ...NS, '--role=r1', '--user=bob', '--serviceaccount=pb:sa1'])).toBe('rolebinding.rbac.authorization.k8s.io/rb1 created\n');
    const rb = await readJson('rolebinding', 'rb1');
    expect(rb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r1' });
    expect(rb.subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' },
      { kind: 'ServiceAccount', name: 'sa1', namespace: 'pb' },
    ]);
  });

  it('create clusterrole and clusterrolebinding', async () => {
    expect(await ok(['create', 'clusterrole', 'cr1', '--verb=get', '--resource=nodes', '--non-resource-url=/logs'])).toBe('clusterrole.rbac.authorization.k8s.io/cr1 created\n');
    const cr = await readJson('clusterrole', 'cr1', false);
    expect(cr.rules).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['nodes'] },
      { verbs: ['get'], nonResourceURLs: ['/logs'] },
    ]);
    expect(await ok(['create', 'clusterrolebinding', 'crb1', '--clusterrole=cr1', '--group=devs'])).toBe('clusterrolebinding.rbac.authorization.k8s.io/crb1 created\n');
    const crb = await readJson('clusterrolebinding', 'crb1', false);
    expect(crb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cr1' });
    expect(crb.subjects).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }]);
  });

  it('create quota: Quantities survive', async () => {
    expect(await ok(['create', 'quota', 'q1', ...NS, '--hard=pods=2,requests.memory=1Gi,requests.cpu=500m'])).toBe('resourcequota/q1 created\n');
    expect(JSON.parse(await read('resourcequota', 'q1', '{.spec.hard}'))).toEqual({ pods: '2', 'requests.memory': '1Gi', 'requests.cpu': '500m' });
  });

  it('create priorityclass', async () => {
    expect(await ok(['create', 'priorityclass', 'pc1', '--value=1000', '--description=important'])).toBe('priorityclass.scheduling.k8s.io/pc1 created\n');
    const pc = await readJson('priorityclass', 'pc1', false);
    expect(pc).toMatchObject({ value: 1000, description: 'important', preemptionPolicy: 'PreemptLowerPriority' });
    expect(pc.globalDefault ?? false).toBe(false);
  });

  it('create pdb: minAvailable as an int and as a percent', async () => {
    expect(await ok(['create', 'pdb', 'pdb1', ...NS, '--selector=app=web', '--min-available=1'])).toBe('poddisruptionbudget.policy/pdb1 created\n');
    const p1 = await readJson('pdb', 'pdb1');
    expect(p1.spec).toMatchObject({ minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
    expect(await ok(['create', 'pdb', 'pdb2', ...NS, '--selector=app=web', '--max-unavailable=50%'])).toBe('poddisruptionbudget.policy/pdb2 created\n');
    expect(await read('pdb', 'pdb2', '{.spec.maxUnavailable}')).toBe('50%');
  });

  it('create ingress', async () => {
    expect(await ok(['create', 'ingress', 'i1', ...NS, '--rule=foo.com/bar=svc1:8080', '--class=nginx'])).toBe('ingress.networking.k8s.io/i1 created\n');
    const ing = await readJson('ingress', 'i1');
    expect(ing.spec.ingressClassName).toBe('nginx');
    expect(ing.spec.rules).toEqual([
      { host: 'foo.com', http: { paths: [{ path: '/bar', pathType: 'Exact', backend: { service: { name: 'svc1', port: { number: 8080 } } } }] } },
    ]);
  });

  it('create token prints a token for the service account', async () => {
    const out = await ok(['create', 'token', 'sa1', ...NS, '--duration=10m']);
    expect(out.trim()).toMatch(/^[A-Za-z0-9._-]{20,}$/);
    const missing = await c.kubectl(['create', 'token', 'nobody', ...NS]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('serviceaccounts "nobody" not found');
  });

  it('autoscale deploy creates an autoscaling/v2 HorizontalPodAutoscaler', async () => {
    expect(await ok(['autoscale', 'deploy', 'web', ...NS, '--min=2', '--max=5', '--cpu-percent=80'])).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    const hpa = JSON.parse(await ok(['get', 'hpa.v2.autoscaling', 'web', ...NS, '-o', 'json']));
    expect(hpa.spec).toMatchObject({ minReplicas: 2, maxReplicas: 5, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } });
    expect(hpa.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  });

  it('every object created above is listed by kubectl get', async () => {
    const out = await ok(['get', 'configmap,secret,serviceaccount,deployment,job,cronjob,service,role,rolebinding,resourcequota,pdb,ingress,hpa', ...NS, '-o', 'name']);
    for (const line of [
      'configmap/c1',
      'secret/s1',
      'serviceaccount/sa1',
      'deployment.apps/d0',
      'deployment.apps/web',
      'job.batch/j1',
      'cronjob.batch/cj1',
      'service/svc1',
      'role.rbac.authorization.k8s.io/r1',
      'rolebinding.rbac.authorization.k8s.io/rb1',
      'resourcequota/q1',
      'poddisruptionbudget.policy/pdb1',
      'ingress.networking.k8s.io/i1',
      'horizontalpodautoscaler.autoscaling/web',
    ]) {
      expect(out.split('\n')).toContain(line);
    }
  });
});

describe('kubectl auth (review endpoints)', () => {
  it('auth can-i get pods prints yes', async () => {
    const r = await c.kubectl(['auth', 'can-i', 'get', 'pods']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('yes\n');
  });

  it('auth can-i create deployments.apps in all namespaces prints yes', async () => {
    expect(await ok(['auth', 'can-i', 'create', 'deployments.apps', '--all-namespaces'])).toBe('yes\n');
  });

  it('auth can-i for a non-resource URL prints yes', async () => {
    expect(await ok(['auth', 'can-i', 'get', '/logs'])).toBe('yes\n');
  });

  it('auth can-i --list prints the wildcard rules', async () => {
    const out = await ok(['auth', 'can-i', '--list']);
    expect(out).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
    expect(out).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
    expect(out).toMatch(/^\s+\[\*\]\s+\[\]\s+\[\*\]$/m);
  });

  it('auth whoami names the admin and its groups', async () => {
    const out = await ok(['auth', 'whoami']);
    expect(out).toMatch(/^ATTRIBUTE\s+VALUE$/m);
    expect(out).toMatch(/^Username\s+kubernetes-admin$/m);
    expect(out).toMatch(/^Groups\s+\[system:masters system:authenticated\]$/m);
  });

  it('auth whoami -o json is a SelfSubjectReview', async () => {
    const r = JSON.parse(await ok(['auth', 'whoami', '-o', 'json']));
    expect(r).toMatchObject({ kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', status: { userInfo: { username: 'kubernetes-admin' } } });
  });
});
