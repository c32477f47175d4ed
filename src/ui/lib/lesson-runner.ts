// The lesson engine without React: an API handle for checks (plain fetch against the API base,
// as any client), and "put the cluster where step N starts" (the lesson's setup, then the
// requests of the steps before N, as a learner who did them would have sent them).
import type { Lesson, LessonAnswer, LessonApi, LessonRequest } from '../lessons/types';

export type Fetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<{ status: number; text(): Promise<string> }>;

export function lessonApi(apiBase: string, fetchFn: Fetch, headers: Record<string, string> = {}): LessonApi {
  const url = (path: string) => apiBase.replace(/\/$/, '') + path;
  const send = async (req: LessonRequest): Promise<LessonAnswer> => {
    const h: Record<string, string> = { Accept: 'application/json', ...headers };
    if (req.contentType) h['Content-Type'] = req.contentType;
    const res = await fetchFn(url(req.path), { method: req.method, headers: h, body: req.body });
    return { path: req.path, status: res.status, body: await res.text() };
  };
  return {
    send,
    async get(path) {
      const res = await send({ method: 'GET', path });
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.slice(0, 200)}`);
      return JSON.parse(res.body);
    },
  };
}

/** Answers a setup or replayed request may give without anything being wrong. */
const FINE = new Set([200, 201, 202, 404, 409]);

/** Puts the cluster where step `index` of the lesson starts. */
export async function prepareStep(api: LessonApi, lesson: Lesson, index: number): Promise<void> {
  const requests = [...lesson.setup, ...lesson.steps.slice(0, index).flatMap((s) => s.requests)];
  for (const req of requests) {
    const res = await api.send(req);
    if (!FINE.has(res.status)) throw new Error(`${req.method} ${req.path}: ${res.status} ${res.body.slice(0, 200)}`);
  }
}
