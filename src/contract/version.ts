/**
 * The version of the answers' shapes, kept with each read a device keeps (src/offline/queryCache.ts). An answer
 * changes additively (a new optional field) without it; a change that copies kept by an earlier version do not fit
 * bumps it, with the step that brings those copies to the new shape (src/offline/keptReadMigrations.ts).
 * docs/decisions.md, "Kept reads carry the contract version".
 */
export const CONTRACT_VERSION = 1;
