const QUOTE = 0x22;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Counts the records of a CSV text as its bytes arrive, without decoding them: a line break outside double quotes
 * ends a record, LF, CRLF or a lone CR, as the tokenizer reads them (quotes and line breaks are single bytes in
 * UTF-8, never inside another character's bytes).
 */
export function csvRecordCounter() {
  let quoted = false;
  /** The last byte was a CR ending a record: a LF right after it, in this chunk or the next, is the same break. */
  let afterCarriageReturn = false;
  let records = 0;
  return {
    add(bytes: Uint8Array) {
      for (let i = 0; i < bytes.length; i++) {
        const byte = bytes[i];
        if (byte === QUOTE) quoted = !quoted;
        else if (!quoted && (byte === CARRIAGE_RETURN || (byte === LINE_FEED && !afterCarriageReturn))) records++;
        afterCarriageReturn = byte === CARRIAGE_RETURN && !quoted;
      }
    },
    /** Records ended so far, the header's line included. */
    get records() {
      return records;
    },
  };
}
