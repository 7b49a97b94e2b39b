import { Type, type Static } from 'typebox';
import type { AuthenticatedUser, StoredUser } from '../../src/domain/accounts/user.ts';

/** JSON schemas of the API payloads. Each mirrors a type of src/domain; the assertions below keep them equal. */
export const ErrorBodySchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    params: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'ErrorBody', description: 'Every refusal: a catalogue code (repeated in message) and its parameters.' },
);

const AccountStateSchema = Type.Union([Type.Literal('idle'), Type.Literal('active'), Type.Literal('pending'), Type.Literal('closed')]);
const ChartesSchema = Type.Record(Type.String(), Type.String(), { description: 'application id → time the charter was accepted' });

export const AuthenticatedUserSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    login: Type.String(),
    email: Type.String(),
    state: AccountStateSchema,
    authorizedForApplicationCreation: Type.Boolean(),
    terrainAdmin: Type.Boolean(),
    authorizations: Type.Array(Type.String(), { description: 'application-name patterns the user may create' }),
    chartes: ChartesSchema,
    currentUserRoles: Type.Object({
      applicationRoles: Type.Record(Type.String(), Type.Array(Type.String())),
      userId: Type.String(),
      userLogin: Type.String(),
      isTerrainAdmin: Type.Boolean(),
      isApplicationCreator: Type.Boolean(),
      memberOf: Type.Array(Type.String()),
      isDataBaseSuper: Type.Boolean(),
    }),
  },
  { $id: 'AuthenticatedUser' },
);

export const StoredUserSchema = Type.Object(
  {
    id: Type.String(),
    login: Type.String(),
    email: Type.String(),
    accountstate: AccountStateSchema,
    pendingEmail: Type.Union([Type.String(), Type.Null()]),
    terrainAdmin: Type.Boolean(),
    authorizations: Type.Array(Type.String()),
    chartes: ChartesSchema,
    creationDate: Type.String({ format: 'date-time' }),
    updateDate: Type.String({ format: 'date-time' }),
  },
  { $id: 'StoredUser' },
);

export const AccountResultSchema = Type.Object(
  {
    userId: Type.String(),
    login: Type.String(),
    email: Type.String(),
    accountState: AccountStateSchema,
    chartes: ChartesSchema,
  },
  { $id: 'AccountResult' },
);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameAuthenticatedUser: Same<Static<typeof AuthenticatedUserSchema>, AuthenticatedUser> = true;
const sameStoredUser: Same<Static<typeof StoredUserSchema>, StoredUser> = true;
void sameAuthenticatedUser;
void sameStoredUser;

/** Error answers a route may give, for the OpenAPI document. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodySchema]));
}
