// Three prompts that show what the task list is for: each asks for work of several steps.
import './firstRun.css';

export const EXAMPLE_PROMPTS = [
  'Plan a three-day trip to Lisbon: where to stay, what to see each day, and a packing list.',
  'Compare three note-taking apps for a small team, then recommend one and say why.',
  'Write a launch checklist for a small web app, then work through the first three items.',
] as const;

export function ExamplePrompts(props: { onPick: (prompt: string) => void }) {
  return (
    <section className="example-prompts" aria-labelledby="example-prompts-heading">
      <h2 id="example-prompts-heading">Try an example</h2>
      <ul role="list">
        {EXAMPLE_PROMPTS.map((prompt) => (
          <li key={prompt}>
            <button type="button" className="example-prompt" onClick={() => props.onPick(prompt)}>
              {prompt}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
