import { useEffect, useState } from 'react';
import { Button, Modal } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { fetchCurrentUser } from '../../api/accounts';
import { useAuth } from '../../lib/AuthProvider';
import { lastActivity } from '../../lib/storage';

/** Minutes before the idle time-out that the warning opens. */
export const IDLE_WARNING_MINUTES = 2;

/**
 * Warns before the server's idle time-out (SESSION_IDLE_MINUTES, ASVS V3.3.2) and ends the session here when it runs out.
 * Use is what the server counts: a call with the session token (lastActivity, shared by this browser's tabs). The server
 * records use up to `session_idle_slack_minutes` late, so its session may end that much early: the warning opens 2
 * minutes before that earliest end. "Stay signed in" makes one authenticated call (GET accounts/user/), which counts as
 * use; if the session already ended, the 401 sends the user to the login page with "Your session ended".
 */
export function IdleWarning() {
  const { isAuthenticated, user, sessionLost } = useAuth();
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const idleMin = user?.session_idle_minutes ?? 0;
  const slackMin = user?.session_idle_slack_minutes ?? 0;

  useEffect(() => {
    if (!isAuthenticated || idleMin <= 0) {
      setSecondsLeft(null);
      return;
    }
    const tick = () => {
      const last = lastActivity() ?? Date.now();
      const earliestEnd = last + (idleMin - slackMin) * 60_000;
      const left = Math.round((earliestEnd - Date.now()) / 1000);
      if (Date.now() > last + idleMin * 60_000) {
        setSecondsLeft(null);
        sessionLost();
      } else setSecondsLeft(left <= IDLE_WARNING_MINUTES * 60 ? Math.max(0, left) : null);
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [isAuthenticated, idleMin, slackMin, sessionLost]);

  const stay = async () => {
    setRefreshing(true);
    try {
      await fetchCurrentUser();
    } catch {
      // a 401 already dropped the session (the login page says it ended); nothing else to do
    } finally {
      setRefreshing(false);
    }
  };

  const minutes = secondsLeft === null ? 0 : Math.floor(secondsLeft / 60);
  const seconds = secondsLeft === null ? 0 : secondsLeft % 60;
  return (
    <Modal
      open={secondsLeft !== null}
      title={
        <span>
          <ClockCircleOutlined /> Are you still there?
        </span>
      }
      closable={false}
      maskClosable={false}
      keyboard={false}
      className="crp-session-modal"
      footer={
        <Button type="primary" onClick={() => void stay()} loading={refreshing} data-testid="stay-signed-in">
          Stay signed in
        </Button>
      }
      width={420}
    >
      <p>You have not used the platform for a while. For your security, your session ends after {idleMin} minutes without activity.</p>
      <p role="timer" aria-live="polite" data-testid="idle-countdown">
        It ends in {minutes}:{String(seconds).padStart(2, '0')}.
      </p>
    </Modal>
  );
}
