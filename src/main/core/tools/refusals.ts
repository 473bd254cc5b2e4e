// A model that keeps calling tools the plan gate refuses would loop until the round
// limit; after this many refusals in one turn the turn ends with a note the user sees.
export const REFUSAL_LIMIT = 10;

export const REFUSAL_NOTE =
  `The turn was ended: the assistant tried ${REFUSAL_LIMIT} times to use tools that change things before the plan was approved. ` +
  'Review the plan in the task header, or send a message.';
