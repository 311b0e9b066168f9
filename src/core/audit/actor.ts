import { userInfo } from 'node:os';
import type { Actor } from './auditRecord';

/** The OS user behind a decision made `via` the editor, a terminal or a flag. */
export function actor(via: Actor['via']): Actor {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no user database entry (some containers)
  }
  return { user, via };
}
