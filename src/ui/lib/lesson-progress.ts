// A learner's progress through the lessons, kept in IndexedDB so it survives reloads and works
// offline: per lesson, the steps whose checks passed and the step last open.
import { openDB, type IDBPDatabase } from 'idb';

export interface LessonProgress {
  passed: number[];
  current: number;
}

const DB = 'kube-playground-learner';
const STORE = 'progress';
let db: Promise<IDBPDatabase> | undefined;

function open(): Promise<IDBPDatabase> {
  return (db ??= openDB(DB, 1, { upgrade: (d) => void d.createObjectStore(STORE) }));
}

export async function loadProgress(lessonId: string): Promise<LessonProgress> {
  try {
    const got = (await (await open()).get(STORE, lessonId)) as LessonProgress | undefined;
    return got ?? { passed: [], current: 0 };
  } catch {
    // A browser without IndexedDB (a private window may refuse it): progress lives in the page only.
    return { passed: [], current: 0 };
  }
}

export async function saveProgress(lessonId: string, progress: LessonProgress): Promise<void> {
  try {
    await (await open()).put(STORE, progress, lessonId);
  } catch {
    /* see loadProgress */
  }
}

export async function allProgress(ids: readonly string[]): Promise<Record<string, LessonProgress>> {
  const out: Record<string, LessonProgress> = Object.create(null);
  for (const id of ids) out[id] = await loadProgress(id);
  return out;
}
