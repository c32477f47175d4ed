// Walks a request body (as an ordered JSON node tree, so repeated keys are visible) against a
// schema, collecting unknown and duplicate fields with kube's paths (`spec.containers[0].x`) and
// building the value with unknown fields dropped, as decoding into typed structs (or CRD pruning)
// does.
import { nodeToValue, type JsonNode } from '../../codec/json-scan';
import { FALLBACK_OBJECT_META } from './objectmeta';
import { OBJECT_META_DEFINITION, type SchemaContext, type SchemaNode } from './types';

export interface FieldIssue {
  kind: 'unknown' | 'duplicate';
  path: string;
  /** Which phase of the CR handler reports it (ordering only). */
  phase: 'body' | 'metadata' | 'prune' | 'embedded';
}

/** Anything goes below this node (free-form objects, preserve-unknown-fields). */
const ANY: SchemaNode = { 'x-kubernetes-preserve-unknown-fields': true };

const child = (path: string, key: string) => (path ? `${path}.${key}` : key);

export class FieldWalker {
  readonly issues: FieldIssue[] = [];
  constructor(private readonly ctx: SchemaContext) {}

  resolve(s: SchemaNode | undefined): SchemaNode | undefined {
    let cur = s;
    for (let guard = 0; cur && guard < 32; guard++) {
      if (cur.$ref) {
        const name = cur.$ref.replace(/^#\/(definitions|components\/schemas)\//, '');
        cur = this.ctx.definitions?.[name];
        continue;
      }
      // OpenAPI v3 wraps references as allOf: [{$ref}] to attach a description.
      if (!cur.properties && !cur.items && cur.allOf?.length === 1 && cur.allOf[0].$ref) {
        cur = cur.allOf[0];
        continue;
      }
      return cur;
    }
    return cur;
  }

  root(): SchemaNode | undefined {
    const r = this.ctx.root;
    return typeof r === 'string' ? this.ctx.definitions?.[r] : r;
  }

  private objectMeta(): SchemaNode {
    return this.ctx.definitions?.[OBJECT_META_DEFINITION] ?? FALLBACK_OBJECT_META;
  }

  /** Walk the whole body; returns the value without unknown fields. */
  walkRoot(node: JsonNode): unknown {
    return this.walk(node, this.root(), '', 'body', this.ctx.custom === true);
  }

  private report(kind: FieldIssue['kind'], path: string, phase: FieldIssue['phase']): void {
    this.issues.push({ kind, path, phase });
  }

  private walk(node: JsonNode, schemaIn: SchemaNode | undefined, path: string, phase: FieldIssue['phase'], resourceRoot: boolean): unknown {
    const schema = this.resolve(schemaIn);
    if (node.kind === 'scalar') return node.value;
    if (node.kind === 'array') {
      const items = schema && schema !== ANY && !schema['x-kubernetes-preserve-unknown-fields'] ? schema.items : ANY;
      return node.items.map((n, i) => this.walk(n, items ?? ANY, `${path}[${i}]`, phase, false));
    }
    const out: Record<string, unknown> = {};
    const custom = this.ctx.custom === true;
    const preserve = !schema || schema['x-kubernetes-preserve-unknown-fields'] === true;
    const props = schema?.properties;
    const addl = schema?.additionalProperties;
    // Typed kinds treat an object schema without fields as free-form (RawExtension, FieldsV1);
    // structural CRD schemas prune everything below a bare `type: object`.
    const freeForm = preserve || addl === true || (!custom && !props && addl === undefined);
    const embedded = resourceRoot || schema?.['x-kubernetes-embedded-resource'] === true;
    for (const e of node.entries) {
      const p = child(path, e.key);
      let sub: SchemaNode | undefined;
      let subPhase = phase;
      if (custom && embedded && (e.key === 'apiVersion' || e.key === 'kind')) sub = { type: 'string' };
      else if (custom && embedded && e.key === 'metadata') {
        sub = this.objectMeta();
        subPhase = resourceRoot ? 'metadata' : 'embedded';
      } else if (props && Object.prototype.hasOwnProperty.call(props, e.key)) sub = props[e.key];
      else if (addl && typeof addl === 'object') sub = addl;
      else if (freeForm) sub = ANY;
      if (!sub) {
        // Typed decoding reports a repeated unknown field once, as unknown; the CR handler's
        // JSON pass reports it as a duplicate too.
        if (e.duplicate && custom) this.report('duplicate', p, 'body');
        this.report('unknown', p, custom && phase === 'body' ? 'prune' : phase);
        continue;
      }
      if (e.duplicate) this.report('duplicate', p, 'body');
      const v = this.walk(e.value, sub, p, subPhase, false);
      Object.defineProperty(out, e.key, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
}

/** A JSON node's plain value, for callers that skip validation. */
export { nodeToValue };
