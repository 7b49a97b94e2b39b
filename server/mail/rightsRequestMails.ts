import type { MailLanguage } from './templates.ts';

/** Mails of rights requests: managers hear of a new request, the requester of its outcome. */
interface Values {
  login: string;
  application: string;
  url: string;
  comment: string;
}

type Kind = 'created' | 'granted' | 'closed';

const texts: Record<MailLanguage, Record<Kind, { subject: string; body: string }>> = {
  fr: {
    created: {
      subject: 'Terrain : demande de droits de {login} sur {application}',
      body: '{login} demande des droits sur l’application {application}. Son commentaire :\n\n    {comment}\n\nPour accorder ou clore la demande :',
    },
    granted: {
      subject: 'Terrain : vos droits sur {application} sont accordés',
      body: 'Votre demande de droits sur l’application {application} a été accordée. Commentaire :\n\n    {comment}\n\nVos données vous attendent :',
    },
    closed: {
      subject: 'Terrain : votre demande de droits sur {application} est close',
      body: 'Votre demande de droits sur l’application {application} a été close sans droits accordés. Commentaire :\n\n    {comment}\n\nVotre demande :',
    },
  },
  en: {
    created: {
      subject: 'Terrain: rights request from {login} on {application}',
      body: '{login} asks for rights on the application {application}. Their comment:\n\n    {comment}\n\nTo grant or close the request:',
    },
    granted: {
      subject: 'Terrain: your rights on {application} are granted',
      body: 'Your rights request on the application {application} was granted. Comment:\n\n    {comment}\n\nYour data are waiting for you:',
    },
    closed: {
      subject: 'Terrain: your rights request on {application} is closed',
      body: 'Your rights request on the application {application} was closed without granting rights. Comment:\n\n    {comment}\n\nYour request:',
    },
  },
};

export function rightsRequestMail(kind: Kind, language: MailLanguage, values: Values) {
  const text = texts[language][kind];
  const fill = (s: string) => s.replace(/\{(login|application|comment)\}/g, (_m, key: keyof Values) => values[key]);
  return { subject: fill(text.subject), text: `${fill(text.body)}\n\n${values.url}\n` };
}

/** A stored or asked language as one of the mail languages (French, the product's default, otherwise). */
export const asMailLanguage = (language: string | null | undefined): MailLanguage => (language === 'en' ? 'en' : 'fr');
