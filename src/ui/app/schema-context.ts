// One OpenAPI schema lookup per API client, shared by every editor (documents are cached in it).
import { createSchemaLookup } from '../lib/yaml-schema/schema-source';
import type { SchemaLookup } from '../lib/yaml-schema/validate';
import { useClient } from './client-context';

const byClient = new WeakMap<object, SchemaLookup>();

export function useSchemaLookup(): SchemaLookup {
  const client = useClient();
  let lookup = byClient.get(client);
  if (!lookup) byClient.set(client, (lookup = createSchemaLookup(client)));
  return lookup;
}
