import { renderTable, stringWidth } from '../../src/cli/table';

// Expected strings were checked byte for byte against Symfony Console 5.4's Table::render()
// (/usr/share/php/Symfony/Component/Console/Helper/Table.php) with a BufferedOutput.

describe('renderTable(headers, rows, style)', () => {
  it('draws the default style with +, - and | and pads every cell to its column', () => {
    expect(renderTable(['Property', 'Value'], [['Path', '/api'], ['Method', 'GET|POST']])).toBe([
      '+----------+----------+',
      '| Property | Value    |',
      '+----------+----------+',
      '| Path     | /api     |',
      '| Method   | GET|POST |',
      '+----------+----------+',
      '',
    ].join('\n'));
  });

  it('draws the symfony-style-guide style with spaces as borders, trailing border included', () => {
    expect(renderTable(['Name', 'Path'], [['home', '/']], 'symfony-style-guide')).toBe([
      ' ------ ------ ',
      '  Name   Path  ',
      ' ------ ------ ',
      '  home   /     ',
      ' ------ ------ ',
      '',
    ].join('\n'));
  });

  it('spreads a cell with line breaks over several lines and leaves the other cells blank', () => {
    expect(renderTable(['Property', 'Value'], [['Requirements', 'a: 1\nbb: 22'], ['x']])).toBe([
      '+--------------+--------+',
      '| Property     | Value  |',
      '+--------------+--------+',
      '| Requirements | a: 1   |',
      '|              | bb: 22 |',
      '| x            |        |',
      '+--------------+--------+',
      '',
    ].join('\n'));
  });

  it('renders the header and closing separators only when there are no rows', () => {
    expect(renderTable(['A', 'B'], [], 'symfony-style-guide')).toBe(' --- --- \n  A   B  \n --- --- \n');
  });

  it('leaves the header section out when there are no headers', () => {
    expect(renderTable([], [['a', 'b']])).toBe('+---+---+\n| a | b |\n+---+---+\n');
  });

  it('renders nothing when there are no columns', () => {
    expect(renderTable([], [])).toBe('');
  });

  it('pads by display width, counting wide characters twice', () => {
    expect(renderTable(['x'], [['日本'], ['abcde']])).toBe('+-------+\n| x     |\n+-------+\n| 日本  |\n| abcde |\n+-------+\n');
  });
});

describe('stringWidth(text)', () => {
  it('counts one column per character, two for East Asian wide ones, none for combining marks', () => {
    expect(stringWidth('abc')).toBe(3);
    expect(stringWidth('héllo')).toBe(5);
    expect(stringWidth('日本語')).toBe(6);
    expect(stringWidth('e\u0301')).toBe(1);
  });
});
