import { readFile } from 'node:fs/promises';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { E2E_SERVER_LOG } from '../../playwright.config';
import { serverLogExcerpt } from './serverLogExcerpt';

const SNAPSHOT_CHARACTERS = 4_000;

/**
 * Prints, for a failed attempt, what the page showed (its accessibility snapshot), so that a failure met only on the
 * CI machine can be understood from the CI's log alone, with the page's address, console errors and unanswered
 * requests (the `page` attachment of the fixtures), and what the server did meanwhile (its log).
 */
export default class FailureReporter implements Reporter {
  async onTestEnd(test: TestCase, result: TestResult) {
    if (result.status === 'passed' || result.status === 'skipped') return;
    const parts = [`── what the page showed when "${test.title}" failed (attempt ${result.retry + 1})`];
    for (const attachment of result.attachments) {
      // Printed whole: the list reporter cuts an attachment after a few lines.
      if (attachment.name === 'page' && attachment.body) parts.push(attachment.body.toString('utf8'));
      if (attachment.name !== 'error-context' || !attachment.path) continue;
      const context = await readFile(attachment.path, 'utf8').catch(() => '');
      const start = context.lastIndexOf('```yaml');
      const end = context.indexOf('\n```', start + 1);
      if (start >= 0) parts.push(context.slice(start, Math.min(end + 4, start + SNAPSHOT_CHARACTERS)));
    }
    const from = result.startTime.getTime();
    const server = await serverLogExcerpt(E2E_SERVER_LOG, from, from + result.duration);
    if (server.length > 0) parts.push('the server meanwhile (times from the start of the attempt):', ...server);
    if (parts.length === 1) return;
    process.stdout.write(`${parts.join('\n')}\n\n`);
  }

  printsToStdio() {
    return false;
  }
}
