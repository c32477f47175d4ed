// Go's strconv.ParseUint(s, 10, 64), which kube-apiserver's APIObjectVersioner applies to every
// resourceVersion it reads: digits only (no sign, no spaces), at most 2^64 - 1, never a float.
import { goQuote } from './go-quote';

const MAX_UINT64 = 2n ** 64n - 1n;

/** The value, or the NumError text Go gives (`strconv.ParseUint: parsing "x": invalid syntax`). */
export function parseUint64(s: string): { value: bigint } | { error: string } {
  const fail = (why: string) => ({ error: `strconv.ParseUint: parsing ${goQuote(s)}: ${why}` });
  if (s === '') return fail('invalid syntax');
  let n = 0n;
  // Go stops at the first offending byte: a value already past the range is out of range even
  // when a bad character follows.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return fail('invalid syntax');
    n = n * 10n + BigInt(c - 48);
    if (n > MAX_UINT64) return fail('value out of range');
  }
  return { value: n };
}
