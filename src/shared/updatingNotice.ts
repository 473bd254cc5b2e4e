/**
 * Marks the "Updating your data…" notice a host puts in the app page's root while it
 * migrates (main/core/db/updatingPage.ts): the renderer waits for the host before it draws
 * the app over it.
 */
export const UPDATING_ATTRIBUTE = 'data-updating';
