import { createInterface } from 'node:readline/promises';

export interface Credentials {
  login: string;
  password: string;
}

/** `TERRAIN_LOGIN` and `TERRAIN_PASSWORD`, else asked on the terminal (the password without echo). */
export async function readCredentials(): Promise<Credentials> {
  const login = process.env.TERRAIN_LOGIN || (await ask('Login: '));
  const password = process.env.TERRAIN_PASSWORD || (await askHidden('Password: '));
  return { login, password };
}

async function ask(question: string): Promise<string> {
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  try {
    // Input that ends unanswered (no terminal, nothing piped) would otherwise leave the question waiting forever.
    return await new Promise<string>((resolve, reject) => {
      lines.once('close', () => reject(new Error('no login or password: set TERRAIN_LOGIN and TERRAIN_PASSWORD')));
      lines.question(question).then((answer) => resolve(answer.trim()), reject);
    });
  } finally {
    lines.close();
  }
}

/** Reads a line without showing it; without a terminal (a pipe) it is read as it comes. */
function askHidden(question: string): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) return ask(question);
  process.stderr.write(question);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n') return done();
        if (character === '\u0003') return done(new Error('interrupted'));
        if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
        else typed += character;
      }
    };
    input.on('data', onData);
  });
}
