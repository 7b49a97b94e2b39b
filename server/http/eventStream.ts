import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { NDJSON_CONTENT_TYPE, type StreamEvent, type StreamProblem } from '../../src/domain/streaming/events.ts';
import { Refusal, InvalidInput } from '../../src/domain/errors/refusal.ts';
import { databaseFailure } from './databaseErrors.ts';

export interface EventStream {
  info(key: string, params?: Record<string, string>): void;
  progress(value: number): void;
  error(errorType: string, problem: StreamProblem): void;
  warning(warningType: string, problem: StreamProblem): void;
  result(value: unknown): void;
  end(): void;
}

/**
 * Starts an NDJSON answer (status 200 is sent with the first line). Lines are flushed as they are written, so a
 * client sees progress while the work goes on. Writing after the client left is harmless: the work finishes.
 */
export function openEventStream(reply: FastifyReply): EventStream {
  const stream = new PassThrough();
  reply
    .header('Content-Type', NDJSON_CONTENT_TYPE)
    .header('Cache-Control', 'no-store')
    .header('X-Accel-Buffering', 'no');
  void reply.send(stream);
  const write = (event: StreamEvent) => {
    if (!stream.writableEnded) stream.write(`${JSON.stringify(event)}\n`);
  };
  const time = () => new Date().toISOString();
  return {
    info: (result, params = {}) => write({ type: 'info', result, params, time: time() }),
    progress: (result) => write({ type: 'progress', result: Math.round(result * 1000) / 1000, time: time() }),
    error: (errorType, result) => write({ type: 'error', errorType, result, time: time() }),
    warning: (warningType, result) => write({ type: 'warning', warningType, result, time: time() }),
    result: (result) => write({ type: 'result', result, time: time() }),
    end: () => stream.end(),
  };
}

/**
 * Ends a stream whose work failed after its answer began (the 200 is sent): the failure is its last event, so the
 * client stops waiting and can tell a database away (try again) from a refusal.
 */
export function failStream(events: EventStream, error: unknown, log: (line: string) => void) {
  const known = error instanceof Refusal || error instanceof InvalidInput ? error : databaseFailure(error);
  if (!known) log(`stream failed: ${(error as Error).message}`);
  const code = known?.code ?? 'INTERNAL_ERROR';
  events.error(known ? 'RequestFailed' : 'InternalError', { code, message: code, params: known?.params ?? {} });
  events.end();
}
