import { readFile } from 'node:fs/promises';

const MOST_LINES = 60;
const SLOW_MS = 1_000;

interface LogLine {
  time: number;
  level: number;
  reqId?: string;
  msg?: string;
  method?: string;
  url?: string;
  statusCode?: number;
  ms?: number;
  err?: { message?: string };
}

/**
 * What the e2e server did while an attempt ran that may explain its failure: answers refused, failed or slow, requests
 * never answered or whose client left first, warnings and errors. Lines of the other worker's test are among them:
 * the server is shared, and what it did for them is part of the story.
 */
export async function serverLogExcerpt(logPath: string, from: number, to: number): Promise<string[]> {
  const text = await readFile(logPath, 'utf8').catch(() => '');
  const lines: LogLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.startsWith('{')) continue;
    try {
      const line = JSON.parse(raw) as LogLine;
      if (line.time >= from && line.time <= to) lines.push(line);
    } catch {
      // A line cut by a server stopping mid-write says nothing.
    }
  }
  const arrived = new Map<string, LogLine>();
  const ended = new Set<string>();
  for (const line of lines) {
    if (line.msg === 'arrived' && line.reqId) arrived.set(line.reqId, line);
    if ((line.msg === 'answered' || line.msg === 'client left') && line.reqId) ended.add(line.reqId);
  }
  const at = (line: LogLine) => `${((line.time - from) / 1000).toFixed(1)} s`;
  const requestOf = (line: LogLine) => {
    const request = line.reqId ? arrived.get(line.reqId) : undefined;
    return request ? `${request.method} ${request.url}` : (line.reqId ?? '');
  };
  const shown: string[] = [];
  for (const line of lines) {
    if (line.msg === 'answered' && ((line.statusCode ?? 0) >= 400 || (line.ms ?? 0) >= SLOW_MS))
      shown.push(`${at(line)} ${line.statusCode} in ${line.ms} ms: ${line.method} ${line.url}`);
    else if (line.msg === 'client left') shown.push(`${at(line)} client left after ${line.ms} ms: ${requestOf(line)}`);
    else if (line.msg === 'arrived' && line.reqId && !ended.has(line.reqId))
      shown.push(`${at(line)} still running at the end: ${line.method} ${line.url}`);
    else if (line.level >= 40)
      shown.push(`${at(line)} ${line.msg ?? ''} ${line.err?.message ?? ''} ${requestOf(line)}`);
  }
  return shown.slice(-MOST_LINES);
}
