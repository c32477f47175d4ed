// A CustomResourceDefinition as large as the biggest real ones (operators that embed a pod
// template with every field's documentation): its schema is generated, not committed, and comes
// out over 256 KB, so client-side `kubectl apply` cannot fit it in the last-applied annotation.
import { stringify } from 'yaml';

const SENTENCE =
  'This field is documented the way generated API references document every field: what it means, what the operator does with it, which values are accepted, and what happens when it is left out.';

/** One documented leaf field, typed in turn as a string, an integer, a boolean or a quantity. */
function leaf(section: number, field: number): Record<string, unknown> {
  const description = `Field ${field} of section ${section}. ${SENTENCE} ${SENTENCE}`;
  switch (field % 4) {
    case 0:
      return { description, type: 'string' };
    case 1:
      return { description, format: 'int32', type: 'integer' };
    case 2:
      return { description, type: 'boolean' };
    default:
      return { anyOf: [{ type: 'integer' }, { type: 'string' }], description, 'x-kubernetes-int-or-string': true };
  }
}

function section(index: number, fields: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let f = 0; f < fields; f++) properties[`field${String(f).padStart(2, '0')}`] = leaf(index, f);
  return {
    description: `Section ${index} groups related settings. ${SENTENCE}`,
    properties,
    type: 'object',
  };
}

export const BIG_CRD_NAME = 'armadas.fleet.example.dev';

/** The Armada CRD (cluster-scoped, one version) with `sections` × `fields` documented fields. */
export function bigCrd(sections = 40, fields = 20): Record<string, unknown> {
  const specProperties: Record<string, unknown> = {
    flagship: { description: 'Flagship names the harbor that leads the armada.', type: 'string' },
  };
  for (let s = 0; s < sections; s++) specProperties[`section${String(s).padStart(2, '0')}`] = section(s, fields);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { annotations: { 'controller-gen.kubebuilder.io/version': 'v0.7.0' }, name: BIG_CRD_NAME },
    spec: {
      group: 'fleet.example.dev',
      names: { kind: 'Armada', listKind: 'ArmadaList', plural: 'armadas', singular: 'armada' },
      scope: 'Cluster',
      versions: [
        {
          additionalPrinterColumns: [{ description: 'The harbor that leads the armada.', jsonPath: '.spec.flagship', name: 'Flagship', type: 'string' }],
          name: 'v1',
          schema: {
            openAPIV3Schema: {
              description: 'Armada is a group of harbors sailing together.',
              properties: {
                apiVersion: { description: 'APIVersion defines the versioned schema of this representation of an object.', type: 'string' },
                kind: { description: 'Kind is a string value representing the REST resource this object represents.', type: 'string' },
                metadata: { type: 'object' },
                spec: { description: 'ArmadaSpec is what the user asks of an armada.', properties: specProperties, type: 'object' },
                status: { description: 'ArmadaStatus is what the operator last saw.', type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              },
              type: 'object',
            },
          },
          served: true,
          storage: true,
          subresources: { status: {} },
        },
      ],
    },
  };
}

export const bigCrdYaml = (): string => stringify(bigCrd());
