// Real CRDs (controller-gen output) carry `description` at every schema level and on printer
// columns; PriorityClasses carry one too. Strict decoding must know these fields, and the stored
// object must keep them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

const described = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.described.example.com' },
  spec: {
    group: 'described.example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', description: 'How big the gadget is.', jsonPath: '.spec.size' }],
        schema: {
          openAPIV3Schema: {
            description: 'Gadget is a thing.',
            type: 'object',
            properties: {
              spec: {
                description: 'What the gadget should be.',
                type: 'object',
                properties: { size: { description: 'Size in units.', type: 'integer', format: 'int32', title: 'size', example: 3 } },
              },
            },
          },
        },
      },
    ],
  },
};

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('description fields', () => {
  it('a CRD with descriptions at every level and on printer columns passes Strict decoding and keeps them', async () => {
    const r = await c.post(`${CRDS}?fieldValidation=Strict`, described);
    expect(r.json.message).toBeUndefined();
    expect(r.status).toBe(201);
    expect(r.headers['warning']).toBeUndefined();
    const got = (await c.get(`${CRDS}/gadgets.described.example.com`)).json;
    const version = got.spec.versions[0];
    expect(version.additionalPrinterColumns[0].description).toBe('How big the gadget is.');
    expect(version.schema.openAPIV3Schema.description).toBe('Gadget is a thing.');
    expect(version.schema.openAPIV3Schema.properties.spec.properties.size).toEqual({ description: 'Size in units.', type: 'integer', format: 'int32', title: 'size', example: 3 });
  });

  it('with fieldValidation=Ignore (kubectl --validate=false) the descriptions are kept, not dropped as unknown', async () => {
    const other = JSON.parse(JSON.stringify(described).replaceAll('described.example.com', 'ignored.example.com'));
    const r = await c.post(`${CRDS}?fieldValidation=Ignore`, other);
    expect(r.status).toBe(201);
    expect(r.json.spec.versions[0].schema.openAPIV3Schema.properties.spec.description).toBe('What the gadget should be.');
    expect(r.json.spec.versions[0].additionalPrinterColumns[0].description).toBe('How big the gadget is.');
  });

  it('a PriorityClass with a description passes Strict decoding and keeps it', async () => {
    const pc = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'batch-low' }, value: 10, description: 'For batch jobs.' };
    const r = await c.post('/apis/scheduling.k8s.io/v1/priorityclasses?fieldValidation=Strict', pc);
    expect(r.status).toBe(201);
    expect(r.json.description).toBe('For batch jobs.');
    expect((await c.get('/apis/scheduling.k8s.io/v1/priorityclasses/batch-low')).json.description).toBe('For batch jobs.');
  });
});
