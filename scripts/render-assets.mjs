/**
 * Renders the committed binary assets from their sources with the local Chromium: the PWA icons from
 * scripts/assets/icon.svg and the help PDFs from scripts/assets/help.{fr,en}.html.
 * Run after changing a source: `node scripts/render-assets.mjs`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
const page = await browser.newPage();
const icon = await readFile(path.join(root, 'scripts/assets/icon.svg'), 'utf8');

for (const [name, size, maskable] of [
  ['icon-192', 192, false],
  ['icon-512', 512, false],
  ['icon-maskable-512', 512, true],
]) {
  // A maskable icon is cropped to a circle by some launchers: full-bleed background, drawing inside 72 %.
  const svg = icon.replace('RADIUS', maskable ? '0' : '14').replace('SCALE', maskable ? '0.72' : '1');
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
  );
  await page.screenshot({
    path: path.join(root, `public/icons/${name}.png`),
    omitBackground: true,
    clip: { x: 0, y: 0, width: size, height: size },
  });
}

for (const locale of ['fr', 'en']) {
  await page.setContent(await readFile(path.join(root, `scripts/assets/help.${locale}.html`), 'utf8'));
  await page.pdf({
    path: path.join(root, `public/help.${locale}.pdf`),
    format: 'A4',
    printBackground: true,
    margin: { top: '18mm', bottom: '18mm', left: '16mm', right: '16mm' },
  });
}
await browser.close();
console.log('icons and help PDFs rendered');
