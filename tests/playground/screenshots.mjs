// Regenerates the README's screenshots (web/screenshots/) from the built site against a real
// agent-gateway: the workbench at 1280 × 800 after two turns with the echo agent, and at 390 × 844.
//
// Run: node tests/playground/screenshots.mjs   (after scripts/build-site and cargo build -p agent-gateway)

import { join } from 'node:path';

import { launchBrowser, openPlayground, repo, sendTurn as turn, settled, showForm, startGateway, TEXT_INPUT } from './support.mjs';

const out = join(repo, 'web', 'screenshots');

const gateway = await startGateway();
const browser = await launchBrowser();
try {
  for (const [name, width, height] of [['workbench-1280', 1280, 800], ['workbench-390', 390, 844]]) {
    const { page, context } = await openPlayground(browser, gateway.base, { width, height });
    await showForm(page, 'text');
    await turn(page, 'What can this agent do?', 1);
    await turn(page, 'And how do I register it on my cluster?', 2);
    await page.fill(TEXT_INPUT, 'Show me the request for Gemini');
    await settled(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(out, `${name}.png`) });
    console.log(join(out, `${name}.png`));
    await context.close();
  }
} finally {
  await browser.close();
  await gateway.stop();
}
