import type { ConfirmationRule } from '../policy/confirmationPolicy';
import type { RegistryEntry } from './toolRegistry';

/** A tool the active role's model is offered, with the confirmation rule its calls get. */
export interface ExposedTool {
  readonly entry: RegistryEntry;
  readonly rule: ConfirmationRule;
}
