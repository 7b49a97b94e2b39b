/** The number of an entry's files in the bundle, from 01, in load order. */
export const pad = (index: number) => String(index + 1).padStart(2, '0');

/** A name safe as one segment of a path inside the zip. */
export const segment = (name: string) => name.replace(/[^\p{L}\p{N}_.\- ]/gu, '_').replace(/^[. ]+/, '_') || 'file';
