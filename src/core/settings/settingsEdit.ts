import { applyEdits, format, modify, parseTree, type FormattingOptions, type JSONPath, type ParseError } from 'jsonc-parser';
import { lineAndColumn, readableParseError } from './settingsFile';

/**
 * `text` (a settings file, JSON with comments) with the value at `path` set to `value`, and
 * nothing else changed: comments, order, indentation and line ends of the rest stay as they were;
 * the new value is indented like the file. Empty text counts as `{}`. Text that does not parse is
 * refused (an edit could land in the wrong place), naming the line and column.
 */
export function withSettingSet(text: string, path: JSONPath, value: unknown): string {
  const base = text.trim() === '' ? '{}\n' : text;
  const errors: ParseError[] = [];
  const root = parseTree(base, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const { line, column } = lineAndColumn(base, errors[0].offset);
    throw new Error(`it does not parse at line ${line}, column ${column}: ${readableParseError(errors[0])}; fix it and try again`);
  }
  if (root?.type !== 'object') throw new Error('it does not hold a JSON object');
  // Without formatting options jsonc-parser makes one compact insertion; only that is then
  // formatted (its own options would reformat the whole line it lands on, a neighbour included).
  const [edit] = modify(base, path, value, {});
  if (!edit) return base;
  const next = applyEdits(base, [edit]);
  let begin = edit.offset;
  let end = edit.offset + edit.content.length;
  // The first member of an empty object: format the object's braces with it, else they stay on its lines.
  if (edit.length === 0 && !edit.content.startsWith(',')) {
    while (begin > 0 && /\s/.test(next[begin - 1])) begin--;
    if (next[begin - 1] === '{') begin--;
    while (end < next.length && /\s/.test(next[end])) end++;
    if (next[end] === '}') end++;
  }
  return applyEdits(next, format(next, { offset: begin, length: end - begin }, formattingOf(base)));
}

/** The file's own indentation (the first indented line's) and line end. */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}
