/** Whether a text is a UUID as the database stores ids: a text that is not is no id, and never reaches a statement. */
export const isUuid = (text: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
