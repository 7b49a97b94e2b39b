import type { StreamEvent, StreamProblem } from '@/domain/streaming/events';
import { ApiError, readErrorBody } from './apiError';
import { send, type CallOptions } from './client';

export interface StreamOutcome<Result> {
  /** Present when the stream delivered its result; absent when it ended without one (a failure). */
  result?: Result;
  problems: StreamProblem[];
  /** Remarks that did not stop the operation (configuration warnings). */
  warnings: StreamProblem[];
}

/**
 * Calls a streamed endpoint and hands each NDJSON event to `onEvent` as it arrives. Refusals before the stream
 * (4xx) throw an ApiError like any call; the stream's own problems are collected in the outcome.
 */
export async function callStream<Result>(
  path: string,
  options: CallOptions,
  onEvent: (event: StreamEvent<Result>) => void,
): Promise<StreamOutcome<Result>> {
  const response = await send(path, options);
  if (!response.ok) throw readErrorBody(response.status, await response.text());
  if (!response.body) throw new ApiError(response.status, '');
  const outcome: StreamOutcome<Result> = { problems: [], warnings: [] };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  const handle = (line: string) => {
    if (line.trim() === '') return;
    const event = JSON.parse(line) as StreamEvent<Result>;
    if (event.type === 'result') outcome.result = event.result;
    if (event.type === 'error') outcome.problems.push(event.result);
    if (event.type === 'warning') outcome.warnings.push(event.result);
    onEvent(event);
  };
  for (;;) {
    const { value, done } = await reader.read().catch(() => {
      throw new ApiError(0, 'NETWORK_ERROR');
    });
    if (done) break;
    pending += value;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    lines.forEach(handle);
  }
  handle(pending);
  return outcome;
}
