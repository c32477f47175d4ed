// Which representation a request gets: JSON, YAML, a Table, or PartialObjectMetadata(List).
import type { ApiRequest } from '../types';
import type { RequestInfo } from './requestinfo';
import type { ServedResource } from '../registry/catalog';
import type { OutputFormat } from './output';
import { badRequest } from './status';
import { JSON_OFFER, YAML_OFFER, aggregatedDiscoveryOffers, negotiate, partialMetadataOffers, tableOffers, type MediaOffer } from '../codec/negotiate';

const READ_VERBS = new Set(['get', 'list', 'watch']);
const INCLUDE_OBJECT = ['None', 'Metadata', 'Object'];

export function wantsAggregatedDiscovery(accept: string | undefined): boolean {
  const n = negotiate(accept, [...aggregatedDiscoveryOffers(), JSON_OFFER]);
  return !!n?.offer.as;
}

export function negotiateOutput(req: ApiRequest, query: URLSearchParams, r: ServedResource, info: RequestInfo): OutputFormat | null {
  // Protobuf responses arrive with the protobuf issue; until then clients that also accept JSON get JSON.
  const offers: MediaOffer[] = [JSON_OFFER, YAML_OFFER];
  const convertible = READ_VERBS.has(info.verb) && (!info.subresource || info.subresource === 'status');
  if (convertible) offers.push(...tableOffers(), ...partialMetadataOffers(info.verb !== 'get'));
  const n = negotiate(req.headers['accept'], offers);
  if (!n) return null;
  const pretty = n.pretty || query.get('pretty') === 'true' || query.get('pretty') === '1';
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
