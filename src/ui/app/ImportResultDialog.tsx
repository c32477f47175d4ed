// What an import did, in a modal dialog the learner can read and close (it replaced a raw JSON
// alert): how many objects came back, and each one that did not with the API's own reason.
import { useEffect, useRef } from 'react';

export interface ImportReport {
  created: number;
  failed: Array<{ object: string; status: number; message: string }>;
}

export function ImportResultDialog({ report, onClose }: { report: ImportReport; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const ok = report.failed.length === 0;
  return (
    <dialog ref={ref} className="import-result" aria-labelledby="import-result-title" onClose={onClose} data-testid="import-result">
      <h2 id="import-result-title">{ok ? 'Import complete' : 'Import finished with errors'}</h2>
      <p>
        {report.created} object{report.created === 1 ? '' : 's'} restored with their owners (managedFields), uids and creation times.
        {ok ? ' Every open view has been read again.' : ` ${report.failed.length} could not be created:`}
      </p>
      {!ok && (
        <ul>
          {report.failed.map((f) => (
            <li key={f.object}>
              <code>{f.object}</code> — {f.status}: {f.message || 'no message'}
            </li>
          ))}
        </ul>
      )}
      <form method="dialog">
        <button type="submit" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
}
