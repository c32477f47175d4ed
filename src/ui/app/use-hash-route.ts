// The view state mirrored in location.hash (see lib/routes), so views can be shared and reloaded.
import { useCallback, useEffect, useState } from 'react';
import { formatHash, parseHash, type ViewState } from '../lib/routes';

export function useHashRoute(): [ViewState, (next: ViewState) => void] {
  const [state, setState] = useState<ViewState>(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setState(parseHash(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  const navigate = useCallback((next: ViewState) => {
    location.hash = formatHash(next);
  }, []);
  return [state, navigate];
}
