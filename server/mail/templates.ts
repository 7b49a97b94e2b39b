/** Mail texts in the two languages of the product. The key stands alone on its line so it copies cleanly. */
export type MailLanguage = 'fr' | 'en';
export type KeyMailKind = 'activation' | 'password' | 'email';

interface KeyMailText {
  subject: string;
  intro: string;
}

const texts: Record<MailLanguage, Record<KeyMailKind, KeyMailText>> = {
  fr: {
    activation: {
      subject: 'Terrain : votre clé d’activation',
      intro:
        'Voici la clé qui active votre compte Terrain « {login} ». Saisissez-la dans le champ « clé d’activation » :',
    },
    password: {
      subject: 'Terrain : votre clé de connexion',
      intro: 'Vous avez demandé à changer le mot de passe du compte « {login} ». Saisissez cette clé de connexion :',
    },
    email: {
      subject: 'Terrain : confirmez votre nouvelle adresse',
      intro: 'Pour faire de cette adresse celle du compte « {login} », saisissez cette clé de vérification :',
    },
  },
  en: {
    activation: {
      subject: 'Terrain: your activation key',
      intro: 'Here is the key that activates your Terrain account "{login}". Type it in the "activation key" field:',
    },
    password: {
      subject: 'Terrain: your connection key',
      intro: 'You asked to change the password of the account "{login}". Type this connection key:',
    },
    email: {
      subject: 'Terrain: confirm your new address',
      intro: 'To make this address the one of the account "{login}", type this verification key:',
    },
  },
};

const footer: Record<MailLanguage, string> = {
  fr: 'Cette clé ne sert qu’une fois et reste valable {minutes} minutes. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.',
  en: 'This key works once and stays valid for {minutes} minutes. If you did not ask for it, ignore this message.',
};

export function keyMail(
  kind: KeyMailKind,
  language: MailLanguage,
  values: { login: string; key: string; minutes: number; url: string },
) {
  const text = texts[language][kind];
  const fill = (s: string) => s.replace('{login}', values.login).replace('{minutes}', String(values.minutes));
  return {
    subject: text.subject,
    text: `${fill(text.intro)}\n\n    ${values.key}\n\n${fill(footer[language])}\n\n${values.url}\n`,
  };
}

const registrationNotice: Record<MailLanguage, { subject: string; text: string }> = {
  fr: {
    subject: 'Terrain : inscription avec votre adresse',
    text:
      'Quelqu’un a voulu créer un compte Terrain avec votre adresse, qui est déjà celle du compte « {login} ». ' +
      'Aucun compte n’a été créé.\n\n' +
      'Si c’était vous, connectez-vous avec cet identifiant, ou choisissez « Mot de passe perdu ? » sur la page de ' +
      'connexion pour recevoir une clé. Sinon, ignorez ce message : votre compte n’a pas changé.',
  },
  en: {
    subject: 'Terrain: a registration with your address',
    text:
      'Someone tried to create a Terrain account with your address, which is already the one of the account "{login}". ' +
      'No account was created.\n\n' +
      'If it was you, sign in with that login, or choose "Lost password?" on the sign-in page to receive a key. ' +
      'Otherwise, ignore this message: your account has not changed.',
  },
};

/**
 * To the owner of an address someone registered with: registration answers as for a new account (so that it tells
 * no one which addresses have one), and the owner, who may have forgotten their account, learns how to get back in.
 */
export function registrationNoticeMail(language: MailLanguage, values: { login: string; url: string }) {
  const text = registrationNotice[language];
  return { subject: text.subject, text: `${text.text.replace('{login}', values.login)}\n\n${values.url}\n` };
}

/** The first of fr/en named in an Accept-Language header, French otherwise (the product's default). */
export function mailLanguage(acceptLanguage: string | undefined): MailLanguage {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (tag === 'fr' || tag === 'en') return tag;
  }
  return 'fr';
}
