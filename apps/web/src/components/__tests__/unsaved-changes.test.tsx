import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, Link, RouterProvider, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';

import { UNSAVED_CHANGES_STRINGS as S } from '../../lib/strings';
import { useUnsavedChanges } from '../unsaved-changes';

function Editor() {
  const [saved, setSaved] = useState('Hello');
  const [value, setValue] = useState('Hello');
  const unsaved = useUnsavedChanges(value !== saved);
  const navigate = useNavigate();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setSaved(value);
        unsaved.release();
        void navigate('/saved');
      }}
    >
      {unsaved.dialog}
      <label>
        Subject
        <input value={value} onChange={(event) => setValue(event.target.value)} />
      </label>
      <button type="submit">Save and go</button>
      <Link to="/elsewhere">Elsewhere</Link>
    </form>
  );
}

function renderEditor() {
  const router = createMemoryRouter(
    [
      { path: '/edit', element: <Editor /> },
      { path: '/elsewhere', element: <h1>Elsewhere page</h1> },
      { path: '/saved', element: <h1>Saved page</h1> },
    ],
    { initialEntries: ['/edit'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** Whether the browser would ask before closing the tab. */
function closingTabAsks() {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('useUnsavedChanges', () => {
  it('lets a clean form be left without asking', async () => {
    const router = renderEditor();
    expect(closingTabAsks()).toBe(false);
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('asks before leaving a changed form: staying keeps the edits, leaving discards them', async () => {
    const router = renderEditor();
    await userEvent.type(screen.getByLabelText('Subject'), ' world');
    expect(closingTabAsks()).toBe(true);

    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = await screen.findByRole('alertdialog', { name: S.title });
    expect(dialog).toHaveTextContent(S.text);
    await userEvent.click(screen.getByRole('button', { name: S.stay }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/edit');
    expect(screen.getByLabelText('Subject')).toHaveValue('Hello world');

    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await userEvent.click(await screen.findByRole('button', { name: S.leave }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere page' })).toBeInTheDocument();
    expect(closingTabAsks()).toBe(false);
  });

  it('does not ask when a save navigates away', async () => {
    renderEditor();
    await userEvent.type(screen.getByLabelText('Subject'), '!');
    fireEvent.submit(screen.getByRole('button', { name: 'Save and go' }).closest('form')!);
    expect(await screen.findByRole('heading', { name: 'Saved page' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
