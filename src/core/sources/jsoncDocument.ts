import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { lineAndColumn } from '../settings/settingsFile';
import type { PathSegment } from '../settings/settingPath';

/** A place in a file, 1-based, for problems a person can jump to. */
export interface FileLocation {
  /** As shown to the person: relative to the workspace folder when inside it. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * A parsed JSONC file (comments and trailing commas allowed, as VS Code and the `.mcp.json`
 * readers accept) that can say where a value is: `locate(['servers', 'x', 'args', 1])` gives the
 * line and column of that value, or of the nearest enclosing one that exists.
 */
export class JsoncDocument {
  private constructor(
    readonly file: string,
    private readonly text: string,
    private readonly tree: Node | undefined,
    /** The value, or undefined when the text is empty. */
    readonly value: unknown,
  ) {}

  /** Parses `text`; a syntax error gives `{ error }` at the first error's place. */
  static parse(file: string, text: string): { doc: JsoncDocument } | { error: { message: string; at: FileLocation } } {
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const errors: ParseError[] = [];
    const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
    if (errors.length) {
      const first = errors[0];
      const message = printParseErrorCode(first.error)
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase();
      return { error: { message, at: { file, ...lineAndColumn(text, first.offset) } } };
    }
    return { doc: new JsoncDocument(file, text, tree, tree ? getNodeValue(tree) : undefined) };
  }

  /** Where the value at `path` starts (or its nearest existing parent; the file's start when none). */
  locate(path: readonly PathSegment[]): FileLocation {
    for (let n = path.length; n >= 0 && this.tree; n--) {
      const node = findNodeAtLocation(this.tree, path.slice(0, n) as PathSegment[]);
      if (node) {
        // For an object member, point at its key: that is what a person looks for.
        const at = n > 0 && node.parent?.type === 'property' ? node.parent.offset : node.offset;
        return { file: this.file, ...lineAndColumn(this.text, at) };
      }
    }
    return { file: this.file, line: 1, column: 1 };
  }
}

