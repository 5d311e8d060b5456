// The enforcement hook's reading of a command line into the words of each simple command it runs, for a hook that
// ships as one file with no dependency (the core reads lines with a full bash parser, trace/shell/parse.ts). Quotes
// are removed, a quoted string is one word, heredoc bodies and comments are skipped, and `$(…)`, backticks and
// `<(…)` are read as commands of their own. `lexCommands` references nothing outside itself: hookScript.ts embeds
// its source, and test/unit/enforce checks it against the core on every case.

export function lexCommands(line: string): string[][] {
  const commands: string[][] = [];
  const KEYWORDS = ['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}', 'esac'];
  function read(text: string): void {
    let words: string[] = [];
    let word = '';
    let inWord = false;
    const heredocs: string[] = [];
    let skipTarget = false;
    const endWord = () => {
      if (inWord) {
        if (skipTarget) skipTarget = false;
        else if (!(words.length === 0 && KEYWORDS.includes(word))) words.push(word);
      }
      word = '';
      inWord = false;
    };
    const endCommand = () => {
      endWord();
      if (words.length > 0) commands.push(words);
      words = [];
    };
    /** The text of a `$(…)` from `start` (just after the parenthesis) to its closing one. */
    const closing = (start: number): number => {
      let depth = 1;
      for (let j = start; j < text.length; j++) {
        const c = text[j];
        if (c === '\\') j++;
        else if (c === "'") j = text.indexOf("'", j + 1) < 0 ? text.length : text.indexOf("'", j + 1);
        else if (c === '(') depth++;
        else if (c === ')' && --depth === 0) return j;
      }
      return text.length;
    };
    let i = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '\n') {
        endCommand();
        // heredoc bodies start on the next line: skip each to its delimiter line
        for (const delimiter of heredocs.splice(0)) {
          for (;;) {
            const end = text.indexOf('\n', i + 1);
            const lineText = text.slice(i + 1, end < 0 ? text.length : end);
            i = end < 0 ? text.length : end;
            if (lineText.replace(/^\t+/, '') === delimiter || end < 0) break;
          }
        }
        i++;
      } else if (c === ' ' || c === '\t' || c === '\r') {
        endWord();
        i++;
      } else if (c === '#' && !inWord) {
        const end = text.indexOf('\n', i);
        i = end < 0 ? text.length : end;
      } else if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
        if (c === '&' && text[i + 1] === '>') {
          endWord();
          skipTarget = true;
          i += text[i + 2] === '>' ? 3 : 2;
          continue;
        }
        endCommand();
        i++;
      } else if (c === '<' || c === '>') {
        if (c === '<' && text[i + 1] === '(') {
          const end = closing(i + 2);
          read(text.slice(i + 2, end));
          i = end + 1;
          continue;
        }
        // a file descriptor before it (`2>`) is part of the redirection, not a word
        if (/^\d+$/.test(word)) {
          word = '';
          inWord = false;
        } else endWord();
        if (c === '<' && text[i + 1] === '<' && text[i + 2] !== '<') {
          const m = /^<<-?\s*(['"]?)([A-Za-z0-9_.-]+)\1/.exec(text.slice(i));
          if (m) {
            heredocs.push(m[2]);
            i += m[0].length;
            continue;
          }
        }
        i++;
        while (text[i] === '<' || text[i] === '>') i++;
        if (text[i] === '&') {
          i++;
          while (/[0-9-]/.test(text[i] ?? '')) i++;
          continue;
        }
        skipTarget = true;
      } else if (c === "'") {
        const end = text.indexOf("'", i + 1);
        word += text.slice(i + 1, end < 0 ? text.length : end);
        inWord = true;
        i = end < 0 ? text.length : end + 1;
      } else if (c === '"') {
        inWord = true;
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === '\\' && i + 1 < text.length) {
            word += '"\\$`\n'.includes(text[i + 1]) ? text[i + 1] : text.slice(i, i + 2);
            i += 2;
          } else if (text[i] === '$' && text[i + 1] === '(') {
            const end = closing(i + 2);
            read(text.slice(i + 2, end));
            word += text.slice(i, end + 1);
            i = end + 1;
          } else if (text[i] === '`') {
            const end = text.indexOf('`', i + 1);
            read(text.slice(i + 1, end < 0 ? text.length : end));
            word += text.slice(i, end < 0 ? text.length : end + 1);
            i = end < 0 ? text.length : end + 1;
          } else word += text[i++];
        }
        i++;
      } else if (c === '\\') {
        if (text[i + 1] !== '\n') word += text[i + 1] ?? '';
        inWord = inWord || text[i + 1] !== '\n';
        i += 2;
      } else if (c === '$' && text[i + 1] === '(') {
        const end = closing(i + 2);
        read(text.slice(i + 2, end));
        word += text.slice(i, end + 1);
        inWord = true;
        i = end + 1;
      } else if (c === '`') {
        const end = text.indexOf('`', i + 1);
        read(text.slice(i + 1, end < 0 ? text.length : end));
        word += text.slice(i, end < 0 ? text.length : end + 1);
        inWord = true;
        i = end < 0 ? text.length : end + 1;
      } else {
        word += c;
        inWord = true;
        i++;
      }
    }
    endCommand();
  }
  read(line);
  return commands;
}
