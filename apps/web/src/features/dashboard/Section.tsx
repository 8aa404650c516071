import { useState, type ReactNode } from 'react';
import { Button, Card, Empty, Modal } from 'antd';
import { InfoCircleOutlined } from '@ant-design/icons';
import { UpgradePanel } from '../../ui/UpgradePanel';

export { UPGRADE_TEXT } from '../../ui/UpgradePanel';

/** The tier does not allow this section (spec 001 §6): its data is null; the panel offers the upgrade (issue 37 item 1). */
export function UpgradePlaceholder() {
  return <UpgradePanel />;
}

/** An info icon opening a modal with the explanation of a figure. */
export function InfoButton({ title, children, width }: { title: string; children: ReactNode; width?: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="text" size="small" shape="circle" icon={<InfoCircleOutlined />} aria-label={`About ${title}`} onClick={() => setOpen(true)} />
      <Modal
        title={title}
        open={open}
        width={width}
        onCancel={() => setOpen(false)}
        footer={<Button onClick={() => setOpen(false)}>Close</Button>}
        destroyOnHidden
      >
        <div data-testid="info-modal">{children}</div>
      </Modal>
    </>
  );
}

/** A dashboard card: title with an optional info modal, extra controls, and the upgrade placeholder when locked. */
export function Section({
  title,
  info,
  extra,
  locked,
  children,
  testId,
  empty,
}: {
  title: ReactNode;
  info?: { title: string; body: ReactNode };
  extra?: ReactNode;
  locked?: boolean;
  children?: ReactNode;
  testId?: string;
  empty?: boolean;
}) {
  return (
    <Card
      className="crp-card crp-dash-section"
      data-testid={testId}
      title={
        <span className="crp-dash-section-title">
          {title}
          {info && <InfoButton title={info.title}>{info.body}</InfoButton>}
        </span>
      }
      extra={locked ? undefined : extra}
    >
      {locked ? <UpgradePlaceholder /> : empty ? <Empty description="No data for these filters" /> : children}
    </Card>
  );
}
