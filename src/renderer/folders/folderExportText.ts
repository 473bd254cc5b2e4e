// What the folder's export dialog says it will write: "the 1 conversation", "all 3 conversations".
export function folderExportText(name: string, count: number): string {
  return `“${name}”: ${count === 1 ? 'the 1 conversation' : `all ${count.toLocaleString('en-US')} conversations`} in one file.`;
}
