/** Whether a text is written as a UUID (in either case): any other text is no id, and never reaches a statement. */
export const isUuid = (text: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
