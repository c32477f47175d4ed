// One lesson, one step at a time: the prose, the request(s) to send (editable), the kubectl
// command that does the same, the step's check (read from the API), a hint, "Reset this step",
// and the way on. Progress is kept in IndexedDB.
import { useEffect, useMemo, useState } from 'react';
import { lessonById, LESSONS } from '../../lessons/catalog';
import type { LessonAnswer, LessonRequest } from '../../lessons/types';
import { lessonApi, prepareStep } from '../../lib/lesson-runner';
import { loadProgress, saveProgress, type LessonProgress } from '../../lib/lesson-progress';
import { formatHash } from '../../lib/routes';
import { LessonApiSettings } from './LessonApiSettings';
import { Prose } from './Prose';
import { RequestCard } from './RequestCard';
import { useStepCheck } from './use-step-check';

export interface LessonViewProps {
  apiBase: string;
  lessonId: string;
  /** 1-based, as in the URL. */
  step: number;
  headers: Record<string, string>;
}

export function LessonView({ apiBase, lessonId, step, headers }: LessonViewProps) {
  const lesson = lessonById(lessonId);
  if (!lesson) return <p role="alert">There is no lesson “{lessonId}”. <a href="#/learn">All lessons</a></p>;
  const index = Math.min(step, lesson.steps.length) - 1;
  return <LessonStepView key={`${lessonId}/${index}`} apiBase={apiBase} lessonId={lessonId} index={index} headers={headers} />;
}

function LessonStepView({ apiBase, lessonId, index, headers }: { apiBase: string; lessonId: string; index: number; headers: Record<string, string> }) {
  const lesson = lessonById(lessonId)!;
  const step = lesson.steps[index]!;
  const base = apiBase.replace(/\/$/, '');
  const headerKey = JSON.stringify(headers);
  const api = useMemo(() => lessonApi(base, (url, init) => fetch(url, init), headers), [base, headerKey]);
  const { check, recheck } = useStepCheck(api, base, step, headers);
  const [answers, setAnswers] = useState<Record<number, LessonAnswer>>({});
  const [showHint, setShowHint] = useState(false);
  const [resetting, setResetting] = useState<'idle' | 'busy' | 'failed'>('idle');
  const [progress, setProgress] = useState<LessonProgress>({ passed: [], current: index });
  const isDone = check.state === 'checked' && check.done;
  const next = lesson.steps.length > index + 1 ? formatHash({ view: 'lesson', lesson: lesson.id, step: index + 2 }) : undefined;
  const nextLesson = LESSONS[LESSONS.findIndex((l) => l.id === lesson.id) + 1];

  const [preparing, setPreparing] = useState(false);
  useEffect(() => {
    void loadProgress(lesson.id).then(async (p) => {
      const updated = { ...p, current: index };
      setProgress(updated);
      void saveProgress(lesson.id, updated);
      // A lesson not yet begun starts from its setup (say, alice's apply that the learner's
      // request will conflict with); a learner coming back to a step keeps the cluster as it is.
      if (index === 0 && !p.passed.includes(0)) {
        setPreparing(true);
        await prepareStep(api, lesson, 0).catch(() => setResetting('failed'));
        setPreparing(false);
        recheck();
      }
    });
  }, [lesson.id, index]);
  useEffect(() => {
    if (!isDone || progress.passed.includes(index)) return;
    const updated = { ...progress, passed: [...progress.passed, index].sort((a, b) => a - b) };
    setProgress(updated);
    void saveProgress(lesson.id, updated);
  }, [isDone]);
  // A failed check after the learner sent something shows the hint without being asked.
  const sentSomething = Object.keys(answers).length > 0;

  const send = async (i: number, req: LessonRequest) => {
    const answer = await api.send(req);
    setAnswers((a) => ({ ...a, [i]: answer }));
    recheck(answer);
  };
  const reset = async () => {
    setResetting('busy');
    try {
      await prepareStep(api, lesson, index);
      setAnswers({});
      setShowHint(false);
      setResetting('idle');
      recheck();
    } catch {
      setResetting('failed');
    }
  };

  return (
    <article className="lesson" aria-labelledby="lesson-title">
      <p className="crumbs">
        <a href="#/learn">Lessons</a> › {lesson.title}
      </p>
      <h1 id="lesson-title">{lesson.title}</h1>
      <ol className="step-dots" aria-label="Steps">
        {lesson.steps.map((s, i) => (
          <li key={s.title} className={`${i === index ? 'current' : ''} ${progress.passed.includes(i) ? 'passed' : ''}`}>
            <a href={formatHash({ view: 'lesson', lesson: lesson.id, step: i + 1 })} aria-current={i === index ? 'step' : undefined}>
              {progress.passed.includes(i) ? '✓ ' : ''}
              {i + 1}. {s.title}
            </a>
          </li>
        ))}
      </ol>
      <LessonApiSettings apiBase={apiBase} lesson={lesson} />
      <h2>
        Step {index + 1} of {lesson.steps.length}: {step.title}
      </h2>
      <Prose text={step.text} />
      {step.requests.map((r, i) => (
        <RequestCard key={i} request={r} index={i} answer={answers[i]} onSend={(req) => send(i, req)} />
      ))}
      <div className={`step-check ${isDone ? 'done' : 'pending'}`} role="status" aria-live="polite" data-testid="step-check">
        {preparing ? 'Preparing the cluster for this lesson…' : check.state === 'checking' ? 'Checking…' : isDone ? `✓ Done. ${check.message ?? ''}` : `Not yet: ${check.message}`}
      </div>
      {(showHint || (sentSomething && check.state === 'checked' && !check.done)) && (
        <p className="hint" data-testid="hint">
          Hint: {step.hint}
        </p>
      )}
      {lesson.object && (
        <p className="see-object">
          <a href={`#${lesson.object}`} target="_blank" rel="noopener">
            Open the object in a new tab: every line with its owners, live
          </a>
        </p>
      )}
      <div className="lesson-actions">
        <button type="button" onClick={() => setShowHint(true)}>
          Hint
        </button>
        <button type="button" onClick={() => void reset()} disabled={resetting === 'busy'}>
          Reset this step
        </button>
        {resetting === 'failed' && <span role="alert">The reset could not be completed; try again.</span>}
        {next ? (
          <a className={`button primary ${isDone ? '' : 'disabled'}`} href={next} aria-disabled={!isDone}>
            Next step
          </a>
        ) : nextLesson ? (
          <a className={`button primary ${isDone ? '' : 'disabled'}`} href={formatHash({ view: 'lesson', lesson: nextLesson.id, step: 1 })} aria-disabled={!isDone}>
            Next lesson: {nextLesson.title}
          </a>
        ) : (
          <a className="button primary" href="#/learn">
            All lessons
          </a>
        )}
      </div>
      <div className="kubectl-equivalent">
        <span>The same with kubectl:</span>
        <pre>
          <code>{step.kubectl}</code>
        </pre>
      </div>
    </article>
  );
}
