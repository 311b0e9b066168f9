import type { ConfirmationAnswer, ConfirmationRequest, Confirmer } from '../core/calls/confirmer';
import type { Write } from './stderrLogger';

/**
 * The confirmer when nobody can be asked (no terminal, or session mode where stdin is the
 * protocol): every call that needs confirmation is denied, with a hint on stderr.
 */
export class DenyingConfirmer implements Confirmer {
  constructor(
    private readonly why: string,
    private readonly write: Write = (t) => void process.stderr.write(t),
  ) {}

  async confirm(request: ConfirmationRequest): Promise<ConfirmationAnswer> {
    const rule = request.rule ? ` (rule ${request.rule.setting}: ${request.rule.reason})` : '';
    this.write(`mcp-host warning: the call to "${request.name}" needs confirmation${rule} and ${this.why}: denied (pass --yes to allow such calls)\n`);
    return 'deny';
  }
}
