import type { ToolResultMessagePart, ToolRound } from '../core/agent/agentMessages';
import { placeholder, type ModelPart } from '../core/calls/resultConversion';

/** Key of our data in `ChatResult.metadata`. */
export const METADATA_KEY = 'mcpHost';

/** Larger binary results are kept as their placeholder line: chat sessions are persisted as JSON. */
export const MAX_STORED_DATA_BYTES = 512 * 1024;

type StoredPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'data'; readonly kind: 'image' | 'audio'; readonly mimeType: string; readonly base64: string };

interface StoredRound {
  readonly text: string;
  readonly toolCalls: ToolRound['toolCalls'];
  readonly results: ReadonlyArray<Omit<ToolResultMessagePart, 'parts'> & { readonly parts: readonly StoredPart[] }>;
}

export interface StoredTurn {
  readonly version: 1;
  readonly role?: string;
  readonly rounds: readonly StoredRound[];
  /** The model's answer after the last tool round. */
  readonly finalText: string;
}

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
  const m = (metadata as Record<string, unknown> | undefined)?.[METADATA_KEY] as Partial<StoredTurn> | undefined;
  if (!m || typeof m !== 'object' || m.version !== 1 || !Array.isArray(m.rounds) || typeof m.finalText !== 'string') return undefined;
  const rounds: ToolRound[] = [];
  for (const r of m.rounds as unknown[]) {
    const round = r as Partial<StoredRound>;
    if (!round || typeof round.text !== 'string' || !Array.isArray(round.toolCalls) || !Array.isArray(round.results)) return undefined;
    if (!round.toolCalls.every((c) => c && typeof c.callId === 'string' && typeof c.name === 'string')) return undefined;
    const results: ToolResultMessagePart[] = [];
    for (const res of round.results) {
      if (!res || typeof res.callId !== 'string' || typeof res.name !== 'string' || !Array.isArray(res.parts)) return undefined;
      const parts: (ModelPart | undefined)[] = (res.parts as readonly unknown[]).map(loadPart);
      if (parts.some((p) => p === undefined)) return undefined;
      results.push({ callId: res.callId, name: res.name, outcome: String(res.outcome ?? ''), parts: parts as ModelPart[] });
    }
    rounds.push({ text: round.text, toolCalls: round.toolCalls, results });
  }
  return { rounds, finalText: m.finalText };
}

function storePart(p: ModelPart): StoredPart {
  if (p.type === 'text') return { type: 'text', text: p.text };
  if (p.data.byteLength > MAX_STORED_DATA_BYTES) return { type: 'text', text: `${placeholder(p)} (not kept for follow-up turns)` };
  return { type: 'data', kind: p.kind, mimeType: p.mimeType, base64: Buffer.from(p.data).toString('base64') };
}

function loadPart(p: unknown): ModelPart | undefined {
  const part = p as Partial<StoredPart> | undefined;
  if (part?.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text };
  if (part?.type === 'data' && (part.kind === 'image' || part.kind === 'audio') && typeof part.mimeType === 'string' && typeof part.base64 === 'string') {
    return { type: 'data', kind: part.kind, mimeType: part.mimeType, data: new Uint8Array(Buffer.from(part.base64, 'base64')) };
  }
  return undefined;
}
