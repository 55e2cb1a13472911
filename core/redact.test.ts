import { describe, expect, it } from 'vitest';
import { REDACTED, redactHeaders, redactText } from './redact.ts';

const KEY = 'pk_live_8fJ2mQ9xR4tW';

describe('redactText', () => {
  it('removes every occurrence of the key', () => {
    expect(redactText(`a ${KEY} b ${KEY}`, [KEY])).toBe(`a ${REDACTED} b ${REDACTED}`);
  });

  it.for([
    ['the key minus its last character', KEY.slice(0, -1)],
    ['the key minus two characters', KEY.slice(0, -2)],
    ['the key upper-cased', KEY.toUpperCase()],
    ['the key lower-cased', KEY.toLowerCase()],
  ])('removes near-copies: %s', ([, variant]) => {
    const out = redactText(`Bearer ${variant}`, [KEY]);
    expect(out).toBe(`Bearer ${REDACTED}`);
    expect(out.toLowerCase()).not.toContain(KEY.slice(0, -3).toLowerCase());
  });

  it('keeps what follows the key visible (the key plus a suffix is still told apart)', () => {
    expect(redactText(`Bearer ${KEY}x`, [KEY])).toBe(`Bearer ${REDACTED}x`);
  });

  it('leaves ordinary text and short secrets alone', () => {
    expect(redactText('Bearer pk_live_other', [KEY])).toBe('Bearer pk_live_other');
    expect(redactText('abc abc', ['abc'])).toBe('abc abc');
    expect(redactText('a.c abc', ['a.c.'])).toBe('a.c abc');
  });

  it('takes keys with regex characters literally', () => {
    const odd = 'k+y(1)*[x]?$^|\\.{2}';
    expect(redactText(`Bearer ${odd}`, [odd])).toBe(`Bearer ${REDACTED}`);
    expect(redactText('Bearer kkkkkkkkkkkkkkkkkkkk', [odd])).toBe('Bearer kkkkkkkkkkkkkkkkkkkk');
  });

  it('redacts header values', () => {
    expect(redactHeaders({ authorization: `bearer ${KEY.toUpperCase()}` }, [KEY])).toEqual({ authorization: `bearer ${REDACTED}` });
  });
});
