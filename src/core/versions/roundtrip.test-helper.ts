// Shared by the conversion tests: the round trip the task names, v_a -> storage -> v_b -> storage -> v_a.
import { convert } from './index';

export function roundTrip(obj: object, from: string, storage: string, via: string): object {
  const stored = convert(obj, from, storage);
  const other = convert(stored, storage, via);
  const storedAgain = convert(other, via, storage);
  return convert(storedAgain, storage, from);
}
