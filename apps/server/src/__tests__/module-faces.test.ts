// The module-faces rule's judgement: a module is entered through its index.ts only, and channels/,
// platform/ and db/ never import modules/. Paths are resolved, so depth and spelling don't matter.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { faceProblem } from '../../eslint-rules/module-faces.js';

const SRC = path.resolve(import.meta.dirname, '..');
const at = (file: string) => path.join(SRC, file);

describe('module faces', () => {
  it("refuses another module's private files, at any depth", () => {
    expect(faceProblem(at('modules/agents/agents.runs.ts'), '../sends/sends.repository')).toMatchObject({
      messageId: 'privateFile',
      data: { from: 'agents', to: 'sends', file: 'sends.repository' },
    });
    expect(faceProblem(at('modules/whatsapp/messages/x.ts'), '../../conversations/list/list')).toMatchObject({
      messageId: 'privateFile',
      data: { from: 'whatsapp', to: 'conversations' },
    });
    expect(faceProblem(at('app.ts'), './modules/sms/sms.routes')).toMatchObject({ messageId: 'privateFile' });
  });

  it('lets a module import its own files, another module through its face, and packages', () => {
    expect(faceProblem(at('modules/agents/runs/page.ts'), '../agents.repository')).toBeNull();
    expect(faceProblem(at('modules/agents/agents.runs.ts'), '../sends')).toBeNull();
    expect(faceProblem(at('modules/agents/agents.runs.ts'), '../sends/index')).toBeNull();
    expect(faceProblem(at('modules/agents/agents.runs.ts'), '../sends/index.ts')).toBeNull();
    expect(faceProblem(at('modules/agents/agents.runs.ts'), '@titan/contracts')).toBeNull();
    expect(faceProblem(at('modules/agents/agents.runs.ts'), '../../platform/errors')).toBeNull();
  });

  it('refuses modules/ below the modules, even through a face', () => {
    for (const file of [
      'platform/safe-fetch.ts',
      'channels/sms-twilio/sms-twilio.adapter.ts',
      'db/client.ts',
    ]) {
      const specifier = path.relative(path.dirname(at(file)), at('modules/email-domains'));
      expect(faceProblem(at(file), specifier)).toMatchObject({ messageId: 'lowerLayer' });
    }
  });
});
