/**
 * The table "Folders and what may import what" of the architecture map, as import-x/no-restricted-paths zones: a
 * folder named here may import, of src/ (or server/), only itself and the folders listed with it. Departures from
 * the map are explained in docs/decisions.md ("Checked architecture"). Packages are not listed here:
 * eslint.config.js keeps them out of src/domain, the one folder whose packages matter to the design.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const entries = (folder) => readdirSync(path.join(root, folder), { withFileTypes: true });

const browser = {
  'src/domain': [],
  'src/contract': ['src/domain'],
  'src/workers': ['src/domain'],
  'src/lib': ['src/contract', 'src/domain'],
  'src/offline': ['src/lib', 'src/contract', 'src/domain'],
  'src/components/ui': ['src/lib'],
  'src/components': ['src/lib', 'src/offline', 'src/contract', 'src/domain'],
  'src/routes': ['src/features', 'src/components', 'src/lib', 'src/offline', 'src/contract', 'src/domain'],
  'src/sw.ts': ['src/offline', 'src/lib', 'src/contract', 'src/domain'],
};

/** The parts of src/domain the map says import nothing outside themselves, and the leaves they lean on. */
const domain = {
  'src/domain/errors': [],
  'src/domain/keys': ['src/domain/memo'],
  // The Java date pattern reader and its LocalDateTime arithmetic import nothing else; expressions share them.
  'src/domain/expressions': [
    'src/domain/keys',
    'src/domain/regex',
    'src/domain/configuration/javaDatePattern.ts',
    'src/domain/configuration/localDateTime.ts',
  ],
  'src/domain/memo': [],
  'src/domain/regex': [],
  'src/domain/text': [],
};

const featureMayImport = ['src/components', 'src/lib', 'src/offline', 'src/workers', 'src/contract', 'src/domain'];

const server = {
  'server/db': [],
  'server/workers': [],
  // The kit's deposit script runs on the depositor's machine: it may import src/domain, nothing of the server.
  'server/kit': [],
  'server/mail': ['server/db'],
  'server/jobs': ['server/db', 'server/services', 'server/http', 'server/context.ts'],
  'server/services': ['server/db', 'server/workers', 'server/http', 'server/context.ts', 'server/mail', 'server/jobs'],
  'server/routes': ['server/services', 'server/http', 'server/context.ts', 'server/mail', 'server/jobs'],
};

/** `target` may import, of `base`, only itself and `allowed`. */
function mayImport(target, base, allowed, message) {
  const relative = (folder) => `./${folder.slice(base.length + 1)}`;
  const own = target.startsWith(`${base}/`) ? [relative(target)] : [];
  return { target, from: base, except: [...own, ...allowed.map(relative)], message };
}

export function architectureZones() {
  const features = entries('src/features')
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const notApp = entries('server')
    .map((entry) => `server/${entry.name}`)
    .filter((name) => !['server/app.ts', 'server/routes'].includes(name));
  const seeMap = 'See the table in the architecture map and docs/decisions.md ("Checked architecture").';
  return [
    ...Object.entries(browser).map(([target, allowed]) => mayImport(target, 'src', allowed, seeMap)),
    ...Object.entries(domain).map(([target, allowed]) => mayImport(target, 'src/domain', allowed, seeMap)),
    ...features.map((name) =>
      mayImport(
        `src/features/${name}`,
        'src',
        featureMayImport,
        'A feature never imports another feature: move what both need to src/lib, src/components or src/domain.',
      ),
    ),
    ...Object.entries(server).map(([target, allowed]) => mayImport(target, 'server', allowed, seeMap)),
    { target: notApp, from: 'server/routes', message: 'Only server/app.ts registers routes.' },
    mayImport('server', 'src', ['src/domain', 'src/contract'], 'The server shares src/domain and src/contract only.'),
    { target: 'src', from: 'server', message: 'Browser code never imports the server.' },
  ];
}
