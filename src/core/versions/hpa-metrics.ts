// HPA metric shapes: the v2beta1 form (also used, with identical JSON, by the autoscaling/v1
// round-trip annotations) <-> the v2 form (== internal, v2beta2 has the same shape). Facts from
// pkg/apis/autoscaling/v2beta1/conversion.go. Go non-pointer quantities marshal as "0" when
// empty, which is why some converted values always appear.
import { type JsonObject, compact, objectAt } from './json';

const ZERO = '0';

function identifier(name: unknown, selector: unknown): JsonObject {
  return compact([['name', name], ['selector', selector]]);
}

/** v2beta1 MetricSpec -> v2 MetricSpec. */
export function metricSpecToV2(m: JsonObject): JsonObject {
  const object = objectAt(m, 'object');
  const pods = objectAt(m, 'pods');
  const resource = objectAt(m, 'resource');
  const container = objectAt(m, 'containerResource');
  const external = objectAt(m, 'external');
  const resourceTarget = (r: JsonObject) =>
    compact([
      ['type', r.targetAverageUtilization === undefined ? 'AverageValue' : 'Utilization'],
      ['averageValue', r.targetAverageValue],
      ['averageUtilization', r.targetAverageUtilization],
    ]);
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
  const target = (x: JsonObject | undefined) => objectAt(x, 'target') ?? {};
  const metric = (x: JsonObject | undefined) => objectAt(x, 'metric') ?? {};
  return compact([
    ['type', m.type],
    ['object', object && compact([
      ['target', object.describedObject ?? {}],
      ['metricName', metric(object).name ?? ''],
      ['targetValue', target(object).value ?? ZERO],
      ['selector', metric(object).selector],
      ['averageValue', target(object).averageValue],
    ])],
    ['pods', pods && compact([
      ['metricName', metric(pods).name ?? ''],
      ['targetAverageValue', target(pods).averageValue ?? ZERO],
      ['selector', metric(pods).selector],
    ])],
    ['resource', resource && compact([
      ['name', resource.name ?? ''],
      ['targetAverageUtilization', target(resource).averageUtilization],
      ['targetAverageValue', target(resource).averageValue],
    ])],
    ['containerResource', container && compact([
      ['name', container.name ?? ''],
      ['targetAverageUtilization', target(container).averageUtilization],
      ['targetAverageValue', target(container).averageValue],
      ['container', container.container ?? ''],
    ])],
    ['external', external && compact([
      ['metricName', metric(external).name ?? ''],
      ['metricSelector', metric(external).selector],
      ['targetValue', target(external).value],
      ['targetAverageValue', target(external).averageValue],
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
  const resourceCurrent = (r: JsonObject) =>
    compact([['averageValue', r.currentAverageValue ?? ZERO], ['averageUtilization', r.currentAverageUtilization]]);
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
  const current = (x: JsonObject | undefined) => objectAt(x, 'current') ?? {};
  const metric = (x: JsonObject | undefined) => objectAt(x, 'metric') ?? {};
  return compact([
    ['type', m.type],
    ['object', object && compact([
      ['target', object.describedObject ?? {}],
      ['metricName', metric(object).name ?? ''],
      ['currentValue', current(object).value ?? ZERO],
      ['selector', metric(object).selector],
      ['averageValue', current(object).averageValue],
    ])],
    ['pods', pods && compact([
      ['metricName', metric(pods).name ?? ''],
      ['currentAverageValue', current(pods).averageValue ?? ZERO],
      ['selector', metric(pods).selector],
    ])],
    ['resource', resource && compact([
      ['name', resource.name ?? ''],
      ['currentAverageUtilization', current(resource).averageUtilization],
      ['currentAverageValue', current(resource).averageValue ?? ZERO],
    ])],
    ['containerResource', container && compact([
      ['name', container.name ?? ''],
      ['currentAverageUtilization', current(container).averageUtilization],
      ['currentAverageValue', current(container).averageValue ?? ZERO],
      ['container', container.container ?? ''],
    ])],
    ['external', external && compact([
      ['metricName', metric(external).name ?? ''],
      ['metricSelector', metric(external).selector],
      ['currentValue', current(external).value ?? ZERO],
      ['currentAverageValue', current(external).averageValue],
    ])],
  ]);
}
