const QUOTE = 0x22;
const LINE_FEED = 0x0a;

/**
 * Counts the records of a CSV text as its bytes arrive, without decoding them: a line feed outside double quotes
 * ends a record (quotes and line feeds are single bytes in UTF-8, never inside another character's bytes).
 */
export function csvRecordCounter() {
  let quoted = false;
  let records = 0;
  return {
    add(bytes: Uint8Array) {
      for (let i = 0; i < bytes.length; i++) {
        const byte = bytes[i];
        if (byte === QUOTE) quoted = !quoted;
        else if (byte === LINE_FEED && !quoted) records++;
      }
    },
    /** Records ended so far, the header's line included. */
    get records() {
      return records;
    },
  };
}
