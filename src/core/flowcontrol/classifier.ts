// Classifies requests against the current FlowSchemas at the cost of a few array lookups. For
// each distinct user it works out once (per configuration generation) which schemas can match
// at all — those with a rule whose subjects include the user, in matching order, up to the
// first one that covers every request — so a request only checks that short list: the default
// admin (system:masters) and ordinary service accounts resolve without looking at the request.
import type { UserInfo } from '../auth/rbac/types';
import type { RequestInfo } from '../meta/requestinfo';
import type { Obj } from '../registry/objects';
import { compareFlowSchemas, coversEverything, matchesRequest, matchesSubjects, type PolicyRule } from './match';

/** The matched FlowSchema and its PriorityLevelConfiguration (names and uids). */
export interface Classification {
  flowSchema: string;
  flowSchemaUid: string;
  priorityLevel: string;
  priorityLevelUid: string;
}

interface Candidate {
  rules: PolicyRule[];
  /** One of the rules covers every request: no later schema can be reached. */
  universal: boolean;
  result: Classification;
}

interface Plan {
  generation: number;
  candidates: Candidate[];
  /** catch-all, used when nothing matches (as kube's controller falls back to it). */
  fallback: Classification | undefined;
}

/** Distinct users remembered by name and groups; more than this starts the memo afresh. */
const MAX_USERS = 1024;

export class Classifier {
  private generation = 0;
  private sorted: { fs: Obj; result: Classification }[] | undefined;
  private readonly byIdentity = new WeakMap<UserInfo, Plan>();
  private readonly byKey = new Map<string, Plan>();

  constructor(
    private readonly schemas: ReadonlyMap<string, Obj>,
    private readonly levels: ReadonlyMap<string, Obj>,
  ) {}

  /** The configuration changed: every remembered plan is stale. */
  invalidate(): void {
    this.generation++;
    this.sorted = undefined;
    this.byKey.clear();
  }

  classify(user: UserInfo, info: RequestInfo): Classification | undefined {
    let plan = this.byIdentity.get(user);
    if (plan === undefined || plan.generation !== this.generation) {
      const key = `${user.username}\n${user.groups.join('\n')}`;
      plan = this.byKey.get(key);
      if (plan === undefined) {
        plan = this.plan(user);
        if (this.byKey.size >= MAX_USERS) this.byKey.clear();
        this.byKey.set(key, plan);
      }
      this.byIdentity.set(user, plan);
    }
    for (const c of plan.candidates) {
      if (c.universal) return c.result;
      for (const rule of c.rules) if (matchesRequest(info, rule)) return c.result;
    }
    return plan.fallback;
  }

  /** Schemas whose priority level exists, in matching order (dangling ones are skipped, as kube does). */
  private usable(): { fs: Obj; result: Classification }[] {
    if (this.sorted) return this.sorted;
    const out: { fs: Obj; result: Classification }[] = [];
    for (const fs of [...this.schemas.values()].sort(compareFlowSchemas)) {
      const result = this.resultFor(fs);
      if (result) out.push({ fs, result });
    }
    return (this.sorted = out);
  }

  private resultFor(fs: Obj): Classification | undefined {
    const plName = fs.spec?.priorityLevelConfiguration?.name;
    const pl = typeof plName === 'string' ? this.levels.get(plName) : undefined;
    if (!pl) return undefined;
    return { flowSchema: fs.metadata.name, flowSchemaUid: String(fs.metadata.uid ?? ''), priorityLevel: plName, priorityLevelUid: String(pl.metadata.uid ?? '') };
  }

  private plan(user: UserInfo): Plan {
    const candidates: Candidate[] = [];
    for (const { fs, result } of this.usable()) {
      const rules = (Array.isArray(fs.spec?.rules) ? (fs.spec.rules as PolicyRule[]) : []).filter((r) => r && matchesSubjects(user, r));
      if (!rules.length) continue;
      const universal = rules.some(coversEverything);
      candidates.push({ rules, universal, result });
      if (universal) break;
    }
    const catchAll = this.schemas.get('catch-all');
    return { generation: this.generation, candidates, fallback: catchAll && this.resultFor(catchAll) };
  }
}
