// The reset link carries the address as base64url(email): decode it, or null when it is not one.
export function decodeEmailParam(encoded: string): string | null {
  try {
    const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const email = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return email.includes('@') ? email : null;
  } catch {
    return null;
  }
}
