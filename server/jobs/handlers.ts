import type { ServerContext } from '../context.ts';
import { findApplication } from '../services/applications.ts';
import { fileOf, publishJob, unpublishJob } from '../services/deposits.ts';
import { dataTypeOf } from '../services/references.ts';
import type { Job, JobHandler } from './jobs.ts';

async function dataOfJob(ctx: ServerContext, job: Job) {
  const application = await findApplication(ctx, job.application_id);
  const file = await fileOf(ctx, { application }, job.file_id!);
  return dataTypeOf(ctx, application.name, file.data_name);
}

/** What each kind of job does. */
export function jobHandlers(ctx: ServerContext): Record<string, JobHandler> {
  return {
    publish: async (job, progress) => publishJob(ctx, await dataOfJob(ctx, job), job, progress, ctx.config.faults.publishFailAfterRows),
    unpublish: async (job) => unpublishJob(ctx, await dataOfJob(ctx, job), job),
  };
}
