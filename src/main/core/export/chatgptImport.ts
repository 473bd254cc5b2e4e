// Reads the `conversations.json` of a ChatGPT data export: an array of conversations whose
// messages form a tree (`mapping`). The branch ChatGPT shows (from `current_node` up to the
// root) becomes the shown branch; the others (earlier edits, regenerated replies) become
// versions of the messages they branch from. Parts Stepwise cannot show
// (images, tool output, code interpreter…) become a short note; a conversation that cannot
// be read, or is over the app's limits, is skipped with a reason, never half-imported.
import { z } from 'zod';
import { MESSAGE_MAX, TITLE_MAX } from '../../../shared/domain';
import { IMPORT_MESSAGES_MAX } from './conversationImport';
import { createPace, type Pace } from './pace';

// Only the fields read here; ChatGPT adds many more, which pass through unread.
const Part = z.union([z.string(), z.looseObject({ content_type: z.string().optional() })]);
const Content = z.looseObject({
  content_type: z.string(),
  parts: z.array(Part.nullable()).optional(),
  text: z.string().optional(),
});
const ChatGptMessage = z.looseObject({
  author: z.looseObject({ role: z.string() }),
  create_time: z.number().nullable().optional(),
  content: Content,
  metadata: z.looseObject({ is_visually_hidden_from_conversation: z.boolean().optional() }).nullable().optional(),
});
const ChatGptNode = z.looseObject({
  id: z.string().optional(),
  message: ChatGptMessage.nullable().optional(),
  parent: z.string().nullable().optional(),
  children: z.array(z.string()).optional(),
});
export const ChatGptConversation = z.looseObject({
  title: z.string().nullable().optional(),
  create_time: z.number().nullable().optional(),
  update_time: z.number().nullable().optional(),
  mapping: z.record(z.string(), ChatGptNode),
  current_node: z.string().nullable().optional(),
});
/**
 * The conversation without its nodes, which are read one by one (10,000 at once held the
 * host); even a record of unknowns walks every entry, so the mapping is only checked to be an object here.
 */
const ConversationShell = ChatGptConversation.extend({
  mapping: z.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'expected an object of messages',
  ),
});
type ChatGptConversation = z.infer<typeof ChatGptConversation>;
type ChatGptMessage = z.infer<typeof ChatGptMessage>;
type ChatGptNode = ChatGptConversation['mapping'][string];

export interface ImportedMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
  createdAt: number;
  /** The message before it on its branch (an index into the same list), or null for a first one. */
  parent: number | null;
  /** On the branch ChatGPT shows. */
  shown: boolean;
}
export interface ImportedConversation {
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: ImportedMessage[];
}
export interface SkippedConversation {
  title: string;
  reason: string;
}
export interface ChatGptImport {
  conversations: ImportedConversation[];
  skipped: SkippedConversation[];
}

/** Whether parsed JSON looks like ChatGPT's conversations.json (an array of objects with a `mapping`). */
export function isChatGptExport(data: unknown): data is unknown[] {
  return (
    Array.isArray(data) &&
    data.some((item) => typeof item === 'object' && item !== null && 'mapping' in item && 'current_node' in item)
  );
}

const NOTE_NAMES: Record<string, string> = {
  image_asset_pointer: 'image',
  audio_asset_pointer: 'audio',
  audio_transcription: 'audio transcription',
  real_time_user_audio_video_asset_pointer: 'audio/video',
  code: 'code interpreter input',
  execution_output: 'code interpreter output',
  tether_browsing_display: 'browsing result',
  tether_quote: 'quoted web page',
  thoughts: 'reasoning',
  reasoning_recap: 'reasoning summary',
  system_error: 'error',
  user_editable_context: 'custom instructions',
};
const note = (contentType: string | undefined) =>
  `[${NOTE_NAMES[contentType ?? ''] ?? contentType ?? 'attachment'} not imported]`;

/** The text Stepwise shows for one ChatGPT message: its text parts, and a note for each other part. */
function messageText(message: ChatGptMessage): string {
  const { content } = message;
  if (message.author.role === 'tool') return '[tool result not imported]';
  if (content.content_type !== 'text' && content.content_type !== 'multimodal_text') return note(content.content_type);
  const pieces = (content.parts ?? []).flatMap((part) => {
    if (part === null) return [];
    if (typeof part === 'string') return part ? [part] : [];
    return [note(part.content_type)];
  });
  return pieces.join('\n\n').trim();
}

const ROLES = new Set(['user', 'assistant', 'system']);

/** Seconds since the epoch (ChatGPT's floats) to milliseconds; missing times take the fallback. */
const toMs = (seconds: number | null | undefined, fallback: number) =>
  typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : fallback;

/** The shown branch, root first: from `current_node` up through `parent`. */
function shownBranch(conversation: ChatGptConversation): ChatGptNode[] | string {
  const { mapping } = conversation;
  let nodeId = conversation.current_node ?? undefined;
  // Older exports may lack current_node: follow the last child from the root instead.
  if (nodeId === undefined || !(nodeId in mapping)) {
    const root = Object.entries(mapping).find(([, node]) => !node.parent || !(node.parent in mapping));
    if (!root) return 'it has no root message';
    nodeId = root[0];
    for (let children = mapping[nodeId]?.children; children?.length; children = mapping[nodeId]?.children) {
      const last = children.at(-1)!;
      if (!(last in mapping)) break;
      nodeId = last;
    }
  }
  const branch = [];
  const seen = new Set<string>();
  for (let id: string | null | undefined = nodeId; id; id = mapping[id]?.parent) {
    if (seen.has(id)) return 'its message tree has a loop';
    seen.add(id);
    const node = mapping[id];
    if (!node) return `its message tree refers to a missing message (${id})`;
    branch.push(node);
  }
  return branch.reverse();
}

/** Each node of the mapping validated on its own, giving way between them; or the first problem. */
async function readMapping(
  raw: Record<string, unknown>,
  pace: Pace,
): Promise<{ ok: true; mapping: ChatGptConversation['mapping'] } | { ok: false; where: string; message: string }> {
  const mapping: ChatGptConversation['mapping'] = {};
  for (const [id, node] of Object.entries(raw)) {
    const parsed = ChatGptNode.safeParse(node);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { ok: false, where: ['mapping', id, ...issue.path.map(String)].join('.'), message: issue.message };
    }
    mapping[id] = parsed.data;
    await pace();
  }
  return { ok: true, mapping };
}

async function readConversation(
  raw: unknown,
  index: number,
  now: number,
  pace: Pace,
): Promise<ImportedConversation | SkippedConversation> {
  const rawTitle =
    typeof raw === 'object' && raw !== null && typeof (raw as { title?: unknown }).title === 'string'
      ? (raw as { title: string }).title
      : '';
  const fallbackTitle = rawTitle.trim() || `Conversation ${index + 1}`;
  const unreadable = (where: string, message: string) => ({
    title: fallbackTitle,
    reason: `it is not a readable ChatGPT conversation (${where ? `${where}: ` : ''}${message})`,
  });
  const parsed = ConversationShell.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return unreadable(issue.path.map(String).join('.'), issue.message);
  }
  const nodes = await readMapping(parsed.data.mapping, pace);
  if (!nodes.ok) return unreadable(nodes.where, nodes.message);
  const source: ChatGptConversation = { ...parsed.data, mapping: nodes.mapping };
  const title = source.title?.trim() || 'Imported from ChatGPT';
  if (title.length > TITLE_MAX)
    return {
      title: title.slice(0, 60) + '…',
      reason: `its title is ${title.length} characters (at most ${TITLE_MAX})`,
    };
  const createdAt = toMs(source.create_time, now);
  const branch = shownBranch(source);
  if (typeof branch === 'string') return { title, reason: branch };
  const messages = await readTree(source, branch, pace);
  if (typeof messages === 'string') return { title, reason: messages };
  if (messages.length > IMPORT_MESSAGES_MAX)
    return { title, reason: `it holds ${messages.length} messages (at most ${IMPORT_MESSAGES_MAX})` };
  if (messages.length === 0) return { title, reason: 'it has no messages' };
  const lastShown = messages.findLast((m) => m.shown)?.createdAt ?? createdAt;
  return { title, createdAt, updatedAt: Math.max(createdAt, toMs(source.update_time, lastShown)), messages };
}

/**
 * Every branch, parents before children (the shown one's order kept): nodes left out
 * (empty, hidden) pass their children to the nearest message kept above them.
 */
async function readTree(
  source: ChatGptConversation,
  branch: ChatGptNode[],
  pace: Pace,
): Promise<ImportedMessage[] | string> {
  const { mapping } = source;
  const idOf = new Map<ChatGptNode, string>();
  const childrenOf = new Map<string, string[]>();
  for (const [id, node] of Object.entries(mapping)) {
    idOf.set(node, id);
    await pace();
    if (!node.parent || !(node.parent in mapping)) continue;
    const list = childrenOf.get(node.parent) ?? [];
    list.push(id);
    childrenOf.set(node.parent, list);
  }
  const shownIds = new Set(branch.map((node) => idOf.get(node)));
  // ChatGPT lists children oldest first; follow that order where it is given. Each
  // parent's order is indexed once: a lookup per comparison made this quadratic in the
  // versions of one message (50,000 replies took minutes).
  for (const [id, list] of childrenOf) {
    const order = mapping[id]?.children ?? [];
    const rank = new Map<string, number>();
    for (const [at, child] of order.entries()) {
      if (!rank.has(child)) rank.set(child, at);
      await pace();
    }
    const rankOf = (child: string) => rank.get(child) ?? order.length;
    list.sort((a, b) => rankOf(a) - rankOf(b));
    await pace();
  }
  const messages: ImportedMessage[] = [];
  const rootId = idOf.get(branch[0]!)!;
  const stack: Array<{ id: string; parent: number | null; time: number }> = [
    { id: rootId, parent: null, time: toMs(source.create_time, 0) },
  ];
  const seen = new Set<string>();
  while (stack.length) {
    const { id, parent, time } = stack.pop()!;
    if (seen.has(id)) return 'its message tree has a loop';
    seen.add(id);
    const message = mapping[id]?.message;
    const text = message && !message.metadata?.is_visually_hidden_from_conversation ? messageText(message) : '';
    let here = parent;
    let at = time;
    if (message && text) {
      const role = ROLES.has(message.author.role) ? (message.author.role as ImportedMessage['role']) : 'assistant';
      if (role === 'user' && text.length > MESSAGE_MAX)
        return `a message of yours is ${text.length} characters (at most ${MESSAGE_MAX})`;
      at = toMs(message.create_time, time);
      messages.push({ role, content: text, createdAt: at, parent, shown: shownIds.has(id) });
      here = messages.length - 1;
    }
    const children = childrenOf.get(id) ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ id: children[i]!, parent: here, time: at });
    await pace();
  }
  const looped = await loopedNodes(mapping, seen, pace);
  if (looped) return `its message tree has a loop (${looped} messages that lead back to themselves)`;
  return messages;
}

/**
 * How many of the nodes the walk from the root never reached follow their parents round
 * in a circle: they would be dropped without a word, so the conversation is skipped.
 */
async function loopedNodes(
  mapping: ChatGptConversation['mapping'],
  reached: ReadonlySet<string>,
  pace: Pace,
): Promise<number> {
  /** 1: on the path being followed; 2: its parents end somewhere. */
  const state = new Map<string, 1 | 2>();
  let looped = 0;
  for (const start of Object.keys(mapping)) {
    await pace();
    if (reached.has(start) || state.has(start)) continue;
    const path: string[] = [];
    let id: string | null | undefined = start;
    while (id && id in mapping && !reached.has(id) && !state.has(id)) {
      state.set(id, 1);
      path.push(id);
      id = mapping[id]!.parent;
    }
    if (id && state.get(id) === 1) looped += path.length - path.indexOf(id);
    for (const seen of path) state.set(seen, 2);
  }
  return looped;
}

/**
 * Reads every conversation of the file; one that cannot be read is skipped with a reason.
 * It gives way to other calls every `pace` slice (one message with 10,000 versions took
 * 0.5–1 s to read in one piece).
 */
export async function readChatGptExport(
  data: unknown[],
  now: number,
  pace: Pace = createPace(),
): Promise<ChatGptImport> {
  const result: ChatGptImport = { conversations: [], skipped: [] };
  for (const [index, raw] of data.entries()) {
    const read = await readConversation(raw, index, now, pace);
    if ('reason' in read) result.skipped.push(read);
    else result.conversations.push(read);
  }
  return result;
}
