// The API settings a lesson needs (today: a short --history-window, so a watch's resourceVersion
// expires while the learner waits), offered above the lesson when the API runs with others.
// Applying restarts the API over the same storage, objects kept, as the Settings view does; the
// learner is told how to put the setting back.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { writeSettings } from '../../../hosts/sw/page/page-client';
import type { Lesson } from '../../lessons/types';
import { formatHash } from '../../lib/routes';
import { isHostSettings, queryKeys } from '../../lib/query-keys';
import { useHostSettings } from '../SettingsPanel';

export function LessonApiSettings({ apiBase, lesson }: { apiBase: string; lesson: Lesson }) {
  const wanted = lesson.apiSettings?.historyWindow;
  const current = useHostSettings(apiBase);
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  if (!wanted || !current.data) return null;
  const inForce = current.data.settings.historyWindow;
  if (inForce === wanted) {
    return (
      <p className="lesson-settings ok" data-testid="lesson-settings">
        The API keeps {wanted} of history for this lesson (<code>--history-window {wanted}</code>). <a href={formatHash({ view: 'settings' })}>Settings</a> puts it back to 5 minutes.
      </p>
    );
  }
  const apply = async () => {
    setState({ busy: true });
    try {
      const answer = await writeSettings(apiBase, { ...current.data.settings, historyWindow: wanted });
      if (answer.error) return setState({ busy: false, error: answer.error });
      queryClient.setQueryData(queryKeys.hostSettings(apiBase), answer);
      // The restarted API serves the same objects; views read afresh as after Settings.
      void queryClient.invalidateQueries({ predicate: (q) => !isHostSettings(q.queryKey) });
      setState({ busy: false });
    } catch (e) {
      setState({ busy: false, error: (e as Error).message });
    }
  };
  return (
    <div className="lesson-settings" role="region" aria-label="Settings for this lesson" data-testid="lesson-settings">
      <p>
        This lesson needs the API to keep only {wanted} of history (<code>--history-window {wanted}</code>; now {inForce || '5m, the default'}), so you can watch a version expire without waiting five minutes. Applying restarts the API; every object is kept.
      </p>
      <button type="button" className="primary" onClick={() => void apply()} disabled={state.busy}>
        {state.busy ? 'Restarting the API…' : `Use a ${wanted} history window`}
      </button>
      {state.error && <span role="alert"> The API refused: {state.error}</span>}
    </div>
  );
}
