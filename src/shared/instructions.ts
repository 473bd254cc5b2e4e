// What the user tells the model up front: a default system prompt (a setting) and each
// conversation's own instructions. Both go first in every request, before Stepwise's
// own guidance (docs/chat-engine.md).
import { z } from 'zod';

export const INSTRUCTIONS_MAX = 20_000;

export const InstructionsText = z
  .string({ error: 'instructions must be text' })
  .max(INSTRUCTIONS_MAX, { error: `instructions must be at most ${INSTRUCTIONS_MAX} characters` });
