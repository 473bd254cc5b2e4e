// Files an imported conversation in the folder its export names: the folder of that name
// (any case) when there is one, a new one otherwise. Runs inside the import's transaction.
import { FolderName } from '../../../shared/folders';
import type { Db } from '../db/openDatabase';
import { createFolderRepo } from '../folders/folderRepo';

export function fileInFolder(db: Db, conversationId: string, folder: string | undefined, now: number): void {
  const name = FolderName.safeParse(folder ?? '');
  // A name the app would refuse (blank) leaves the conversation in no folder rather than failing the import.
  if (!name.success) return;
  const repo = createFolderRepo(db, () => now);
  repo.move(conversationId, repo.ensure(name.data).id);
}
