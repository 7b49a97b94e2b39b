import { Type } from 'typebox';

/** What a charter upload answers: the charter's id, as a JSON string like the original. */
export const CharterIdSchema = Type.String({ format: 'uuid' });
