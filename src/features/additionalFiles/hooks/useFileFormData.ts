import { useEffect, useState } from 'react';
import type { AdditionalFileType, ApplicationModel } from '@/domain/configuration/model';
import { rowDisplay } from '@/domain/rows/rowDisplay';
import { ApiError } from '@/lib/api/apiError';
import { cachedReferenceRows } from '@/offline/referenceCache';
import { fetchFile, fetchFiles, type AdditionalFile, type FieldChoices } from '../api';

export interface FileFormData {
  /** The stored file (edition), or null (creation). */
  file: AdditionalFile | null;
  /** Choices of the reference fields; from the device's copy of the references when offline. */
  choices: FieldChoices;
  /** Names the type already holds; null when unknown (offline): the server then decides. */
  names: string[] | null;
  offline: boolean;
  error?: unknown;
  ready: boolean;
}

/** Choices of the reference fields from the references kept on this device. */
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
    if (!kept || !target) continue;
    choices[field.name] = kept.rows.map((row) => ({
      naturalKey: row.naturalKey,
      label: rowDisplay(target, row.values, row.naturalKey, locale, model.defaultLanguage),
    }));
  }
  return choices;
}

/**
 * What the file form starts from: the stored file when editing, the choices of its reference fields and the names
 * already taken. A new file can be prepared offline: the form then works from the configuration alone.
 */
export function useFileFormData(
  applicationName: string,
  model: ApplicationModel,
  type: AdditionalFileType,
  fileId: string,
  locale: string,
): FileFormData {
  const [state, setState] = useState<FileFormData>({
    file: null,
    choices: {},
    names: null,
    offline: false,
    ready: false,
  });
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const [file, list] = await Promise.all([
          fileId === 'new' ? null : fetchFile(applicationName, type.name, fileId),
          fetchFiles(applicationName, type.name, { limit: 0 }),
        ]);
        // Offline, a new file is checked against the names and choices this device kept from its last visit.
        if (live)
          setState({
            file,
            choices: list.value.fieldChoices,
            names: list.value.fileNames,
            offline: list.offlineSince !== undefined,
            ready: true,
          });
      } catch (error) {
        const offline = error instanceof ApiError && error.isNetworkError;
        const choices = offline ? await keptChoices(applicationName, model, type, locale) : {};
        if (live)
          setState({
            file: null,
            choices,
            names: null,
            offline,
            error: offline && fileId === 'new' ? undefined : error,
            ready: true,
          });
      }
    })();
    return () => {
      live = false;
    };
  }, [applicationName, type, fileId, locale, model]);
  return state;
}
