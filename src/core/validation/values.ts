// How validation reads a decoded object's values: Go has already typed them (handlers decode as
// Go does), so a value is either of its field's type or absent, and these say which.
export type Obj = Record<string, any>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Present: neither undefined nor null (a Go pointer that is not nil). */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;
/** A string field, '' when absent (Go's zero value). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** A []string; a null item is the zero value "". */
export const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
/** A list of structs; a null item is the zero struct. */
export const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : []);
