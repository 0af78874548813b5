// Turns one dataset item into the requests a model sees and the output the analysis reads:
// - procedural-arith and single-turn dict-sum: one prompt, one reply;
// - multi-turn dict-sum: one user message per turn; each assistant reply goes back into the
//   history with its <think>…</think> stripped (as chat templates of thinking models do, and
//   so that long reasoning does not crowd the context), while the stored output keeps it all;
// - self-conditioning: the shown (possibly corrupted) running sums are injected as the model's
//   own earlier turns (lib/generate/prompts.ts buildMessages), and only the target turn is asked.
import { buildMessages, isMultiTurn, replyCount, type ChatMessage, type PromptHeader, type PromptItem } from "../generate/prompts";
import type { ChatReply } from "./client";

/** What the conversation needs of a chat client (a test can pass a function). */
export interface Completer {
  complete(messages: ChatMessage[], signal?: AbortSignal): Promise<ChatReply>;
}

export interface ConversationResult {
  /** one text, or one text per turn for multi-turn dict-sum */
  output: string | string[];
  promptTokens: number | null;
  completionTokens: number | null;
  /** sum over the requests of this generation */
  latencyMs: number;
  requests: number;
  /** attempts beyond one per request */
  retries: number;
}

/** Removes thinking blocks; an unclosed <think> (a reply cut off while thinking) is dropped to the end. */
export function stripThinking(text: string): string {
  return text
    .replace(/<think>[\s\S]*?<\/think>/g, "")
    .replace(/<think>[\s\S]*$/, "")
    .trim();
}

const addOrNull = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));

export async function runConversation(
  client: Completer,
  header: PromptHeader,
  item: PromptItem,
  signal?: AbortSignal,
): Promise<ConversationResult> {
  const turns = replyCount(header, item);
  const multi = isMultiTurn(header, item);
  const raw: string[] = [];
  const history: string[] = [];
  const acc: ConversationResult = { output: "", promptTokens: null, completionTokens: null, latencyMs: 0, requests: 0, retries: 0 };
  for (let t = 0; t < turns; t++) {
    const messages = buildMessages(header, item, history);
    const r = await client.complete(messages, signal);
    raw.push(r.content);
    history.push(stripThinking(r.content));
    acc.promptTokens = addOrNull(acc.promptTokens, r.promptTokens);
    acc.completionTokens = addOrNull(acc.completionTokens, r.completionTokens);
    acc.latencyMs += r.latencyMs;
    acc.requests++;
    acc.retries += r.attempts - 1;
  }
  acc.output = multi ? raw : (raw[0] ?? "");
  return acc;
}
