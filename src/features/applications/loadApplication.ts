import type { ViewedApplication } from '@/offline/useApplicationModel';
import { applicationViewKey } from '@/offline/useApplicationModel';
import { keptRead } from '@/offline/queryCache';
import { fetchApplication } from './api';

/**
 * An application with every part the user may see: from the server when it answers (and then kept on the device), from
 * the device when the server is out of reach. `offlineSince` says when the kept copy was fetched.
 */
export async function loadApplication(name: string): Promise<ViewedApplication> {
  const { value, offlineSince } = await keptRead(applicationViewKey(name), () => fetchApplication(name));
  return { view: value, offlineSince };
}
