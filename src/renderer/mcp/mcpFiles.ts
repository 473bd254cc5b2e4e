// Content a server sent (a resource read, a prompt's embedded files) as files for the
// composer, which uploads them like any attached file (same limits, same storage).
import type { McpContent } from '../../shared/mcpCatalog';

export function contentFiles(contents: McpContent[]): File[] {
  return contents.flatMap((content) => {
    const type = content.mimeType ?? (content.text !== null ? 'text/plain' : 'application/octet-stream');
    if (content.text !== null) return [new File([content.text], content.name, { type })];
    if (content.data === null) return [];
    const binary = atob(content.data);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return [new File([bytes], content.name, { type })];
  });
}
