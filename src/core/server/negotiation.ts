// Which representation a request gets: JSON, YAML, a Table, or PartialObjectMetadata(List).
import type { ApiRequest } from '../types';
import type { RequestInfo } from './requestinfo';
import type { ServedResource } from '../registry/catalog';
import type { OutputFormat } from './output';
import { badRequest } from './status';
import { JSON_OFFER, YAML_OFFER, aggregatedDiscoveryOffers, negotiate, partialMetadataOffers, tableOffers, type MediaOffer, type NegotiatedMedia } from '../codec/negotiate';

const READ_VERBS = new Set(['get', 'list', 'watch']);
const INCLUDE_OBJECT = ['None', 'Metadata', 'Object'];

export function wantsAggregatedDiscovery(accept: string | undefined): boolean {
  const n = negotiate(accept, [...aggregatedDiscoveryOffers(), JSON_OFFER]);
  return !!n?.offer.as;
}

const OFFERS_PLAIN: MediaOffer[] = [JSON_OFFER, YAML_OFFER];
const OFFERS_OBJECT: MediaOffer[] = [...OFFERS_PLAIN, ...tableOffers(), ...partialMetadataOffers(false)];
const OFFERS_LIST: MediaOffer[] = [...OFFERS_PLAIN, ...tableOffers(), ...partialMetadataOffers(true)];

/** Clients send the same few Accept headers over and over: remember what each one negotiated. */
const cache = new Map<string, NegotiatedMedia | null>();
const CACHE_LIMIT = 512;

function negotiateCached(accept: string | undefined, offers: MediaOffer[], offersName: string): NegotiatedMedia | null {
  const key = `${offersName}\u0000${accept ?? ''}`;
  let n = cache.get(key);
  if (n === undefined) {
    n = negotiate(accept, offers);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, n);
  }
  return n;
}

export function negotiateOutput(req: ApiRequest, query: URLSearchParams, r: ServedResource, info: RequestInfo): OutputFormat | null {
  // Protobuf responses arrive with the protobuf issue; until then clients that also accept JSON get JSON.
  const convertible = READ_VERBS.has(info.verb) && (!info.subresource || info.subresource === 'status');
  const n = !convertible
    ? negotiateCached(req.headers['accept'], OFFERS_PLAIN, 'plain')
    : info.verb === 'get'
      ? negotiateCached(req.headers['accept'], OFFERS_OBJECT, 'object')
      : negotiateCached(req.headers['accept'], OFFERS_LIST, 'list');
  if (!n) return null;
  const prettyParam = query.get('pretty');
  const pretty = n.pretty || prettyParam === 'true' || prettyParam === '1';
  const as = n.offer.as;
  const version = (n.offer.v === 'v1beta1' ? 'v1beta1' : 'v1') as 'v1' | 'v1beta1';
  if (as === 'Table') {
    const includeObject = query.get('includeObject') || 'Metadata';
    if (!INCLUDE_OBJECT.includes(includeObject)) {
      throw badRequest(`TableOptions.meta.k8s.io "" is invalid: includeObject: Unsupported value: ${JSON.stringify(includeObject)}: supported values: "Metadata", "None", "Object"`);
    }
    return {
      kind: 'table',
      version,
      pretty,
      contentType: n.contentType,
      includeObject: includeObject as OutputFormat['includeObject'],
      columns: r.info.custom ? (r.info.printerColumns ?? []) : undefined,
    };
  }
  if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return { kind: 'pom', version, pretty, contentType: n.contentType };
  if (n.offer.mediaType === 'application/yaml') return { kind: 'yaml', pretty, contentType: 'application/yaml' };
  return { kind: 'json', pretty, contentType: 'application/json' };
}
