import { entriesInLoadOrder } from '../../src/domain/configuration/entriesInLoadOrder.ts';
import { localized } from '../../src/domain/applications/summary.ts';
import type { Checker, DataEntry, ApplicationModel } from '../../src/domain/configuration/model.ts';

/** The languages of the README (the product's two). */
export type BundleLocale = 'fr' | 'en';

export interface ReadmeInput {
  model: ApplicationModel;
  applicationName: string;
  locale: BundleLocale;
  withData: boolean;
  configurationPath: string;
  /** Template path per data name. */
  templates: Map<string, string>;
  /** Where the deposit script is, when the kit has one. */
  depositScript: string | null;
  createdAt: Date;
}

const TEXTS = {
  fr: {
    colon: ' : ',
    listSeparator: ' ; ',
    title: (title: string, name: string) => `# ${title} (${name}) : kit de dépôt en masse`,
    version: (version: string, date: string) => `Version ${version} de la configuration, kit produit le ${date}.`,
    contents: '## Contenu du zip',
    configuration: (path: string) => `- \`${path}\` : la configuration, telle qu’elle a été déposée.`,
    templates:
      '- `templates/` : un fichier CSV par référence et par type de données, dans l’ordre de chargement. Chaque fichier donne les lignes d’en-tête attendues puis une ligne d’exemple, à remplacer par vos données.',
    data: '- `data/` : toutes les lignes enregistrées, au même format que les modèles, dans l’ordre de chargement (une référence après celles dont elle dépend).',
    deposits:
      '- `deposits/` : les fichiers déposés des types de données versionnés, avec toutes leurs versions ; le manifeste dit lesquelles sont publiées.',
    additionalFiles: '- `additional-files/` : les fichiers additionnels et la charte.',
    manifest:
      '- `manifest.json` : la liste de tous ces fichiers, leurs versions, leurs états de publication et leurs sommes SHA-256.',
    depositScript: (path: string) =>
      `- \`${path}\` : un script Node (version 20 ou plus, rien d’autre à installer) qui dépose les fichiers d’un dossier (voir plus bas).`,
    scriptTitle: '## Déposer un dossier avec le script',
    scriptText: (path: string) => [
      `\`${path}\` dépose chaque fichier CSV d’un dossier comme une version du type de données dont il suit le modèle de nom, le jeu de données et la période lus dans le nom comme le fait le formulaire de dépôt (modèles de nom ci-dessous) :`,
      '',
      '```sh',
      `TERRAIN_LOGIN=moi TERRAIN_PASSWORD=… node ${path} https://terrain.example.org mon-dossier`,
      `node ${path} mon-dossier --plan   # où irait chaque fichier, sans rien envoyer`,
      '```',
      '',
      'Sans ces variables, l’identifiant et le mot de passe sont demandés. `--publish` publie chaque version déposée, `--comment <texte>` lui donne un commentaire.',
      '',
      'Chaque fichier est affiché avec son résultat : déposé, déjà là (ce même fichier est déjà une version), ignoré (son nom ne suit aucun modèle) ou en échec, avec le code d’erreur du serveur et les erreurs de ses lignes. Le script peut être relancé autant de fois qu’il faut : un fichier déjà déposé ne donne pas de seconde version (chaque envoi porte une clé d’idempotence tirée du fichier et de sa cible). Il se termine avec le code 1 si un fichier a échoué.',
    ],
    howTo: '## Charger les données',
    rules: (separator: string) =>
      `Fichiers CSV en UTF-8, séparateur \`${separator}\`, valeurs entre guillemets si besoin. Retirez la ligne d’exemple avant le dépôt. Chargez les fichiers dans cet ordre, depuis la page de chaque référence ou type de données, ou par l’API (\`POST /api/v1/applications/{nom}/references/{référence}\`, \`POST /api/v1/applications/{nom}/data/{type}\`) :`,
    reference: 'référence',
    dataType: 'type de données',
    headerLines: (header: number, first: number) => `en-têtes ligne ${header}, données à partir de la ligne ${first}`,
    separator: (separator: string) => `séparateur \`${separator}\``,
    versioned: (scopes: string) =>
      `déposé par versions : choisissez ${scopes || 'la période'} au dépôt, puis publiez la version`,
    fileName: (pattern: string) => `nom de fichier attendu : \`${pattern}\``,
    constant: (key: string, line: number, column: string) =>
      `- \`${key}\` : valeur unique, ligne ${line}, colonne ${column}`,
    dynamic: (key: string, prefix: string, reference: string) =>
      `- \`${key}\` : une colonne par ligne de la référence \`${reference}\`, titrée \`${prefix}<valeur>\``,
    pattern: (key: string, regex: string) => `- \`${key}\` : les colonnes dont le titre correspond à \`${regex}\``,
    required: 'obligatoire',
    many: 'plusieurs valeurs séparées par des virgules',
    date: (pattern: string) => `date au format \`${pattern}\``,
    integer: 'nombre entier',
    float: 'nombre',
    boolean: '`true` ou `false`',
    referenceTo: (name: string) => `code d’une ligne de \`${name}\``,
    textMatching: (regex: string) => `texte de la forme \`${regex}\``,
    expression: 'texte vérifié par une expression',
    restore: '## Restaurer une sauvegarde',
    restoreText:
      'Sur une autre instance de Terrain, un créateur d’applications restaure ce zip depuis la liste des applications (« Restaurer une sauvegarde ») ou par `POST /api/v1/applications/{nom}/upload-bundle` (champ `file`). Tout est rechargé en une fois, ou rien.',
  },
  en: {
    colon: ': ',
    listSeparator: '; ',
    title: (title: string, name: string) => `# ${title} (${name}): bulk-upload kit`,
    version: (version: string, date: string) => `Configuration version ${version}, kit made on ${date}.`,
    contents: '## What is in this zip',
    configuration: (path: string) => `- \`${path}\`: the configuration, as it was uploaded.`,
    templates:
      '- `templates/`: one CSV file per reference and per data type, in load order. Each file gives the expected header lines, then one example line to replace with your data.',
    data: '- `data/`: every stored row, in the same format as the templates, in load order (each reference after the ones it needs).',
    deposits:
      '- `deposits/`: the deposited files of versioned data types, every version; the manifest says which are published.',
    additionalFiles: '- `additional-files/`: the additional files and the charter.',
    manifest:
      '- `manifest.json`: the list of all these files, their versions, publication states and SHA-256 checksums.',
    depositScript: (path: string) =>
      `- \`${path}\`: a Node script (version 20 or later, nothing else to install) that deposits the files of a folder (see below).`,
    scriptTitle: '## Depositing a folder with the script',
    scriptText: (path: string) => [
      `\`${path}\` deposits every CSV file of a folder as a version of the data type whose file-name pattern it follows, the dataset and the period read from the name as the deposit form reads them (file-name patterns below):`,
      '',
      '```sh',
      `TERRAIN_LOGIN=me TERRAIN_PASSWORD=… node ${path} https://terrain.example.org my-folder`,
      `node ${path} my-folder --plan   # where each file would go, sending nothing`,
      '```',
      '',
      'Without these variables, the login and password are asked for. `--publish` publishes each deposited version, `--comment <text>` gives it a comment.',
      '',
      'Each file is printed with its result: deposited, already there (this very file is a version already), skipped (its name follows no pattern) or failed, with the server’s error code and the errors of its lines. The script can be run again as often as needed: a file already deposited gives no second version (each request carries an idempotency key made from the file and its target). It ends with exit code 1 when a file failed.',
    ],
    howTo: '## Loading data',
    rules: (separator: string) =>
      `CSV files in UTF-8, separator \`${separator}\`, values quoted when needed. Remove the example line before uploading. Load the files in this order, from the page of each reference or data type, or through the API (\`POST /api/v1/applications/{name}/references/{reference}\`, \`POST /api/v1/applications/{name}/data/{type}\`):`,
    reference: 'reference',
    dataType: 'data type',
    headerLines: (header: number, first: number) => `headers on line ${header}, data from line ${first}`,
    separator: (separator: string) => `separator \`${separator}\``,
    versioned: (scopes: string) =>
      `deposited as versions: choose ${scopes || 'the period'} when depositing, then publish the version`,
    fileName: (pattern: string) => `expected file name: \`${pattern}\``,
    constant: (key: string, line: number, column: string) => `- \`${key}\`: one value, line ${line}, column ${column}`,
    dynamic: (key: string, prefix: string, reference: string) =>
      `- \`${key}\`: one column per row of the reference \`${reference}\`, headed \`${prefix}<value>\``,
    pattern: (key: string, regex: string) => `- \`${key}\`: the columns whose header matches \`${regex}\``,
    required: 'required',
    many: 'several values separated by commas',
    date: (pattern: string) => `date as \`${pattern}\``,
    integer: 'whole number',
    float: 'number',
    boolean: '`true` or `false`',
    referenceTo: (name: string) => `code of a row of \`${name}\``,
    textMatching: (regex: string) => `text of the form \`${regex}\``,
    expression: 'text checked by an expression',
    restore: '## Restoring a backup',
    restoreText:
      'On another Terrain instance, an application creator restores this zip from the application list ("Restore a backup") or with `POST /api/v1/applications/{name}/upload-bundle` (field `file`). Everything is loaded at once, or nothing.',
  },
} as const;

type Texts = (typeof TEXTS)[BundleLocale];

function checkerText(texts: Texts, checker: Checker | null): string | undefined {
  if (!checker) return undefined;
  const base = (() => {
    switch (checker.kind) {
      case 'date':
        return texts.date(checker.pattern);
      case 'integer':
        return texts.integer;
      case 'float':
        return texts.float;
      case 'boolean':
        return texts.boolean;
      case 'reference':
        return texts.referenceTo(checker.reference);
      case 'string':
        return checker.pattern ? texts.textMatching(checker.pattern.source) : undefined;
      case 'expression':
        return texts.expression;
    }
  })();
  return checker.multiplicity === 'MANY' ? [base, texts.many].filter(Boolean).join(', ') : base;
}

function columnLines(texts: Texts, entry: DataEntry): string[] {
  const lines: string[] = [];
  const components = new Map(entry.components.map((c) => [c.key, c]));
  for (const column of entry.csv.columns) {
    const component = components.get(column.component);
    const notes = [
      checkerText(texts, component?.checker ?? null),
      component?.required || column.mandatory ? texts.required : undefined,
    ].filter(Boolean);
    lines.push(`- \`${column.header}\`${notes.length ? `${texts.colon}${notes.join(', ')}` : ''}`);
  }
  for (const constant of entry.csv.constants) {
    lines.push(
      texts.constant(
        constant.component,
        constant.row,
        'number' in constant.column ? String(constant.column.number) : constant.column.header,
      ),
    );
  }
  for (const component of entry.components) {
    if (component.kind === 'dynamic')
      lines.push(texts.dynamic(component.key, component.headerPrefix, component.reference));
  }
  for (const pattern of entry.csv.patterns) lines.push(texts.pattern(pattern.component, pattern.headerPattern.source));
  return lines;
}

/** A short README in the asked language: what the zip holds and how to load it, entry by entry. */
export function bundleReadme(input: ReadmeInput): string {
  const { model, locale } = input;
  const texts = TEXTS[locale];
  const title = localized(model.i18n.title, locale, model.defaultLanguage, input.applicationName);
  const out: string[] = [
    texts.title(title, input.applicationName),
    '',
    texts.version(model.version, input.createdAt.toISOString().slice(0, 10)),
    '',
    texts.contents,
    '',
    texts.configuration(input.configurationPath),
    texts.templates,
    ...(input.depositScript ? [texts.depositScript(input.depositScript)] : []),
    ...(input.withData ? [texts.data, texts.deposits, texts.additionalFiles] : []),
    texts.manifest,
    '',
    ...(input.depositScript ? [texts.scriptTitle, '', ...texts.scriptText(input.depositScript), ''] : []),
    texts.howTo,
    '',
    texts.rules(';'),
    '',
  ];
  entriesInLoadOrder(model).forEach((entry, index) => {
    const name = entry.name;
    const notes = [
      entry.kind === 'reference' ? texts.reference : texts.dataType,
      `\`${input.templates.get(name) ?? ''}\``,
      texts.headerLines(entry.csv.headerLine, entry.csv.firstDataLine),
      ...(entry.csv.separator !== ';' ? [texts.separator(entry.csv.separator)] : []),
    ];
    if (entry.submission.strategy === 'OA_VERSIONING') {
      notes.push(texts.versioned(entry.submission.referenceScopes.map((s) => `\`${s.component}\``).join(', ')));
      if (entry.submission.fileName) notes.push(texts.fileName(entry.submission.fileName.pattern.source));
    }
    out.push(
      `${index + 1}. **${localized(entry.i18n.title, locale, model.defaultLanguage, name)}** (\`${name}\`) — ${notes.join(texts.listSeparator)}`,
      '',
    );
    out.push(...columnLines(texts, entry).map((line) => `   ${line}`), '');
  });
  if (input.withData) out.push(texts.restore, '', texts.restoreText, '');
  return out.join('\n');
}
