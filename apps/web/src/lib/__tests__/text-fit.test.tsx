import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { FitText } from '../../components/fit-text';
import { fitFontSize } from '../text-fit';

describe('fitFontSize', () => {
  it('takes the largest size from 16 down to 12 that fits, else 12', () => {
    expect(fitFontSize(() => true, 16, 12)).toBe(16);
    expect(fitFontSize((px) => px <= 14, 16, 12)).toBe(14);
    expect(fitFontSize(() => false, 16, 12)).toBe(12);
  });
});

describe('FitText', () => {
  // jsdom lays nothing out: a 200 px wide box where a character is half the font size wide.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
      const px = parseFloat(this.style.fontSize) || 16;
      const perLine = Math.floor(200 / (px / 2));
      const lines = Math.max(1, Math.ceil((this.textContent ?? '').length / perLine));
      return lines * px * 1.25;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  const fontOf = (text: string) => screen.getByText(text).style.fontSize;

  it('keeps 16 px while the text fits in two lines', () => {
    render(<FitText text="Where is my order?" />);
    expect(fontOf('Where is my order?')).toBe('16px');
    expect(screen.getByText('Where is my order?')).toHaveClass('line-clamp-2');
  });

  it('steps down until two lines hold it (2 lines by default)', () => {
    // 60 characters: 3 lines at 16 px (25 a line), 2 at 13 px (30 a line).
    const text = 'x'.repeat(60);
    render(<FitText text={text} />);
    expect(fontOf(text)).toBe('13px');
  });

  it('stops at 12 px and clamps what still does not fit', () => {
    const text = 'y'.repeat(200);
    render(<FitText text={text} />);
    expect(fontOf(text)).toBe('12px');
    expect(screen.getByText(text)).toHaveClass('line-clamp-2');
  });

  it('takes another number of lines when asked', () => {
    const text = 'z'.repeat(60);
    render(<FitText text={text} lines={3} />);
    expect(fontOf(text)).toBe('16px');
  });
});
