import { App, Button, Modal } from 'antd';
import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';

export const RECOVERY_CODES_FILE = 'climate-risk-platform-recovery-codes.txt';

/**
 * The ten recovery codes, shown once (issue 37 item 6): copy or download them, then close. The server keeps only
 * salted hashes, so nobody can show them again: new ones are made from the 2FA card.
 */
export function RecoveryCodesModal({ codes, username, onClose }: { codes: string[] | null; username?: string | undefined; onClose: () => void }) {
  const { message } = App.useApp();
  const text = (codes ?? []).join('\n');
  const fileText =
    `Climate Risk Platform: two-factor recovery codes${username ? ` of ${username}` : ''}\n` +
    `Made ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Each code works once, in place of the 6-digit code at login.\n\n${text}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success('Recovery codes copied.');
    } catch {
      void message.error('Copying is not allowed here: download the codes or write them down.');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([fileText], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = RECOVERY_CODES_FILE;
    a.click();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <Modal open={codes !== null} title="Save your recovery codes" onCancel={onClose} footer={null} width={480} maskClosable={false} destroyOnHidden>
      <p>
        If you lose your phone or cannot receive your e-mail code, sign in with one of these codes instead of the 6-digit code. Each works <strong>once</strong>
        . Keep them somewhere safe (a password manager, or on paper).
      </p>
      <p className="crp-muted">
        <strong>They are shown only now.</strong> We keep only a fingerprint of each code, so we cannot show them again.
      </p>
      <ol className="crp-recovery-codes" data-testid="recovery-codes">
        {(codes ?? []).map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="crp-modal-actions">
        <Button icon={<CopyOutlined />} onClick={() => void copy()}>
          Copy
        </Button>
        <Button icon={<DownloadOutlined />} onClick={download}>
          Download .txt
        </Button>
        <Button type="primary" onClick={onClose}>
          I saved them
        </Button>
      </div>
    </Modal>
  );
}
