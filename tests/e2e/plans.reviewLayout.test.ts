// Where "Review plans" is chosen and how the review card sits in the window: a new, empty
// conversation offers the choice before the first send (and in Conversation settings), the
// header shows the whole label at 1280 px and wider, and with 8 tasks the card never takes
// more than half of the conversation's height at 800×600, 1280×800, 1920×1080 and
// 2560×1440: its list scrolls inside it, its buttons stay in view, and the model's
// explanation in the last reply stays on screen beside it.
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { appPerFile } from './support/appPerFile';
import { turnQueue } from './support/chatScript';
const turns = turnQueue({ title: () => 'Eight steps' });
const TITLES = Array.from({ length: 8 }, (_, i) => `Step ${i + 1}: a task with a title long enough to be read`);
const EXPLANATION = 'I split the work into eight steps so that each one can be checked on its own.';

const { app } = appPerFile({ name: 'plan-review-layout', server: { script: turns.script } });

/** Whether a select shows its chosen option's whole text (a select cannot report overflow itself). */
function showsWholeLabel(select: Locator): Promise<boolean> {
  return select.evaluate((el: HTMLSelectElement) => {
    const style = getComputedStyle(el);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    const text = context.measureText(el.selectedOptions[0].text).width;
    // Room for the text: the box less its padding and the drop-down arrow (about 20 px).
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return text <= room;
  });
}

describe('choosing the review mode', () => {
  it('a new, empty conversation offers it before the first send, and in Conversation settings', async () => {
    const page = app.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const select = page.getByRole('combobox', { name: 'Review plans' });
    expect(await select.inputValue()).toBe('before_acting');
    await select.selectOption('every_plan');
    // The dialog shows the same choice.
    await page.getByRole('button', { name: 'Conversation settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Conversation settings' });
    expect(await dialog.getByRole('combobox', { name: 'Review plans' }).inputValue()).toBe('every_plan');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('the review card fits the window', () => {
  it('takes at most half of the conversation with 8 tasks, buttons and explanation in view', async () => {
    const page = app.page;
    turns.push(
      {
        toolCalls: [
          {
            name: 'manage_todo_list',
            arguments: JSON.stringify({
              todoList: TITLES.map((title, i) => ({ id: i + 1, title, status: 'pending' })),
            }),
          },
        ],
      },
      { text: EXPLANATION },
    );
    // Sent in the conversation of the test above: "Every plan", chosen before the first send, opens the card.
    await page.getByRole('textbox', { name: 'Message' }).fill('Plan the eight steps.');
    await page.keyboard.press('Enter');
    const card = page.getByRole('region', { name: 'Review the plan' });
    await card.waitFor({ timeout: 20_000 });
    const conversation = page.getByRole('region', { name: 'Eight steps' });
    const select = conversation.getByRole('combobox', { name: 'Review plans' });
    expect(await select.inputValue()).toBe('every_plan');
    // The header shows the whole label from 1280 px on.
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(() => showsWholeLabel(select)).toBe(true);
    }

    for (const [width, height] of [
      [800, 600],
      [1280, 800],
      [1920, 1080],
      [2560, 1440],
    ]) {
      await page.setViewportSize({ width, height });
      await expect
        .poll(async () => {
          const [c, v] = await Promise.all([card.boundingBox(), conversation.boundingBox()]);
          return c && v ? c.height / v.height : 1;
        })
        .toBeLessThanOrEqual(0.5);
      // The buttons are inside the window, and so is the last reply's explanation.
      for (const name of ['Approve', 'Request changes', 'Approve and run on Autopilot']) {
        const box = await card.getByRole('button', { name, exact: true }).boundingBox();
        expect(box, `${name} at ${width}×${height}`).not.toBeNull();
        expect(box!.y + box!.height, `${name} at ${width}×${height}`).toBeLessThanOrEqual(height);
      }
      const reply = await page.getByText(EXPLANATION).boundingBox();
      expect(reply, `the explanation at ${width}×${height}`).not.toBeNull();
      expect(reply!.y + reply!.height).toBeLessThanOrEqual(height);
      const cardBox = (await card.boundingBox())!;
      expect(reply!.y).toBeGreaterThanOrEqual(cardBox.y + cardBox.height);
    }
    // At the smallest size the list scrolls inside the card.
    await page.setViewportSize({ width: 800, height: 600 });
    const body = card.locator('.plan-review-body');
    await expect.poll(() => body.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await card.getByRole('button', { name: /^Task 8, pending/ }).scrollIntoViewIfNeeded();
    expect(await card.getByRole('button', { name: 'Approve', exact: true }).isVisible()).toBe(true);
  });
});
