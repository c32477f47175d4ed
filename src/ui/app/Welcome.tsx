// The first screen: what this is in two sentences, and three ways in.
import { useState } from 'react';
import { useClient } from './client-context';
import { formatHash } from '../lib/routes';
import { navigate } from './router';

const SAMPLE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: hello-web
  namespace: default
spec:
  replicas: 2
  selector:
    matchLabels:
      app: hello-web
  template:
    metadata:
      labels:
        app: hello-web
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports:
        - containerPort: 80
`;

export function Welcome() {
  const client = useClient();
  const [error, setError] = useState<string>();
  const openSample = async () => {
    setError(undefined);
    try {
      await client.apply({ group: 'apps', version: 'v1', resource: 'deployments', namespaced: true }, 'default', 'hello-web', SAMPLE, { fieldManager: 'sample' });
      navigate({ view: 'object', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default', name: 'hello-web' });
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">Learn Kubernetes field ownership by doing it</h1>
      <p className="lede">
        This page runs a real Kubernetes API server (v1.23 behaviour) inside your browser tab: no cluster, no install, and it works offline. Send requests, apply configurations as different people, and watch who owns every field.
      </p>
      <div className="welcome-actions">
        <a className="card primary" href={formatHash({ view: 'lesson', lesson: 'managed-fields', step: 1 })}>
          <strong>Start the first lesson</strong>
          <span>Short lessons on Server-Side Apply: owners, conflicts and the ways out.</span>
        </a>
        <button type="button" className="card" onClick={() => void openSample()}>
          <strong>Open a sample workload</strong>
          <span>Apply a Deployment as the manager “sample” and see its fields and their owner.</span>
        </button>
        <a className="card" href={formatHash({ view: 'learn' })}>
          <strong>Browse the lessons</strong>
          <span>Pick a topic: conflicts, list types, resetting ownership, paging.</span>
        </a>
        <a className="card" href="#/api/v1/namespaces/default/configmaps">
          <strong>Explore freely</strong>
          <span>Every kind on the left; the request console sends any request.</span>
        </a>
      </div>
      {error && <p role="alert" className="error-box">The sample could not be applied: {error}</p>}
    </section>
  );
}
