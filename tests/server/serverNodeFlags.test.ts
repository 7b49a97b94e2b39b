import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_V8_FLAGS } from '../../scripts/serverNode.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

// The server's V8 flags only act from the command line, so every way of starting it must carry them.
describe("the server's V8 flags", () => {
  it('are on every command that starts the server: npm start and serve, the systemd unit of the deployment guide', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const unit = read('docs/deploy.md')
      .split('\n')
      .filter((line) => line.includes('server/main.ts') && line.startsWith('ExecStart='));
    const commands = [scripts.start, scripts.serve, ...unit];
    expect(unit).toHaveLength(1);
    for (const command of commands) {
      const node = command.slice(command.lastIndexOf('node '));
      for (const flag of SERVER_V8_FLAGS) expect(node, command).toContain(`${flag} `);
      expect(node.indexOf(SERVER_V8_FLAGS[0]), command).toBeLessThan(node.indexOf('server/main.ts'));
    }
  });
});
