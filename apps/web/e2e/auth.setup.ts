import { expect, test as setup } from '@playwright/test';
import { ACCOUNTS, STORAGE_STATE, ja, signIn } from './support.ts';

// Sessions saved here start in Japanese (the default) and the light scheme; journeys change either
// only inside their own browser context.
const roles = [
  { role: 'staff', email: ACCOUNTS.staff },
  { role: 'student', email: ACCOUNTS.savedStudent },
] as const;

for (const { role, email } of roles) {
  setup(`sign in as ${role}`, async ({ page }) => {
    await page.goto('/login');
    await signIn(page, email, { language: '日本語' });
    await expect(page).toHaveURL(/\/course$/);
    await expect(page.getByRole('heading', { level: 1, name: ja.routes.course })).toBeVisible();
    await page.context().storageState({ path: STORAGE_STATE[role] });
  });
}
