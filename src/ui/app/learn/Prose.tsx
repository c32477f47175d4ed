// A lesson's short prose: paragraphs split on blank lines, `code` in backticks. No HTML from data.
export function Prose({ text }: { text: string }) {
  return (
    <div className="prose">
      {text.split(/\n\s*\n/).map((para, i) => (
        <p key={i}>{para.split(/(`[^`]+`)/).map((part, j) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? <code key={j}>{part.slice(1, -1)}</code> : part))}</p>
      ))}
    </div>
  );
}
