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

  it('leaves ordinary text alone', () => {
    expect(redactText('Bearer pk_live_other', [KEY])).toBe('Bearer pk_live_other');
    expect(redactText('a.c abc', ['a.c.'])).toBe('a.c abc');
  });

  // A short key goes wherever it stands alone; text that merely contains it is untouched.
  it('redacts a short key as a whole token, never inside a longer word', () => {
    expect(redactText('Bearer k1, "k1" k1', ['k1'])).toBe(`Bearer ${REDACTED}, "${REDACTED}" ${REDACTED}`);
    expect(redactText('k1 k1', ['k1'])).toBe(`${REDACTED} ${REDACTED}`);
    expect(redactText('talk1ng k10 xk1 k1x pc-k1 k6', ['k1'])).toBe('talk1ng k10 xk1 k1x pc-k1 k6');
    expect(redactText('abc abc abcd', ['abc'])).toBe(`${REDACTED} ${REDACTED} abcd`);
  });

  it('takes keys with regex characters literally', () => {
    const odd = 'k+y(1)*[x]?$^|\\.{2}';
    expect(redactText(`Bearer ${odd}`, [odd])).toBe(`Bearer ${REDACTED}`);
    expect(redactText('Bearer kkkkkkkkkkkkkkkkkkkk', [odd])).toBe('Bearer kkkkkkkkkkkkkkkkkkkk');
  });

  it('redacts header values', () => {
    expect(redactHeaders({ authorization: `bearer ${KEY.toUpperCase()}` }, [KEY])).toEqual({
      authorization: `bearer ${REDACTED}`,
    });
  });

  it.for([
    ['the key', 'Bearer k1'],
    ['the key in another case', 'Bearer K1'],
    ['the key inside a longer credential', 'Bearer xk1y'],
    ['another scheme', 'Basic k1'],
    ['no scheme at all', 'k1'],
  ] as const)("redacts the Authorization credential structurally, whatever the key's length: %s", ([, value]) => {
    const out = redactHeaders({ authorization: value, 'x-note': 'k10' }, ['k1']);
    expect(out.authorization).toMatch(new RegExp(`(^|\\s)\\*\\*\\*$`));
    expect(out['x-note']).toBe('k10');
  });

  it('a one-character key: the credential structurally; unrelated credentials stay visible', () => {
    expect(redactHeaders({ authorization: 'Bearer k' }, ['k'])).toEqual({ authorization: `Bearer ${REDACTED}` });
    expect(redactHeaders({ authorization: 'Bearer other-key' }, ['k1'])).toEqual({ authorization: 'Bearer other-key' });
    expect(redactHeaders({ authorization: 'Bearer ' }, ['k1'])).toEqual({ authorization: 'Bearer ' });
  });
});
