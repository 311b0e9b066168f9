import type { ReadResourceResult } from '@modelcontextprotocol/client';

const EXTENSIONS: Record<string, string> = {
  'text/markdown': '.md',
  'text/plain': '.txt',
  'text/html': '.html',
  'text/css': '.css',
  'text/csv': '.csv',
  'text/xml': '.xml',
  'application/xml': '.xml',
  'application/json': '.json',
  'text/javascript': '.js',
  'application/javascript': '.js',
  'text/x-python': '.py',
  'application/yaml': '.yaml',
  'text/yaml': '.yaml',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/svg+xml': '.svg',
  'image/webp': '.webp',
};

/**
 * A file name for a resource, so the editor picks the language and the tab has a readable title:
 * the URI's last path segment, with an extension from the MIME type when it has none.
 */
export function resourceFileName(uri: string, mimeType?: string, fallback = 'resource'): string {
  const path = uri.replace(/[?#].*$/, '');
  let base = decodeSafe(path.slice(path.lastIndexOf('/') + 1)) || fallback;
  base = [...base].map((ch) => (ch < ' ' || '\\/:*?"<>|'.includes(ch) ? '_' : ch)).join('').slice(0, 120);
  const ext = mimeType ? EXTENSIONS[mimeType.split(';')[0].trim().toLowerCase()] : undefined;
  return ext && !/\.[A-Za-z0-9]{1,8}$/.test(base) ? `${base}${ext}` : base;
}

/** What a text editor shows for a resource: its text contents, binary ones as a placeholder line. */
export function resourceText(contents: ReadResourceResult['contents']): string {
  const parts = contents.map((c) =>
    'text' in c && typeof c.text === 'string' ? c.text : `[binary ${c.mimeType ?? 'content'} of ${c.uri}: ${'blob' in c ? String(c.blob).length : 0} base64 characters]`,
  );
  return parts.join(contents.length > 1 ? '\n\n' : '');
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
