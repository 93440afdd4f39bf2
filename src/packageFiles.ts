/**
 * Where the package's own files (views/, themes/, i18n/, plugin.json) are, whether the code runs from
 * src/ (tests, through tsx) or from dist/src/ (an installed package).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(folder, 'plugin.json')) && existsSync(join(folder, 'package.json'))) return folder;
    const parent = dirname(folder);
    if (parent === folder) throw new Error('koa-catalog-versions: cannot find the package folder (plugin.json)');
    folder = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot();
export const VIEWS_DIRECTORY = join(PACKAGE_ROOT, 'views');
export const THEMES_DIRECTORY = join(PACKAGE_ROOT, 'themes');
export const LABELS_DIRECTORY = join(PACKAGE_ROOT, 'i18n');

const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** "koa-catalog-versions 0.1.0": the feed's `generator`. */
export const GENERATOR = `${manifest.name} ${manifest.version}`;
