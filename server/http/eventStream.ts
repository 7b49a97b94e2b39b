import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { NDJSON_CONTENT_TYPE, type StreamEvent, type StreamProblem } from '../../src/domain/streaming/events.ts';

export interface EventStream {
  info(key: string, params?: Record<string, string>): void;
  progress(value: number): void;
  error(errorType: string, problem: StreamProblem): void;
  result(value: unknown): void;
  end(): void;
}

/**
 * Starts an NDJSON answer (status 200 is sent with the first line). Lines are flushed as they are written, so a
 * client sees progress while the work goes on. Writing after the client left is harmless: the work finishes.
 */
export function openEventStream(reply: FastifyReply): EventStream {
  const stream = new PassThrough();
  reply.header('Content-Type', NDJSON_CONTENT_TYPE).header('Cache-Control', 'no-store').header('X-Accel-Buffering', 'no');
  void reply.send(stream);
  const write = (event: StreamEvent) => {
    if (!stream.writableEnded) stream.write(`${JSON.stringify(event)}\n`);
  };
  const time = () => new Date().toISOString();
  return {
    info: (result, params = {}) => write({ type: 'info', result, params, time: time() }),
    progress: (result) => write({ type: 'progress', result: Math.round(result * 1000) / 1000, time: time() }),
    error: (errorType, result) => write({ type: 'error', errorType, result, time: time() }),
    result: (result) => write({ type: 'result', result, time: time() }),
    end: () => stream.end(),
  };
}
