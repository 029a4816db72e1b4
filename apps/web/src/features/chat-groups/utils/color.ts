// Text on a brand colour: white on dark colours, near-black on light ones (WCAG relative luminance).
const HEX = /^#([0-9a-f]{6})$/i;

export const DEFAULT_COLOR = '#111827';

export function isHexColor(value: string): boolean {
  return HEX.test(value);
}

export function readableTextColor(hex: string): '#ffffff' | '#111827' {
  const match = HEX.exec(hex);
  if (!match) return '#ffffff';
  const value = parseInt(match[1]!, 16);
  const channel = (shift: number) => {
    const c = ((value >> shift) & 0xff) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
  // White wins while its contrast ratio beats black's: (1.05)/(L+0.05) > (L+0.05)/(0.05).
  return luminance < 0.179 ? '#ffffff' : '#111827';
}
