// Model names of MCP tools never clash between servers, and a request too long because of
// its tool definitions says so instead of blaming the user's message.
import { describe, expect, it } from 'vitest';
import { tooLongError } from '../../src/main/core/context/requestHistory';
import { modelToolName } from '../../src/main/core/mcp/mcpNames';

describe('MCP tool names', () => {
  it('gives a+b__c and a__b+c different names', () => {
    expect(modelToolName('a', 'b__c')).toBe('mcp__a__b__c');
    expect(modelToolName('a__b', 'c')).not.toBe(modelToolName('a', 'b__c'));
    expect(modelToolName('a__b', 'c')).toMatch(/^mcp__a__b__c_[0-9a-f]{8}$/);
    // A server part ending in _ could also be read two ways.
    expect(modelToolName('a_', 'b')).not.toBe(modelToolName('a', '_b'));
  });
});

describe('a request too long for the window', () => {
  it('names the tool definitions when they are most of it', () => {
    const error = tooLongError('gpt-x', 200_326, 128_000, { count: 2008, tokens: 199_000 });
    expect(error.message).toContain('the definitions of 2,008 tools need about 199,000 tokens');
    expect(error.message).toContain('Settings → Tools (MCP)');
    expect(error.message).not.toContain('Shorten your last message');
  });

  it('names the message otherwise', () => {
    expect(tooLongError('gpt-x', 200_000, 128_000, { count: 3, tokens: 900 }).message).toContain(
      'Shorten your last message',
    );
  });
});
