import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_RATE_LIMITS } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import {
  bytesOf,
  createApplication,
  errorEvents,
  fixture,
  outline,
  resultEvents,
  sessionOf,
  startServerWithStoredRows,
  streamEvents,
  text,
  uploadForm,
  type RowCountingServer,
} from './applicationFixtures.ts';

/**
 * Configuration warnings over HTTP: a layout the original tolerates is accepted, and the stream says how it was
 * read with `warning` events; warnings never stop validation or creation.
 */

const ADMIN = { login: 'root', password: 'root-password', email: 'root@terrain.test' };

let server: RowCountingServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServerWithStoredRows({ admin: ADMIN, ...GENEROUS_RATE_LIMITS });
  admin = (await sessionOf(server, { ...ADMIN, id: '' })).client;
});
afterAll(async () => {
  await server?.close();
});

/** fieldnotes-v1.yaml with a checker indented under the export header of `sites > label`, and an idle rule. */
const tolerated = () =>
  bytesOf(
    text(fixture('fieldnotes-v1.yaml'))
      .replace(
        '      label: null\n',
        '      label:\n        OA_exportHeader:\n          OA_title: {fr: Nom, en: Name}\n          OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: ".+"}}\n',
      )
      .replace(
        '      OA_timeScope: day\n',
        '      OA_timeScope: day\n    OA_validations:\n      idle:\n        OA_checker: {OA_name: OA_groovyExpression, OA_params: {OA_groovy: {OA_expression: "return true"}}}\n',
      ),
  );

const warningEvents = (events: ReturnType<typeof streamEvents>) => events.filter((event) => event.type === 'warning');

describe('a configuration with a tolerated layout', () => {
  it('validates: warning events with code, message key, path and line, then the model', async () => {
    const answer = await admin.post('/validate-configuration', { body: uploadForm('fieldnotes.yaml', tolerated()) });
    expect(answer.status).toBe(200);
    const events = streamEvents(answer.text);
    expect(errorEvents(events)).toEqual([]);
    expect(warningEvents(events).map((event) => [event.warningType, event.result])).toEqual([
      [
        'ValidationWarning',
        {
          code: 'CHECKER_IGNORED_UNDER_EXPORT_HEADER',
          message: 'checkerIgnoredUnderExportHeader',
          params: { path: 'OA_data > sites > OA_basicComponents > label > OA_exportHeader' },
          path: 'OA_data > sites > OA_basicComponents > label > OA_exportHeader',
          line: 32,
          column: 11,
        },
      ],
      [
        'ValidationWarning',
        expect.objectContaining({
          code: 'VALIDATION_WITHOUT_COMPONENTS',
          params: { validationName: 'idle', path: 'OA_data > counts > OA_validations > idle' },
        }),
      ],
    ]);
    const [model] = resultEvents(events);
    const label = model.data[0].components.find((component: { key: string }) => component.key === 'label');
    expect(label.checker ?? null).toBeNull();
    expect(events.slice(-2).map(outline)).toEqual([['result'], ['progress', 1]]);
  });

  it('is created, the warnings streamed on the way', async () => {
    const { events } = await createApplication(admin, 'tolerated', { name: 'fieldnotes.yaml', bytes: tolerated() });
    expect(warningEvents(events).map((event) => event.result.code)).toEqual([
      'CHECKER_IGNORED_UNDER_EXPORT_HEADER',
      'VALIDATION_WITHOUT_COMPONENTS',
    ]);
  });
});
