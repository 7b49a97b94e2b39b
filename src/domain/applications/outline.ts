import type { ApplicationModel, DataEntry, Submission } from '../configuration/model';

/**
 * What anyone who may see an application learns of one of its data entries: its name, kind and titles, and how
 * rights divide it (scopes, period, published versions) — enough to ask for the right to read it. Its columns,
 * checks, keys and file layout are the configuration's, shown only to those who may read the data.
 */
export interface EntryOutline extends Pick<DataEntry, 'name' | 'kind' | 'i18n' | 'authorization'> {
  submission: Pick<Submission, 'strategy'>;
}

/** The application's outline: its texts, its entries outlined, the rights-request form. A whole model is one too. */
export interface ApplicationOutline extends Pick<
  ApplicationModel,
  'name' | 'version' | 'defaultLanguage' | 'i18n' | 'rightsRequest'
> {
  data: EntryOutline[];
}

export function outlineOf(model: ApplicationModel): ApplicationOutline {
  return {
    name: model.name,
    version: model.version,
    defaultLanguage: model.defaultLanguage,
    i18n: model.i18n,
    rightsRequest: model.rightsRequest,
    data: model.data.map((entry) => ({
      name: entry.name,
      kind: entry.kind,
      i18n: entry.i18n,
      authorization: entry.authorization,
      submission: { strategy: entry.submission.strategy },
    })),
  };
}
