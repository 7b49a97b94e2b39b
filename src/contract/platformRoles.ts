import { Type, type Static } from 'typebox';

/** Requests of the role routes (`/authorization/:role`); their answers are accounts (AuthenticatedUserSchema). */
export const PlatformRoleSchema = Type.Union([
  Type.Literal('terrainAdmin'),
  Type.Literal('applicationCreator'),
  Type.Literal('applicationManager'),
  Type.Literal('userManager'),
]);
export type PlatformRole = Static<typeof PlatformRoleSchema>;

/** The original's name of the platform administrator's role, which scripts written for it send. */
export const ORIGINAL_ADMIN_ROLE = 'openAdomAdmin';

export const RoleParamsSchema = Type.Object({
  role: Type.Union([
    PlatformRoleSchema,
    Type.Literal(ORIGINAL_ADMIN_ROLE, { description: 'The original’s name of terrainAdmin, read as terrainAdmin.' }),
  ]),
});

/** applicationPattern goes with applicationCreator, applicationNameOrId with the per-application roles. */
export const RoleQuerySchema = Type.Object({
  userIdOrLogin: Type.String({ maxLength: 200 }),
  // Repeated in the query string for several patterns, which then arrive as an array.
  applicationPattern: Type.Optional(
    Type.Union([Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 }), Type.String({ maxLength: 200 })]),
  ),
  applicationNameOrId: Type.Optional(Type.String({ maxLength: 100 })),
});
export type RoleQuery = Static<typeof RoleQuerySchema>;
