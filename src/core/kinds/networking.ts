// Networking kinds: networking.k8s.io, discovery.k8s.io, and events.k8s.io's Event.
import type { KindSpec } from '../registry/kind-spec';
import { EVENTS_V1_FIELD_SET } from '../selectors/field-sets';
import { EVENTS_V1_FIELD_LABELS } from '../selectors/fields';
import { endpointSliceRules } from '../validation/endpoints';
import { eventsV1Rules } from '../validation/events-v1';
import { ingressRules } from '../validation/networking';
import { ingressClassRules } from '../validation/ingress-class';
import { networkPolicyRules } from '../validation/network-policy';
import { eventsV1Printer } from '../codec/table/printers/event';
import { endpointSlicePrinter, ingressClassPrinter, ingressPrinter, networkPolicyPrinter } from '../codec/table/printers/networking';

export const NETWORKING_KINDS: KindSpec[] = [
  { group: 'discovery.k8s.io', kind: 'EndpointSlice', tracksGeneration: true, rules: endpointSliceRules, printer: endpointSlicePrinter },
  {
    group: 'events.k8s.io',
    kind: 'Event',
    createOnUpdate: true,
    rules: eventsV1Rules,
    printer: eventsV1Printer,
    fieldSelectors: { fields: EVENTS_V1_FIELD_SET, labels: EVENTS_V1_FIELD_LABELS },
  },
  { group: 'networking.k8s.io', kind: 'IngressClass', rules: ingressClassRules, printer: ingressClassPrinter },
  { group: 'networking.k8s.io', kind: 'Ingress', tracksGeneration: true, initialStatus: () => ({ loadBalancer: {} }), rules: ingressRules, printer: ingressPrinter },
  { group: 'networking.k8s.io', kind: 'NetworkPolicy', tracksGeneration: true, rules: networkPolicyRules, printer: networkPolicyPrinter },
];
