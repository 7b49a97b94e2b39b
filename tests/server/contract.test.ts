import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * One contract (issue 23): every JSON answer of the test servers is checked against its route's response schema
 * (harness.ts fails a server's close when one was not), and the OpenAPI document made from the schemas leaves no
 * JSON answer open.
 */

describe('the answer check of the test servers', () => {
  const Probe = Type.Object({ kept: Type.String() });
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      {},
      {},
      {
        beforeListen(app) {
          app.get('/probe/extra', { schema: { response: { 200: Probe } } }, async () => ({
            kept: 'yes',
            dropped: 'by the serializer',
          }));
          app.get('/probe/wrong', { schema: { response: { 200: Probe } } }, async () => ({ kept: 1 }));
          app.get('/probe/undeclared', { schema: { response: { 201: Probe } } }, async () => ({ kept: 'yes' }));
          app.get('/probe/matching', { schema: { response: { 200: Probe } } }, async () => ({ kept: 'yes' }));
        },
      },
    );
  });

  it('sees what the serializer would hide, and fails the server’s close', async () => {
    // The client gets the field-less answer: only the check before serialization tells the service answered more.
    expect(await (await fetch(`${server.url}/probe/extra`)).json()).toEqual({ kept: 'yes' });
    await fetch(`${server.url}/probe/wrong`);
    await fetch(`${server.url}/probe/undeclared`);
    await fetch(`${server.url}/probe/matching`);
    const closing = server.close();
    await expect(closing).rejects.toThrow(/GET \/probe\/extra 200: \/dropped/);
    await expect(closing).rejects.toThrow(/GET \/probe\/wrong 200: \/kept/);
    await expect(closing).rejects.toThrow(/GET \/probe\/undeclared 200: \(answer\) no response schema/);
    await expect(closing).rejects.not.toThrow(/probe\/matching/);
  });
});

type Schema = Record<string, unknown>;

/**
 * Where a JSON schema lets an object hold anything: `additionalProperties: true`, or an object schema that names
 * neither its properties nor the schema of its values. The parameters of a refusal are the catalogue's (typed per
 * code in src/domain/errors), so their values stay unknown.
 */
function openObjects(schema: unknown, at: string): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, i) => openObjects(item, `${at}/${i}`));
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Schema;
  const found: string[] = [];
  // OpenAPI 3.0 has no null type: the document writes a null as an object that may only be null.
  const isObject = node.type === 'object' && !Array.isArray(node.enum);
  if (node.additionalProperties === true) found.push(at);
  else if (isObject && !node.properties && node.additionalProperties === undefined && !node.patternProperties)
    found.push(at);
  else if (isObject && isEmpty(node.additionalProperties) && !at.endsWith('/properties/params')) found.push(at);
  for (const key of ['properties', 'patternProperties']) {
    for (const [name, inner] of Object.entries((node[key] ?? {}) as Schema))
      found.push(...openObjects(inner, `${at}/${key}/${name}`));
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'])
    found.push(...openObjects(node[key], `${at}/${key}`));
  return found;
}

const isEmpty = (value: unknown) => value !== null && typeof value === 'object' && Object.keys(value).length === 0;

describe('the OpenAPI document', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('describes every JSON answer with a closed schema', async () => {
    const answer = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(answer.status).toBe(200);
    const document = (await answer.json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
      >;
      components: { schemas?: Record<string, unknown> };
    };
    // Schemas used in several places or recursive (the scope trees) are shared as components.
    const open = Object.entries(document.components.schemas ?? {}).flatMap(([name, schema]) =>
      openObjects(schema, `components/${name}`),
    );
    let answers = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const schema = response.content?.['application/json']?.schema;
          if (schema === undefined) continue;
          answers += 1;
          open.push(...openObjects(schema, `${method.toUpperCase()} ${path} ${status}`));
        }
      }
    }
    expect(answers).toBeGreaterThan(100);
    expect(open).toEqual([]);
  });
});
