// Settings → Prompt library: saved prompts to insert with "/" in the composer; add,
// delete, and import or export them as a `stepwise.prompts` JSON file.
import { useState } from 'react';
import { mergePrompts, parsePromptLibrary, promptLibraryJson, type SavedPrompt } from '../../shared/promptLibrary';
import { INSTRUCTIONS_MAX } from '../../shared/instructions';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { downloadText } from '../common/download';
import './instructions.css';
import { pickJsonFileText } from '../common/pickFile';

export function PromptLibrarySettings({ prompts }: { prompts: SavedPrompt[] }) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const save = (next: SavedPrompt[]) => guard(() => call(api, 'settings:update', { patch: { prompts: next } }));

  const add = async () => {
    if (!title.trim() || !text.trim()) return;
    if (await save(mergePrompts(prompts, [{ title: title.trim(), text }]))) {
      setTitle('');
      setText('');
    }
  };

  const importFile = async () => {
    const content = await pickJsonFileText('Prompt library file');
    if (content === null) return;
    const parsed = parsePromptLibrary(content);
    if (!parsed.ok) {
      toast(parsed.message);
      return;
    }
    if (await save(mergePrompts(prompts, parsed.prompts))) {
      toast(`Imported ${parsed.prompts.length} ${parsed.prompts.length === 1 ? 'prompt' : 'prompts'}`);
    }
  };

  return (
    <fieldset className="settings-group">
      <legend>Prompt library</legend>
      <small className="field-note">Type “/” at the start of a message to insert one.</small>
      {prompts.length > 0 && (
        <ul className="prompt-library" aria-label="Saved prompts">
          {prompts.map((prompt) => (
            <li key={prompt.title}>
              <div className="prompt-library-text">
                <strong>{prompt.title}</strong>
                <span>{prompt.text}</span>
              </div>
              <button
                type="button"
                className="ghost"
                aria-label={`Delete prompt “${prompt.title}”`}
                onClick={() => void save(prompts.filter((p) => p !== prompt))}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="field">
        <span>Prompt title</span>
        <input value={title} maxLength={100} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label className="field">
        <span>Prompt text</span>
        <textarea
          className="system-prompt"
          rows={3}
          maxLength={INSTRUCTIONS_MAX}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <div className="prompt-library-actions">
        <button type="button" disabled={!title.trim() || !text.trim()} onClick={() => void add()}>
          Save prompt
        </button>
        <button type="button" onClick={() => void importFile()}>
          Import prompts…
        </button>
        <button
          type="button"
          disabled={prompts.length === 0}
          onClick={() => {
            downloadText('stepwise-prompts.json', 'application/json', promptLibraryJson(prompts));
            toast('Downloaded stepwise-prompts.json');
          }}
        >
          Export prompts
        </button>
      </div>
    </fieldset>
  );
}
