// int64 on the source text. JSON.parse maps 9223372036854775807 and 9223372036854775808 to the same
// double (2^63), so the exact range check reads the number's digits. JSON Schema counts 1.0 and 1e2
// as integers; 1.5 is not.
import { isInt64 } from '../spec/int64.ts';

const JSON_NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The integer a JSON number denotes, or undefined when it is not an integer (1.5) or absurdly large. */
export function jsonInteger(text: string): bigint | undefined {
  const m = JSON_NUMBER.exec(text);
  if (!m) return undefined;
  const [, sign, int, frac = '', exp = '0'] = m;
  const digits = (int! + frac).replace(/^0+(?=\d)/, '');
  const shift = Number(exp) - frac.length;
  if (/^0+$/.test(digits)) return 0n;
  let value: bigint;
  if (shift >= 0) {
    if (digits.length + shift > 40) return undefined; // far outside int64: no need to build it
    value = BigInt(digits) * 10n ** BigInt(shift);
  } else {
    const cut = digits.length + shift;
    if (cut < 0 || !/^0*$/.test(digits.slice(Math.max(0, cut)))) return undefined;
    value = cut === 0 ? 0n : BigInt(digits.slice(0, cut));
  }
  return sign === '-' ? -value : value;
}

export { isInt64 };

/** The canonical decimal text of an int64 given as a string (path or query), or undefined. */
export function int64FromDecimal(text: string): bigint | undefined {
  if (!/^-?\d{1,20}$/.test(text)) return undefined;
  const v = BigInt(text);
  return isInt64(v) ? v : undefined;
}
