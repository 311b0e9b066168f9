import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DocumentCredentialStore,
  emptyCredentialDocument,
  parseCredentialDocument,
  type CredentialDocument,
} from './documentCredentialStore';

/** A problem with the credentials file; its message names the file, never its content. */
export class CredentialFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`credentials file ${file}: ${message}`);
    this.name = 'CredentialFileError';
  }
}

/**
 * `MCP_HOST_CREDENTIALS_FILE`, else `$XDG_CONFIG_HOME/mcp-host/credentials.json` (an absolute
 * XDG_CONFIG_HOME only, as the XDG spec says), else `~/.config/mcp-host/credentials.json`.
 */
export function defaultCredentialsFile(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  const override = env.MCP_HOST_CREDENTIALS_FILE;
  if (override) return path.resolve(override);
  const xdg = env.XDG_CONFIG_HOME;
  const configHome = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config');
  return path.join(configHome, 'mcp-host', 'credentials.json');
}

const checksPermissions = process.platform !== 'win32';

/**
 * The CLI's CredentialStore: one JSON file only its owner can read. The file is created with mode
 * 0600 (its folder 0700) by writing a temporary file and renaming it over the old one, so a reader
 * never sees half a file. Every read checks again that the file is a regular file owned by this
 * user with no group or other permission bits, and refuses it otherwise, as ssh does with a key
 * file. Changes from this process are serialized; two processes writing at the same moment may
 * lose one change (tokens are then fetched again), never corrupt the file.
 */
export class FileCredentialStore extends DocumentCredentialStore {
  constructor(readonly file: string = defaultCredentialsFile()) {
    super();
  }

  protected async load(): Promise<CredentialDocument> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return emptyCredentialDocument();
      if (code === 'ELOOP') throw new CredentialFileError(this.file, 'is a symbolic link; point MCP_HOST_CREDENTIALS_FILE at the file itself');
      throw new CredentialFileError(this.file, `cannot be opened (${code ?? 'error'})`);
    }
    try {
      this.checkSafe(await handle.stat());
      const text = await handle.readFile('utf8');
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        // JSON.parse's message quotes the text: never pass it on.
        throw new CredentialFileError(this.file, 'is not valid JSON (its content is not shown); fix it or delete it to sign in again');
      }
      try {
        return parseCredentialDocument(raw);
      } catch (e) {
        throw new CredentialFileError(this.file, `${(e as Error).message}; fix it or delete it to sign in again`);
      }
    } finally {
      await handle.close();
    }
  }

  private checkSafe(st: fs.Stats): void {
    if (!st.isFile()) throw new CredentialFileError(this.file, 'is not a regular file');
    if (!checksPermissions) return;
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid) {
      throw new CredentialFileError(this.file, `belongs to user id ${st.uid}, not to this user (${uid}); it is not used`);
    }
    const mode = st.mode & 0o777;
    if (mode & 0o077) {
      const octal = mode.toString(8).padStart(4, '0');
      throw new CredentialFileError(
        this.file,
        `can be read or written by other users (mode ${octal}); it is not used until you run: chmod 600 ${JSON.stringify(this.file)}`,
      );
    }
  }

  protected async save(doc: CredentialDocument): Promise<void> {
    const dir = path.dirname(this.file);
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(dir, `.${path.basename(this.file)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
    let handle: fs.promises.FileHandle | undefined;
    try {
      handle = await fs.promises.open(tmp, 'wx', 0o600);
      // The umask can only take bits away, but a filesystem or ACL default might add some back.
      if (checksPermissions) await handle.chmod(0o600);
      await handle.writeFile(`${JSON.stringify(doc, null, 2)}\n`, 'utf8');
      await handle.sync();
      await handle.close();
      handle = undefined;
      await fs.promises.rename(tmp, this.file);
    } catch (e) {
      await handle?.close().catch(() => undefined);
      await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
      if (e instanceof CredentialFileError) throw e;
      throw new CredentialFileError(this.file, `cannot be written (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    this.checkSafe(await fs.promises.lstat(this.file));
  }
}
