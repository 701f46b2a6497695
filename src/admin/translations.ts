/**
 * The back office's words in English and French (the catalogs of Symfony's translator, cut down
 * to one flat map per locale). Keys are the English UI's places (`index.search`), values may hold
 * `{name}` placeholders. Both catalogs have the same keys (a test checks it); a locale without a
 * catalog (e.g. `de`) gets English.
 * @module
 */

/** The English catalog: the keys every catalog has. */
export const EN = Object.freeze({
  'layout.title': 'Back office',
  'layout.skip': 'Skip to content',
  'layout.dashboard': 'Dashboard',
  'error.title': 'Error {status}',
  'layout.navigation': 'Resources',
  'layout.logout': 'Log out',
  'layout.signed_in_as': 'Signed in as {user}',
  'dashboard.title': 'Dashboard',
  'dashboard.items': '{count} items',
  'dashboard.latest': 'Latest changes',
  'dashboard.none': 'No change yet.',
  'audit.when': 'When',
  'audit.user': 'User',
  'audit.action': 'Action',
  'audit.item': 'Item',
  'audit.changes': 'Changed fields',
  'audit.create': 'created',
  'audit.update': 'updated',
  'audit.delete': 'deleted',
  'audit.failed': 'Nothing was saved: the audit log cannot be written right now. Try again in a moment.',
  'index.new': 'New {resource}',
  'index.search': 'Search',
  'index.search_label': 'Search in {fields}',
  'index.filters': 'Filters',
  'index.apply': 'Apply',
  'index.reset': 'Reset',
  'index.any': 'Any',
  'index.yes': 'Yes',
  'index.no': 'No',
  'index.min': '{field}: from',
  'index.max': '{field}: to',
  'index.after': '{field}: on or after',
  'index.before': '{field}: on or before',
  'index.exists': '{field}: set',
  'index.empty': 'Nothing found.',
  'index.total': '{count} items',
  'index.actions': 'Actions',
  'index.select': 'Select {item}',
  'index.selection': 'Selection',
  'index.batch_delete': 'Delete selected',
  'index.pagination': 'Pages',
  'index.previous': 'Previous',
  'index.next': 'Next',
  'index.page': 'Page {page} of {pages}',
  'index.sort_by': 'Sort by {field}',
  'action.show': 'Show',
  'action.edit': 'Edit',
  'action.delete': 'Delete',
  'action.back': 'Back to the list',
  'action.save': 'Save',
  'action.create': 'Create',
  'action.cancel': 'Cancel',
  'form.new_title': 'New {resource}',
  'form.edit_title': 'Edit {item}',
  'form.required': 'required',
  'form.none': '(none)',
  'form.errors': 'The form has errors; they are shown next to their fields.',
  'form.read_only': 'Read-only',
  'form.datetime_utc': 'Date and time in UTC.',
  'form.conflict': 'Someone else changed this item since you opened the form; nothing was saved. '
    + 'Open the form again to edit the current version.',
  'detail.title': '{item}',
  'delete.title': 'Delete {item}?',
  'delete.confirm': 'This deletes {item} for good.',
  'delete.referenced': '{item} cannot be deleted: {by} refers to it.',
  'delete.conflict': 'Someone else changed {item} since you opened this page; nothing was deleted.',
  'flash.created': '{item} was created.',
  'flash.updated': '{item} was saved.',
  'flash.deleted': '{item} was deleted.',
  'flash.batch_deleted': '{count} items were deleted.',
  'flash.batch_kept': 'Not deleted: {items}.',
  'flash.batch_none': 'No item was selected.',
  'flash.batch_audit_failed': 'The audit log cannot be written right now: the other items were kept. '
    + 'Try again in a moment.',
  'login.title': 'Sign in',
  'login.username': 'Username',
  'login.password': 'Password',
  'login.submit': 'Sign in',
  'login.invalid_credentials': 'Invalid credentials.',
  'login.throttled': 'Too many failed login attempts, please try again in {minutes} minute(s).',
  'value.yes': 'Yes',
  'value.no': 'No',
  'value.empty': '—',
});

/** A message key. */
export type MessageKey = keyof typeof EN;

/** A catalog: a message for every key. */
export type Catalog = Readonly<Record<MessageKey, string>>;

/** The French catalog. */
export const FR: Catalog = Object.freeze({
  'layout.title': 'Administration',
  'layout.skip': 'Aller au contenu',
  'layout.dashboard': 'Tableau de bord',
  'error.title': 'Erreur {status}',
  'layout.navigation': 'Ressources',
  'layout.logout': 'Se déconnecter',
  'layout.signed_in_as': 'Connecté en tant que {user}',
  'dashboard.title': 'Tableau de bord',
  'dashboard.items': '{count} éléments',
  'dashboard.latest': 'Dernières modifications',
  'dashboard.none': 'Aucune modification pour l’instant.',
  'audit.when': 'Quand',
  'audit.user': 'Utilisateur',
  'audit.action': 'Action',
  'audit.item': 'Élément',
  'audit.changes': 'Champs modifiés',
  'audit.create': 'créé',
  'audit.update': 'modifié',
  'audit.delete': 'supprimé',
  'audit.failed': 'Rien n’a été enregistré : le journal d’audit ne peut pas être écrit pour le moment. '
    + 'Réessayez dans un instant.',
  'index.new': 'Nouveau : {resource}',
  'index.search': 'Rechercher',
  'index.search_label': 'Rechercher dans {fields}',
  'index.filters': 'Filtres',
  'index.apply': 'Appliquer',
  'index.reset': 'Réinitialiser',
  'index.any': 'Tous',
  'index.yes': 'Oui',
  'index.no': 'Non',
  'index.min': '{field} : à partir de',
  'index.max': '{field} : jusqu’à',
  'index.after': '{field} : le ou après le',
  'index.before': '{field} : le ou avant le',
  'index.exists': '{field} : renseigné',
  'index.empty': 'Aucun résultat.',
  'index.total': '{count} éléments',
  'index.actions': 'Actions',
  'index.select': 'Sélectionner {item}',
  'index.selection': 'Sélection',
  'index.batch_delete': 'Supprimer la sélection',
  'index.pagination': 'Pages',
  'index.previous': 'Précédente',
  'index.next': 'Suivante',
  'index.page': 'Page {page} sur {pages}',
  'index.sort_by': 'Trier par {field}',
  'action.show': 'Afficher',
  'action.edit': 'Modifier',
  'action.delete': 'Supprimer',
  'action.back': 'Retour à la liste',
  'action.save': 'Enregistrer',
  'action.create': 'Créer',
  'action.cancel': 'Annuler',
  'form.new_title': 'Nouveau : {resource}',
  'form.edit_title': 'Modifier {item}',
  'form.required': 'obligatoire',
  'form.none': '(aucun)',
  'form.errors': 'Le formulaire contient des erreurs ; elles sont indiquées à côté de leurs champs.',
  'form.read_only': 'Lecture seule',
  'form.datetime_utc': 'Date et heure en UTC.',
  'form.conflict': 'Quelqu’un d’autre a modifié cet élément depuis l’ouverture du formulaire ; rien n’a été '
    + 'enregistré. Rouvrez le formulaire pour modifier la version actuelle.',
  'detail.title': '{item}',
  'delete.title': 'Supprimer {item} ?',
  'delete.confirm': 'Cette action supprime {item} définitivement.',
  'delete.referenced': '{item} ne peut pas être supprimé : {by} y fait référence.',
  'delete.conflict': 'Quelqu’un d’autre a modifié {item} depuis l’ouverture de cette page ; rien n’a été supprimé.',
  'flash.created': '{item} a été créé.',
  'flash.updated': '{item} a été enregistré.',
  'flash.deleted': '{item} a été supprimé.',
  'flash.batch_deleted': '{count} éléments ont été supprimés.',
  'flash.batch_kept': 'Non supprimés : {items}.',
  'flash.batch_none': 'Aucun élément n’a été sélectionné.',
  'flash.batch_audit_failed': 'Le journal d’audit ne peut pas être écrit pour le moment : les autres éléments '
    + 'ont été gardés. Réessayez dans un instant.',
  'login.title': 'Connexion',
  'login.username': 'Nom d’utilisateur',
  'login.password': 'Mot de passe',
  'login.submit': 'Se connecter',
  'login.invalid_credentials': 'Identifiants invalides.',
  'login.throttled': 'Trop de tentatives de connexion infructueuses, veuillez réessayer dans {minutes} minute(s).',
  'value.yes': 'Oui',
  'value.no': 'Non',
  'value.empty': '—',
});

/** The catalogs by language. */
export const CATALOGS: Readonly<Record<string, Catalog>> = Object.freeze({ en: EN, fr: FR });

/** Translates a key, replacing `{name}` placeholders with `params`. */
export type Translator = (key: MessageKey, params?: Readonly<Record<string, string | number>>) => string;

/**
 * The translator of a locale: its language's catalog (`fr-CA` → `fr`), English otherwise.
 * @param locale - `req.locale` (a BCP 47 tag), or undefined
 * @returns the translator, and the language it speaks (for `<html lang>`)
 */
export function translatorFor(locale: string | undefined): { t: Translator; lang: string } {
  const language = (locale ?? 'en').split(/[-_]/)[0].toLowerCase();
  const lang = language in CATALOGS ? language : 'en';
  const catalog = CATALOGS[lang];
  const t: Translator = (key, params = {}) =>
    catalog[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  return { t, lang };
}
