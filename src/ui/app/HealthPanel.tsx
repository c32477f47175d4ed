// livez and readyz with every check, failing ones included.
import { useQuery } from '@tanstack/react-query';
import { useClient } from './client-context';
import { ErrorBox } from './ErrorBox';
import { queryKeys } from '../lib/query-keys';

export function HealthPanel() {
  const client = useClient();
  const checks = (['livez', 'readyz'] as const).map((endpoint) => ({ endpoint, q: useQuery({ queryKey: queryKeys.health(client.apiBase, endpoint), queryFn: () => client.health(endpoint), refetchInterval: 10_000 }) }));
  return (
    <section aria-label="Health" className="health">
      {checks.map(({ endpoint, q }) => (
        <div key={endpoint}>
          <h3>
            /{endpoint} {q.data && <span className={q.data.ok ? 'ok' : 'bad'}>{q.data.code} {q.data.ok ? 'ok' : 'failing'}</span>}
          </h3>
          <ErrorBox error={q.error} />
          <pre>{q.data?.text}</pre>
        </div>
      ))}
    </section>
  );
}
