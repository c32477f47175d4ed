// The API client for the whole tree, made once per apiBase by App.
import { createContext, useContext } from 'react';
import type { ApiClient } from '../lib/api';

export const ClientContext = createContext<ApiClient | null>(null);

export function useClient(): ApiClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient needs <App> (ClientContext) above it');
  return client;
}
