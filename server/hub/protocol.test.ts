import { describe, expect, it } from 'vitest';
import { checkHandshake, closeFrame, completionResultFrame, parseClientMessage, ProtocolError } from './protocol.js';

describe('JSON hub protocol', () => {
  it('accepts only the json protocol, version 1', () => {
    expect(checkHandshake('{"protocol":"json","version":1}')).toBeUndefined();
    expect(checkHandshake('{"protocol":"messagepack","version":1}')).toBe(
      "Requested protocol 'messagepack' is not available.",
    );
    expect(checkHandshake('{"protocol":"json","version":2}')).toMatch(/version 2/);
    expect(checkHandshake('nope')).toBe('Handshake request was not valid JSON.');
  });

  it('parses invocations with and without an invocationId and rejects malformed ones', () => {
    expect(parseClientMessage('{"type":1,"target":"A","arguments":[1],"invocationId":"7"}')).toMatchObject({
      type: 1,
      target: 'A',
      arguments: [1],
      invocationId: '7',
    });
    expect(parseClientMessage('{"type":1,"target":"A","arguments":[]}')).toMatchObject({ invocationId: undefined });
    expect(() => parseClientMessage('{"type":1,"target":"A","arguments":[],"invocationId":5}')).toThrow(ProtocolError);
    expect(() => parseClientMessage('{"type":4,"target":"A","arguments":[]}')).toThrow(/no "invocationId"/);
    expect(() => parseClientMessage(`{"type":1,"target":"A","arguments":[],"invocationId":"${'x'.repeat(300)}"}`)).toThrow(
      /longer than 256/,
    );
  });

  it('frames completions and close messages with the record separator', () => {
    expect(completionResultFrame('1', undefined)).toBe('{"type":3,"invocationId":"1"}\u001e');
    expect(completionResultFrame('1', null)).toBe('{"type":3,"invocationId":"1","result":null}\u001e');
    expect(closeFrame('bye', true)).toBe('{"type":7,"error":"bye","allowReconnect":true}\u001e');
    expect(closeFrame()).toBe('{"type":7}\u001e');
  });
});
