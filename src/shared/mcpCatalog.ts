// What MCP servers offer besides tools: prompts ("/" in the composer), resources and
// resource templates ("@"), completion of their arguments, and what a read returns.
import { z } from 'zod';
import { ConversationId } from './domain';
import { McpServerName } from './mcp';
import { PlanReviewMode } from './planContract';

const Text = (max: number) => z.string().max(max);

export const McpPromptArgument = z.object({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  required: z.boolean(),
});
export type McpPromptArgument = z.infer<typeof McpPromptArgument>;

export const McpPrompt = z.object({
  server: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  arguments: z.array(McpPromptArgument),
  /** The server answers `completion/complete` for the arguments. */
  completes: z.boolean(),
});
export type McpPrompt = z.infer<typeof McpPrompt>;

export const McpResource = z.object({
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  mimeType: z.string().nullable(),
});
export type McpResource = z.infer<typeof McpResource>;

export const McpResourceTemplate = z.object({
  server: z.string(),
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  mimeType: z.string().nullable(),
  /** The template's variables, in order (RFC 6570 names). */
  variables: z.array(z.string()),
  completes: z.boolean(),
});
export type McpResourceTemplate = z.infer<typeof McpResourceTemplate>;

/** One piece of content a server sent (a read resource, or a prompt's embedded one): text, or base64 bytes. */
export const McpContent = z.object({
  uri: z.string(),
  /** A file name for it (the URI's last segment). */
  name: z.string(),
  mimeType: z.string().nullable(),
  text: z.string().nullable(),
  /** Base64, for binary content. */
  data: z.string().nullable(),
  /** Bytes. */
  size: z.number().int().min(0),
});
export type McpContent = z.infer<typeof McpContent>;

/** Servers that could not be asked, so the list says why one is missing. */
const Problems = z.array(z.object({ server: z.string(), message: z.string() }));

export const McpPromptList = z.object({ prompts: z.array(McpPrompt), problems: Problems });
export type McpPromptList = z.infer<typeof McpPromptList>;

export const McpResourceList = z.object({
  resources: z.array(McpResource),
  templates: z.array(McpResourceTemplate),
  problems: Problems,
});
export type McpResourceList = z.infer<typeof McpResourceList>;

const Arguments = z.record(z.string().max(200), Text(10_000)).refine((r) => Object.keys(r).length <= 50, {
  error: 'at most 50 arguments',
});

export const McpGetPromptRequest = z.strictObject({
  server: McpServerName,
  name: Text(500),
  arguments: Arguments.default({}),
});

/** A prompt's messages as the composer takes them: the text, and the files it embedded. */
export const McpPromptResult = z.object({
  text: z.string(),
  files: z.array(McpContent),
  /** Content that could not be carried (audio, a file too large), said in words. */
  notes: z.array(z.string()),
  /**
   * The prompt holds a conversation (the assistant has a part in it): it is sent as it is,
   * roles kept (`mcp:sendPrompt`), not inserted into the composer.
   */
  sendAsGiven: z.boolean(),
});
export type McpPromptResult = z.infer<typeof McpPromptResult>;

/** Sends a prompt's messages into a conversation as the prompt gives them (roles kept). */
export const McpSendPromptRequest = McpGetPromptRequest.extend({
  conversationId: ConversationId,
  /** The conversation is new (its first message): started with these choices. */
  newConversation: z
    .strictObject({ autopilot: z.boolean().optional(), planReview: PlanReviewMode.optional() })
    .optional(),
});
export type McpSendPromptRequest = z.infer<typeof McpSendPromptRequest>;

/** One message of a prompt sent as given. */
export interface GivenMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** A resource by its URI, or a template (`uriTemplate`) with its `variables` filled in. */
export const McpReadRequest = z
  .strictObject({
    server: McpServerName,
    uri: Text(4000).optional(),
    uriTemplate: Text(4000).optional(),
    variables: Arguments.optional(),
  })
  .refine((r) => (r.uri === undefined) !== (r.uriTemplate === undefined), {
    error: 'give either uri or uriTemplate (with its variables)',
  });
export type McpReadRequest = z.infer<typeof McpReadRequest>;

export const McpCompleteRequest = z.strictObject({
  server: McpServerName,
  ref: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('prompt'), name: Text(500) }),
    z.strictObject({ type: z.literal('resource'), uri: Text(4000) }),
  ]),
  argument: z.strictObject({ name: Text(200), value: Text(1000) }),
  /** The other arguments filled in so far (a server may narrow its suggestions by them). */
  context: Arguments.default({}),
});
export type McpCompleteRequest = z.infer<typeof McpCompleteRequest>;
