// A PDF's text, for models (which get PDFs as text). unpdf bundles a serverless build of
// pdf.js with no native or platform-specific parts; it is loaded on first use only.
export async function extractPdfText(bytes: Buffer): Promise<{ text: string; pages: number } | { error: string }> {
  try {
    const { extractText, getDocumentProxy } = await import('unpdf');
    // verbosity 0: pdf.js would print warnings about broken files to the console.
    const document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    const { text, totalPages } = await extractText(document, { mergePages: true });
    return { text: text.trim(), pages: totalPages };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
