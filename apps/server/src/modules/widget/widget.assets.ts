// The built widget, read once at start: the loader script (with its ETag), the frame page, and
// the folder of hashed assets the frame page loads.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type WidgetBuild = {
  loader: { body: Buffer; etag: string } | null;
  frameHtml: string | null;
  assetsDir: string | null;
};

function read(file: string): Buffer | null {
  return existsSync(file) ? readFileSync(file) : null;
}

export function readWidgetBuild(distDir: string): WidgetBuild {
  const loader = read(join(distDir, 'widget.js'));
  const frameHtml = read(join(distDir, 'frame.html'));
  const assetsDir = join(distDir, 'assets');
  return {
    loader: loader && {
      body: loader,
      etag: `"${createHash('sha256').update(loader).digest('base64url').slice(0, 27)}"`,
    },
    frameHtml: frameHtml?.toString('utf8') ?? null,
    assetsDir: existsSync(assetsDir) && statSync(assetsDir).isDirectory() ? assetsDir : null,
  };
}

/** Whether an If-None-Match header names this ETag (a list, weak validators and * included). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
