import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ServerContext } from '../context.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { clearSessionCookie, requireUser, setSessionCookie } from '../http/authentication.ts';
import { callerOf } from '../http/caller.ts';
import { AccountResultSchema, AuthenticatedUserSchema, StoredUserSchema, errorResponses } from '../http/schemas.ts';
import { changeAccount, findUserByIdOrLogin, register, signIn } from '../services/accounts.ts';
import type { SessionKeeper } from '../services/sessions.ts';
import { rolesOf } from '../services/applicationAccess.ts';
import { toAccountResult, toAuthenticatedUser, toStoredUser } from '../services/userViews.ts';

interface Options {
  ctx: ServerContext;
  sessions: SessionKeeper;
}

/** Text kept in or looked up in the database, which refuses the NUL character: refused here as bad input instead. */
const StoredText = (maxLength: number) => Type.String({ maxLength, pattern: '^[^\\u0000]*$' });

const Credentials = Type.Object({
  login: StoredText(200),
  password: Type.String({ maxLength: 1024 }),
  applicationName: Type.Optional(Type.String({ maxLength: 100 })),
});

const Registration = Type.Object({
  login: StoredText(200),
  password: Type.String({ maxLength: 1024 }),
  email: StoredText(320),
});

const KeyMailed = Type.Object({}, { additionalProperties: false, description: 'Lost password, step 1: a connection key went to the account’s address; nothing of the account is told.' });

const AccountChange = Type.Object(
  {
    login: Type.Optional(StoredText(200)),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    email: Type.Optional(StoredText(320)),
    newPassword: Type.Optional(Type.String({ maxLength: 1024 })),
    newPasswordConfirm: Type.Optional(Type.String({ maxLength: 1024 })),
    verificationKey: Type.Optional(Type.String({ maxLength: 100 })),
    charte: Type.Optional(Type.String({ maxLength: 100 })),
  },
  {
    description:
      'The fields present choose the change: login+password+verificationKey activates an account or confirms a new e-mail; ' +
      'login+password+newPassword+newPasswordConfirm changes the password; login+password+email starts an e-mail change; ' +
      'login+email mails a connection key; login+email+verificationKey+newPassword+newPasswordConfirm sets a new password; ' +
      'login+email+charte (an application id), sent with the session of that account, records that it accepts the charter of that application.',
  },
);

export const accountRoutes: FastifyPluginAsyncTypebox<Options> = async (app, { ctx, sessions }) => {
  app.post(
    '/login',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Sign in (form or JSON). Sets the session cookie and answers the user; the token is also in the Authorization header.',
        body: Credentials,
        response: { 200: AuthenticatedUserSchema, ...errorResponses(400, 401, 402, 403, 429) },
      },
    },
    async (request, reply) => {
      const user = await signIn(ctx, request.body, callerOf(request));
      const token = await sessions.create(user.id);
      setSessionCookie(request, reply, token, ctx.config.sessionIdleSeconds);
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
        querystring: Type.Object({ applicationName: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: { 200: Type.Object({ message: Type.String() }) },
      },
    },
    async (request, reply) => {
      if (request.auth) await sessions.revoke(request.auth.token);
      clearSessionCookie(reply);
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

  app.post(
    '/users',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Register: creates an account waiting for its activation key, which is mailed.',
        body: Registration,
        response: { 201: Type.Object({ id: Type.String() }), ...errorResponses(400, 412, 422, 429) },
      },
    },
    async (request, reply) => {
      const user = await register(ctx, request.body, callerOf(request));
      reply.code(201).header('Location', `/api/v1/users/${user.id}`);
      return { id: user.id };
    },
  );

  app.put(
    '/users',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Every account change (JSON body); see the body description.',
        body: AccountChange,
        response: { 200: Type.Union([AccountResultSchema, KeyMailed]), ...errorResponses(400, 401, 403, 404, 422, 429) },
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
        params: Type.Object({ idOrLogin: StoredText(200) }),
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
