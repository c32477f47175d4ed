// Boolean query parameters read as apimachinery's query conversion reads them
// (runtime.Convert_Slice_string_To_bool): absent, `0` or `false` in any letter case are false;
// anything else, the empty string and `True` included, is true. Only the first value counts.

/** A boolean option from the query (`watch`, `allowWatchBookmarks`, `force`, ...). */
export function queryBool(query: URLSearchParams, name: string): boolean {
  return isTrueQueryValue(query.get(name));
}

/** A `*bool` option: undefined when the parameter is absent. */
export function queryOptionalBool(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  return v === null ? undefined : isTrueQueryValue(v);
}

export function isTrueQueryValue(v: string | null): boolean {
  return v !== null && v !== '0' && v.toLowerCase() !== 'false';
}

/**
 * Go's strconv.ParseBool (the `pretty` parameter is read with it, not with the conversion
 * above): undefined for a value it refuses.
 */
export function parseGoBool(v: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}
