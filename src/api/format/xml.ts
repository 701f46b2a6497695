import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { HttpError } from '../../http/errors';
import type { Resource } from '../resource/defineResource';
import type { Format } from './Format';
import { fromTextValues } from './textValues';

/** XML's media types (RFC 7303); the first is the `Content-Type` of responses, as API Platform's. */
export const XML_TYPES = ['application/xml', 'text/xml'] as const;

/** What every XML document starts with (PHP's `DOMDocument::saveXML` without an encoding). */
const DECLARATION = '<?xml version="1.0"?>\n';

/** An element name symfony's XmlEncoder writes as is (`isElementNameValid`); others are `<item key="…">`. */
const ELEMENT_NAME = /^[\p{L}_][\p{L}0-9._-]*$/u;

/** Characters XML 1.0 cannot carry at all, not even as a character reference (§2.2). */
const NOT_XML = new RegExp('[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]'
  + '|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]', 'gu');

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

/**
 * A text as element content: in a CDATA section when it holds `<`, `>` or `&` (symfony's
 * `needsCdataWrapping`; a `]]>` inside splits the section, as libxml does), else escaped. A text
 * with a carriage return is escaped (`&#13;`: a parser would turn a raw one into a line feed).
 * Characters XML cannot carry are written as U+FFFD.
 */
function textContent(value: string): string {
  const text = value.replace(NOT_XML, '\uFFFD');
  if (/[<>&]/.test(text) && !text.includes('\r')) return `<![CDATA[${text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
  return escapeText(text);
}

/** One element: `<name>…</name>`, `<name/>` when empty, `<item key="…">` for a name XML cannot have. */
function element(name: string, value: unknown): string {
  const open = ELEMENT_NAME.test(name) && !/^xml/i.test(name) ? name : `item key="${escapeAttribute(name)}"`;
  const close = open.startsWith('item key=') ? 'item' : name;
  const content = contentOf(value);
  return content === '' ? `<${open}/>` : `<${open}>${content}</${close}>`;
}

/**
 * An element's content (symfony's XmlEncoder `buildXml`): an object's members as elements, a
 * list's items as `<item key="0">`, a list under a name as that element repeated; true and
 * false as `1` and `0`; null as nothing.
 */
function contentOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return textContent(value);
  if (Array.isArray(value)) return value.map((v, i) => element(String(i), v)).join('');
  let out = '';
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    out += Array.isArray(inner) && inner.length > 0 ? inner.map((v) => element(key, v)).join('') : element(key, inner);
  }
  return out;
}

/** A document whose root is `<response>`. */
function documentOf(value: unknown): string {
  return `${DECLARATION}${element('response', value)}\n`;
}

function badXml(detail: string): HttpError {
  return new HttpError('ERR_HTTP_BAD_REQUEST', `Invalid XML body: ${detail}`);
}

/**
 * Refuses markup declarations (`<!DOCTYPE`, `<!ENTITY` …) anywhere outside comments and CDATA
 * sections, before a parser sees them: no entity is ever defined, so no "billion laughs" and no
 * external entity (symfony's XmlEncoder: "Document types are not allowed."). Linear in the text.
 * @throws HttpError 400
 */
function refuseDeclarations(text: string): void {
  for (let i = text.indexOf('<!'); i !== -1; i = text.indexOf('<!', i)) {
    const cdata = text.startsWith('<![CDATA[', i);
    const comment = !cdata && text.startsWith('<!--', i);
    if (!cdata && !comment) {
      throw badXml('document types and entity declarations (<!DOCTYPE, <!ENTITY) are not allowed.');
    }
    const end = text.indexOf(cdata ? ']]>' : '-->', i + 4);
    if (end === -1) return;
    i = end + 3;
  }
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: '\'' };

/**
 * Text with its references (`&amp;`, `&#233;`, `&#xE9;`) replaced.
 * @throws HttpError 400 for a bare `&`, an entity XML does not predefine (none can be declared),
 *   a reference to a character XML cannot carry
 */
function decodeReferences(raw: string): string {
  return raw.replace(/&(?:(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z_][\w.-]*);)?/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw badXml('a bare "&" in a text (write &amp;).');
    if (!ref.startsWith('#')) {
      if (!Object.hasOwn(PREDEFINED, ref)) throw badXml(`the entity "&${ref.slice(0, 40)};" is not defined.`);
      return PREDEFINED[ref];
    }
    const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    const char = code <= 0x10ffff ? String.fromCodePoint(code) : '';
    NOT_XML.lastIndex = 0;
    if (char === '' || NOT_XML.test(char)) throw badXml(`"${whole}" is not a character XML can carry.`);
    return char;
  });
}

/** A node of fast-xml-parser's `preserveOrder` output: `{ name: children, ':@': attributes }` or a text. */
type XmlNode = Record<string, unknown>;
const TEXT = '#text';
const CDATA = '#cdata';
const COMMENT = '#comment';

const parser = new XMLParser({
  preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false,
  parseAttributeValue: false, trimValues: false, processEntities: false, htmlEntities: false,
  ignoreDeclaration: true, ignorePiTags: true, cdataPropName: CDATA, commentPropName: COMMENT,
});

function nameOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((k) => k !== ':@');
}

/** The text of nodes: text with its references replaced, CDATA sections as they are. */
function textOf(nodes: readonly XmlNode[], raw = false): string {
  let out = '';
  for (const node of nodes) {
    if (TEXT in node) out += raw ? String(node[TEXT]) : decodeReferences(String(node[TEXT]));
    else if (CDATA in node) out += textOf(node[CDATA] as XmlNode[], true);
  }
  return out;
}

/**
 * An element's value (symfony's XmlEncoder `parseXml`): its text when it has no child element
 * (`''` when empty), else an object of its children by name, a name repeated as a list, an
 * `<item key="…">` under its key. Attributes other than `key` and comments are left out.
 */
function valueOf(nodes: readonly XmlNode[]): unknown {
  const elements = nodes.filter((n) => ![TEXT, CDATA, COMMENT].includes(nameOf(n) ?? TEXT));
  if (elements.length === 0) return textOf(nodes);
  const members = new Map<string, unknown>();
  for (const node of elements) {
    const name = nameOf(node)!;
    const key = (node[':@'] as Record<string, string> | undefined)?.key;
    const member = name === 'item' && key !== undefined ? decodeReferences(key) : name;
    const value = valueOf(node[name] as XmlNode[]);
    // a value is a text or an object, never a list: a list here is a repeated name's
    const had = members.get(member);
    if (!members.has(member)) members.set(member, value);
    else if (Array.isArray(had)) had.push(value);
    else members.set(member, [had, value]);
  }
  return Object.fromEntries(members);
}

/**
 * An XML body as the object to denormalize: the root element's children by name (the root's own
 * name is free: `<root>`, `<book>`, `<response>`).
 * @throws HttpError 400 for a document type or entity declaration, text that is not well-formed
 *   XML, several root elements, a root with text and no element
 */
function readXml(text: string, resource: Resource): Record<string, unknown> {
  refuseDeclarations(text);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw badXml(`${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col}).`);
  let nodes: XmlNode[];
  try {
    nodes = parser.parse(text) as XmlNode[];
  } catch (error) {
    throw badXml(`${(error as Error).message}.`);
  }
  const roots = nodes.filter((n) => ![COMMENT, TEXT].includes(nameOf(n) ?? TEXT));
  if (roots.length !== 1) throw badXml(`expected one root element, got ${roots.length}.`);
  const value = valueOf(roots[0][nameOf(roots[0])!] as XmlNode[]);
  if (typeof value === 'string') {
    if (value.trim() !== '') throw badXml('expected the root element to hold one element a property.');
    return {};
  }
  const object = value as Record<string, unknown>;
  // one element of a to-many relation is its one item (symfony reads it through the property's type)
  for (const p of resource.metadata.properties) {
    if (p.kind === 'relations' && typeof object[p.name] === 'string') {
      object[p.name] = object[p.name] === '' ? [] : [object[p.name]];
    }
  }
  return object;
}

/**
 * XML (`application/xml`, `text/xml`; API Platform's `xml`, symfony's XmlEncoder): an item is
 * `<?xml version="1.0"?>` then `<response>` with one element a property (`<id>1</id>
 * <title>Dune</title><isbn/>…`: null an empty element, true and false `1` and `0`, relations as
 * IRIs, a text with `<`, `>` or `&` in a CDATA section); a collection is `<response>` with one
 * `<item key="0">` an item. A body is any root element with one element a property, read as the
 * properties' kinds want (`textValues.ts`). Document types and entity declarations are refused
 * (400) before parsing, so no entity expansion ("billion laughs") or external entity can happen;
 * malformed XML is a 400 naming the line and column. Errors are problem details, as API Platform
 * answers an XML client.
 */
export const xml: Format = {
  name: 'xml',
  mimeTypes: XML_TYPES,
  item: (c) => documentOf(c.normalize(c.item)),
  collection: (c) => documentOf(c.items.map((item) => c.normalize(item))),
  decode: (body, c) => {
    if (body !== undefined && typeof body !== 'string') throw badXml('expected text.');
    return fromTextValues(c.resource, readXml(body ?? '', c.resource));
  },
  docs: {
    item: () => ({ type: 'string', description: '<response> with one element a property.' }),
    collection: () => ({ type: 'string', description: '<response> with one <item key="n"> an item.' }),
    input: () => ({ type: 'string', description: 'A root element with one element a property.' }),
  },
};
