// How the header writes cluster time: the time of day in UTC to the second (what a learner
// compares with creationTimestamp and event times, which kube writes in UTC; the title says
// UTC), and the date only when it is not today's.
export function clusterTime(ms: number, today = Date.now()): string {
  const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString();
  const day = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  return day === new Date(today).toISOString().slice(0, 10) ? time : `${day} ${time}`;
}
