// "Now" as the cluster sees it, for ages of what the cluster wrote: its clock may be paused,
// stepped or sped up, so the page's own Date.now() would age a pod wrongly. Read from the
// header's clock query; real time where there is none (the Node host runs on real time).
import type { QueryClient } from '@tanstack/react-query';
import type { HostClock } from '../../../hosts/sw/protocol';

/** The header's clock query (ClockControls keeps it fresh). */
export const clockKey = (apiBase: string) => ['cluster-clock', apiBase];

export function clusterNow(queryClient: QueryClient, apiBase: string): number {
  const key = clockKey(apiBase);
  const clock = queryClient.getQueryData<HostClock>(key);
  if (!clock) return Date.now();
  if (clock.paused) return clock.now;
  const readAt = queryClient.getQueryState(key)?.dataUpdatedAt ?? Date.now();
  return clock.now + (Date.now() - readAt) * clock.speed;
}
