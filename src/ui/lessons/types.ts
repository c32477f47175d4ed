// What a lesson is: data, not components. A lesson is a few steps; each step says what to do in
// short prose, shows the exact HTTP request (which the learner may edit and send from the page)
// and the kubectl command that does the same, and carries a check that reads the API — never the
// page's own state — to tell whether the step is done. Adding a lesson is one file in this folder
// and one line in ./catalog.ts.

/** One HTTP request as a learner would send it: the page sends exactly this. */
export interface LessonRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query below the API's base, e.g. `/api/v1/namespaces/ssa/configmaps/demo?fieldManager=alice`. */
  path: string;
  contentType?: string;
  /** The body as text (YAML for apply, JSON otherwise); the learner can edit it before sending. */
  body?: string;
}

/** The API's answer to a request the learner sent, with the path it was sent to. */
export interface LessonAnswer {
  path: string;
  status: number;
  body: string;
}

/** What a check can ask the API (over HTTP, like any client). */
export interface LessonApi {
  /** GET a path; undefined for a 404. */
  get<T = KubeObject>(path: string): Promise<T | undefined>;
  send(request: LessonRequest): Promise<LessonAnswer>;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
    managedFields?: ManagedFieldsEntry[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** A check's verdict: done, or not yet with what is still missing (shown to the learner). */
export type CheckResult = { done: true; message?: string } | { done: false; message: string };

export interface LessonStep {
  title: string;
  /** Short prose; paragraphs separated by a blank line; `code` in backticks. */
  text: string;
  /** The request(s) of this step, in order; the first is editable in the page. */
  requests: LessonRequest[];
  /** The kubectl command that does the same from a terminal. */
  kubectl: string;
  /** Said when the learner asks, or when a check fails after sending. */
  hint: string;
  /** The collection whose watch re-runs the check (the check runs on every event it sees). */
  watch: string;
  /**
   * Reads the API and says whether the step is done. `last` is the API's answer to the learner's
   * most recent request in this step (a refusal such as a 409 leaves nothing to read back).
   */
  check(api: LessonApi, last?: LessonAnswer): Promise<CheckResult>;
}

export interface Lesson {
  id: string;
  title: string;
  /** One sentence for the lesson list. */
  summary: string;
  /** The API path of the object the lesson works on, linked so the learner can see its owners. */
  object?: string;
  /**
   * The lesson needs the simulated cluster (controllers, scheduler, kubelets) and may use the
   * playground's clock endpoint (`/__playground/clock`); the tests run it with both.
   */
  cluster?: boolean;
  /**
   * Requests that put the cluster where step 1 starts. "Reset this step" runs them, then the
   * requests of every earlier step, so a step can always be tried again from its start. A 404 or
   * 409 answer to a setup request is fine (deleting what is not there, creating what is).
   */
  setup: LessonRequest[];
  steps: LessonStep[];
  /**
   * API server settings the lesson needs, as kube-apiserver's flags spell them (the page offers
   * to apply them: a restart of the API, objects kept). A short `--history-window` lets a
   * learner see a watch's resourceVersion expire within the lesson.
   */
  apiSettings?: { historyWindow: string };
}
