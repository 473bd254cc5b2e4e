// Exported tool-call arguments and results never carry values that look like secrets;
// masking keeps everything else and is idempotent (an imported export exports the same).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskSecretArguments, maskSecretText, SECRET_MASK } from '../../src/main/core/ledger/maskSecrets';
import { resultExcerpt } from '../../src/main/core/ledger/ledgerStore';
import { toolCallCountLabel } from '../../src/shared/ledger';

const M = SECRET_MASK;

describe('maskSecretArguments', () => {
  it.each([
    ['{"apiKey":"abc123","path":"/tmp"}', `{"apiKey":"${M}","path":"/tmp"}`],
    [
      '{"API_KEY":"x","GITHUB_TOKEN":"y","client_secret":"z","password":"p"}',
      `{"API_KEY":"${M}","GITHUB_TOKEN":"${M}","client_secret":"${M}","password":"${M}"}`,
    ],
    ['{"headers":{"Authorization":"Bearer abc.def"}}', `{"headers":{"Authorization":"${M}"}}`],
    [
      '{"env":{"OPENAI_API_KEY":"sk-1"},"args":["--key","v"]}',
      `{"env":{"OPENAI_API_KEY":"${M}"},"args":["--key","v"]}`,
    ],
    ['{"secrets":{"a":"b","n":1},"keys":["x"]}', `{"secrets":{"a":"${M}","n":1},"keys":["${M}"]}`],
    ['{"keyword":"cats","max_tokens":100,"token":null}', '{"keyword":"cats","max_tokens":100,"token":null}'],
    ['{"note":"send Bearer abcdefgh to sk-abcdefghijklmnop1234"}', `{"note":"send Bearer ${M} to ${M}"}`],
    ['', ''],
    ['not json, api_key=xyz123 and "token": "abc"', `not json, api_key=${M} and "token": "${M}"`],
  ])('%s', (input, expected) => {
    expect(maskSecretArguments(input)).toBe(expected);
  });

  it('is idempotent and never leaves a secret-named string value in place', () => {
    const secretish = fc.constantFrom('apiKey', 'X-Api-Key', 'token', 'Authorization', 'clientSecret', 'db_password');
    const value = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s !== M);
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })),
        secretish,
        value,
        (rest, key, secret) => {
          const args = JSON.stringify({ ...rest, nested: { [key]: secret } });
          const once = maskSecretArguments(args);
          expect(maskSecretArguments(once)).toBe(once);
          expect((JSON.parse(once) as { nested: Record<string, string> }).nested[key]).toBe(M);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('maskSecretText', () => {
  it('masks key=value pairs and tokens in free text, and leaves numbers and plain words', () => {
    expect(maskSecretText('OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234 rest')).toBe(`OPENAI_API_KEY=${M} rest`);
    expect(maskSecretText('keyword: cats, total_tokens: 123, password=hunter2')).toBe(
      `keyword: cats, total_tokens: 123, password=${M}`,
    );
    expect(maskSecretText('Authorization: Basic dXNlcjpwYXNz')).toBe(`Authorization: ${M}`);
    expect(maskSecretText('nothing to hide')).toBe('nothing to hide');
  });
});

describe('ledger helpers', () => {
  it('keeps the first 500 characters of a result without splitting a character', () => {
    expect(resultExcerpt('short')).toBe('short');
    const cut = resultExcerpt(`${'a'.repeat(499)}😀tail`);
    expect(cut).toBe(`${'a'.repeat(499)}😀`);
  });

  it('says "1 tool call" and "4 tool calls"', () => {
    expect(toolCallCountLabel(1)).toBe('1 tool call');
    expect(toolCallCountLabel(4)).toBe('4 tool calls');
  });
});
