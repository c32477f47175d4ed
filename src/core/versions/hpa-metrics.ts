// HPA metric shapes: the v2beta1 form (also used, with identical JSON, by the autoscaling/v1
// round-trip annotations) <-> the v2 form (== internal, v2beta2 has the same shape). Facts from
// pkg/apis/autoscaling/v2beta1/conversion.go. Go non-pointer quantities marshal as "0" when
// empty, which is why some converted values always appear.
import { type JsonObject, compact, objectAt } from './json';

const ZERO = '0';

function identifier(name: unknown, selector: unknown): JsonObject {
  return compact([['name', name], ['selector', selector]]);
}

// The helpers below live at module level rather than as closures inside the converters: these
// run once per metric on every cold read of a converted HPA.

function resourceTarget(r: JsonObject): JsonObject {
  return compact([
    ['type', r.targetAverageUtilization === undefined ? 'AverageValue' : 'Utilization'],
    ['averageValue', r.targetAverageValue],
    ['averageUtilization', r.targetAverageUtilization],
  ]);
}

function resourceCurrent(r: JsonObject): JsonObject {
  return compact([['averageValue', r.currentAverageValue ?? ZERO], ['averageUtilization', r.currentAverageUtilization]]);
}

const EMPTY: JsonObject = Object.freeze({});
const targetOf = (x: JsonObject | undefined): JsonObject => objectAt(x, 'target') ?? EMPTY;
const metricOf = (x: JsonObject | undefined): JsonObject => objectAt(x, 'metric') ?? EMPTY;
const currentOf = (x: JsonObject | undefined): JsonObject => objectAt(x, 'current') ?? EMPTY;

/** v2beta1 MetricSpec -> v2 MetricSpec. */
export function metricSpecToV2(m: JsonObject): JsonObject {
  const object = objectAt(m, 'object');
  const pods = objectAt(m, 'pods');
  const resource = objectAt(m, 'resource');
  const container = objectAt(m, 'containerResource');
  const external = objectAt(m, 'external');
  return compact([
    ['type', m.type],
    ['object', object && {
      describedObject: object.target ?? {},
      target: compact([
        ['type', object.averageValue === undefined ? 'Value' : 'AverageValue'],
        ['value', object.targetValue ?? ZERO],
        ['averageValue', object.averageValue],
      ]),
      metric: identifier(object.metricName ?? '', object.selector),
    }],
    ['pods', pods && {
      metric: identifier(pods.metricName ?? '', pods.selector),
      target: { type: 'AverageValue', averageValue: pods.targetAverageValue ?? ZERO },
    }],
    ['resource', resource && { name: resource.name ?? '', target: resourceTarget(resource) }],
    ['containerResource', container && { name: container.name ?? '', target: resourceTarget(container), container: container.container ?? '' }],
    ['external', external && {
      metric: identifier(external.metricName ?? '', external.metricSelector),
      target: compact([
        ['type', external.targetValue === undefined ? 'AverageValue' : 'Value'],
        ['value', external.targetValue],
        ['averageValue', external.targetAverageValue],
      ]),
    }],
  ]);
}

/** v2 MetricSpec -> v2beta1 MetricSpec (Go field order of the v2beta1/v1 types). */
export function metricSpecFromV2(m: JsonObject): JsonObject {
  const object = objectAt(m, 'object');
  const pods = objectAt(m, 'pods');
  const resource = objectAt(m, 'resource');
  const container = objectAt(m, 'containerResource');
  const external = objectAt(m, 'external');
  return compact([
    ['type', m.type],
    ['object', object && compact([
      ['target', object.describedObject ?? {}],
      ['metricName', metricOf(object).name ?? ''],
      ['targetValue', targetOf(object).value ?? ZERO],
      ['selector', metricOf(object).selector],
      ['averageValue', targetOf(object).averageValue],
    ])],
    ['pods', pods && compact([
      ['metricName', metricOf(pods).name ?? ''],
      ['targetAverageValue', targetOf(pods).averageValue ?? ZERO],
      ['selector', metricOf(pods).selector],
    ])],
    ['resource', resource && compact([
      ['name', resource.name ?? ''],
      ['targetAverageUtilization', targetOf(resource).averageUtilization],
      ['targetAverageValue', targetOf(resource).averageValue],
    ])],
    ['containerResource', container && compact([
      ['name', container.name ?? ''],
      ['targetAverageUtilization', targetOf(container).averageUtilization],
      ['targetAverageValue', targetOf(container).averageValue],
      ['container', container.container ?? ''],
    ])],
    ['external', external && compact([
      ['metricName', metricOf(external).name ?? ''],
      ['metricSelector', metricOf(external).selector],
      ['targetValue', targetOf(external).value],
      ['targetAverageValue', targetOf(external).averageValue],
    ])],
  ]);
}

/** v2beta1 MetricStatus -> v2 MetricStatus. */
export function metricStatusToV2(m: JsonObject): JsonObject {
  const object = objectAt(m, 'object');
  const pods = objectAt(m, 'pods');
  const resource = objectAt(m, 'resource');
  const container = objectAt(m, 'containerResource');
  const external = objectAt(m, 'external');
  return compact([
    ['type', m.type],
    ['object', object && {
      metric: identifier(object.metricName ?? '', object.selector),
      current: compact([['value', object.currentValue ?? ZERO], ['averageValue', object.averageValue]]),
      describedObject: object.target ?? {},
    }],
    ['pods', pods && {
      metric: identifier(pods.metricName ?? '', pods.selector),
      current: { averageValue: pods.currentAverageValue ?? ZERO },
    }],
    ['resource', resource && { name: resource.name ?? '', current: resourceCurrent(resource) }],
    ['containerResource', container && { name: container.name ?? '', current: resourceCurrent(container), container: container.container ?? '' }],
    ['external', external && {
      metric: identifier(external.metricName ?? '', external.metricSelector),
      current: compact([['value', external.currentValue ?? ZERO], ['averageValue', external.currentAverageValue]]),
    }],
  ]);
}

/** v2 MetricStatus -> v2beta1 MetricStatus. */
export function metricStatusFromV2(m: JsonObject): JsonObject {
  const object = objectAt(m, 'object');
  const pods = objectAt(m, 'pods');
  const resource = objectAt(m, 'resource');
  const container = objectAt(m, 'containerResource');
  const external = objectAt(m, 'external');
  return compact([
    ['type', m.type],
    ['object', object && compact([
      ['target', object.describedObject ?? {}],
      ['metricName', metricOf(object).name ?? ''],
      ['currentValue', currentOf(object).value ?? ZERO],
      ['selector', metricOf(object).selector],
      ['averageValue', currentOf(object).averageValue],
    ])],
    ['pods', pods && compact([
      ['metricName', metricOf(pods).name ?? ''],
      ['currentAverageValue', currentOf(pods).averageValue ?? ZERO],
      ['selector', metricOf(pods).selector],
    ])],
    ['resource', resource && compact([
      ['name', resource.name ?? ''],
      ['currentAverageUtilization', currentOf(resource).averageUtilization],
      ['currentAverageValue', currentOf(resource).averageValue ?? ZERO],
    ])],
    ['containerResource', container && compact([
      ['name', container.name ?? ''],
      ['currentAverageUtilization', currentOf(container).averageUtilization],
      ['currentAverageValue', currentOf(container).averageValue ?? ZERO],
      ['container', container.container ?? ''],
    ])],
    ['external', external && compact([
      ['metricName', metricOf(external).name ?? ''],
      ['metricSelector', metricOf(external).selector],
      ['currentValue', currentOf(external).value ?? ZERO],
      ['currentAverageValue', currentOf(external).averageValue],
    ])],
  ]);
}
