// What a dry-run apply said about conflicts, and the three ways out in plain words.
import type { StatusCause } from '../lib/api-errors';

export interface ConflictPreviewProps {
  manager: string;
  causes: readonly StatusCause[];
  onForce(): void;
  onDropFields(fields: string[]): void;
  onUseLiveValues(fields: string[]): void;
}

export function ConflictPreview({ manager, causes, onForce, onDropFields, onUseLiveValues }: ConflictPreviewProps) {
  const fields = causes.map((c) => c.field ?? '').filter(Boolean);
  return (
    <section role="alertdialog" aria-label="Apply conflicts" className="conflict-preview">
      <h3>Applying as “{manager}” would conflict</h3>
      <ul>
        {causes.map((c, i) => (
          <li key={i}>
            <code>{c.field}</code> — {c.message}
          </li>
        ))}
      </ul>
      <p>Another manager set these fields to a different value. Choose one:</p>
      <ol className="ways-out">
        <li>
          <button type="button" onClick={onForce}>Take ownership (force)</button> Your values win and the other manager stops owning these fields.
        </li>
        <li>
          <button type="button" onClick={() => onDropFields(fields)}>Stop managing these fields</button> Remove them from your configuration; the live values stay and remain the other manager’s.
        </li>
        <li>
          <button type="button" onClick={() => onUseLiveValues(fields)}>Share ownership</button> Put the live values in your configuration; applying the same value makes you a co-owner.
        </li>
      </ol>
    </section>
  );
}
