import { useCallback } from 'react';
import { App } from 'antd';
import { useNavigate } from 'react-router-dom';
import type { Notification } from '@crp/contracts';
import { markNotificationRead } from '../api/accounts';

type ToastType = 'success' | 'warning' | 'error' | 'info';

/** success, warning and error keep their type; anything else shows as info (spec 000 §3). */
export function toastType(notificationType: string): ToastType {
  return notificationType === 'success' || notificationType === 'warning' || notificationType === 'error' ? notificationType : 'info';
}

/**
 * Shows pending notifications as toasts that stay until closed (duration 0). Closing one tells the
 * server it has been read; clicking one with an in-app link (e.g. /changelog) opens that page and marks it read too.
 * A success or info notification (a welcome, an approval, a release) asks nothing of the user: it is read once shown,
 * so it does not come back at every login when the toast was left open (issue 37 item 6). A warning or error stays
 * unread until its toast is closed or opened, or the server settles it (a join request decided).
 */
export function useNotificationToasts(): (items: readonly Notification[]) => void {
  const { notification } = App.useApp();
  const navigate = useNavigate();

  return useCallback(
    (items: readonly Notification[]) => {
      for (const item of items) {
        const key = `notification-${item.id}`;
        const markRead = () => markNotificationRead(item.id).catch((err: unknown) => console.warn('mark_notification_read failed', err));
        const link = item.link && item.link.startsWith('/') ? item.link : null;
        notification.open({
          key,
          type: toastType(item.notification_type),
          title: item.title,
          description: item.message,
          duration: 0,
          placement: 'topRight',
          className: link ? 'crp-toast crp-toast-link' : 'crp-toast',
          props: { 'data-testid': `notification-${item.id}` },
          onClick: link
            ? () => {
                // opened is read: it does not come back at the next login (destroy does not call onClose)
                void markRead();
                navigate(link);
                notification.destroy(key);
              }
            : undefined,
          onClose: () => void markRead(),
        });
        if (toastType(item.notification_type) === 'success' || toastType(item.notification_type) === 'info') void markRead();
      }
    },
    [notification, navigate],
  );
}
