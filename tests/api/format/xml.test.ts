/**
 * XML through the format registry (issue 25, point 4), as API Platform 3.4's `xml`
 * (symfony/serializer's XmlEncoder; features/main/content_negotiation.feature): `<response>`
 * with one element a property, collections as `<item key="n">`, bodies in, entity and document
 * type declarations refused, malformed XML a 400, errors as problem details.
 */
import request from 'supertest';
import { Get, GetCollection, Post, Put } from '../../../src/api';
import type { Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore } from '../http/demoOnEveryStore';
import { booksApiPerTest } from './booksApi';

const XML = 'application/xml';
const DUNE = '<id>1</id><title>Dune</title><isbn>9780441172719</isbn><publishedAt>1965-08-01</publishedAt>'
  + '<price>9.99</price><featured>1</featured><author>/api/authors/1</author>';

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<book><title>&lol4;</title></book>`;

describeOnEveryStore('XML', (open) => {
  const api = booksApiPerTest(open, [GetCollection(), Get(), Post(), Put()], ['jsonld', 'json', 'xml']);
  const kernel = (): Kernel => api.kernel();
  const post = (body: string, accept = XML) => request(kernel()).post('/api/books').set('Content-Type', XML)
    .set('Accept', accept).send(body);

  test('an item: <response> with one element a property, as symfony\'s XmlEncoder writes it', async () => {
    const res = await request(kernel()).get('/api/books/1').set('Accept', XML);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.text).toBe(`<?xml version="1.0"?>\n<response>${DUNE}</response>\n`);
  });

  test('a collection asked as text/xml: one <item key="n"> a book, in application/xml', async () => {
    const res = await request(kernel()).get('/api/books?order[id]=asc&itemsPerPage=2').set('Accept', 'text/xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.text).toMatch(new RegExp(`^<\\?xml version="1.0"\\?>\\n<response><item key="0">${DUNE}</item>`
      + '<item key="1"><id>2</id><title>Hyperion</title>.*</item></response>\\n$'));
  });

  test('an XML body creates the book; null properties are empty elements', async () => {
    const res = await post('<root>\n    <title>XML!</title>\n    <price>7.5</price>\n    <featured>false</featured>\n</root>');
    expect(res.status).toBe(201);
    expect(res.text).toBe('<?xml version="1.0"?>\n<response><id>4</id><title>XML!</title><isbn/><publishedAt/>'
      + '<price>7.5</price><featured>0</featured><author/></response>\n');
  });

  test('a JSON body answered in XML, and an XML body answered in JSON', async () => {
    const json = await request(kernel()).post('/api/books').set('Content-Type', 'application/json').set('Accept', XML)
      .send({ title: 'Sent in JSON', author: '/api/authors/2' });
    expect(json.status).toBe(201);
    expect(json.text).toContain('<title>Sent in JSON</title>');
    const xml = await post('<book><title>A &amp; B &#233;</title><author>/api/authors/3</author></book>', 'application/json');
    expect(xml.status).toBe(201);
    expect(xml.body).toMatchObject({ title: 'A & B é', author: '/api/authors/3' });
  });

  test('a text with markup characters is a CDATA section, and a PUT of it stores it unchanged', async () => {
    const title = 'a <b> & ]]> c';
    const res = await request(kernel()).put('/api/books/2').set('Content-Type', 'text/xml').set('Accept', XML)
      .send(`<book><title><![CDATA[a <b> & ]]]]><![CDATA[> c]]></title><featured>0</featured></book>`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title><![CDATA[a <b> & ]]]]><![CDATA[> c]]></title>');
    const json = await request(kernel()).get('/api/books/2').set('Accept', 'application/json');
    expect(json.body.title).toBe(title);
  });

  test('entity and document type declarations are refused before parsing: billion laughs, external entities', async () => {
    const external = '<?xml version="1.0"?><!DOCTYPE b [<!ENTITY x SYSTEM "file:///etc/passwd">]><b><title>&x;</title></b>';
    for (const body of [BILLION_LAUGHS, external, '<b><!DOCTYPE x><title>t</title></b>']) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.body.detail).toBe(
        'Invalid XML body: document types and entity declarations (<!DOCTYPE, <!ENTITY) are not allowed.',
      );
    }
    const collection = await request(kernel()).get('/api/books').set('Accept', 'application/json');
    expect(collection.body).toHaveLength(3);
  });

  test('malformed XML is a 400 that says what and where', async () => {
    const cases: [string, RegExp][] = [
      ['<book><title>Ubik</book>', /^Invalid XML body: .*closing tag.*\(line 1, column \d+\)\.$/],
      ['<book><title>A & B</title></book>', /^Invalid XML body: .*'&'/],
      ['<book><title>&nbsp;</title></book>', /^Invalid XML body: the entity "&nbsp;" is not defined\.$/],
      ['<book><title>&#0;</title></book>', /^Invalid XML body: "&#0;" is not a character XML can carry\.$/],
      ['<a><title>x</title></a><b/>', /^Invalid XML body: expected one root element, got 2\.$/],
      ['title: Ubik', /^Invalid XML body: /],
      ['', /^Invalid XML body: /],
      [`${'<a>'.repeat(12_000)}${'</a>'.repeat(12_000)}`, /^Invalid XML body: /],
    ];
    for (const [body, detail] of cases) {
      const res = await post(body);
      expect([body.slice(0, 40), res.status]).toEqual([body.slice(0, 40), 400]);
      expect(res.body.detail).toMatch(detail);
    }
  });

  test('errors of an XML client are problem details (API Platform answers them so)', async () => {
    const res = await request(kernel()).get('/api/books/999').set('Accept', XML);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    const invalid = await post('<book><title></title></book>');
    expect(invalid.status).toBe(422);
    expect(invalid.body.violations[0].propertyPath).toBe('title');
  });
});
