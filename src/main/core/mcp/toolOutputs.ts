// Images and resources an MCP call returned, kept with the conversation so its card can
// show them after a restart, and so a model that sees images gets them.
import type { ToolAttachment, ToolImage, ToolOutput } from '../../../shared/mcp';
import type { Db } from '../db/openDatabase';

/** An image larger than this (base64 characters) is named in the text but not kept. */
const IMAGE_MAX = 8 * 1024 * 1024;

interface Row {
  tool_call_id: string;
  images: string;
  attachments: string;
}

export function createToolOutputs(db: Db) {
  const upsert = db.prepare(
    'INSERT OR REPLACE INTO tool_outputs (conversation_id, tool_call_id, images, attachments) VALUES (?, ?, ?, ?)',
  );
  const one = db.prepare<[string, string], Row>(
    'SELECT * FROM tool_outputs WHERE conversation_id = ? AND tool_call_id = ?',
  );
  const withImages = db.prepare<[string], Row>(
    "SELECT * FROM tool_outputs WHERE conversation_id = ? AND images != '[]'",
  );
  const toOutput = (row: Row): ToolOutput => ({
    toolCallId: row.tool_call_id,
    images: JSON.parse(row.images) as ToolImage[],
    attachments: JSON.parse(row.attachments) as ToolAttachment[],
  });
  return {
    save(conversationId: string, toolCallId: string, images: ToolImage[], attachments: ToolAttachment[]): void {
      const kept = images.filter((image) => image.data.length <= IMAGE_MAX);
      if (!kept.length && !attachments.length) return;
      try {
        upsert.run(conversationId, toolCallId, JSON.stringify(kept), JSON.stringify(attachments));
      } catch {
        // The conversation was deleted meanwhile: nothing to show it in.
      }
    },
    get(conversationId: string, toolCallId: string): ToolOutput | null {
      const row = one.get(conversationId, toolCallId);
      return row ? toOutput(row) : null;
    },
    /** Images per tool call id, for the next request of a model that sees images. */
    images(conversationId: string): Map<string, ToolImage[]> {
      return new Map(
        withImages.all(conversationId).map((row) => [row.tool_call_id, JSON.parse(row.images) as ToolImage[]]),
      );
    },
  };
}

export type ToolOutputs = ReturnType<typeof createToolOutputs>;
