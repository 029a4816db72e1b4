// The text-fit helper (spec section 9): a title takes at most `lines` lines (2 by default), its font
// stepping down from 16 px to 12 px until it does; at 12 px what still does not fit is clamped.
import { useLayoutEffect, useRef, useState } from 'react';

import { TEXT_FIT_DEFAULT_LINES, TEXT_FIT_MAX_FONT_PX, TEXT_FIT_MIN_FONT_PX } from '../config/ui';

export type TTextFitOptions = {
  lines?: number;
  maxPx?: number;
  minPx?: number;
  /** Line height as a multiple of the font size (the element is given it, so lines can be counted). */
  lineHeight?: number;
};

/** The largest whole font size from maxPx down to minPx for which `fits` holds; minPx if none does. */
export function fitFontSize(fits: (px: number) => boolean, maxPx: number, minPx: number): number {
  for (let px = maxPx; px > minPx; px -= 1) if (fits(px)) return px;
  return minPx;
}

/**
 * Measures the element at each size and keeps the largest that fits; again when the text or the
 * element's width changes. Returns the ref to put on the element and its font size in px.
 */
export function useTextFit<T extends HTMLElement>(text: string, options: TTextFitOptions = {}) {
  const {
    lines = TEXT_FIT_DEFAULT_LINES,
    maxPx = TEXT_FIT_MAX_FONT_PX,
    minPx = TEXT_FIT_MIN_FONT_PX,
    lineHeight = 1.25,
  } = options;
  const ref = useRef<T>(null);
  const [fontPx, setFontPx] = useState(maxPx);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const fit = () => {
      const px = fitFontSize(
        (size) => {
          element.style.fontSize = `${size}px`;
          // scrollHeight counts clamped lines too; one pixel of slack for rounding.
          return element.scrollHeight <= Math.ceil(size * lineHeight * lines) + 1;
        },
        maxPx,
        minPx,
      );
      element.style.fontSize = `${px}px`;
      setFontPx(px);
    };
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    // Width changes rewrap the text; a height change from our own fit settles at once.
    let width = element.clientWidth;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      fit();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [text, lines, maxPx, minPx, lineHeight]);
  return { ref, fontPx, lineHeight };
}
