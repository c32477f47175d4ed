// A list/watch predicate from labelSelector and fieldSelector (SelectionPredicate's idea):
// objects are only parsed when a selector needs their content, and a bare metadata.name
// selector is answered from the key alone.
import type { KV } from '../storage/types';
import type { ServedResource } from './catalog';
import { badRequest } from '../meta/status';
import { isEverything, matchesLabels, parseLabelSelector, type LabelSelector } from '../selectors/labels';
import { convertFieldSelector, matchesFields, parseFieldSelector, type FieldSelector } from '../selectors/fields';
import { fieldsFor } from '../selectors/field-sets';

export interface Predicate {
  /** No selector at all: every object matches (and counts are exact). */
  empty: boolean;
  filter?: (kv: KV) => boolean;
  /** Does this stored object text match? */
  matchText(text: string): boolean;
}

const EVERYTHING: Predicate = { empty: true, matchText: () => true };

export function makePredicate(r: ServedResource, query: URLSearchParams, nameFromPath?: string): Predicate {
  let labels: LabelSelector | undefined;
  let fields: FieldSelector | undefined;
  const ls = query.get('labelSelector');
  if (ls) {
    try {
      labels = parseLabelSelector(ls);
    } catch (err) {
      throw badRequest((err as Error).message);
    }
    if (isEverything(labels)) labels = undefined;
  }
  let fs = query.get('fieldSelector') ?? '';
  if (nameFromPath) fs = fs ? `${fs},metadata.name=${nameFromPath}` : `metadata.name=${nameFromPath}`;
  if (fs) {
    try {
      fields = convertFieldSelector(parseFieldSelector(fs), { convertLabel: r.spec?.fieldSelectors?.labels, custom: r.info.custom, namespaced: r.info.namespaced });
    } catch (err) {
      throw badRequest((err as Error).message);
    }
    if (fields.requirements.length === 0) fields = undefined;
  }
  if (!labels && !fields) return EVERYTHING;
  if (labels?.nothing) return { empty: false, filter: () => false, matchText: () => false };
  // metadata.name=<x> alone: compare the key's last segment, no parse.
  const nameOnly = !labels && fields && fields.requirements.length === 1 && fields.requirements[0].field === 'metadata.name' && fields.requirements[0].operator === '=' ? fields.requirements[0].value : undefined;
  const matchObj = (obj: any): boolean => {
    if (labels && !matchesLabels(labels, obj?.metadata?.labels)) return false;
    if (fields && !matchesFields(fields, fieldsFor(r.spec?.fieldSelectors?.fields, obj, r.info.namespaced))) return false;
    return true;
  };
  const matchText = (text: string): boolean => matchObj(JSON.parse(text));
  const filter =
    nameOnly !== undefined
      ? (kv: KV) => kv.key.endsWith(`/${nameOnly}`)
      : (kv: KV) => matchText(kv.value);
  return { empty: false, filter, matchText };
}
