import type { ServerContext } from '../context.ts';
import { findApplication } from '../services/applications.ts';
import { publishJob, unpublishJob } from '../services/publication.ts';
import { fileOf } from '../services/versionFiles.ts';
import { dataTypeOf } from '../services/references.ts';
import { rightsOf } from '../services/authorizations.ts';
import type { Job, JobHandler } from './jobs.ts';

async function dataOfJob(ctx: ServerContext, job: Job) {
  const application = await findApplication(ctx, job.application_id);
  const file = await fileOf(ctx, { application }, job.file_id!);
  return dataTypeOf(ctx, application.name, file.data_name);
}

/** What each kind of job does. */
export function jobHandlers(ctx: ServerContext): Record<string, JobHandler> {
  return {
    publish: async (job, progress) => {
      const data = await dataOfJob(ctx, job);
      // Publication rights are checked line by line, as the person who asked for it holds them now.
      const requester = job.requested_by
        ? await ctx.db.selectFrom('users').selectAll().where('id', '=', job.requested_by).executeTakeFirst()
        : undefined;
      const rights = await rightsOf(ctx, requester ?? null, data.application);
      await publishJob(ctx, data, { job, progress, rights, failAfterRows: ctx.config.faults.publishFailAfterRows });
    },
    unpublish: async (job) => unpublishJob(ctx, await dataOfJob(ctx, job), job),
  };
}
