// The folder export dialog's sentence reads right for one conversation and for several (issue 26).
import { describe, expect, it } from 'vitest';
import { folderExportText } from '../../src/renderer/folders/folderExportText';

describe('folderExportText', () => {
  it('says "the 1 conversation" and "all 3 conversations"', () => {
    expect(folderExportText('Trip', 1)).toBe('“Trip”: the 1 conversation in one file.');
    expect(folderExportText('Trip', 3)).toBe('“Trip”: all 3 conversations in one file.');
  });
});
