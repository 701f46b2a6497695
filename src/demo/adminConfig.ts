import type { AdminOptions } from '../admin/AdminOptions';

/**
 * The demo's back-office configuration (EasyAdmin's CRUD controllers for Book and Author):
 * labels in English and French, price as money in euros, dates written out, the author's name
 * naming authors, and a custom "Feature" action on a book or a selection of books.
 */
export const DEMO_CRUD: NonNullable<AdminOptions['crud']> = {
  Book: {
    entityLabelInSingular: { en: 'Book', fr: 'Livre' },
    entityLabelInPlural: { en: 'Books', fr: 'Livres' },
    fields: {
      title: { label: { en: 'Title', fr: 'Titre' } },
      isbn: { label: 'ISBN', help: { en: 'ISBN-10 or ISBN-13.', fr: 'ISBN-10 ou ISBN-13.' } },
      publishedAt: { label: { en: 'Published on', fr: 'Paru le' } },
      price: { type: 'money', currency: 'EUR', label: { en: 'Price', fr: 'Prix' } },
      featured: { label: { en: 'Featured', fr: 'En avant' } },
      author: { label: { en: 'Author', fr: 'Auteur' } },
    },
    searchFields: ['title', 'isbn', 'author.name'],
    actions: [{
      name: 'feature',
      label: { en: 'Feature', fr: 'Mettre en avant' },
      confirmation: { en: 'Feature these books on the home page?', fr: 'Mettre ces livres en avant sur l’accueil ?' },
      role: 'ROLE_ADMIN',
      run: async (items, { update }) => {
        for (const item of items) if (item.data.featured !== true) await update(item, { featured: true });
      },
    }],
  },
  Author: {
    entityLabelInSingular: { en: 'Author', fr: 'Auteur' },
    entityLabelInPlural: { en: 'Authors', fr: 'Auteurs' },
    labelProperty: 'name',
    fields: {
      name: { label: { en: 'Name', fr: 'Nom' } },
      birthDate: { label: { en: 'Born on', fr: 'Né le' }, dateStyle: 'long' },
    },
  },
};
