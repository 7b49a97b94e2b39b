import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AccountChangeSchema,
  AccountResultSchema,
  AuthenticatedUserSchema,
  CredentialsSchema,
  DeviceParamsSchema,
  DeviceSignedOutSchema,
  KeptDevicesSchema,
  KeyMailedSchema,
  LogoutQuerySchema,
  RegisteredSchema,
  RegistrationSchema,
  SignedOutSchema,
  StoredUserSchema,
  UserParamsSchema,
} from '../../src/contract/accounts.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import type { ServerContext } from '../context.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { clearSessionCookie, requireUser, setSessionCookie } from '../http/authentication.ts';
import { callerOf } from '../http/caller.ts';
import { deviceName } from '../../src/domain/accounts/deviceName.ts';
import { changeAccount, findUserByIdOrLogin, register, signIn } from '../services/accounts.ts';
import type { SessionKeeper } from '../services/sessions.ts';
import { rolesOf } from '../services/applicationAccess.ts';
import { toAccountResult, toAuthenticatedUser, toStoredUser } from '../services/userViews.ts';

interface Options {
  ctx: ServerContext;
  sessions: SessionKeeper;
}

export const accountRoutes: FastifyPluginAsyncTypebox<Options> = async (app, { ctx, sessions }) => {
  app.post(
    '/login',
    {
      schema: {
        tags: ['accounts'],
        summary:
          'Sign in (form or JSON). Sets the session cookie and answers the user; the token is also in the Authorization header.',
        body: CredentialsSchema,
        response: { 200: AuthenticatedUserSchema, ...errorResponses(400, 401, 402, 403, 429) },
      },
    },
    async (request, reply) => {
      const user = await signIn(ctx, request.body, callerOf(request));
      const remember = request.body.remember;
      const { token, lifetimeSeconds } = await sessions.create(user.id, {
        lasting: remember === true || remember === 'true' || remember === 'on',
        device: deviceName(request.headers['user-agent']) ?? undefined,
      });
      setSessionCookie(request, reply, token, lifetimeSeconds);
      reply.header('Authorization', `Bearer ${token}`);
      return toAuthenticatedUser(user, Object.fromEntries(await rolesOf(ctx.db, user.id)));
    },
  );

  app.delete(
    '/logout',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign out: the session stops working everywhere.',
        querystring: LogoutQuerySchema,
        response: { 200: SignedOutSchema },
      },
    },
    async (request, reply) => {
      if (request.auth) await sessions.revoke(request.auth.token);
      clearSessionCookie(request, reply);
      return { message: 'Disconnected' };
    },
  );

  app.get(
    '/me',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The signed-in user, as the sign-in call answers it.',
        response: { 200: AuthenticatedUserSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return toAuthenticatedUser(user, Object.fromEntries(await rolesOf(ctx.db, user.id)));
    },
  );

  app.get(
    '/me/devices',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The devices the user is kept signed in on (sign-in with `remember`), newest first.',
        response: { 200: KeptDevicesSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const devices = await sessions.devicesOf(user.id, request.auth?.sessionId);
      return {
        devices: devices.map((d) => ({
          ...d,
          createdAt: d.createdAt.toISOString(),
          expiresAt: d.expiresAt.toISOString(),
        })),
      };
    },
  );

  app.delete(
    '/me/devices/:deviceId',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Ends the session kept on one device (a lost tablet): its next request is signed out.',
        params: DeviceParamsSchema,
        response: { 200: DeviceSignedOutSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (!(await sessions.revokeDevice(user.id, request.params.deviceId)))
        throw new Refusal('NO_SUCH_DEVICE', { id: request.params.deviceId });
      return { id: request.params.deviceId };
    },
  );

  app.post(
    '/users',
    {
      schema: {
        tags: ['accounts'],
        summary:
          'Register: creates an account waiting for its activation key, which is mailed. An address that has an account ' +
          'is answered alike, creating nothing, and its owner is told by mail (a login that has one is refused).',
        body: RegistrationSchema,
        response: { 201: RegisteredSchema, ...errorResponses(400, 412, 422, 429) },
      },
    },
    async (request, reply) => {
      const { id } = await register(ctx, request.body, callerOf(request));
      reply.code(201).header('Location', `/api/v1/users/${id}`);
      return { id };
    },
  );

  app.put(
    '/users',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Every account change (JSON body); see the body description.',
        body: AccountChangeSchema,
        response: {
          200: Type.Union([AccountResultSchema, KeyMailedSchema]),
          ...errorResponses(400, 401, 403, 404, 422, 429),
        },
      },
    },
    async (request) => {
      const changed = await changeAccount(ctx, request.body, callerOf(request));
      return changed ? toAccountResult(changed) : {};
    },
  );

  app.get(
    '/users/:idOrLogin',
    {
      schema: {
        tags: ['accounts'],
        summary: 'A stored user: oneself, or anyone for the platform administrator.',
        params: UserParamsSchema,
        response: { 200: StoredUserSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const caller = requireUser(request);
      const user = await findUserByIdOrLogin(ctx, request.params.idOrLogin);
      if (!caller.terrain_admin && user?.id !== caller.id) throw new Refusal('BAD_LOGIN_FOR_ACTION');
      if (!user) throw new Refusal('UNKNOWN_USER');
      return toStoredUser(user);
    },
  );
};
