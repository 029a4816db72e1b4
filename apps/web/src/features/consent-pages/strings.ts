// User-visible strings of the public consent pages a business's customers reach from its mail:
// the preference centre (/p/{token}) and the double opt-in confirmation (/confirm/{token}). They
// name the business, never Titan, and speak the customer's language when it is one of
// CONSENT_PAGE_LOCALES (the server says which for the preference centre; the browser's language
// for the confirmation page).
import type { TConsentPageLocale } from '@titan/contracts';

export type TConsentPageStrings = {
  loading: string;
  invalidTitle: string;
  invalid: string;
  failed: string;
  retry: string;
  // Preference centre
  title: (business: string) => string;
  intro: (email: string) => string;
  channel: string;
  topicsLegend: string;
  noTopics: string;
  leaveAll: string;
  leaveAllHint: string;
  save: string;
  saving: string;
  saved: string;
  leftAllTitle: string;
  leftAll: (business: string, email: string) => string;
  comeBack: string;
  // Double opt-in confirmation
  confirmTitle: (business: string) => string;
  confirmExplain: (address: string, list: string | null, business: string) => string;
  confirmButton: string;
  confirming: string;
  confirmedTitle: string;
  confirmed: (address: string, business: string) => string;
  unsubscribeLater: string;
};

const en: TConsentPageStrings = {
  loading: 'Loading…',
  invalidTitle: 'This link is not valid',
  invalid: 'The link may be incomplete or no longer valid. Open it again from the latest email you received.',
  failed: 'Something went wrong. Please try again.',
  retry: 'Try again',
  title: (business) => `Your emails from ${business}`,
  intro: (email) => `Choose what ${email} receives. Your choice is saved when you press Save.`,
  channel: 'Email',
  topicsLegend: 'Topics',
  noTopics: 'This business sends one kind of email; you can stop all of it below.',
  leaveAll: 'Stop all emails',
  leaveAllHint: 'You will receive no marketing emails at all. Emails from other businesses are not affected.',
  save: 'Save',
  saving: 'Saving…',
  saved: 'Your choice is saved.',
  leftAllTitle: 'You receive no more emails',
  leftAll: (business, email) => `${email} will no longer receive marketing emails from ${business}.`,
  comeBack: 'Changed your mind? Choose topics above and press Save.',
  confirmTitle: (business) => `Confirm your subscription to ${business}`,
  confirmExplain: (address, list, business) =>
    list
      ? `Press the button to confirm that ${address} wants to receive “${list}” from ${business}.`
      : `Press the button to confirm that ${address} wants to receive emails from ${business}.`,
  confirmButton: 'Confirm my subscription',
  confirming: 'Confirming…',
  confirmedTitle: 'Subscription confirmed',
  confirmed: (address, business) => `${address} will receive emails from ${business}.`,
  unsubscribeLater: 'Every email has a link to change your choice or unsubscribe at any time.',
};

const fr: TConsentPageStrings = {
  loading: 'Chargement…',
  invalidTitle: 'Ce lien n’est pas valide',
  invalid: 'Le lien est peut-être incomplet ou n’est plus valide. Ouvrez-le depuis le dernier e-mail reçu.',
  failed: 'Une erreur est survenue. Veuillez réessayer.',
  retry: 'Réessayer',
  title: (business) => `Vos e-mails de ${business}`,
  intro: (email) =>
    `Choisissez ce que reçoit ${email}. Votre choix est enregistré quand vous appuyez sur Enregistrer.`,
  channel: 'E-mail',
  topicsLegend: 'Sujets',
  noTopics: 'Cette entreprise envoie un seul type d’e-mail ; vous pouvez tout arrêter ci-dessous.',
  leaveAll: 'Ne plus recevoir aucun e-mail',
  leaveAllHint:
    'Vous ne recevrez plus aucun e-mail marketing. Les e-mails d’autres entreprises ne changent pas.',
  save: 'Enregistrer',
  saving: 'Enregistrement…',
  saved: 'Votre choix est enregistré.',
  leftAllTitle: 'Vous ne recevez plus d’e-mails',
  leftAll: (business, email) => `${email} ne recevra plus d’e-mails marketing de ${business}.`,
  comeBack: 'Vous avez changé d’avis ? Choisissez des sujets ci-dessus et appuyez sur Enregistrer.',
  confirmTitle: (business) => `Confirmez votre inscription à ${business}`,
  confirmExplain: (address, list, business) =>
    list
      ? `Appuyez sur le bouton pour confirmer que ${address} veut recevoir « ${list} » de ${business}.`
      : `Appuyez sur le bouton pour confirmer que ${address} veut recevoir les e-mails de ${business}.`,
  confirmButton: 'Confirmer mon inscription',
  confirming: 'Confirmation…',
  confirmedTitle: 'Inscription confirmée',
  confirmed: (address, business) => `${address} recevra les e-mails de ${business}.`,
  unsubscribeLater: 'Chaque e-mail contient un lien pour changer d’avis ou vous désinscrire à tout moment.',
};

const de: TConsentPageStrings = {
  loading: 'Wird geladen…',
  invalidTitle: 'Dieser Link ist ungültig',
  invalid:
    'Der Link ist vielleicht unvollständig oder nicht mehr gültig. Öffnen Sie ihn aus der neuesten E-Mail.',
  failed: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
  retry: 'Erneut versuchen',
  title: (business) => `Ihre E-Mails von ${business}`,
  intro: (email) => `Wählen Sie, was ${email} erhält. Ihre Wahl wird mit „Speichern“ übernommen.`,
  channel: 'E-Mail',
  topicsLegend: 'Themen',
  noTopics: 'Dieses Unternehmen sendet nur eine Art von E-Mail; Sie können unten alle abbestellen.',
  leaveAll: 'Keine E-Mails mehr erhalten',
  leaveAllHint:
    'Sie erhalten keine Marketing-E-Mails mehr. E-Mails anderer Unternehmen sind nicht betroffen.',
  save: 'Speichern',
  saving: 'Wird gespeichert…',
  saved: 'Ihre Wahl ist gespeichert.',
  leftAllTitle: 'Sie erhalten keine E-Mails mehr',
  leftAll: (business, email) => `${email} erhält keine Marketing-E-Mails mehr von ${business}.`,
  comeBack: 'Anders entschieden? Wählen Sie oben Themen und drücken Sie „Speichern“.',
  confirmTitle: (business) => `Bestätigen Sie Ihr Abonnement bei ${business}`,
  confirmExplain: (address, list, business) =>
    list
      ? `Drücken Sie die Schaltfläche, um zu bestätigen, dass ${address} „${list}“ von ${business} erhalten möchte.`
      : `Drücken Sie die Schaltfläche, um zu bestätigen, dass ${address} E-Mails von ${business} erhalten möchte.`,
  confirmButton: 'Abonnement bestätigen',
  confirming: 'Wird bestätigt…',
  confirmedTitle: 'Abonnement bestätigt',
  confirmed: (address, business) => `${address} erhält E-Mails von ${business}.`,
  unsubscribeLater:
    'Jede E-Mail enthält einen Link, mit dem Sie Ihre Wahl jederzeit ändern oder abbestellen können.',
};

const es: TConsentPageStrings = {
  loading: 'Cargando…',
  invalidTitle: 'Este enlace no es válido',
  invalid: 'Puede que el enlace esté incompleto o ya no sea válido. Ábralo desde el último correo recibido.',
  failed: 'Algo salió mal. Inténtelo de nuevo.',
  retry: 'Reintentar',
  title: (business) => `Sus correos de ${business}`,
  intro: (email) => `Elija qué recibe ${email}. Su elección se guarda al pulsar Guardar.`,
  channel: 'Correo electrónico',
  topicsLegend: 'Temas',
  noTopics: 'Esta empresa envía un solo tipo de correo; puede dejar de recibirlo todo abajo.',
  leaveAll: 'No recibir ningún correo',
  leaveAllHint: 'No recibirá ningún correo de marketing. Los correos de otras empresas no cambian.',
  save: 'Guardar',
  saving: 'Guardando…',
  saved: 'Su elección se ha guardado.',
  leftAllTitle: 'Ya no recibe correos',
  leftAll: (business, email) => `${email} ya no recibirá correos de marketing de ${business}.`,
  comeBack: '¿Ha cambiado de opinión? Elija temas arriba y pulse Guardar.',
  confirmTitle: (business) => `Confirme su suscripción a ${business}`,
  confirmExplain: (address, list, business) =>
    list
      ? `Pulse el botón para confirmar que ${address} quiere recibir «${list}» de ${business}.`
      : `Pulse el botón para confirmar que ${address} quiere recibir correos de ${business}.`,
  confirmButton: 'Confirmar mi suscripción',
  confirming: 'Confirmando…',
  confirmedTitle: 'Suscripción confirmada',
  confirmed: (address, business) => `${address} recibirá correos de ${business}.`,
  unsubscribeLater:
    'Cada correo incluye un enlace para cambiar su elección o darse de baja en cualquier momento.',
};

export const CONSENT_PAGE_STRINGS: Record<TConsentPageLocale, TConsentPageStrings> = { en, fr, de, es };

/** The locale the pages speak for `locale`, else the browser's language, else English. */
export function consentLocale(locale?: string | null): TConsentPageLocale {
  const lang = (locale ?? (typeof navigator !== 'undefined' ? navigator.language : 'en'))
    .toLowerCase()
    .split(/[-_]/)[0];
  return lang && lang in CONSENT_PAGE_STRINGS ? (lang as TConsentPageLocale) : 'en';
}

/** The strings of that locale. */
export function consentStrings(locale?: string | null): TConsentPageStrings {
  return CONSENT_PAGE_STRINGS[consentLocale(locale)];
}
