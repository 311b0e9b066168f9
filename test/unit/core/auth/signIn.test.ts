import * as assert from 'node:assert/strict';
import { AuthTestKit, textOf } from './authTestKit';

describe('core/auth: sign-in against the OAuth fixture (real flows)', () => {
  let kit: AuthTestKit;
  beforeEach(() => (kit = new AuthTestKit()));
  afterEach(() => kit.dispose());

  it('discovers, registers, signs in through the browser and calls a tool', async () => {
    const f = await kit.fixture();
    const c = await kit.connect(f.mcpUrl);
    const result = await c.callTool('echo', { text: 'hi' });
    assert.equal(textOf(result), 'echo: hi');
    assert.equal(kit.signIns.length, 1);
    assert.equal(kit.signIns[0].kind, 'signedIn');
  });
});
