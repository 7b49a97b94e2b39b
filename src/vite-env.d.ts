/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/react" />

declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}

interface ImportMetaEnv {
  /** The build of Terrain (vite.config.ts `define`); absent in unbuilt code (unit tests). */
  readonly TERRAIN_BUILD?: string;
}
