/**
 * The upload kit's deposit script: deposits every CSV file of a folder into the application as a version of the
 * data type whose file-name pattern its name follows, the dataset read from the name as the deposit form reads it
 * (`readDepositTarget`, bundled from src/domain with this file when the server builds the kit). Runs on Node 20 or
 * later with nothing else installed; `KIT` is written above the bundle by the server.
 *
 *   node deposit.mjs <Terrain URL> <folder> [--publish] [--comment <text>] [--plan]
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readDepositTarget, type DepositKit } from '../../src/domain/bundle/depositTargets.ts';
import { readCredentials } from './credentials.ts';
import { outcomeText, summaryText, targetText, type FileResult } from './report.ts';
import { TerrainApi, type DepositOutcome, type KeptVersion } from './terrainApi.ts';
import { depositRequest, type DepositChoices, type DepositRequest } from './depositRequest.ts';

declare const KIT: DepositKit;

interface Options extends DepositChoices {
  baseUrl: string;
  folder: string;
  plan: boolean;
}

const USAGE = 'usage: node deposit.mjs <Terrain URL> <folder> [--publish] [--comment <text>] [--plan]';

function readOptions(args: string[]): Options | undefined {
  const positional: string[] = [];
  const options = { publish: false, comment: '', plan: false };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === '--publish') options.publish = true;
    else if (arg === '--plan') options.plan = true;
    else if (arg === '--comment' && index + 1 < args.length) options.comment = args[++index];
    else if (arg.startsWith('--')) return undefined;
    else positional.push(arg);
  }
  // --plan reads names only: a folder is enough.
  const [baseUrl, folder] = options.plan && positional.length === 1 ? ['', positional[0]] : positional;
  if (folder === undefined || positional.length > 2) return undefined;
  return { baseUrl, folder, ...options };
}

async function csvFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.csv'))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Whether the very same file is a version already (a run more than a day ago, whose keys the server no longer
 * keeps, or a deposit from the interface): the server would take it again as a new version.
 */
async function keptVersionOf(
  api: TerrainApi,
  versions: Map<string, Promise<KeptVersion[]>>,
  request: DepositRequest,
): Promise<KeptVersion | undefined> {
  let list = versions.get(request.dataType);
  if (!list) {
    list = api.versions(request.application, request.dataType);
    versions.set(request.dataType, list);
    // A list that could not be read is asked again for the next file: the network may be back.
    list.catch(() => versions.delete(request.dataType));
  }
  for (const version of await list) {
    if (version.name !== request.fileName || version.size !== request.content.byteLength) continue;
    const kept = await api.versionContent(request.application, version.id);
    if (Buffer.from(kept).equals(request.content)) return version;
  }
  return undefined;
}

/** fetch's own message ("fetch failed") says nothing: its cause says what (refused, reset, unknown host). */
function failureText(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause ? `${String(error)}: ${String(cause)}` : String(error);
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  if (!options) {
    console.error(USAGE);
    return 2;
  }
  const files = await csvFiles(options.folder).catch((error: unknown) => {
    console.error(`cannot read the folder ${options.folder}: ${String(error)}`);
    return undefined;
  });
  if (!files) return 2;
  if (options.plan) {
    const plan = files.map((file) => ({ file, ...readDepositTarget(KIT.targets, file) }));
    console.log(JSON.stringify(plan, null, 2));
    return 0;
  }
  let api: TerrainApi;
  try {
    api = await TerrainApi.signIn(options.baseUrl, await readCredentials());
  } catch (error) {
    console.error(failureText(error));
    return 2;
  }
  const results = new Map<string, FileResult>();
  const versions = new Map<string, Promise<KeptVersion[]>>();
  try {
    for (const [index, file] of files.entries()) {
      const head = `[${index + 1}/${files.length}] ${file}`;
      const reading = readDepositTarget(KIT.targets, file);
      if (reading.kind !== 'found') {
        const why =
          reading.kind === 'none'
            ? `its name follows no file-name pattern (${KIT.targets.map((t) => `${t.dataType}: ${t.submission.fileName!.pattern.source}`).join('; ')})`
            : `its name follows the patterns of several data types (${reading.dataTypes.join(', ')})`;
        console.log(`${head}: skipped, ${why}`);
        results.set(file, { kind: 'skipped' });
        continue;
      }
      const content = new Uint8Array(await readFile(path.join(options.folder, file)));
      const request = depositRequest(KIT.application, reading, file, content, options);
      let outcome: DepositOutcome;
      try {
        const kept = await keptVersionOf(api, versions, request);
        outcome = kept ? { kind: 'already', fileId: kept.id } : await api.deposit(request);
      } catch (error) {
        // The network or the server away: this file failed, the next ones may still go (a later run resumes).
        outcome = {
          kind: 'refused',
          status: 0,
          code: 'REQUEST_FAILED',
          params: { message: failureText(error) },
          errors: [],
        };
      }
      const [first, ...details] = outcomeText(outcome);
      console.log(`${head} → ${targetText(reading)}: ${first}`);
      for (const line of details) console.log(line);
      results.set(file, outcome.kind === 'refused' ? { kind: 'failed', code: outcome.code } : { kind: outcome.kind });
    }
  } finally {
    await api.signOut();
  }
  console.log(summaryText(results));
  return [...results.values()].some((result) => result.kind === 'failed') ? 1 : 0;
}

process.exitCode = await main();
