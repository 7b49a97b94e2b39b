import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rightsRequestMail } from './rightsRequestMails.ts';
import { keyMail, registrationNoticeMail } from './templates.ts';

/**
 * French puts a space before `: ; ? !` and inside « »: a no-break one, or the line can break there and leave the sign
 * alone at the start of the next line (on a phone, often).
 */
function breakableFrenchSpaces(text: string): string[] {
  return [...text.matchAll(/.{0,20}(?: [:;?!»]|« ).{0,10}/gu)].map((match) => match[0]);
}

/** The translated strings of a Lingui catalogue, continuation lines joined. */
function translations(file: string): string[] {
  const found: string[] = [];
  let current: string[] | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('msgstr')) {
      current = [line.slice(line.indexOf('"') + 1, -1)];
      found.push('');
    } else if (current && line.startsWith('"')) current.push(line.slice(1, -1));
    else current = undefined;
    if (current) found[found.length - 1] = current.join('');
  }
  return found;
}

describe('French texts', () => {
  const catalogues = path.resolve(import.meta.dirname, '../../locales/fr');

  it.each(readdirSync(catalogues).filter((name) => name.endsWith('.po')))(
    'of the %s catalogue never break a line before : ; ? ! or inside « »',
    (name) => {
      const texts = translations(path.join(catalogues, name));
      expect(texts.length).toBeGreaterThan(100);
      expect(texts.flatMap(breakableFrenchSpaces)).toEqual([]);
    },
  );

  it('of the mails never break a line before : ; ? ! or inside « »', () => {
    const values = { login: 'ana', application: 'Suivis', url: 'https://terrain.example.org', comment: 'Thèse' };
    const mails = [
      ...(['activation', 'password', 'email'] as const).map((kind) =>
        keyMail(kind, 'fr', { login: 'ana', key: 'ABCDE12345', minutes: 30, url: values.url }),
      ),
      ...(['created', 'granted', 'closed'] as const).map((kind) => rightsRequestMail(kind, 'fr', values)),
      registrationNoticeMail('fr', values),
    ];
    expect(mails.flatMap((mail) => breakableFrenchSpaces(`${mail.subject}\n${mail.text}`))).toEqual([]);
  });
});
