// A time as an age in the style kubectl prints (a shorter cut of its HumanDuration): seconds up
// to two minutes, minutes and seconds below ten minutes, minutes up to three hours, hours up to
// two days, then days; "" for a missing or unreadable time.
export function formatAge(time: string | undefined, now: number): string {
  if (!time) return '';
  const at = Date.parse(time);
  if (!Number.isFinite(at)) return '';
  const s = Math.max(0, Math.floor((now - at) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60 ? `${s % 60}s` : ''}`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.floor(h / 24)}d`;
}
