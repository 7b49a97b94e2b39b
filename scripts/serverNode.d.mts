export const SERVER_V8_FLAGS: string[];
export function serverNodeArgs(extra?: string[]): string[];
