// batch/v1 Job and CronJob (batch/v1 defaults, the Job registry's selector generation and
// pkg/apis/batch/validation, v1.23).
import { cronScheduleError } from './cron';
import { type FieldError, invalid, nonNegative, notSupported, required } from './errors';
import { goLabelSelector, goStringMap } from './gofmt';
import type { KindRules } from './kind-rules';
import { selectorIsValid, selectorMatches, validateImmutable, validateLabelSelector } from './meta';
import { defaultPodTemplate } from './pod-defaults';
import { validatePodTemplateSpec } from './pod-validation';

type Obj = Record<string, any>;
const MAX_INDEXED_PARALLELISM = 100000;

function obj(parent: Obj, k: string): Obj {
  return parent[k] && typeof parent[k] === 'object' ? parent[k] : (parent[k] = {});
}

/**
 * generateSelector: unless manualSelector is true, the template gets `controller-uid` and
 * `job-name` labels and the selector matches `controller-uid=<uid>` (uid must already be set).
 */
function generateSelector(job: Obj): void {
  const spec = obj(job, 'spec');
  if (spec.manualSelector === true) return;
  const uid = String(job.metadata?.uid ?? '');
  const template = obj(spec, 'template');
  const tmeta = obj(template, 'metadata');
  const labels = obj(tmeta, 'labels');
  if (!('controller-uid' in labels)) labels['controller-uid'] = uid;
  if (!('job-name' in labels)) labels['job-name'] = String(job.metadata?.name ?? '');
  const sel = obj(spec, 'selector');
  const ml = obj(sel, 'matchLabels');
  if (!('controller-uid' in ml)) ml['controller-uid'] = uid;
}

function jobDefaults(job: Obj): void {
  const spec = obj(job, 'spec');
  if ((spec.completions ?? null) === null && (spec.parallelism ?? null) === null) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  defaultPodTemplate(spec.template);
  generateSelector(job);
  // SetDefaults_Job: a Job without labels takes its template's (read back from storage, so the
  // generated controller-uid/job-name labels show up on the Job as well).
  const meta = obj(job, 'metadata');
  const tl = spec.template?.metadata?.labels;
  if (tl && (!meta.labels || Object.keys(meta.labels).length === 0)) meta.labels = { ...tl };
}

/** validateJobSpec: counts, completion mode, template, and the restart policy Jobs allow. */
function validateJobSpec(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...nonNegative(spec.parallelism, `${path}.parallelism`));
  errs.push(...nonNegative(spec.completions, `${path}.completions`));
  errs.push(...nonNegative(spec.activeDeadlineSeconds, `${path}.activeDeadlineSeconds`));
  errs.push(...nonNegative(spec.backoffLimit, `${path}.backoffLimit`));
  errs.push(...nonNegative(spec.ttlSecondsAfterFinished, `${path}.ttlSecondsAfterFinished`));
  if (spec.completionMode !== undefined && spec.completionMode !== null) {
    if (spec.completionMode !== 'NonIndexed' && spec.completionMode !== 'Indexed') {
      errs.push(notSupported(`${path}.completionMode`, spec.completionMode, ['NonIndexed', 'Indexed']));
    }
    if (spec.completionMode === 'Indexed') {
      if (spec.completions === undefined || spec.completions === null) errs.push(required(`${path}.completions`, 'when completion mode is Indexed'));
      if (typeof spec.parallelism === 'number' && spec.parallelism > MAX_INDEXED_PARALLELISM) {
        errs.push(invalid(`${path}.parallelism`, spec.parallelism, `must be less than or equal to ${MAX_INDEXED_PARALLELISM} when completion mode is Indexed`));
      }
    }
  }
  errs.push(...validatePodTemplateSpec(spec.template, `${path}.template`));
  const rp = spec.template?.spec?.restartPolicy ?? '';
  const rpPath = `${path}.template.spec.restartPolicy`;
  if (rp === 'Always' || rp === '') errs.push(required(rpPath, 'valid values: "OnFailure", "Never"'));
  else if (rp !== 'OnFailure' && rp !== 'Never') errs.push(notSupported(rpPath, rp, ['OnFailure', 'Never']));
  return errs;
}

function validateJob(job: Obj): FieldError[] {
  const spec: Obj = job.spec ?? {};
  const errs: FieldError[] = [];
  // ValidateGeneratedSelector: the selector must be exactly the generated one.
  if (spec.manualSelector !== true && spec.selector) {
    const uid = String(job.metadata?.uid ?? '');
    const labels = spec.template?.metadata?.labels ?? {};
    if (labels['controller-uid'] !== uid) {
      errs.push(invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`', goStringMap(labels)));
    }
    const ml = spec.selector.matchLabels ?? {};
    if (ml['controller-uid'] !== uid || Object.keys(ml).length !== 1 || (spec.selector.matchExpressions ?? []).length > 0) {
      errs.push(invalid('spec.selector', spec.selector, '`selector` not auto-generated', goLabelSelector(spec.selector)));
    }
  }
  errs.push(...validateJobSpec(spec, 'spec'));
  if (!spec.selector) errs.push(required('spec.selector'));
  else errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  if (spec.selector && selectorIsValid(spec.selector)) {
    const labels = spec.template?.metadata?.labels;
    if (!selectorMatches(spec.selector, labels)) {
      errs.push(invalid('spec.template.metadata.labels', labels ?? null, '`selector` does not match template `labels`', goStringMap(labels)));
    }
  }
  return errs;
}

function validateJobUpdate(job: Obj, old: Obj): FieldError[] {
  const spec: Obj = job.spec ?? {};
  const o: Obj = old?.spec ?? {};
  return [
    ...validateJob(job),
    ...validateImmutable(spec.completions, o.completions, 'spec.completions'),
    ...validateImmutable(spec.selector, o.selector, 'spec.selector', goLabelSelector(spec.selector)),
    ...validateImmutable(spec.template, o.template, 'spec.template'),
    ...validateImmutable(spec.completionMode, o.completionMode, 'spec.completionMode'),
  ];
}

export const jobRules: KindRules = { defaults: jobDefaults, validateCreate: validateJob, validateUpdate: validateJobUpdate };

// ---- CronJob ----

function cronJobDefaults(cj: Obj): void {
  const spec = obj(cj, 'spec');
  if (!spec.concurrencyPolicy) spec.concurrencyPolicy = 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  defaultPodTemplate(spec.jobTemplate?.spec?.template);
}

function validateCronJob(cj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const name = String(cj.metadata?.name ?? '');
  // Job names get an 11-character suffix, so CronJob names stop at 52.
  if (name.length > 52) errs.push(invalid('metadata.name', name, 'must be no more than 52 characters'));
  const spec: Obj = cj.spec ?? {};
  if (!spec.schedule) errs.push(required('spec.schedule'));
  else {
    const msg = cronScheduleError(String(spec.schedule));
    if (msg) errs.push(invalid('spec.schedule', spec.schedule, msg));
  }
  errs.push(...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  const cp = spec.concurrencyPolicy ?? '';
  if (cp === '') errs.push(required('spec.concurrencyPolicy'));
  else if (!['Allow', 'Forbid', 'Replace'].includes(cp)) errs.push(notSupported('spec.concurrencyPolicy', cp, ['Allow', 'Forbid', 'Replace']));
  const jt: Obj = spec.jobTemplate ?? {};
  errs.push(...validateJobSpec(jt.spec ?? {}, 'spec.jobTemplate.spec'));
  if (jt.spec?.selector) errs.push(invalid('spec.jobTemplate.spec.selector', jt.spec.selector, '`selector` will be auto-generated', goLabelSelector(jt.spec.selector)));
  if (jt.spec?.manualSelector === true) errs.push(notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  errs.push(...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errs.push(...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errs;
}

export const cronJobRules: KindRules = { defaults: cronJobDefaults, validateCreate: validateCronJob, validateUpdate: validateCronJob };
