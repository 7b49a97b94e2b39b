import type { Page } from '@playwright/test';
import { corpusApplications, depositParams, type CorpusApplication } from '../corpus/applicationPlans';
import { loadCorpus } from '../corpus/manifest';
import { expect } from './fixtures';

/** A corpus application as the corpus suite plans it (read in place), or undefined when the corpus is absent. */
export function plannedCorpusApplication(name: string): CorpusApplication | undefined {
  const corpus = loadCorpus();
  return corpus && corpusApplications(corpus).applications.find((application) => application.name === name);
}

const file = (name: string, content: string | Uint8Array, mimeType: string) => ({
  name,
  mimeType,
  buffer: Buffer.from(content),
});

/**
 * Loads a planned corpus application under `name` through the API, with the session of the signed-in page: its
 * configuration, its references and data in load order, its versions deposited and published as planned.
 */
export async function loadCorpusApplication(page: Page, planned: CorpusApplication, name: string) {
  const app = `/api/v1/applications/${encodeURIComponent(name)}`;
  const created = await page.request.post(app, {
    multipart: { comment: '', file: file(planned.configurationFile, planned.configuration, 'application/yaml') },
  });
  expect(await created.text()).toContain('"type":"result"');
  for (const upload of planned.uploads) {
    const entry = planned.model.data.find((item) => item.name === upload.dataName)!;
    const answer = await page.request.post(
      `${app}/${entry.kind === 'reference' ? 'references' : 'data'}/${upload.dataName}`,
      {
        multipart: { file: file(upload.fileName, upload.text, 'text/csv') },
      },
    );
    expect(answer.status(), `${upload.fileName}: ${await answer.text()}`).toBe(201);
  }
  for (const deposit of planned.deposits) {
    const params = depositParams(deposit);
    const answer = await page.request.post(`${app}/data/${deposit.dataName}`, {
      multipart: { params: JSON.stringify(params), file: file(deposit.fileName, deposit.text, 'text/csv') },
    });
    expect([201, 202], `${deposit.fileName}: ${await answer.text()}`).toContain(answer.status());
    if (!deposit.publish) continue;
    const { fileId } = (await answer.json()) as { fileId: string };
    await expect
      .poll(
        async () => {
          const state = (await (await page.request.get(`${app}/file/${fileId}/publication-state`)).json()) as {
            job?: { status: string };
            published?: boolean;
          };
          return state.job?.status === 'done' || state.job?.status === 'failed' ? Boolean(state.published) : 'running';
        },
        { message: `${deposit.fileName} published`, timeout: 60_000 },
      )
      .toBe(true);
  }
}
