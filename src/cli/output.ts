/** stdout carries only a command's output (text or JSON); everything else goes to stderr. */

export function writeStdout(text: string): void {
  process.stdout.write(text);
}

export function writeStderr(text: string): void {
  process.stderr.write(text);
}

/** One JSON document, pretty-printed, on stdout. */
export function printJson(value: unknown): void {
  writeStdout(JSON.stringify(value, null, 2) + '\n');
}

/** One JSON value on one line of stdout (session protocol). */
export function printJsonLine(value: unknown): void {
  writeStdout(JSON.stringify(value) + '\n');
}
