// Runs a lesson step's check against the API: once when the step opens, after each request the
// learner sends, and on every event of a watch on the step's collection, so a change made
// anywhere (kubectl, another tab) moves the step too. Never reads the page's own state.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CheckResult, LessonAnswer, LessonApi, LessonStep } from '../../lessons/types';

export type CheckState = { state: 'checking' } | ({ state: 'checked' } & CheckResult);

export function useStepCheck(api: LessonApi, apiBase: string, step: LessonStep, headers: Record<string, string>): { check: CheckState; recheck(last?: LessonAnswer): void; last?: LessonAnswer } {
  const [check, setCheck] = useState<CheckState>({ state: 'checking' });
  const lastAnswer = useRef<LessonAnswer | undefined>(undefined);
  const [last, setLast] = useState<LessonAnswer>();
  const run = useRef(0);
  const recheck = useCallback(
    (answer?: LessonAnswer) => {
      if (answer) {
        lastAnswer.current = answer;
        setLast(answer);
      }
      const mine = ++run.current;
      step.check(api, lastAnswer.current).then(
        (r) => mine === run.current && setCheck({ state: 'checked', ...r }),
        (e: Error) => mine === run.current && setCheck({ state: 'checked', done: false, message: `The check could not read the API: ${e.message}` }),
      );
    },
    [api, step],
  );
  useEffect(() => {
    lastAnswer.current = undefined;
    setLast(undefined);
    setCheck({ state: 'checking' });
    recheck();
    const controller = new AbortController();
    void followWatch(apiBase + step.watch, headers, controller.signal, () => recheck());
    return () => controller.abort();
  }, [step, recheck]);
  return { check, recheck, last };
}

/** Calls onEvent for every chunk a watch of `url` sends, reconnecting until aborted. */
async function followWatch(url: string, headers: Record<string, string>, signal: AbortSignal, onEvent: () => void): Promise<void> {
  while (!signal.aborted) {
    try {
      const res = await fetch(`${url}${url.includes('?') ? '&' : '?'}watch=1&allowWatchBookmarks=false`, { headers: { Accept: 'application/json', ...headers }, signal });
      const reader = res.body?.getReader();
      if (!reader) return;
      for (;;) {
        const { done } = await reader.read();
        if (done) break;
        onEvent();
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
