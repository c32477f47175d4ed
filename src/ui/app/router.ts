// The one router: the current view is the URL hash read through lib/routes (the map of hash ↔
// view), and every change of view goes through `navigate`. Components never write location.hash
// themselves, so what a URL means is decided in one place.
import { useEffect, useState } from 'react';
import { formatHash, parseHash, type ViewState } from '../lib/routes';

/** The view the address names, following every change (links, Back, `navigate`, another script). */
export function useRoute(): ViewState {
  const [state, setState] = useState<ViewState>(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setState(parseHash(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return state;
}

/**
 * Shows another view. `replace` leaves no history entry (Back skips it): for leaving a scenario
 * link, whose question must not come back on Back.
 */
export function navigate(next: ViewState, opts: { replace?: boolean } = {}): void {
  const hash = formatHash(next);
  if (opts.replace) location.replace(hash);
  else location.hash = hash;
}

/**
 * Writes the state of the view on screen into the address, without a history entry and without
 * announcing a new view (the view already shows it): the console's request follows the typing so
 * it can be linked and survives a reload. Only while that view is still the one the address names:
 * a late effect after the learner navigated away must not put it back.
 */
export function recordInAddress(state: ViewState): void {
  if (parseHash(location.hash).view !== state.view) return;
  const hash = formatHash(state);
  if (location.hash !== hash) history.replaceState(history.state, '', hash);
}
