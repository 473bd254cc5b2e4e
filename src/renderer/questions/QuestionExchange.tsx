// An `ask_user` call in a transcript, shown as the exchange it was: the question, then
// the user's answer (or that it is still waiting, or was cancelled) — never as JSON.
import { ANSWER_PREFIX, CANCELLED_ANSWER } from '../../shared/questions';
import { revealBidiControls } from '../../shared/bidi';
import type { ToolCallView } from '../chat/toolSummary';
import './questions.css';

function questionOf(args: string): string {
  try {
    const question = (JSON.parse(args) as { question?: unknown }).question;
    return typeof question === 'string' ? question : args;
  } catch {
    return args; // still streaming: show what there is
  }
}

export function QuestionExchange({ view, asker, running }: { view: ToolCallView; asker: string; running: boolean }) {
  const content = view.result?.content ?? null;
  const answer =
    content === null
      ? running
        ? { kind: 'waiting', text: 'Waiting for your answer…' }
        : { kind: 'none', text: 'No answer was given.' }
      : content.startsWith(ANSWER_PREFIX)
        ? { kind: 'answered', text: content.slice(ANSWER_PREFIX.length) }
        : content === CANCELLED_ANSWER
          ? { kind: 'none', text: 'Cancelled — the question was not answered.' }
          : { kind: 'none', text: content };
  return (
    <div className="question-exchange" role="group" aria-label={`${asker} asked`}>
      <p className="exchange-question">
        <span className="exchange-who">{asker} asked:</span> {revealBidiControls(questionOf(view.call.arguments))}
      </p>
      {answer.kind === 'answered' ? (
        <p className="exchange-answer">
          <span className="exchange-who">You answered:</span> {answer.text}
        </p>
      ) : (
        <p className={`exchange-answer exchange-${answer.kind}`}>{answer.text}</p>
      )}
    </div>
  );
}
