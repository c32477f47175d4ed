// The lessons, in the order a learner takes them. A new lesson: one file here and one line below.
import type { Lesson } from './types';
import { managedFieldsLesson } from './managed-fields';
import { firstApplyLesson } from './first-apply';
import { conflictLesson } from './conflict';
import { waysOutLesson } from './ways-out';
import { removeFieldLesson } from './remove-field';
import { updateVsApplyLesson } from './update-vs-apply';
import { listTypesLesson } from './list-types';
import { resetManagedFieldsLesson } from './reset-managed-fields';
import { concurrencyLesson } from './concurrency';
import { pagingLesson } from './paging';
import { watchesLesson } from './watches';
import { csaToSsaLesson } from './csa-to-ssa';
import { whoOwnsStatusLesson } from './who-owns-status';
import { rolloutLesson } from './rollout-steps';
import { scaleVsApplyLesson } from './scale-vs-apply';
import { hpaVsApplyLesson } from './hpa-vs-apply';

export const LESSONS: readonly Lesson[] = [
  managedFieldsLesson,
  firstApplyLesson,
  conflictLesson,
  waysOutLesson,
  removeFieldLesson,
  updateVsApplyLesson,
  listTypesLesson,
  csaToSsaLesson,
  resetManagedFieldsLesson,
  concurrencyLesson,
  watchesLesson,
  pagingLesson,
  // The cluster lessons: controllers, the scheduler and the kubelet as field managers.
  whoOwnsStatusLesson,
  rolloutLesson,
  scaleVsApplyLesson,
  hpaVsApplyLesson,
];

export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}
