// All lessons in order, each with its one-sentence summary and the learner's progress.
import { useEffect, useState } from 'react';
import { LESSONS } from '../../lessons/catalog';
import { allProgress, type LessonProgress } from '../../lib/lesson-progress';
import { formatHash } from '../../lib/routes';

export function LessonList() {
  const [progress, setProgress] = useState<Record<string, LessonProgress>>({});
  useEffect(() => void allProgress(LESSONS.map((l) => l.id)).then(setProgress), []);
  return (
    <section className="lesson-list" aria-labelledby="lessons-title">
      <h1 id="lessons-title">Lessons: field ownership by doing it</h1>
      <p>Each lesson is a few short steps. You send real requests to the API in this tab; each step checks the cluster itself to see that it is done.</p>
      <ol>
        {LESSONS.map((l) => {
          const p = progress[l.id];
          const passed = p?.passed.length ?? 0;
          const state = passed === l.steps.length ? 'Done' : passed > 0 ? `${passed} of ${l.steps.length} steps` : `${l.steps.length} steps`;
          return (
            <li key={l.id}>
              <a href={formatHash({ view: 'lesson', lesson: l.id, step: passed > 0 && passed < l.steps.length ? passed + 1 : 1 })}>{l.title}</a>
              <span className={`lesson-state ${passed === l.steps.length ? 'done' : ''}`}>{state}</span>
              <p>{l.summary}</p>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
