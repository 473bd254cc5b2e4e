// Files attached in a composer before sending, per draft, outside React so they survive a
// switch of conversation (like the draft text). Each is uploaded as soon as it is added
// (bytes as base64 through the typed API); the limits are checked here first, so the user
// learns of a file too large before anything is sent.
import { IMAGE_TYPES, limitProblem, type AttachmentInfo } from '../../shared/attachments';
import type { StepwiseApi } from '../../shared/ipc';
import { call } from '../api/apiContext';

export interface StagedFile {
  key: string;
  name: string;
  size: number;
  mimeType: string;
  /** An image's data URL for its thumbnail (the page already holds the bytes). */
  previewUrl: string | null;
  /** Set once stored in core. */
  info: AttachmentInfo | null;
}

const NONE: StagedFile[] = [];

export function createStagedFiles() {
  const byDraft = new Map<string, StagedFile[]>();
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());
  const set = (draft: string, files: StagedFile[]) => {
    if (files.length) byDraft.set(draft, files);
    else byDraft.delete(draft);
    emit();
  };
  const get = (draft: string) => byDraft.get(draft) ?? NONE;

  return {
    get,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** Uploads each file; returns the problems (shown to the user) of those refused. */
    async add(api: StepwiseApi, draft: string, files: File[]): Promise<string[]> {
      const problems: string[] = [];
      // Limits are checked in order against what is already attached plus what came before.
      const counted: Array<{ size: number }> = [...get(draft)];
      const accepted = files.flatMap((file) => {
        const name = file.name || `pasted.${file.type.split('/')[1] ?? 'bin'}`;
        const problem = limitProblem(counted, { name, size: file.size });
        if (problem) {
          problems.push(problem);
          return [];
        }
        counted.push({ size: file.size });
        return [{ file, name, key: crypto.randomUUID() }];
      });
      set(draft, [
        ...get(draft),
        ...accepted.map(({ file, name, key }) => ({
          key,
          name,
          size: file.size,
          mimeType: file.type,
          previewUrl: null,
          info: null,
        })),
      ]);
      const update = (key: string, patch: Partial<StagedFile>) =>
        set(
          draft,
          get(draft).map((f) => (f.key === key ? { ...f, ...patch } : f)),
        );
      await Promise.all(
        accepted.map(async ({ file, name, key }) => {
          try {
            const data = await readBase64(file);
            if ((IMAGE_TYPES as readonly string[]).includes(file.type))
              update(key, { previewUrl: `data:${file.type};base64,${data}` });
            const info = await call(api, 'attachments:add', { name, mimeType: file.type.slice(0, 200), data });
            update(key, { info });
            if (info.note) problems.push(info.note);
          } catch (error) {
            set(
              draft,
              get(draft).filter((f) => f.key !== key),
            );
            problems.push(error instanceof Error ? error.message : String(error));
          }
        }),
      );
      return problems;
    },
    remove(draft: string, key: string) {
      set(
        draft,
        get(draft).filter((f) => f.key !== key),
      );
    },
    /** After a send: the files it carried leave the composer. */
    sent(draft: string, ids: string[]) {
      set(
        draft,
        get(draft).filter((f) => !f.info || !ids.includes(f.info.id)),
      );
    },
  };
}

export const stagedFiles = createStagedFiles();

async function readBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
