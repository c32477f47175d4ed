// Watch limits of the browser host. Browsers end a Service Worker event after about 5 minutes,
// so every watch ends before that with a final BOOKMARK and the client resumes from its last
// resourceVersion; the default length is kept short for the same reason.
export const WATCH_LIMITS = {
  /** Hard cap on any watch (seconds): under the ~300 s event limit with margin. */
  maxWatchSeconds: 240,
  /** Watches without timeoutSeconds last [120, 240) s, then get capped. */
  defaultWatchSeconds: 120,
  /** Bookmarks keep idle watches' resourceVersions fresh for resuming after a worker stop. */
  bookmarkIntervalMs: 30_000,
} as const;
