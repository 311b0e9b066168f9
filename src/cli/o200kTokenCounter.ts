import type { TokenCounter } from '../core/agent/roundTools';

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');
let encoding: Encoding | undefined;

/**
 * Token counts where no chat model is at hand (`check`, the bench): gpt-tokenizer's `o200k_base`,
 * the encoding of OpenAI's current models, in pure JavaScript with its ranks in the package (no
 * download at run time). Loaded on first use (≈150 ms), so commands that count nothing skip it.
 */
export const O200K_COUNTER = {
  key: 'o200k_base',
  count(text: string): number {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    encoding ??= require('gpt-tokenizer/encoding/o200k_base') as Encoding;
    return encoding.countTokens(text);
  },
} satisfies TokenCounter;
