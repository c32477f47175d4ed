// An API error as the server said it: code, reason, message and every cause.
import { describeError } from '../lib/api-errors';

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const info = describeError(error);
  return (
    <div role="alert" className="error-box">
      <strong>
        {info.code ? `${info.code} ${info.reason}` : info.reason}
      </strong>
      : {info.message}
      {info.causes.length > 0 && (
        <ul>
          {info.causes.map((c, i) => (
            <li key={i}>
              {c.reason && <code>{c.reason}</code>} {c.field && <code>{c.field}</code>} {c.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
