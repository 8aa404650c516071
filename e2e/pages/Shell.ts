import type { Page } from 'playwright-core';

/** The signed-in sidebar shell. */
export class Shell {
  constructor(private readonly page: Page) {}

  sidebar() {
    return this.page.getByTestId('sidebar');
  }

  async sidebarWidth(): Promise<number> {
    const box = await this.sidebar().boundingBox();
    return Math.round(box?.width ?? 0);
  }

  async toggleSidebar(): Promise<void> {
    await this.page.getByRole('button', { name: /^(Collapse|Expand) sidebar$/ }).click();
    await this.page.waitForTimeout(400); // width transition
  }

  menuItem(name: string) {
    return this.sidebar().getByRole('menuitem', { name });
  }

  async logout(): Promise<void> {
    await this.menuItem('Logout').click();
    await this.page.waitForURL('**/login');
  }
}
