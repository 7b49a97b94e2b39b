import type { Synthesis } from '@/contract/data';
import { callApi } from '@/lib/api/client';
import { useKeptQuery } from '@/offline/useKeptQuery';

/**
 * The lines with a value per variable over the period, as the server counts them for this user (their rights
 * applied): the card's sparkline and the chart read the same kept copy, so both open offline once read.
 */
export function useSynthesis(applicationName: string, dataType: string) {
  return useKeptQuery(['application', applicationName, 'synthesis', dataType], (signal) =>
    callApi<Synthesis>(`/applications/${encodeURIComponent(applicationName)}/synthesis/${encodeURIComponent(dataType)}`, { signal }),
  );
}
