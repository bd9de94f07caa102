/** One simple command of a shell line: its words and where its output goes. */
export interface SimpleCommand {
  words: string[];
  /** `> file` / `>> file`. */
  stdout?: { path: string; append: boolean };
  /** `2> file` (only `/dev/null` matters to the test device). */
  stderr?: string;
  /** How this command is joined to the previous one. */
  joiner: ';' | '&&' | '||';
}

/**
 * Splits a shell line the way `sh -c` would for the simple lines adb clients send: words with single
 * and double quotes and backslash escapes, `;`, `&&`, `||`, and `>`, `>>`, `2>` redirections. No
 * pipes, globs or variables.
 */
export function parseShellLine(line: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], joiner: ';' };
  let word = '';
  let inWord = false;
  let quotedWord = false;
  let pending: 'stdout' | 'append' | 'stderr' | null = null;

  const endWord = () => {
    if (!inWord) return;
    if (pending === 'stdout' || pending === 'append') current.stdout = { path: word, append: pending === 'append' };
    else if (pending === 'stderr') current.stderr = word;
    else current.words.push(word);
    pending = null;
    word = '';
    inWord = false;
    quotedWord = false;
  };
  const endCommand = (joiner: SimpleCommand['joiner']) => {
    endWord();
    if (current.words.length > 0) commands.push(current);
    current = { words: [], joiner };
  };

  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated quote');
      word += line.slice(i + 1, end);
      inWord = quotedWord = true;
      i = end;
    } else if (c === '"') {
      inWord = quotedWord = true;
      for (i += 1; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) i += 1;
        word += line[i];
      }
      if (i >= line.length) throw new Error('unterminated quote');
    } else if (c === '\\') {
      if (i + 1 < line.length) word += line[++i];
      inWord = quotedWord = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      endWord();
    } else if (c === ';') {
      endCommand(';');
    } else if (c === '&' && line[i + 1] === '&') {
      endCommand('&&');
      i += 1;
    } else if (c === '|' && line[i + 1] === '|') {
      endCommand('||');
      i += 1;
    } else if (c === '>') {
      const toStderr = inWord && !quotedWord && word === '2';
      if (toStderr) {
        word = '';
        inWord = false;
      } else endWord();
      if (line[i + 1] === '>') {
        pending = toStderr ? 'stderr' : 'append';
        i += 1;
      } else pending = toStderr ? 'stderr' : 'stdout';
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand(';');
  return commands;
}
