import { Type, type Static } from 'typebox';
import type { AuthenticatedUser, StoredUser } from '../domain/accounts/user.ts';

/** Payloads of the account routes. The user schemas mirror types of src/domain; the assertions below keep them equal. */
export const AccountStateSchema = Type.Union([
  Type.Literal('idle'),
  Type.Literal('active'),
  Type.Literal('pending'),
  Type.Literal('closed'),
]);
/** The address of someone in a list others read: present only for a platform administrator, or the person themself. */
export const EmailShownSchema = Type.String({
  description: 'only to platform administrators, and to the person themself; others choose people by login',
});
const ChartesSchema = Type.Record(Type.String(), Type.String(), {
  description: 'application id → time the charter was accepted',
});

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

/** What account changes answer (the original's CreateUserResult). */
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
export type AccountResult = Static<typeof AccountResultSchema>;

/** Text kept in or looked up in the database, which refuses the NUL character: refused here as bad input instead. */
const StoredText = (maxLength: number) => Type.String({ maxLength, pattern: '^[^\\u0000]*$' });

export const CredentialsSchema = Type.Object({
  login: StoredText(200),
  password: Type.String({ maxLength: 1024 }),
  applicationName: Type.Optional(Type.String({ maxLength: 100 })),
  remember: Type.Optional(
    Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false'), Type.Literal('on')], {
      description: 'keep this device signed in for DEVICE_SESSION_DAYS days of non-use instead of the idle hour',
    }),
  ),
});

export const RegistrationSchema = Type.Object({
  login: StoredText(200),
  password: Type.String({ maxLength: 1024 }),
  email: StoredText(320),
});
export const RegisteredSchema = Type.Object({ id: Type.String() });
export type Registered = Static<typeof RegisteredSchema>;

export const SignedOutSchema = Type.Object({ message: Type.String() });
export type SignedOut = Static<typeof SignedOutSchema>;
export const LogoutQuerySchema = Type.Object({ applicationName: Type.Optional(Type.String({ maxLength: 100 })) });

/** A device the user is kept signed in on (a lasting session), as its owner sees it. */
export const KeptDeviceSchema = Type.Object({
  id: Type.String(),
  device: Type.Union([Type.String(), Type.Null()], { description: 'browser and system, read from the User-Agent' }),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time', description: 'unless used before: each use extends it' }),
  current: Type.Boolean({ description: 'the session of this request' }),
});
export type KeptDevice = Static<typeof KeptDeviceSchema>;
export const KeptDevicesSchema = Type.Object({ devices: Type.Array(KeptDeviceSchema) });
export type KeptDevices = Static<typeof KeptDevicesSchema>;
export const DeviceParamsSchema = Type.Object({
  deviceId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
});
export const DeviceSignedOutSchema = Type.Object({ id: Type.String() });

export const KeyMailedSchema = Type.Object(
  {},
  {
    additionalProperties: false,
    description:
      'Lost password, step 1: a connection key went to the account’s address; nothing of the account is told.',
  },
);
export type KeyMailed = Static<typeof KeyMailedSchema>;

export const AccountChangeSchema = Type.Object(
  {
    login: Type.Optional(StoredText(200)),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    email: Type.Optional(StoredText(320)),
    newPassword: Type.Optional(Type.String({ maxLength: 1024 })),
    newPasswordConfirm: Type.Optional(Type.String({ maxLength: 1024 })),
    verificationKey: Type.Optional(Type.String({ maxLength: 100 })),
    charte: Type.Optional(Type.String({ maxLength: 100 })),
    charterUploadedAt: Type.Optional(Type.String({ maxLength: 64 })),
  },
  {
    description:
      'The fields present choose the change: login+password+verificationKey activates an account or confirms a new e-mail; ' +
      'login+password+newPassword+newPasswordConfirm changes the password; login+password+email starts an e-mail change; ' +
      'login+email mails a connection key; login+email+verificationKey+newPassword+newPasswordConfirm sets a new password; ' +
      'login+email+charte (an application id), sent with the session of that account, records that it accepts the charter of that application; ' +
      "with charterUploadedAt (the charter's `uploadedAt` as read), only if that is still the charter (409 CHARTER_CHANGED otherwise).",
  },
);

/** Body of `PUT /users`: which fields are present decides which account change is meant. */
export type AccountChange = Static<typeof AccountChangeSchema>;

export const UserParamsSchema = Type.Object({ idOrLogin: StoredText(200) });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameAuthenticatedUser: Same<Static<typeof AuthenticatedUserSchema>, AuthenticatedUser> = true;
const sameStoredUser: Same<Static<typeof StoredUserSchema>, StoredUser> = true;
void sameAuthenticatedUser;
void sameStoredUser;
