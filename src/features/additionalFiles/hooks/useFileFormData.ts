import { useQuery } from '@tanstack/react-query';
import type { AdditionalFileType, ApplicationModel } from '@/domain/configuration/model';
import { MAX_FIELD_CHOICES } from '@/domain/forms/fieldChoices';
import { rowDisplay } from '@/domain/rows/rowDisplay';
import { isUnreachable } from '@/offline/queryCache';
import { cachedReferenceRows } from '@/offline/referenceCache';
import { useFreshKeptQuery } from '@/offline/useFreshKeptQuery';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { fileRead, filesRead, type AdditionalFile, type FieldChoices } from '../api';

export interface FileFormData {
  /** The stored file (edition), or null (creation). */
  file: AdditionalFile | null;
  /** Choices of the reference fields; from the device's copy of the references when offline. */
  choices: FieldChoices;
  /** Names the type already holds; null when unknown (offline): the server then decides. */
  names: string[] | null;
  offline: boolean;
  /** Set when what the form starts from is this device's copy: when it was fetched. */
  offlineSince?: number;
  error?: unknown;
  ready: boolean;
}

/** Choices of the reference fields from the references kept on this device (none for a large one, as online). */
async function keptChoices(
  applicationName: string,
  model: ApplicationModel,
  type: AdditionalFileType,
  locale: string,
): Promise<FieldChoices> {
  const choices: FieldChoices = {};
  for (const field of type.fields) {
    if (field.checker?.kind !== 'reference') continue;
    const target = model.data.find((d) => d.name === (field.checker as { reference: string }).reference);
    const kept = await cachedReferenceRows(applicationName, field.checker.reference);
    if (!kept || !target || kept.rows.length > MAX_FIELD_CHOICES) continue;
    choices[field.name] = kept.rows.map((row) => ({
      naturalKey: row.naturalKey,
      label: rowDisplay(target, row.values, row.naturalKey, locale, model.defaultLanguage),
    }));
  }
  return choices;
}

/** The read of a type's fields' choices and the names it holds (no file listed), which the file form checks against. */
export const fileFormOptionsRead = (applicationName: string, fileType: string) =>
  filesRead(applicationName, fileType, { limit: 0 });

const NO_CHOICES: FieldChoices = {};

/**
 * What the file form starts from: the stored file when editing, the choices of its reference fields and the names
 * already taken, each as this device kept them when the server is out of reach. A new file can be prepared offline
 * even never seen before: the form then works from the configuration and the references kept on the device.
 */
export function useFileFormData(
  applicationName: string,
  model: ApplicationModel,
  type: AdditionalFileType,
  fileId: string,
  locale: string,
): FileFormData {
  const isNew = fileId === 'new';
  const fileQuery = fileRead(applicationName, type.name, fileId);
  // The form starts from the file as the server has it now (or, offline, as kept).
  const stored = useFreshKeptQuery(fileQuery.queryKey, fileQuery.read, { enabled: !isNew });
  const optionsQuery = fileFormOptionsRead(applicationName, type.name);
  const options = useKeptQuery(optionsQuery.queryKey, optionsQuery.read);
  const unreachable = isUnreachable(options.error);
  // Computed on the device, never kept: the references it reads are kept already.
  const kept = useQuery({
    queryKey: ['application', applicationName, 'keptFieldChoices', type.name, locale],
    queryFn: () => keptChoices(applicationName, model, type, locale),
    enabled: unreachable,
    persister: undefined,
  });

  const fileError = isNew ? undefined : stored.error;
  const error = fileError ?? (unreachable ? undefined : options.error);
  const optionsSettled =
    options.data !== undefined || (options.error !== undefined && (!unreachable || !kept.isPending));
  return {
    file: (!isNew && stored.data) || null,
    choices: options.data?.fieldChoices ?? kept.data ?? NO_CHOICES,
    // Offline, a new file is checked against the names this device kept from its last visit, if any.
    names: options.data?.fileNames ?? null,
    offline: options.offlineSince !== undefined || unreachable || (!isNew && stored.offlineSince !== undefined),
    offlineSince: (isNew ? undefined : stored.offlineSince) ?? options.offlineSince,
    error,
    ready: error !== undefined || ((isNew || stored.data !== undefined) && optionsSettled),
  };
}
