/**
 * `adminRoutes(options)` on a resource of every property kind, in a kernel of its own (no
 * firewall: `role: 'PUBLIC_ACCESS'`): the route names and paths, the form controls the schema
 * gives (textarea, select of an enum, datetime-local in UTC, help text from `.describe()`,
 * readOnly shown and not editable), and the start-up errors naming the option.
 */
import request from 'supertest';
import { z } from 'zod';
import { adminRoutes } from '../../src/admin';
import { defineResource, MemoryState, readOnly, relation, text } from '../../src/api';
import { KernelConfigError } from '../../src/config/KernelConfigError';
import { createKernel, type Kernel } from '../../src/kernel/createKernel';
import { tokenOf } from './backOffice';

const state = new MemoryState();
const article = defineResource({
  shortName: 'Article',
  schema: z.object({
    id: readOnly(z.int()),
    headline: z.string().min(3).describe('What readers see first.'),
    body: text(z.string()).nullable().optional(),
    status: z.enum(['draft', 'published']),
    priority: z.int().min(1).max(5),
    scheduledAt: z.iso.datetime().nullable().optional(),
    slug: readOnly(z.string()).nullable().optional(),
  }),
  provider: state,
  processor: state,
});

describe('adminRoutes(options)', () => {
  let kernel: Kernel;
  beforeAll(() => {
    const routes = adminRoutes({ resources: [article], role: 'PUBLIC_ACCESS', itemsPerPage: 5 });
    kernel = createKernel({
      routes, debug: false, environment: 'test', secret: 'a test secret of at least thirty-two characters',
      session: { store: 'memory' },
    });
  });
  afterAll(() => kernel.close());

  test('declares the dashboard, login, logout, stylesheet and the resource\'s screens by name', () => {
    const routes = adminRoutes({ resources: [article] });
    expect(routes.all().map(([name, route]) => `${name} ${route.methods.join("|")} ${route.path}`)).toEqual([
      'admin_dashboard GET /admin',
      'admin_audit GET /admin/audit',
      'admin_login GET /admin/login',
      'admin_logout POST /admin/logout',
      'admin_locale POST /admin/locale',
      'admin_stylesheet GET /bundles/admin/admin.css',
      'admin_articles_index GET /admin/articles',
      'admin_articles_export GET /admin/articles/export.csv',
      'admin_articles_new GET|POST /admin/articles/new',
      'admin_articles_batch_delete POST /admin/articles/batch-delete',
      'admin_articles_detail GET /admin/articles/{id}',
      'admin_articles_edit GET|POST /admin/articles/{id}/edit',
      'admin_articles_delete GET|POST /admin/articles/{id}/delete',
    ]);
  });

  test('the form has a control for each kind, help text from the schema, readOnly shown but not editable', async () => {
    const agent = request.agent(kernel);
    const form = await agent.get('/admin/articles/new').expect(200);
    expect(form.text).toMatch(/id="field-headline" name="headline" aria-required="true" aria-describedby="help-headline"/);
    expect(form.text).toContain('<p class="help" id="help-headline">What readers see first.</p>');
    expect(form.text).toContain('<textarea id="field-body" name="body" rows="6"></textarea>');
    expect(form.text).toMatch(/<select id="field-status" name="status" aria-required="true">\s*<option value="draft">/);
    expect(form.text).toMatch(/<input type="number" id="field-priority" name="priority"[^>]* step="1">/);
    expect(form.text).toMatch(/<input type="datetime-local" id="field-scheduledAt" name="scheduledAt"/);
    expect(form.text).not.toContain('name="slug"');
    const created = await agent.post('/admin/articles/new').type('form').send({
      _token: tokenOf(form.text), headline: 'Hello', body: 'Long\ntext', status: 'published', priority: '2',
      scheduledAt: '2026-12-01T09:30', slug: 'forged',
    }).expect(303);
    expect(created.headers.location).toBe('/admin/articles/1');
    expect((await state.provideItem(article.metadata, 1))?.data).toMatchObject({
      headline: 'Hello', body: 'Long\ntext', status: 'published', priority: 2,
      scheduledAt: '2026-12-01T09:30:00.000Z', slug: null,
    });
    const edit = await agent.get('/admin/articles/1/edit').expect(200);
    expect(edit.text).toMatch(/<textarea id="field-body" name="body"[^>]*>Long\ntext<\/textarea>/);
    expect(edit.text).toContain('value="2026-12-01T09:30"');
    expect(edit.text).toMatch(/<span class="label" id="field-slug-label">Slug<\/span>/);
    const bad = await agent.post('/admin/articles/1/edit').type('form')
      .send({ _token: tokenOf(edit.text), _version: '1', headline: 'Hi', status: 'archived', priority: '9' }).expect(422);
    expect(bad.text).toMatch(/id="error-headline"><p>Too small: expected string to have &gt;=3 characters<\/p>/);
    expect(bad.text).toMatch(/id="error-status"><p>Invalid option: expected one of &quot;draft&quot;\|&quot;published&quot;<\/p>/);
    expect(bad.text).toMatch(/id="error-priority"><p>Too big: expected number to be &lt;=5<\/p>/);
  });

  test('bad options are start-up errors naming the option', () => {
    expect(() => adminRoutes({ resources: [] })).toThrow(KernelConfigError);
    expect(() => adminRoutes({ resources: [] })).toThrow(/admin\.resources/);
    expect(() => adminRoutes({ resources: [article], prefix: '/admin/' })).toThrow(/admin\.prefix/);
    expect(() => adminRoutes({ resources: [article], itemsPerPage: 0 })).toThrow(/admin\.itemsPerPage/);
    expect(() => adminRoutes({ resources: [article], prefx: '/x' } as never)).toThrow(/prefix/);
    const book = defineResource({
      shortName: 'Book', schema: z.object({ author: relation('Author') }), provider: state, processor: state,
    });
    expect(() => adminRoutes({ resources: [book] })).toThrow(/admin\.resources\.Book\.schema\.author/);
  });
});
