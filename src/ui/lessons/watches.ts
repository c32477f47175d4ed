// Watches, bookmarks and 410 resume. Every watch the learner sends carries timeoutSeconds, so the
// answer is the whole (short) stream. The lesson asks the API for a 20-second history window
// (--history-window 20s, in place of 5 minutes) so a resourceVersion expires while the learner
// waits, instead of after five minutes.
import { apply, CM, done, notYet, remove } from './checks';
import type { Lesson } from './types';
import { watchEvents } from './watch-answers';

const LABEL = 'lesson%3Dwatch';
const PATH = `${CM}/watched`;
const WATCH = `${CM}?labelSelector=${LABEL}&watch=1&timeoutSeconds=2`;
const WATCH_BOOKMARKS = `${WATCH}&allowWatchBookmarks=true`;
const RESUME = `${WATCH}&resourceVersion=`;
const WINDOW = '20s';

const change = (color: string) => apply(PATH, 'alice', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: watched\n  labels:\n    lesson: watch\ndata:\n  color: ${color}\n`);

/** The value of `resourceVersion=` in a path, or ''. */
const resumedFrom = (path: string) => new URLSearchParams(path.split('?')[1] ?? '').get('resourceVersion') ?? '';

export const watchesLesson: Lesson = {
  id: 'watches',
  title: 'Watches, bookmarks and 410 resume',
  summary: 'A watch streams changes from a resourceVersion; bookmarks tell you where you are; a version older than the history window answers 410 Gone, and you relist.',
  object: PATH,
  apiSettings: { historyWindow: WINDOW },
  setup: [remove(PATH), change('red')],
  steps: [
    {
      title: 'A watch streams events',
      text: 'Add `watch=1` to a list and the API keeps the answer open, writing one JSON line per change. Without a `resourceVersion` it first sends the current objects as `ADDED`. `timeoutSeconds=2` ends the stream after two seconds so the page can show it. Send it and open the answer.',
      requests: [{ method: 'GET', path: WATCH }],
      kubectl: 'kubectl get configmaps -l lesson=watch --watch --request-timeout=2s -o json',
      hint: 'Keep watch=1 and timeoutSeconds=2 in the path; the answer takes two seconds.',
      watch: CM,
      async check(_api, last) {
        const events = last ? watchEvents(last.body) : [];
        return events.some((e) => e.type === 'ADDED' && e.name === 'watched') ? done('ADDED watched: the state the watch started from.') : notYet('Send the watch and wait two seconds for its answer.');
      },
    },
    {
      title: 'Bookmarks say where you are',
      text: 'With `allowWatchBookmarks=true` the API also sends `BOOKMARK` events: no object, only `metadata.resourceVersion`, the point the watch has reached. A client keeps the last one so it can resume from there, even when none of its objects changed. This watch ends with a bookmark.',
      requests: [{ method: 'GET', path: WATCH_BOOKMARKS }],
      kubectl: 'kubectl get --raw "/api/v1/namespaces/default/configmaps?labelSelector=lesson%3Dwatch&watch=1&allowWatchBookmarks=true&timeoutSeconds=2"',
      hint: 'allowWatchBookmarks=true must be in the path.',
      watch: CM,
      async check(_api, last) {
        const bookmark = (last ? watchEvents(last.body) : []).find((e) => e.type === 'BOOKMARK');
        return bookmark ? done(`A BOOKMARK at resourceVersion ${bookmark.resourceVersion}.`) : notYet('Send the watch with allowWatchBookmarks=true.');
      },
    },
    {
      title: 'Resume from the bookmark',
      text: 'Send request 1 (a watch ending with a bookmark) and request 2 (alice changes the color). Then copy the bookmark\'s `resourceVersion` from the first answer to the end of request 3 and send it: the watch resumes there, so it sends only what changed since (`MODIFIED`), not every object again. Do it within 20 seconds: this lesson set the API\'s history window to 20 s.',
      requests: [{ method: 'GET', path: WATCH_BOOKMARKS }, change('blue'), { method: 'GET', path: RESUME }],
      kubectl: 'kubectl get --raw "/api/v1/namespaces/default/configmaps?labelSelector=lesson%3Dwatch&watch=1&timeoutSeconds=2&resourceVersion=<bookmark>"',
      hint: 'The resourceVersion is in the last line of request 1\'s answer ("type":"BOOKMARK"); put it right after resourceVersion= in request 3. If the answer is a 410 ERROR, you waited too long: send requests 1 and 2 again.',
      watch: CM,
      async check(_api, last) {
        if (!last || !resumedFrom(last.path)) return notYet('Send request 3 with the bookmark\'s resourceVersion.');
        const events = watchEvents(last.body);
        if (events.some((e) => e.type === 'ERROR')) return notYet('410 Gone: the version expired before you resumed. Send requests 1 and 2 again, then 3 sooner.');
        return events.some((e) => e.type === 'MODIFIED' && e.name === 'watched') && !events.some((e) => e.type === 'ADDED') ? done('Only MODIFIED: the watch picked up where the bookmark left off.') : notYet('The answer should hold the MODIFIED event of alice\'s change; is the resourceVersion from before it?');
      },
    },
    {
      title: '410 Gone: too old to resume',
      text: 'The API keeps changes for a while only (its history window; 5 minutes by default, 20 seconds in this lesson). Send requests 1 and 2, wait 20 seconds, then resume from the bookmark with request 3. The HTTP status is still 200, but the stream holds one `ERROR` event: a Status with code 410, "too old resource version". Watching from there is impossible.',
      requests: [{ method: 'GET', path: WATCH_BOOKMARKS }, change('green'), { method: 'GET', path: RESUME }],
      kubectl: '# client-go\'s reflector logs "watch of *v1.ConfigMap ended with: too old resource version" and relists',
      hint: 'Wait a full 20 seconds after request 2 before sending request 3 with the bookmark\'s resourceVersion.',
      watch: CM,
      async check(_api, last) {
        const error = (last ? watchEvents(last.body) : []).find((e) => e.type === 'ERROR');
        return error?.code === 410 ? done('ERROR 410: the version is older than the history window.') : notYet(last && resumedFrom(last.path) ? 'Not expired yet: wait a little longer and send request 3 again.' : 'Send request 3 with the bookmark\'s resourceVersion, after waiting.');
      },
    },
    {
      title: 'Relist, then watch again',
      text: 'After a 410 a client lists again: the list\'s `metadata.resourceVersion` is a fresh starting point. Send the list, copy its `resourceVersion` to the end of request 2 and send that: the watch starts cleanly, no error. This is what every informer does after "too old resource version".',
      requests: [{ method: 'GET', path: `${CM}?labelSelector=${LABEL}` }, { method: 'GET', path: RESUME }],
      kubectl: 'kubectl get configmaps -l lesson=watch -o jsonpath="{.metadata.resourceVersion}"',
      hint: 'Request 2\'s resourceVersion comes from request 1\'s answer, metadata.resourceVersion.',
      watch: CM,
      async check(_api, last) {
        if (!last || !resumedFrom(last.path)) return notYet('Send request 2 with the list\'s resourceVersion.');
        return last.status === 200 && !watchEvents(last.body).some((e) => e.type === 'ERROR') ? done('Watching again from the relist\'s resourceVersion.') : notYet('The watch answered an error: relist (request 1) and use its resourceVersion.');
      },
    },
  ],
};
