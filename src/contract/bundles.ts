import { Type, type Static } from 'typebox';

/** Requests of the bundle routes (`/applications/:name/upload-bundle`); the kit, the backup and the restore are streamed. */
export const BundleDownloadQuerySchema = Type.Object({
  withData: Type.Boolean({ default: false }),
  locale: Type.Optional(
    Type.String({
      maxLength: 35,
      description: 'Language of the README (fr or en); Accept-Language otherwise.',
    }),
  ),
});
export type BundleDownloadQuery = Static<typeof BundleDownloadQuerySchema>;
