import picomatch from 'picomatch';

/**
 * The `<serverGlob>/<toolGlob>` patterns of roles, `autoApprove` and `confirm`: what is a usable
 * pattern, how a bad one is explained, and which server a plain pattern names.
 */

/** How a pattern looks, for "expected …" messages. */
export const GLOB_HELP = 'a pattern like "server/tool", "orders/get_*" or "*/search"';

function checkBalance(p: string): string | undefined {
  const stack: string[] = [];
  const closer: Record<string, string> = { '[': ']', '{': '}', '(': ')' };
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      if (i === p.length - 1) return 'it ends with a lone "\\"';
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === '[') {
      // Inside a character class everything but the closing bracket is literal.
      if (c === ']') stack.pop();
      continue;
    }
    if (c === '[' || c === '{' || c === '(') stack.push(c);
    else if (c === ']' || c === '}' || c === ')') {
      if (top === undefined || closer[top] !== c) return `"${c}" has no matching opening bracket`;
      stack.pop();
    }
  }
  if (stack.length) return `"${stack[stack.length - 1]}" is never closed`;
  return undefined;
}

/** Undefined when `p` is a usable `<serverGlob>/<toolGlob>` pattern; otherwise the reason it is not. */
export function isValidGlob(p: string): string | undefined {
  if (typeof p !== 'string') return 'it is not a string';
  if (p.trim() === '') return 'it is empty';
  const slashes = p.split('/').length - 1;
  if (slashes !== 1) {
    return slashes === 0
      ? 'it has no "/" between the server part and the tool part'
      : 'it has more than one "/"; exactly one separates the server part from the tool part';
  }
  const [serverPart, toolPart] = p.split('/');
  if (serverPart === '') return 'the server part before "/" is empty';
  if (toolPart === '') return 'the tool part after "/" is empty';
  for (const part of [serverPart, toolPart]) {
    const unbalanced = checkBalance(part);
    if (unbalanced) return `in "${part}": ${unbalanced}`;
    try {
      picomatch.makeRe(part, { strictBrackets: true });
    } catch (e) {
      return `in "${part}": ${(e as Error).message}`;
    }
  }
  try {
    picomatch.makeRe(p, { strictBrackets: true });
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

/** The server part of a pattern when it is a plain name (no glob syntax), else undefined. */
export function literalServerPart(pattern: string): string | undefined {
  if (pattern.startsWith('!') || pattern.includes('\\')) return undefined;
  const slash = pattern.indexOf('/');
  if (slash <= 0) return undefined;
  const serverPart = pattern.slice(0, slash);
  return picomatch.scan(serverPart).isGlob ? undefined : serverPart;
}
