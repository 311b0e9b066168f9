import { z } from 'zod';
import type { ToolRound } from '../core/agent/agentMessages';
import { placeholder, type ModelPart } from '../core/calls/resultConversion';

/** Key of our data in `ChatResult.metadata`. */
export const METADATA_KEY = 'mcpHost';

/** Larger binary results are kept as their placeholder line: chat sessions are persisted as JSON. */
export const MAX_STORED_DATA_BYTES = 512 * 1024;

const storedPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('data'), kind: z.enum(['image', 'audio']), mimeType: z.string(), base64: z.string() }),
]);

const storedRoundSchema = z.object({
  text: z.string(),
  toolCalls: z.array(z.object({ callId: z.string(), name: z.string(), input: z.unknown().optional() })),
  results: z.array(z.object({ callId: z.string(), name: z.string(), outcome: z.string().default(''), parts: z.array(storedPartSchema) })),
});

/** What {@link toTurnMetadata} keeps of a turn, and what {@link fromTurnMetadata} accepts back. */
const storedTurnSchema = z.object({
  version: z.literal(1),
  role: z.string().optional(),
  rounds: z.array(storedRoundSchema),
  /** The model's answer after the last tool round. */
  finalText: z.string(),
});

/** Chat history is persisted and may come from another version of the extension: trust no field. */
const metadataSchema = z.object({ [METADATA_KEY]: storedTurnSchema });

type StoredPart = z.infer<typeof storedPartSchema>;
export type StoredTurn = z.infer<typeof storedTurnSchema>;

export interface ReplayedTurn {
  readonly rounds: readonly ToolRound[];
  readonly finalText: string;
}

/** JSON-safe metadata for a ChatResult, so a follow-up turn can replay this turn's tool rounds. */
export function toTurnMetadata(rounds: readonly ToolRound[], finalText: string, role?: string): { [METADATA_KEY]: StoredTurn } {
  const stored: StoredTurn = {
    version: 1,
    ...(role ? { role } : {}),
    rounds: rounds.map((r) => ({
      text: r.text,
      toolCalls: r.toolCalls.map((c) => ({ callId: c.callId, name: c.name, input: c.input })),
      results: r.results.map((res) => ({ callId: res.callId, name: res.name, outcome: res.outcome, parts: res.parts.map(storePart) })),
    })),
    finalText,
  };
  return { [METADATA_KEY]: stored };
}

/** The rounds kept by {@link toTurnMetadata}, or undefined when the metadata is not ours or is malformed. */
export function fromTurnMetadata(metadata: unknown): ReplayedTurn | undefined {
  const parsed = metadataSchema.safeParse(metadata);
  if (!parsed.success) return undefined;
  const turn = parsed.data[METADATA_KEY];
  return {
    rounds: turn.rounds.map((r) => ({
      text: r.text,
      toolCalls: r.toolCalls.map((c) => ({ callId: c.callId, name: c.name, input: c.input })),
      results: r.results.map((res) => ({ ...res, parts: res.parts.map(loadPart) })),
    })),
    finalText: turn.finalText,
  };
}

function storePart(p: ModelPart): StoredPart {
  if (p.type === 'text') return { type: 'text', text: p.text };
  if (p.data.byteLength > MAX_STORED_DATA_BYTES) return { type: 'text', text: `${placeholder(p)} (not kept for follow-up turns)` };
  return { type: 'data', kind: p.kind, mimeType: p.mimeType, base64: Buffer.from(p.data).toString('base64') };
}

function loadPart(p: StoredPart): ModelPart {
  if (p.type === 'text') return p;
  return { type: 'data', kind: p.kind, mimeType: p.mimeType, data: new Uint8Array(Buffer.from(p.base64, 'base64')) };
}
