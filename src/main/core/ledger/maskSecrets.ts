// Values that look like secrets never leave Stepwise in an export: a value under a key
// named like *KEY*, *TOKEN*, *SECRET*, *PASSWORD* or Authorization, and bearer tokens or
// API keys inside any text. Masking is idempotent, so an imported export exports the same.
export const SECRET_MASK = '••••';

// `keyword` and `max_tokens` are not secrets: only text under such a name is masked.
const SECRET_NAME = /key(?!words?\b|board)|token|secret|passw|authorization/i;
const SECRET_VALUE =
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}|\b(sk|pk|rk|ghp|gho|ghs|github_pat|xox[abpr])[-_][A-Za-z0-9_-]{12,}/g;
// `"apiKey": "…"`, `api_key=…`, `Authorization: …` in text that is not JSON.
const SECRET_PAIR =
  /((?:["']?)[\w.-]*(?:key(?!words?\b|board)|token|secret|passw|authorization)[\w.-]*(?:["']?)\s*[:=]\s*)(?![\d.]+\b)("(?:[^"\\]|\\.)*"|'[^']*'|(?:(?:Bearer|Basic|Token)\s+)?[^\s,;}&]+)/gi;

/** `secret`: everything textual under it is masked (e.g. `"secrets": {"a": "…"}`). */
function maskValue(value: unknown, secret = false): unknown {
  if (typeof value === 'string') return secret ? SECRET_MASK : maskSecretText(value);
  if (Array.isArray(value)) return value.map((inner) => maskValue(inner, secret));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, maskValue(inner, secret || SECRET_NAME.test(key))]),
    );
  }
  return value;
}

/** Tool arguments (JSON text as the model sent it) with every secret-looking value masked. */
export function maskSecretArguments(json: string): string {
  if (!json.trim()) return json;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return maskSecretText(json);
  }
  return JSON.stringify(maskValue(value));
}

/** Free text (a result, arguments that are not JSON) with secret-looking values masked. */
export function maskSecretText(text: string): string {
  return text
    .replace(SECRET_PAIR, (_all, head: string, value: string) =>
      value === `"${SECRET_MASK}"` || value === SECRET_MASK
        ? `${head}${value}`
        : `${head}${value.startsWith('"') ? `"${SECRET_MASK}"` : SECRET_MASK}`,
    )
    .replace(SECRET_VALUE, (match: string, scheme: string | undefined) =>
      scheme ? `${scheme} ${SECRET_MASK}` : SECRET_MASK,
    );
}
