// Pet names. Valid names carry the `petcert-` prefix (the API has no delete: what petcert creates must
// be recognisable) and exercise Unicode: accents, CJK, emoji (multi-code-point too), spaces, quotes.
// They stay short (≤ 48 code points) because a length limit is a gap: a server may have one.
import fc from 'fast-check';

export const NAME_PREFIX = 'petcert-';
export const MAX_VALID_NAME_CODE_POINTS = 48;

const tricky = [
  'Zoë Ünal-Ångström',
  '小狗 ポチ 강아지',
  '🐶🐱 👩‍👩‍👧‍👦',
  `O'Brien "Rex"`,
  'a  b\u00a0c',
  'back\\slash /slash',
  'ﷺ مرحبا',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
];

export function petName(): fc.Arbitrary<string> {
  const tail = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 10 }),
    fc.constantFrom(...tricky),
    fc.string({ unit: 'grapheme-ascii', maxLength: 16 }),
  );
  return tail.map((t) => NAME_PREFIX + t).filter((n) => [...n].length <= MAX_VALID_NAME_CODE_POINTS);
}

/** Names whose acceptance the spec leaves open (§2.6): empty, very long, control characters. */
export function extremeName(): fc.Arbitrary<{ kind: string; name: string }> {
  return fc.constantFrom(
    { kind: 'empty', name: '' },
    { kind: 'blank', name: '   ' },
    { kind: 'long-1k', name: `${NAME_PREFIX}${'x'.repeat(1000)}` },
    { kind: 'long-10k', name: `${NAME_PREFIX}${'é'.repeat(10_000)}` },
    { kind: 'control-nul', name: `${NAME_PREFIX}a\u0000b` },
    { kind: 'control-newline', name: `${NAME_PREFIX}a\nb\tc` },
    { kind: 'control-del', name: `${NAME_PREFIX}\u007f\u001b[31m` },
    { kind: 'bidi-override', name: `${NAME_PREFIX}\u202eevil` },
  );
}
