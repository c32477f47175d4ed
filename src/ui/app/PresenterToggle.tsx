// Presenter mode, for a teacher projecting the page: large type, the tree hidden, the live object
// and the editor side by side. A class on <html> (so every view, dialogs included, follows it),
// remembered in localStorage so a reload or the next lesson keeps it.
import { Presentation } from 'lucide-react';
import { useEffect, useState } from 'react';

const KEY = 'kube-playground.presenter';
const stored = (): boolean => {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    // Storage denied (private mode, sandboxed frame): the mode still works for this page.
    return false;
  }
};

/** Whether presenter mode is on now (editors read it for their font size when they open). */
export const presenterMode = (): boolean => document.documentElement.classList.contains('presenter');

export function PresenterToggle() {
  const [on, setOn] = useState(stored);
  useEffect(() => {
    document.documentElement.classList.toggle('presenter', on);
    try {
      localStorage.setItem(KEY, on ? 'on' : 'off');
    } catch {
      // As above: not remembered, still applied.
    }
  }, [on]);
  return (
    <button type="button" className="icon-button" aria-pressed={on} onClick={() => setOn(!on)} title="Presenter mode: large type, editor and live view side by side">
      <Presentation aria-hidden="true" size={16} /> Presenter
    </button>
  );
}
