// Which representation a request gets: JSON, YAML, a Table, or PartialObjectMetadata(List).
import type { ApiRequest } from '../meta/types';
import type { RequestInfo } from '../meta/requestinfo';
import type { ServedResource } from '../registry/catalog';
import type { OutputFormat } from '../meta/output';
import { badRequest } from '../meta/status';
import { JSON_OFFER, PROTOBUF_OFFER, YAML_OFFER, aggregatedDiscoveryOffers, negotiate, partialMetadataOffers, tableOffers, type MediaOffer, type NegotiatedMedia } from '../codec/negotiate';
import { isPrettyPrint } from './pretty';

const READ_VERBS = new Set(['get', 'list', 'watch']);
const INCLUDE_OBJECT = ['None', 'Metadata', 'Object'];

export function wantsAggregatedDiscovery(accept: string | undefined): boolean {
  const n = negotiate(accept, [...aggregatedDiscoveryOffers(), JSON_OFFER]);
  return !!n?.offer.as;
}

// Table is served as JSON only (it has no protobuf message); PartialObjectMetadata in both.
const jsonOnly = (offers: MediaOffer[]) => offers.filter((o) => o.mediaType === 'application/json');
const OFFERS_PLAIN: MediaOffer[] = [JSON_OFFER, YAML_OFFER];
const OFFERS_PLAIN_PB: MediaOffer[] = [JSON_OFFER, YAML_OFFER, PROTOBUF_OFFER];
const CONVERSIONS_OBJECT = [...jsonOnly(tableOffers()), ...partialMetadataOffers(false)];
const CONVERSIONS_LIST = [...jsonOnly(tableOffers()), ...partialMetadataOffers(true)];
const OFFER_SETS: Record<string, MediaOffer[]> = {
  plain: OFFERS_PLAIN,
  'plain+pb': OFFERS_PLAIN_PB,
  object: [...OFFERS_PLAIN, ...CONVERSIONS_OBJECT],
  'object+pb': [...OFFERS_PLAIN_PB, ...CONVERSIONS_OBJECT],
  list: [...OFFERS_PLAIN, ...CONVERSIONS_LIST],
  'list+pb': [...OFFERS_PLAIN_PB, ...CONVERSIONS_LIST],
};

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
  // Protobuf for built-in kinds only: custom resources have no protobuf form (a protobuf-only client gets 406).
  const convertible = READ_VERBS.has(info.verb) && (!info.subresource || info.subresource === 'status');
  const base = !convertible ? 'plain' : info.verb === 'get' ? 'object' : 'list';
  const set = r.info.custom ? base : `${base}+pb`;
  const n = negotiateCached(req.headers['accept'], OFFER_SETS[set], set);
  if (!n) return null;
  const pretty = n.pretty || isPrettyPrint(req, query);
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
  if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') {
    return { kind: 'pom', version, pretty, contentType: n.contentType, protobuf: n.offer.mediaType === PROTOBUF_OFFER.mediaType };
  }
  if (n.offer.mediaType === 'application/yaml') return { kind: 'yaml', pretty, contentType: 'application/yaml' };
  if (n.offer.mediaType === PROTOBUF_OFFER.mediaType) return { kind: 'protobuf', contentType: PROTOBUF_OFFER.mediaType };
  return { kind: 'json', pretty, contentType: 'application/json' };
}
