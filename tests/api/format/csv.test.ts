/**
 * CSV through the format registry (issue 25, point 4), as API Platform 3.4's `csv`
 * (symfony/serializer's CsvEncoder; features/main/content_negotiation.feature's
 * `dummy_custom_formats`): a header row and one row an item out, a header row and one row of
 * values in, problem details for errors, formula cells escaped.
 */
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { Get, GetCollection, Post, Put } from '../../../src/api';
import type { Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore } from '../http/demoOnEveryStore';
import { booksApiPerTest } from './booksApi';

const CSV = 'text/csv';

describeOnEveryStore('CSV', (open) => {
  const api = booksApiPerTest(open, [GetCollection(), Get(), Post(), Put()], ['jsonld', 'json', 'csv']);
  const kernel = (): Kernel => api.kernel();
  const post = (body: string) => request(kernel()).post('/api/books').set('Content-Type', CSV)
    .set('Accept', 'application/json').send(body);

  test('a collection: the header row of the properties, then one row a book, relations as IRIs', async () => {
    const res = await request(kernel()).get('/api/books?order[id]=asc').set('Accept', CSV);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.text).toBe([
      'id,title,isbn,publishedAt,price,featured,author',
      '1,Dune,9780441172719,1965-08-01,9.99,1,/api/authors/1',
      '2,Hyperion,9780553283686,1989-05-26,8.99,0,/api/authors/2',
      '3,Solaris,9780156027601,1961-01-01,12.5,0,/api/authors/3',
      '',
    ].join('\n'));
  });

  test('an item: the header row and its row; an empty collection page: the header row alone', async () => {
    const item = await request(kernel()).get('/api/books/1').set('Accept', CSV);
    expect(item.text.split('\n')[1]).toBe('1,Dune,9780441172719,1965-08-01,9.99,1,/api/authors/1');
    const empty = await request(kernel()).get('/api/books?page=9').set('Accept', CSV);
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('id,title,isbn,publishedAt,price,featured,author\n');
  });

  test('a POST body of a header row and one row creates the book, values read as their kinds', async () => {
    const res = await post('title,price,featured,author,isbn\nUbik,7.5,0,/api/authors/2,\n');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Ubik', price: 7.5, featured: false, author: '/api/authors/2', isbn: null });
    const stored = await request(kernel()).get(String(res.headers.location)).set('Accept', CSV);
    expect(stored.text.split('\n')[1]).toMatch(/^4,Ubik,,,7.5,0,\/api\/authors\/2$/);
  });

  test('a PUT body replaces the book', async () => {
    const res = await request(kernel()).put('/api/books/2').set('Content-Type', CSV).set('Accept', CSV)
      .send('title,price,featured,author\n"Hyperion, revised",10,1,/api/authors/2\n');
    expect(res.status).toBe(200);
    expect(res.text.split('\n')[1]).toBe('2,"Hyperion, revised",,,10,1,/api/authors/2');
  });

  test('quotes, commas, spaces and line breaks are enclosed as fputcsv does, and read back', async () => {
    const title = 'He said "no", then\nleft \\ home';
    const created = await post(`title\n"${title.replace(/"/g, '""')}"\n`);
    expect(created.body.title).toBe(title);
    const res = await request(kernel()).get(String(created.headers.location)).set('Accept', CSV);
    expect(res.text).toContain('"He said ""no"", then\nleft \\ home"');
    expect(parse<Record<string, string>>(res.text, { columns: true })[0].title).toBe(title);
  });

  test('a title a spreadsheet would run as a formula is written with a leading quote, and read back as stored', async () => {
    const created = await post('title\n"=HYPERLINK(""http://evil.test"",""x"")"\n');
    expect(created.status).toBe(201);
    expect(created.body.title).toBe('=HYPERLINK("http://evil.test","x")');
    const res = await request(kernel()).get(String(created.headers.location)).set('Accept', CSV);
    const row = parse<Record<string, string>>(res.text, { columns: true })[0];
    expect(row.title).toBe('\'=HYPERLINK("http://evil.test","x")');
    // the cell as written, sent back, stores the title unchanged
    const put = await request(kernel()).put(String(created.headers.location)).set('Content-Type', CSV)
      .set('Accept', 'application/json').send(`title\n"${row.title.replace(/"/g, '""')}"\n`);
    expect(put.status).toBe(200);
    expect(put.body.title).toBe('=HYPERLINK("http://evil.test","x")');
  });

  test('bad CSV is a 400 that says what is wrong, in problem details', async () => {
    const cases: [string, RegExp][] = [
      ['title\n"Ubik\n', /^Invalid CSV body: .*quote/i],
      ['title,price\nUbik,1,extra\n', /^Invalid CSV body: .*(record length|fields)/i],
      ['title\n', /^Invalid CSV body: expected one row of values after the header row, got 0\.$/],
      ['title\nUbik\nDune\n', /^Invalid CSV body: expected one row of values after the header row, got 2\.$/],
      ['', /^Invalid CSV body: expected a header row and one row of values, got nothing\.$/],
      ['title,title\na,b\n', /^Invalid CSV body: the column "title" is named twice/],
      ['title,\nUbik,x\n', /^Invalid CSV body: column 2 has no name/],
    ];
    for (const [body, detail] of cases) {
      const res = await post(body);
      expect([body, res.status]).toEqual([body, 400]);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.body.detail).toMatch(detail);
    }
  });

  test('a value that is not of its property\'s kind is the usual 400 naming the property', async () => {
    const res = await post('title,price\nUbik,cheap\n');
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('price');
  });

  test('errors of a CSV client are problem details (API Platform has no CSV error encoder)', async () => {
    const res = await request(kernel()).get('/api/books/999').set('Accept', CSV);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toMatchObject({ status: 404, title: 'An error occurred' });
  });
});
