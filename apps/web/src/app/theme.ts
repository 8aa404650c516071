import type { ThemeConfig } from 'antd';
import { SIDEBAR_COLLAPSED_WIDTH_PX } from '@crp/contracts';
import { palette } from '../lib/brand';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: palette.teal,
    colorInfo: '#2563eb',
    colorLink: palette.teal,
    colorText: palette.ink,
    colorTextSecondary: palette.muted,
    borderRadius: 8,
    fontFamily: "Inter, 'Segoe UI', system-ui, -apple-system, 'Helvetica Neue', Arial, 'Noto Sans', 'Liberation Sans', sans-serif",
    colorBgLayout: palette.surface,
  },
  components: {
    Layout: { siderBg: palette.navy, bodyBg: palette.surface },
    Menu: {
      darkItemBg: palette.navy,
      darkSubMenuItemBg: palette.navyDeep,
      darkItemSelectedBg: palette.teal,
      darkItemColor: 'rgba(255,255,255,0.72)',
      darkItemHoverColor: '#ffffff',
      collapsedWidth: SIDEBAR_COLLAPSED_WIDTH_PX,
      itemHeight: 44,
      iconSize: 17,
      collapsedIconSize: 19,
    },
    Card: { headerFontSize: 16 },
  },
};
