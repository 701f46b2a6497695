/** A value as the generator compares it: parameters and defaults. */
type Loose = string | number | boolean | null | undefined | Loose[] | { [key: string]: Loose };

const NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

function toBool(v: Loose): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'string') return v !== '' && v !== '0';
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'boolean') return v;
  return Object.keys(v).length > 0;
}

/**
 * PHP 8's loose comparison `$a == $b`, which Symfony's `UrlGenerator` uses to tell whether an
 * extra parameter equals the route's default (and so stays out of the query string):
 * numeric strings compare as numbers (`'1' == '01'`, `'1' == 1`), null and booleans compare as
 * booleans (`null == ''`), arrays compare pairwise, whatever their key order, with `==` on each
 * value, and an array never equals a scalar other than null or a boolean.
 * @param a - one value
 * @param b - the other
 */
export function looseEquals(a: Loose, b: Loose): boolean {
  const aNull = a === null || a === undefined;
  const bNull = b === null || b === undefined;
  if (aNull && bNull) return true;
  if (typeof a === 'boolean' || typeof b === 'boolean') return toBool(a) === toBool(b);
  if (aNull || bNull) {
    const other = aNull ? b : a;
    return typeof other === 'string' ? other === '' : !toBool(other);
  }
  const aArr = typeof a === 'object';
  const bArr = typeof b === 'object';
  if (aArr || bArr) {
    if (!aArr || !bArr) return false;
    const ao = a as Record<string, Loose>;
    const bo = b as Record<string, Loose>;
    const keys = Object.keys(ao);
    if (keys.length !== Object.keys(bo).length) return false;
    return keys.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && looseEquals(ao[k], bo[k]));
  }
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (typeof a === 'string' && typeof b === 'string') {
    return NUMERIC.test(a) && NUMERIC.test(b) ? Number(a) === Number(b) : a === b;
  }
  const [n, str] = typeof a === 'number' ? [a, b as string] : [b as number, a];
  return NUMERIC.test(str) ? Number(str) === n : String(n) === str;
}
