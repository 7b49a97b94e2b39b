/**
 * The build of Terrain running in this page, set once at build time (vite.config.ts). Unit tests run unbuilt code:
 * they read 'unbuilt'.
 */
export const RUNNING_BUILD: string = import.meta.env.TERRAIN_BUILD ?? 'unbuilt';
