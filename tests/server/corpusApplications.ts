/**
 * The corpus applications planned in tests/corpus/applicationPlans.ts, loaded into a server over HTTP: the
 * configuration, the uploads and deposits of the plan, a charter and one additional file per declared type.
 */
import { expect } from 'vitest';
import { exampleCell } from '../../src/domain/bundle/entryCsv.ts';
import { depositParams, type CorpusApplication } from '../corpus/applicationPlans.ts';
import { csvForm, waitForJob } from './dataFixtures.ts';
import type { HttpClient } from './httpClient.ts';

export { corpusApplications, type CorpusApplication } from '../corpus/applicationPlans.ts';

export const CHARTER_PDF = new TextEncoder().encode('%PDF-1.4\n% a charter for the corpus round trip\n');

export async function loadCorpusApplication(client: HttpClient, planned: CorpusApplication) {
  const created = await client.post(`/applications/${planned.name}`, {
    body: csvForm(planned.configurationFile, planned.configuration),
  });
  expect(created.text, planned.label).toContain('"type":"result"');
  expect(created.text, planned.label).not.toContain('"type":"error"');
  for (const upload of planned.uploads) {
    const entry = planned.model.data.find((item) => item.name === upload.dataName)!;
    const route = entry.kind === 'reference' ? 'references' : 'data';
    const answer = await client.post(`/applications/${planned.name}/${route}/${upload.dataName}`, {
      body: csvForm(upload.fileName, upload.text),
    });
    expect(answer.status, `${planned.label} ${upload.fileName}: ${answer.text}`).toBe(201);
  }
  for (const deposit of planned.deposits) {
    const params = depositParams(deposit);
    const answer = await client.post(`/applications/${planned.name}/data/${deposit.dataName}`, {
      body: csvForm(deposit.fileName, deposit.text, params),
    });
    expect([201, 202], `${planned.label} ${deposit.fileName}: ${answer.text}`).toContain(answer.status);
    if (deposit.publish)
      expect((await waitForJob(client, planned.name, answer.body.fileId)).published, deposit.fileName).toBe(true);
  }
  const charter = await client.post(`/applications/${planned.name}/additionalFiles/__charter__`, {
    body: csvForm('charte.pdf', CHARTER_PDF, { id: null, fileType: '__charter__' }),
  });
  expect([200, 201], charter.text).toContain(charter.status);
  for (const type of planned.model.additionalFiles) {
    const words = { text: 'text', reference: (reference: string) => planned.firstKeys.get(reference) ?? reference };
    const fields = Object.fromEntries(type.fields.map((field) => [field.name, exampleCell(field.checker, words)]));
    const params = {
      id: null,
      fileName: `${type.name}.pdf`,
      comment: `one ${type.name} file`,
      fields,
      forApplication: true,
    };
    const bytes = new TextEncoder().encode(`%PDF-1.4\n% ${type.name}\n`);
    const answer = await client.post(`/applications/${planned.name}/additionalFiles/${type.name}`, {
      body: csvForm(`${type.name}.pdf`, bytes, params),
    });
    expect(answer.status, `${planned.label} ${type.name}: ${answer.text}`).toBe(201);
  }
}
