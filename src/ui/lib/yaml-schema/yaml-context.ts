// Where the cursor is in a YAML manifest, from indentation alone, so it works while a line is
// half-typed (and therefore not valid YAML): which document (`---` separated), that document's
// apiVersion and kind, and the path of keys leading to the cursor's map (list items as index 0,
// since only their schema matters here).
export type PathStep = string | number;

export interface YamlContext {
  apiVersion?: string;
  kind?: string;
  /** Path of the map the cursor's line belongs to. */
  path: PathStep[];
  /** The key written on the cursor's line, if any (for hovers). */
  key?: string;
}

interface LineShape {
  /** Column of the first character (the `-` for a list item). */
  indent: number;
  dash: boolean;
  /** Column where the line's content (its key) starts: after `- ` for list items. */
  contentIndent: number;
  key?: string;
  /** Whether the line ends right after `key:`, so a nested block follows. */
  opensBlock: boolean;
}

const KEY_RE = /^([^\s#'"{}[\],&*!|>%@`][^:#]*?|"[^"]*"|'[^']*'):(?:\s+(.*))?$/;

function shapeOf(line: string): LineShape | undefined {
  const trimmed = line.trimStart();
  if (!trimmed || trimmed.startsWith('#')) return undefined;
  const indent = line.length - trimmed.length;
  let content = trimmed;
  let contentIndent = indent;
  let dash = false;
  const item = /^-(\s+|$)/.exec(content);
  if (item) {
    dash = true;
    contentIndent = indent + item[0].length;
    content = content.slice(item[0].length);
  }
  const m = KEY_RE.exec(content.trimEnd());
  if (!m) return { indent, dash, contentIndent, opensBlock: false };
  const key = m[1]!.replace(/^["']|["']$/g, '');
  const value = (m[2] ?? '').replace(/\s+#.*$/, '').trim();
  return { indent, dash, contentIndent, key, opensBlock: value === '' };
}

/** The document around `line` (0-based), as its lines and the index of `line` among them. */
function documentAround(lines: readonly string[], line: number): { doc: string[]; at: number } {
  let start = line;
  while (start > 0 && !/^---/.test(lines[start - 1]!)) start--;
  let end = line;
  while (end + 1 < lines.length && !/^---/.test(lines[end + 1]!)) end++;
  if (/^---/.test(lines[line] ?? '')) return { doc: [], at: 0 };
  return { doc: lines.slice(start, end + 1), at: line - start };
}

/**
 * The context at a position: `line` 0-based, `column` 0-based (characters before the cursor).
 */
export function yamlContext(text: string, line: number, column: number): YamlContext {
  const all = text.split(/\r?\n/);
  const { doc, at } = documentAround(all, line);
  const top = (k: string) => doc.map((l) => new RegExp(`^${k}:\\s*["']?([^\\s"'#]+)`).exec(l)?.[1]).find(Boolean);
  const context: YamlContext = { apiVersion: top('apiVersion'), kind: top('kind'), path: [] };
  if (!doc.length) return context;

  const current = doc[at]!;
  const shape = shapeOf(current);
  const path: PathStep[] = [];
  let want: number;
  let afterDash = false;
  if (shape && shape.dash && shape.indent < column) {
    // On a list item: the cursor's map is the item; its list hangs off a key at most at the dash's column.
    path.push(0);
    want = shape.indent;
    afterDash = true;
  } else {
    want = shape ? shape.indent : Math.min(column, current.length);
  }
  if (shape?.key && column >= shape.contentIndent) context.key = shape.key;

  for (let i = at - 1; i >= 0 && (want > 0 || afterDash); i--) {
    const s = shapeOf(doc[i]!);
    if (!s) continue;
    if (afterDash) {
      if (s.dash && s.indent === want) continue; // an earlier item of the same list
      if (s.contentIndent > want) continue; // inside an earlier item
      if (!s.key || !s.opensBlock) break;
      path.push(s.key);
      want = s.contentIndent;
      afterDash = false;
      if (s.dash) {
        path.push(0);
        want = s.indent;
        afterDash = true;
      }
      continue;
    }
    if (s.dash && s.indent < want && s.contentIndent === want) {
      path.push(0); // the cursor's key is a sibling inside this list item
      want = s.indent;
      afterDash = true;
      continue;
    }
    if (s.contentIndent >= want) continue; // a sibling, or deeper inside one
    if (!s.key || !s.opensBlock) break; // not a parent: malformed, give up here
    path.push(s.key);
    want = s.contentIndent;
    if (s.dash) {
      path.push(0);
      want = s.indent;
      afterDash = true;
    }
  }
  context.path = path.reverse();
  return context;
}

/** Splits `apps/v1` into group and version (`v1` is the core group). */
export function groupVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
