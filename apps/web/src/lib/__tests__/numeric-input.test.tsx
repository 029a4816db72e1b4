import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { isNumericOnlyKey, numericOnlyInputProps, toDialCode } from '../numeric-input';

function DigitsField() {
  const [value, setValue] = useState('');
  return (
    <>
      <input aria-label="Code" {...numericOnlyInputProps} onChange={(e) => setValue(e.target.value)} />
      <output aria-label="Seen">{value}</output>
    </>
  );
}

describe('the numeric-only key handler', () => {
  it('lets through digits, Backspace, Tab, the arrows and Delete, and nothing else that types', () => {
    for (const key of [
      '0',
      '5',
      '9',
      'Backspace',
      'Tab',
      'ArrowLeft',
      'ArrowRight',
      'ArrowUp',
      'ArrowDown',
      'Delete',
    ])
      expect(isNumericOnlyKey({ key, ctrlKey: false, metaKey: false }), key).toBe(true);
    for (const key of ['a', 'E', '+', '-', '.', ',', ' ', 'e', '١'])
      expect(isNumericOnlyKey({ key, ctrlKey: false, metaKey: false }), key).toBe(false);
    // Shortcuts (paste, copy, undo) stay usable; a paste is filtered on its own.
    expect(isNumericOnlyKey({ key: 'v', ctrlKey: true, metaKey: false })).toBe(true);
  });

  it('keeps typed digits only, and edits with Backspace and the arrows', async () => {
    render(<DigitsField />);
    const input = screen.getByLabelText('Code');
    await userEvent.type(input, '+1 (55) 5-x9');
    expect(input).toHaveValue('15559');
    await userEvent.type(input, '{ArrowLeft}{Backspace}');
    expect(input).toHaveValue('1559');
    expect(screen.getByLabelText('Seen')).toHaveTextContent('1559');
  });

  it('pastes only the digits, where the cursor is, and tells the form', async () => {
    render(<DigitsField />);
    const input = screen.getByLabelText<HTMLInputElement>('Code');
    await userEvent.type(input, '12');
    input.setSelectionRange(1, 1);
    fireEvent.paste(input, { clipboardData: { getData: () => '(555) 010-9' } });
    expect(input).toHaveValue('155501092');
    expect(screen.getByLabelText('Seen')).toHaveTextContent('155501092');
  });

  it('turns the digits of a dial code field into "+digits"', () => {
    expect(toDialCode('44', null)).toBe('+44');
    expect(toDialCode('', null)).toBeNull();
    expect(toDialCode('', undefined)).toBeUndefined();
  });
});
