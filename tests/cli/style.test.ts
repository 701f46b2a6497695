import { ConsoleStyle, renderThrowable, terminalWidth, wordwrap } from '../../src/cli/style';

describe('wordwrap(text, width)', () => {
  // Each expectation is what PHP 8.2's wordwrap($text, $width, "\n", true) returns.
  it.each([
    ['The quick brown fox', 10, 'The quick\nbrown fox'],
    ['A very long woooooooooooord.', 8, 'A very\nlong\nwooooooo\nooooord.'],
    ['short', 10, 'short'],
    ['keeps\nexisting breaks', 8, 'keeps\nexisting\nbreaks'],
    ['abcdefghij', 3, 'abc\ndef\nghi\nj'],
    ['two  spaces here', 4, 'two \nspac\nes\nhere'],
  ])('wraps %j at %i columns as PHP does', (text, width, expected) => {
    expect(wordwrap(text, width)).toBe(expected);
  });

  it('counts bytes, as PHP does, not characters', () => {
    expect(wordwrap('ééé', 4)).toBe('éé\né');
  });

  it('throws a RangeError for a width below 1', () => {
    expect(() => wordwrap('x', 0)).toThrow(RangeError);
  });
});

describe('new ConsoleStyle(width)', () => {
  // Expected strings are what Symfony Console 5.4's SymfonyStyle writes to a BufferedOutput with COLUMNS=width.
  it('caps the line length at 120 columns', () => {
    expect(new ConsoleStyle(200).lineLength).toBe(120);
    expect(new ConsoleStyle(60).lineLength).toBe(60);
  });

  it('starts a block after one blank line and pads it to the line length', () => {
    const io = new ConsoleStyle(40);
    io.newLine();
    io.text('Route "a" almost matches');
    io.error('None of the routes match');
    expect(io.toString()).toBe(`\n Route "a" almost matches\n\n [ERROR] None of the routes match${' '.repeat(7)}\n\n`);
  });

  it('adds a second line break before a block that follows a lone blank line', () => {
    const io = new ConsoleStyle(30);
    io.newLine();
    io.success('done');
    expect(io.toString()).toBe(`\n\n [OK] done${' '.repeat(20)}\n\n`);
  });

  it('wraps a long block message under its label', () => {
    const io = new ConsoleStyle(30);
    io.error('one two three four five six seven');
    expect(io.toString().split('\n')).toEqual([
      '',
      ' [ERROR] one two three four   ',
      '         five six seven       ',
      '',
      '',
    ]);
  });

  it('writes raw text without touching the blank-line bookkeeping', () => {
    const io = new ConsoleStyle();
    io.raw('table\n');
    io.text('next');
    expect(io.toString()).toBe('table\n\n next\n');
  });
});

describe('renderThrowable(message, synopsis, width)', () => {
  it('frames the message with lines of spaces and ends with the synopsis', () => {
    expect(renderThrowable('Boom.', 'cmd [<x>]')).toBe('\n         \n  Boom.  \n         \n\ncmd [<x>]\n\n');
  });

  it('splits a line longer than the terminal width minus 5 and pads the pieces', () => {
    const out = renderThrowable('abcdefghij', 's', 10).split('\n');
    expect(out.slice(1, 5)).toEqual(['         ', '  abcde  ', '  fghij  ', '         ']);
  });
});

describe('terminalWidth(env, columns)', () => {
  it('prefers COLUMNS, then the terminal width, then 80', () => {
    expect(terminalWidth({ COLUMNS: '132' }, 100)).toBe(132);
    expect(terminalWidth({}, 100)).toBe(100);
    expect(terminalWidth({}, undefined)).toBe(80);
    expect(terminalWidth({ COLUMNS: 'wide' }, undefined)).toBe(80);
  });
});
