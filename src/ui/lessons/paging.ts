import { CM, done, notYet } from './checks';
import type { Lesson, LessonRequest } from './types';

const make = (i: number): LessonRequest => ({ method: 'POST', path: CM, contentType: 'application/json', body: JSON.stringify({ metadata: { name: `page-${i}`, labels: { lesson: 'paging' } } }) });

function listFacts(text: string): { items: number; continue: string; remaining?: number } | undefined {
  try {
    const list = JSON.parse(text) as { items?: unknown[]; metadata?: { continue?: string; remainingItemCount?: number } };
    if (!Array.isArray(list.items)) return undefined;
    return { items: list.items.length, continue: list.metadata?.continue ?? '', remaining: list.metadata?.remainingItemCount };
  } catch {
    return undefined;
  }
}

export const pagingLesson: Lesson = {
  id: 'paging',
  title: 'Paging with limit and continue',
  summary: 'Big lists come in pages: limit sets the size, the continue token asks for the next page of the same snapshot.',
  setup: [{ method: 'DELETE', path: `${CM}?labelSelector=lesson%3Dpaging` }, make(1), make(2), make(3), make(4), make(5)],
  steps: [
    {
      title: 'Ask for two at a time',
      text: 'Five ConfigMaps carry the label `lesson=paging`. List them with `limit=2`: the answer holds two items, `metadata.continue` (a token for the next page) and `remainingItemCount`.',
      requests: [{ method: 'GET', path: `${CM}?labelSelector=lesson%3Dpaging&limit=2` }],
      kubectl: 'kubectl get configmaps -l lesson=paging --chunk-size=2 -v=6',
      hint: 'Keep limit=2 in the query.',
      watch: CM,
      async check(_api, last) {
        const facts = last && listFacts(last.body);
        return facts && facts.items === 2 && facts.continue ? done(`2 items, a continue token, ${facts.remaining ?? '?'} remaining.`) : notYet('Send the list with limit=2.');
      },
    },
    {
      title: 'Follow the token',
      text: 'Send the first request again and open its answer: copy the `continue` token into the second request\'s path, after `continue=`, and send that. Each page comes from the snapshot of the first: objects written meanwhile do not shift the pages. The last page has an empty continue.',
      requests: [{ method: 'GET', path: `${CM}?labelSelector=lesson%3Dpaging&limit=2` }, { method: 'GET', path: `${CM}?labelSelector=lesson%3Dpaging&limit=2&continue=` }],
      kubectl: 'kubectl get --raw "/api/v1/namespaces/default/configmaps?labelSelector=lesson%3Dpaging&limit=2&continue=<token>"',
      hint: 'The token is the long string in metadata.continue of the first answer; it goes right after continue= in the second path.',
      watch: CM,
      async check(_api, last) {
        const facts = last && listFacts(last.body);
        return facts && facts.items > 0 && /[?&]continue=[^&]/.test(last?.path ?? '') ? done('A second page, read with the token.') : notYet('Send a list whose continue= carries the token.');
      },
    },
  ],
};
