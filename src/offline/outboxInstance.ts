import { createOutbox } from './outbox';

/** The page's outbox. The service worker makes its own over the same database; Web Locks keep them apart. */
export const outbox = createOutbox();
