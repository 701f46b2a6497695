import { COLOURED, ConsoleStyle, paletteFor, PLAIN, renderThrowable, shouldColorize, terminalWidth, wordwrap } from '../../src/cli/style';

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

describe('shouldColorize(stream, env)', () => {
  const terminal = { isTTY: true };
  const pipe = { isTTY: false };
  const term = { TERM: 'xterm-256color' };

  it('colours a terminal, not a pipe', () => {
    expect(shouldColorize(terminal, term)).toBe(true);
    expect(shouldColorize(pipe, term)).toBe(false);
  });

  it.each([
    [{ NO_COLOR: '1' }], [{ NO_COLOR: '' }], [{ NODE_DISABLE_COLORS: '1' }], [{ TERM: 'dumb' }],
  ])('leaves a terminal uncoloured with %j', (env) => {
    expect(shouldColorize(terminal, { ...term, ...env })).toBe(false);
  });

  it.each([['1', true], ['', true], ['true', true], ['3', true], ['0', false], ['false', false]])(
    'FORCE_COLOR=%j decides for any stream, before NO_COLOR', (value, expected) => {
      expect(shouldColorize(pipe, { FORCE_COLOR: value, NO_COLOR: '1' })).toBe(expected);
      expect(shouldColorize(terminal, { ...term, FORCE_COLOR: value })).toBe(expected);
    });

  it('gives the palette to use', () => {
    expect(paletteFor(terminal, term)).toBe(COLOURED);
    expect(paletteFor(pipe, term)).toBe(PLAIN);
  });
});

describe('ConsoleStyle and renderThrowable with COLOURED', () => {
  const ESC = '\u001b[';

  it('paints the [OK] block black on green, framed by painted padding lines, as a decorated SymfonyStyle', () => {
    const io = new ConsoleStyle(20, COLOURED);
    io.success('done');
    const paint = (line: string): string => `${ESC}30m${ESC}42m${line}${ESC}49m${ESC}39m`;
    expect(io.toString()).toBe(`\n${paint(' '.repeat(20))}\n${paint(' [OK] done'.padEnd(20))}\n${paint(' '.repeat(20))}\n\n`);
  });

  it('paints the error box white on red and the synopsis green', () => {
    const text = renderThrowable('Nope.', 'cmd [--x]', 80, COLOURED);
    expect(text).toBe(`\n${ESC}37m${ESC}41m         ${ESC}49m${ESC}39m\n${ESC}37m${ESC}41m  Nope.  ${ESC}49m${ESC}39m\n`
      + `${ESC}37m${ESC}41m         ${ESC}49m${ESC}39m\n\n${ESC}32mcmd [--x]${ESC}39m\n\n`);
  });

  it('writes exactly the plain text with PLAIN', () => {
    const io = new ConsoleStyle(20, PLAIN);
    io.success('done');
    expect(io.toString()).toBe(`\n${' [OK] done'.padEnd(20)}\n\n`);
  });
});
