import { describe, expect, it } from 'vitest';
import {
  aggregatedDiscoveryOffers, negotiate, notAcceptableMessage, parseAccept, parseContentType, partialMetadataOffers, STANDARD_OFFERS, tableOffers,
  unsupportedMediaTypeMessage,
} from './negotiate';

const resourceOffers = [...STANDARD_OFFERS, ...tableOffers(), ...partialMetadataOffers(true)];

describe('parseAccept', () => {
  it('orders by q and specificity', () => {
    const cs = parseAccept('*/*;q=0.5, application/*, application/json;as=Table;v=v1;g=meta.k8s.io, text/plain;q=0.9');
    expect(cs.map((c) => `${c.type}/${c.subtype}`)).toEqual(['application/json', 'application/*', 'text/plain', '*/*']);
    expect(cs[0].params).toEqual({ as: 'Table', v: 'v1', g: 'meta.k8s.io' });
  });
});

describe('negotiate', () => {
  it('defaults to JSON', () => {
    expect(negotiate(undefined, resourceOffers)?.contentType).toBe('application/json');
    expect(negotiate('*/*', resourceOffers)?.contentType).toBe('application/json');
    expect(negotiate('application/*', resourceOffers)?.contentType).toBe('application/json');
  });
  it('picks what kubectl asks for', () => {
    expect(negotiate('application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', resourceOffers)?.contentType).toBe(
      'application/json;as=Table;v=v1;g=meta.k8s.io',
    );
    expect(negotiate('application/vnd.kubernetes.protobuf,application/json', resourceOffers)?.contentType).toBe('application/vnd.kubernetes.protobuf');
    expect(negotiate('application/yaml', resourceOffers)?.contentType).toBe('application/yaml');
    expect(negotiate('application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', resourceOffers)?.offer.as).toBe('PartialObjectMetadataList');
    expect(negotiate('application/json;pretty=1', resourceOffers)?.pretty).toBe(true);
  });
  it('falls through unknown conversions and answers null when nothing fits', () => {
    expect(negotiate('application/json;as=Foo;v=v1;g=x, application/yaml', resourceOffers)?.contentType).toBe('application/yaml');
    expect(negotiate('text/html', resourceOffers)).toBeNull();
    expect(negotiate('application/json;as=Table;v=v1;g=meta.k8s.io', STANDARD_OFFERS)).toBeNull();
    expect(negotiate('application/json;q=0', resourceOffers)).toBeNull();
    expect(notAcceptableMessage()).toBe('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    expect(unsupportedMediaTypeMessage()).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
  });
  it('serves aggregated discovery with kube parameter order', () => {
    const offers = [...aggregatedDiscoveryOffers(), { mediaType: 'application/json' }];
    expect(negotiate('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json', offers)?.contentType).toBe(
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    );
    expect(negotiate('application/json', offers)?.contentType).toBe('application/json');
  });
});

describe('parseContentType', () => {
  it('splits type and params', () => {
    expect(parseContentType('Application/JSON; charset=UTF-8')).toEqual({ type: 'application', subtype: 'json', params: { charset: 'UTF-8' } });
    expect(parseContentType('application/apply-patch+yaml')?.subtype).toBe('apply-patch+yaml');
    expect(parseContentType('garbage')).toBeNull();
    expect(parseContentType('')).toBeNull();
  });
});
