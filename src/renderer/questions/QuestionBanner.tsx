// A question an agent waits on: who asks, the question, any details (tool, server,
// arguments), and either an answer box with Answer or one button per action.
import { lazy, Suspense, useState } from 'react';
import type { Question, QuestionReply } from '../../shared/questions';
import { revealBidiControls } from '../../shared/bidi';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { scrollToCard, useCardSeen } from '../approvals/cardVisibility';
import './questions.css';

// A form (an MCP server's elicitation) is rare: its fields load when one is asked.
const QuestionForm = lazy(() => import('./QuestionForm').then((m) => ({ default: m.QuestionForm })));

export function QuestionBanners({ questions }: { questions: Question[] }) {
  const seen = useCardSeen();
  if (!questions.length) return null;
  // An approval is answered on its card: nothing here while the card is in view (or being
  // measured), a line that scrolls to it while it is drawn but out of view, the whole
  // question when it is not drawn.
  const shown = questions.filter((q) => {
    const state = q.toolCallId ? seen(q.toolCallId) : null;
    return state !== 'visible' && state !== 'measuring';
  });
  if (!shown.length) return null;
  return (
    <div className="question-banners">
      {shown.map((q) =>
        q.toolCallId && seen(q.toolCallId) === 'hidden' ? (
          <ApprovalPointer key={q.id} question={q} toolCallId={q.toolCallId} />
        ) : (
          <QuestionBanner key={q.id} question={q} />
        ),
      )}
    </div>
  );
}

/** The banner of an approval whose card is scrolled away: what waits, and a way to it. */
function ApprovalPointer({ question, toolCallId }: { question: Question; toolCallId: string }) {
  return (
    <section className="question-banner compact" role="region" aria-label={`Question from ${question.agentName}`}>
      <div className="question-head">
        <span className="question-icon" aria-hidden="true">
          ?
        </span>
        <span className="question-text">{revealBidiControls(question.text)}</span>
        <button type="button" className="small" onClick={() => scrollToCard(toolCallId)}>
          Show
        </button>
      </div>
    </section>
  );
}

function QuestionBanner({ question }: { question: Question }) {
  const api = useApi();
  const guard = useGuard();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const reply = async (value: QuestionReply) => {
    if (sending) return;
    setSending(true);
    await guard(() => call(api, 'questions:answer', { questionId: question.id, reply: value }));
    setSending(false);
  };
  const canAnswer = text.trim().length > 0 && !sending;
  return (
    <section className="question-banner" role="region" aria-label={`Question from ${question.agentName}`}>
      <div className="question-head">
        <span className="question-icon" aria-hidden="true">
          ?
        </span>
        <strong>{question.agentName}</strong>
        <span className="question-asks">{question.freeText || question.form ? 'asks you' : 'needs your decision'}</span>
      </div>
      <p className="question-text">{revealBidiControls(question.text)}</p>
      {question.details.length > 0 && (
        <dl className="question-details">
          {question.details.map((d) => (
            <div key={d.label}>
              <dt>{d.label}</dt>
              <dd>{d.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {question.link && (
        <p className="question-link">
          <span className="question-link-host">{question.link.host}</span>
          <code>{question.link.url}</code>
        </p>
      )}
      {question.form && (
        <Suspense fallback={null}>
          <QuestionForm
            question={question}
            disabled={sending}
            onSubmit={(values) => void reply({ kind: 'form', values })}
          />
        </Suspense>
      )}
      {question.freeText && (
        <form
          className="question-answer"
          onSubmit={(e) => {
            e.preventDefault();
            if (canAnswer) void reply({ kind: 'text', text }).then(() => setText(''));
          }}
        >
          <textarea
            aria-label={`Your answer to ${question.agentName}`}
            placeholder="Type your answer (Enter to send, Esc stops everything)"
            value={text}
            rows={Math.min(6, Math.max(1, text.split('\n').length))}
            autoFocus
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                if (canAnswer) void reply({ kind: 'text', text }).then(() => setText(''));
              }
            }}
          />
          <button type="submit" className="primary" disabled={!canAnswer}>
            Answer
          </button>
        </form>
      )}
      {question.actions.length > 0 && (
        <div className="question-actions">
          {question.actions.map((action) => (
            <button
              key={action.id}
              type="button"
              className={action.tone === 'neutral' ? '' : action.tone}
              disabled={sending}
              onClick={() => {
                // The page opens only on the user's own click (the system browser, or a new tab).
                if (question.link?.action === action.id)
                  window.open(question.link.url, '_blank', 'noopener,noreferrer');
                void reply({ kind: 'action', actionId: action.id });
              }}
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
