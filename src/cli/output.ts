import { writeJson } from './jsonStream';

/** stdout carries only a command's output (text or JSON); everything else goes to stderr. */

export function writeStdout(text: string): void {
  process.stdout.write(text);
}

export function writeStderr(text: string): void {
  process.stderr.write(text);
}

/**
 * One JSON document, pretty-printed, on stdout: JSON.stringify(value, null, 2)'s text written as a
 * stream, so a large result is never one more string the size of the document (src/cli/jsonStream.ts).
 */
export function printJson(value: unknown): Promise<void> {
  return writeJson(process.stdout, value, { indent: 2 });
}

/** One JSON value on one line of stdout (session protocol). */
export function printJsonLine(value: unknown): void {
  writeStdout(JSON.stringify(value) + '\n');
}
