// The two dialogs of shareable scenarios (lib/scenario): opening a `#/scenario/…` link (say what
// it holds, and replace the tab's cluster only once the learner agrees) and sharing the cluster
// as such a link. Loaded lazily by the page shell: most visits never open either.
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState, type ReactNode } from 'react';
import { adminCall } from '../../hosts/sw/page/page-client';
import { decodeScenario, describeObjects, importText, isSystemObject, scenarioLink, type Scenario, type ScenarioObject } from '../lib/scenario';
import type { ImportReport } from './ImportResultDialog';

function Frame({ title, description, children, onClose, testId }: { title: string; description: ReactNode; children: ReactNode; onClose(): void; testId: string }) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" data-testid={testId}>
          <Dialog.Title>{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div>{description}</div>
          </Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

type OpenState = { phase: 'reading' } | { phase: 'ready'; scenario: Scenario } | { phase: 'importing' } | { phase: 'failed'; message: string };

/**
 * Asks before a scenario link replaces the cluster; on yes, resets it and imports the link's
 * objects through the host's import endpoint (which restores them exactly, owners included).
 */
export function OpenScenarioDialog({ base, data, onOpened, onCancel }: { base: string; data: string; onOpened(report: ImportReport, lesson: string | undefined): void; onCancel(): void }) {
  const [state, setState] = useState<OpenState>({ phase: 'reading' });
  useEffect(() => {
    let live = true;
    decodeScenario(data).then(
      (scenario) => live && setState({ phase: 'ready', scenario }),
      (e: Error) => live && setState({ phase: 'failed', message: e.message }),
    );
    return () => {
      live = false;
    };
  }, [data]);
  const open = async (scenario: Scenario) => {
    setState({ phase: 'importing' });
    try {
      onOpened((await adminCall(base, 'import', importText(scenario.objects))) as ImportReport, scenario.lesson);
    } catch (e) {
      setState({ phase: 'failed', message: (e as Error).message });
    }
  };
  if (state.phase === 'failed') {
    return (
      <Frame title="This scenario link cannot be opened" testId="scenario-open" onClose={onCancel} description={<p role="alert">{state.message}. Your cluster was left as it was.</p>}>
        <div className="dialog-actions">
          <Dialog.Close asChild>
            <button type="button">Close</button>
          </Dialog.Close>
        </div>
      </Frame>
    );
  }
  const scenario = state.phase === 'ready' ? state.scenario : undefined;
  return (
    <Frame
      title="Open a shared scenario?"
      testId="scenario-open"
      onClose={onCancel}
      description={
        scenario ? (
          <>
            <p>
              This link holds {scenario.objects.length} object{scenario.objects.length === 1 ? '' : 's'} ({describeObjects(scenario.objects)}), with their field owners.
              {scenario.lesson && <> It then opens the lesson <strong>{scenario.lesson}</strong>.</>}
            </p>
            <p>
              <strong>Opening it deletes every object in this tab's cluster</strong> and starts a fresh one with the link's objects. Export first if you want to keep yours.
            </p>
          </>
        ) : (
          <p aria-busy="true">{state.phase === 'importing' ? 'Opening the scenario…' : 'Reading the link…'}</p>
        )
      }
    >
      <div className="dialog-actions">
        <Dialog.Close asChild>
          <button type="button">Keep my cluster</button>
        </Dialog.Close>
        <button type="button" className="primary" disabled={!scenario} onClick={() => scenario && void open(scenario)}>
          Reset and open the scenario
        </button>
      </div>
    </Frame>
  );
}

type ShareState = { phase: 'building' } | { phase: 'ready'; link: string; objects: ScenarioObject[] } | { phase: 'failed'; message: string };

/** Builds a link to this page that opens the cluster's own objects (system objects left out). */
export function ShareScenarioDialog({ base, lesson, onClose }: { base: string; lesson: string | undefined; onClose(): void }) {
  const [withLesson, setWithLesson] = useState(lesson !== undefined);
  const [state, setState] = useState<ShareState>({ phase: 'building' });
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    let live = true;
    setCopied(false);
    (async () => {
      const res = await fetch(`${base}__playground/export`);
      if (!res.ok) throw new Error(`the export failed: HTTP ${res.status}`);
      // The YAML reader only loads when someone shares: the first view stays small.
      const { parseAllDocuments } = await import('yaml');
      const objects = parseAllDocuments(await res.text())
        .map((d) => d.toJSON() as ScenarioObject | null)
        .filter((o): o is ScenarioObject => !!o && !!o.kind && !isSystemObject(o));
      const link = await scenarioLink(location.href, withLesson && lesson ? { objects, lesson } : { objects });
      return { link, objects };
    })().then(
      ({ link, objects }) => live && setState({ phase: 'ready', link, objects }),
      (e: Error) => live && setState({ phase: 'failed', message: e.message }),
    );
    return () => {
      live = false;
    };
  }, [base, withLesson, lesson]);
  const copy = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // No clipboard permission: the link is selected in its field for the learner to copy.
      (document.getElementById('scenario-link') as HTMLInputElement | null)?.select();
    }
  };
  return (
    <Frame
      title="Share this cluster as a link"
      testId="scenario-share"
      onClose={onClose}
      description={
        state.phase === 'failed' ? (
          <p role="alert">Could not build the link: {state.message}</p>
        ) : state.phase === 'building' ? (
          <p aria-busy="true">Building the link…</p>
        ) : (
          <p>
            The link carries {state.objects.length} object{state.objects.length === 1 ? '' : 's'} ({describeObjects(state.objects)}) with their field owners, inside the link itself: no server keeps
            them. Whoever opens it is asked before their own cluster is replaced. Objects every cluster starts with are left out.
          </p>
        )
      }
    >
      {lesson && (
        <label className="dialog-option">
          <input type="checkbox" checked={withLesson} onChange={(e) => setWithLesson(e.target.checked)} /> Open the lesson <strong>{lesson}</strong> with it
        </label>
      )}
      {state.phase === 'ready' && (
        <p className="dialog-link">
          <label htmlFor="scenario-link">Link ({state.link.length.toLocaleString('en')} characters)</label>
          <input id="scenario-link" readOnly value={state.link} onFocus={(e) => e.target.select()} data-testid="scenario-link" />
        </p>
      )}
      <div className="dialog-actions">
        {copied && (
          <span role="status" className="ok-text">
            Copied
          </span>
        )}
        <Dialog.Close asChild>
          <button type="button">Close</button>
        </Dialog.Close>
        <button type="button" className="primary" disabled={state.phase !== 'ready'} onClick={() => state.phase === 'ready' && void copy(state.link)}>
          Copy link
        </button>
      </div>
    </Frame>
  );
}
